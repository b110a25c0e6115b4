"""The card file's JSON Schema: the shipped and seeded cards pass it, each kind of structural
fault is refused with the checker's code and a message naming where it is, and the engine's
vocabulary and the schema's agree."""

import copy
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from engine.signals.card import ITEMS, SUIT_RELATION_NAMES
from engine.signals.cardfile import (
    CARDS_DIR,
    RANK_RELATIONS,
    RULE_ITEMS,
    SCHEMA_PATH,
    InvalidCardError,
    card_errors,
    card_schema,
    load_convention,
)

ROOT = Path(__file__).resolve().parents[3]


def _validator():
    return jsonschema.Draft202012Validator(card_schema())


def test_the_schema_is_draft_2020_12_and_package_data():
    schema = card_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert card_schema() is schema  # read once
    assert SCHEMA_PATH.parent == CARDS_DIR.parent
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    engine_data = data["tool"]["setuptools"]["package-data"]["engine"]
    assert "signals/card.schema.json" in engine_data


def _card_files():
    shipped = sorted(CARDS_DIR.glob("*.json"))
    seeded = sorted(p for p in (ROOT / "seeds").rglob("*.json") if '"rows"' in p.read_text())
    return shipped + seeded


@pytest.mark.parametrize("path", _card_files(), ids=lambda p: p.name)
def test_the_schema_accepts_the_shipped_and_seeded_cards(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(_validator().iter_errors(data)) == []
    assert card_errors(data) == []


def test_the_schemas_vocabulary_is_the_engines():
    schema = card_schema()
    row = schema["$defs"]["row"]["properties"]
    assert row["item"]["enum"] == [str(i) for i in ITEMS]
    assert schema["properties"]["checklist"]["items"]["enum"] == [str(i) for i in ITEMS]
    assert row["rule"]["enum"] == list(RULE_ITEMS)
    assert row["pattern"]["properties"]["rank"]["enum"] == list(RANK_RELATIONS)
    assert row["pattern"]["properties"]["suits"]["items"]["enum"] == list(SUIT_RELATION_NAMES)


def _card():
    return json.loads((CARDS_DIR / "parlett-2008.json").read_text(encoding="utf-8"))


def _row(data, row_id):
    return next(r for r in data["rows"] if r["id"] == row_id)


# Each structural fault: the change, the checker's code, and words its message holds.
FAULTS = {
    "not an object": (lambda d: [1], "not_a_card", "a card is a JSON object, not list"),
    "missing schema": (lambda d: d.pop("schema"), "missing_field", "missing field 'schema'"),
    "schema true": (lambda d: d.update(schema=True), "schema", "schema true is not one"),
    "missing title": (lambda d: d.pop("title"), "missing_field", "missing field 'title'"),
    "empty title": (lambda d: d.update(title="  "), "missing_field", "'title' is empty"),
    "name not text": (lambda d: d.update(name=5), "bad_value", "'name' must be text, not 5"),
    "description not text": (lambda d: d.update(description=[]), "bad_value", "'description'"),
    "checklist not a list": (lambda d: d.update(checklist="all"), "bad_value", "'checklist'"),
    "rows not a list": (lambda d: d.update(rows={}), "missing_field", "missing field 'rows'"),
    "row not an object": (
        lambda d: d["rows"].append(5),
        "bad_row",
        "rows[30]: a row must be an object, not 5",
    ),
    "row id not text": (
        lambda d: d["rows"][1].update(id=7),
        "bad_row_id",
        "rows[1]: the id must be text",
    ),
    "missing item": (lambda d: _row(d, "fours").pop("item"), "unknown_item", "row 'fours'"),
    "missing pattern": (
        lambda d: _row(d, "fours").pop("pattern"),
        "bad_pattern",
        "row 'fours': missing 'pattern'",
    ),
    "unknown pattern field": (
        lambda d: _row(d, "fours")["pattern"].update(colour="red"),
        "bad_pattern",
        "unknown pattern field 'colour'",
    ),
    "distance out of range": (
        lambda d: _row(d, "fours")["pattern"].update(distance=[0, 13]),
        "bad_pattern",
        "not [0, 13]",
    ),
    "distance of one number": (
        lambda d: _row(d, "fours")["pattern"].update(distance=[0]),
        "bad_pattern",
        "pattern distance must be [min, max]",
    ),
    "suit relation twice": (
        lambda d: _row(d, "fours")["pattern"].update(suits=["same_colour", "same_colour"]),
        "bad_pattern",
        "listed twice",
    ),
    "suit letter twice": (
        lambda d: _row(d, "fours")["pattern"].update(c1_suits=["S", "S"]),
        "bad_pattern",
        "pattern c1_suits: a suit is listed twice",
    ),
    "empty suit list": (
        lambda d: _row(d, "fours")["pattern"].update(c2_suits=[]),
        "bad_pattern",
        "pattern c2_suits must be a list of suit letters",
    ),
    "not suit pair of one": (
        lambda d: _row(d, "fours")["pattern"].update(not_suit_pairs=[["S"]]),
        "bad_pattern",
        "pattern not_suit_pairs entries are [c1, c2] suits",
    ),
    "bad tier suit": (
        lambda d: _row(d, "threes")["params"].update(suit_tiers=[["H", "Z"]]),
        "bad_params",
        'params.suit_tiers: "Z" is not a suit',
    ),
    "unknown param": (
        lambda d: _row(d, "threes")["params"].update(order="up"),
        "bad_params",
        "unknown params 'order'",
    ),
    "params not an object": (
        lambda d: _row(d, "threes").update(params=[]),
        "bad_params",
        "'params' must be an object",
    ),
    "position not a pair": (
        lambda d: _row(d, "five_sf:XXXXX").update(positions=[[0, 1, 2]]),
        "bad_positions",
        "positions: [0, 1, 2] is not [c1, c2]",
    ),
    "otherwise not a flag": (
        lambda d: _row(d, "fours").update(otherwise="yes"),
        "bad_value",
        "'otherwise' must be true or false",
    ),
    "note not text": (lambda d: _row(d, "fours").update(note=3), "bad_value", "'note' must be"),
    "cards empty": (lambda d: _row(d, "fours").update(cards=" "), "missing_cards", "'cards'"),
    "reading not text": (
        lambda d: _row(d, "fours").update(reading=5),
        "missing_reading",
        "row 'fours': missing 'reading'",
    ),
}


@pytest.mark.parametrize("case", FAULTS, ids=list(FAULTS))
def test_a_structural_fault_is_refused_with_a_clear_message_and_changes_nothing(case):
    change, code, words = FAULTS[case]
    data = _card()
    result = change(data)
    data = result if isinstance(result, list) else data
    before = copy.deepcopy(data)
    assert list(_validator().iter_errors(data)), "the schema accepts it"
    errors = card_errors(data)
    assert code in [e.code for e in errors], errors
    assert any(words in e.message for e in errors if e.code == code), errors
    with pytest.raises(InvalidCardError, match="not a valid card"):
        load_convention(data)
    assert data == before  # checking changes nothing
