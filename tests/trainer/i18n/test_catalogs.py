"""The Japanese catalogs are complete, compiled and up to date with the code.

- ``msgfmt --statistics`` reports every entry translated: none untranslated, none fuzzy.
- The committed ``.mo`` files are what ``compilemessages`` makes of the ``.po`` files (the site
  serves the ``.mo``; ``make run`` needs no gettext).
- Running ``makemessages`` (as ``make messages`` does) on a copy of the project changes no
  catalog's set of messages: a string added to a template or to Python without its
  translation fails here. The engine-message catalog (``trainer/wording``) is built from the
  engine's table instead: ``manage.py wording_messages --check`` stands for it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.trainer.i18n.catalogs import ROOT, catalogs, entries

#: What ``make messages`` passes to makemessages (see the Makefile).
MAKEMESSAGES_IGNORE = (
    ".venv",
    "trainer/wording/*",
    "engine/*",
    "tests/*",
    "benchmarks/*",
    "scripts/*",
    "deploy/*",
    "docs/*",
    "seeds/*",
    "staticfiles/*",
    "*.egg-info/*",
)


def _msgfmt() -> str:
    found = shutil.which("msgfmt")
    assert found, "msgfmt is missing: install Debian's gettext (make gettext)"
    return found


def test_there_is_a_japanese_catalog_for_the_pages():
    assert ROOT / "locale/ja/LC_MESSAGES/django.po" in catalogs()


@pytest.mark.parametrize("po", catalogs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_japanese_entry_is_translated_and_none_is_fuzzy(po: Path):
    result = subprocess.run(
        [_msgfmt(), "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
        env={"LC_ALL": "C"},
    )
    assert result.returncode == 0, result.stderr
    stats = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ translated messages?\.", stats), stats


@pytest.mark.parametrize("po", catalogs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_entry_is_left_empty_or_marked_fuzzy(po: Path):
    bad = [e.msgid for e in entries(po) if e.fuzzy or not all(e.msgstrs)]
    assert bad == []


@pytest.mark.parametrize("po", catalogs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_compiled_catalog_is_up_to_date(po: Path, tmp_path: Path):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run make messages"
    fresh = tmp_path / "django.mo"
    subprocess.run([_msgfmt(), "--check-format", "-o", str(fresh), str(po)], check=True)
    assert fresh.read_bytes() == mo.read_bytes(), f"{mo} is stale: run make messages"


def _messages(po: Path) -> set[tuple[str | None, str, str | None]]:
    return {(e.context, e.msgid, e.msgid_plural) for e in entries(po)}


def _copy_project(target: Path) -> None:
    """The parts makemessages reads: settings, the apps, templates and the catalogs."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "output")
    for name in ("concerto_site", "trainer", "templates", "locale", "engine"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, target / name, ignore=skip)
    shutil.copy2(ROOT / "manage.py", target / "manage.py")


@pytest.mark.slow
def test_makemessages_would_change_no_catalog(tmp_path: Path):
    _msgfmt()
    _copy_project(tmp_path)
    command = [sys.executable, "manage.py", "makemessages", "-l", "ja", "--no-obsolete"]
    for pattern in MAKEMESSAGES_IGNORE:
        command += ["--ignore", pattern]
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True)
    changed = {}
    for po in catalogs():
        relative = po.relative_to(ROOT)
        if relative.parts[:2] == ("trainer", "wording"):
            continue  # built from the engine's table: checked by wording_messages --check
        before, after = _messages(po), _messages(tmp_path / relative)
        if before != after:
            changed[str(relative)] = {
                "added (translate them)": sorted(m[1] for m in after - before),
                "gone from the code": sorted(m[1] for m in before - after),
            }
    assert changed == {}, "run make messages and translate: " + repr(changed)


def test_the_engine_message_catalog_is_in_step_with_the_engine():
    from django.core.management import call_command, get_commands

    if "wording_messages" not in get_commands():
        pytest.skip("no engine-message catalog in this tree")
    call_command("wording_messages", "--check")


#: Placeholders that stand for a convention card's title (a club's may end in "card").
_CARD_TITLE = re.compile(r"(%\((?:convention|title|card)\)s|\{(?:convention|title|card)\}) card\b")


@pytest.mark.parametrize("po", catalogs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_sentence_adds_card_after_a_card_title(po: Path):
    """A club's card may be titled "Riverside house card": a sentence quotes the title (the
    card “…”) instead of writing "the %(convention)s card" ("… house card card")."""
    bad = [e.msgid for e in entries(po) if _CARD_TITLE.search(e.msgid)]
    assert bad == []
