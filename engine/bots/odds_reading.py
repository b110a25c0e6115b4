"""Reading a two-card signal by the odds of the hands partner could have led it from.

The ``strong`` signal bot (:mod:`engine.bots.signal`) replies this way. It draws the leader's
hand many times from the cards it cannot see (each draw holds the signal's two cards and as many
others as the leader held), keeps the draws from which the leader would have led this very
signal (:data:`LeadModel`: the standard partner's own leads when partner is a bot, any of the
card's accepted plays when partner is a person following the card) and, over the cards each
kept draw's lead *shows* (the holding the signal stands for), adds the cards of its own that make
the most points on average. Where adding nothing does as well, it has no plan and replies as the
standard partner does. The leader's cards beyond those its lead shows are not modelled: a pass is
worth what the shown cards make, and the plan is made once, at the signal, for the replier's
cards alone (the leader's cards played after it are not foreseen).

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
from itertools import combinations

from engine.bots.hands import keep_values, points5
from engine.cards import DECK, Card
from engine.scoring import ScoringRule
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
]

#: How the leader leads: given a hand, the side hand, the rule and a two-card signal, the cards
#: the signal shows when the leader would lead it from that hand (empty when it shows nothing
#: but the leader's own best five), None when the leader would not lead it.
LeadModel = Callable[[Sequence[Card], int, ScoringRule, tuple[Card, Card]], tuple[Card, ...] | None]

#: Most leader's hands drawn per signal.
MAX_DRAWS = 150
#: Drawing stops once this many hands are kept: the plan is an average over the kept hands'
#: shown cards (README, "How the strong partner was set", for what more draws were measured to
#: add).
ENOUGH_KEPT = 20
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

    def seed(self) -> str:
        """The draws' seed: the position itself, so that it always gives the same plan."""
        c1, c2 = self.signal
        return (
            f"{self.seat}:{c1.index}:{c2.index}:{hand_mask(self.own)}:{hand_mask(self.seen)}"
            f":{self.size}:{self.side_hand}:{self.rule.name}"
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
    best: tuple[tuple[int, int, int], Plan] | None = None
    for combo in combinations(pool, need):
        cards = [c for _, c in table] + [c for _, c in combo]
        seats = [s for s, _ in table] + [s for s, _ in combo]
        own = [c for s, c in combo if s is seat]
        score = (points5(cards, seats, rule), -len(own), -sum(keep.get(c, 0) for c in own))
        if best is None or score > best[0]:
            best = (score, combo)
    return best[1] if best is not None and best[0][0] > 0 else None


def odds_plan(position: Position, kept: Sequence[Holding]) -> tuple[Card, ...]:
    """The replier's cards (in the order to play them) that make the most points on average
    over the shown cards of the leader's hands ``kept`` (:func:`kept_holdings`); empty when
    adding nothing does as well, or when no hand was kept."""
    c1, c2 = position.signal
    leader = position.leader
    table = ((leader, c1), (leader, c2))
    # Kept hands often show the same cards: each set once, with how many hands show it.
    shown_sets = Counter(
        tuple((leader, c) for c in (shown or hand) if c not in (c1, c2)) for hand, shown in kept
    )
    if not shown_sets:
        return ()
    mine = [(position.seat, c) for c in position.own]
    keep = keep_values(position.own)
    options: set[tuple[tuple[Seat, Card], ...]] = {()}
    for shown in shown_sets:
        plan = best_completion(table, (*shown, *mine), position.seat, position.rule, keep)
        if plan is not None:
            options.add(tuple(x for x in plan if x[0] is position.seat))

    def worth(option: tuple[tuple[Seat, Card], ...]) -> int:
        """Points summed over the kept hands (the same order as their average)."""
        base = [*table, *option]
        need = 5 - len(base)
        cards = [c for _, c in base]
        seats = [s for s, _ in base]
        total = 0
        for shown, hands in shown_sets.items():
            best = 0
            for fill in combinations(shown, need):
                made = points5(cards + [c for _, c in fill], seats + [leader] * need, position.rule)
                best = max(best, made)
            total += best * hands
        return total

    choice = max(
        sorted(options, key=lambda o: [c.index for _, c in o]),
        key=lambda o: (worth(o), -len(o), -sum(keep.get(c, 0) for _, c in o)),
    )
    return tuple(c for _, c in choice)
