"""Tables kept between requests, so a learner's next action does not replay the whole record.

A table is a pure function of its setup and action list (the engine replays a record exactly),
so a table built for one request can serve the next one on the same record: it is kept under
``(setup, actions)`` and *taken* out while a request uses it (no two requests share one), then
*put* back under the record it has reached. A miss replays the record with the engine. Each
process keeps its own few hundred tables; nothing here is shared or written anywhere.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from engine.play import PlaySetup, PlayTable

#: Tables kept per process (the games being played at the moment).
KEEP = 256

_lock = threading.Lock()
_tables: OrderedDict[tuple[str, tuple[str, ...]], PlayTable] = OrderedDict()


def _key(setup: dict[str, Any], actions: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    return json.dumps(setup, sort_keys=True), tuple(actions)


def take(setup: dict[str, Any], actions: Sequence[str]) -> PlayTable:
    """The table after ``actions``: a kept one (removed from the store while in use), else
    replayed by the engine (``IllegalPlay`` if the record does not replay)."""
    key = _key(setup, actions)
    with _lock:
        table = _tables.pop(key, None)
    if table is None:
        table = PlayTable.replay(PlaySetup.from_json(setup), actions)
    return table


def put(setup: dict[str, Any], table: PlayTable) -> None:
    """Keep ``table`` for the next request on its record (the oldest kept one goes)."""
    key = _key(setup, table.actions)
    with _lock:
        _tables[key] = table
        _tables.move_to_end(key)
        while len(_tables) > KEEP:
            _tables.popitem(last=False)


def clear() -> None:
    with _lock:
        _tables.clear()
