"""Last-hand drills: every option is a legal way to complete the hand, and the key is the
option worth the most to the deal by an independent recount — the deal played on the engine's
own table and scored by the scoring rules (hand points, left-over values, the comparison with
its tie-break), not by the bots' valuation the drill is built from — with every other option at
least :data:`MARGIN` points below it. Over many seeds, both cards and both scoring rules."""

from __future__ import annotations

import pytest

from engine.cards import DECK
from engine.drills import DrillParams, answer_key, make_drill, skills_for
from engine.drills.kinds.last_hand import MARGIN, last_hand_state, play_fill
from engine.scoring import best_five, leftover_bonus, score_hand
from engine.seats import Side
from engine.signals import CONVENTIONS

SETTINGS = [(c, r) for c in sorted(CONVENTIONS) for r in ("classic", "contribution")]


def recount(drill, fill) -> int:
    """What playing ``fill`` adds to the side's lead by the end of the deal, by the rules: the
    hand played on a real deal, the other side's best five of its eleven cards, then the
    left-over comparison of :func:`engine.scoring.leftover_bonus`."""
    before = drill.table.play_to_start(drill.params.rule).hand_scores()
    state = play_fill(last_hand_state(drill), fill)
    assert len(state.played_hands) == 7  # the learner's three cards completed the hand
    scores = state.hand_scores()
    seen = {*drill.hand, *drill.signal}
    seen |= {c for h in (*drill.completed, *drill.opponents) for c in h}
    theirs = [c for c in DECK if c not in seen]
    assert len(theirs) == 11
    _, five = best_five(theirs)
    ns = scores[Side.NS]
    ew = scores[Side.EW] + score_hand(five, drill.params.rule).points
    left = {
        Side.NS: [c for c in drill.hand if c not in fill],
        Side.EW: [c for c in theirs if c not in five],
    }
    bonus = leftover_bonus({Side.NS: ns, Side.EW: ew}, left, drill.params.rule)
    return (ns + bonus[Side.NS] - ew - bonus[Side.EW]) - (before[Side.NS] - before[Side.EW])


def _check(convention: str, rule: str, seeds: range) -> None:
    for skill in skills_for("last-hand"):
        params = DrillParams(convention=convention, rule=rule, items=(skill,))
        for seed in seeds:
            drill = make_drill("last-hand", seed, params)
            fills = {
                o.key: tuple(c for c in drill.hand if str(c) in o.key.split())
                for o in drill.options
            }
            assert all(len(f) == 3 for f in fills.values()), drill.options
            worth = {key: recount(drill, fill) for key, fill in fills.items()}
            key = answer_key(drill).preferred
            assert worth[key] == max(worth.values()), (seed, skill, worth, key)
            others = [w for k, w in worth.items() if k != key]
            assert others and all(worth[key] - w >= MARGIN for w in others), (seed, worth)


@pytest.mark.parametrize(("convention", "rule"), SETTINGS)
def test_the_key_is_the_best_option_by_a_recount_of_the_deal(convention, rule):
    _check(convention, rule, range(60))


@pytest.mark.slow
@pytest.mark.parametrize(("convention", "rule"), SETTINGS)
def test_the_key_is_the_best_option_over_thousands_of_deals(convention, rule):
    _check(convention, rule, range(60, 660))


def test_a_drill_shows_the_stakes_and_says_what_each_option_is_worth():
    drill = make_drill("last-hand", 4, DrillParams(items=("keep_low",)))
    assert "Hand scores so far" in drill.prompt and "Which three cards" in drill.prompt
    key = answer_key(drill)
    assert len(key.details) == len(drill.options) + 1  # one line an option, then "exactly"
    assert key.preferred in drill.option_keys
    assert drill.side_hand == 4 and len(drill.hand) == 9 and drill.signal[1] is not None


def test_the_cli_poses_a_last_hand_drill():
    import io
    import json

    from engine.cli import main

    out = io.StringIO()
    assert main(["drill", "last-hand", "4"], stdout=out, stderr=io.StringIO()) == 0
    drill = json.loads(out.getvalue())
    assert drill["kind"] == "last-hand" and len(drill["options"]) == 4
