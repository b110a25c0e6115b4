"""Records: a deal or a game as its setup and action list, scored as ``playout`` prints a game.

:func:`record_json` is ``playout``'s JSON (rule, seed, every deal with its hands, the eight
hands, left-overs and scores, then totals, game bonus, final scores and the winner) plus
``"setup"`` and ``"actions"``. A single deal is scored as a game of that one deal without a game
bonus. :func:`replay_record` rebuilds the table from ``setup`` and ``actions`` alone and scores
it again; ``python -m engine replay < record.json`` prints the result.

A record keeps its actions as text (``7H``, ``pass``, ``force``): :func:`parse_actions` reads
them into :class:`~engine.game.Action` values and :func:`actions_json` writes them back, so
the engine works in actions and only a record (a file, the trainer's database row) is text.

>>> actions = parse_actions(["7h", "Pass", "force"])
>>> actions
(Action.parse('7H'), Action.parse('pass'), Action.parse('force'))
>>> actions_json(actions)
['7H', 'pass', 'force']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.commands import deal_json, game_json
from engine.errors import ConcertoError
from engine.game import Action
from engine.messages import Msg, Text
from engine.play.setup import IllegalPlay, PlaySetup, reason
from engine.play.table import PlayTable

__all__ = ["SCORED_FIELDS", "actions_json", "parse_actions", "record_json", "replay_record"]

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
        return {"rule": setup.rule.name, "seed": setup.seed, **game_json(table.state)}
    outcome = table.outcome()
    return {
        "rule": setup.rule.name,
        "seed": setup.seed,
        "deals": [deal_json(table.deal)],
        "totals": dict(outcome.totals),
        "game_bonus": dict(outcome.game_bonus),
        "final": dict(outcome.final),
        "winner": outcome.winner if outcome.winner is not None else "draw",
    }


def parse_actions(data: object) -> tuple[Action, ...]:
    """A record's actions (a list of text: ``7H``, ``pass``, ``force``) as actions. Raises
    :class:`IllegalPlay` for anything else, naming the first entry that is no action."""
    if not isinstance(data, list | tuple) or not all(isinstance(a, str) for a in data):
        raise IllegalPlay(Msg("error.record.actions_not_text"))
    actions = []
    for number, text in enumerate(data, start=1):
        try:
            actions.append(Action.parse(text))
        except ConcertoError as exc:
            raise IllegalPlay(
                Msg(
                    "error.play.record_action",
                    number=number,
                    action=Text(repr(text)),
                    reason=reason(exc),
                )
            ) from None
    return tuple(actions)


def actions_json(actions: Iterable[Action]) -> list[str]:
    """Actions as a record keeps them: ``["7H", "pass", "force"]``."""
    return [str(a) for a in actions]


def record_json(setup: PlaySetup, actions: Sequence[Action]) -> dict[str, Any]:
    """The record of a finished deal or game: ``playout``'s JSON plus ``setup`` and
    ``actions`` (as text). Raises :class:`IllegalPlay` if the actions do not replay or it is
    not over (the seed must not leave the server before the end)."""
    table = PlayTable.replay(setup, actions)
    if not table.is_over():
        raise IllegalPlay(
            Msg("error.record.game_not_over" if setup.game else "error.record.deal_not_over")
        )
    return {
        **_table_json(table),
        "setup": setup.to_json(),
        "actions": actions_json(table.actions),
    }


def replay_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a record again from its ``setup`` and ``actions``: the same JSON as
    :func:`record_json`. Scored fields the record carries must equal the replay's, else
    :class:`IllegalPlay` names the first that differs."""
    if not isinstance(data, Mapping):
        raise IllegalPlay(Msg("error.record.not_an_object", type=Text(type(data).__name__)))
    if "setup" not in data or "actions" not in data:
        raise IllegalPlay(Msg("error.record.incomplete"))
    if not isinstance(data["actions"], list):
        raise IllegalPlay(Msg("error.record.actions_not_text"))
    actions = parse_actions(data["actions"])
    setup = PlaySetup.from_json(data["setup"])
    out = record_json(setup, actions)
    for name in SCORED_FIELDS:
        if name in data and data[name] != out[name]:
            raise IllegalPlay(Msg("error.record.differs", field=Text(name)))
    return out
