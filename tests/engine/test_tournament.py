"""Tournaments: seeded, duplicate, the same for any number of processes, and on the CLI."""

import io
import json

import pytest

from engine.cli import main
from engine.tournament import (
    PairSpec,
    TournamentSpec,
    _chunks,
    board_seed,
    play_board,
    run_tournament,
)

SPEC = TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=30, seed=4)


def _figures(result):
    out = result.as_json()
    out.pop("deals_per_cpu_s")
    return out


def test_results_are_reproducible_from_the_seed():
    assert _figures(run_tournament(SPEC)) == _figures(run_tournament(SPEC))


def test_results_do_not_depend_on_the_number_of_processes(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = run_tournament(SPEC, jobs=1, records_path=str(one))
    b = run_tournament(SPEC, jobs=2, records_path=str(two))
    assert _figures(a) == _figures(b)
    assert one.read_text() == two.read_text()


@pytest.mark.parametrize("deals", [1, 7, 30, 1000, 10001])
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_boards_are_split_into_chunks_that_cover_each_once(deals, jobs):
    chunks = list(_chunks(deals, jobs))
    assert [b for start, stop in chunks for b in range(start, stop)] == list(range(deals))
    assert all(0 < stop - start <= 100 for start, stop in chunks)
    assert len(chunks) >= min(deals, 4 * jobs)  # every process gets several


def test_duplicate_gives_each_pair_both_seats_of_a_board():
    board = play_board(SPEC, 3, records=True)
    first, second = (json.loads(line) for line in board.records)
    assert first["seed"] == second["seed"] == board_seed(4, 3)
    assert first["deals"][0]["hands"] == second["deals"][0]["hands"]
    assert first["pairs"]["NS"]["pair"] == "A" and second["pairs"]["NS"]["pair"] == "B"


def test_a_pair_against_itself_has_a_difference_of_zero():
    spec = TournamentSpec(PairSpec("greedy"), PairSpec("greedy"), deals=10, seed=2)
    result = run_tournament(spec)
    assert result.diff == 0 and result.ci95 == (0, 0)


def test_records_replay_in_the_playout_schema(tmp_path):
    path = tmp_path / "records.jsonl"
    run_tournament(
        TournamentSpec(PairSpec("random"), PairSpec("greedy"), deals=3, seed=9),
        records_path=str(path),
    )
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 6
    for record in lines:
        deal = record["deals"][0]
        assert set(deal) >= {"dealer", "hands", "played", "leftovers", "scores"}
        assert len(deal["played"]) == 8
        assert sum(record["totals"].values()) == sum(deal["scores"].values())


def test_the_tournament_command_prints_the_json_of_the_issue():
    out, err = io.StringIO(), io.StringIO()
    status = main(
        [
            "tournament",
            "--ns",
            "signal",
            "--ew",
            "greedy",
            "--deals",
            "4",
            "--seed",
            "1",
            "--json",
            "--convention",
            "teach-yourself-1994",
        ],
        stdout=out,
        stderr=err,
    )
    assert status == 0, err.getvalue()
    result = json.loads(out.getvalue())
    assert set(result) >= {
        "deals",
        "duplicate",
        "pairs",
        "mean_per_deal",
        "diff",
        "ci95",
        "hand_score_mean",
        "leftover_mean",
        "signals",
        "deals_per_cpu_s",
    }
    assert result["pairs"]["NS"] == {"bot": "signal", "convention": "teach-yourself-1994"}
    assert result["duplicate"] is True and result["deals"] == 4


def test_bad_tournament_arguments_exit_2():
    err = io.StringIO()
    assert main(["tournament", "--deals", "0"], stdout=io.StringIO(), stderr=err) == 2
    assert main(["tournament", "--ns", "oracle"], stdout=io.StringIO(), stderr=err) == 2


def test_the_open_bot_plays_legally_and_loses_nothing_to_par():
    spec = TournamentSpec(PairSpec("open"), PairSpec("greedy"), deals=3, seed=5)
    result = run_tournament(spec, par=True)  # an illegal action would raise
    assert result.signals["NS"]["points_lost_to_par"] <= 1
    assert result.signals["EW"]["points_lost_to_par"] >= 0
