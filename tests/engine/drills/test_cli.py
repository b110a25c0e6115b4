"""``python -m engine drill``: one drill as JSON, rebuildable from that JSON, graded on request."""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.drills import DrillParams, answer_key, make_drill
from engine.drills.commands import drill_json

ROOT = Path(__file__).resolve().parents[3]
CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
FIELDS = {
    "kind",
    "seed",
    "params",
    "resolved",
    "skill",
    "prompt",
    "hand",
    "visible",
    "completed",
    "opponents",
    "signal",
    "partner_hand",
    "cards",
    "by",
    "options",
    "accepted",
    "preferred",
    "expected",
    "explanation",
    "details",
}


def cli(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def drill_of(*argv):
    status, out, err = cli("drill", *argv)
    assert (status, err) == (0, ""), err
    assert out.count("\n") == 1
    return json.loads(out)


def rebuild(data):
    params = DrillParams(**{**data["params"], "items": tuple(data["params"]["items"])})
    return make_drill(data["kind"], data["seed"], params)


def all_cards(data):
    yield from data["hand"] + data["visible"] + data["cards"] + (data["partner_hand"] or [])
    yield from (c for h in data["completed"] + data["opponents"] for c in h)
    yield from (c for c in data["signal"] or [] if c != "pass")


@pytest.mark.parametrize("kind", ["score", "checklist", "lead", "read", "reply"])
def test_every_kind_prints_the_drill_and_its_answer_key(kind):
    data = drill_of(kind, "12")
    assert set(data) == FIELDS
    assert (data["kind"], data["seed"]) == (kind, 12)
    drill = make_drill(kind, 12)
    key = answer_key(drill)
    assert data["accepted"] == list(key.accepted) and data["preferred"] == key.accepted[0]
    assert data["explanation"] == key.explanation and data["details"] == list(key.details)
    assert [o["key"] for o in data["options"]] == list(drill.option_keys)
    assert all(CARD.match(c) for c in all_cards(data))
    if kind == "lead":
        assert data["options"] == [] and data["hand"]
    else:
        assert set(data["accepted"]) & {o["key"] for o in data["options"]}


@pytest.mark.parametrize("kind", ["score", "checklist", "lead", "read", "reply"])
def test_the_json_alone_rebuilds_the_drill(kind):
    argv = [kind, "31", "--convention", "teach-yourself-1994", "--rule", "contribution"]
    if kind != "score":
        argv += ["--side-hand", "3"]
    data = drill_of(*argv)
    assert data["params"] == {
        "convention": "teach-yourself-1994",
        "rule": "contribution",
        "side_hand": None if kind == "score" else 3,
        "hand_size": None,
        "items": [],
        "own_hand": False,
        "version": 2,
    }
    drill = rebuild(data)
    assert drill == make_drill(kind, 31, DrillParams(**{**data["params"], "items": ()}))
    assert drill_json(drill) == data


def test_resolved_settings_are_the_drills_own():
    lead = drill_of("lead", "5")
    assert lead["params"]["side_hand"] is None and lead["params"]["hand_size"] is None
    assert lead["resolved"] == {
        "side_hand": rebuild(lead).side_hand,
        "hand_size": len(lead["hand"]),
    }
    read = drill_of("read", "5", "--hand-size", "6", "--side-hand", "4")
    assert read["resolved"] == {"side_hand": 4, "hand_size": 6}
    assert len(read["partner_hand"]) == 6
    score = drill_of("score", "5")
    assert score["resolved"] == {"side_hand": None, "hand_size": None}
    assert score["signal"] is None and score["partner_hand"] is None


def test_items_target_the_drill():
    data = drill_of("checklist", "8", "--items", "two_pair, one_pair,two_pair")
    assert data["params"]["items"] == ["two_pair", "one_pair"]
    assert data["skill"] in ("two_pair", "one_pair")


@pytest.mark.parametrize("kind", ["read", "reply"])
def test_read_and_reply_show_the_signal_and_partners_hand(kind):
    for seed in range(40):
        data = drill_of(kind, str(seed))
        drill = rebuild(data)
        c1, c2 = drill.signal
        assert data["signal"] == [str(c1), "pass" if c2 is None else str(c2)]
        assert data["partner_hand"] == [str(c) for c in drill.source]
        if c2 is None:
            return
    pytest.fail("no card-and-pass signal in 40 seeds")


def test_reply_options_are_actions():
    data = drill_of("reply", "6")
    for option in data["options"]:
        key = option["key"]
        assert key in ("pass", "force") or all(CARD.match(w) for w in key.split())


def test_answers_are_graded():
    data = drill_of("lead", "4")
    best = drill_of("lead", "4", "--answer", data["preferred"].lower())
    assert best["grade"]["correct"] is True and best["grade"]["answer"] == data["preferred"]
    assert best["grade"]["feedback"].startswith("Right.")
    c1 = data["preferred"].split()[0]
    wrong = next(
        f"{c1} {c}"
        for c in data["hand"] + ["pass"]
        if c != c1 and f"{c1} {c}" not in data["accepted"]
    )
    graded = drill_of("lead", "4", "--answer", wrong)["grade"]
    assert graded["correct"] is False and graded["feedback"].startswith("Not quite")
    assert graded["details"][0].startswith("Partner reads your lead")


@pytest.mark.parametrize("kind", ["score", "checklist", "read", "reply"])
def test_every_option_is_graded_as_the_key_says(kind):
    data = drill_of(kind, "17")
    for option in data["options"]:
        graded = drill_of(kind, "17", "--answer", option["key"])["grade"]
        assert graded["correct"] is (option["key"] in data["accepted"])
        assert graded["feedback"].endswith(data["explanation"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["poker", "1"], "unknown drill kind: 'poker'"),
        (["lead", "x"], "not a seed: 'x'"),
        (["lead", "-3"], "seed"),
        (["lead", "1", "2"], "expected KIND SEED"),
        (["lead", "1", "--convention", "nope"], "nope"),
        (["lead", "1", "--rule", "poker"], "poker"),
        (["lead", "1", "--side-hand", "5"], "side hand must be 1 to 4"),
        (["lead", "1", "--side-hand", "3", "--hand-size", "13"], "fits these settings"),
        (["lead", "1", "--items", "royal"], "unknown checklist item"),
        (
            ["read", "1", "--items", "fours", "--convention", "teach-yourself-1994"],
            "has no drill “Read partner's signal” for Four of a kind",
        ),
        (["lead", "1", "--answer", "AS"], "a lead is two cards"),
        (["lead", "1", "--answer", "ZZ pass"], "not a card: 'ZZ'"),
        (["read", "1", "--answer", "royal_flush"], "not one of this drill's options"),
        (["reply", "1", "--answer", "XX YY"], "not one of this drill's options"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, message):
    status, out, err = cli("drill", *argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_a_card_not_in_the_hand_is_refused():
    hand = drill_of("lead", "2")["hand"]
    missing = next(c for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S") if c not in hand)
    status, out, err = cli("drill", "lead", "2", "--answer", f"{missing} pass")
    assert (status, out) == (2, "") and "is not in your hand" in err


def test_batch_mode_answers_good_lines_and_reports_bad_ones():
    lines = "lead 3\n\nread 4 --side-hand 3\npoker 1\nlead\nscore 2 --rule classic\n"
    status, out, err = cli("drill", "--rule", "contribution", stdin=lines)
    assert status == 2
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["kind"], r["seed"], r["params"]["rule"]) for r in rows] == [
        ("lead", 3, "contribution"),
        ("read", 4, "contribution"),
        ("score", 2, "classic"),
    ]
    assert rows[1]["params"]["side_hand"] == 3
    assert err.splitlines() == [
        "error: line 4: unknown drill kind: 'poker'",
        "error: line 5: expected KIND SEED, got 'lead'",
    ]


def test_the_command_runs_as_a_program():
    run = [sys.executable, "-m", "engine", "drill"]
    proc = subprocess.run(
        [*run, "read", "7", "--convention", "teach-yourself-1994"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    data = json.loads(proc.stdout)
    assert data["params"]["convention"] == "teach-yourself-1994"
    lines = f"read 7 --convention teach-yourself-1994 --answer {data['preferred']}\nread x\n"
    batch = subprocess.run(
        run, input=lines, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert batch.returncode == 2
    assert batch.stderr == "error: line 2: not a seed: 'x' (a whole number)\n"
    assert json.loads(batch.stdout)["grade"]["correct"] is True
