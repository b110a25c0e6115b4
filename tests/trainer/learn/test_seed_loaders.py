from pathlib import Path

import pytest

from trainer.core import seeding
from trainer.learn.models import Lesson

pytestmark = pytest.mark.django_db

LESSON = """---
kind: lesson
slug: {slug}
title: A test lesson
position: 5
{extra}---
Some text.

```hand
{hand}
```
"""


def _write(
    tmp_path: Path,
    name: str = "01-test.md",
    slug: str = "test-lesson",
    extra: str = "",
    hand: str = "S: A K Q J 10",
) -> Path:
    path = tmp_path / name
    path.write_text(LESSON.format(slug=slug, extra=extra, hand=hand), encoding="utf-8")
    return path


def test_markdown_with_front_matter_loads_as_a_lesson(tmp_path):
    _write(tmp_path, extra="summary: One line.\n")

    results = seeding.load_all(tmp_path)

    lesson = Lesson.objects.get(slug="test-lesson")
    assert [r.kind for r in results] == ["lesson"]
    assert (lesson.title, lesson.position, lesson.summary) == ("A test lesson", 5, "One line.")
    assert lesson.body.startswith("Some text.") and "```hand" in lesson.body


def test_loading_a_lesson_twice_keeps_one_row(tmp_path):
    _write(tmp_path)

    seeding.load_all(tmp_path)
    seeding.load_all(tmp_path)

    assert Lesson.objects.count() == 1


def test_markdown_without_front_matter_is_not_a_seed(tmp_path):
    (tmp_path / "README.md").write_text("# Notes\n\nNot a lesson.\n")

    assert list(seeding.seed_files(tmp_path)) == []


def test_unclosed_front_matter_is_an_error(tmp_path):
    (tmp_path / "broken.md").write_text("---\nkind: lesson\nslug: x\n\nno end\n")

    with pytest.raises(seeding.SeedError, match="closing"):
        seeding.load_all(tmp_path)


def test_a_lesson_with_a_broken_example_fails_to_load(tmp_path):
    _write(tmp_path, hand="S: A Z")

    with pytest.raises(seeding.SeedError, match="not a card"):
        seeding.load_all(tmp_path)
    assert not Lesson.objects.exists()


def test_a_lesson_must_match_its_onboarding_step(tmp_path):
    _write(tmp_path, extra="step: 4\n")

    with pytest.raises(seeding.SeedError, match="step 4"):
        seeding.load_all(tmp_path)


def test_a_lesson_needs_a_title(tmp_path):
    (tmp_path / "bare.md").write_text("---\nkind: lesson\nslug: bare\n---\nText.\n")

    with pytest.raises(seeding.SeedError, match="title"):
        seeding.load_all(tmp_path)
