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

from engine.cards import DECK, Suit
from engine.game import PASS, DealState
from engine.messages import Cards, Join, Msg, Param, Term, Text, register_words
from engine.signals.conventions import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    DIFFERENT_SUITS,
    ITEM_FAMILY,
    ITEM_LINE,
    RED,
    Convention,
    Pattern,
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

#: The cheat sheet's words (message ids and English templates, :mod:`engine.messages`).
SHEET_WORDS: dict[str, str] = {
    "sheet.same_rank": "same rank",
    "sheet.in_range": "in range",
    "sheet.out_of_range": "out of range",
    "sheet.same_suit": "same suit",
    "sheet.same_colour": "same colour",
    "sheet.different_colour": "different colour",
    "sheet.family.strong": "strong",
    "sheet.family.fours-table": "fours table",
    "sheet.family.weak": "weak",
    "sheet.no_signal_play": (
        "play it out at once: any card of it, then another (partner passes after each), "
        "then the other two and a fifth card; partner reads two pair until a third card "
        "comes instead of a pass"
    ),
    "sheet.no_signal": "no signal",
    "sheet.cell": "%(item)s%(mark)s%(quals)s",
    "sheet.q.up": " (up)",
    "sheet.q.down": " (down)",
    "sheet.q.up_or_down": " (up or down)",
    "sheet.q.otherwise": " otherwise",
    "sheet.q.threes_first": " (threes first)",
    "sheet.q.if": " if %(suits)s",
    "sheet.pass_row": "%(suits)s card then pass: %(item)s",
    "sheet.suits.any": "any",
    "sheet.suits.red": "red",
    "sheet.suits.pair": "%(first)s then %(second)s",
    "sheet.suits.same_suit": "same suit",
    "sheet.suits.same_colour": "same colour, different suits",
    "sheet.suits.different_colour": "different colour",
    "sheet.suits.different_suits": "different suits",
    "sheet.ranks.then_pass": "then pass",
    "sheet.ranks.same": "same rank",
    "sheet.ranks.same_but": "same rank, any order but %(pairs)s",
    "sheet.ranks.different": "different ranks",
    "sheet.ranks.up": "up, %(distance)s",
    "sheet.ranks.down": "down, %(distance)s",
    "sheet.ranks.in_range": "in range",
    "sheet.ranks.distance": "d=%(n)s",
    "sheet.ranks.distances": "d=%(first)s..%(last)s",
    "sheet.ranks.out_of_range": "out of range",
    "list.none": "",
}
for _conv in CONVENTIONS.values():
    for _row in _conv.rows:
        SHEET_WORDS[f"sheet.cards.{_conv.name}.{_row.id}"] = _row.cards.replace("%", "%%")
        if _row.note:
            SHEET_WORDS[f"sheet.note.{_conv.name}.{_row.id}"] = _row.note.replace("%", "%%")
register_words(SHEET_WORDS)

_LABELS = {
    k: Msg(f"sheet.{k}")
    for k in (
        "same_rank",
        "in_range",
        "out_of_range",
        "same_suit",
        "same_colour",
        "different_colour",
    )
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
FAMILY_LABELS: dict[str, str] = {
    f: Msg(f"sheet.family.{f}") for f in ("strong", "fours-table", "weak")
}


@dataclass(frozen=True, slots=True)
class ReadingOrder:
    """The order in which partner's readings come in one round: ``families`` first to last,
    each family's items (``items``, ids in checklist order) within it."""

    round: str
    side_hands: tuple[int, ...]
    families: tuple[str, ...]
    items: tuple[tuple[str, ...], ...]


#: What the cheat sheet says for a checklist item its convention does not signal (the 1994
#: card's four of a kind): play it out at once, on this lead.
NO_SIGNAL_PLAY = Msg("sheet.no_signal_play")


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


def _suit_list(suits: frozenset[Suit] | None) -> Param:
    if not suits:
        return Text("")
    if suits == RED:
        return Msg("sheet.suits.red")
    return Text("/".join(s.symbol for s in sorted(suits)))


def suits_words(p: Pattern) -> Msg:
    """:meth:`Pattern.describe_suits` as a message."""
    if p.rank == "pass":
        if p.c1_suits:
            return Msg("sheet.cell", item=_suit_list(p.c1_suits), mark=Text(""), quals=Text(""))
        return Msg("sheet.suits.any")
    if p.c1_suits and p.c2_suits and len(p.c1_suits) == len(p.c2_suits) == 1:
        return Msg("sheet.suits.pair", first=_suit_list(p.c1_suits), second=_suit_list(p.c2_suits))
    if p.suits == frozenset({"same_suit", "same_colour", "different_colour"}):
        return Msg("sheet.suits.any")
    if p.suits == DIFFERENT_SUITS:
        return Msg("sheet.suits.different_suits")
    order = ("same_suit", "same_colour", "different_colour")
    names = tuple(Msg(f"sheet.suits.{s}") for s in sorted(p.suits, key=order.index))
    if len(names) == 1:
        return names[0]
    return Msg("sheet.cell", item=Join(names, "list.or"), mark=Text(""), quals=Text(""))


def ranks_words(p: Pattern) -> Msg:
    """:meth:`Pattern.describe_ranks` as a message."""
    if p.rank == "pass":
        return Msg("sheet.ranks.then_pass")
    if p.rank == "same":
        if p.not_suit_pairs:
            pairs = tuple(
                Cards((), then=False)
                if False
                else Msg("play.then", c1=Text(a.symbol), c2=Text(b.symbol))
                for a, b in sorted(p.not_suit_pairs)
            )
            return Msg("sheet.ranks.same_but", pairs=Join(pairs))
        return Msg("sheet.ranks.same")
    if p.rank == "different":
        return Msg("sheet.ranks.different")
    distance: Param
    if p.d_min == p.d_max:
        distance = Msg("sheet.ranks.distance", n=p.d_min)
    elif p.d_min >= 5:
        distance = Msg("sheet.ranks.out_of_range")
    elif p.d_min <= 1 and p.d_max == 4:
        distance = Msg("sheet.ranks.in_range")
    else:
        distance = Msg("sheet.ranks.distances", first=p.d_min, last=p.d_max)
    return Msg(f"sheet.ranks.{p.rank}", distance=distance)


def _qualifier(row: Row, suit_relation: str) -> Msg | None:
    p = row.pattern
    if p.c1_suits and p.c2_suits:
        return Msg("sheet.q.if", suits=suits_words(p))
    if p.not_suit_pairs and suit_relation == "same_colour":
        return Msg("sheet.q.otherwise")
    if row.item == "full_house":
        return Msg("sheet.q.threes_first")
    if p.rank in ("up", "down"):
        return Msg(f"sheet.q.{p.rank}")
    return None


def _row_words(convention: Convention, row: Row, what: str) -> Msg | str:
    """A row's ``cards`` or ``note`` text: a message for a shipped card's row."""
    msg_id = f"sheet.{what}.{convention.name}.{row.id}"
    text: str = getattr(row, what)
    if msg_id in SHEET_WORDS and SHEET_WORDS[msg_id] == text.replace("%", "%%"):
        return Msg(msg_id)
    return text


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
    cells: dict[tuple[str, str], dict[tuple[str, bool], list[Msg | None]]] = {}
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
        title = (str(row.item), row.fallback)
        for cell in seen:
            quals = cells.setdefault(cell, {}).setdefault(title, [])
            q = _qualifier(row, cell[1])
            if q not in quals:
                quals.append(q)

    def render(cell: tuple[str, str]) -> Msg | str:
        parts: list[Param] = []
        for (item, fallback), quals in cells.get(cell, {}).items():
            words = [q for q in quals if q is not None]
            if len(words) > 1 and all(w.id in ("sheet.q.up", "sheet.q.down") for w in words):
                words = [Msg("sheet.q.up_or_down")]
            parts.append(
                Msg(
                    "sheet.cell",
                    item=Term("item_lower", item),
                    mark=Text("†" if fallback else ""),
                    quals=Join(tuple(words), "list.none"),
                )
            )
        if not parts:
            return "–"
        return Msg("sheet.cell", item=Join(tuple(parts), "list.dot"), mark=Text(""), quals=Text(""))

    grid = tuple(
        GridRow(_LABELS[rc], tuple(render((rc, sr)) for sr in SUIT_RELATIONS))
        for rc in RANGE_CLASSES
    )
    pass_rows = [r for r in convention.rows if r.pattern.rank == "pass"]
    pass_text = Msg(
        "sheet.cell",
        item=Join(
            tuple(
                Msg(
                    "sheet.pass_row",
                    suits=suits_words(r.pattern),
                    item=Term("item_lower", str(r.item)),
                )
                for r in pass_rows
            ),
            "list.semicolon",
        ),
        mark=Text(""),
        quals=Text(""),
    )
    checklist = tuple(
        ChecklistLine(ITEM_LINE[i], i, Msg("term", term=Term("item", str(i))), ITEM_FAMILY[i])
        for i in convention.checklist
    )
    lines: list[RowLine] = []
    for item in convention.checklist:
        own = [r for r in convention.rows if r.item == item]
        lines += [
            RowLine(
                r.id,
                r.item,
                r.shape,
                suits_words(r.pattern),
                ranks_words(r.pattern),
                _row_words(convention, r, "cards"),
                _row_words(convention, r, "note") if r.note else "",
                r.fallback,
            )
            for r in own
        ]
        if not own:  # an item this convention gives no signal: say so rather than stay silent
            lines.append(
                RowLine(item, item, None, "–", Msg("sheet.no_signal"), NO_SIGNAL_PLAY, "", False)
            )
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
    out += ["", "Leader's checklist (show the first held; one with no signal is played out):"]
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
