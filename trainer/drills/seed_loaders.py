"""Loaders for the trainer's seed files (registered with :mod:`trainer.core.seeding`).

``drill_set`` — a curated drill set::

    kind: drill_set
    slug: strong-signals
    title: Strong signals
    position: 40
    entries:
      - {kind: lead, seed: 12, params: {items: four_sf, side_hand: 1}, expect: {skill: four_sf}}
      - {kind: read, seed: 7, expect: {answer: two_pair}}

Every entry is rebuilt by the engine at load time. ``expect`` is optional: ``skill`` must equal
the drill's skill and ``answer`` (a lead ``"c1 c2|pass"`` or an option key) must be graded right
by the engine, so a curated answer can never disagree with the engine: the load fails instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.drills import DrillParams, grade, make_drill, spec_for
from engine.errors import ConcertoError
from trainer.core.seeding import SeedError, register
from trainer.drills.models import DrillSet, DrillSetEntry


def _entry_params(raw: Any, where: str) -> DrillParams:
    if raw is None:
        return DrillParams()
    if not isinstance(raw, Mapping):
        raise SeedError(f"{where}: params must be a mapping")
    query = {k: ",".join(v) if isinstance(v, list) else str(v) for k, v in raw.items()}
    return DrillParams.from_query(query)


#: Entries this process has checked, by their JSON: the engine builds and grades the same drill
#: the same way, so a second seed in one process (the tests seed many times) skips them.
_CHECKED: dict[str, tuple[str, int, DrillParams]] = {}


def check_entry(raw: Any, where: str) -> tuple[str, int, DrillParams]:
    """Rebuild one entry with the engine and check its ``expect``; returns kind, seed, params."""
    if not isinstance(raw, Mapping):
        raise SeedError(f"{where}: an entry must be a mapping")
    try:
        key = json.dumps(raw, sort_keys=True, default=str)
    except TypeError:  # (keys of mixed types, as YAML's ``on:`` beside text keys)
        return _check_entry(raw, where)
    found = _CHECKED.get(key)
    if found is None:
        found = _check_entry(raw, where)
        _CHECKED[key] = found
    return found


def _check_entry(raw: Mapping[str, Any], where: str) -> tuple[str, int, DrillParams]:
    try:
        kind, seed = str(raw["kind"]), int(raw["seed"])
        params = _entry_params(raw.get("params"), where)
        drill = make_drill(kind, seed, params)
    except KeyError as exc:
        raise SeedError(f"{where}: missing {exc.args[0]!r}") from exc
    except (ConcertoError, TypeError, ValueError) as exc:
        raise SeedError(f"{where}: {exc}") from exc
    expect = raw.get("expect") or {}
    if "skill" in expect and expect["skill"] != drill.skill:
        raise SeedError(
            f"{where}: expected skill {expect['skill']!r}, the engine says {str(drill.skill)!r}"
        )
    if "answer" in expect:
        try:
            verdict = grade(drill, spec_for(kind).parse_text(drill, str(expect["answer"])))
        except ConcertoError as exc:
            raise SeedError(f"{where}: expected answer cannot be given: {exc}") from exc
        if not verdict.correct:
            raise SeedError(
                f"{where}: expected answer {expect['answer']!r} is wrong; "
                f"the engine says {verdict.expected}"
            )
    return kind, seed, params


@register("drill_set")
def load_drill_set(data: Mapping[str, Any], *, source: Path) -> int:
    slug = data.get("slug")
    entries = data.get("entries")
    if not slug or not isinstance(entries, list) or not entries:
        raise SeedError(f"{source}: a drill set needs a slug and a list of entries")
    checked = [check_entry(e, f"{source} entry {i}") for i, e in enumerate(entries, start=1)]
    drill_set, _ = DrillSet.objects.update_or_create(
        slug=slug,
        defaults={
            "title": data.get("title", slug),
            "description": data.get("description", ""),
            "position": int(data.get("position", 0)),
        },
    )
    for position, (kind, seed, params) in enumerate(checked, start=1):
        DrillSetEntry.objects.update_or_create(
            drill_set=drill_set,
            position=position,
            defaults={"kind": kind, "seed": seed, "params": params.key()},
        )
    drill_set.entries.filter(position__gt=len(checked)).delete()
    return 1 + len(checked)
