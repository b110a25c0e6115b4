"""Tables kept between requests, so a learner's next action does not replay the whole record.

A table is a pure function of its setup and action list (the engine replays a record exactly),
so a table built for one request can serve the next one on the same record. A request
*borrows* the table of a game's record for a block::

    with tables.borrowed(game) as table:
        steps = table.act(action)

Inside the block the table is the request's alone (it is out of the store, so no two requests
share one); when the block ends it goes back, kept under the record it has reached. A miss
replays the record with the engine. Each process keeps its own few hundred tables; nothing
here is shared or written anywhere. Only the play services borrow (``services.py``).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from engine.errors import ConcertoError
from engine.play import PlaySetup, PlayTable, actions_json, parse_actions
from trainer.play.models import Game

#: Tables kept per process (the games being played at the moment).
KEEP = 256

_lock = threading.Lock()
_tables: OrderedDict[tuple[str, tuple[str, ...]], PlayTable] = OrderedDict()


def _key(setup: Mapping[str, Any], actions: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    return json.dumps(setup, sort_keys=True), tuple(actions)


def _keep(setup: Mapping[str, Any], table: PlayTable) -> None:
    key = _key(setup, actions_json(table.actions))
    with _lock:
        _tables[key] = table
        _tables.move_to_end(key)
        while len(_tables) > KEEP:
            _tables.popitem(last=False)


@contextmanager
def borrowed(game: Game) -> Iterator[PlayTable]:
    """The table of ``game``'s record (its setup and actions as stored), the caller's alone
    for the block: a kept one, else replayed by the engine (``IllegalPlay`` if the record does
    not replay). It is kept again, under the record it has reached, when the block ends or
    the engine refuses something (an engine refusal changes nothing); any other error drops
    it, since the table may be half-way through a change."""
    setup = game.setup
    with _lock:
        table = _tables.pop(_key(setup, game.actions), None)
    if table is None:
        table = PlayTable.replay(PlaySetup.from_json(setup), parse_actions(game.actions))
    try:
        yield table
    except ConcertoError:
        _keep(setup, table)
        raise
    _keep(setup, table)


def clear() -> None:
    with _lock:
        _tables.clear()
