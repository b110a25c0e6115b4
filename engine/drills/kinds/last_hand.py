"""Last-hand drills: your side's last hand; partner has led two cards and holds no more — which
three cards do you play?

The side with the higher hand score at the end of the deal adds ten times the other side's
left-overs, so in its last hand a side plays for the deal, not for the hand: far behind, the
three cards that keep the six left behind weak can be worth more than a made hand; ahead or
close, the hand that keeps the side ahead. The options are fills of the hand (three of your
cards; partner, holding none, is skipped), each worth :func:`engine.bots.deal_end.deal_worth`
to the deal: its points, and the left-over bonus it wins or concedes.

That valuation is exact here, so the key has no sampling error: partner holds no card, and the
other side's eleven cards are the ones you cannot see (every completed hand lies face up). Its
last hand, still to come, is taken to be the best five of them (the bot's model, said in the
explanation). A position is posed only where the rules and the model agree on every fill (no
tie the rules would break by ranks; every five the other side could make its best with leaves
left-overs of one value; under the contribution rule, no fours or straight flush, whose split
the model does not ask) and the key beats every other option by :data:`MARGIN` points of the
deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from engine.bots.deal_end import Stakes, deal_worth, six_value, their_end
from engine.bots.hands import points5
from engine.cards import DECK, Card, sort_cards
from engine.drills.kinds.base import AnswerKey, KindSpec, Topic, register
from engine.drills.model import LAST_HAND_SKILLS, Answer, Drill, DrillKind, DrillParams, Option
from engine.drills.situation import Table, _random_counts, _split_hands
from engine.drills.words import shuffled
from engine.errors import InvalidNotationError
from engine.game import Action, DealState
from engine.messages import Cards, Msg, Text, register_words
from engine.scoring import Combination, category_index, evaluate, get_rule, rule_values
from engine.seats import Seat, Side
from engine.signals import Convention

__all__ = ["MARGIN", "SKILLS", "FillWorth", "LastHandKind", "fill_worths", "last_hand_state"]

#: How many points of the deal the key beats every other option by, at least.
MARGIN = 4
#: What the drills practise: making the hand, or keeping the side's left-overs low.
SKILLS = LAST_HAND_SKILLS
#: Positions drawn before a build gives up (the seed then names no drill of that skill).
TRIES = 600
#: The side hand of every drill, and who sits where: partner (South) leads it, you are North.
SIDE_HAND = 4
LEADER, LEARNER = Seat.S, Seat.N

register_words(
    {
        "kind.last-hand.title": "Play the last hand",
        "kind.last-hand.description": (
            "Your side's last hand decides who collects the left-over bonus: make the hand, or "
            "keep your left-overs low."
        ),
        "last_hand.skill.make_hand": "Make the hand",
        "last_hand.skill.keep_low": "Keep your left-overs low",
        "drill.last_hand.prompt": (
            "Your side's last hand. Hand scores so far: your side %(ours)s, the other side "
            "%(theirs)s, whose last hand is still to come. Partner led %(c1)s and %(c2)s and "
            "holds no more cards. Which three cards do you play?"
        ),
        "drill.last_hand.option": "Play %(cards)s",
        "drill.last_hand.explanation": (
            "%(cards)s: the hand scores %(points)s and your six left-overs are worth "
            "%(left)s, so the deal moves %(worth)s for your side. The other side's eleven cards "
            "are the ones you cannot see: their best five score %(their_points)s and leave "
            "left-overs worth %(their_left)s."
        ),
        "drill.last_hand.worth": (
            "%(cards)s: the hand %(points)s, your left-overs %(left)s, the deal %(worth)s."
        ),
        "drill.last_hand.exact": (
            "Worked out exactly: partner holds no cards, and the other side is taken to make "
            "its best five."
        ),
    }
)


@dataclass(frozen=True, slots=True)
class FillWorth:
    """One way to complete the hand: the three cards, the hand's points, the value of the six
    left-overs it leaves, and what it is worth to the deal (the change in the side's lead)."""

    cards: tuple[Card, ...]
    points: int
    left: int
    worth: int

    @property
    def key(self) -> str:
        return " ".join(str(c) for c in self.cards)


def _value(five: Sequence[Card], values: Sequence[int]) -> int:
    """Five cards' points by a rule's table (a contribution split taken at its most)."""
    a, b, c, d, e = (card.index for card in five)
    return values[category_index(a, b, c, d, e)]


def _earlier_hand(rng: random.Random, pool: list[Card], values: tuple[int, ...]) -> list[Card]:
    """Five cards of ``pool`` for an earlier hand: the best of a few draws, a few chosen so
    that hand scores vary as in real deals (some sides made a flush, some nothing)."""
    draws = [rng.sample(pool, 5) for _ in range(rng.choice((1, 3, 10, 40)))]
    best = max(draws, key=lambda h: _value(h, values))
    for c in best:
        pool.remove(c)
    return best


def _table(rng: random.Random, rule_name: str) -> Table:
    """A deal at the start of North–South's last hand: South (partner) holds two cards, North
    (you) nine, after three hands of each side played face up."""
    values = rule_values(get_rule(rule_name))
    deck = list(DECK)
    rng.shuffle(deck)
    leader, learner, pool = deck[:2], deck[2:11], deck[11:]
    hands = [_earlier_hand(rng, pool, values) for _ in range(6)]
    own = [c for h in hands[0::2] for c in h]
    theirs = [c for h in hands[1::2] for c in h]
    own_hands = _split_hands(rng, own, [Seat.N, Seat.S, Seat.N], {LEADER: 11, LEARNER: 4})
    their_seats = [Seat.E, Seat.W, Seat.E]
    their_hands = _split_hands(rng, theirs, their_seats, _random_counts(rng, their_seats, 15))
    return Table(
        SIDE_HAND,
        tuple(sort_cards(leader)),
        tuple(sort_cards(learner)),
        own_hands,
        their_hands,
        tuple(sort_cards(pool)),
    )


def last_hand_state(drill: Drill) -> DealState:
    """The drill's moment on a real deal: partner's two cards led (you passing between), you
    to complete the hand."""
    if drill.table is None or drill.signal is None:
        raise InvalidNotationError(f"a {drill.kind} drill has no last hand to play")
    return drill.table.play_to_signal(drill.signal, drill.params.rule)


def _stakes(state: DealState) -> Stakes:
    scores = state.hand_scores()
    return Stakes(ours=scores[Side.NS], theirs=scores[Side.EW])


def fill_worths(drill: Drill) -> tuple[Stakes, tuple[int, int], list[FillWorth]]:
    """The stakes before the hand, the other side's last hand and left-overs as the model takes
    them, and every fill of the hand with its worth to the deal (best first: the most worth,
    then the most points, then the lower cards)."""
    assert drill.signal is not None
    c1, c2 = drill.signal
    assert c2 is not None
    if drill.table is None:
        raise InvalidNotationError(f"a {drill.kind} drill has no last hand to play")
    rule = get_rule(drill.params.rule)
    values = rule_values(rule)
    three_pairs = rule.value(Combination.THREE_PAIRS)
    stakes = _stakes(drill.table.play_to_start(rule.name))
    theirs = their_end(_unseen(drill), values, three_pairs)
    seats = [LEADER, LEADER, LEARNER, LEARNER, LEARNER]
    out = []
    for fill in combinations(sort_cards(drill.hand), 3):
        points = points5([c1, c2, *fill], seats, rule)
        left = six_value([c for c in drill.hand if c not in fill], values, three_pairs)
        out.append(FillWorth(fill, points, left, deal_worth(points, left, theirs, stakes)))
    out.sort(key=_best_first)
    return stakes, theirs, out


def _best_first(f: FillWorth) -> tuple[int, int, list[int]]:
    """The order of fills: the most worth, then the most points, then the lower cards."""
    return (-f.worth, -f.points, [c.index for c in f.cards])


def _model_is_the_rules(
    stakes: Stakes, theirs: tuple[int, int], fills: list[FillWorth], drill: Drill
) -> bool:
    """Whether the model's worth is the rules' for every fill: no hand-score tie with equal
    left-over values (the rules then compare ranks), and under the contribution rule no
    fours or straight flush among either side's left-overs (whose split the model skips)."""
    their_points, their_left = theirs
    for f in fills:
        if stakes.ours + f.points == stakes.theirs + their_points and f.left == their_left:
            return False
    # Their last hand is "their best five": every five that scores as much must leave the same
    # left-overs' value, or which five they play would change the bonus.
    rule = get_rule(drill.params.rule)
    values = rule_values(rule)
    three_pairs = rule.value(Combination.THREE_PAIRS)
    unseen = _unseen(drill)
    for five in combinations(unseen, 5):
        if _value(five, values) == their_points:
            rest = [c for c in unseen if c not in five]
            if six_value(rest, values, three_pairs) != their_left:
                return False
    if drill.params.rule == "contribution":
        strong = (Combination.FOURS, Combination.STRAIGHT_FLUSH)
        # Any five of your nine cards or of their eleven: every six left over is among them.
        for cards in (drill.hand, unseen):
            if any(evaluate(five) in strong for five in combinations(cards, 5)):
                return False
    return True


def _unseen(drill: Drill) -> list[Card]:
    """The cards the learner cannot see: exactly the other side's eleven (partner holds none)."""
    assert drill.signal is not None
    seen = {
        *drill.hand,
        *drill.signal,
        *(c for h in (*drill.completed, *drill.opponents) for c in h),
    }
    return [c for c in DECK if c not in seen]


def _options(fills: list[FillWorth], rng: random.Random) -> list[FillWorth] | None:
    """The key (the best fill) and up to three fills at least :data:`MARGIN` below it: the one
    that scores most, the one that leaves the weakest left-overs, then others at random."""
    best = fills[0]
    far = [f for f in fills[1:] if f.worth <= best.worth - MARGIN]
    if len(far) < 2:
        return None
    picks: list[FillWorth] = []
    for candidate in (
        max(far, key=lambda f: (f.points, f.worth)),
        min(far, key=lambda f: (f.left, -f.worth)),
        *rng.sample(far, min(len(far), 6)),
    ):
        if candidate not in picks:
            picks.append(candidate)
        if len(picks) == 3:
            break
    return [best, *picks]


@register
class LastHandKind(KindSpec):
    kind = DrillKind.LAST_HAND
    title = Msg("kind.last-hand.title")
    description = Msg("kind.last-hand.description")
    level = 3
    topic = Topic.SCORING
    lesson = ("the-last-hand", "make-it-or-keep-it-low")

    def skills(self, convention: Convention) -> tuple[str, ...]:
        return SKILLS

    def skill_title(self, skill: str) -> str:
        return Msg(f"last_hand.skill.{skill}") if skill in SKILLS else skill

    def feasible(self, skill: str, params: DrillParams, convention: Convention) -> bool:
        return (
            skill in SKILLS and params.side_hand in (None, SIDE_HAND) and params.hand_size is None
        )

    def leader_size(self, drill: Drill) -> int | None:
        return 2  # partner led its last two cards

    def build(self, seed: int, params: DrillParams, rng: random.Random, skill: str) -> Drill:
        for _ in range(TRIES):
            table = _table(rng, params.rule)
            c1, c2 = table.leader
            if rng.random() < 0.5:
                c1, c2 = c2, c1
            drill = Drill(
                kind=self.kind,
                seed=seed,
                params=params,
                skill=skill,
                side_hand=SIDE_HAND,
                prompt="",
                hand=table.partner,
                completed=table.completed,
                opponents=table.opponents,
                signal=(c1, c2),  # both on the table: nothing of partner's is hidden
                partner_size=len(table.partner),
                table=table,
            )
            stakes, theirs, fills = fill_worths(drill)
            makes = fills[0].points == max(f.points for f in fills)
            if (skill == "make_hand") != makes:
                continue
            chosen = _options(fills, rng)
            if chosen is None or not _model_is_the_rules(stakes, theirs, fills, drill):
                continue
            prompt = Msg(
                "drill.last_hand.prompt",
                ours=stakes.ours,
                theirs=stakes.theirs,
                c1=Cards((c1,)),
                c2=Cards((c2,)),
            )
            options = [Option(f.key, _label(f.cards)) for f in chosen]
            return replace(drill, prompt=prompt, options=shuffled(options, rng))
        raise InvalidNotationError(Msg("error.drill.no_fit", kind=Msg("kind.last-hand.title")))

    def answer_key(self, drill: Drill) -> AnswerKey:
        _, theirs, fills = fill_worths(drill)
        by_key = {f.key: f for f in fills}
        shown = sorted((by_key[o.key] for o in drill.options), key=_best_first)
        best = shown[0]
        their_points, their_left = theirs
        return AnswerKey(
            accepted=(best.key,),
            expected=_label(best.cards),
            explanation=Msg(
                "drill.last_hand.explanation",
                cards=Cards(best.cards),
                points=best.points,
                left=best.left,
                worth=Text(_signed(best.worth)),
                their_points=their_points,
                their_left=their_left,
            ),
            details=(
                *(
                    Msg(
                        "drill.last_hand.worth",
                        cards=Cards(f.cards),
                        points=f.points,
                        left=f.left,
                        worth=Text(_signed(f.worth)),
                    )
                    for f in shown
                ),
                Msg("drill.last_hand.exact"),
            ),
            highlight=best.cards,
        )

    def parse_key(self, text: str) -> Answer:
        """Three cards, in any order and case (``7h 8H 9h`` → ``7H 8H 9H``)."""
        words = text.split()
        if len(words) != 3:
            raise InvalidNotationError("a last-hand answer is three cards")
        return Answer(option=" ".join(str(c) for c in sort_cards(Card.parse(w) for w in words)))

    def words(self, drill: Drill | None, answer: str) -> str:
        try:
            cards = tuple(Card.parse(w) for w in answer.split())
        except ValueError:
            return answer
        return _label(cards)


def _label(cards: tuple[Card, ...]) -> Msg:
    return Msg("drill.last_hand.option", cards=Cards(tuple(sort_cards(cards))))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("±0" if n == 0 else f"−{-n}")


def play_fill(state: DealState, fill: tuple[Card, ...]) -> DealState:
    """``state`` (the drill's moment) with the learner playing ``fill``: partner, holding no
    cards, is skipped, so each card is the learner's turn. Raises if a play is not legal."""
    state = state.clone()
    for c in fill:
        action = Action.play(c)
        if state.current_player() is not LEARNER or action not in state.legal_actions():
            raise InvalidNotationError(f"{c} cannot be played now")
        state.apply_action(action)
    return state
