"""Load seed files from ``seeds/`` into the database.

Each seed file is YAML (``*.yaml``/``*.yml``), JSON (``*.json``) or Markdown with YAML front
matter (``*.md``; the text becomes the ``body`` key) holding one mapping whose
top-level ``kind`` key picks a loader from :data:`LOADERS`. A loader receives the whole
mapping and the file's path, must be idempotent (running ``manage.py seed`` twice changes
nothing the second time, e.g. via ``update_or_create``), and returns how many objects it
created or updated::

    # trainer/seed_loaders.py — any installed app's ``seed_loaders`` module is imported
    # by discover_loaders() before seeding, so registering there is enough.
    from trainer.core.seeding import register

    @register("demo_class")
    def load_demo_class(data: Mapping[str, Any], *, source: Path) -> int:
        ...
        return 1

Files are loaded in path order, each inside its own transaction.
"""

import json
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.db import transaction
from django.utils.module_loading import autodiscover_modules

Loader = Callable[..., int]

#: ``kind`` → loader; filled in by :func:`register` in the modules that own each kind.
LOADERS: dict[str, Loader] = {}

SEED_SUFFIXES = frozenset({".yaml", ".yml", ".json"})
#: Markdown files are seeds only when they open with YAML front matter (``---`` lines); the
#: text after it becomes the mapping's ``body``. Other Markdown (a README) is not a seed.
FRONT_MATTER_SUFFIXES = frozenset({".md"})
_FRONT_MATTER = "---"


class SeedError(ValueError):
    """A seed file that cannot be loaded: unreadable, not a mapping, or an unknown ``kind``."""


@dataclass(frozen=True, slots=True)
class SeedResult:
    """What loading one file did."""

    path: Path
    kind: str
    count: int


def register(kind: str) -> Callable[[Loader], Loader]:
    """Decorator adding a loader to :data:`LOADERS` under ``kind``."""

    def decorate(loader: Loader) -> Loader:
        if kind in LOADERS and LOADERS[kind] is not loader:
            raise ValueError(f"seed kind already registered: {kind!r}")
        LOADERS[kind] = loader
        return loader

    return decorate


def discover_loaders() -> None:
    """Import ``<app>.seed_loaders`` for every installed app, registering their loaders."""
    autodiscover_modules("seed_loaders")


def default_seed_dir() -> Path:
    return Path(getattr(settings, "SEED_DIR", settings.BASE_DIR / "seeds"))


def seed_files(directory: Path) -> Iterator[Path]:
    """Seed files under ``directory`` (recursively), in a stable order."""
    if not directory.is_dir():
        return
    for path in sorted(directory.rglob("*")):
        if (path.is_file() and path.suffix.lower() in SEED_SUFFIXES) or (
            path.is_file()
            and path.suffix.lower() in FRONT_MATTER_SUFFIXES
            and _has_front_matter(path)
        ):
            yield path


def _has_front_matter(path: Path) -> bool:
    with path.open(encoding="utf-8", errors="replace") as handle:
        return handle.readline().rstrip() == _FRONT_MATTER


def _split_front_matter(text: str) -> dict[str, Any]:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != _FRONT_MATTER:
        raise ValueError("no front matter: the file must open with a '---' line")
    for end in range(1, len(lines)):
        if lines[end].rstrip() == _FRONT_MATTER:
            data = yaml.safe_load("".join(lines[1:end]))
            if not isinstance(data, dict):
                raise ValueError("the front matter must be a mapping")
            return {**data, "body": "".join(lines[end + 1 :]).strip("\n") + "\n"}
    raise ValueError("the front matter has no closing '---' line")


def read_seed(path: Path) -> dict[str, Any]:
    """Parse one seed file into a mapping with a string ``kind``."""
    try:
        text = path.read_text(encoding="utf-8")
        suffix = path.suffix.lower()
        if suffix in FRONT_MATTER_SUFFIXES:
            data = _split_front_matter(text)
        else:
            data = json.loads(text) if suffix == ".json" else yaml.safe_load(text)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise SeedError(f"cannot read seed file {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise SeedError(f"seed file {path} must hold a mapping with a 'kind' key")
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        raise SeedError(f"seed file {path} has no 'kind' key")
    return data


#: The files loaded so far by the :func:`load_all` running in this context, by resolved path: a
#: loader that loads other files first (the demo's ``requires:``) does not make the run load
#: them twice.
_LOADED: ContextVar[dict[Path, SeedResult] | None] = ContextVar("seed_loaded", default=None)


def load_file(path: Path) -> SeedResult:
    """Load one seed file through the loader registered for its ``kind`` (once per
    :func:`load_all`)."""
    loaded = _LOADED.get()
    key = path.resolve()
    if loaded is not None and key in loaded:
        return loaded[key]
    discover_loaders()
    data = read_seed(path)
    kind = data["kind"]
    loader = LOADERS.get(kind)
    if loader is None:
        known = ", ".join(sorted(LOADERS)) or "none registered"
        raise SeedError(f"seed file {path}: unknown kind {kind!r} (known: {known})")
    with transaction.atomic():
        count = loader(data, source=path)
    result = SeedResult(path=path, kind=kind, count=count)
    if loaded is not None:
        loaded[key] = result
    return result


def load_all(directory: Path | None = None) -> list[SeedResult]:
    """Load every seed file under ``directory`` (default ``seeds/``), each once (also when a
    loader runs another ``load_all``)."""
    discover_loaders()
    outer = _LOADED.get()
    token = _LOADED.set({} if outer is None else outer)
    try:
        return [load_file(path) for path in seed_files(directory or default_seed_dir())]
    finally:
        _LOADED.reset(token)
