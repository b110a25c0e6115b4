"""The ``lesson`` seed kind: ``seeds/lessons/NN-<slug>.md``, Markdown with YAML front matter::

    ---
    kind: lesson
    slug: strong-signals
    title: Strong signals
    position: 40
    step: 4          # optional: the onboarding step (trainer.clubs.curriculum) it belongs to
    summary: One line for the lessons page.
    ---
    Markdown text, with example blocks (see trainer.learn.examples).

Every example block is rendered once at load time, so a lesson with a broken example fails
``manage.py seed`` instead of showing a notice on the page.

The folder gives the language: ``seeds/lessons/*.md`` are English (``LANGUAGE_CODE``),
``seeds/lessons/<code>/*.md`` are in ``<code>``, one of ``settings.LANGUAGES``, under the same
slugs as the English lessons. Section headings keep the English anchors with ``{#anchor}``
(see :mod:`trainer.learn.rendering`). A folder named like a language code that is not in
``LANGUAGES`` is an error rather than a second set of English lessons.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import translation

from engine.signals import CONVENTIONS
from trainer.clubs.curriculum import get_step
from trainer.core.seeding import SeedError, register
from trainer.learn.examples import ExampleError
from trainer.learn.models import Lesson
from trainer.learn.rendering import render_markdown

_LANGUAGE_FOLDER = re.compile(r"^[a-z]{2,3}([-_][a-zA-Z0-9]{2,8})?$")


def lesson_language(source: Path) -> str:
    """The language of the lesson file at ``source``, from its folder's name."""
    folder = source.parent.name
    codes = {code for code, _ in settings.LANGUAGES}
    if folder in codes:
        return folder
    if _LANGUAGE_FOLDER.match(folder):
        raise SeedError(
            f"{source}: the folder {folder!r} names no language in settings.LANGUAGES "
            f"({', '.join(sorted(codes))})"
        )
    return str(settings.LANGUAGE_CODE)


#: Lesson texts this process has rendered without error, per card (name and version) and
#: language: the render is the engine's and the same text renders the same, so a second seed in
#: one process (the tests seed many times) does not check them again.
_CHECKED: set[tuple[str, str, str, str]] = set()


@register("lesson")
def load_lesson(data: Mapping[str, Any], *, source: Path) -> int:
    slug, title, body = data.get("slug"), data.get("title"), data.get("body")
    if not slug or not title or not body or not str(body).strip():
        raise SeedError(f"{source}: a lesson needs a slug, a title and a text")
    step = data.get("step")
    if step is not None:
        found = get_step(int(step))
        if found is None or found.lesson != slug:
            raise SeedError(
                f"{source}: step {step} of the onboarding path does not name the "
                f"lesson {slug!r} (see trainer/clubs/curriculum.py)"
            )
    language = lesson_language(source)
    with translation.override(language):
        for convention in CONVENTIONS.values():
            key = (str(body), convention.name, convention.version, language)
            if key in _CHECKED:
                continue
            try:
                render_markdown(str(body), convention, strict=True)
            except ExampleError as exc:
                raise SeedError(f"{source}: {exc}") from exc
            _CHECKED.add(key)
    Lesson.objects.update_or_create(
        slug=slug,
        language=language,
        defaults={
            "title": str(title),
            "position": int(data.get("position", 0)),
            "step": int(step) if step is not None else None,
            "summary": str(data.get("summary", "")),
            "body": str(body),
        },
    )
    return 1
