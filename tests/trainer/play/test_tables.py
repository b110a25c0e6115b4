"""Tables kept between requests: the same table a replay builds, never shared while borrowed,
back in the store when the block ends, dropped when it fails half-way."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.conf import settings

from engine.game import PASS
from engine.play import IllegalPlay, PlaySetup, PlayTable, actions_json
from trainer.play import tables
from trainer.play.models import Game


@pytest.fixture(autouse=True)
def _empty_store():
    tables.clear()
    yield
    tables.clear()


def _game(setup: PlaySetup, table: PlayTable) -> Game:
    """A game row (unsaved) holding ``table``'s record."""
    return Game(setup=setup.to_json(), actions=actions_json(table.actions))


def test_a_kept_table_is_the_one_the_record_replays_to():
    setup = PlaySetup(seed=11)
    table, _ = PlayTable.start(setup)
    rng = random.Random(1)
    game = _game(setup, table)
    with tables.borrowed(game) as first:  # a miss: replayed from the record
        assert first.view() == table.view()
    for _ in range(12):
        if first.is_over():
            break
        with tables.borrowed(game) as taken:
            assert taken is first  # kept, not replayed
            taken.act(rng.choice(taken.legal()))
            game.actions = actions_json(taken.actions)
        assert taken.view() == PlayTable.replay(setup, taken.actions).view()


def test_a_borrowed_table_is_not_handed_out_twice():
    setup = PlaySetup(seed=12)
    table, _ = PlayTable.start(setup)
    game = _game(setup, table)
    with tables.borrowed(game) as first, tables.borrowed(game) as second:
        assert second is not first  # rebuilt by the engine while the first is out
        assert second.view() == first.view()


def test_an_engine_refusal_keeps_the_table_and_another_error_drops_it():
    setup = PlaySetup(seed=7)  # South leads hand 2: a pass is refused
    table, _ = PlayTable.start(setup)
    game = _game(setup, table)
    with pytest.raises(IllegalPlay), tables.borrowed(game) as kept:
        kept.act(PASS)
    with tables.borrowed(game) as again:
        assert again is kept
    with pytest.raises(RuntimeError), tables.borrowed(game) as dropped:
        raise RuntimeError("half-way through")
    with tables.borrowed(game) as fresh:
        assert fresh is not dropped


def test_the_store_keeps_a_bounded_number_of_tables(monkeypatch):
    monkeypatch.setattr(tables, "store", tables.TableStore(3))
    for seed in range(5):
        setup = PlaySetup(seed=seed)
        game = _game(setup, PlayTable.start(setup)[0])
        game.pk = seed + 1  # (kept by game id and version)
        with tables.borrowed(game):
            pass
    assert len(tables.store) == 3


def test_a_table_shared_with_readers_is_copied_to_borrow():
    setup = PlaySetup(seed=11)
    table, _ = PlayTable.start(setup)
    game = _game(setup, table)
    read = tables.store.read(game, lambda: table)
    with tables.borrowed(game) as taken:
        assert taken is not read and taken.view() == read.view()


def test_only_the_play_services_borrow_tables():
    """Views, selectors and presenters get what a page shows of a table, never a table from
    the store: the borrowing stays inside ``services.py``."""
    app = Path(settings.BASE_DIR) / "trainer/play"
    borrowers = sorted(
        p.name
        for p in app.rglob("*.py")
        if p.name != "tables.py" and "tables.borrowed" in p.read_text(encoding="utf-8")
    )
    assert borrowers == ["services.py"]
