"""scripts/reading_ceiling.py: its readers play legal moves only, its ``signal`` row is the
tournament's, and a reader told more than the signal says does better on the same deals."""

import importlib.util
import sys
from pathlib import Path

import pytest

from engine.tournament import PairSpec, TournamentSpec, run_tournament

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ceiling():
    spec = importlib.util.spec_from_file_location(
        "reading_ceiling", ROOT / "scripts" / "reading_ceiling.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["reading_ceiling"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rule", ["classic", "contribution"])
def test_the_signal_row_is_the_tournaments(ceiling, rule):
    diffs = ceiling._play_boards(("signal", rule, "teach-yourself-1994", 3, 0, 12))
    spec = TournamentSpec(
        PairSpec("signal", "teach-yourself-1994"), PairSpec("greedy"), 12, 3, rule
    )
    assert sum(diffs) / len(diffs) == pytest.approx(
        run_tournament(spec).diff, abs=1e-4
    )  # the tournament rounds to 4 places


def test_readers_told_more_do_better_on_the_same_deals(ceiling):
    # Every move of every reader goes through DealState.apply_action, which refuses an
    # illegal one; 60 boards are enough for the order, which is wide on any deals.
    means = {
        variant: sum(d := ceiling._play_boards((variant, "classic", "parlett-2008", 1, 0, 60)))
        / len(d)
        for variant in ceiling.VARIANTS
    }
    assert means["signal"] < means["shown"] < means["all"]
