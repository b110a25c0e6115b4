"""``manage.py wording_messages [--check]``: refresh and compile the engine-message catalogs.

Writes the entries of ``trainer.wording.catalog`` into each language's ``django.po`` with
``msgmerge`` (translations kept, new entries empty, entries no longer in the engine dropped)
and compiles it with ``msgfmt --check``. ``--check`` changes nothing and fails when a catalog
is out of step with the engine or has an untranslated or fuzzy entry.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from trainer.wording.catalog import LANGUAGES, po_path, pot_text


def tool(name: str) -> str:
    """The full path of a gettext tool (Debian's ``gettext`` package)."""
    path = shutil.which(name)
    if path is None:
        raise CommandError(f"{name} not found: install gettext (make messages does)")
    return path


def merged(po: Path, pot: Path) -> str:
    """``po`` merged with ``pot`` (no fuzzy guesses, no obsolete entries)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "merged.po"
        subprocess.run(  # noqa: S603 - fixed gettext tools on our own files
            [
                tool("msgmerge"),
                "--quiet",
                "--no-fuzzy-matching",
                "--no-wrap",
                "--sort-output",
                "-o",
                str(out),
                str(po),
                str(pot),
            ],
            check=True,
        )
        subprocess.run(  # noqa: S603
            [tool("msgattrib"), "--no-obsolete", "--no-wrap", "-o", str(out), str(out)], check=True
        )
        return out.read_text(encoding="utf-8")


def statistics(po: Path) -> str:
    """``msgfmt --statistics`` of ``po`` (checking formats; nothing written)."""
    done = subprocess.run(  # noqa: S603
        [tool("msgfmt"), "--check", "--statistics", "-o", "/dev/null", str(po)],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stderr.strip()


class Command(BaseCommand):
    help = "Refresh and compile trainer/wording's catalogs from the engine's message table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Change nothing; fail if stale.")

    def handle(self, *args: Any, **options: Any) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            pot = Path(tmp) / "django.pot"
            pot.write_text(pot_text(), encoding="utf-8")
            for language in LANGUAGES:
                po = po_path(language)
                text = merged(po, pot)
                if options["check"]:
                    if text != po.read_text(encoding="utf-8"):
                        raise CommandError(f"{po} is out of step with the engine's messages")
                    stats = statistics(po)
                    if "untranslated" in stats or "fuzzy" in stats:
                        raise CommandError(f"{po}: {stats}")
                    self.stdout.write(f"{language}: {stats}")
                    continue
                po.write_text(text, encoding="utf-8")
                subprocess.run(  # noqa: S603
                    [tool("msgfmt"), "--check", "-o", str(po.with_suffix(".mo")), str(po)],
                    check=True,
                )
                self.stdout.write(f"{language}: {statistics(po)}")
