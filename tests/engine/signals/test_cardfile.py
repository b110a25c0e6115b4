"""Convention cards as data: the shipped cards are JSON files read like any club's card, every
field round-trips, versions tell cards apart, the registry, and the validator's errors."""

import copy
import dataclasses
import doctest
import json
import pickle
import random
import tomllib
from pathlib import Path

import pytest

import engine.signals.card
import engine.signals.cardcheck
import engine.signals.cardfile
from engine.cards import DECK, card
from engine.errors import UnknownConventionError, WrongTypeError
from engine.messages import reading_id, templates
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION, decode, encode, get_convention
from engine.signals.card import SF_SHAPES, Convention, Row
from engine.signals.cardfile import (
    CARDS_DIR,
    RULE_ITEMS,
    InvalidCardError,
    card_errors,
    card_text,
    load_convention,
)
from engine.signals.conventions import (
    ConventionConflictError,
    known_conventions,
    open_convention,
    register_convention,
    unregister_convention,
)
from engine.signals.encoder import RULES

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted(CONVENTIONS)


def card_json(base="parlett-2008", **changes):
    """A shipped card's JSON (a deep copy), with top-level fields changed."""
    data = copy.deepcopy(CONVENTIONS[base].to_json())
    data.update(changes)
    return data


def row_of(data, row_id):
    return next(r for r in data["rows"] if r["id"] == row_id)


def codes(data):
    return [e.code for e in card_errors(data)]


# ---------------------------------------------------------------------------------------------
# The shipped cards are their files.


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_card_is_its_json_file_read_like_any_card(name):
    path = CARDS_DIR / f"{name}.json"
    conv = CONVENTIONS[name]
    assert load_convention(path) == conv and conv.shipped
    assert path.read_text(encoding="utf-8") == card_text(conv)  # the file is in canonical form
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == 1


def test_the_package_data_ships_the_card_files():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "signals/cards/*.json" in pyproject["tool"]["setuptools"]["package-data"]["engine"]
    assert sorted(p.stem for p in CARDS_DIR.glob("*.json")) == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_every_row_field_round_trips_through_json(name, tmp_path):
    conv = CONVENTIONS[name]
    path = tmp_path / "card.json"
    path.write_text(card_text(conv), encoding="utf-8")
    back = load_convention(path)
    assert back == conv and back.version == conv.version and back is not conv
    for key in ("name", "title", "description", "checklist", "no_signal_text"):
        assert getattr(back, key) == getattr(conv, key)
    assert len(back.rows) == len(conv.rows)
    for mine, theirs in zip(back.rows, conv.rows, strict=True):
        assert mine == theirs
        for f in dataclasses.fields(Row):
            assert getattr(mine, f.name) == getattr(theirs, f.name), (mine.id, f.name)
            assert type(getattr(mine, f.name)) is type(getattr(theirs, f.name)), f.name
    # Suit tiers keep their order (the order the rule offers cards in).
    assert [r.params for r in back.rows if r.params] == [r.params for r in conv.rows if r.params]


def _encoding(enc):
    return (enc.item, enc.shape, enc.cards, enc.plays, enc.rows, enc.played_out)


def _readings(readings):
    return [(r.item, r.shape, r.fallback, str(r.text)) for r in readings]


@pytest.mark.parametrize("name", SHIPPED)
def test_a_dumped_card_encodes_and_decodes_as_the_shipped_one(name):
    conv = CONVENTIONS[name]
    # Under another name, so no memo table keyed by the name is shared with the shipped card.
    copy_ = load_convention(dict(json.loads(card_text(conv)), name=f"copy-of-{name}"))
    assert copy_ != conv and copy_.rows == conv.rows
    rng = random.Random(2026)
    for i in range(3000):
        hand = rng.sample(DECK, rng.choice((13, 9, 7, 5, 4, 3, 2)))
        side = 1 + i % 4
        mine, theirs = encode(hand, side, copy_), encode(hand, side, conv)
        assert _encoding(mine) == _encoding(theirs), hand
        for c1, c2 in theirs.plays[:3]:
            assert _readings(decode(c1, c2, side, copy_)) == _readings(decode(c1, c2, side, conv))
        c1, c2 = rng.sample(DECK, 2)
        seen = rng.sample([c for c in DECK if c not in (c1, c2)], 6)
        for other in (c2, None):
            assert _readings(decode(c1, other, side, copy_, seen)) == _readings(
                decode(c1, other, side, conv, seen)
            )


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_cards_keep_their_message_ids_and_texts(name):
    """The trainer's catalog translates the readings by these ids and English texts."""
    table = templates()
    for row in CONVENTIONS[name].rows:
        template = row.reading.replace("{", "%(").replace("}", ")s")
        assert table[reading_id(name, row.id)] == template
        assert table[f"sheet.cards.{name}.{row.id}"] == row.cards
    assert table["reading.parlett-2008.five_sf:XXXXX"] == (
        "Partner holds a complete straight flush in %(suit)s, %(holdings)s."
    )
    reading = decode(card("AS"), card("5S"), 1)[0]
    assert reading.text.id == "reading.parlett-2008.five_sf:XXXXX"
    assert reading.text == "Partner holds a complete straight flush in spades, Ace-2-3-4-5."


def test_the_card_modules_examples_hold():
    for module in (engine.signals.card, engine.signals.cardfile, engine.signals.cardcheck):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_the_rule_vocabulary_is_the_encoders():
    assert set(RULE_ITEMS) == set(RULES)


# ---------------------------------------------------------------------------------------------
# Versions.


def test_a_version_is_a_hash_of_the_cards_content():
    conv = DEFAULT_CONVENTION
    assert len(conv.version) == 12 and int(conv.version, 16) >= 0
    assert CONVENTIONS["teach-yourself-1994"].version != conv.version
    same = load_convention(card_text(conv))
    assert same.version == conv.version and hash(same) == hash(conv)
    data = card_json()
    row_of(data, "five_sf:XXXXX")["note"] = "a club's note"
    changed = load_convention(data)
    assert changed.name == conv.name and changed.version != conv.version
    assert changed != conv and hash(changed) != hash(conv)
    assert len({conv, same, changed}) == 2
    assert repr(changed) == f"Convention('parlett-2008', version {changed.version}, 30 rows)"


def test_a_card_pickles_for_worker_processes():
    for conv in (DEFAULT_CONVENTION, load_convention(card_json(name="pickled"))):
        back = pickle.loads(pickle.dumps(conv))
        assert back == conv and back.rows_for("fours") == conv.rows_for("fours")


# ---------------------------------------------------------------------------------------------
# The registry.


@pytest.fixture
def club_card():
    conv = load_convention(card_json(name="our-club", title="Our club"))
    yield conv
    unregister_convention("our-club")


def test_a_registered_card_is_found_by_name(club_card):
    with pytest.raises(UnknownConventionError, match="not a convention: 'our-club'"):
        get_convention("our-club")
    assert register_convention(club_card) is club_card
    assert get_convention("our-club") is club_card
    assert known_conventions()["our-club"] is club_card and "our-club" not in CONVENTIONS
    again = load_convention(card_text(club_card))
    assert register_convention(again) is club_card  # the same version: the known one
    unregister_convention("our-club")
    with pytest.raises(UnknownConventionError):
        get_convention("our-club")


def test_a_second_version_under_a_registered_name_is_refused_unless_replacing(club_card):
    register_convention(club_card)
    data = json.loads(card_text(club_card))
    data["title"] = "Our club, revised"
    revised = load_convention(data)
    with pytest.raises(ConventionConflictError, match="another version of the card 'our-club'"):
        register_convention(revised)
    assert register_convention(revised, replace=True) is get_convention("our-club") is revised


def test_a_different_card_cannot_take_a_shipped_name():
    data = card_json()
    row_of(data, "fours")["cards"] = "the ♦ then the ♥"
    with pytest.raises(ConventionConflictError, match="'parlett-2008' is a shipped card"):
        register_convention(load_convention(data))
    assert register_convention(load_convention(card_json())) is DEFAULT_CONVENTION
    with pytest.raises(ConventionConflictError):
        unregister_convention("parlett-2008")
    with pytest.raises(WrongTypeError):
        register_convention("parlett-2008")


def test_open_convention_reads_a_file_and_registers_it(tmp_path):
    path = tmp_path / "club.json"
    path.write_text(card_text(load_convention(card_json(name="file-club"))), encoding="utf-8")
    try:
        conv = open_convention(str(path))
        assert get_convention("file-club") is conv and open_convention("file-club") is conv
    finally:
        unregister_convention("file-club")
    assert open_convention(str(CARDS_DIR / "parlett-2008.json")) is DEFAULT_CONVENTION
    with pytest.raises(UnknownConventionError, match="not a convention or a card file: 'nope'"):
        open_convention("nope")
    with pytest.raises(InvalidCardError, match="cannot read the card file"):
        open_convention(str(tmp_path / "missing.json"))


# ---------------------------------------------------------------------------------------------
# Reading cards and their errors.


def test_load_convention_reads_a_path_json_text_or_parsed_json(tmp_path):
    text = card_text(DEFAULT_CONVENTION)
    (tmp_path / "c.json").write_text(text, encoding="utf-8")
    for source in (tmp_path / "c.json", str(tmp_path / "c.json"), text, json.loads(text)):
        assert load_convention(source) == DEFAULT_CONVENTION
    with pytest.raises(InvalidCardError, match=r"not JSON: .* line 1 column 2"):
        load_convention("{nope")
    with pytest.raises(InvalidCardError, match="a card is a JSON object"):
        load_convention([1, 2])


def test_optional_fields_take_their_defaults():
    data = {
        "schema": 1,
        "name": "tiny",
        "title": "Tiny",
        "rows": [
            {
                "id": "pair",
                "item": "one_pair",
                "rule": "suit_and_pass",
                "params": {"suit_tiers": [["S", "C"], ["H", "D"]]},
                "pattern": {"rank": "pass"},
                "cards": "a card of the pair",
                "reading": "Partner holds a pair of {r1s}.",
            },
        ],
    }
    conv = load_convention(data)
    assert conv.checklist == DEFAULT_CONVENTION.checklist and conv.description == ""
    assert conv.rows[0].pattern.d_max == 12 and conv.rows[0].positions == ()
    # Fourteen items have no row: they are played out, and the card is valid.
    assert len(conv.unsignalled_items) == 14
    assert load_convention(card_text(conv)) == conv


def test_items_without_rows_are_played_out_and_valid():
    data = card_json("teach-yourself-1994")
    assert not [r for r in data["rows"] if r["item"] == "fours"]
    assert card_errors(data) == []


def _mutate(change):
    data = card_json()
    change(data)
    return data


def _set(row_id, **fields):
    def change(data):
        row_of(data, row_id).update(fields)

    return change


def _pattern(row_id, **fields):
    def change(data):
        row_of(data, row_id)["pattern"].update(fields)

    return change


def _dup(data):
    data["rows"][5]["id"] = data["rows"][6]["id"]


def _drop_item(data):
    data["checklist"].remove("threes")
    data["rows"] = [r for r in data["rows"] if r["item"] != "threes"]


INVALID = {
    "unknown item": (_set("fours", item="five_of_a_kind"), "unknown_item", "'fours'"),
    "unknown rule": (_set("fours", rule="magic"), "unknown_rule", "'fours'"),
    "rule for another item": (
        _set("five_flush", rule="rank_pairs"),
        "rule_cannot_show_item",
        "'five_flush'",
    ),
    "bad pattern rank": (_pattern("fours", rank="sideways"), "bad_pattern", "'fours'"),
    "bad pattern distance": (
        _pattern("four_flush", distance=[4, 1]),
        "bad_pattern",
        "'four_flush'",
    ),
    "bad pattern suits": (_pattern("fours", suits=["same_shape"]), "bad_pattern", "'fours'"),
    "bad suit letter": (_pattern("fours", c1_suits=["X"]), "bad_pattern", "'fours'"),
    "pass pattern with a second card": (
        _pattern("threes", c2_suits=["S"]),
        "bad_pattern",
        "'threes'",
    ),
    "pass pattern for a two-card rule": (
        _pattern("two_threes", rank="pass"),
        "bad_pattern",
        "'two_threes'",
    ),
    "shape not in SF_SHAPES": (
        _set("four_sf:XXXX", shape="XX.X.X"),
        "bad_shape",
        "'four_sf:XXXX'",
    ),
    "shape of another size": (
        _set("four_sf:XXXX", shape="XXX"),
        "bad_shape",
        "'four_sf:XXXX'",
    ),
    "positions outside the shape": (
        _set("four_sf:XXX.X", positions=[[0, 5]]),
        "bad_positions",
        "'four_sf:XXX.X'",
    ),
    "positions on a hole": (
        _set("four_sf:XXX.X", positions=[[0, 3]]),
        "bad_positions",
        "'four_sf:XXX.X'",
    ),
    "positions against the pattern": (
        _set("four_sf:XXX.X", positions=[[2, 0]]),
        "positions_against_pattern",
        "'four_sf:XXX.X'",
    ),
    "shape on another rule": (_set("fours", shape="XXXX"), "bad_shape", "'fours'"),
    "missing reading": (_set("full_house", reading=""), "missing_reading", "'full_house'"),
    "missing cards": (_set("full_house", cards=None), "missing_cards", "'full_house'"),
    "unknown reading field": (
        _set("full_house", reading="Partner holds {r3s}."),
        "bad_reading_field",
        "'full_house'",
    ),
    "second card after a pass": (
        _set("threes", reading="Three {r2s}."),
        "bad_reading_field",
        "'threes'",
    ),
    "duplicate row id": (_dup, "duplicate_row_id", "'two_threes'"),
    "item neither signalled nor played out": (_drop_item, "unplayed_item", "'threes'"),
    "row of an item not on the checklist": (
        lambda d: d["checklist"].remove("threes"),
        "item_not_on_checklist",
        "'threes'",
    ),
    "unknown checklist item": (
        lambda d: d["checklist"].append("sixes"),
        "unknown_checklist_item",
        "'sixes'",
    ),
    "otherwise on an item's first row": (
        _set("four_flush", otherwise=True),
        "otherwise_first",
        "'four_flush'",
    ),
    "missing suit tiers": (_set("threes", params={}), "bad_params", "'threes'"),
    "params on a rule without any": (
        _set("fours", params={"suit_tiers": [["H"]]}),
        "bad_params",
        "'fours'",
    ),
    "unknown row field": (_set("fours", colour="red"), "unknown_field", "'colour'"),
    "unknown card field": (lambda d: d.update(club="x"), "unknown_field", "'club'"),
    "unsupported schema": (lambda d: d.update(schema=2), "schema", "schema 2"),
    "bad name": (lambda d: d.update(name="Our Club!"), "bad_name", "'Our Club!'"),
}


@pytest.mark.parametrize("case", INVALID, ids=list(INVALID))
def test_an_invalid_card_names_the_row_or_item(case):
    change, code, named = INVALID[case]
    errors = card_errors(_mutate(change))
    assert code in [e.code for e in errors], errors
    error = next(e for e in errors if e.code == code)
    assert named in error.message, error.message
    with pytest.raises(InvalidCardError, match="not a valid card"):
        load_convention(_mutate(change))


def test_every_straight_flush_shape_is_accepted_for_its_size():
    for size, item in ((5, "five_sf"), (4, "four_sf"), (3, "three_sf")):
        for shape in SF_SHAPES[size]:
            held = [i for i, ch in enumerate(shape) if ch == "X"]
            data = _mutate(
                _set(
                    "five_sf:XXXXX",
                    item=item,
                    shape=shape,
                    positions=[[held[0], held[-1]]],
                    id="x",
                )
            )
            row_of(data, "x")["pattern"]["distance"] = [held[-1] - held[0]] * 2
            assert "bad_shape" not in codes(data), (item, shape)


def test_a_convention_value_without_every_item_is_still_constructible():
    base = DEFAULT_CONVENTION
    conv = Convention("short", "Short", "", base.checklist[:3], base.rows_for("five_sf"))
    assert conv.signal_checklist == ("five_sf",) and conv.version
