"""The decoder: every reading of a signal, ordered as the convention card says.

The readings of a signal are the rows whose pattern it matches (for straight-flush rows also
the window geometry: the shape must fit between Ace-low and Ace-high with c1 and c2 on the
row's positions). Because the encoder keeps only plays matching their row's pattern, every
play it returns decodes to a list containing its item and shape. All 52 x 52 signals are read
once per convention (lazily) and memoised; only the ``visible`` pruning runs per call.

>>> from engine.cards import card
>>> [str(r.item) for r in decode(card("4S"), card("8S"), side_hand=3)]
['four_flush', 'five_sf', 'five_straight']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.cards import DECK, Card, Suit, not_cards_error, require_card
from engine.messages import Join, Msg, Param, Term, placeholders, reading_id, register
from engine.signals.checklist import card_at, find_instances, hand_mask
from engine.signals.conventions import (
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    SF_SHAPES,
    Convention,
    Row,
    require_convention,
)
from engine.signals.encoder import cached_plays, check_side_hand, pattern_matches
from engine.signals.relations import signal_relations

__all__ = ["NO_SIGNAL_TEXT", "Reading", "decode", "primary_reading", "readings_table"]

NO_SIGNAL_TEXT = Msg("reading.no_signal")

#: Alternatives, each a tuple of ``(card mask, k)``: at least k of those cards still unseen.
Needs = tuple[tuple[tuple[int, int], ...], ...]


@dataclass(frozen=True, slots=True)
class Reading:
    """One meaning of a signal: the item, its shape, a sentence, and whether only a † play
    (a fallback) produces it."""

    item: str
    shape: str | None
    text: Msg
    fallback: bool


#: Where a straight-flush reading places the signal: ``(lowest value, values held)``.
_Placement = tuple[int, tuple[int, ...]]

_RANK_MASK = {
    v: sum(1 << (s * 13 + (14 if v == 1 else v) - 2) for s in range(4)) for v in range(1, 15)
}
_SUIT_MASK = [0x1FFF << (13 * s) for s in range(4)]
_SHAPE_ORDER = {s: i for shapes in SF_SHAPES.values() for i, s in enumerate(shapes)}


def _values(c: Card) -> tuple[int, ...]:
    return (1, 14) if c.rank == 14 else (c.rank,)


def _placements(row: Row, c1: Card, c2: Card) -> list[tuple[int, tuple[int, ...]]]:
    """Windows where the row's shape fits with c1 and c2 on its positions: (lo, held values)."""
    shape = row.shape or ""
    found = []
    for p1, p2 in row.positions:
        for v1 in _values(c1):
            lo = v1 - p1
            if lo < 1 or lo + len(shape) - 1 > 14 or lo + p2 not in _values(c2):
                continue
            held = tuple(lo + i for i, ch in enumerate(shape) if ch == "X")
            if (lo, held) not in found:
                found.append((lo, held))
    return found


def _rank(value: int, kind: str = "rank") -> Term:
    return Term(kind, str(14 if value == 1 else value))


def _holding_text(held: tuple[int, ...]) -> Join:
    return Join(tuple(_rank(v) for v in held), "list.dash")


def _needs(row: Row, c1: Card, c2: Card | None, placements: list[_Placement]) -> Needs:
    """What else the leader must hold for this reading, as unseen-card requirements."""
    played = c1.bit | (c2.bit if c2 is not None else 0)
    item = row.item
    r1 = _RANK_MASK[c1.rank] & ~played
    if placements:
        alts: list[tuple[tuple[int, int], ...]] = []
        for _, held in placements:
            m = 0
            for v in held:
                m |= card_at(c1.suit, v).bit
            m &= ~played
            alts.append(((m, m.bit_count()),))
        return tuple(alts)
    if c2 is None:
        size = {"threes": 3, "one_pair": 2}.get(item, 2)
        earlier: set[Suit] = set()
        for tier in row.params:
            if c1.suit in tier:
                break
            earlier.update(tier)
        m = r1 & ~sum(_SUIT_MASK[s] & _RANK_MASK[c1.rank] for s in earlier)
        return (((m, size - 1),),)
    r2 = _RANK_MASK[c2.rank] & ~played
    suit = _SUIT_MASK[c1.suit] & ~played
    rel = signal_relations(c1, c2)
    assert rel.value1 is not None and rel.value2 is not None  # c2 is a card
    lo_v, hi_v = sorted((rel.value1, rel.value2))
    if item == "fours":
        return (((r1, 2),),)
    if item == "two_threes":
        return (((r1, 2), (r2, 2)),)
    if item == "full_house":
        return (((r1, 2), (r2, 1)),)
    if item == "two_pair":
        if c1.rank == c2.rank:
            return tuple(((_RANK_MASK[v], 2),) for v in range(2, 15) if v != c1.rank)
        return (((r1, 1), (r2, 1)),)
    if item == "five_flush":
        above = sum(card_at(c1.suit, v).bit for v in range(c1.rank + 1, 15))
        return (((above & suit, 3),),)
    if item == "four_flush":
        return (((suit, 2),),)
    if item == "three_flush":
        return (((suit, 1),),)
    if item in ("five_straight", "three_straight"):
        between = [(_RANK_MASK[v], 1) for v in range(lo_v + 1, hi_v)]
        if item == "five_straight":
            return (tuple(between),)
        return tuple((b,) for b in between)
    if item == "four_straight":
        ways: set[tuple[tuple[int, int], ...]] = set()
        for base in range(max(1, hi_v - 4), min(10, lo_v) + 1):
            others = [v for v in range(base, base + 5) if v not in (lo_v, hi_v)]
            for i, a in enumerate(others):
                for b in others[i + 1 :]:
                    ways.add(((_RANK_MASK[a], 1), (_RANK_MASK[b], 1)))
        return tuple(sorted(ways))
    return ()


def _text(
    conv: Convention, row: Row, c1: Card, c2: Card | None, placements: list[_Placement]
) -> Msg:
    msg_id = reading_id(conv.name, row.id)
    template = register(msg_id, row.reading)
    fields: dict[str, Param] = {
        "suit": Term("suit", c1.suit.name.lower()),
        "r1": _rank(c1.rank),
        "r1s": _rank(c1.rank, "ranks"),
        "holdings": Join(tuple(_holding_text(h) for _, h in placements), "list.or"),
    }
    if c2 is not None:
        fields["r2"] = _rank(c2.rank)
        fields["r2s"] = _rank(c2.rank, "ranks")
    used = placeholders(template)
    return Msg(msg_id, **{k: v for k, v in fields.items() if k in used})


def _family_group(item: str, strong: bool) -> int:
    family = ITEM_FAMILY[item]
    if family == "fours-table":
        return 1
    return 0 if (family == "strong") == strong else 2


_Entry = tuple[Reading, Needs]
_TABLES: dict[Convention, tuple[list[tuple[_Entry, ...]], list[tuple[_Entry, ...]]]] = {}


def _build(conv: Convention) -> tuple[list[tuple[_Entry, ...]], list[tuple[_Entry, ...]]]:
    order = {item: i for i, item in enumerate(conv.checklist)}
    strong_table: list[tuple[_Entry, ...]] = []
    weak_table: list[tuple[_Entry, ...]] = []
    for c1 in DECK:
        for c2 in (*DECK, None):
            merged: dict[tuple[str, str | None], list[Any]] = {}
            if c2 is not c1:
                for row in conv.rows:
                    if not pattern_matches(row.pattern, c1, c2):
                        continue
                    placements = _placements(row, c1, c2) if row.positions else []  # type: ignore[arg-type]
                    if row.positions and not placements:
                        continue
                    key = (row.item, row.shape)
                    if key in merged:
                        entry = merged[key]
                        entry[1] = entry[1] and row.fallback
                        entry[2] += [p for p in placements if p not in entry[2]]
                    else:
                        merged[key] = [row, row.fallback, list(placements)]
            entries = []
            for (item, shape), (row, fallback, placements) in merged.items():
                needs = _needs(row, c1, c2, placements)
                if c2 is not None and not holding_leads(item, shape, c1, c2, conv, needs, 0):
                    continue  # the row's pattern matches, but the encoder never plays it so
                reading = Reading(item, shape, _text(conv, row, c1, c2, placements), fallback)
                entries.append((reading, needs))
            for strong, table in ((True, strong_table), (False, weak_table)):
                table.append(
                    tuple(
                        sorted(
                            entries,
                            key=lambda e: (
                                e[0].fallback,
                                _family_group(e[0].item, strong),
                                order.get(e[0].item, len(order)),
                                _SHAPE_ORDER.get(e[0].shape or "", 0),
                            ),
                        )
                    )
                )
    return strong_table, weak_table


def readings_table(conv: Convention) -> tuple[list[tuple[_Entry, ...]], list[tuple[_Entry, ...]]]:
    """The memoised ``(strong round, weak round)`` tables, indexed ``c1.index * 53 + c2``."""
    tables = _TABLES.get(conv)
    if tables is None:
        conv = require_convention(conv, "decode")
        tables = _TABLES[conv] = _build(conv)
    return tables


def _feasible(needs: Needs, seen: int) -> bool:
    if not needs:
        return True
    return any(all((m & ~seen).bit_count() >= k for m, k in alt) for alt in needs)


_ALL = (1 << 52) - 1
#: :func:`holding_leads` answers, by card, item, shape, signal and the unseen cards it needs;
#: and, by card, item, shape and signal, a few holdings found to lead (the cards each needs
#: besides the signal): one out of sight answers at once.
_LEADS: dict[tuple[str, str, str, str | None, int, int, int], bool] = {}
_KNOWN: dict[tuple[str, str, str, str | None, int, int], list[int]] = {}


def holding_leads(
    item: str,
    shape: str | None,
    c1: Card,
    c2: Card,
    convention: Convention,
    needs: Needs,
    seen: int,
) -> bool:
    """Whether the leader can hold ``item`` (with ``shape``) and lead exactly ``c1`` then
    ``c2`` for it, the other cards of the holding among those the reader does not see.

    The one rule behind every reader of a signal (the decoder, the reply guide, the
    posterior and so every drill's key and options): a holding counts when the cards it
    ``needs`` (alternatives of ``(mask, k)`` groups) are unseen *and* the encoder plays this
    signal from it, as it would at the table: ♠6 then ♠7 shows four spades only when the 6 is
    the lowest of them, so with ♠10 the only higher spade unseen it is no four to a flush.
    The search stops at the first holding that leads; answers are kept by the unseen cards
    among those the reading needs.
    """
    signal = c1.bit | c2.bit
    entry = (convention.name, convention.version, item, shape, c1.index, c2.index)
    known = _KNOWN.get(entry)
    if known is not None and any(not h & seen for h in known):
        return True  # (a holding found before is still out of sight: the usual case)
    unseen = _ALL & ~seen & ~signal
    relevant = 0
    for alt in needs:
        for m, _ in alt:
            relevant |= m
    key = (*entry, unseen & relevant)
    found = _LEADS.get(key)
    if found is None:
        if len(_LEADS) > 50_000:
            _LEADS.clear()
            _KNOWN.clear()
        holding = next(_holdings(item, shape, c1, c2, convention, needs, unseen), None)
        found = _LEADS[key] = holding is not None
        kept = _KNOWN.setdefault(entry, [])
        if holding is not None and len(kept) < 8:
            kept.append(holding)
    return found


def leading_holdings(entry: tuple[str, str, str, str | None, int, int]) -> tuple[int, ...]:
    """The holdings :func:`holding_leads` has found leading for ``(card name, card version,
    item, shape, c1 index, c2 index)``, as masks of their cards besides the signal."""
    return tuple(_KNOWN.get(entry, ()))


def _holdings(
    item: str,
    shape: str | None,
    c1: Card,
    c2: Card,
    convention: Convention,
    needs: Needs,
    unseen: int = _ALL,
) -> Iterator[int]:
    """Each holding of ``item`` (``shape``) from the ``unseen`` cards whose encoding plays
    exactly ``c1`` then ``c2``, as the mask of its cards besides the signal. The holding must
    show ``item`` first: one holding an earlier item (four hearts A-5-10-Q hold three to a
    straight flush) shows that instead, and so does every hand holding it."""
    signal = c1.bit | c2.bit
    unseen &= ~signal
    found: set[int] = set()
    for alt in needs or ((),):
        groups = [(m & unseen, k) for m, k in alt if k > 0]
        if any(m.bit_count() < k for m, k in groups):
            continue
        for more in _choices(groups):
            if more in found:
                continue
            found.add(more)
            mask = signal | more
            first, instances = find_instances(mask, convention.checklist)
            if first != item:
                continue  # the holding shows an earlier item first: so would any hand with it
            for inst in instances:
                if hand_mask(inst.cards) != mask or (shape is not None and inst.shape != shape):
                    continue
                regular, fallback = cached_plays(convention, inst)
                if any(p == (c1, c2) for p, _ in regular or fallback):
                    yield more
                    break


def _choices(groups: list[tuple[int, int]]) -> Iterator[int]:
    """Each way to take ``k`` cards from every ``(mask, k)`` group, none twice, as a mask
    (lazily: a search that stops at its first holding builds no more)."""
    if not groups:
        yield 0
        return
    (mask, k), rest = groups[0], groups[1:]
    for pick in combinations(_cards_of(mask), k):
        bits = 0
        for c in pick:
            bits |= c.bit
        for more in _choices(rest):
            if not bits & more:
                yield bits | more


def _cards_of(mask: int) -> list[Card]:
    return [c for c in DECK if c.bit & mask]


def decode(
    c1: Card,
    c2: Card | None,
    side_hand: int,
    convention: Convention = DEFAULT_CONVENTION,
    visible: Iterable[Card] = (),
) -> tuple[Reading, ...]:
    """Every reading of the signal ``c1`` then ``c2`` (``None``: c1 and pass), primary first.

    An empty tuple means *no signal*. ``visible`` are the cards the reader can see (own hand,
    completed hands); a reading is dropped when every way of completing it needs one of them.
    """
    tables = _TABLES.get(convention) or readings_table(convention)
    strong = check_side_hand(side_hand) <= 2
    try:
        entries = tables[0 if strong else 1][c1.index * 53 + (52 if c2 is None else c2.index)]
    except (AttributeError, TypeError):
        require_card(c1, "decode")
        require_card(c2, "decode")
        raise
    seen = 0
    try:
        for c in visible:
            seen |= c.bit
    except AttributeError:
        raise not_cards_error(visible, "decode") from None
    if isinstance(visible, str):
        raise not_cards_error(visible, "decode")
    if seen:
        seen &= ~(c1.bit | (c2.bit if c2 is not None else 0))
    if not seen:
        return tuple(e[0] for e in entries)
    if c2 is None:  # (the needs of a card and pass carry the encoder's rule of which card)
        return tuple(r for r, needs in entries if _feasible(needs, seen))
    return tuple(
        r
        for r, needs in entries
        if _feasible(needs, seen)
        and holding_leads(r.item, r.shape, c1, c2, convention, needs, seen)
    )


def primary_reading(
    c1: Card,
    c2: Card | None,
    side_hand: int,
    convention: Convention = DEFAULT_CONVENTION,
    visible: Iterable[Card] = (),
) -> Reading | None:
    """The first reading of :func:`decode`, or ``None`` for no signal."""
    readings = decode(c1, c2, side_hand, convention, visible)
    return readings[0] if readings else None
