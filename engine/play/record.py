"""Records: a deal or a game as its setup and action list, scored as ``playout`` prints a game.

:func:`record_json` is ``playout``'s JSON (rule, seed, every deal with its hands, the eight
hands, left-overs and scores, then totals, game bonus, final scores and the winner) plus
``"setup"`` and ``"actions"``. A single deal is scored as a game of that one deal without a game
bonus. :func:`replay_record` rebuilds the table from ``setup`` and ``actions`` alone and scores
it again; ``python -m engine replay < record.json`` prints the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.commands import deal_json, game_json
from engine.play.setup import IllegalPlay, PlaySetup
from engine.play.table import PlayTable

__all__ = ["SCORED_FIELDS", "record_json", "replay_record"]

#: The fields of a record that a replay recomputes (and checks, when a record carries them).
SCORED_FIELDS: tuple[str, ...] = (
    "rule",
    "seed",
    "deals",
    "totals",
    "game_bonus",
    "final",
    "winner",
)


def _table_json(table: PlayTable) -> dict[str, Any]:
    setup = table.setup
    if setup.game:
        return {"rule": setup.rule, "seed": setup.seed, **game_json(table.state)}
    outcome = table.outcome()
    return {
        "rule": setup.rule,
        "seed": setup.seed,
        "deals": [deal_json(table.deal)],
        "totals": dict(outcome.totals),
        "game_bonus": dict(outcome.game_bonus),
        "final": dict(outcome.final),
        "winner": outcome.winner if outcome.winner is not None else "draw",
    }


def record_json(setup: PlaySetup, actions: Sequence[str]) -> dict[str, Any]:
    """The record of a finished deal or game: ``playout``'s JSON plus ``setup`` and
    ``actions``. Raises :class:`IllegalPlay` if the actions do not replay or it is not over
    (the seed must not leave the server before the end)."""
    table = PlayTable.replay(setup, actions)
    if not table.is_over():
        raise IllegalPlay(
            "the record exists once the " + ("game" if setup.game else "deal") + " is over"
        )
    return {**_table_json(table), "setup": setup.to_json(), "actions": list(table.actions)}


def replay_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a record again from its ``setup`` and ``actions``: the same JSON as
    :func:`record_json`. Scored fields the record carries must equal the replay's, else
    :class:`IllegalPlay` names the first that differs."""
    if not isinstance(data, Mapping):
        raise IllegalPlay(f"a record is a JSON object, not {type(data).__name__}")
    if "setup" not in data or "actions" not in data:
        raise IllegalPlay("a record needs its setup and its actions")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise IllegalPlay("a record's actions are a list of text (7H, pass, force)")
    setup = PlaySetup.from_json(data["setup"])
    out = record_json(setup, actions)
    for name in SCORED_FIELDS:
        if name in data and data[name] != out[name]:
            raise IllegalPlay(f"the record's {name} differ from its replay")
    return out
