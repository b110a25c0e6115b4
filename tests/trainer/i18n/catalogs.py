"""The project's translation catalogs, read for the i18n tests (no gettext library needed)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
#: Folders that hold no catalog of ours.
SKIP_PARTS = {".venv", ".git", "node_modules", "staticfiles", "__pycache__"}


def catalogs(language: str = "ja") -> list[Path]:
    """Every ``<something>/locale/<language>/LC_MESSAGES/django.po`` of the project."""
    found = []
    for path in ROOT.rglob(f"locale/{language}/LC_MESSAGES/django.po"):
        if not SKIP_PARTS & set(path.relative_to(ROOT).parts):
            found.append(path)
    return sorted(found)


@dataclass(frozen=True)
class Entry:
    context: str | None
    msgid: str
    msgid_plural: str | None
    msgstrs: tuple[str, ...]
    fuzzy: bool


def _unquote(line: str) -> str:
    return ast.literal_eval(line.strip())


def entries(path: Path) -> list[Entry]:
    """The catalog's entries, the header excluded (obsolete ``#~`` entries are skipped)."""
    out: list[Entry] = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        fields: dict[str, str] = {}
        fuzzy = False
        key = None
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#"):
                continue
            match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (\".*\")$", line)
            if match:
                key = match[1]
                fields[key] = _unquote(match[2])
            elif line.startswith('"') and key:
                fields[key] += _unquote(line)
        if "msgid" not in fields or fields["msgid"] == "":
            continue
        strs = tuple(v for k, v in sorted(fields.items()) if k.startswith("msgstr"))
        out.append(
            Entry(fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), strs, fuzzy)
        )
    return out
