import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from trainer.core import seeding

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaders(monkeypatch):
    """An empty, isolated LOADERS registry for one test."""
    registry: dict[str, seeding.Loader] = {}
    monkeypatch.setattr(seeding, "LOADERS", registry)
    return registry


def test_seed_command_runs_twice():
    call_command("seed")
    call_command("seed")


def test_seed_dispatches_on_kind(tmp_path: Path, loaders):
    seen = []
    seeding.register("greeting")(lambda data, *, source: seen.append((data, source)) or 1)
    (tmp_path / "hello.yaml").write_text("kind: greeting\ntext: hi\n")
    (tmp_path / "more.json").write_text(json.dumps({"kind": "greeting", "text": "yo"}))
    (tmp_path / "notes.txt").write_text("ignored")

    results = seeding.load_all(tmp_path)

    assert [r.kind for r in results] == ["greeting", "greeting"]
    assert [data["text"] for data, _ in seen] == ["hi", "yo"]
    assert seen[0][1] == tmp_path / "hello.yaml"


def test_unknown_kind_is_an_error(tmp_path: Path, loaders):
    (tmp_path / "odd.yaml").write_text("kind: mystery\n")

    with pytest.raises(CommandError, match="unknown kind 'mystery'"):
        call_command("seed", "--dir", str(tmp_path))


def test_file_without_kind_is_an_error(tmp_path: Path, loaders):
    (tmp_path / "bare.yaml").write_text("- just\n- a list\n")

    with pytest.raises(seeding.SeedError, match="mapping"):
        seeding.load_all(tmp_path)


def test_registering_a_kind_twice_is_an_error(loaders):
    seeding.register("once")(lambda data, *, source: 0)

    with pytest.raises(ValueError, match="already registered"):
        seeding.register("once")(lambda data, *, source: 0)
