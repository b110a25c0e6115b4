"""The pair's own review: where a partnership's conversation went right or wrong.

For each hand a side led in a finished deal: the signal, what the leader held (the first item of
the cards it led from, and whether the lead is one the card gives for them), what partner's
answer implies partner read, the answer the strong partner would have given from partner's seat,
and the points the hand lost against it. :func:`pair_summary` adds up a pair's deals: the items
misread, the items never signalled, the hands that cost most.

How each claim is derived:

- *what partner read*: partner's cards answering the signal are tried against each reading of
  the signal in the card's order (:func:`engine.signals.decode`); the first reading some of those
  cards complete (:func:`engine.signals.reply.completes_reading`) is the one partner's answer
  implies. After "c1 and pass", a card of c1's rank reads the primary reading. A pass or a force
  implies no reading, and is said as such.
- *the strong partner's answer*: the ``strong`` signal bot asked from partner's seat, with
  partner's own observation only.
- *the points lost*: the hand is played on from partner's answer by strong partners in both
  seats; when its points beat the hand as played and partner answered otherwise, the difference
  is lost (0 when partner gave the strong answer: what happened later is not the answer's).

Only finished deals are reviewed (the review shows every card).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.bots.signal import STRONG, SignalBot
from engine.cards import Card
from engine.game import PASS, Action, GameState
from engine.messages import Msg
from engine.play.setup import IllegalPlay, PlaySetup
from engine.play.table import signal_bot
from engine.seats import Seat, Side
from engine.signals import decode, encode, get_convention
from engine.signals.reply import completes_reading

__all__ = ["PairHand", "PairSummary", "pair_hands", "pair_summary"]


@dataclass(frozen=True, slots=True)
class PairHand:
    """One hand the side led. ``signal`` is None when no signal was given (partner played to
    the first card, or the leader had no cards). ``reply`` is partner's answer: the cards played
    before the leader acts again, or a pass or force. ``read`` is the reading it implies (None:
    none, see ``how``: ``completed``, ``added``, ``passed``, ``forced``, ``other``)."""

    deal_number: int
    hand_number: int
    side_hand: int
    leader: Seat
    holding: tuple[Card, ...]
    signal: tuple[Card, Card | None] | None
    held_item: str | None
    by_the_card: bool
    reply: tuple[Action, ...]
    read: str | None
    how: str
    strong: Action | None
    #: The reading the strong partner's answer implies (None: none).
    strong_read: str | None
    points: int
    strong_points: int

    @property
    def lost(self) -> int:
        if self.strong is None or not self.reply or self.reply[0] == self.strong:
            return 0
        return max(0, self.strong_points - self.points)

    @property
    def misread(self) -> bool:
        """Partner's answer read the signal as another item than the leader held."""
        return self.by_the_card and self.read is not None and self.read != self.held_item

    @property
    def missed(self) -> bool:
        """Partner's answer read nothing where the strong partner's answer read the signal."""
        return self.by_the_card and self.read is None and self.strong_read is not None


def _side_bots(convention: str) -> SignalBot:
    return signal_bot(convention, STRONG, "card")


@dataclass
class _Led:
    """A hand the side led, as the record is read: where it starts, its actions, and the
    position before partner's answer with the strong partner's answer there (None: no
    signal was given)."""

    deal_number: int
    hand_number: int
    side_hand: int
    leader: Seat
    holding: tuple[Card, ...]
    acts: list[tuple[Seat, Action]]
    before: GameState | None = None
    strong: Action | None = None


def _played_on(state: GameState, convention: str) -> tuple[int, list[tuple[Seat, Action]]]:
    """The points of the current hand when strong partners play it on from ``state``, and
    the actions they took."""
    bot = _side_bots(convention)
    deal = state.deal
    played = len(deal.played_hands)
    taken: list[tuple[Seat, Action]] = []
    while len(deal.played_hands) == played and not deal.is_terminal():
        seat = deal.current_player()
        assert seat is not None
        obs = deal.observation(seat)
        action = bot.choose(obs, obs.legal_actions)
        taken.append((seat, action))
        deal.apply_action(action)
    return deal.played_hands[played].points, taken


def _answer(acts: Sequence[tuple[Seat, Action]], partner: Seat) -> tuple[Action, ...]:
    """Partner's answer: its actions from the first, until the leader acts or one is not a card."""
    answer = []
    for seat, action in acts:
        if seat is not partner:
            break
        answer.append(action)
        if not action.is_play:
            break
    return tuple(answer)


def _read_of(
    signal: tuple[Card, Card | None],
    reply: Sequence[Action],
    side_hand: int,
    convention: str,
    seen: Iterable[Card],
    held: str | None = None,
) -> tuple[str | None, str]:
    """The reading an answer implies: the leader's own item (``held``) when the answer
    completes it, else the first reading in the card's order that it completes."""
    c1, c2 = signal
    if not reply:
        return None, "other"
    if reply[0] == PASS:
        return None, "passed"
    if not reply[0].is_play:
        return None, "forced"
    cards = tuple(a.card for a in reply if a.is_play and a.card is not None)
    conv = get_convention(convention)
    readings = decode(c1, c2, side_hand, conv)
    if c2 is None:
        if readings and any(c.rank == c1.rank for c in cards):
            items = [str(r.item) for r in readings]
            return (held if held in items else items[0]), "completed"
        return None, "added"
    seen_mask = 0
    for c in seen:
        seen_mask |= c.bit
    ordered = sorted(readings, key=lambda r: str(r.item) != held)  # (stable: card order kept)
    for reading in ordered:
        shapes = {r.shape for r in readings if r.item == reading.item}
        if completes_reading(cards, str(reading.item), shapes, c1, c2, conv, seen_mask):
            return str(reading.item), "completed"
    return None, "added"


def pair_hands(setup: PlaySetup, actions: Sequence[Action], side: Side) -> tuple[PairHand, ...]:
    """Every hand ``side`` led in the finished deals of the record, reviewed for the pair."""
    state = GameState.new(setup.seed, setup.rule, setup.dealer, setup.first_hands())
    led: list[_Led] = []
    hand: _Led | None = None
    bot = _side_bots(setup.convention)
    for action in actions:
        deal = state.deal
        if deal.is_terminal():
            raise IllegalPlay(Msg("error.review.not_over"))
        if not deal.current_actions:
            leader = deal.leader
            hand = _Led(len(state.deals), deal.hand_number, deal.side_hand, leader,
                        deal.held(leader), [])  # fmt: skip
            if leader.side is side:
                led.append(hand)
        seat = deal.current_player()
        assert seat is not None and hand is not None
        if hand.leader.side is side and _is_reply_turn(hand.acts, hand.leader):
            hand.before = state.clone()
            obs = deal.observation(seat)
            hand.strong = bot.choose(obs, obs.legal_actions)
        hand.acts.append((seat, action))
        state.apply_action(action)
    finished = {n for n, d in enumerate(state.deals, start=1) if d.is_terminal()}
    if not finished:
        raise IllegalPlay(Msg("error.review.not_over"))
    return tuple(
        _reviewed(
            setup, side, h, state.deals[h.deal_number - 1].played_hands[h.hand_number - 1].points
        )
        for h in led
        if h.deal_number in finished
    )


def _is_reply_turn(current: Sequence[tuple[Seat, Action]], leader: Seat) -> bool:
    """Whether the next action is partner's answer to the signal: leader c1, partner pass,
    leader c2 or pass, then partner."""
    if len(current) != 3:
        return False
    (s1, a1), (s2, a2), (s3, _a3) = current
    return s1 is leader and a1.is_play and s2 is leader.partner and a2 == PASS and s3 is leader


def _reviewed(setup: PlaySetup, side: Side, h: _Led, points: int) -> PairHand:
    deal_number, hand_number, side_hand = h.deal_number, h.hand_number, h.side_hand
    leader, holding, acts, before, strong = h.leader, h.holding, h.acts, h.before, h.strong
    conv = get_convention(setup.convention)
    signal: tuple[Card, Card | None] | None = None
    reply: tuple[Action, ...] = ()
    if before is not None:
        (_, a1), _, (_, a3) = acts[:3]
        assert a1.card is not None
        signal = (a1.card, a3.card if a3.is_play else None)
        reply = _answer(acts[3:], leader.partner)
    enc = encode(holding, side_hand, conv) if holding else None
    held_item = str(enc.item) if enc is not None and enc.item != "none" else None
    by_card = bool(signal and enc is not None and (signal[0], signal[1]) in enc.plays)
    read, how = (None, "other")
    strong_read: str | None = None
    strong_points = points
    if signal is not None and before is not None:
        seen = [c for c in before.deal.held(leader.partner)] + [
            c for h in before.deal.played_hands for c in h.card_list
        ]
        read, how = _read_of(signal, reply, side_hand, setup.convention, seen, held_item)
        if strong is not None:
            trial = before.clone()
            trial.apply_action(strong)
            rest: list[tuple[Seat, Action]] = []
            if len(trial.deal.played_hands) >= hand_number:  # (the answer ended the hand)
                strong_points = trial.deal.played_hands[hand_number - 1].points
            else:
                strong_points, rest = _played_on(trial, setup.convention)
            answer = (strong, *_answer(rest, leader.partner)) if strong.is_play else (strong,)
            strong_read, _ = _read_of(signal, answer, side_hand, setup.convention, seen, held_item)
    return PairHand(
        deal_number=deal_number,
        hand_number=hand_number,
        side_hand=side_hand,
        leader=leader,
        holding=holding,
        signal=signal,
        held_item=held_item,
        by_the_card=by_card,
        reply=reply,
        read=read,
        how=how,
        strong=strong,
        strong_read=strong_read,
        points=points,
        strong_points=strong_points,
    )


@dataclass(frozen=True, slots=True)
class PairSummary:
    """A pair over its deals: hands led, misread items (the leader's item → times), items
    never signalled (checklist order), and the three hands that lost most (most first)."""

    hands: int
    misread: tuple[tuple[str, int], ...]
    never_tried: tuple[str, ...]
    costly: tuple[PairHand, ...]


def pair_summary(hands: Iterable[PairHand], convention: str) -> PairSummary:
    hands = tuple(hands)
    misread = Counter(h.held_item for h in hands if (h.misread or h.missed) and h.held_item)
    tried = {h.held_item for h in hands if h.signal is not None and h.by_the_card}
    never = tuple(str(i) for i in get_convention(convention).checklist if str(i) not in tried)
    costly = tuple(sorted((h for h in hands if h.lost > 0), key=lambda h: -h.lost)[:3])
    return PairSummary(len(hands), tuple(misread.most_common()), never, costly)
