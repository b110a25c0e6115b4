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
    # greedy does not see its partner's cards: it leaves points that par finds (14.5 per deal
    # on these deals), so par is measured, not assumed zero.
    assert result.signals["EW"]["points_lost_to_par"] > 5


# ---------------------------------------------------------------------------------------------
# Chunks on workers (engine.tournament.workers): the same result for 1 worker and 3


def test_chunks_played_anywhere_merge_into_the_one_process_result():
    from engine.tournament import BoardResult, plan_chunks, play_boards, summarise

    chunks = plan_chunks(SPEC, 7)
    assert chunks[0] == (0, 7) and chunks[-1] == (28, 30)
    boards = [
        BoardResult.from_json(json.loads(json.dumps(board.to_json())))
        for start, stop in reversed(chunks)  # any order
        for board in play_boards(SPEC, start, stop)
    ]
    assert _figures(summarise(SPEC, boards)) == _figures(run_tournament(SPEC))


def test_a_board_twice_counts_once_and_a_missing_board_is_an_error():
    from engine.tournament import play_boards, summarise

    boards = play_boards(SPEC, 0, 30)
    assert _figures(summarise(SPEC, boards + boards[:3])) == _figures(run_tournament(SPEC))
    with pytest.raises(ValueError, match="missing"):
        summarise(SPEC, boards[1:])


def test_a_spec_with_a_club_card_travels_as_json():
    from engine.signals import DEFAULT_CONVENTION
    from engine.signals.cardfile import load_convention

    card = load_convention({**DEFAULT_CONVENTION.to_json(), "name": "json-club", "title": "J"})
    spec = TournamentSpec(PairSpec("signal", card), PairSpec("signal"), deals=3, seed=2)
    data = json.loads(json.dumps(spec.to_json()))
    assert data["ns"]["convention"]["name"] == "json-club"
    assert data["ew"]["convention"] is None
    again = TournamentSpec.from_json(data)
    assert again.ns.convention_value() == card
    assert _figures(run_tournament(again)) == _figures(run_tournament(spec))


def test_a_different_card_under_a_known_name_gets_a_name_of_its_own():
    from engine.signals import DEFAULT_CONVENTION
    from engine.signals.cardfile import load_convention
    from engine.signals.conventions import register_convention, unregister_convention

    first = load_convention({**DEFAULT_CONVENTION.to_json(), "name": "twice-club"})
    register_convention(first)
    try:
        second = {**first.to_json(), "title": "Another"}
        pair = PairSpec.from_json({"bot": "signal", "convention": second})
        assert pair.convention_value().name.startswith("twice-club-v")
        assert pair.convention_value().title == "Another"
    finally:
        unregister_convention("twice-club")


@pytest.mark.parametrize("threads", [1, 3])
def test_one_worker_or_three_give_identical_json(threads):
    from engine.tournament.workers import run_on_workers, stub_broker, stub_worker

    broker = stub_broker()
    with stub_worker(broker, threads=threads):
        result = run_on_workers(SPEC, broker, chunk=4)
    alone = run_tournament(SPEC)
    assert json.dumps(_figures(result)) == json.dumps(_figures(alone))
    assert result.deals_per_cpu_s > 0


def test_records_from_workers_are_those_of_one_process(tmp_path):
    from engine.tournament.workers import run_on_workers, stub_broker, stub_worker

    spec = TournamentSpec(PairSpec("random"), PairSpec("greedy"), deals=5, seed=9)
    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    run_tournament(spec, records_path=str(one))
    broker = stub_broker()
    with stub_worker(broker, threads=3):
        run_on_workers(spec, broker, chunk=2, records_path=str(many))
    assert one.read_text() == many.read_text()


def test_no_worker_is_a_clear_error():
    from engine.tournament.workers import WorkersTimeoutError, run_on_workers, stub_broker

    with pytest.raises(WorkersTimeoutError, match="worker"):
        run_on_workers(SPEC, stub_broker(), chunk=10, timeout=0.5)


@pytest.mark.parametrize(
    "args",
    [
        ["--workers", "http://example.org/"],
        ["--chunk", "5"],
        ["--workers", "redis://127.0.0.1:1/0", "--chunk", "0"],
    ],
)
def test_bad_worker_arguments_exit_2(args):
    err = io.StringIO()
    assert main(["tournament", "--deals", "3", *args], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().count("\n") == 1


def test_an_unreachable_queue_exits_2():
    err = io.StringIO()
    status = main(
        ["tournament", "--deals", "3", "--workers", "redis://127.0.0.1:1/0"],
        stdout=io.StringIO(),
        stderr=err,
    )
    assert status == 2 and "127.0.0.1:1" in err.getvalue()
