"""Which lesson section teaches each drill skill: the map behind the feedback's "learn this"
links (see :mod:`trainer.core.teaching`). A drill kind names its own section and what it
practises (``lesson``, ``lesson_for`` and ``topic`` on its class in :mod:`engine.drills.kinds`);
this module holds the sections' titles and the section teaching each checklist item's signal.

Sections are the heading anchors Markdown's ``toc`` extension gives a lesson's ``##`` titles
(a translated lesson keeps them with ``{#anchor}``); ``tests/trainer/learn/test_teaching.py``
checks every anchor here against the lesson files, and that each section title's translation is
the heading of that section in the translated lesson.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy

from engine.drills import KIND_TITLES, KINDS, DrillKind, Topic, spec_for
from engine.signals import CONVENTIONS, cheatsheet
from trainer.core.drill_sessions import PracticeSet, practice_sign
from trainer.core.teaching import LessonRef, TeachingLink
from trainer.learn import selectors
from trainer.wording.render import say

Section = tuple[str, str]  # (lesson slug, section anchor)

#: The title of every lesson section a drill's feedback links to, by (lesson slug, anchor).
SECTION_TITLES: dict[Section, Promise] = {
    ("strong-signals", "straight-flush-shapes"): pgettext_lazy(
        "lesson section", "Straight-flush shapes"
    ),
    ("strong-signals", "fours"): pgettext_lazy("lesson section", "Fours"),
    ("strong-signals", "two-threes-and-full-house"): pgettext_lazy(
        "lesson section", "Two threes and full house"
    ),
    ("weak-signals", "flushes"): pgettext_lazy("lesson section", "Flushes"),
    ("weak-signals", "straights"): pgettext_lazy("lesson section", "Straights"),
    ("weak-signals", "threes-and-pairs-a-card-and-a-pass"): pgettext_lazy(
        "lesson section", "Threes and pairs: a card and a pass"
    ),
    ("weak-signals", "two-pair"): pgettext_lazy("lesson section", "Two pair"),
    # The sections teaching a drill kind (its ``lesson`` and ``lesson_for`` in the engine).
    ("the-game", "what-you-are-building"): pgettext_lazy("lesson section", "What you are building"),
    ("scoring-and-leftovers", "left-overs-the-big-swing"): pgettext_lazy(
        "lesson section", "Left-overs: the big swing"
    ),
    ("the-leaders-checklist", "the-list"): pgettext_lazy("lesson section", "The list"),
    ("reading-partner", "the-grid"): pgettext_lazy("lesson section", "The grid"),
    ("replying", "after-two-cards-complete-the-combination"): pgettext_lazy(
        "lesson section", "After two cards: complete the combination"
    ),
    ("the-last-hand", "make-it-or-keep-it-low"): pgettext_lazy(
        "lesson section", "Make it, or keep it low"
    ),
}

#: The section teaching each checklist item's signal (drills whose topic is the signals).
ITEM_SECTIONS: dict[str, Section] = {
    "five_sf": ("strong-signals", "straight-flush-shapes"),
    "four_sf": ("strong-signals", "straight-flush-shapes"),
    "three_sf": ("strong-signals", "straight-flush-shapes"),
    "fours": ("strong-signals", "fours"),
    "two_threes": ("strong-signals", "two-threes-and-full-house"),
    "full_house": ("strong-signals", "two-threes-and-full-house"),
    "five_flush": ("weak-signals", "flushes"),
    "four_flush": ("weak-signals", "flushes"),
    "three_flush": ("weak-signals", "flushes"),
    "five_straight": ("weak-signals", "straights"),
    "four_straight": ("weak-signals", "straights"),
    "three_straight": ("weak-signals", "straights"),
    "threes": ("weak-signals", "threes-and-pairs-a-card-and-a-pass"),
    "one_pair": ("weak-signals", "threes-and-pairs-a-card-and-a-pass"),
    "two_pair": ("weak-signals", "two-pair"),
}


def _lesson_link(section: Section) -> TeachingLink:
    slug, anchor = section
    return TeachingLink(
        gettext("Lesson: %(title)s") % {"title": str(SECTION_TITLES[section])},
        reverse("learn:lesson", args=[slug]) + "#" + anchor,
    )


@cache
def _sheet_items(convention: str) -> frozenset[str]:
    """The checklist items with a row in ``convention``'s "which cards to lead" table."""
    return frozenset(str(row.item) for row in cheatsheet(CONVENTIONS[convention]).rows)


def _sections(kind: str, skill: str) -> list[Section]:
    """The lesson sections teaching ``skill`` in a ``kind`` drill, first the one that teaches
    it most closely: the item's signal (a signals kind), then the kind's own section."""
    if kind not in KINDS:
        return []
    spec = spec_for(kind)
    sections = []
    if spec.topic is Topic.SIGNALS and skill in ITEM_SECTIONS:
        sections.append(ITEM_SECTIONS[skill])
    section = spec.lesson_for(skill)
    if section is not None:
        sections.append(section)
    return sections


def links_for(kind: str, skill: str, convention: str) -> list[TeachingLink]:
    """The lesson section(s) and cheat-sheet row teaching ``skill`` in a ``kind`` drill
    under ``convention`` (its name). What a kind practises (its ``topic``) says which part
    of the convention card teaches it: none for scoring."""
    links = [_lesson_link(section) for section in _sections(kind, skill)]
    if kind not in KINDS or convention not in CONVENTIONS:
        return links
    topic = spec_for(kind).topic
    sheet = reverse("cheatsheet") + "?" + urlencode({"convention": convention})
    if topic is Topic.CHECKLIST:
        links.append(
            TeachingLink(gettext("Cheat sheet: the leader's checklist"), sheet + "#checklist-title")
        )
    elif topic is Topic.SIGNALS and skill in _sheet_items(convention):
        links.append(
            TeachingLink(gettext("Cheat sheet: which cards to lead"), f"{sheet}#item-{skill}")
        )
    return links


def lesson_slug(kind: str, skill: str) -> str | None:
    """The lesson that teaches ``skill`` in drills of ``kind``: the first lesson
    :func:`links_for` links to."""
    sections = _sections(kind, skill)
    return sections[0][0] if sections else None


def lessons_for(skills: Sequence[tuple[str, str]]) -> dict[tuple[str, str], LessonRef]:
    """The lesson teaching each ``(kind, skill)``, in the active language where translated,
    read in one query (skills whose lesson is not loaded are left out)."""
    slugs = {pair: lesson_slug(*pair) for pair in skills}
    wanted = {slug for slug in slugs.values() if slug}
    if not wanted:
        return {}
    lessons = {
        lesson.slug: LessonRef(
            lesson.slug,
            lesson.title,
            reverse("learn:lesson", args=[lesson.slug]),
            lesson.position,
        )
        for lesson in selectors.lessons()
        if lesson.slug in wanted
    }
    return {pair: lessons[slug] for pair, slug in slugs.items() if slug in lessons}


#: Lessons taught by no single item (the drills that practise them as a whole).
LESSON_DRILLS: dict[str, tuple[DrillKind, dict[str, str]]] = {
    "the-game": (DrillKind.SCORE, {}),
    "scoring-and-leftovers": (DrillKind.SCORE, {"rule": "contribution"}),
    "the-leaders-checklist": (DrillKind.CHECKLIST, {}),
    "reading-partner": (DrillKind.READ, {}),
    "replying": (DrillKind.REPLY, {}),
    "the-finer-points": (DrillKind.READ, {}),
    "the-1994-card": (DrillKind.LEAD, {"convention": "teach-yourself-1994"}),
    "the-last-hand": (DrillKind.LAST_HAND, {}),
}


def practice_for(slug: str, title: str = "") -> list[TeachingLink]:
    """ "Practise this": drills of what lesson ``slug`` (called ``title``) teaches — a lead and
    a read set of the signals its sections teach, or a set of the drill kind that practises it
    as a whole. Each link starts a practice set: ten drills played as a session, with a way
    back to the lesson and a summary at the end."""
    items = [item for item, (lesson, _) in ITEM_SECTIONS.items() if lesson == slug]
    sets: list[tuple[str, str, str, str]] = []  # link label, set name, kind, drill settings
    if items:
        query = urlencode({"items": ",".join(items)})
        lead, read = DrillKind.LEAD, DrillKind.READ
        sets.append((gettext("Lead these signals"), gettext("leading its signals"), lead, query))
        sets.append((gettext("Read these signals"), gettext("reading its signals"), read, query))
    if slug in LESSON_DRILLS:
        kind, extra = LESSON_DRILLS[slug]
        name = say(KIND_TITLES[kind])
        sets.append(
            (
                gettext("Practise: %(name)s") % {"name": name},
                name[:1].lower() + name[1:],
                kind,
                urlencode(extra),
            )
        )
    back = reverse("learn:lesson", args=[slug])
    return [
        TeachingLink(
            label,
            reverse(
                "drill-practise",
                args=[
                    practice_sign(
                        PracticeSet(
                            title=gettext("%(lesson)s: %(name)s")
                            % {"lesson": title or slug, "name": name},
                            back_url=back,
                            back_label=gettext("Back to the lesson"),
                            kind=kind,
                            query=query,
                            back_title=title or slug,
                        )
                    )
                ],
            ),
        )
        for label, name, kind, query in sets
    ]
