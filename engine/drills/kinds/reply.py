"""Reply drills: partner has signalled and you hold these cards — play, pass or force.

The options are moves the rules allow at that moment: the drill's table is played on a real
:class:`~engine.game.DealState` up to the reply (:meth:`Table.play_to_signal`), and every
option is taken from its legal actions (a card, or two cards played in turn with the leader
passing between, ``pass`` or ``force``).
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.cards import Card
from engine.drills.kinds.base import AnswerKey, KindSpec, Topic, register
from engine.drills.kinds.common import fits, signal_position
from engine.drills.kinds.read import holding_for
from engine.drills.model import Answer, Drill, DrillKind, DrillParams, Option
from engine.drills.words import shuffled, signal_words
from engine.errors import InvalidNotationError
from engine.game import FORCE, PASS, Action, DealState
from engine.messages import Cards, Join, Msg
from engine.signals import Advice, Convention, reply_advice

#: Fewest cards partner holds in a reply drill (fewer leave nothing to choose between).
MIN_REPLY_CARDS = 2


def reply_key(cards: tuple[Card, ...] | str) -> str:
    """An option key: ``pass``, ``force``, ``7H`` or ``7H 8H`` (cards played in turn)."""
    return cards if isinstance(cards, str) else " ".join(str(c) for c in cards)


def reply_label(key: str) -> Msg:
    if key == "pass":
        return Msg("reply.pass")
    if key == "force":
        return Msg("reply.force")
    cards = tuple(Card.parse(k) for k in key.split())
    return Msg("reply.play", cards=Cards(cards, then=True))


def advice_for(drill: Drill) -> Advice:
    assert drill.signal is not None
    c1, c2 = drill.signal
    table_cards = tuple(c for h in (*drill.completed, *drill.opponents) for c in h)
    leader_left = len(drill.source) - (1 if c2 is None else 2)
    return reply_advice(
        drill.hand, c1, c2, drill.side_hand, drill.convention, table_cards, leader_cards=leader_left
    )


def accepted_keys(advice: Advice) -> tuple[str, ...]:
    if advice.action in ("pass", "force"):
        return (advice.action,)
    return tuple(reply_key(cards) for cards in advice.accepted)


def reply_state(drill: Drill) -> DealState:
    """The drill's moment on a real deal: its table played through partner's signal, with the
    replier to act. For read and reply drills (the others have no signal)."""
    if drill.table is None or drill.signal is None:
        raise InvalidNotationError(f"a {drill.kind} drill has no reply to make")
    return drill.table.play_to_signal(drill.signal)


def legal_sequence(state: DealState, key: str) -> bool:
    """Whether the option ``key`` can be played from ``state`` (the reply's moment): a pass,
    a force, or cards played in turn with the leader passing between them."""
    state = state.clone()
    if key in ("pass", "force"):
        return (PASS if key == "pass" else FORCE) in state.legal_actions()
    me = state.current_player()
    for i, word in enumerate(key.split()):
        if i:
            if state.current_player() != me and PASS not in state.legal_actions():
                return False
            if state.current_player() != me:
                state.apply_action(PASS)
        action = Action.parse(word)
        if state.current_player() != me or action not in state.legal_actions():
            return False
        state.apply_action(action)
    return True


@register
class ReplyKind(KindSpec):
    kind = DrillKind.REPLY
    title = Msg("kind.reply.title")
    description = Msg("kind.reply.description")
    level = 3
    topic = Topic.SIGNALS
    lesson = ("replying", "after-two-cards-complete-the-combination")

    def skills(self, convention: Convention) -> tuple[str, ...]:
        return convention.signal_checklist

    def feasible(self, skill: str, params: DrillParams, convention: Convention) -> bool:
        return fits(skill, params, convention, MIN_REPLY_CARDS)

    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        pos, signal = signal_position(rng, params, skill, min_partner=MIN_REPLY_CARDS)
        drill = Drill(
            kind=self.kind,
            seed=seed,
            params=params,
            skill=skill,
            side_hand=pos.side_hand,
            prompt=Msg("drill.reply.prompt", side_hand=pos.side_hand, signal=signal_words(signal)),
            hand=pos.partner,
            completed=pos.table.completed,
            opponents=pos.table.opponents,
            signal=signal,
            source=pos.leader,
            partner_size=len(pos.partner),
            table=pos.table,
        )
        state = pos.table.play_to_signal(signal)
        right = accepted_keys(advice_for(drill))
        options = [Option(right[0], reply_label(right[0]))]
        for key in _distractors(state, right, rng):
            options.append(Option(key, reply_label(key)))
            if len(options) == 4:
                break
        return replace(drill, options=shuffled(options, rng))

    def leader_size(self, drill: Drill) -> int | None:
        return len(drill.source)  # partner led: the hidden source of the signal

    def parse_key(self, text: str) -> Answer:
        """``pass``, ``force``, or the cards played in turn (``7h 8h`` → ``7H 8H``)."""
        words = text.split()
        if not words:
            raise InvalidNotationError("an answer cannot be empty")
        low = [w.lower() for w in words]
        if low in (["pass"], ["force"]):
            return Answer(option=low[0])
        return Answer(option=" ".join(str(Card.parse(w)) for w in words))

    def words(self, drill: Drill | None, answer: str) -> str:
        if answer.startswith("play:"):  # answers stored by the first generator
            answer = " ".join(answer[5:].split("-"))
        return reply_label(answer)

    def answer_key(self, drill: Drill) -> AnswerKey:
        advice = advice_for(drill)
        right = accepted_keys(advice)
        details = []
        if len(right) > 1:
            others = Join(tuple(reply_label(k) for k in right[1:]), "list.comma")
            details.append(Msg("drill.reply.equally", options=others))
        assert drill.signal is not None
        return AnswerKey(
            accepted=right,
            expected=reply_label(right[0]),
            explanation=advice.reason,
            details=tuple(details),
            reveal=drill.source,
            highlight=holding_for(drill.source, drill.signal, drill.convention),
            reveal_label=Msg("drill.partner_held"),
        )


def _distractors(state: DealState, right: tuple[str, ...], rng: random.Random) -> list[str]:
    """Legal replies that are wrong: pass and force when allowed, then single cards and pairs
    of cards that are not part of a right answer."""
    legal = state.legal_actions()
    used = {c for key in right for c in key.split()}
    out = [
        k for k in ("pass", "force") if (PASS if k == "pass" else FORCE) in legal and k not in right
    ]
    cards = [str(a) for a in legal if a.is_play and str(a) not in used]
    rng.shuffle(cards)
    out += cards[:2]
    if len(cards) >= 2 and any(len(k.split()) == 2 for k in right):
        pair = " ".join(sorted(cards[:2], key=lambda k: Card.parse(k).index))
        if pair not in right:
            out.insert(0, pair)
    return [k for k in out if k not in right and legal_sequence(state, k)]
