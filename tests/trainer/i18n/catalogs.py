"""The project's translation catalogs, read for the i18n tests (no gettext library needed)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from html.parser import HTMLParser
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


class VisibleText(HTMLParser):
    """The text a reader meets: text nodes and the attributes read out or shown. Text marked
    as another language (``lang="en"``: the glossary's English column, the switcher's
    "English") is English on purpose and left out."""

    ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, skipped)

    def _skipping(self) -> bool:
        return any(skipped for _tag, skipped in self._stack)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        lang = values.get("lang")
        skipped = tag in ("script", "style", "template") or (
            tag != "html" and lang is not None and not lang.startswith("ja")
        )
        if not skipped and not self._skipping():
            self.parts += [v for n, v in attrs if n in self.ATTRIBUTES and v]
        if tag not in self.VOID:
            self._stack.append((tag, skipped))

    def handle_startendtag(self, tag, attrs):
        if not self._skipping():
            self.parts += [v for n, v in attrs if n in self.ATTRIBUTES and v]

    def handle_endtag(self, tag):
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if not self._skipping() and data.strip():
            self.parts.append(" ".join(data.split()))
