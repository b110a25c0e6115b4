"""Card files: a convention card read from JSON, checked, and written back.

:func:`load_convention` reads a card (a file, JSON text or parsed JSON) and returns a
:class:`~engine.signals.card.Convention`, or raises :class:`InvalidCardError` listing every
problem, each naming the row or item it is about (:func:`card_errors` returns the list
itself). The shipped cards are loaded by the same function from ``engine/signals/cards/``.
:func:`card_text` writes a card in the same form, so ``load_convention(card_text(c)) == c``.
The form is described in ``docs/conventions.md``.

>>> conv = load_convention(Path(__file__).parent / "cards" / "parlett-2008.json")
>>> conv.name, len(conv.rows), load_convention(card_text(conv)) == conv
('parlett-2008', 30, True)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.cards import Suit
from engine.errors import InvalidNotationError
from engine.signals.card import (
    ITEMS,
    SCHEMA,
    SF_SHAPES,
    SUIT_RELATION_NAMES,
    Convention,
    Pattern,
    Row,
)

__all__ = [
    "CARDS_DIR",
    "RANK_RELATIONS",
    "READING_FIELDS",
    "RULE_ITEMS",
    "CardError",
    "InvalidCardError",
    "card_errors",
    "card_text",
    "load_convention",
    "parse_card",
]

#: Where the shipped cards live (package data).
CARDS_DIR = Path(__file__).resolve().parent / "cards"

#: The ``rank`` words of a pattern.
RANK_RELATIONS: tuple[str, ...] = ("same", "different", "up", "down", "pass")

_SF_ITEMS = frozenset({"five_sf", "four_sf", "three_sf"})
_SF_SIZE = {"five_sf": 5, "four_sf": 4, "three_sf": 3}
_GROUP_ITEMS = frozenset({"fours", "two_threes", "full_house", "threes", "two_pair", "one_pair"})
_TWO_GROUP_ITEMS = frozenset({"two_threes", "full_house", "two_pair"})
_FLUSH_ITEMS = frozenset({"five_flush", "four_flush", "three_flush"})
_STRAIGHT_ITEMS = frozenset({"five_straight", "four_straight", "three_straight"})

#: The encoder's rule vocabulary (:data:`engine.signals.encoder.RULES`) and the items each rule
#: can show: a rule proposes plays from the parts of a holding it reads (a straight flush's
#: shape, same-rank groups, a suit's or a straight's cards), which other items do not have.
RULE_ITEMS: dict[str, frozenset[str]] = {
    "positions": _SF_ITEMS,
    "rank_pairs": _GROUP_ITEMS,
    "suit_and_pass": _GROUP_ITEMS,
    "cross_groups": _TWO_GROUP_ITEMS,
    "three_then_pair": _TWO_GROUP_ITEMS,
    "high_pair_then_low": _TWO_GROUP_ITEMS,
    "flush_ends": _FLUSH_ITEMS | _SF_ITEMS,
    "flush_low_any": _FLUSH_ITEMS | _SF_ITEMS,
    "flush_up": _FLUSH_ITEMS | _SF_ITEMS,
    "flush_down": _FLUSH_ITEMS | _SF_ITEMS,
    "flush_top_bottom": _FLUSH_ITEMS | _SF_ITEMS,
    "straight_ends": _STRAIGHT_ITEMS,
    "straight_top_bottom": _STRAIGHT_ITEMS,
    "straight_up": _STRAIGHT_ITEMS | _SF_ITEMS,
}

#: The fields a row's ``reading`` may use, and which signals have them.
READING_FIELDS: dict[str, str] = {
    "suit": "the suit of c1",
    "r1": "the rank of c1",
    "r1s": "the rank of c1, plural",
    "r2": "the rank of c2 (not after c1 and pass)",
    "r2s": "the rank of c2, plural (not after c1 and pass)",
    "holdings": "the straight-flush holdings the signal fits (straight-flush rows only)",
}

_NAME = re.compile(r"[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?")
_ROW_ID = re.compile(r"[A-Za-z0-9_.:+-]{1,80}")
_FIELD = re.compile(r"\{(\w*)\}")

_CARD_FIELDS = ("schema", "name", "title", "description", "no_signal_text", "checklist", "rows")
_ROW_FIELDS = (
    "id",
    "item",
    "rule",
    "shape",
    "positions",
    "params",
    "pattern",
    "otherwise",
    "fallback",
    "cards",
    "reading",
    "note",
)
_PATTERN_FIELDS = ("rank", "suits", "distance", "c1_suits", "c2_suits", "not_suit_pairs")


@dataclass(frozen=True, slots=True)
class CardError:
    """One problem of a card: a ``code`` (``unknown_item``, ``bad_shape`` …), where it is
    (``row`` id, ``item``, ``field``) and an English ``message`` naming them."""

    code: str
    message: str
    row: str | None = None
    item: str | None = None
    field: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "row": self.row,
            "item": self.item,
            "field": self.field,
            "message": self.message,
        }


class InvalidCardError(InvalidNotationError):
    """A card that cannot be read or is not valid; ``errors`` lists every problem.

    >>> load_convention('{"schema": 1}')  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    engine.signals.cardfile.InvalidCardError: not a valid card: missing field 'name' …
    """

    def __init__(self, errors: list[CardError], source: str = "") -> None:
        self.errors = tuple(errors)
        self.source = source
        where = f"{source}: " if source else ""
        first = errors[0].message if errors else "no card"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"{where}not a valid card: {first}{more}")


def card_text(conv: Convention) -> str:
    """The card as its file: JSON with one field per line (short lists on one line)."""
    return _pretty(conv.to_json(), "") + "\n"


def _pretty(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        fields = [f"{inner}{json.dumps(k)}: {_pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(fields) + f"\n{indent}}}"
    flat = json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and len(flat) > 72:
        parts = [inner + _pretty(v, inner) for v in value]
        return "[\n" + ",\n".join(parts) + f"\n{indent}]"
    return flat


def load_convention(source: str | Path | Mapping[str, Any]) -> Convention:
    """Read and check a card: a file path, JSON text (starting with ``{``) or parsed JSON.

    Raises :class:`InvalidCardError` (a :class:`ValueError`) when the file cannot be read, is
    not JSON, or is not a valid card; its ``errors`` list every problem.
    """
    data, where = _read(source)
    return parse_card(data, where)


def parse_card(data: Any, source: str = "") -> Convention:
    """The :class:`Convention` of parsed JSON ``data``, or :class:`InvalidCardError`."""
    conv, errors = _parse(data)
    if conv is None or errors:
        raise InvalidCardError(errors, source)
    return conv


def card_errors(source: str | Path | Mapping[str, Any]) -> list[CardError]:
    """Every problem of a card (empty when it is valid); unreadable input is one problem."""
    try:
        data, _ = _read(source)
    except InvalidCardError as exc:
        return list(exc.errors)
    return _parse(data)[1]


def _read(source: str | Path | Mapping[str, Any]) -> tuple[Any, str]:
    if not isinstance(source, str | Path):
        return source, ""  # parsed JSON (a card is an object: _parse says so if it is not)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        text, where = source, ""
    else:
        path = Path(source)
        where = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise InvalidCardError(
                [CardError("unreadable", f"cannot read the card file {where}: {reason}")]
            ) from None
    try:
        return json.loads(text), where
    except json.JSONDecodeError as exc:
        message = f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        raise InvalidCardError([CardError("not_json", message)], where) from None


class _Errors:
    """Collects the problems of one card."""

    def __init__(self) -> None:
        self.found: list[CardError] = []

    def add(
        self, code: str, message: str, *, row: str | None = None, item: str | None = None
    ) -> None:
        item = None if item is None else str(item)
        where = f"row {row!r}: " if row is not None else (f"item {item!r}: " if item else "")
        self.found.append(CardError(code, where + message, row, item, _field_of(code)))


def _field_of(code: str) -> str | None:
    return {
        "unknown_item": "item",
        "item_not_on_checklist": "item",
        "unknown_rule": "rule",
        "rule_cannot_show_item": "rule",
        "bad_pattern": "pattern",
        "bad_shape": "shape",
        "bad_positions": "positions",
        "positions_against_pattern": "positions",
        "missing_reading": "reading",
        "bad_reading_field": "reading",
        "missing_cards": "cards",
        "bad_params": "params",
        "duplicate_row_id": "id",
        "bad_row_id": "id",
        "otherwise_first": "otherwise",
        "unknown_checklist_item": "checklist",
        "duplicate_checklist_item": "checklist",
        "unplayed_item": "checklist",
        "bad_name": "name",
    }.get(code)


def _parse(data: Any) -> tuple[Convention | None, list[CardError]]:
    errors = _Errors()
    if not isinstance(data, dict):
        errors.add("not_a_card", f"a card is a JSON object, not {type(data).__name__}")
        return None, errors.found
    unknown = [k for k in data if k not in (*_CARD_FIELDS, "version")]
    for key in unknown:
        errors.add("unknown_field", f"unknown field {key!r} (a card has {', '.join(_CARD_FIELDS)})")
    schema = data.get("schema")
    if schema is None:
        errors.add("missing_field", f"missing field 'schema' (this engine reads schema {SCHEMA})")
    elif schema != SCHEMA or isinstance(schema, bool):
        errors.add("schema", f"schema {schema!r} is not one this engine reads ({SCHEMA})")
    name = _text(data, "name", errors, required=True)
    if name and not _NAME.fullmatch(name):
        errors.add(
            "bad_name",
            f"name {name!r} is not a card name: lower-case letters, digits, '-' and '_', "
            "at most 64 characters, starting and ending with a letter or digit",
        )
    title = _text(data, "title", errors, required=True)
    description = _text(data, "description", errors)
    no_signal = _text(data, "no_signal_text", errors) or "Not a signal in this system."
    checklist = _checklist(data.get("checklist", [str(i) for i in ITEMS]), errors)
    raw_rows = data.get("rows")
    rows: list[Row] = []
    if not isinstance(raw_rows, list):
        errors.add("missing_field", "missing field 'rows' (a list of rows)")
        raw_rows = []
    seen_ids: set[str] = set()
    last_item: set[str] = set()
    for index, raw in enumerate(raw_rows):
        row = _row(raw, index, errors, seen_ids)
        if row is None:
            continue
        if row.item not in checklist and checklist:
            errors.add(
                "item_not_on_checklist",
                f"shows {str(row.item)!r}, which is not on the card's checklist",
                row=row.id,
                item=row.item,
            )
        if row.otherwise and row.item not in last_item:
            errors.add(
                "otherwise_first",
                "'otherwise' needs a row of the same item above it to stand in for",
                row=row.id,
                item=row.item,
            )
        last_item.add(row.item)
        rows.append(row)
    for item in ITEMS:
        if item not in checklist:
            errors.add(
                "unplayed_item",
                "is neither signalled nor played out: it is not on the card's checklist "
                "(an item on the checklist without rows is played out)",
                item=item,
            )
    if errors.found:
        return None, errors.found
    assert name is not None and title is not None
    conv = Convention(name, title, description or "", tuple(checklist), tuple(rows), no_signal)
    return conv, []


def _text(data: dict[str, Any], key: str, errors: _Errors, *, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            errors.add("missing_field", f"missing field {key!r}")
        return None
    if not isinstance(value, str):
        errors.add("bad_value", f"{key!r} must be text, not {json.dumps(value)}")
        return None
    if required and not value.strip():
        errors.add("missing_field", f"{key!r} is empty")
    return value


def _checklist(value: Any, errors: _Errors) -> list[str]:
    if not isinstance(value, list):
        errors.add("bad_value", "'checklist' must be a list of checklist item ids")
        return [str(i) for i in ITEMS]
    out: list[str] = []
    for entry in value:
        if entry not in ITEMS:
            errors.add(
                "unknown_checklist_item",
                f"checklist: unknown item {entry!r} (known: {', '.join(ITEMS)})",
            )
        elif entry in out:
            errors.add("duplicate_checklist_item", "is on the checklist twice", item=entry)
        else:
            out.append(entry)
    return out


def _row(raw: Any, index: int, errors: _Errors, seen_ids: set[str]) -> Row | None:
    if not isinstance(raw, dict):
        errors.add("bad_row", f"rows[{index}] must be an object, not {json.dumps(raw)}")
        return None
    rid = raw.get("id")
    if not isinstance(rid, str) or not _ROW_ID.fullmatch(rid):
        errors.add(
            "bad_row_id",
            f"rows[{index}]: the id must be text of letters, digits and _ . : + -, "
            f"not {json.dumps(rid)}",
        )
        return None
    count = len(errors.found)
    if rid in seen_ids:
        errors.add("duplicate_row_id", "two rows have this id", row=rid)
    seen_ids.add(rid)
    for key in raw:
        if key not in _ROW_FIELDS:
            errors.add("unknown_field", f"unknown field {key!r}", row=rid)
    item = raw.get("item")
    if item not in ITEMS:
        errors.add("unknown_item", f"unknown item {item!r} (known: {', '.join(ITEMS)})", row=rid)
        item = None
    rule = raw.get("rule")
    if rule not in RULE_ITEMS:
        errors.add(
            "unknown_rule", f"unknown rule {rule!r} (known: {', '.join(RULE_ITEMS)})", row=rid
        )
        rule = None
    elif item is not None and item not in RULE_ITEMS[rule]:
        can = ", ".join(i for i in ITEMS if i in RULE_ITEMS[rule])
        errors.add(
            "rule_cannot_show_item",
            f"rule {rule!r} cannot show {item!r} (it shows {can})",
            row=rid,
            item=item,
        )
    pattern = _pattern(raw.get("pattern"), rid, errors)
    if (
        pattern is not None
        and rule is not None
        and (pattern.rank == "pass") != (rule == "suit_and_pass")
    ):
        errors.add(
            "bad_pattern",
            f"rule {rule!r} never gives a play of pattern rank {pattern.rank!r} "
            "(only 'suit_and_pass' plays a card and pass, and it plays nothing else)",
            row=rid,
        )
    shape, positions = _shape(raw, rid, item, rule, pattern, errors)
    params = _params(raw.get("params", {}), rid, rule, errors)
    flags = {}
    for key in ("otherwise", "fallback"):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            errors.add("bad_value", f"{key!r} must be true or false", row=rid)
        flags[key] = bool(value)
    cards = raw.get("cards")
    if not isinstance(cards, str) or not cards.strip():
        errors.add("missing_cards", "missing 'cards' (which cards to play, in words)", row=rid)
    reading = raw.get("reading")
    if not isinstance(reading, str) or not reading.strip():
        errors.add("missing_reading", "missing 'reading' (what the signal says)", row=rid)
    elif pattern is not None:
        _check_reading(reading, rid, pattern, rule, errors)
    note = raw.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, str):
        errors.add("bad_value", "'note' must be text", row=rid)
    if len(errors.found) > count or item is None or rule is None or pattern is None:
        return None
    assert isinstance(cards, str) and isinstance(reading, str) and isinstance(note, str)
    return Row(
        id=rid,
        item=item,
        rule=rule,
        pattern=pattern,
        cards=cards,
        reading=reading,
        shape=shape,
        positions=positions,
        params=params,
        otherwise=flags["otherwise"],
        fallback=flags["fallback"],
        note=note,
    )


def _suits(value: Any, what: str, rid: str, errors: _Errors) -> frozenset[Suit] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        errors.add(
            "bad_pattern", f"{what} must be a list of suit letters (S H D C) or null", row=rid
        )
        return None
    out: list[Suit] = []
    for entry in value:
        try:
            suit = Suit.parse(entry) if isinstance(entry, str) else None
        except InvalidNotationError:
            suit = None
        if suit is None:
            errors.add(
                "bad_pattern", f"{what}: {json.dumps(entry)} is not a suit (S H D C)", row=rid
            )
        elif suit in out:
            errors.add("bad_pattern", f"{what}: {suit.char} is listed twice", row=rid)
        else:
            out.append(suit)
    return frozenset(out)


def _pattern(raw: Any, rid: str, errors: _Errors) -> Pattern | None:
    if not isinstance(raw, dict):
        errors.add("bad_pattern", "missing 'pattern' (an object with at least 'rank')", row=rid)
        return None
    count = len(errors.found)
    for key in raw:
        if key not in _PATTERN_FIELDS:
            errors.add("bad_pattern", f"unknown pattern field {key!r}", row=rid)
    rank = raw.get("rank")
    if rank not in RANK_RELATIONS:
        errors.add(
            "bad_pattern",
            f"pattern rank {rank!r} is not one of {', '.join(RANK_RELATIONS)}",
            row=rid,
        )
    suits_raw = raw.get("suits", list(SUIT_RELATION_NAMES))
    suits: set[str] = set()
    if not isinstance(suits_raw, list) or not suits_raw:
        errors.add(
            "bad_pattern",
            f"pattern suits must be a non-empty list of {', '.join(SUIT_RELATION_NAMES)}",
            row=rid,
        )
    else:
        for entry in suits_raw:
            if entry not in SUIT_RELATION_NAMES:
                errors.add(
                    "bad_pattern",
                    f"pattern suits: {json.dumps(entry)} is not one of "
                    f"{', '.join(SUIT_RELATION_NAMES)}",
                    row=rid,
                )
            elif entry in suits:
                errors.add("bad_pattern", f"pattern suits: {entry} is listed twice", row=rid)
            suits.add(entry)
    distance = raw.get("distance", [0, 12])
    d_min = d_max = 0
    if (
        not isinstance(distance, list)
        or len(distance) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) for d in distance)
        or not 0 <= distance[0] <= distance[1] <= 12
    ):
        errors.add(
            "bad_pattern",
            f"pattern distance must be [min, max] with 0 <= min <= max <= 12, not "
            f"{json.dumps(distance)}",
            row=rid,
        )
    else:
        d_min, d_max = distance
    c1_suits = _suits(raw.get("c1_suits"), "pattern c1_suits", rid, errors)
    c2_suits = _suits(raw.get("c2_suits"), "pattern c2_suits", rid, errors)
    pairs_raw = raw.get("not_suit_pairs", [])
    pairs: set[tuple[Suit, Suit]] = set()
    if not isinstance(pairs_raw, list):
        errors.add(
            "bad_pattern", "pattern not_suit_pairs must be a list of [c1, c2] suits", row=rid
        )
    else:
        for entry in pairs_raw:
            found = _suits(entry, "pattern not_suit_pairs", rid, errors)
            if found is None or not isinstance(entry, list) or len(entry) != 2:
                if found is not None:
                    errors.add(
                        "bad_pattern", "pattern not_suit_pairs entries are [c1, c2] suits", row=rid
                    )
                continue
            pairs.add((Suit.parse(entry[0]), Suit.parse(entry[1])))
    if len(errors.found) > count:
        return None
    if rank == "pass":
        if (
            suits != set(SUIT_RELATION_NAMES)
            or (d_min, d_max) != (0, 12)
            or c2_suits is not None
            or pairs
        ):
            errors.add(
                "bad_pattern",
                "a card-and-pass pattern has no second card: only 'c1_suits' applies",
                row=rid,
            )
    elif rank == "same":
        if d_min > 0:
            errors.add("bad_pattern", "two cards of the same rank are distance 0", row=rid)
        if suits == {"same_suit"}:
            errors.add("bad_pattern", "two cards of one rank are never of one suit", row=rid)
    elif d_max < 1:
        errors.add(
            "bad_pattern", f"'{rank}' needs two different ranks: a distance of at least 1", row=rid
        )
    if len(errors.found) > count:
        return None
    assert isinstance(rank, str)
    return Pattern(rank, frozenset(suits), d_min, d_max, c1_suits, c2_suits, frozenset(pairs))


def _shape(
    raw: dict[str, Any],
    rid: str,
    item: str | None,
    rule: str | None,
    pattern: Pattern | None,
    errors: _Errors,
) -> tuple[str | None, tuple[tuple[int, int], ...]]:
    shape = raw.get("shape")
    positions_raw = raw.get("positions", [])
    if rule != "positions":
        if shape is not None:
            errors.add(
                "bad_shape", "only straight-flush rows (rule 'positions') have a shape", row=rid
            )
        if positions_raw not in ([], None):
            errors.add(
                "bad_positions",
                "only straight-flush rows (rule 'positions') have positions",
                row=rid,
            )
        return None, ()
    if item is None:
        return None, ()  # the unknown item is the problem
    size = _SF_SIZE.get(item, 0)
    shapes = SF_SHAPES.get(size, ())
    if not isinstance(shape, str) or shape not in shapes:
        known = ", ".join(shapes) if shapes else "none"
        errors.add(
            "bad_shape",
            f"shape {json.dumps(shape)} is not a straight-flush shape of {item!r} "
            f"(SF_SHAPES: {known})",
            row=rid,
            item=item,
        )
        return None, ()
    if not isinstance(positions_raw, list) or not positions_raw:
        errors.add("bad_positions", "a straight-flush row needs positions [[c1, c2], …]", row=rid)
        return shape, ()
    held = [i for i, ch in enumerate(shape) if ch == "X"]
    positions: list[tuple[int, int]] = []
    for entry in positions_raw:
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in entry)
        ):
            errors.add("bad_positions", f"positions: {json.dumps(entry)} is not [c1, c2]", row=rid)
            continue
        p1, p2 = entry
        if p1 not in held or p2 not in held or p1 == p2:
            errors.add(
                "bad_positions",
                f"positions {entry} are not two held places of {shape} "
                f"(held: {', '.join(map(str, held))})",
                row=rid,
            )
            continue
        positions.append((p1, p2))
        if pattern is not None:
            direction, d = ("up" if p2 > p1 else "down"), abs(p2 - p1)
            if (
                "same_suit" not in pattern.suits
                or pattern.rank not in (direction, "different")
                or not pattern.d_min <= d <= pattern.d_max
            ):
                errors.add(
                    "positions_against_pattern",
                    f"positions {entry} play {direction} {d} in one suit, which the pattern "
                    f"({pattern.rank}, distance {pattern.d_min}..{pattern.d_max}) never allows",
                    row=rid,
                )
    return shape, tuple(positions)


def _params(raw: Any, rid: str, rule: str | None, errors: _Errors) -> tuple[Any, ...]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        errors.add("bad_params", "'params' must be an object", row=rid)
        return ()
    if rule != "suit_and_pass":
        if raw:
            errors.add("bad_params", f"rule {rule!r} takes no params", row=rid)
        return ()
    extra = [k for k in raw if k != "suit_tiers"]
    if extra:
        errors.add("bad_params", f"unknown params {', '.join(map(repr, extra))}", row=rid)
    tiers_raw = raw.get("suit_tiers")
    if not isinstance(tiers_raw, list) or not tiers_raw:
        errors.add(
            "bad_params",
            "rule 'suit_and_pass' needs params.suit_tiers: lists of suits of c1, most "
            'preferred first (e.g. [["H"], ["D"]])',
            row=rid,
        )
        return ()
    tiers: list[tuple[Suit, ...]] = []
    used: set[Suit] = set()
    for entry in tiers_raw:
        found = _suits(entry, "params.suit_tiers", rid, errors)
        if found is None:
            continue
        tier = tuple(Suit.parse(s) for s in entry)
        if used & set(tier):
            errors.add("bad_params", "params.suit_tiers: a suit is in two tiers", row=rid)
        used |= set(tier)
        tiers.append(tier)
    return tuple(tiers)


def _check_reading(
    reading: str, rid: str, pattern: Pattern, rule: str | None, errors: _Errors
) -> None:
    for name in _FIELD.findall(reading):
        if name not in READING_FIELDS:
            errors.add(
                "bad_reading_field",
                f"reading uses {{{name}}}; the fields are {', '.join(READING_FIELDS)}",
                row=rid,
            )
        elif name in ("r2", "r2s") and pattern.rank == "pass":
            errors.add(
                "bad_reading_field",
                f"reading uses {{{name}}}, but a card-and-pass signal has no second card",
                row=rid,
            )
        elif name == "holdings" and rule != "positions":
            errors.add(
                "bad_reading_field",
                "reading uses {holdings}, which only straight-flush rows (rule 'positions') have",
                row=rid,
            )
