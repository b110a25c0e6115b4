"""Play records: ``record_json`` is ``playout``'s JSON plus setup and actions, and replaying the
stored records (``tests/engine/play/play_records``) reproduces their scores, in Python and through
``python -m engine replay``."""

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.commands import run_playout
from engine.errors import ConcertoError
from engine.play import IllegalPlay, PlaySetup, PlayTable, record_json, replay_record
from engine.play.commands import replay_text

RECORDS = sorted((Path(__file__).parent / "play_records").glob("*.json"))
ROOT = Path(__file__).resolve().parents[3]


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def finished(setup: PlaySetup, seed: int = 0) -> PlayTable:
    table, _ = PlayTable.start(setup)
    rng = random.Random(seed)
    while not table.is_over():
        table.act(rng.choice(table.legal()))
    return table


def test_there_are_stored_records_of_deals_and_games():
    kinds = {load(p)["setup"]["game"] for p in RECORDS}
    assert len(RECORDS) >= 4 and kinds == {True, False}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_replaying_a_stored_record_reproduces_it(path):
    record = load(path)
    assert replay_record(record) == record


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_replaying_setup_and_actions_alone_reproduces_the_scores(path):
    record = load(path)
    again = replay_record({"setup": record["setup"], "actions": record["actions"]})
    for field in ("deals", "totals", "game_bonus", "final", "winner"):
        assert again[field] == record[field]


def test_a_record_has_the_playout_fields():
    setup = PlaySetup(seed=5, game=True)
    table = finished(setup)
    record = record_json(setup, table.actions)
    import argparse

    playout = run_playout(argparse.Namespace(seed=5, seed_arg=None, rule="classic", dealer="N"))
    assert set(record) == set(playout) | {"setup", "actions"}
    assert record["deals"][0]["hands"] == playout["deals"][0]["hands"]  # the same first deal
    assert record["actions"] == [str(a) for a in table.actions]
    assert record["setup"] == setup.to_json()


def test_a_single_deals_record_is_one_deal_without_a_game_bonus():
    setup = PlaySetup(seed=5)
    record = record_json(setup, finished(setup).actions)
    assert len(record["deals"]) == 1
    assert record["game_bonus"] == {"NS": 0, "EW": 0}
    assert record["final"] == record["deals"][0]["scores"] == record["totals"]


def test_no_record_before_the_end():
    setup = PlaySetup(seed=5)
    table, _ = PlayTable.start(setup)
    with pytest.raises(IllegalPlay, match="over"):
        record_json(setup, table.actions)


def test_a_record_with_altered_scores_does_not_replay():
    record = load(RECORDS[0])
    tampered = copy.deepcopy(record)
    tampered["final"]["NS"] += 1
    with pytest.raises(IllegalPlay, match="final"):
        replay_record(tampered)


def test_a_record_with_an_illegal_action_does_not_replay():
    record = load(RECORDS[0])
    tampered = copy.deepcopy(record)
    tampered["actions"][0] = "pass"
    with pytest.raises(IllegalPlay, match="action 1"):
        replay_record(tampered)


@pytest.mark.parametrize(
    "data",
    [[], {"setup": {"seed": 1}}, {"actions": []}, {"setup": {"seed": 1}, "actions": "5H"}],
)
def test_malformed_records_are_refused(data):
    with pytest.raises(ConcertoError):  # a ValueError
        replay_record(data)


def test_replay_text_reads_a_document_a_list_or_json_lines():
    records = [load(p) for p in RECORDS[:2]]
    one = replay_text(json.dumps(records[0], indent=2))
    assert json.loads(one) == records[0]
    listed = replay_text(json.dumps(records)).splitlines()
    lines = replay_text("\n".join(json.dumps(r) for r in records) + "\n").splitlines()
    assert [json.loads(x) for x in listed] == [json.loads(x) for x in lines] == records


def test_the_replay_command_prints_the_record(monkeypatch, capsys):
    from engine.cli import main

    record = load(RECORDS[1])
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record, indent=1)))
    assert main(["replay"]) == 0
    assert json.loads(capsys.readouterr().out) == record


def test_the_replay_command_names_a_bad_record(monkeypatch, capsys):
    from engine.cli import main

    good = json.dumps(load(RECORDS[0]))
    monkeypatch.setattr(sys, "stdin", io.StringIO(good + "\n" + '{"setup": {"seed": 1}}\n'))
    assert main(["replay"]) == 2
    assert "line 2" in capsys.readouterr().err


def test_python_m_engine_replay_from_stdin():
    path = RECORDS[0]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay"],
        input=path.read_text(),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == load(path)
