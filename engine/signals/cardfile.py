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
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from engine.cards import Suit
from engine.errors import InvalidNotationError
from engine.messages import Msg, Text, register, register_words
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
    "error_detail",
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

#: What the checker says, by message id: English templates the trainer's catalog translates
#: (``python -m engine --lang ja convention check`` and the card editor say them in Japanese).
#: Ids and values of the file (a row's id, a rule's name) are quoted as the file writes them.
CARD_WORDS: dict[str, str] = {
    "card.at.row": "row %(row)s: %(error)s",
    "card.at.row_index": "rows[%(index)s]: %(error)s",
    "card.at.item": "item %(item)s: %(error)s",
    "card.at.field": "%(field)s: %(error)s",
    "card.invalid": "not a valid card: %(error)s",
    "card.invalid.more": "not a valid card: %(error)s (and %(more)s more)",
    "card.invalid.in": "%(source)s: %(error)s",
    "card.error.unreadable": "cannot read the card file %(path)s: %(reason)s",
    "card.error.not_json": "not JSON: %(reason)s at line %(line)s column %(column)s",
    "card.error.duplicate_row_id": "two rows have this id",
    "card.error.item_not_on_checklist": "shows %(item)s, which is not on the card's checklist",
    "card.error.otherwise_first": (
        "'otherwise' needs a row of the same item above it to stand in for"
    ),
    "card.error.unplayed_item": (
        "is neither signalled nor played out: it is not on the card's checklist "
        "(an item on the checklist without rows is played out)"
    ),
    "card.error.duplicate_checklist_item": "is on the checklist twice",
    "card.error.rule_cannot_show_item": "rule %(rule)s cannot show %(item)s (it shows %(items)s)",
    "card.error.rule_and_pass": (
        "rule %(rule)s never gives a play of pattern rank %(rank)s "
        "(only 'suit_and_pass' plays a card and pass, and it plays nothing else)"
    ),
    "card.error.distance_order": (
        "the distance must run from a lower number to a higher one (0 to 12), not %(low)s to "
        "%(high)s"
    ),
    "card.error.pass_second_card": (
        "a card-and-pass pattern has no second card: only the first card's suits apply"
    ),
    "card.error.same_rank_distance": "two cards of the same rank are distance 0",
    "card.error.same_rank_suit": "two cards of one rank are never of one suit",
    "card.error.different_ranks_distance": (
        "%(rank)s needs two different ranks: a distance of at least 1"
    ),
    "card.error.shape_not_sf": "only straight-flush rows (rule 'positions') have a shape",
    "card.error.positions_not_sf": "only straight-flush rows (rule 'positions') have positions",
    "card.error.unknown_shape": (
        "shape %(shape)s is not a straight-flush shape of %(item)s (the shapes: %(known)s)"
    ),
    "card.error.positions_missing": "a straight-flush row needs positions [[c1, c2], …]",
    "card.error.positions_not_held": (
        "positions %(positions)s are not two held places of %(shape)s (held: %(held)s)"
    ),
    "card.error.positions_against_pattern": (
        "the straight flush's cards at %(positions)s play %(direction)s, %(distance)s apart in "
        "one suit, which the pattern (%(rank)s, distance %(low)s to %(high)s) never allows"
    ),
    "card.error.params_not_taken": "rule %(rule)s takes no params",
    "card.error.suit_tiers_missing": (
        "rule 'suit_and_pass' needs params.suit_tiers: lists of suits of c1, most "
        'preferred first (e.g. [["H"], ["D"]])'
    ),
    "card.error.suit_tiers_twice": "params.suit_tiers: a suit is in two tiers",
    "card.error.reading_field_unknown": "reading uses %(name)s; the fields are %(fields)s",
    "card.error.reading_field_no_c2": (
        "reading uses %(name)s, but a card-and-pass signal has no second card"
    ),
    "card.error.reading_field_holdings": (
        "reading uses %(name)s, which only straight-flush rows (rule 'positions') have"
    ),
    "card.error.schema": "%(where)s: %(reason)s",
    "card.error.missing_field": "missing field %(key)s",
    # A pattern's order of the two cards, in a sentence.
    "card.rank.up": "up",
    "card.rank.down": "down",
    "card.rank.same": "same rank",
    "card.rank.different": "different ranks",
    "card.rank.pass": "a card and pass",
}
register_words(CARD_WORDS)


def rank_words(rank: str) -> Msg:
    """A pattern's order of the two cards (``up``, ``pass`` …) in words."""
    return Msg(f"card.rank.{rank}")


def _q(value: Any) -> Text:
    """A value of the file as the checker quotes it: text in quotes (``'five_sf'``), anything
    else as JSON writes it (``null``, ``[4, 4]``)."""
    if isinstance(value, str):
        return Text(f"'{value}'")
    return Text(json.dumps(value, ensure_ascii=False))


_FIELD = re.compile(r"\{(\w*)\}")

#: The card file's structure (JSON Schema, draft 2020-12), shared with the card editor.
SCHEMA_PATH = Path(__file__).resolve().parent / "card.schema.json"


@dataclass(frozen=True, slots=True)
class CardError:
    """One problem of a card: a ``code`` (``unknown_item``, ``bad_shape`` …), where it is
    (``row`` id, ``item``, ``field``) and a ``message`` naming them: a
    :class:`~engine.messages.Msg` (its ``str`` is English; :func:`error_detail` is the problem
    without the place)."""

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
        first = (
            errors[0].message
            if errors
            else Msg("card.error.unreadable", path=Text(source), reason=Text("no card"))
        )
        message = (
            Msg("card.invalid.more", error=_msg(first), more=len(errors) - 1)
            if len(errors) > 1
            else Msg("card.invalid", error=_msg(first))
        )
        if source:
            message = Msg("card.invalid.in", source=Text(source), error=message)
        super().__init__(message)


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
            message = Msg("card.error.unreadable", path=Text(where), reason=Text(reason))
            raise InvalidCardError([CardError("unreadable", message)]) from None
    try:
        return json.loads(text), where
    except json.JSONDecodeError as exc:
        message = Msg(
            "card.error.not_json", reason=Text(exc.msg), line=exc.lineno, column=exc.colno
        )
        raise InvalidCardError([CardError("not_json", message)], where) from None


class _Errors:
    """Collects the problems of one card."""

    def __init__(self) -> None:
        self.found: list[CardError] = []

    def add(
        self, code: str, message: Msg, *, row: str | None = None, item: str | None = None
    ) -> None:
        item = None if item is None else str(item)
        if row is not None:
            message = Msg("card.at.row", row=_q(row), error=message)
        elif item:
            message = Msg("card.at.item", item=_q(item), error=message)
        self.found.append(CardError(code, message, row, item, _field_of(code)))


def error_detail(message: str) -> str:
    """A problem's message without its place: ``two rows have this id`` of ``row 'x': two
    rows have this id`` (for a page that names the row in its own words)."""
    if isinstance(message, Msg) and message.id.startswith("card.at."):
        inner = message.params.get("error")
        if isinstance(inner, str):
            return inner
    return message


def _msg(value: str) -> Msg | Text:
    """A message as a parameter of another (plain text as :class:`Text`)."""
    return value if isinstance(value, Msg) else Text(value)


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
                    where = Msg("card.at.row_index", index=path[1], error=message)
                    errors.found.append(CardError(code, where, field=_field_of(code)))
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


def _schema_error(error: ValidationError, data: Any) -> tuple[str, Msg]:
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
        "value": _q(instance).value,
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
        if "x-missing" not in prop:
            return code, Msg("card.error.missing_field", key=_q(key))
        template = prop["x-missing"]
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
    if template is None:  # jsonschema's own English, for a fault the schema gives no words
        where = ".".join(map(str, error.absolute_path)) or "card"
        return code, Msg("card.error.schema", where=Text(where), reason=Text(error.message))
    used = {name: Text(str(fields[name])) for name in _FIELD.findall(template)}
    return code, Msg(_schema_id(template), **used)


def _schema_words(node: Any) -> Iterator[str]:
    """Every message template of the schema (``x-messages``, ``x-missing``, ``x-unknown``)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "x-messages":
                yield from value.values()
            elif key in ("x-missing", "x-unknown"):
                yield value
            else:
                yield from _schema_words(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_words(value)


def _schema_id(template: str) -> str:
    """The message id of a schema's template: fixed by its words, so a catalog keeps it."""
    return "card.schema." + hashlib.sha256(template.encode()).hexdigest()[:12]


for _template in _schema_words(_schema()):
    register(_schema_id(_template), _template)


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
                    errors.add("duplicate_row_id", Msg("card.error.duplicate_row_id"), row=rid)
                seen_ids.add(rid)
            continue
        row = _row(raw, errors, seen_ids)
        if row is None:
            continue
        if row.item not in checklist and checklist:
            errors.add(
                "item_not_on_checklist",
                Msg("card.error.item_not_on_checklist", item=_q(str(row.item))),
                row=row.id,
                item=row.item,
            )
        if row.otherwise and row.item not in last_item:
            errors.add(
                "otherwise_first",
                Msg("card.error.otherwise_first"),
                row=row.id,
                item=row.item,
            )
        last_item.add(row.item)
        rows.append(row)
    for item in ITEMS:
        if item not in checklist:
            errors.add(
                "unplayed_item",
                Msg("card.error.unplayed_item"),
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
            errors.add(
                "duplicate_checklist_item", Msg("card.error.duplicate_checklist_item"), item=entry
            )
        else:
            out.append(entry)
    return out


def _row(raw: dict[str, Any], errors: _Errors, seen_ids: set[str]) -> Row | None:
    """A row the schema accepts, checked for meaning: the rule can show the item and give
    the pattern, the shape and positions fit, the params suit the rule, the reading's fields."""
    rid: str = raw["id"]
    count = len(errors.found)
    if rid in seen_ids:
        errors.add("duplicate_row_id", Msg("card.error.duplicate_row_id"), row=rid)
    seen_ids.add(rid)
    item: str = raw["item"]
    rule: str = raw["rule"]
    if item not in RULE_ITEMS[rule]:
        can = ", ".join(i for i in ITEMS if i in RULE_ITEMS[rule])
        errors.add(
            "rule_cannot_show_item",
            Msg("card.error.rule_cannot_show_item", rule=_q(rule), item=_q(item), items=Text(can)),
            row=rid,
            item=item,
        )
    pattern = _pattern(raw["pattern"], rid, errors)
    if pattern is not None and (pattern.rank == "pass") != (rule == "suit_and_pass"):
        errors.add(
            "bad_pattern",
            Msg("card.error.rule_and_pass", rule=_q(rule), rank=_q(pattern.rank)),
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
        errors.add("bad_pattern", Msg("card.error.distance_order", low=d_min, high=d_max), row=rid)
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
            errors.add("bad_pattern", Msg("card.error.pass_second_card"), row=rid)
    elif rank == "same":
        if d_min > 0:
            errors.add("bad_pattern", Msg("card.error.same_rank_distance"), row=rid)
        if suits == {"same_suit"}:
            errors.add("bad_pattern", Msg("card.error.same_rank_suit"), row=rid)
    elif d_max < 1:
        errors.add(
            "bad_pattern",
            Msg("card.error.different_ranks_distance", rank=rank_words(rank)),
            row=rid,
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
            errors.add("bad_shape", Msg("card.error.shape_not_sf"), row=rid)
        if positions_raw:
            errors.add("bad_positions", Msg("card.error.positions_not_sf"), row=rid)
        return None, ()
    size = _SF_SIZE.get(item, 0)
    shapes = SF_SHAPES.get(size, ())
    if shape not in shapes:
        known = ", ".join(shapes) if shapes else "none"
        errors.add(
            "bad_shape",
            Msg("card.error.unknown_shape", shape=_q(shape), item=_q(item), known=Text(known)),
            row=rid,
            item=item,
        )
        return None, ()
    if not positions_raw:
        errors.add("bad_positions", Msg("card.error.positions_missing"), row=rid)
        return shape, ()
    held = [i for i, ch in enumerate(shape) if ch == "X"]
    positions: list[tuple[int, int]] = []
    for entry in positions_raw:
        p1, p2 = entry
        if p1 not in held or p2 not in held or p1 == p2:
            errors.add(
                "bad_positions",
                Msg(
                    "card.error.positions_not_held",
                    positions=_q(entry),
                    shape=Text(shape),
                    held=Text(", ".join(map(str, held))),
                ),
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
                    Msg(
                        "card.error.positions_against_pattern",
                        positions=_q(entry),
                        direction=rank_words(direction),
                        distance=d,
                        rank=rank_words(pattern.rank),
                        low=pattern.d_min,
                        high=pattern.d_max,
                    ),
                    row=rid,
                )
    return shape, tuple(positions)


def _params(raw: dict[str, Any], rid: str, rule: str, errors: _Errors) -> tuple[Any, ...]:
    if rule != "suit_and_pass":
        if raw:
            errors.add("bad_params", Msg("card.error.params_not_taken", rule=_q(rule)), row=rid)
        return ()
    tiers_raw = raw.get("suit_tiers")
    if not tiers_raw:
        errors.add("bad_params", Msg("card.error.suit_tiers_missing"), row=rid)
        return ()
    tiers: list[tuple[Suit, ...]] = []
    used: set[Suit] = set()
    for entry in tiers_raw:
        tier = tuple(Suit.parse(s) for s in entry)
        if used & set(tier):
            errors.add("bad_params", Msg("card.error.suit_tiers_twice"), row=rid)
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
                Msg(
                    "card.error.reading_field_unknown",
                    name=Text("{" + name + "}"),
                    fields=Text(", ".join(READING_FIELDS)),
                ),
                row=rid,
            )
        elif name in ("r2", "r2s") and pattern.rank == "pass":
            errors.add(
                "bad_reading_field",
                Msg("card.error.reading_field_no_c2", name=Text("{" + name + "}")),
                row=rid,
            )
        elif name == "holdings" and rule != "positions":
            errors.add(
                "bad_reading_field",
                Msg("card.error.reading_field_holdings", name=Text("{holdings}")),
                row=rid,
            )
