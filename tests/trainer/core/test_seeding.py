import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from trainer.core import seeding

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaders(monkeypatch):
    """An empty, isolated LOADERS registry for one test. The apps' loaders are imported first:
    imported while the registry is swapped, they would register into it and be lost for every
    later test in the process."""
    seeding.discover_loaders()
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


def test_a_file_loaded_first_by_another_loader_is_loaded_once_per_run(tmp_path: Path, loaders):
    seen = []
    seeding.register("greeting")(lambda data, *, source: seen.append(source.name) or 1)

    @seeding.register("bundle")
    def bundle(data, *, source):
        return seeding.load_file(source.parent / data["first"]).count + 1

    (tmp_path / "a-bundle.yaml").write_text("kind: bundle\nfirst: b-hello.yaml\n")
    (tmp_path / "b-hello.yaml").write_text("kind: greeting\n")

    results = seeding.load_all(tmp_path)

    assert seen == ["b-hello.yaml"]
    assert [(r.path.name, r.count) for r in results] == [("a-bundle.yaml", 2), ("b-hello.yaml", 1)]
    seeding.load_all(tmp_path)
    assert seen == ["b-hello.yaml", "b-hello.yaml"]  # once per run, not once per process
