"""Playing a side's last hand for the deal, not only for its points.

When a side's last hand starts, its two players hold eleven cards between them: five make the
hand and six stay as left-overs. The side whose hand score ends higher adds ten times the value
of the other side's left-overs, so which six stay and whether the hand wins the comparison can
be worth more than the hand's own points (a pair left over costs ten points to a side that
loses the hand scores). :func:`deal_worth` is that trade in points: what the hand adds to the
side's lead at the end of the deal. The ``strong`` partner weighs its reply by it in the last
hand (:func:`engine.bots.odds_reading.odds_plan`) and completes the hand alone by it
(:func:`last_fill`), over hands of its partner's drawn from the cards it cannot see.

Nothing here sees a hidden card: the other side's cards are those no one at the side can see,
taken as a whole (who holds which does not matter to a left-over's value), and its last hand,
when it is still to come, is taken to be the best five of them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.bots.hands import points5
from engine.cards import DECK, Card
from engine.scoring import Combination, ScoringRule, category_index, rule_values
from engine.seats import Seat

__all__ = ["WORLDS", "Stakes", "deal_worth", "last_fill", "six_value", "their_end"]

#: Hands of partner's drawn when a player weighs completing the last hand alone.
WORLDS = 24


@dataclass(frozen=True, slots=True)
class Stakes:
    """The hand scores when the side's last hand starts (public). The side with the higher
    hand score at the end adds ten times the value of the other side's left-overs, so in its
    last hand a side plays for the deal, not for the hand's points alone: which six cards it
    leaves, and whether the hand wins the comparison."""

    #: The replier's side's hand score before this hand.
    ours: int
    #: The other side's hand score so far (its last hand may be still to come: then it holds
    #: eleven cards, else six).
    theirs: int


def six_value(cards: Sequence[Card], values: Sequence[int], three_pairs: int) -> int:
    """The value of six left-over cards (:func:`engine.scoring.leftover_value`, by the fast
    tables; a contribution rule's split of fours and straight flushes is not asked)."""
    best = max(values[category_index(*five)] for five in combinations([c.index for c in cards], 5))
    if three_pairs > best and sorted(Counter(c.rank for c in cards).values()) == [2, 2, 2]:
        return three_pairs
    return best


def their_end(cards: Sequence[Card], values: Sequence[int], three_pairs: int) -> tuple[int, int]:
    """For the other side holding ``cards`` (six, or eleven with a hand still to play): the
    points of that hand, taken to be the best five of them, and the value of the six left."""
    if len(cards) > 11:
        raise ValueError(f"a side holds at most eleven cards in its last hand, not {len(cards)}")
    if len(cards) <= 6:
        return 0, six_value(cards, values, three_pairs) if len(cards) == 6 else 0
    points = -1
    best: tuple[Card, ...] = ()
    for five in combinations(cards, 5):
        a, b, c, d, e = (card.index for card in five)
        made = values[category_index(a, b, c, d, e)]
        if made > points:
            points, best = made, five
    left = [c for c in cards if c not in best]
    return points, six_value(left, values, three_pairs) if len(left) == 6 else 0


def deal_worth(points: int, ours: int, theirs: tuple[int, int], stakes: Stakes) -> int:
    """What the side's last hand making ``points`` and leaving left-overs worth ``ours`` adds
    to the side's lead over the other (which then makes ``theirs``: its last hand's points and
    its left-overs' value): the points, and ten times the left-overs of the side that loses the
    hand scores (equal hand scores: of the side with the better left-overs; equal values are
    taken as no bonus, where the rules compare ranks)."""
    their_points, their_left = theirs
    us, them = stakes.ours + points, stakes.theirs + their_points
    if us > them or (us == them and their_left > ours):
        bonus = 10 * their_left
    elif us < them or ours > their_left:
        bonus = -10 * ours
    else:
        bonus = 0
    return points - their_points + bonus


def last_fill(
    table: Sequence[tuple[Seat, Card]],
    own: Sequence[Card],
    seat: Seat,
    partner_cards: int,
    seen: Sequence[Card],
    stakes: Stakes,
    rule: ScoringRule,
    worlds: int = WORLDS,
) -> tuple[Card, ...] | None:
    """The cards with which ``seat`` alone completes its side's last hand (``table``) from
    ``own`` for the most :func:`deal_worth` on average, partner keeping its ``partner_cards``
    cards, which are drawn ``worlds`` times from those ``seat`` cannot see (``seen``: the
    finished hands; the rest of the unseen cards are the other side's). Ties: the more points,
    then the lower cards. None when ``own`` cannot complete the hand. The draws are seeded by
    the position."""
    need = 5 - len(table)
    if need <= 0 or len(own) < need:
        return None
    on_table = [c for _, c in table]
    known = {*own, *seen, *on_table}
    unseen = [c for c in DECK if c not in known]
    if len(unseen) < partner_cards:
        return None
    rng = random.Random(
        f"{seat}:{sorted(c.index for c in own)}:{sorted(c.index for c in on_table)}"
        f":{len(seen)}:{stakes.ours}:{stakes.theirs}:{rule.name}"
    )
    values = rule_values(rule)
    three_pairs = rule.value(Combination.THREE_PAIRS)
    draws = []
    for _ in range(worlds):
        partner = rng.sample(unseen, partner_cards)
        others = [c for c in unseen if c not in partner]
        draws.append((partner, their_end(others, values, three_pairs)))
    seats = [s for s, _ in table] + [seat] * need
    best: tuple[tuple[int, int, list[int]], tuple[Card, ...]] | None = None
    for fill in combinations(sorted(own, key=lambda c: c.index), need):
        points = points5([*on_table, *fill], seats, rule)
        mine_left = [c for c in own if c not in fill]
        total = 0
        for partner, theirs in draws:
            left = [*mine_left, *partner]
            ours = six_value(left, values, three_pairs) if len(left) == 6 else 0
            total += deal_worth(points, ours, theirs, stakes)
        key = (total, points, [-c.index for c in fill])
        if best is None or key > best[0]:
            best = (key, fill)
    return best[1] if best is not None else None
