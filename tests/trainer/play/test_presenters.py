"""The table's steps read as play: a hand's first card is led, later ones are played."""

from __future__ import annotations

from engine.play import PlaySetup, PlayTable, actions_json
from engine.seats import Seat
from trainer.play import presenters, selectors
from trainer.play.models import Game


def _lines(setup: PlaySetup, actions=None):
    if actions is None:
        table, steps = PlayTable.start(setup)
    else:
        table = PlayTable.replay(setup, actions[:-1])
        steps = table.act(actions[-1])
    game = Game(pk=1, setup=setup.to_json(), actions=actions_json(table.actions))
    shown = selectors.shown(table, game, owner=True, steps=steps)
    ctx = presenters.table_context(game=game, shown=shown, owner=True, attempts=dict)
    return [f"{s.text} {s.hand_end}".strip() for s in ctx["steps"]], steps


def test_the_first_card_of_each_hand_is_led_and_the_rest_played():
    setup = PlaySetup(seed=7)
    lines, steps = _lines(setup)
    assert lines[0].startswith("East leads ")
    # Every step that starts a hand (none of its hand's actions before it) says "leads".
    counts: dict[tuple[int, int], int] = {}
    for line, step in zip(lines, steps, strict=True):
        key = (step.deal_number, step.hand_number)
        first = key not in counts
        counts[key] = counts.get(key, 0) + 1
        if step.action.is_play:
            assert ("leads" in line) == first, line


def test_a_card_played_into_partners_hand_is_not_a_lead():
    setup = PlaySetup(seed=7)
    table, _ = PlayTable.start(setup)
    # Play until South follows a hand someone else led, then check South's own line.
    import random

    rng = random.Random(0)
    while not table.is_over():
        view = table.view()
        if view.current and view.current[0][0] is not Seat.S:
            card = next(a for a in table.legal() if a.is_play)
            lines, _ = _lines(setup, [*table.actions, card])
            assert lines[0].startswith("You play "), lines[0]
            return
        table.act(rng.choice(table.legal()))
    raise AssertionError("South never followed")


def test_the_step_that_ends_a_deal_says_so():
    import random

    setup = PlaySetup(seed=21)
    table, _ = PlayTable.start(setup)
    rng = random.Random(2)
    while True:
        before = table.actions
        action = rng.choice(table.legal())
        steps = PlayTable.replay(setup, before).act(action)
        if any(s.deal_finished for s in steps):
            lines, _ = _lines(setup, [*before, action])
            ends = [line for line in lines if "Deal 1 is over." in line]
            assert len(ends) == 1
            return
        table.act(action)
