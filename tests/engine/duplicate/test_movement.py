"""Movements: every Howell and Mitchell for 4 to 20 pairs (odd fields with a sit-out or a bot
pair, complete or cut short) is valid, and a movement that cannot be made says why."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cli import main
from engine.duplicate.movement import (
    FILLS,
    MovementError,
    check_movement,
    movement,
)


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(args), stdout=out, stderr=err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("kind", ["howell", "mitchell", "auto"])
@pytest.mark.parametrize("fill", FILLS)
@pytest.mark.parametrize("pairs", range(4, 21))
def test_every_complete_movement_is_valid(pairs, fill, kind):
    m = movement(pairs, kind=kind, fill=fill)
    assert check_movement(m) == []
    assert m.pairs == pairs + (pairs % 2 if fill == "bot" else 0)
    assert (m.bot_pair is not None) == (fill == "bot" and pairs % 2 == 1)


@given(
    pairs=st.integers(4, 20),
    kind=st.sampled_from(["howell", "mitchell"]),
    fill=st.sampled_from(FILLS),
    per_round=st.integers(1, 4),
    data=st.data(),
)
def test_movements_cut_short_stay_valid(pairs, kind, fill, per_round, data):
    full = len(movement(pairs, kind=kind, fill=fill).rounds)
    rounds = data.draw(st.integers(1, full))
    m = movement(pairs, kind=kind, fill=fill, rounds=rounds, boards=rounds * per_round)
    assert check_movement(m) == []
    assert len(m.rounds) == rounds and m.per_round == per_round


@pytest.mark.parametrize("pairs", range(4, 21))
def test_a_complete_howell_is_a_round_robin_with_both_directions(pairs):
    m = movement(pairs, kind="howell", fill="bot")
    meetings = {frozenset((t.ns, t.ew)) for r in m.rounds for t in r.tables}
    assert len(meetings) == m.pairs * (m.pairs - 1) // 2
    for pair in range(1, m.pairs + 1):
        ns = sum(t.ns == pair for r in m.rounds for t in r.tables)
        ew = sum(t.ew == pair for r in m.rounds for t in r.tables)
        assert abs(ns - ew) <= 1, (pair, ns, ew)


@pytest.mark.parametrize("pairs", range(4, 21))
def test_a_complete_mitchell_meets_every_opposite_pair_once(pairs):
    m = movement(pairs, kind="mitchell")
    ns_pairs = {t.ns for r in m.rounds for t in r.tables}
    for ew in {t.ew for r in m.rounds for t in r.tables}:
        met = [t.ns for r in m.rounds for t in r.tables if t.ew == ew]
        assert sorted(met) == sorted(ns_pairs) or pairs % 2  # an odd field misses its phantom
        assert len(met) == len(set(met))
    assert all(m.direction(p) == ("NS" if p <= m.tables else "EW") for p in range(1, pairs + 1))


def test_check_movement_finds_a_board_played_twice():
    m = movement(6)
    broken = type(m)(m.kind, m.pairs, m.tables, m.boards, (m.rounds[0], m.rounds[0]), None)
    assert any("twice" in p for p in check_movement(broken))


def test_auto_picks_a_howell_for_a_small_field_and_a_mitchell_for_a_large_one():
    assert movement(10).kind == "howell"
    assert movement(11).kind == "mitchell"


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"pairs": 3}, "4 to 200 pairs"),
        ({"pairs": 8, "kind": "mitchell", "rounds": 5}, "has 4 rounds"),
        ({"pairs": 6, "boards": 7}, "choose 5 or 10"),
        ({"pairs": 6, "kind": "swiss"}, "unknown movement"),
    ],
)
def test_a_movement_that_cannot_be_made_says_why(kwargs, words):
    pairs = kwargs.pop("pairs")
    with pytest.raises(MovementError, match=words):
        movement(pairs, **kwargs)


def test_the_movement_command_prints_the_issues_json():
    status, out, err = _run("movement", "--pairs", "7", "--kind", "mitchell", "--json")
    assert status == 0, err
    data = json.loads(out)
    assert set(data) >= {"kind", "pairs", "tables", "boards", "rounds"}
    assert (data["kind"], data["pairs"], data["tables"]) == ("mitchell", 7, 4)
    first = data["rounds"][0]
    assert set(first) == {"round", "tables", "sitout"} and first["sitout"] == [4]
    assert set(first["tables"][0]) == {"table", "ns", "ew", "boards"}


@pytest.mark.parametrize(
    "args",
    [
        ["--pairs", "2"],
        ["--pairs", "8", "--kind", "mitchell", "--rounds", "9"],
        ["--pairs", "6", "--boards", "7"],
    ],
)
def test_a_movement_that_does_not_fit_exits_2_with_the_reason(args):
    status, out, err = _run("movement", *args, "--json")
    assert status == 2 and out == ""
    assert err.startswith("error: ") and len(err.splitlines()) == 1
