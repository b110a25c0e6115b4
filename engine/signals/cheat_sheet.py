"""The cheat sheet of a convention, generated from its rows.

The summary grid puts every row in the cells (same rank / in range / out of range x same suit /
same colour / different colour) where some signal it can give falls. The reading order is the
decoder's own (its family groups per round), and what partner may do after "c1 and pass" is
asked of the game engine, so neither can drift from the code that plays and reads.

>>> sheet = cheatsheet(DEFAULT_CONVENTION)
>>> sheet.grid[0].cells[2]
'two pair'
>>> [o.families for o in sheet.reading_order][0]
('strong', 'fours-table', 'weak')
>>> sheet.card_and_pass_reply
('play',)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.cards import DECK
from engine.game import PASS, DealState
from engine.signals.conventions import (
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    ITEM_LINE,
    ITEM_TITLES,
    Convention,
    Row,
    require_convention,
)
from engine.signals.decoder import _family_group, _placements
from engine.signals.encoder import pattern_matches
from engine.signals.relations import SUIT_RELATIONS, signal_relations

__all__ = [
    "FAMILY_LABELS",
    "CheatSheet",
    "ChecklistLine",
    "GridRow",
    "ReadingOrder",
    "RowLine",
    "cheatsheet",
    "cheatsheet_text",
]

RANGE_CLASSES = ("same_rank", "in_range", "out_of_range")
_LABELS = {
    "same_rank": "same rank",
    "in_range": "in range",
    "out_of_range": "out of range",
    "same_suit": "same suit",
    "same_colour": "same colour",
    "different_colour": "different colour",
}


@dataclass(frozen=True, slots=True)
class GridRow:
    label: str
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChecklistLine:
    number: int
    id: str
    title: str
    family: str


@dataclass(frozen=True, slots=True)
class RowLine:
    id: str
    item: str
    shape: str | None
    suit_relation: str
    rank_relation: str
    cards: str
    note: str
    fallback: bool


#: The families of the checklist, as the cheat sheet names them.
FAMILY_LABELS: dict[str, str] = {"strong": "strong", "fours-table": "fours table", "weak": "weak"}


@dataclass(frozen=True, slots=True)
class ReadingOrder:
    """The order in which partner's readings come in one round: ``families`` first to last,
    each family's items (``items``, ids in checklist order) within it."""

    round: str
    side_hands: tuple[int, ...]
    families: tuple[str, ...]
    items: tuple[tuple[str, ...], ...]


#: What the cheat sheet says for a checklist item its convention does not signal (the 1994
#: card's four of a kind): skip it, signal the next item held, play these cards out later.
NO_SIGNAL_PLAY = (
    "skip it and signal the next item you hold; play these cards out on a later "
    "lead (partner is not told)"
)


@dataclass(frozen=True, slots=True)
class CheatSheet:
    convention: str
    title: str
    columns: tuple[str, ...]
    grid: tuple[GridRow, ...]
    pass_signals: str
    checklist: tuple[ChecklistLine, ...]
    rows: tuple[RowLine, ...]
    #: The decoder's order of readings, one entry per round (strong, then weak).
    reading_order: tuple[ReadingOrder, ...] = ()
    #: The kinds of action partner may take after "c1 and pass" (from :mod:`engine.game`).
    card_and_pass_reply: tuple[str, ...] = ()


def _qualifier(row: Row, suit_relation: str) -> str:
    p = row.pattern
    if p.c1_suits and p.c2_suits:
        return f"if {p.describe_suits()}"
    if p.not_suit_pairs and suit_relation == "same_colour":
        return "otherwise"
    if row.item == "full_house":
        return "(threes first)"
    if p.rank in ("up", "down"):
        return p.rank
    return ""


def _reading_order(convention: Convention) -> tuple[ReadingOrder, ...]:
    """The decoder's family groups (:func:`engine.signals.decoder._family_group`) per round."""
    orders = []
    for name, side_hands, strong in (("strong", (1, 2), True), ("weak", (3, 4), False)):
        rank = {ITEM_FAMILY[i]: _family_group(i, strong) for i in convention.checklist}
        families = tuple(sorted(rank, key=rank.__getitem__))
        items = tuple(
            tuple(i for i in convention.checklist if ITEM_FAMILY[i] == f) for f in families
        )
        orders.append(ReadingOrder(name, side_hands, families, items))
    return tuple(orders)


def _card_and_pass_reply() -> tuple[str, ...]:
    """Ask the game: lead a card, partner passes, leader passes -- what may partner do now?"""
    state = DealState("W", {seat: DECK[k::4] for k, seat in enumerate("NESW")})
    state.apply_action(state.legal_actions()[0])
    state.apply_action(PASS)
    state.apply_action(PASS)
    return tuple(sorted({a.kind.value for a in state.legal_actions()}))


@cache
def cheatsheet(convention: Convention = DEFAULT_CONVENTION) -> CheatSheet:
    """The grid, the checklist and the encoding rows of ``convention`` as data."""
    convention = require_convention(convention, "cheatsheet")
    cells: dict[tuple[str, str], dict[str, list[str]]] = {}
    for row in convention.rows:
        seen: set[tuple[str, str]] = set()
        for c1 in DECK:
            for c2 in DECK:
                if c1 is c2 or not pattern_matches(row.pattern, c1, c2):
                    continue
                if row.positions and not _placements(row, c1, c2):
                    continue
                rel = signal_relations(c1, c2)
                seen.add((rel.range_class or "", rel.suit or ""))
        title = ITEM_TITLES[row.item].lower() + ("†" if row.fallback else "")
        for cell in seen:
            quals = cells.setdefault(cell, {}).setdefault(title, [])
            q = _qualifier(row, cell[1])
            if q not in quals:
                quals.append(q)

    def render(cell: tuple[str, str]) -> str:
        parts = []
        for title, quals in cells.get(cell, {}).items():
            words = [q for q in quals if q]
            if len(words) > 1 and all(w in ("up", "down") for w in words):
                words = [" or ".join(sorted(words, reverse=True))]
            parts.append(
                title
                + "".join(
                    f" ({w})" if w in ("up", "down", "up or down") else f" {w}" for w in words
                )
            )
        return " · ".join(parts) or "–"

    grid = tuple(
        GridRow(_LABELS[rc], tuple(render((rc, sr)) for sr in SUIT_RELATIONS))
        for rc in RANGE_CLASSES
    )
    pass_rows = [r for r in convention.rows if r.pattern.rank == "pass"]
    pass_text = "; ".join(
        f"{r.pattern.describe_suits()} card then pass: {ITEM_TITLES[r.item].lower()}"
        for r in pass_rows
    )
    checklist = tuple(
        ChecklistLine(ITEM_LINE[i], i, ITEM_TITLES[i], ITEM_FAMILY[i]) for i in convention.checklist
    )
    lines: list[RowLine] = []
    for item in convention.checklist:
        own = [r for r in convention.rows if r.item == item]
        lines += [
            RowLine(
                r.id,
                r.item,
                r.shape,
                r.pattern.describe_suits(),
                r.pattern.describe_ranks(),
                r.cards,
                r.note,
                r.fallback,
            )
            for r in own
        ]
        if not own:  # an item this convention gives no signal: say so rather than stay silent
            lines.append(RowLine(item, item, None, "–", "no signal", NO_SIGNAL_PLAY, "", False))
    rows = tuple(lines)
    return CheatSheet(
        convention.name,
        convention.title,
        tuple(_LABELS[s] for s in SUIT_RELATIONS),
        grid,
        pass_text,
        checklist,
        rows,
        _reading_order(convention),
        _card_and_pass_reply(),
    )


def cheatsheet_text(convention: Convention = DEFAULT_CONVENTION) -> str:
    """The cheat sheet as plain text (what ``python -m engine cheatsheet`` prints)."""
    sheet = cheatsheet(convention)
    out = [f"Concerto signals — {sheet.title} ({sheet.convention})", ""]
    out.append("Reading the first two cards:")
    for g in sheet.grid:
        out.append(f"  {g.label}:")
        for col, cell in zip(sheet.columns, g.cells, strict=True):
            out.append(f"    {col:<17} {cell}")
    out.append(f"  card and pass:  {sheet.pass_signals}")
    out += ["", "Reading order (drop readings that need a card you can see; † readings last):"]
    for order in sheet.reading_order:
        hands = "-".join(str(h) for h in order.side_hands)
        groups = ", then ".join(FAMILY_LABELS[f] for f in order.families)
        out.append(f"  {order.round} round (side hands {hands}): {groups}")
    out.append(f"  after card and pass partner may only: {', '.join(sheet.card_and_pass_reply)}")
    out += ["", "Leader's checklist (signal the first held):"]
    for line in sheet.checklist:
        out.append(f"  {line.number:>2}. {line.title:<28} {line.id:<15} {line.family}")
    out += ["", "Which cards to play:"]
    for r in sheet.rows:
        name = r.item + (f" {r.shape}" if r.shape else "") + (" †" if r.fallback else "")
        out.append(f"  {name:<20} {r.suit_relation} · {r.rank_relation}: {r.cards}")
        if r.note:
            out.append(f"  {'':<20} ({r.note})")
    out += ["", "† a fallback: played only when no regular play fits; read last."]
    return "\n".join(out)
