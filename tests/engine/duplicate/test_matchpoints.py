"""Matchpoints against published worked examples, Neuberg's scaling, and the incremental
scorer against a plain recount of every board."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.duplicate.matchpoints import Result, Scorer, matchpoints, neuberg


def test_the_nationwide_pairs_example():
    # The Nationwide Pairs' scoring notes: eleven results on one board (top 20).
    scores = [1430, 690, 680, 680, 680, 660, 660, 650, -100, -100, -200]
    assert matchpoints(scores) == [20, 18, 14, 14, 14, 9, 9, 6, 3, 3, 0]


def test_a_three_table_traveller():
    # A three-table traveller as a beginners' guide scores it (one per result beaten: 0, 1, 2),
    # on this scale of two per result beaten: 0, 2, 4 of a top of 4, East-West the rest.
    scorer = Scorer.of(
        [Result(1, 1, 17, 120, 0), Result(1, 2, 11, 110, 0), Result(1, 3, 13, 140, 0)]
    )
    assert [(r.ns, ns, ew) for r, ns, ew in scorer.traveller(1)] == [
        (1, 2.0, 2.0),
        (2, 0.0, 4.0),
        (3, 4.0, 0.0),
    ]


def test_neuberg_scales_a_board_played_fewer_times():
    # Played 3 times where the others were played 4: top 6 instead of 4.
    assert neuberg(4, played=3, expected=4) == pytest.approx(5 + 2 / 3)
    assert neuberg(0, played=3, expected=4) == pytest.approx(1 / 3)
    assert neuberg(2, played=3, expected=4) == 3.0  # the average stays the average
    assert neuberg(6, played=4, expected=4) == 6.0
    scorer = Scorer.of([Result(1, 1, 2, 10, 0), Result(1, 3, 4, 5, 0), Result(2, 1, 3, 0, 5)])
    (_, ns, ew) = scorer.traveller(2)[0]
    assert (ns, ew) == (1.0, 1.0)  # one result: an average of the top of 2


def _recount(results: list[Result]) -> dict[int, float]:
    """Each pair's Neuberg matchpoints, board by board from scratch."""
    by_board: dict[int, list[Result]] = {}
    for r in results:
        by_board.setdefault(r.board, []).append(r)
    expected = max(len(v) for v in by_board.values())
    top = 2 * (expected - 1)
    totals: dict[int, float] = {}
    for rows in by_board.values():
        mps = matchpoints([r.score for r in rows])
        for r, mp in zip(rows, mps, strict=True):
            ns = neuberg(mp, played=len(rows), expected=expected)
            totals[r.ns] = totals.get(r.ns, 0.0) + ns
            totals[r.ew] = totals.get(r.ew, 0.0) + top - ns
    return totals


@st.composite
def _sessions(draw):
    pairs = draw(st.integers(2, 12))
    boards = draw(st.integers(1, 6))
    results = []
    for board in range(1, boards + 1):
        order = draw(st.permutations(range(1, pairs + 1)))
        tables = draw(st.integers(1, len(order) // 2))
        for t in range(tables):
            ns, ew = order[2 * t], order[2 * t + 1]
            results.append(
                Result(board, ns, ew, draw(st.integers(0, 60)), draw(st.integers(0, 60)))
            )
    return draw(st.permutations(results))


@settings(max_examples=300)
@given(_sessions())
def test_the_scorer_matches_a_recount_whatever_the_order(results):
    scorer = Scorer.of(results)
    totals = _recount(list(results))
    ranking = scorer.ranking()
    assert {s.pair for s in ranking} == set(totals)
    for standing in ranking:
        assert standing.mp == pytest.approx(totals[standing.pair], abs=0.006)
        assert standing.top == 2 * (scorer.expected - 1) * standing.boards
    percents = [s.percent for s in ranking]
    assert percents == sorted(percents, reverse=True)
    # Each board's matchpoints add up to the top for every table.
    for board in {r.board for r in results}:
        rows = scorer.traveller(board)
        for _, ns, ew in rows:
            assert ns + ew == pytest.approx(2 * (scorer.expected - 1))


def test_a_pair_cannot_score_a_board_twice():
    scorer = Scorer.of([Result(1, 1, 2, 10, 0)])
    with pytest.raises(ValueError, match="already has a result"):
        scorer.add(Result(1, 3, 1, 10, 0))


def test_a_mitchell_ranks_each_direction_on_its_own():
    results = [Result(1, 1, 3, 10, 0), Result(1, 2, 4, 20, 0)]
    ranking = Scorer.of(results, {1: "NS", 2: "NS", 3: "EW", 4: "EW"}).ranking()
    assert [(s.direction, s.rank, s.pair) for s in ranking] == [
        ("NS", 1, 2),
        ("NS", 2, 1),
        ("EW", 1, 3),
        ("EW", 2, 4),
    ]


def test_equal_percentages_share_a_rank():
    ranking = Scorer.of([Result(1, 1, 2, 5, 5), Result(1, 3, 4, 5, 5)]).ranking()
    assert [s.rank for s in ranking] == [1, 1, 1, 1]
