"""The engine tables kept between requests and frames, so a next action or frame does not
replay the whole record.

A table is a pure function of its record (the engine replays a record exactly), so a table
built for one request can serve the next one on the same record. One store per process,
:data:`store`, keeps the last :data:`KEEP` tables by (game id, version: the number of actions
recorded), in a :class:`cachetools.LRUCache` behind a lock (the threads that serve requests and
build frames share it). A kept table is used only for the same stored setup and actions (and
the same ``shape``: at a live table, the seats people play, those handed to a bot and the
signals bots made for them), so a game id used again (after a restore) never shows another deal.

Two ways to use it:

- a solo game's service *borrows* the table for a block::

      with tables.borrowed(game) as table:
          steps = table.act(action)

  Inside the block the table is the request's alone (it is out of the store); when the block
  ends it goes back, kept under the record it has reached. Only the play services borrow
  (``services.py``).
- a live table's reads share one table per record (:meth:`TableStore.read`), never changed:
  a move acts on a :meth:`~engine.play.PlayTable.copy` and keeps it for the frames that show it.

A miss replays the record with the engine. Nothing here is shared between processes.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache

from engine.errors import ConcertoError
from engine.play import PlaySetup, PlayTable, actions_json, parse_actions
from trainer.play.models import Game

#: Tables kept per process (the games being played, solo and live, at the moment).
KEEP = 512

Key = tuple[int | None, int]


@dataclass
class _Kept:
    """A table and the record it was built from, as stored."""

    setup: dict[str, Any]
    actions: tuple[str, ...]
    shape: Hashable
    table: PlayTable
    #: Handed out to readers (:meth:`TableStore.read`): never changed, copied to borrow.
    shared: bool = False

    def matches(self, setup: Mapping[str, Any], actions: tuple[str, ...], shape: Hashable) -> bool:
        return self.actions == actions and self.shape == shape and self.setup == setup


def _record(game: Game) -> tuple[Key, tuple[str, ...]]:
    actions = tuple(game.actions) if isinstance(game.actions, list | tuple) else ()
    return (game.pk, len(actions)), actions


class TableStore:
    """Engine tables by (game id, version), the last ``size`` used (thread-safe)."""

    def __init__(self, size: int = KEEP) -> None:
        self._tables: LRUCache[Key, _Kept] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._tables)

    def read(self, game: Game, build: Callable[[], PlayTable], shape: Hashable = ()) -> PlayTable:
        """The table of ``game``'s record, shared with every other reader: only to read (a
        write acts on a copy). ``build`` replays the record on a miss."""
        key, actions = _record(game)
        with self._lock:
            found = self._tables.get(key)
            if found is not None and found.matches(game.setup, actions, shape):
                found.shared = True
                return found.table
        table = build()
        self._put(key, _Kept(copy.deepcopy(game.setup), actions, shape, table, shared=True))
        return table

    def take(self, game: Game, shape: Hashable = ()) -> PlayTable | None:
        """The table of ``game``'s record, out of the store and the caller's alone (a copy,
        if readers share it), or None."""
        key, actions = _record(game)
        with self._lock:
            found = self._tables.get(key)
            if found is None or not found.matches(game.setup, actions, shape):
                return None
            del self._tables[key]
        return found.table.copy() if found.shared else found.table

    def keep(
        self,
        game_id: int | None,
        setup: Mapping[str, Any],
        table: PlayTable,
        shape: Hashable = (),
        *,
        shared: bool = False,
    ) -> None:
        """Keep ``table`` under the record it has reached (``setup`` and its actions);
        ``shared``: readers may have it already (it is never changed again)."""
        actions = tuple(actions_json(table.actions))
        kept = _Kept(copy.deepcopy(dict(setup)), actions, shape, table, shared=shared)
        self._put((game_id, len(actions)), kept)

    def _put(self, key: Key, kept: _Kept) -> None:
        with self._lock:
            self._tables[key] = kept

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


#: The process's tables.
store = TableStore()


@contextmanager
def borrowed(game: Game) -> Iterator[PlayTable]:
    """The table of ``game``'s record (its setup and actions as stored), the caller's alone
    for the block: a kept one, else replayed by the engine (``IllegalPlay`` if the record does
    not replay). It is kept again, under the record it has reached, when the block ends or
    the engine refuses something (an engine refusal changes nothing); any other error drops
    it, since the table may be half-way through a change."""
    setup = game.setup
    table = store.take(game)
    if table is None:
        table = PlayTable.replay(PlaySetup.from_json(setup), parse_actions(game.actions))
    try:
        yield table
    except ConcertoError:
        store.keep(game.pk, setup, table)
        raise
    store.keep(game.pk, setup, table)


def clear() -> None:
    store.clear()
