"""``python -m engine convention show|check|diff|list`` and ``--convention FILE`` on every
command that takes a card: a dumped shipped card plays exactly as its name."""

import copy
import io
import json

import pytest

from engine.cli import main
from engine.signals import CONVENTIONS
from engine.signals.cardfile import CARDS_DIR, card_text, load_convention
from engine.signals.conventions import known_conventions, unregister_convention


def cli(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def ok(*argv):
    status, out, err = cli(*argv)
    assert (status, err) == (0, ""), err
    return out


def write(path, data):
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def card_json(base="parlett-2008", **changes):
    data = copy.deepcopy(CONVENTIONS[base].to_json())
    data.update(changes)
    return data


def row_of(data, row_id):
    return next(r for r in data["rows"] if r["id"] == row_id)


@pytest.fixture
def dumped(tmp_path):
    """The shipped cards written out by ``convention show``, by name."""
    paths = {}
    for name in CONVENTIONS:
        path = tmp_path / f"{name}.json"
        path.write_text(ok("convention", "show", name), encoding="utf-8")
        paths[name] = path
    return paths


@pytest.fixture
def renamed(tmp_path):
    """parlett-2008 under a club's name (registered by the commands that read it)."""
    yield write(tmp_path / "club.json", card_json(name="club-2008", title="Club 2008"))
    unregister_convention("club-2008")


@pytest.fixture
def ambiguous(tmp_path):
    """parlett-2008 with two threes shown like a full house: different colours."""
    data = card_json(name="ambiguous-club")
    row_of(data, "two_threes")["pattern"]["suits"] = ["different_colour"]
    return write(tmp_path / "ambiguous.json", data)


@pytest.fixture
def invalid(tmp_path):
    data = card_json(name="broken-club")
    row_of(data, "fours")["item"] = "five_of_a_kind"
    row_of(data, "four_sf:XXXX")["shape"] = "XX.X.X"
    return write(tmp_path / "invalid.json", data)


# ---------------------------------------------------------------------------------------------
# show, list


def test_show_json_prints_the_card_as_data_with_its_version():
    data = json.loads(ok("convention", "show", "parlett-2008", "--json"))
    conv = CONVENTIONS["parlett-2008"]
    assert data.pop("version") == conv.version
    assert data == conv.to_json() and data["schema"] == 1
    assert load_convention(data) == conv  # the version field is ignored when read


def test_show_prints_the_card_file(dumped):
    for name, path in dumped.items():
        assert path.read_text(encoding="utf-8") == (CARDS_DIR / f"{name}.json").read_text(
            encoding="utf-8"
        )
        assert ok("convention", "show", path) == card_text(CONVENTIONS[name])


def test_list_names_every_known_card_with_its_version():
    listed = json.loads(ok("convention", "list"))
    assert [c["name"] for c in listed] == list(known_conventions())
    assert listed[0] == {
        "name": "parlett-2008",
        "title": "Parlett 2008",
        "version": CONVENTIONS["parlett-2008"].version,
        "shipped": True,
    }


# ---------------------------------------------------------------------------------------------
# check


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_check_of_a_shipped_card_is_valid_and_round_trips(dumped, name):
    report = json.loads(ok("convention", "check", dumped[name], "--hands", "500"))
    assert report["valid"] is True and report["errors"] == []
    assert report["name"] == name and report["version"] == CONVENTIONS[name].version
    assert report["roundtrip"]["hands"] == 500 and report["roundtrip"]["failures"] == []
    # Both cards read ♦ and pass as threes or one pair (both on the fours table).
    assert ["threes", "one_pair"] in [a["items"] for a in report["ambiguities"]]


def test_check_runs_2000_hands_by_default():
    report = json.loads(ok("convention", "check", "parlett-2008", "--samples", "50"))
    assert report["roundtrip"]["hands"] == 2000 and report["roundtrip"]["failed"] == 0


def test_check_of_the_1994_card_reports_its_down_four_ambiguity():
    report = json.loads(ok("convention", "check", "teach-yourself-1994", "--hands", "100"))
    found = next(a for a in report["ambiguities"] if a["items"] == ["four_sf", "three_sf"])
    assert found["family"] == "strong"
    assert found["patterns"] == [{"rank": "down", "suits": "same_suit", "distance": [4, 4]}]
    assert [r["round"] for r in found["rounds"]] == ["strong", "weak"]


def test_check_of_an_ambiguous_card_names_the_items_rounds_and_odds(ambiguous):
    report = json.loads(ok("convention", "check", ambiguous, "--hands", "300"))
    assert report["valid"] is True
    found = next(a for a in report["ambiguities"] if a["items"] == ["two_threes", "full_house"])
    assert found["family"] == "strong" and found["signals"] > 1000
    assert {"rank": "up", "suits": "different_colour", "distance": [1, 11]} in found["patterns"]
    assert [r["rows"] for r in found["readings"]] == [["two_threes"], ["full_house"]]
    strong, weak = found["rounds"]
    assert (strong["round"], strong["side_hands"], strong["primary"]) == (
        "strong",
        [1, 2],
        "two_threes",
    )
    assert (strong["odds"]["side_hand"], strong["odds"]["hand_size"]) == (1, 13)
    assert (weak["odds"]["side_hand"], weak["odds"]["hand_size"]) == (3, 9)
    for odds in (strong["odds"], weak["odds"]):
        assert odds["samples"] > 0
        assert set(odds["items"]) == {"two_threes", "full_house"}
        assert 0 < odds["items"]["full_house"] < 1


def test_check_of_an_invalid_card_prints_the_report_and_exits_2(invalid):
    status, out, err = cli("convention", "check", invalid)
    assert status == 2
    report = json.loads(out)
    assert report["valid"] is False and report["roundtrip"] is None
    assert {e["code"] for e in report["errors"]} == {"unknown_item", "bad_shape"}
    assert {e["row"] for e in report["errors"]} == {"fours", "four_sf:XXXX"}
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "not a valid card (2 errors)" in err and "'fours'" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "cannot read the card file"),
        ('{"schema": 1,', "not JSON"),
        ("[]", "a card is a JSON object"),
    ],
)
def test_an_unreadable_card_exits_2_with_one_line(tmp_path, text, message):
    path = tmp_path / "card.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    status, out, err = cli("convention", "check", path)
    assert status == 2 and err.count("\n") == 1 and message in err
    assert json.loads(out)["valid"] is False
    for argv in (("convention", "show", path), ("convention", "diff", path, "parlett-2008")):
        status, out, err = cli(*argv)
        assert (status, out) == (2, "") and err.count("\n") == 1 and message in err


# ---------------------------------------------------------------------------------------------
# diff


def test_diff_lists_added_removed_and_changed_rows(tmp_path):
    data = card_json(name="club-diff", title="Club")
    row_of(data, "full_house")["pattern"]["suits"] = ["same_colour", "different_colour"]
    row_of(data, "full_house")["cards"] = "a card of the three, then one of the pair"
    data["rows"] = [r for r in data["rows"] if r["id"] != "two_pair:out_of_range_colour"]
    added = copy.deepcopy(row_of(data, "one_pair"))
    added.update(id="one_pair:hearts", otherwise=True)
    added["params"] = {"suit_tiers": [["H"]]}
    added["pattern"]["c1_suits"] = ["H"]
    data["rows"].append(added)
    diff = json.loads(ok("convention", "diff", "parlett-2008", write(tmp_path / "c.json", data)))
    assert diff["same"] is False
    assert diff["a"] == {"name": "parlett-2008", "version": CONVENTIONS["parlett-2008"].version}
    assert diff["card"] == {
        "name": {"a": "parlett-2008", "b": "club-diff"},
        "title": {"a": "Parlett 2008", "b": "Club"},
    }
    assert diff["checklist"] is None and diff["rows"]["order"] is None
    assert [r["id"] for r in diff["rows"]["added"]] == ["one_pair:hearts"]
    assert diff["rows"]["added"][0]["params"] == {"suit_tiers": [["H"]]}
    assert [r["id"] for r in diff["rows"]["removed"]] == ["two_pair:out_of_range_colour"]
    (changed,) = diff["rows"]["changed"]
    assert changed["id"] == "full_house" and changed["item"] == "full_house"
    assert changed["fields"] == {
        "cards": {
            "a": "a card of the three first, then a card of the pair",
            "b": "a card of the three, then one of the pair",
        },
        "pattern.suits": {"a": ["different_colour"], "b": ["same_colour", "different_colour"]},
    }


def test_diff_of_a_card_and_its_file_is_empty(dumped):
    diff = json.loads(
        ok("convention", "diff", "teach-yourself-1994", dumped["teach-yourself-1994"])
    )
    assert diff["same"] is True and diff["card"] == {}
    assert diff["rows"] == {"added": [], "removed": [], "changed": [], "order": None}


def test_diff_of_the_two_shipped_cards():
    diff = json.loads(ok("convention", "diff", "parlett-2008", "teach-yourself-1994"))
    assert {r["id"] for r in diff["rows"]["removed"]} == {
        "fours",
        "two_pair:out_of_range",
        "two_pair:out_of_range_colour",
    }
    changed = {c["id"]: set(c["fields"]) for c in diff["rows"]["changed"]}
    assert changed["two_pair"] == {"pattern.not_suit_pairs", "cards", "reading", "note"}
    assert changed["three_flush:wide"] == {"cards"}


# ---------------------------------------------------------------------------------------------
# --convention FILE


SIGNAL_COMMANDS = [
    ("signal", "5S", "4S", "2S", "AS", "KH", "--side-hand", "1"),
    ("signal", "7S", "7H", "7D", "7C", "2D", "--side-hand", "2"),
    ("read", "4S", "8S", "--side-hand", "3", "--visible", "5S", "6S"),
    ("read", "9S", "5S", "--side-hand", "1"),
    ("read", "7D", "pass", "--side-hand", "4"),
    ("reply", "3S", "6S", "7D", "7C", "--signal", "4S", "5S", "--side-hand", "1"),
    ("posterior", "4S", "8S", "--side-hand", "3", "--hand-size", "8", "--samples", "200"),
    ("cheatsheet",),
]


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
@pytest.mark.parametrize("argv", SIGNAL_COMMANDS, ids=lambda a: " ".join(a))
def test_a_card_file_answers_as_its_name(dumped, name, argv):
    assert ok(*argv, "--convention", dumped[name]) == ok(*argv, "--convention", name)


@pytest.mark.parametrize("argv", SIGNAL_COMMANDS[:-1], ids=lambda a: " ".join(a))
def test_a_renamed_copy_answers_as_the_original(renamed, argv):
    mine = json.loads(ok(*argv, "--convention", renamed))
    theirs = json.loads(ok(*argv, "--convention", "parlett-2008"))
    if "convention" in theirs:  # the posterior names its card
        assert (mine.pop("convention"), theirs.pop("convention")) == ("club-2008", "parlett-2008")
    assert mine == theirs


def test_a_bad_card_file_is_one_line_and_exit_2(invalid, tmp_path):
    changed = card_json()
    row_of(changed, "fours")["cards"] = "the ♦ then the ♥"
    clash = write(tmp_path / "clash.json", changed)
    for argv in (
        ("signal", "5S", "4S", "--side-hand", "1"),
        ("cheatsheet",),
        ("drill", "lead", "3"),
        ("tournament", "--deals", "1"),
    ):
        for card, message in (
            (invalid, "not a valid card"),
            (clash, "'parlett-2008' is a shipped card"),
            ("nope", "not a convention or a card file: 'nope'"),
        ):
            status, out, err = cli(*argv, "--convention", card)
            assert (status, out) == (2, ""), (argv, card)
            assert err.count("\n") == 1 and message in err, err


SEEDS = range(50)
KINDS = ("lead", "read", "reply", "checklist", "score")


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_drills_from_a_card_file_are_the_drills_of_its_name(dumped, name):
    lines = "".join(f"{KINDS[s % len(KINDS)]} {s}\n" for s in SEEDS)
    from_file = cli("drill", "--convention", dumped[name], stdin=lines)
    by_name = cli("drill", "--convention", name, stdin=lines)
    assert from_file[0] == by_name[0] == 0, from_file[2]
    assert from_file[1].count("\n") == len(SEEDS)
    assert from_file == by_name


def _figures(out):
    result = json.loads(out)
    result.pop("deals_per_cpu_s")
    return result, result.pop("pairs")


@pytest.mark.parametrize("option", ["--ns-convention", "--convention"])
def test_a_tournament_from_card_files_is_the_tournament_of_the_names(dumped, renamed, option):
    argv = ("tournament", "--ns", "signal", "--ew", "signal", "--deals", "50", "--json")
    by_name = _figures(ok(*argv, option, "parlett-2008", "--ew-convention", "teach-yourself-1994"))
    from_files = _figures(
        ok(*argv, option, dumped["parlett-2008"], "--ew-convention", dumped["teach-yourself-1994"])
    )
    assert from_files == by_name
    copy_figures, pairs = _figures(
        ok(*argv, option, renamed, "--ew-convention", "teach-yourself-1994", "--jobs", "2")
    )
    assert copy_figures == by_name[0]  # identical apart from the label
    assert pairs["NS"] == {
        "bot": "signal",
        "convention": "club-2008",
        "version": load_convention(renamed).version,
    }
    assert pairs["EW"] == by_name[1]["EW"] == {"bot": "signal", "convention": "teach-yourself-1994"}


def test_check_refuses_a_card_that_takes_a_shipped_cards_name_with_other_content(tmp_path):
    """Every other command refuses such a file (its name would serve the shipped card's
    memo tables); the check says so instead of calling it valid."""
    changed = card_json(title="Not Parlett")
    path = write(tmp_path / "taken.json", changed)
    status, out, _err = cli("convention", "check", path, "--hands", "50", "--samples", "20")
    report = json.loads(out)
    assert status == 2 and report["valid"] is False
    (error,) = [e for e in report["errors"] if e["code"] == "name_taken"]
    assert error["field"] == "name" and "'parlett-2008'" in error["message"]
    # The card under a name of its own is valid.
    own = write(tmp_path / "own.json", card_json(name="not-parlett", title="Not Parlett"))
    assert json.loads(ok("convention", "check", own, "--hands", "50", "--samples", "20"))["valid"]
    unregister_convention("not-parlett")


def test_an_item_without_a_play_is_named_by_its_id(monkeypatch):
    """The error names the item by its id, as every other error does (it printed the enum's
    repr, ``<ChecklistItem.FIVE_FLUSH: 'five_flush'>``)."""
    from types import SimpleNamespace

    from engine.signals import cardcheck
    from engine.signals.card import ChecklistItem

    def no_play(hand, side, conv):
        return SimpleNamespace(
            item=ChecklistItem.FIVE_FLUSH, shape=None, plays=(), rows=(), played_out=False
        )

    monkeypatch.setattr(cardcheck, "encode", no_play)
    _report, (error,) = cardcheck._roundtrip(CONVENTIONS["parlett-2008"], 3, 0)
    assert error.code == "no_play" and error.item == "five_flush"
    assert error.message.startswith("item 'five_flush': no row gives a play")
    assert "ChecklistItem" not in error.message
