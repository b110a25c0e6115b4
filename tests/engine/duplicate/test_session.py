"""Whole sessions played by bot pairs: boards identical at every table, the same seed the same
JSON however the plays are split, every record replays, and the matchpoints add up."""

from __future__ import annotations

import io
import json

import pytest

from engine.cli import main
from engine.duplicate.session import (
    SessionSpec,
    plan_chunks,
    play_chunk,
    play_session,
    session_board,
    summarise_session,
)
from engine.play.record import replay_record
from engine.play.setup import InvalidSetupError, PlaySetup
from engine.seats import Seat

SPEC = SessionSpec(
    pairs=5, boards=10, seed=4, bots=("strong", "greedy", "signal"), rule="contribution"
)


@pytest.fixture(scope="module")
def session() -> dict:
    return play_session(SPEC)


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(args), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_boards_turn_the_dealer_and_deal_as_the_deal_command():
    assert [session_board(3, b).dealer for b in range(1, 6)] == [
        Seat.N,
        Seat.E,
        Seat.S,
        Seat.W,
        Seat.N,
    ]
    board = session_board(3, 6)
    status, out, _ = _run("deal", "--seed", str(board.seed), "--dealer", "E")
    hands = json.loads(out)["hands"]
    dealt = board.deal().hands_dealt
    assert status == 0 and hands == {str(s): [str(c) for c in dealt[s]] for s in dealt}


def test_every_table_of_a_board_holds_the_same_cards(session):
    for board in session["boards"]:
        hands = {json.dumps(r["record"]["deals"][0]["hands"]) for r in board["results"]}
        assert len(hands) == 1
        assert board["results"][0]["record"]["deals"][0]["dealer"] == board["dealer"]


def test_every_record_replays_to_its_points(session):
    for board in session["boards"]:
        for r in board["results"]:
            replayed = replay_record(r["record"])
            assert replayed["totals"] == {"NS": r["ns_points"], "EW": r["ew_points"]}


def test_the_same_seed_gives_the_same_json_however_it_is_split(session):
    assert json.dumps(play_session(SPEC)) == json.dumps(session)
    chunks = [play_chunk(SPEC, a, b) for a, b in plan_chunks(SPEC, 3)]
    plays = [p for chunk in reversed(chunks) for p in chunk]
    assert json.dumps(summarise_session(SPEC, plays + plays[:2])) == json.dumps(session)
    with pytest.raises(ValueError, match="missing"):
        summarise_session(SPEC, plays[1:])


def test_each_pair_plays_each_board_at_most_once_and_the_matchpoints_add_up(session):
    expected = max(len(b["results"]) for b in session["boards"])
    for board in session["boards"]:
        pairs = [p for r in board["results"] for p in (r["ns"], r["ew"])]
        assert len(pairs) == len(set(pairs))
        for r in board["results"]:
            assert r["ns_mp"] + r["ew_mp"] == pytest.approx(2 * (expected - 1))
            assert r["ns_vs_par"] <= 0 and r["ew_vs_par"] <= 0
    totals: dict[int, float] = {}
    for board in session["boards"]:
        for r in board["results"]:
            totals[r["ns"]] = totals.get(r["ns"], 0) + r["ns_mp"]
            totals[r["ew"]] = totals.get(r["ew"], 0) + r["ew_mp"]
    for row in session["ranking"]:
        assert row["mp"] == pytest.approx(totals[row["pair"]], abs=0.02)
        assert row["percent"] == pytest.approx(100 * row["mp"] / row["top"], abs=0.01)


def test_the_session_command_prints_the_issues_json(tmp_path):
    status, out, err = _run(
        "session",
        "--pairs",
        "4",
        "--boards",
        "3",
        "--seed",
        "9",
        "--bots",
        "signal,greedy",
        "--rule",
        "classic",
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    board = data["boards"][0]
    assert {"board", "dealer", "results"} <= set(board)
    assert {"ns", "ew", "ns_points", "ew_points", "record"} <= set(board["results"][0])
    assert {"pair", "mp", "top", "percent"} <= set(data["ranking"][0])
    assert data["bots"] == {"1": "signal", "2": "greedy", "3": "signal", "4": "greedy"}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(board["results"][0]["record"]))
    status, out, err = _run("replay", str(path))
    assert status == 0, err
    assert json.loads(out)["totals"] == {
        "NS": board["results"][0]["ns_points"],
        "EW": board["results"][0]["ew_points"],
    }


@pytest.mark.parametrize(
    "args",
    [
        ["--pairs", "3"],
        ["--pairs", "6", "--boards", "7"],
        ["--pairs", "4", "--bots", "signal,wizard"],
        ["--pairs", "4", "--workers", "http://example.org"],
    ],
)
def test_bad_session_arguments_exit_2(args):
    status, out, err = _run("session", *args, "--json")
    assert status == 2 and out == "" and err.startswith("error: ")


def test_the_setup_carries_a_dealer_and_refuses_a_bad_one():
    setup = PlaySetup(seed=5, dealer=Seat.W)
    assert setup.to_json()["dealer"] == "W"
    assert PlaySetup.from_json(setup.to_json()) == setup
    assert "dealer" not in PlaySetup(seed=5).to_json()
    with pytest.raises(InvalidSetupError, match="dealer"):
        PlaySetup.from_json({"seed": 5, "dealer": "X"})


def test_a_session_on_the_in_process_workers_is_the_one_process_json():
    from engine.duplicate.workers import run_session_on_workers
    from engine.tournament.workers import stub_broker, stub_worker

    spec = SessionSpec(pairs=4, boards=6, seed=8, bots=("signal", "random"))
    broker = stub_broker()
    with stub_worker(broker, threads=3):
        on_workers = run_session_on_workers(spec, broker, chunk=2)
    assert json.dumps(on_workers) == json.dumps(play_session(spec))
