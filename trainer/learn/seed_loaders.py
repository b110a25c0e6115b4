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
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.signals import CONVENTIONS
from trainer.clubs.curriculum import get_step
from trainer.core.seeding import SeedError, register
from trainer.learn.examples import ExampleError
from trainer.learn.models import Lesson
from trainer.learn.rendering import render_markdown


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
    for convention in CONVENTIONS.values():
        try:
            render_markdown(str(body), convention, strict=True)
        except ExampleError as exc:
            raise SeedError(f"{source}: {exc}") from exc
    Lesson.objects.update_or_create(
        slug=slug,
        defaults={
            "title": str(title),
            "position": int(data.get("position", 0)),
            "step": int(step) if step is not None else None,
            "summary": str(data.get("summary", "")),
            "body": str(body),
        },
    )
    return 1
