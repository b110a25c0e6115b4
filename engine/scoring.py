"""Combinations, scoring rules, hand scores and left-overs.

A hand of five cards is worth its single highest combination::

    >>> score_hand(parse_cards("7C 7D 7H 7S KH")).points
    12
    >>> score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION, by="NNNNS").points
    8
    >>> leftover_value(parse_cards("9S 9H 4C 4D KS KH")).value
    6

Scoring rules are values (:class:`ScoringRule`), never global flags: :data:`CLASSIC` (the
default) and :data:`CONTRIBUTION` (Parlett's 2013 variant, where fours and straight flushes are
worth more the more evenly the two partners supplied them).

Simulations use the fast path on card indices (``Card.index``, 0..51)::

    >>> FIVE_CARD_COMBINATIONS[category_index(12, 11, 10, 9, 8)]
    <Combination.STRAIGHT_FLUSH: 'straight_flush'>
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.cards import DECK, Card, parse_cards
from engine.errors import InvalidCardsError, InvalidNotationError
from engine.messages import Join, Msg, Text
from engine.seats import Seat, Side

__all__ = [
    "CLASSIC",
    "CONTRIBUTION",
    "FIVE_CARD_COMBINATIONS",
    "LEFTOVER_MULTIPLIER",
    "SCORING_RULES",
    "Combination",
    "ContributionSplit",
    "HandScore",
    "LeftoverValue",
    "ScoringRule",
    "best_five",
    "category_index",
    "contribution_split",
    "evaluate",
    "evaluate_indices",
    "forming_cards",
    "get_rule",
    "hand_points",
    "leftover_bonus",
    "leftover_value",
    "parse_by",
    "rule_values",
    "score_hand",
    "tie_ranks",
]

#: A side scores this many times a left-over value.
LEFTOVER_MULTIPLIER = 10


class Combination(enum.StrEnum):
    """A scoring combination, ordered by strength (``Combination.FLUSH > Combination.STRAIGHT``).

    ``THREE_PAIRS`` is the only six-card combination and counts only for left-overs.
    """

    NOTHING = "nothing"
    ONE_PAIR = "one_pair"
    TWO_PAIR = "two_pair"
    THREES = "threes"
    STRAIGHT = "straight"
    FLUSH = "flush"
    THREE_PAIRS = "three_pairs"
    FULL_HOUSE = "full_house"
    FOURS = "fours"
    STRAIGHT_FLUSH = "straight_flush"

    @property
    def strength(self) -> int:
        """Position in the strength order, 0 (nothing) .. 9 (straight flush)."""
        return _STRENGTH[self]

    @property
    def label(self) -> str:
        """Words for people: ``straight flush``."""
        return self.value.replace("_", " ")

    @classmethod
    def parse(cls, text: str) -> Combination:
        """Read an id such as ``full_house`` (``full house`` also works)."""
        try:
            return cls(text.strip().lower().replace(" ", "_").replace("-", "_"))
        except (ValueError, AttributeError):
            raise InvalidNotationError(f"not a combination: {text!r}") from None

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Combination):
            return NotImplemented
        return _STRENGTH[self] < _STRENGTH[other]

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Combination):
            return NotImplemented
        return _STRENGTH[self] <= _STRENGTH[other]

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Combination):
            return NotImplemented
        return _STRENGTH[self] > _STRENGTH[other]

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Combination):
            return NotImplemented
        return _STRENGTH[self] >= _STRENGTH[other]

    __hash__ = enum.StrEnum.__hash__


_STRENGTH = {c: i for i, c in enumerate(Combination)}

#: The nine five-card combinations, weakest first; the fast path returns indices into this.
FIVE_CARD_COMBINATIONS: tuple[Combination, ...] = tuple(
    c for c in Combination if c is not Combination.THREE_PAIRS
)
_CODE = {c: i for i, c in enumerate(FIVE_CARD_COMBINATIONS)}


# --------------------------------------------------------------------------------------------
# Scoring rules


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, slots=True)
class ScoringRule:
    """How combinations are valued: a base value each, and optional split tables.

    ``split_values[combination][largest_share]`` replaces the base value when present: the
    largest number of the relevant cards (the four of the rank for fours, all five for a straight
    flush) supplied by one partner.

    >>> CONTRIBUTION.value(Combination.FOURS, largest_share=2)
    16
    """

    name: str
    values: Mapping[Combination, int] = field(hash=False)
    split_values: Mapping[Combination, Mapping[int, int]] = field(
        hash=False, default_factory=lambda: MappingProxyType({})
    )
    description: str = field(default="", compare=False)

    def needs_split(self, combination: Combination) -> bool:
        """True when the value of ``combination`` depends on which partner played which card."""
        return combination in self.split_values

    def value(self, combination: Combination, largest_share: int | None = None) -> int:
        """The value of a combination (``largest_share`` needed when :meth:`needs_split`)."""
        table = self.split_values.get(combination)
        if table is None:
            return self.values[combination]
        if largest_share is None:
            raise InvalidCardsError(
                f"the {self.name} rule needs to know which partner played each card "
                f"to score {combination.label}"
            )
        try:
            return table[largest_share]
        except KeyError:
            raise InvalidCardsError(
                f"{largest_share} cards from one partner is not a split of {combination.label}"
            ) from None

    def __str__(self) -> str:
        return self.name


_CLASSIC_VALUES = {
    Combination.NOTHING: 0,
    Combination.ONE_PAIR: 1,
    Combination.TWO_PAIR: 2,
    Combination.THREES: 3,
    Combination.STRAIGHT: 5,
    Combination.FLUSH: 6,
    Combination.THREE_PAIRS: 6,
    Combination.FULL_HOUSE: 8,
    Combination.FOURS: 12,
    Combination.STRAIGHT_FLUSH: 15,
}

#: The default rule: every combination has one fixed value.
CLASSIC = ScoringRule(
    "classic", _frozen(_CLASSIC_VALUES), description="Fixed values for every combination."
)
#: Parlett's contribution variant: fours 8/12/16 for a 4-0/3-1/2-2 split of the four cards,
#: straight flush 10/15/20 for 5-0/4-1/3-2.
CONTRIBUTION = ScoringRule(
    "contribution",
    _frozen(_CLASSIC_VALUES),
    _frozen(
        {
            Combination.FOURS: _frozen({4: 8, 3: 12, 2: 16}),
            Combination.STRAIGHT_FLUSH: _frozen({5: 10, 4: 15, 3: 20}),
        }
    ),
    description="Fours and straight flushes score more the more evenly the partners supplied them.",
)

SCORING_RULES: Mapping[str, ScoringRule] = MappingProxyType(
    {"classic": CLASSIC, "contribution": CONTRIBUTION}
)


def get_rule(name: str | ScoringRule) -> ScoringRule:
    """The scoring rule called ``name`` (a :class:`ScoringRule` is returned unchanged).

    >>> get_rule("contribution") is CONTRIBUTION
    True
    """
    if isinstance(name, ScoringRule):
        return name
    if isinstance(name, str):
        found = SCORING_RULES.get(name.strip().lower())
        if found is not None:
            return found
    raise InvalidNotationError(
        Msg(
            "error.rule.unknown",
            name=Text(repr(name)),
            choices=Join(tuple(Text(n) for n in SCORING_RULES), "list.or"),
        )
    )


# --------------------------------------------------------------------------------------------
# The fast path: table lookups on card indices.
#
# ``category_index(a, b, c, d, e)`` is three tuple subscripts and nothing else:
# ``_TABLE[_PAIR_ID[a][b]][_PAIR_ID[c][d]][e]``.
#
# ``_PAIR_ID`` names the two cards of a pair by their two ranks and, when both have the same
# suit, that suit: 91 rank pairs of mixed suits plus 78 × 4 suited ones, 403 ids in all. Two
# pair ids give the multiset of four ranks and, when both pairs are suited in the same suit, a
# possible flush; the row they select holds the category of every fifth card, so a flush row
# answers "flush" or "straight flush" for the cards of that suit and the plain category for
# the others. Rows are shared between pairs of pairs with the same four ranks and flush suit
# (1,820 rank multisets, of which 715 with four distinct ranks have a row per suit).
#
# The rows are filled from two dicts keyed by the rank multiset of five cards (the sum of
# 5 ** (rank - 2) over the cards; no rank appears 5 times): one for hands of mixed suits, one
# (only keys of five distinct ranks) for flushes. ``tests/engine/test_scoring.py`` checks the
# tables against the combination counts of all 2,598,960 hands.


def _straight_high(ranks: Iterable[int]) -> int | None:
    """The top rank of the best straight among ``ranks`` (5 for A-2-3-4-5), or None."""
    present = set(ranks)
    if 14 in present:
        present.add(1)
    for high in range(14, 4, -1):
        if all(r in present for r in range(high - 4, high + 1)):
            return high
    return None


def _build_tables() -> tuple[dict[int, int], dict[int, int]]:
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    for ranks in itertools.combinations_with_replacement(range(2, 15), 5):
        counts = sorted(Counter(ranks).values(), reverse=True)
        if counts[0] == 5:
            continue
        key = sum(5 ** (r - 2) for r in ranks)
        if counts[0] == 4:
            cat = Combination.FOURS
        elif counts[:2] == [3, 2]:
            cat = Combination.FULL_HOUSE
        elif counts[0] == 3:
            cat = Combination.THREES
        elif counts[:2] == [2, 2]:
            cat = Combination.TWO_PAIR
        elif counts[0] == 2:
            cat = Combination.ONE_PAIR
        else:
            straight = _straight_high(ranks) is not None
            cat = Combination.STRAIGHT if straight else Combination.NOTHING
            flush[key] = _CODE[Combination.STRAIGHT_FLUSH if straight else Combination.FLUSH]
        plain[key] = _CODE[cat]
    return plain, flush


_PLAIN, _FLUSH = _build_tables()


def _build_pair_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[bytes, ...], ...]]:
    """``_PAIR_ID`` (52 x 52 pair ids) and ``_TABLE`` (403 x 403 rows of 52 categories).

    The rows are ``bytes`` (shared between lines): about a fifth of the memory of tuples, so the
    tables stay in the processor's cache and a lookup costs less."""
    rank_of = [c.rank - 2 for c in DECK]
    suit_of = [int(c.suit) for c in DECK]
    rank_pairs = [(i, j) for i in range(13) for j in range(i, 13)]
    rank_pair_id = {p: n for n, p in enumerate(rank_pairs)}
    # Pair ids: the 91 rank pairs of mixed suits first, then (rank pair, suit) for suited ones.
    pair_ids: list[tuple[int, int | None]] = [(n, None) for n in range(len(rank_pairs))]
    suited_id: dict[tuple[int, int], int] = {}
    for n, (i, j) in enumerate(rank_pairs):
        if i != j:
            for s in range(4):
                suited_id[n, s] = len(pair_ids)
                pair_ids.append((n, s))

    def pair_id(a: int, b: int) -> int:
        n = rank_pair_id[min(rank_of[a], rank_of[b]), max(rank_of[a], rank_of[b])]
        return suited_id[n, suit_of[a]] if suit_of[a] == suit_of[b] else n

    pair_table = tuple(tuple(0 if a == b else pair_id(a, b) for b in range(52)) for a in range(52))
    # One row per multiset of four ranks (plain), and per suit for four distinct ranks (flush).
    multiset_id: dict[tuple[int, ...], int] = {}
    plain_rows: list[bytes] = []
    flush_rows: dict[tuple[int, int], bytes] = {}
    for four in itertools.combinations_with_replacement(range(13), 4):
        code = sum(5**r for r in four)
        plain_by_rank = [_PLAIN.get(code + 5**r, 0) for r in range(13)]
        multiset_id[four] = len(plain_rows)
        plain_rows.append(bytes(plain_by_rank[rank_of[e]] for e in range(52)))
        if len(set(four)) == 4:
            flush_by_rank = [_FLUSH.get(code + 5**r, 0) for r in range(13)]
            for s in range(4):
                flush_rows[multiset_id[four], s] = bytes(
                    flush_by_rank[rank_of[e]] if suit_of[e] == s else plain_by_rank[rank_of[e]]
                    for e in range(52)
                )
    four_id = [[multiset_id[tuple(sorted(p + q))] for q in rank_pairs] for p in rank_pairs]
    plain_lines = [[plain_rows[four_id[n][m]] for m, _ in pair_ids] for n in range(len(rank_pairs))]
    lines = []
    for n, suit in pair_ids:
        line = plain_lines[n]
        if suit is not None:
            line = list(line)
            for m in range(len(rank_pairs)):
                row = flush_rows.get((four_id[n][m], suit))
                if row is not None:
                    line[suited_id[m, suit]] = row
        lines.append(tuple(line))
    return pair_table, tuple(lines)


_PAIR_ID, _TABLE = _build_pair_tables()


def category_index(
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    _p: tuple[tuple[int, ...], ...] = _PAIR_ID,
    _t: tuple[tuple[bytes, ...], ...] = _TABLE,
) -> int:
    """Fast path: the combination of five distinct card indices, as an index into
    :data:`FIVE_CARD_COMBINATIONS` (0 nothing .. 8 straight flush). No validation.

    >>> FIVE_CARD_COMBINATIONS[category_index(0, 13, 26, 39, 1)]
    <Combination.FOURS: 'fours'>
    """
    return _t[_p[a][b]][_p[c][d]][e]


def evaluate_indices(indices: Sequence[int]) -> Combination:
    """The combination of five distinct card indices (0..51), unvalidated."""
    a, b, c, d, e = indices
    return FIVE_CARD_COMBINATIONS[category_index(a, b, c, d, e)]


def _check_five(cards: Sequence[Card]) -> None:
    if len(cards) != 5:
        raise InvalidCardsError(f"expected 5 cards, got {len(cards)}")
    if len({c.index for c in cards}) != 5:
        raise InvalidCardsError(f"duplicate card among {' '.join(map(str, cards))}")


def evaluate(cards: Sequence[Card]) -> Combination:
    """The combination formed by exactly five distinct cards.

    >>> evaluate(parse_cards("AH 2H 3H 4H 5H"))
    <Combination.STRAIGHT_FLUSH: 'straight_flush'>
    """
    _check_five(cards)
    a, b, c, d, e = cards
    return FIVE_CARD_COMBINATIONS[category_index(a.index, b.index, c.index, d.index, e.index)]


# --------------------------------------------------------------------------------------------
# Which cards form a combination; tie ranks.


def _ranks_desc(cards: Iterable[Card]) -> list[int]:
    return sorted((c.rank for c in cards), reverse=True)


def forming_cards(combination: Combination, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` that form ``combination`` (the kickers left out).

    One pair: the two paired cards; two pair: four; threes: three; fours: four (the kicker does
    not count); straights, flushes, full houses: all five; three pairs: all six; nothing: none.

    >>> forming_cards(Combination.ONE_PAIR, parse_cards("9S 9H 2C 5D KS"))
    (Card.parse('9S'), Card.parse('9H'))
    """
    counts = Counter(c.rank for c in cards)
    if combination is Combination.NOTHING:
        return ()
    if combination in (Combination.ONE_PAIR, Combination.TWO_PAIR, Combination.THREE_PAIRS):
        return tuple(c for c in cards if counts[c.rank] >= 2)
    if combination is Combination.THREES:
        return tuple(c for c in cards if counts[c.rank] == 3)
    if combination is Combination.FOURS:
        return tuple(c for c in cards if counts[c.rank] == 4)
    return tuple(cards)


def tie_ranks(combination: Combination, cards: Sequence[Card]) -> tuple[int, ...]:
    """Ranks of the forming cards, high to low; the Ace counts 1 inside A-2-3-4-5.

    >>> tie_ranks(Combination.STRAIGHT, parse_cards("AS 2H 3C 4D 5S"))
    (5, 4, 3, 2, 1)
    """
    formed = forming_cards(combination, cards)
    ranks = _ranks_desc(formed)
    if combination in (Combination.STRAIGHT, Combination.STRAIGHT_FLUSH) and ranks == [
        14,
        5,
        4,
        3,
        2,
    ]:
        ranks = [5, 4, 3, 2, 1]
    return tuple(ranks)


# --------------------------------------------------------------------------------------------
# Scoring a hand


@dataclass(frozen=True, slots=True)
class HandScore:
    """The combination a five-card hand forms and the points it scores under a rule."""

    combination: Combination
    points: int


def parse_by(by: str | Iterable[Seat | str], count: int) -> tuple[Seat, ...]:
    """Read who played (or holds) each card: seat letters of one partnership, one per card.

    >>> parse_by("NNS", 3)
    (<Seat.N: 'N'>, <Seat.N: 'N'>, <Seat.S: 'S'>)
    """
    items = list(by.replace(",", "").replace(" ", "")) if isinstance(by, str) else list(by)
    try:
        seats = tuple(Seat.parse(s) for s in items)
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"by: {exc}") from None
    if len(seats) != count:
        raise InvalidCardsError(f"by: expected {count} seats, one per card, got {len(seats)}")
    sides = {s.side for s in seats}
    if len(sides) > 1:
        raise InvalidCardsError(
            f"by: {''.join(map(str, seats))} mixes seats of both sides; "
            "use the two seats of one partnership"
        )
    return seats


def _largest_share(seats: Sequence[Seat]) -> int:
    return max(Counter(seats).values())


def _score_five(
    combination: Combination,
    cards: Sequence[Card],
    rule: ScoringRule,
    seats: Sequence[Seat] | None,
) -> int:
    if not rule.needs_split(combination):
        return rule.values[combination]
    if seats is None:
        return rule.value(combination)  # raises: the rule needs the split
    if combination is Combination.FOURS:
        counts = Counter(c.rank for c in cards)
        relevant = [s for c, s in zip(cards, seats, strict=True) if counts[c.rank] == 4]
    else:
        relevant = list(seats)
    return rule.value(combination, _largest_share(relevant))


def score_hand(
    cards: Iterable[Card | str],
    rule: ScoringRule | str = CLASSIC,
    by: str | Iterable[Seat | str] | None = None,
) -> HandScore:
    """Score five cards played as one hand.

    ``by`` says which partner played each card (``"NNSSN"`` or seats); the contribution rule
    needs it for fours and straight flushes and raises :class:`InvalidCardsError` without it.

    >>> score_hand(parse_cards("AH 2H 3H 4H 5H"), "contribution", by="NNNSS")
    HandScore(combination=<Combination.STRAIGHT_FLUSH: 'straight_flush'>, points=20)
    """
    rule = get_rule(rule)
    five = parse_cards(cards, count=5)
    seats = None if by is None else parse_by(by, 5)
    combination = evaluate(five)
    return HandScore(combination, _score_five(combination, five, rule, seats))


_FOURS_CODE = _CODE[Combination.FOURS]
_SF_CODE = _CODE[Combination.STRAIGHT_FLUSH]
_RULE_VALUES: dict[str, tuple[int, ...]] = {}


def rule_values(rule: ScoringRule) -> tuple[int, ...]:
    """Base points of each five-card category under ``rule`` (indexed as
    :data:`FIVE_CARD_COMBINATIONS`), for the fast path.

    >>> rule_values(CLASSIC)
    (0, 1, 2, 3, 5, 6, 8, 12, 15)
    """
    found = _RULE_VALUES.get(rule.name)
    if found is None:
        found = tuple(rule.values[c] for c in FIVE_CARD_COMBINATIONS)
        _RULE_VALUES[rule.name] = found
    return found


def hand_points(cards: Sequence[Card], seats: Sequence[Seat], rule: ScoringRule) -> int:
    """Fast path of :func:`score_hand` for bots and solvers: the points of five distinct cards,
    ``seats[i]`` having played (or holding) ``cards[i]``. No validation.

    >>> hand_points(parse_cards("7C 7D 7H 7S KH"), [Seat.N] * 3 + [Seat.S] * 2, CONTRIBUTION)
    12
    """
    a, b, c, d, e = cards
    cat = category_index(a.index, b.index, c.index, d.index, e.index)
    if cat < _FOURS_CODE or not rule.split_values:
        return rule_values(rule)[cat]
    if cat == _SF_CODE:
        relevant = list(seats)
    else:
        ranks = [x.rank for x in cards]
        quad = max(set(ranks), key=ranks.count)
        relevant = [s for x, s in zip(cards, seats, strict=True) if x.rank == quad]
    share = max(relevant.count(s) for s in set(relevant))
    return rule.value(FIVE_CARD_COMBINATIONS[cat], share)


# --------------------------------------------------------------------------------------------
# Best five of many


def _display(cards: Iterable[Card]) -> list[Card]:
    """High rank first, then suit order ♠♥♦♣."""
    return sorted(cards, key=lambda c: (-c.rank, c.suit))


def _straight_cards(cards: Sequence[Card], high: int) -> tuple[Card, ...]:
    pick: dict[int, Card] = {}
    for c in _display(cards):
        pick.setdefault(c.rank, c)
    ranks = [14 if r == 1 else r for r in range(high, high - 5, -1)]
    return tuple(pick[r] for r in ranks)


def best_five(cards: Iterable[Card | str]) -> tuple[Combination, tuple[Card, ...]]:
    """The strongest five-card combination among 5 to 52 cards, and five cards forming it.

    The cards come forming cards first (high to low), then the highest kickers. Among equal
    combinations the one with the higher ranks wins, as in Poker.

    >>> best_five(parse_cards("7C 7D 7H 7S KH 2C 3D"))[0]
    <Combination.FOURS: 'fours'>
    """
    hand = parse_cards(cards)
    if len(hand) < 5:
        raise InvalidCardsError(f"expected at least 5 cards, got {len(hand)}")
    ordered = _display(hand)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, list[Card]] = {}
    for c in ordered:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, []).append(c)

    def kickers(used: Sequence[Card], n: int) -> tuple[Card, ...]:
        return tuple(c for c in ordered if c not in used)[:n]

    # Straight flush
    best_sf: tuple[int, Sequence[Card]] | None = None
    for suited in by_suit.values():
        if len(suited) >= 5:
            high = _straight_high(c.rank for c in suited)
            if high is not None and (best_sf is None or high > best_sf[0]):
                best_sf = (high, suited)
    if best_sf is not None:
        return Combination.STRAIGHT_FLUSH, _straight_cards(best_sf[1], best_sf[0])
    groups = sorted(by_rank.values(), key=lambda g: (len(g), g[0].rank), reverse=True)
    # Fours
    if len(groups[0]) == 4:
        four = tuple(groups[0])
        return Combination.FOURS, four + kickers(four, 1)
    # Full house
    if len(groups[0]) == 3 and len(groups) > 1 and len(groups[1]) >= 2:
        three = tuple(groups[0])
        best_pair = max((g for g in groups[1:] if len(g) >= 2), key=lambda g: g[0].rank)
        return Combination.FULL_HOUSE, three + tuple(best_pair[:2])
    # Flush
    flushes = [suited[:5] for suited in by_suit.values() if len(suited) >= 5]
    if flushes:
        return Combination.FLUSH, tuple(max(flushes, key=lambda f: [c.rank for c in f]))
    # Straight
    high = _straight_high(by_rank)
    if high is not None:
        return Combination.STRAIGHT, _straight_cards(ordered, high)
    if len(groups[0]) == 3:
        three = tuple(groups[0])
        return Combination.THREES, three + kickers(three, 2)
    if len(groups[0]) == 2 and len(groups[1]) == 2:
        pairs = tuple(groups[0]) + tuple(groups[1])
        return Combination.TWO_PAIR, pairs + kickers(pairs, 1)
    if len(groups[0]) == 2:
        pair = tuple(groups[0])
        return Combination.ONE_PAIR, pair + kickers(pair, 3)
    return Combination.NOTHING, tuple(ordered[:5])


# --------------------------------------------------------------------------------------------
# Left-overs


@dataclass(frozen=True, slots=True)
class LeftoverValue:
    """The value of a side's six left-over cards.

    ``cards`` are the cards of the best combination (five, or all six for three pairs);
    ``ranks`` the ranks of the cards forming it, high to low, compared when values tie.
    """

    combination: Combination
    value: int
    cards: tuple[Card, ...]
    ranks: tuple[int, ...] = ()

    @property
    def bonus(self) -> int:
        """What the other side scores for these left-overs: 10 × the value."""
        return LEFTOVER_MULTIPLIER * self.value


def _is_three_pairs(cards: Sequence[Card]) -> bool:
    return sorted(Counter(c.rank for c in cards).values()) == [2, 2, 2]


def leftover_value(
    cards: Iterable[Card | str],
    rule: ScoringRule | str = CLASSIC,
    by: str | Iterable[Seat | str] | None = None,
) -> LeftoverValue:
    """Value of six left-over cards: the best any five of them score, or three pairs (6).

    ``by`` names the partner holding each card (needed by the contribution rule when the best
    five could be fours or a straight flush).

    >>> leftover_value(parse_cards("JS 6S 7H 5H 9C 8D")).value
    5
    """
    rule = get_rule(rule)
    six = tuple(parse_cards(cards, count=6))
    seats = None if by is None else parse_by(by, 6)
    best: tuple[tuple[int, int, tuple[int, ...]], LeftoverValue] | None = None
    for chosen in itertools.combinations(range(6), 5):
        five = tuple(six[i] for i in chosen)
        combination = evaluate(five)
        five_seats = None if seats is None else tuple(seats[i] for i in chosen)
        value = _score_five(combination, five, rule, five_seats)
        ranks = tie_ranks(combination, five)
        key = (value, combination.strength, ranks)
        if best is None or key > best[0]:
            best = (key, LeftoverValue(combination, value, _display_combination(five), ranks))
    assert best is not None
    result = best[1]
    if _is_three_pairs(six):
        value = rule.value(Combination.THREE_PAIRS)
        if value > result.value:
            ranks = tuple(_ranks_desc(six))
            result = LeftoverValue(Combination.THREE_PAIRS, value, tuple(_display(six)), ranks)
    return result


def _display_combination(five: Sequence[Card]) -> tuple[Card, ...]:
    combination = evaluate(five)
    formed = forming_cards(combination, five)
    rest = [c for c in five if c not in formed]
    return tuple(_display(formed)) + tuple(_display(rest))


def leftover_bonus(
    hand_scores: Mapping[Side, int],
    leftovers: Mapping[Side, Iterable[Card | str]],
    rule: ScoringRule | str = CLASSIC,
    by: Mapping[Side, str | Iterable[Seat | str]] | None = None,
) -> dict[Side, int]:
    """The left-over points each side adds after a deal.

    Higher hand score: that side adds 10 × the value of the other side's left-overs. Equal hand
    scores: the side whose left-overs are worth more loses and the other adds 10 × that value;
    equal values are decided by the ranks of the cards forming each side's best combination, high
    to low, the side holding the higher card losing; still equal, or both worth 0: nobody scores.

    >>> ns, ew = parse_cards("9S 9H 4C 4D KS KH"), parse_cards("JS 6S 7H 5H 9C 8D")
    >>> leftover_bonus({Side.NS: 20, Side.EW: 12}, {Side.NS: ns, Side.EW: ew})
    {<Side.NS: 'NS'>: 50, <Side.EW: 'EW'>: 0}
    """
    rule = get_rule(rule)

    def value(side: Side) -> LeftoverValue:
        side_by = None if by is None else by.get(side)
        return leftover_value(leftovers[side], rule, side_by)

    bonus = {Side.NS: 0, Side.EW: 0}
    ns, ew = hand_scores[Side.NS], hand_scores[Side.EW]
    if ns != ew:
        winner = Side.NS if ns > ew else Side.EW
        bonus[winner] = value(winner.other).bonus
        return bonus
    v_ns, v_ew = value(Side.NS), value(Side.EW)
    if v_ns.value == 0 and v_ew.value == 0:
        return bonus
    if v_ns.value != v_ew.value:
        loser = Side.NS if v_ns.value > v_ew.value else Side.EW
    elif v_ns.ranks != v_ew.ranks:
        loser = Side.NS if v_ns.ranks > v_ew.ranks else Side.EW
    else:
        return bonus
    bonus[loser.other] = LEFTOVER_MULTIPLIER * max(v_ns.value, v_ew.value)
    return bonus


# --------------------------------------------------------------------------------------------
# The contribution rule's split, for feedback


@dataclass(frozen=True, slots=True)
class ContributionSplit:
    """Who supplied the cards a split-valued combination is scored on, and what it made.

    ``shares`` lists each partner with the counting cards they supplied, the larger share
    first (for fours, the four cards of the rank; the kicker does not count). ``values`` maps
    every largest share the rule knows to its value, so feedback can show the alternatives.
    """

    combination: Combination
    shares: tuple[tuple[Seat, tuple[Card, ...]], ...]
    largest_share: int
    points: int
    values: tuple[tuple[int, int], ...]

    @property
    def pattern(self) -> str:
        """The split as counts, larger first: ``"3–2"``, ``"4–0"``."""
        counts = [len(cards) for _, cards in self.shares]
        counts += [0] * (2 - len(counts))
        return "–".join(str(n) for n in counts)


def contribution_split(
    cards: Iterable[Card | str],
    by: str | Iterable[Seat | str],
    rule: ScoringRule | str = "contribution",
) -> ContributionSplit | None:
    """The split behind the value of five cards under ``rule``, or ``None`` when their
    combination is worth the same however the partners supplied it.

    >>> split = contribution_split(parse_cards("AH 2H 3H 4H 5H"), "NNNSS")
    >>> split.pattern, split.points
    ('3–2', 20)
    """
    rule = get_rule(rule)
    five = parse_cards(cards, count=5)
    seats = parse_by(by, 5)
    combination = evaluate(five)
    if not rule.needs_split(combination):
        return None
    if combination is Combination.FOURS:
        counts = Counter(c.rank for c in five)
        counting = [(c, s) for c, s in zip(five, seats, strict=True) if counts[c.rank] == 4]
    else:
        counting = list(zip(five, seats, strict=True))
    by_seat: dict[Seat, list[Card]] = {}
    for card, seat in counting:
        by_seat.setdefault(seat, []).append(card)
    shares = tuple(
        sorted(((seat, tuple(cs)) for seat, cs in by_seat.items()), key=lambda t: -len(t[1]))
    )
    largest = len(shares[0][1])
    table = rule.split_values[combination]
    return ContributionSplit(
        combination=combination,
        shares=shares,
        largest_share=largest,
        points=rule.value(combination, largest),
        values=tuple(sorted(table.items(), reverse=True)),
    )
