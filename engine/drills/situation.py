"""Moments of a real deal for drills to show: hand sizes that can occur and a table that can.

A drill shows the leader of a side's k-th hand (its *side hand*) and, for read and reply
drills, partner. docs/rules.md fixes what can happen: the leader holds 13 cards for side hand 1,
9–13 for 2, 4–12 for 3 and 1–11 for 4, the two partners hold ``26 - 5(k - 1)`` cards between
them, and every completed hand lies face up. :func:`play_to_signal` proves a situation can
arise by playing it on a real :class:`~engine.game.DealState`: the side's earlier hands, the
other side's hands in between, then the lead ``c1``, partner's pass, and ``c2`` or a pass.

>>> import random
>>> from engine.cards import parse_cards
>>> rng = random.Random(1)
>>> leader = parse_cards("2S 3S 4S 5S 9H TH 4D 7D 8D JC QC KC AC")
>>> partner = tuple(c for c in __import__("engine.cards").cards.DECK if c not in leader)[:13]
>>> table = Table.build(rng, 1, leader, partner)
>>> state = table.play_to_signal((leader[0], leader[3]))
>>> str(state.current_player()), [str(a) for a in state.legal_actions()][-2:]
('S', ['pass', 'force'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import DECK, Card, sort_cards
from engine.errors import InvalidNotationError
from engine.game import PASS, Action, DealState
from engine.seats import Seat

__all__ = [
    "LEADER_SIZES",
    "MIN_DRILL_CARDS",
    "PARTNER_SIZES",
    "Table",
    "leader_sizes",
    "side_total",
]

#: The leader's cards when the side's k-th hand starts (docs/rules.md, *How many cards a
#: player can hold*).
LEADER_SIZES: dict[int, tuple[int, int]] = {1: (13, 13), 2: (9, 13), 3: (4, 12), 4: (1, 11)}
#: The leader's partner's cards at the same moment.
PARTNER_SIZES: dict[int, tuple[int, int]] = {1: (13, 13), 2: (8, 12), 3: (4, 12), 4: (0, 10)}
#: Drills show a leader at least this many cards: fewer leave no choice of signal to drill.
MIN_DRILL_CARDS = 3

#: The side of the drill leads hand 1 of the deal: North leads with West dealing, and the side
#: hands 1..4 are led North, South, North, South.
_DEALER = Seat.W


def side_total(side_hand: int) -> int:
    """Cards the two partners hold between them when their ``side_hand``-th hand starts."""
    return 26 - 5 * (side_hand - 1)


def leader_sizes(side_hand: int) -> range:
    """Every leader's hand size a drill of this side hand may show."""
    lo, hi = LEADER_SIZES[side_hand]
    return range(max(lo, MIN_DRILL_CARDS), hi + 1)


def _leader_seat(side_hand: int) -> Seat:
    return Seat.N if side_hand % 2 else Seat.S


@dataclass(frozen=True, slots=True)
class Table:
    """Who holds what at the start of the side's ``side_hand``-th hand, and how it came about.

    ``own_hands`` are the side's completed hands and ``their_hands`` the other side's (all face
    up), each a list of ``(seat, card)`` in play order; ``hidden`` holds the other side's
    unplayed cards. Built by :meth:`build`; :meth:`play_to_signal` replays it on the engine.
    """

    side_hand: int
    leader: tuple[Card, ...]
    partner: tuple[Card, ...]
    own_hands: tuple[tuple[tuple[Seat, Card], ...], ...]
    their_hands: tuple[tuple[tuple[Seat, Card], ...], ...]
    hidden: tuple[Card, ...]

    @property
    def leader_seat(self) -> Seat:
        return _leader_seat(self.side_hand)

    @property
    def completed(self) -> tuple[tuple[Card, ...], ...]:
        """The side's completed hands, each sorted for display."""
        return tuple(tuple(sort_cards(c for _, c in h)) for h in self.own_hands)

    @property
    def opponents(self) -> tuple[tuple[Card, ...], ...]:
        """The other side's completed hands, each sorted for display."""
        return tuple(tuple(sort_cards(c for _, c in h)) for h in self.their_hands)

    @classmethod
    def build(
        cls,
        rng: random.Random,
        side_hand: int,
        leader: Sequence[Card],
        partner: Sequence[Card],
    ) -> Table:
        """A table where the leader holds ``leader`` and partner ``partner`` as the side's
        ``side_hand``-th hand starts; the earlier hands are drawn with ``rng``.

        Raises :class:`InvalidNotationError` when the sizes cannot occur (docs/rules.md).
        """
        lo, hi = LEADER_SIZES[side_hand]
        if not lo <= len(leader) <= hi or len(leader) + len(partner) != side_total(side_hand):
            raise InvalidNotationError(
                f"the leader of side hand {side_hand} cannot hold {len(leader)} cards while "
                f"partner holds {len(partner)}"
            )
        held = set(leader) | set(partner)
        if len(held) != len(leader) + len(partner):
            raise InvalidNotationError("the leader and partner cannot hold the same card")
        rest = [c for c in DECK if c not in held]
        rng.shuffle(rest)
        played_own = 5 * (side_hand - 1)
        own_played, others = rest[:played_own], rest[played_own:]
        lead_seat = _leader_seat(side_hand)
        # Cards each partner played earlier: 13 minus what they hold now.
        counts = {lead_seat: 13 - len(leader), lead_seat.partner: 13 - len(partner)}
        own_hands = _split_hands(
            rng, own_played, [_leader_seat(j) for j in range(1, side_hand)], counts
        )
        their_played = 5 * (side_hand - 1)
        their_seats = [Seat.E if j % 2 else Seat.W for j in range(1, side_hand)]
        their_counts = _random_counts(rng, their_seats, their_played)
        their_hands = _split_hands(rng, others[:their_played], their_seats, their_counts)
        return cls(
            side_hand,
            tuple(sort_cards(leader)),
            tuple(sort_cards(partner)),
            own_hands,
            their_hands,
            tuple(sort_cards(others[their_played:])),
        )

    def deal(self, rule: str = "classic") -> DealState:
        """The deal as dealt: every card each seat held before hand 1 (hands scored by
        ``rule``)."""
        lead_seat = self.leader_seat
        hands: dict[Seat, list[Card]] = {
            lead_seat: list(self.leader),
            lead_seat.partner: list(self.partner),
            Seat.E: [],
            Seat.W: [],
        }
        for h in (*self.own_hands, *self.their_hands):
            for seat, c in h:
                hands[seat].append(c)
        hidden = list(self.hidden)
        for seat in (Seat.E, Seat.W):
            need = 13 - len(hands[seat])
            hands[seat] += hidden[:need]
            hidden = hidden[need:]
        return DealState(_DEALER, hands, rule)

    def play_to_start(self, rule: str = "classic") -> DealState:
        """The deal played up to the first card of the side's ``side_hand``-th hand."""
        state = self.deal(rule)
        own = list(self.own_hands)
        theirs = list(self.their_hands)
        for number in range(1, 2 * (self.side_hand - 1) + 1):
            hand = own.pop(0) if number % 2 else theirs.pop(0)
            _play_hand(state, hand)
        return state

    def play_to_signal(self, signal: tuple[Card, Card | None], rule: str = "classic") -> DealState:
        """The deal played through the lead ``c1``, partner's pass, then ``c2`` or a pass:
        the moment partner replies."""
        state = self.play_to_start(rule)
        c1, c2 = signal
        state.apply_action(Action.play(c1))
        state.apply_action(PASS)
        state.apply_action(PASS if c2 is None else Action.play(c2))
        return state


def _random_counts(rng: random.Random, seats: list[Seat], total: int) -> dict[Seat, int]:
    """How many of ``total`` cards each of a pair played, each leader playing at least one of
    each hand they led; the rest split at random."""
    counts = {Seat.E: 0, Seat.W: 0}
    for seat in seats:
        counts[seat] += 1
    for _ in range(total - len(seats)):
        seat = rng.choice((Seat.E, Seat.W))
        if counts[seat] == 13:  # a player holds only 13 cards: the rest are partner's
            seat = seat.partner
        counts[seat] += 1
    return counts


def _split_hands(
    rng: random.Random, cards: list[Card], leaders: list[Seat], counts: dict[Seat, int]
) -> tuple[tuple[tuple[Seat, Card], ...], ...]:
    """Deal ``cards`` into five-card hands led by ``leaders`` so that each seat plays exactly
    ``counts[seat]`` of them and every hand's leader plays its first card."""
    if not leaders:
        return ()
    pair = (leaders[0], leaders[0].partner)
    left = dict(counts)
    if any(left.get(s, 0) < sum(1 for r in leaders if r == s) for s in pair):
        raise InvalidNotationError("these hand sizes cannot come from the hands played")
    # Each hand: its leader's first card, then four more drawn like cards from an urn holding
    # what each seat still has to play beyond the first cards of the hands it leads later.
    owners: list[list[Seat]] = []
    for i, lead in enumerate(leaders):
        left[lead] -= 1
        reserved = {s: sum(1 for r in leaders[i + 1 :] if r == s) for s in pair}
        slots = [lead]
        for _ in range(4):
            free = [left[s] - reserved[s] for s in pair]
            seat = pair[0] if rng.randrange(sum(free)) < free[0] else pair[1]
            left[seat] -= 1
            slots.append(seat)
        owners.append(slots)
    if any(v for v in left.values()):
        raise InvalidNotationError("these hand sizes cannot come from the hands played")
    out = []
    it = iter(cards)
    for slots in owners:
        out.append(tuple((seat, next(it)) for seat in slots))
    return tuple(out)


def _play_hand(state: DealState, hand: Iterable[tuple[Seat, Card]]) -> None:
    """Play one hand's cards by their seats: whoever is to act and has no card to give passes."""
    queue = list(hand)
    while queue:
        player = state.current_player()
        mine = [i for i, (seat, _) in enumerate(queue) if seat == player]
        if mine:
            _, c = queue.pop(mine[0])
            state.apply_action(Action.play(c))
        else:
            state.apply_action(PASS)
