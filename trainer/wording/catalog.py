"""This app's catalog: every engine message template and term as a gettext entry.

The entries come from the engine's id table (``engine.messages.templates()``) and term table
(``engine.messages.terms()``), never from scanning source files, so the root ``makemessages``
ignores this app (``--ignore 'trainer/wording/*'``) and ``manage.py wording_messages`` keeps
``locale/<lang>/LC_MESSAGES/django.po`` in step with the engine (new entries added empty,
orphans dropped, translations kept) and compiles it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import trainer.wording.errors
import trainer.wording.page
import trainer.wording.render  # noqa: F401  (loads every module that registers sentences)

# Every entry has a context: message templates ``engine`` (CONTEXT), terms ``engine:<kind>``,
# so no entry of the site's own catalog (which Django ranks first) can stand in for one.
from engine.messages import CONTEXT, Plural, placeholders, templates, terms

LOCALE = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("ja",)


@dataclass(frozen=True, slots=True)
class Entry:
    msgid: str
    msgid_plural: str = ""
    msgctxt: str = ""

    @property
    def python_format(self) -> bool:
        return bool(placeholders(self.msgid) or placeholders(self.msgid_plural))


def entries() -> list[Entry]:
    """The catalog's entries in a fixed order: message templates (one entry per distinct
    English template), then the terms by kind."""
    out: dict[tuple[str, str], Entry] = {}
    for msg_id in sorted(templates()):
        template = templates()[msg_id]
        if isinstance(template, Plural):
            entry = Entry(template.one, template.other, CONTEXT)
        elif template:
            entry = Entry(template, msgctxt=CONTEXT)
        else:
            continue
        out.setdefault((entry.msgctxt, entry.msgid), entry)
    for kind, words in terms().items():
        for english in words.values():
            if not english.isdigit():
                context = f"{CONTEXT}:{kind}"
                out.setdefault((context, english), Entry(english, msgctxt=context))
    return list(out.values())


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def pot_text() -> str:
    """The template catalog (``.pot``) of :func:`entries`."""
    lines = [
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        "",
    ]
    for e in entries():
        if e.python_format:
            lines.append("#, python-format")
        if e.msgctxt:
            lines.append(f"msgctxt {_quote(e.msgctxt)}")
        lines.append(f"msgid {_quote(e.msgid)}")
        if e.msgid_plural:
            lines.append(f"msgid_plural {_quote(e.msgid_plural)}")
            lines += ['msgstr[0] ""', 'msgstr[1] ""']
        else:
            lines.append('msgstr ""')
        lines.append("")
    return "\n".join(lines)


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"
