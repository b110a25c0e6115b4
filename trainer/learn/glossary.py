"""The glossary of game and card terms: ``glossary.yaml`` beside this module, read once.

The file is the one place the project keeps each term's name and one-line definition in every
language (the names are the fixed words of ``docs/i18n-terms.md``). Other code may read it::

    >>> from trainer.learn.glossary import term_name
    >>> term_name("item:four_sf", "ja")
    'ストレートフラッシュ4枚'

A language without a name or a definition for a term falls back to English.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml
from django.conf import settings

GLOSSARY_FILE = Path(__file__).with_name("glossary.yaml")
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Term:
    """One term: its id (``item:<checklist id>``, ``combination:<id>``, ``shape:<shape>`` or a
    plain word), its names and definitions by language code."""

    id: str
    names: dict[str, str]
    definitions: dict[str, str]
    #: Card notation (a shape such as ``XX.XX``) that is the same in every language.
    notation: bool = False
    #: Per language, the other words for the same idea that the project does not use (regular
    #: expressions; the name is the one term): ``{"ja": ("持ち札",)}``.
    avoid: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def name(self, language: str) -> str:
        return self.names.get(language) or self.names[SOURCE_LANGUAGE]

    def definition(self, language: str) -> str:
        return self.definitions.get(language) or self.definitions[SOURCE_LANGUAGE]


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    titles: dict[str, str]
    terms: tuple[Term, ...]

    def title(self, language: str) -> str:
        return self.titles.get(language) or self.titles[SOURCE_LANGUAGE]


@cache
def groups() -> tuple[Group, ...]:
    """Every group of terms, in page order."""
    data = yaml.safe_load(GLOSSARY_FILE.read_text(encoding="utf-8"))
    out = []
    for group in data["groups"]:
        terms = tuple(
            Term(
                id=str(t["id"]),
                names={k: str(v) for k, v in t.items() if k not in _NOT_NAMES},
                definitions={k: str(v) for k, v in t["definition"].items()},
                notation=bool(t.get("notation", False)),
                avoid={k: tuple(str(w) for w in v) for k, v in t.get("avoid", {}).items()},
            )
            for t in group["terms"]
        )
        out.append(Group(str(group["id"]), {k: str(v) for k, v in group["title"].items()}, terms))
    return tuple(out)


_NOT_NAMES = frozenset({"id", "definition", "notation", "symbol", "avoid"})


@cache
def terms() -> dict[str, Term]:
    """Every term by id."""
    return {term.id: term for group in groups() for term in group.terms}


def term_name(term_id: str, language: str) -> str:
    """The name of ``term_id`` in ``language`` (English where it has none)."""
    return terms()[term_id].name(language)


def languages(first: str | None = None) -> list[tuple[str, str]]:
    """The site's languages (code, name) that the glossary names terms in: ``first`` (the
    page's language) first, then the others in the order of ``LANGUAGES`` (English first)."""
    held = {code for term in terms().values() for code in term.names}
    found = [(code, name) for code, name in settings.LANGUAGES if code in held]
    return sorted(found, key=lambda pair: pair[0] != first)
