"""Card files: a convention card read from JSON, checked, and written back.

:func:`load_convention` reads a card (a file, JSON text or parsed JSON) and returns a
:class:`~engine.signals.card.Convention`, or raises :class:`InvalidCardError` listing every
problem, each naming the row or item it is about (:func:`card_errors` returns the list
itself). The file's structure is the JSON Schema ``card.schema.json`` (:func:`card_schema`),
checked with ``jsonschema``; the checks of meaning (a rule that can show its item, a shape's
positions, a reading's fields …) follow here. The shipped cards are loaded by the same
function from ``engine/signals/cards/``. :func:`card_text` writes a card in the same form, so
``load_convention(card_text(c)) == c``. The form is described in ``docs/conventions.md``.

>>> conv = load_convention(Path(__file__).parent / "cards" / "parlett-2008.json")
>>> conv.name, len(conv.rows), load_convention(card_text(conv)) == conv
('parlett-2008', 30, True)
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from engine.cards import Suit
from engine.errors import InvalidNotationError
from engine.signals.card import (
    ITEMS,
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
    "SCHEMA_PATH",
    "CardError",
    "InvalidCardError",
    "card_errors",
    "card_schema",
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

_FIELD = re.compile(r"\{(\w*)\}")

#: The card file's structure (JSON Schema, draft 2020-12), shared with the card editor.
SCHEMA_PATH = Path(__file__).resolve().parent / "card.schema.json"


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


def card_schema() -> dict[str, Any]:
    """The card file's JSON Schema (read once, so treat it as read-only)."""
    return _schema()


@functools.cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return schema


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(_schema())


def _structure(data: Any, errors: _Errors) -> set[int]:
    """Check ``data`` against the schema; the indexes of rows with a structural fault."""
    bad_rows: set[int] = set()
    for error in _validator().iter_errors(data):
        for leaf in _leaves(error):
            path = list(leaf.absolute_path)
            code, message = _schema_error(leaf, data)
            if len(path) >= 2 and path[0] == "rows" and isinstance(path[1], int):
                bad_rows.add(path[1])
                rid = _row_id(data["rows"][path[1]])
                if rid is None:
                    errors.found.append(
                        CardError(code, f"rows[{path[1]}]: {message}", field=_field_of(code))
                    )
                else:
                    errors.add(code, message, row=rid)
            else:
                errors.add(code, message)
    return bad_rows


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors to report for ``error``: an ``anyOf`` (``null`` or a list) reports the faults
    of its list branch rather than a bare "not valid under any of the given schemas"."""
    if error.validator != "anyOf" or not error.context:
        return [error]
    leaves = [
        e
        for c in error.context
        if not (c.validator == "type" and c.validator_value == "null")
        for e in _leaves(c)
    ]
    return leaves or [error]


def _row_id(raw: Any) -> str | None:
    rid = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(rid, str) and _ROW_ID.fullmatch(rid):
        return rid
    return None


_ROW_ID = re.compile(r"[A-Za-z0-9_.:+-]{1,80}")


def _resolve(ref: str) -> Any:
    node: Any = _schema()
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _schema_error(error: ValidationError, data: Any) -> tuple[str, str]:
    """The checker's code and English message for one schema error, from the ``x-code``,
    ``x-messages``, ``x-missing`` and ``x-unknown`` words of the schema around the fault."""
    # The schemas from the root to the failing keyword, each with its depth in the instance.
    node: Any = _schema()
    chain: list[tuple[dict[str, Any], int]] = [(node, 0)]
    depth = 0
    keys = list(error.absolute_schema_path)
    for i, key in enumerate(keys[:-1]):
        if isinstance(node, dict) and key not in node and "$ref" in node:
            node = _resolve(node["$ref"])
            chain.append((node, depth))
        after_properties = i > 0 and keys[i - 1] == "properties"
        if after_properties or (key == "items" and isinstance(node, dict)):
            depth += 1  # a property's or a list item's schema: one step into the instance
        node = node[key]
        if isinstance(node, dict):
            chain.append((node, depth))
    if isinstance(node, dict) and "$ref" in node and error.validator not in node:
        chain.append((_resolve(node["$ref"]), depth))
    here = chain[-1][0]
    kw = str(error.validator)
    instance: Any = error.instance
    fields: dict[str, Any] = {
        "value": repr(instance),
        "json": json.dumps(instance, ensure_ascii=False),
        "type": type(instance).__name__,
        "known": ", ".join(map(str, here.get("enum", ()))),
        "label": next((s["x-label"] for s, _ in reversed(chain) if "x-label" in s), ""),
    }
    code = here.get(f"x-code-{kw}") or next(
        (s["x-code"] for s, _ in reversed(chain) if "x-code" in s), "bad_value"
    )
    template = None
    if kw == "required":
        key = next(k for k in here["required"] if k not in instance)
        prop = here.get("properties", {}).get(key, {})
        code = prop.get("x-code-missing") or prop.get("x-code") or code
        template = prop.get("x-missing", f"missing field {key!r}")
        fields["known"] = ", ".join(map(str, prop.get("enum", ())))
    elif kw == "additionalProperties":
        extra = [k for k in instance if k not in here.get("properties", {})]
        fields["key"] = ", ".join(map(repr, extra))
        code = here.get("x-code-unknown", code)
        template = next((s["x-unknown"] for s, _ in reversed(chain) if "x-unknown" in s), None)
    else:
        for schema, at in reversed(chain):
            messages = schema.get("x-messages", {})
            if kw in messages or "*" in messages:
                template = messages.get(kw, messages.get("*"))
                whole: Any = data
                for part in list(error.absolute_path)[:at]:
                    whole = whole[part]
                fields["whole"] = json.dumps(whole, ensure_ascii=False)
                break
    if template is None:
        where = ".".join(map(str, error.absolute_path)) or "the card"
        return code, f"{where}: {error.message}"
    return code, template.format(**fields)


def _parse(data: Any) -> tuple[Convention | None, list[CardError]]:
    errors = _Errors()
    bad_rows = _structure(data, errors)
    if not isinstance(data, dict):
        return None, errors.found
    name, title = data.get("name"), data.get("title")
    description = data.get("description")
    no_signal = data.get("no_signal_text") or "Not a signal in this system."
    checklist = _checklist(data.get("checklist", [str(i) for i in ITEMS]), errors)
    raw_rows = data.get("rows")
    rows: list[Row] = []
    seen_ids: set[str] = set()
    last_item: set[str] = set()
    for index, raw in enumerate(raw_rows if isinstance(raw_rows, list) else []):
        if index in bad_rows:  # the schema's fault is the problem; its id is still taken
            rid = _row_id(raw)
            if rid is not None:
                if rid in seen_ids:
                    errors.add("duplicate_row_id", "two rows have this id", row=rid)
                seen_ids.add(rid)
            continue
        row = _row(raw, errors, seen_ids)
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
    assert isinstance(name, str) and isinstance(title, str)
    conv = Convention(name, title, description or "", tuple(checklist), tuple(rows), no_signal)
    return conv, []


def _checklist(value: Any, errors: _Errors) -> list[str]:
    """The checklist's known items in order (the schema reports the rest); an item listed
    twice is a problem."""
    if not isinstance(value, list):
        return [str(i) for i in ITEMS]
    out: list[str] = []
    for entry in value:
        if entry not in ITEMS:
            continue
        if entry in out:
            errors.add("duplicate_checklist_item", "is on the checklist twice", item=entry)
        else:
            out.append(entry)
    return out


def _row(raw: dict[str, Any], errors: _Errors, seen_ids: set[str]) -> Row | None:
    """A row the schema accepts, checked for meaning: the rule can show the item and give
    the pattern, the shape and positions fit, the params suit the rule, the reading's fields."""
    rid: str = raw["id"]
    count = len(errors.found)
    if rid in seen_ids:
        errors.add("duplicate_row_id", "two rows have this id", row=rid)
    seen_ids.add(rid)
    item: str = raw["item"]
    rule: str = raw["rule"]
    if item not in RULE_ITEMS[rule]:
        can = ", ".join(i for i in ITEMS if i in RULE_ITEMS[rule])
        errors.add(
            "rule_cannot_show_item",
            f"rule {rule!r} cannot show {item!r} (it shows {can})",
            row=rid,
            item=item,
        )
    pattern = _pattern(raw["pattern"], rid, errors)
    if pattern is not None and (pattern.rank == "pass") != (rule == "suit_and_pass"):
        errors.add(
            "bad_pattern",
            f"rule {rule!r} never gives a play of pattern rank {pattern.rank!r} "
            "(only 'suit_and_pass' plays a card and pass, and it plays nothing else)",
            row=rid,
        )
    shape, positions = _shape(raw, rid, item, rule, pattern, errors)
    params = _params(raw.get("params") or {}, rid, rule, errors)
    cards: str = raw["cards"]
    reading: str = raw["reading"]
    if pattern is not None:
        _check_reading(reading, rid, pattern, rule, errors)
    if len(errors.found) > count or pattern is None:
        return None
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
        otherwise=raw.get("otherwise", False),
        fallback=raw.get("fallback", False),
        note=raw.get("note") or "",
    )


def _suits(value: list[str] | None) -> frozenset[Suit] | None:
    return None if value is None else frozenset(Suit.parse(s) for s in value)


def _pattern(raw: dict[str, Any], rid: str, errors: _Errors) -> Pattern | None:
    count = len(errors.found)
    rank: str = raw["rank"]
    suits = set(raw.get("suits", SUIT_RELATION_NAMES))
    distance = raw.get("distance", [0, 12])
    d_min, d_max = distance
    if d_min > d_max:
        errors.add(
            "bad_pattern",
            f"pattern distance must be [min, max] with 0 <= min <= max <= 12, not "
            f"{json.dumps(distance)}",
            row=rid,
        )
        return None
    c1_suits = _suits(raw.get("c1_suits"))
    c2_suits = _suits(raw.get("c2_suits"))
    pairs = {(Suit.parse(a), Suit.parse(b)) for a, b in raw.get("not_suit_pairs", [])}
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
    return Pattern(rank, frozenset(suits), d_min, d_max, c1_suits, c2_suits, frozenset(pairs))


def _shape(
    raw: dict[str, Any],
    rid: str,
    item: str,
    rule: str,
    pattern: Pattern | None,
    errors: _Errors,
) -> tuple[str | None, tuple[tuple[int, int], ...]]:
    shape = raw.get("shape")
    positions_raw = raw.get("positions") or []
    if rule != "positions":
        if shape is not None:
            errors.add(
                "bad_shape", "only straight-flush rows (rule 'positions') have a shape", row=rid
            )
        if positions_raw:
            errors.add(
                "bad_positions",
                "only straight-flush rows (rule 'positions') have positions",
                row=rid,
            )
        return None, ()
    size = _SF_SIZE.get(item, 0)
    shapes = SF_SHAPES.get(size, ())
    if shape not in shapes:
        known = ", ".join(shapes) if shapes else "none"
        errors.add(
            "bad_shape",
            f"shape {json.dumps(shape)} is not a straight-flush shape of {item!r} "
            f"(SF_SHAPES: {known})",
            row=rid,
            item=item,
        )
        return None, ()
    if not positions_raw:
        errors.add("bad_positions", "a straight-flush row needs positions [[c1, c2], …]", row=rid)
        return shape, ()
    held = [i for i, ch in enumerate(shape) if ch == "X"]
    positions: list[tuple[int, int]] = []
    for entry in positions_raw:
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


def _params(raw: dict[str, Any], rid: str, rule: str, errors: _Errors) -> tuple[Any, ...]:
    if rule != "suit_and_pass":
        if raw:
            errors.add("bad_params", f"rule {rule!r} takes no params", row=rid)
        return ()
    tiers_raw = raw.get("suit_tiers")
    if not tiers_raw:
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
