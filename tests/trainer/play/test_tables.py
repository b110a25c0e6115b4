"""Tables kept between requests: the same table a replay builds, never shared while in use."""

from __future__ import annotations

import random

from engine.play import PlaySetup, PlayTable
from trainer.play import tables


def test_a_kept_table_is_the_one_the_record_replays_to():
    tables.clear()
    setup = PlaySetup(seed=11)
    table, _ = PlayTable.start(setup)
    rng = random.Random(1)
    data = setup.to_json()
    for _ in range(12):
        if table.is_over():
            break
        tables.put(data, table)
        taken = tables.take(data, table.actions)
        assert taken is table  # kept, not replayed
        taken.act(rng.choice(taken.legal()))
        assert taken.view() == PlayTable.replay(setup, taken.actions).view()
        table = taken


def test_a_table_in_use_is_not_handed_out_twice():
    tables.clear()
    setup = PlaySetup(seed=12)
    table, _ = PlayTable.start(setup)
    tables.put(setup.to_json(), table)
    first = tables.take(setup.to_json(), table.actions)
    second = tables.take(setup.to_json(), table.actions)
    assert first is table
    assert second is not table  # rebuilt by the engine
    assert second.view() == table.view()


def test_the_store_keeps_a_bounded_number_of_tables(monkeypatch):
    tables.clear()
    monkeypatch.setattr(tables, "KEEP", 3)
    for seed in range(5):
        table, _ = PlayTable.start(PlaySetup(seed=seed))
        tables.put(PlaySetup(seed=seed).to_json(), table)
    assert len(tables._tables) == 3
    tables.clear()
