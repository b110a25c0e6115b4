import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def cli(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_score_prints_combination_and_points():
    status, out, err = cli("score", "AH", "2H", "3H", "4H", "5H")
    assert (status, err) == (0, "")
    assert json.loads(out) == {"combination": "straight_flush", "points": 15}


def test_score_contribution_with_by():
    status, out, _ = cli("score", "7C 7D 7H 7S KH", "--rule", "contribution", "--by", "NNSSN")
    assert status == 0 and json.loads(out) == {"combination": "fours", "points": 16}


def test_leftovers_prints_value_and_bonus():
    status, out, _ = cli("leftovers", "9S", "9H", "4C", "4D", "KS", "KH")
    assert status == 0
    assert json.loads(out) == {"combination": "three_pairs", "value": 6, "bonus": 60}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "AS", "KS", "QS", "JS", "XS"], "not a card: 'XS'"),
        (["score", "AS", "AS", "QS", "JS", "TS"], "duplicate card: AS"),
        (["score", "AS", "KS", "QS", "JS"], "expected 5 cards, got 4"),
        (["score", "AS", "KS", "QS", "JS", "TS", "--by", "NNEEN"], "mixes seats of both sides"),
        (["score", "AS", "KS", "QS", "JS", "TS", "--by", "NNS"], "expected 5 seats"),
        (["score", "AS", "KS", "QS", "JS", "TS", "--rule", "poker"], "unknown scoring rule"),
        (["score", "7C", "7D", "7H", "7S", "KH", "--rule", "contribution"], "which partner"),
        (["leftovers", "9S", "9H", "4C", "4D", "KS"], "expected 6 cards, got 5"),
        (["deal", "--seed", "x"], "not a seed: 'x'"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(argv, message):
    status, out, err = cli(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_batch_mode_answers_every_good_line_and_reports_bad_ones():
    lines = "AS KS QS JS TS\nAS AS\n\n7C 7D 7H 7S KH --rule contribution --by NNNNS\n"
    status, out, err = cli("score", stdin=lines)
    assert status == 2
    assert [json.loads(line) for line in out.splitlines()] == [
        {"combination": "straight_flush", "points": 15},
        {"combination": "fours", "points": 8},
    ]
    assert err == "error: line 2: duplicate card: AS\n"


def test_batch_mode_takes_command_line_options_as_defaults():
    status, out, _ = cli("score", "--rule", "contribution", stdin="AS KS QS JS TS --by NSNSN\n")
    assert status == 0 and json.loads(out)["points"] == 20


def test_batch_straight_flush_without_by_under_contribution_is_reported():
    status, out, err = cli("score", "--rule", "contribution", stdin="AS KS QS JS TS\n")
    assert status == 2 and "line 1" in err and out == ""


def test_deal_prints_four_hands_in_display_order():
    status, out, _ = cli("deal", "--seed", "7")
    data = json.loads(out)
    assert status == 0 and data["seed"] == 7 and data["dealer"] == "N"
    assert sorted(data["hands"]) == ["E", "N", "S", "W"]
    cards = [c for hand in data["hands"].values() for c in hand]
    assert len(cards) == len(set(cards)) == 52


def test_deal_is_the_first_deal_of_the_playout():
    _, deal, _ = cli("deal", "--seed", "7")
    _, playout, _ = cli("playout", "--seed", "7")
    assert json.loads(deal)["hands"] == json.loads(playout)["deals"][0]["hands"]


def test_playout_shape_and_totals():
    status, out, _ = cli("playout", "--seed", "5", "--rule", "contribution")
    data = json.loads(out)
    assert status == 0 and data["rule"] == "contribution" and data["seed"] == 5
    for deal in data["deals"]:
        assert len(deal["played"]) == 8
        assert {len(c) for c in deal["leftovers"].values()} == {6}
        hand = deal["played"][0]
        assert set(hand) == {
            "number",
            "leader",
            "side",
            "actions",
            "cards",
            "combination",
            "points",
        }
    for side in ("NS", "EW"):
        assert data["totals"][side] == sum(d["scores"][side] for d in data["deals"])
        assert data["final"][side] == data["totals"][side] + data["game_bonus"][side]
    assert data["winner"] in ("NS", "EW", "draw")


def test_deal_batch_mode_reads_seeds_from_stdin():
    status, out, _ = cli("deal", stdin="1\n--seed 2\n")
    assert status == 0 and [json.loads(line)["seed"] for line in out.splitlines()] == [1, 2]


def test_python_dash_m_engine_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "leftovers"],
        input="JS 6S 7H 5H 9C 8D\nJS 6S\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"combination": "straight", "value": 5, "bonus": 50}
    assert done.stderr == "error: line 2: expected 6 cards, got 2\n"
