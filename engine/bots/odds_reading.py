"""Reading a two-card signal by the odds of the hands partner could have led it from.

The ``strong`` signal bot (:mod:`engine.bots.signal`) replies this way. It draws the leader's
hand many times from the cards it cannot see (each draw holds the signal's two cards and as many
others as the leader held), keeps the draws from which the leader would have led this very
signal (:data:`LeadModel`: the standard partner's own leads when partner is a bot, any of the
card's accepted plays when partner is a person following the card). Its reading is the item
the kept draws' leads show most often.

Its reply is chosen among candidates: replying with nothing, each of the replier's cards
alone, and one or two cards, in either order, of the replier's part of the best hand each kept
draw and the replier's cards can complete (the leader plays between the replier's cards, so of
the three cards a hand needs after the signal the replier plays at most two while the leader
holds a card). Each candidate
is played out against every kept draw, the way a hand goes on (:func:`play_out`): the replier
plays its cards one a turn, and after each of its turns the leader plays the first card of its
best fill from the whole drawn hand, as the standard partner leads on. The candidate with the
most points on average wins (ties: fewer cards, then the least useful); where replying with
nothing does as well, the bot has no plan and replies as the standard partner does. The plan
is made once, at the signal, and followed.

In the side's last hand a candidate is worth what it adds to the side's lead at the end of the
deal instead (:func:`engine.bots.deal_end.deal_worth`): the hand's points, and the left-over
bonus that the six cards the side then keeps and the hand-score comparison decide, with the
other side's cards taken to be the unseen cards outside the kept hand. A pair of the replier's
own joins the candidates there, to be played rather than left over. (docs/bot-ladder.md, "How
the strong partner was set", for what these choices were measured to be worth.)

That is a Bayes reading of partner up to sampling: every reading the card allows is weighed by
how often partner would lead this signal holding it, and by what the reader's own and the
played cards rule out. It sees nothing the reader cannot see: the draws come only from cards not
in view, and the leader's hand size is public. The draws are seeded by the position, so the same
position always gives the same plan (duplicate deals and replays stay the same).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from engine.bots.deal_end import Stakes, deal_worth, six_value, their_end
from engine.bots.hands import best_fill, points5, side_keep
from engine.cards import DECK, Card
from engine.scoring import (
    FIVE_CARD_COMBINATIONS,
    Combination,
    ScoringRule,
    category_index,
    rule_values,
)
from engine.seats import Seat
from engine.signals.checklist import hand_mask

__all__ = [
    "ENOUGH_KEPT",
    "MAX_DRAWS",
    "Holding",
    "LeadModel",
    "Plan",
    "Position",
    "best_completion",
    "kept_holdings",
    "odds_plan",
    "play_out",
]

#: How the leader leads: given a hand, the side hand, the rule and a two-card signal, the cards
#: the signal shows when the leader would lead it from that hand (empty when it shows nothing
#: but the leader's own best five), None when the leader would not lead it.
LeadModel = Callable[[Sequence[Card], int, ScoringRule, tuple[Card, Card]], tuple[Card, ...] | None]

#: Most leader's hands drawn per signal.
MAX_DRAWS = 150
#: Drawing stops once this many hands are kept: the plan is the best on average over the kept
#: hands (docs/bot-ladder.md, "How the strong partner was set", for what more draws were
#: measured to add).
ENOUGH_KEPT = 20
#: The first category whose points a contribution rule splits by who played the cards.
_FOURS = FIVE_CARD_COMBINATIONS.index(Combination.FOURS)
#: A kept leader's hand and the cards its lead shows.
Holding = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Position:
    """What the replier knows when partner's two-card signal is complete."""

    signal: tuple[Card, Card]
    #: The replier's cards when the signal was complete.
    own: tuple[Card, ...]
    seat: Seat
    leader: Seat
    #: Cards of the finished hands (everybody saw them).
    seen: tuple[Card, ...]
    #: The leader's cards when it led (the signal's two included): public.
    size: int
    side_hand: int
    rule: ScoringRule
    #: In the side's last hand, what the deal's end turns on besides its points
    #: (:class:`Stakes`); None before it.
    stakes: Stakes | None = None

    def seed(self) -> str:
        """The draws' seed: the position itself, so that it always gives the same plan."""
        c1, c2 = self.signal
        stakes = "" if self.stakes is None else f":{self.stakes.ours}:{self.stakes.theirs}"
        return (
            f"{self.seat}:{c1.index}:{c2.index}:{hand_mask(self.own)}:{hand_mask(self.seen)}"
            f":{self.size}:{self.side_hand}:{self.rule.name}{stakes}"
        )


def kept_holdings(
    lead: LeadModel,
    position: Position,
    rng: random.Random | None = None,
    draws: int = MAX_DRAWS,
    enough: int | None = ENOUGH_KEPT,
) -> list[Holding]:
    """Leader's hands of ``position.size`` cards, each the signal's two and cards drawn from
    those the replier cannot see, from which ``lead`` leads the signal, with the cards its lead
    shows: up to ``draws`` draws, stopping once ``enough`` are kept (None: never). The draws
    are seeded by the position unless ``rng`` is given."""
    if rng is None:
        rng = random.Random(position.seed())
    c1, c2 = position.signal
    hidden = {*position.own, *position.seen, c1, c2}
    pool = [c for c in DECK if c not in hidden]
    extra = position.size - 2
    out = []
    for _ in range(draws):
        hand = (c1, c2, *rng.sample(pool, extra))
        shown = lead(hand, position.side_hand, position.rule, position.signal)
        if shown is not None:
            out.append((hand, shown))
            if enough is not None and len(out) >= enough:
                break
    return out


#: One planned hand: who plays which card.
Plan = tuple[tuple[Seat, Card], ...]


def best_completion(
    table: Sequence[tuple[Seat, Card]],
    pool: Sequence[tuple[Seat, Card]],
    seat: Seat,
    rule: ScoringRule,
    keep: dict[Card, int],
) -> Plan | None:
    """The cards of ``pool`` completing the hand on ``table`` to the most points (ties: the
    fewest of ``seat``'s, then its least useful by ``keep``); None when nothing scores."""
    need = 5 - len(table)
    base = [c.index for _, c in table]
    values = rule_values(rule)
    split = rule.split_values
    best: tuple[tuple[int, int, int], Plan] | None = None
    top = 1  # fewer points than the best so far (or none) never wins
    # The combination tables score a hand by card indices; only fours and straight flushes
    # under a rule that splits them by contribution need to know who played which card.
    for combo, picked in zip(
        combinations(pool, need), combinations([c.index for _, c in pool], need), strict=True
    ):
        a, b, c, d, e = (*base, *picked)
        cat = category_index(a, b, c, d, e)
        if split and cat >= _FOURS:
            cards = [c for _, c in table] + [c for _, c in combo]
            seats = [s for s, _ in table] + [s for s, _ in combo]
            points = points5(cards, seats, rule)
        else:
            points = values[cat]
        if points < top:
            continue
        own = [c for s, c in combo if s is seat]
        score = (points, -len(own), -sum(keep.get(c, 0) for c in own))
        if best is None or score > best[0]:
            best = (score, combo)
            top = points
    return best[1] if best is not None else None


def _played(
    table: Sequence[tuple[Seat, Card]],
    mine: Sequence[Card],
    rest: Sequence[Card],
    own: Sequence[Card],
    position: Position,
) -> tuple[list[Card], list[Seat]]:
    """The hand :func:`play_out` plays: its cards and who played each."""
    cards = [c for _, c in table]
    seats = [s for s, _ in table]
    queue = list(mine)
    hand = list(rest)
    while len(cards) < 5:
        if queue:
            cards.append(queue.pop(0))
            seats.append(position.seat)
            if len(cards) == 5:
                break
        if not hand:
            for card in queue[: 5 - len(cards)]:
                cards.append(card)
                seats.append(position.seat)
            left = [c for c in own if c not in cards]
            now = list(zip(seats, cards, strict=True))
            keep = side_keep(left, position.side_hand)
            fill = best_fill(now, left, position.seat, position.rule, keep)
            cards += fill.cards
            seats += [position.seat] * len(fill.cards)
            break
        now = list(zip(seats, cards, strict=True))
        card = best_fill(
            now, hand, position.leader, position.rule, side_keep(hand, position.side_hand)
        ).cards[0]
        hand.remove(card)
        cards.append(card)
        seats.append(position.leader)
    return cards, seats


def play_out(
    table: Sequence[tuple[Seat, Card]],
    mine: Sequence[Card],
    rest: Sequence[Card],
    own: Sequence[Card],
    position: Position,
) -> int:
    """The points of the hand on ``table`` played out from the replier's turn: the replier
    plays ``mine`` in order, one a turn, then passes; after each of its turns the leader plays
    the first card of its best fill from ``rest`` (as the standard partner leads on). A leader
    out of cards is skipped: the replier plays the rest of ``mine``, then fills the hand from
    ``own``. Either fills with the keep values of the side hand (:func:`side_keep`)."""
    cards, seats = _played(table, mine, rest, own, position)
    if len(cards) < 5:
        return 0
    return points5(cards, seats, position.rule)


def odds_plan(
    position: Position,
    kept: Sequence[Holding],
    *,
    every_single: bool = True,
    for_the_deal: bool = True,
) -> tuple[Card, ...]:
    """The replier's cards (in the order to play them) that make the most points on average
    when the hand is played out (:func:`play_out`) against each of the leader's hands ``kept``
    (:func:`kept_holdings`); empty when replying with nothing does as well, or when no hand
    was kept. Each of the replier's cards alone is a candidate, besides one or two of each
    kept hand's completion; ``every_single=False`` drops the single cards, as the strong
    partner replied before they were measured (docs/bot-ladder.md, "What else was tried with
    the strong partner")."""
    leader = position.leader
    table = tuple((leader, c) for c in position.signal)
    # Each leader's hand once (without the signal's two), with how many kept draws hold it.
    holdings = Counter(
        tuple(sorted((c for c in hand if c not in position.signal), key=lambda c: c.index))
        for hand, _ in kept
    )
    if not holdings:
        return ()
    own = list(position.own)
    mine = [(position.seat, c) for c in own]
    keep = side_keep(own, position.side_hand)
    options: set[tuple[Card, ...]] = {()}
    for rest in holdings:
        pool = [*((leader, c) for c in rest), *mine]
        plan = best_completion(table, pool, position.seat, position.rule, keep)
        if plan is not None:
            cards = [c for s, c in plan if s is position.seat]
            for k in range(1, min(len(cards), 2) + 1):
                options.update(permutations(cards, k))
    if every_single:
        options.update((c,) for c in own)
    stakes = position.stakes if for_the_deal else None
    if stakes is None:

        def worth(option: tuple[Card, ...]) -> int:
            """Points summed over the kept hands (the same order as their average)."""
            return sum(
                play_out(table, option, rest, own, position) * n for rest, n in holdings.items()
            )

    else:
        # The side's last hand: a pair of the replier's own may go into it, to leave weaker
        # left-overs, and each candidate is worth what it adds to the side's lead at the end.
        options.update(
            (a, b)
            for a, b in combinations(sorted(own, key=lambda c: c.index), 2)
            if a.rank == b.rank
        )
        values = rule_values(position.rule)
        three_pairs = position.rule.value(Combination.THREE_PAIRS)
        known = {*own, *position.seen, *position.signal}
        unseen = [c for c in DECK if c not in known]
        theirs = {
            rest: their_end([c for c in unseen if c not in rest], values, three_pairs)
            for rest in holdings
        }

        def worth(option: tuple[Card, ...]) -> int:
            """The side's lead at the end, summed over the kept hands."""
            total = 0
            for rest, n in holdings.items():
                cards, seats = _played(table, option, rest, own, position)
                points = points5(cards, seats, position.rule) if len(cards) == 5 else 0
                left = [c for c in (*own, *rest) if c not in cards]
                ours = six_value(left, values, three_pairs) if len(left) == 6 else 0
                total += n * deal_worth(points, ours, theirs[rest], stakes)
            return total

    return max(
        sorted(options, key=lambda o: [c.index for c in o]),
        key=lambda o: (worth(o), -len(o), -sum(keep.get(c, 0) for c in o)),
    )
