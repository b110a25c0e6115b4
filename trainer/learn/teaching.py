"""Which lesson section teaches each drill skill: the map behind the feedback's "learn this"
links (see :mod:`trainer.core.teaching`).

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

from engine.drills import KIND_TITLES
from engine.signals import CONVENTIONS, cheatsheet
from trainer.core.sessions import PracticeSet, practice_sign
from trainer.core.teaching import LessonRef, TeachingLink
from trainer.learn import selectors
from trainer.wording.render import say

#: Lesson slug, section anchor and section title for each checklist item's signal.
ITEM_SECTIONS: dict[str, tuple[str, str, Promise]] = {
    "five_sf": (
        "strong-signals",
        "straight-flush-shapes",
        pgettext_lazy("lesson section", "Straight-flush shapes"),
    ),
    "four_sf": (
        "strong-signals",
        "straight-flush-shapes",
        pgettext_lazy("lesson section", "Straight-flush shapes"),
    ),
    "three_sf": (
        "strong-signals",
        "straight-flush-shapes",
        pgettext_lazy("lesson section", "Straight-flush shapes"),
    ),
    "fours": ("strong-signals", "fours", pgettext_lazy("lesson section", "Fours")),
    "two_threes": (
        "strong-signals",
        "two-threes-and-full-house",
        pgettext_lazy("lesson section", "Two threes and full house"),
    ),
    "full_house": (
        "strong-signals",
        "two-threes-and-full-house",
        pgettext_lazy("lesson section", "Two threes and full house"),
    ),
    "five_flush": ("weak-signals", "flushes", pgettext_lazy("lesson section", "Flushes")),
    "four_flush": ("weak-signals", "flushes", pgettext_lazy("lesson section", "Flushes")),
    "three_flush": ("weak-signals", "flushes", pgettext_lazy("lesson section", "Flushes")),
    "five_straight": ("weak-signals", "straights", pgettext_lazy("lesson section", "Straights")),
    "four_straight": ("weak-signals", "straights", pgettext_lazy("lesson section", "Straights")),
    "three_straight": ("weak-signals", "straights", pgettext_lazy("lesson section", "Straights")),
    "threes": (
        "weak-signals",
        "threes-and-pairs-a-card-and-a-pass",
        pgettext_lazy("lesson section", "Threes and pairs: a card and a pass"),
    ),
    "one_pair": (
        "weak-signals",
        "threes-and-pairs-a-card-and-a-pass",
        pgettext_lazy("lesson section", "Threes and pairs: a card and a pass"),
    ),
    "two_pair": ("weak-signals", "two-pair", pgettext_lazy("lesson section", "Two pair")),
}

#: Sections teaching a whole drill kind, whatever the skill.
KIND_SECTIONS: dict[str, tuple[str, str, Promise]] = {
    "score": (
        "the-game",
        "what-you-are-building",
        pgettext_lazy("lesson section", "What you are building"),
    ),
    "checklist": ("the-leaders-checklist", "the-list", pgettext_lazy("lesson section", "The list")),
    "read": ("reading-partner", "the-grid", pgettext_lazy("lesson section", "The grid")),
    "reply": (
        "replying",
        "after-two-cards-complete-the-combination",
        pgettext_lazy("lesson section", "After two cards: complete the combination"),
    ),
}

#: Score-drill skills taught elsewhere than the combinations.
SCORE_SECTIONS: dict[str, tuple[str, str, Promise]] = {
    "three_pairs": (
        "scoring-and-leftovers",
        "left-overs-the-big-swing",
        pgettext_lazy("lesson section", "Left-overs: the big swing"),
    ),
    "nothing": (
        "scoring-and-leftovers",
        "left-overs-the-big-swing",
        pgettext_lazy("lesson section", "Left-overs: the big swing"),
    ),
}


def _lesson_link(section: tuple[str, str, Promise]) -> TeachingLink:
    slug, anchor, title = section
    return TeachingLink(
        gettext("Lesson: %(title)s") % {"title": str(title)},
        reverse("learn:lesson", args=[slug]) + "#" + anchor,
    )


@cache
def _sheet_items(convention: str) -> frozenset[str]:
    """The checklist items with a row in ``convention``'s "which cards to lead" table."""
    return frozenset(str(row.item) for row in cheatsheet(CONVENTIONS[convention]).rows)


def links_for(kind: str, skill: str, convention: str) -> list[TeachingLink]:
    """The lesson section(s) and cheat-sheet row teaching ``skill`` in a ``kind`` drill
    under ``convention`` (its name)."""
    links: list[TeachingLink] = []
    if kind == "score":
        links.append(_lesson_link(SCORE_SECTIONS.get(skill, KIND_SECTIONS["score"])))
        return links
    if skill in ITEM_SECTIONS and kind in ("lead", "read", "reply"):
        links.append(_lesson_link(ITEM_SECTIONS[skill]))
    if kind in KIND_SECTIONS:
        links.append(_lesson_link(KIND_SECTIONS[kind]))
    if convention not in CONVENTIONS:
        return links
    sheet = reverse("cheatsheet") + "?" + urlencode({"convention": convention})
    if kind == "checklist":
        links.append(
            TeachingLink(gettext("Cheat sheet: the leader's checklist"), sheet + "#checklist-title")
        )
    elif skill in _sheet_items(convention):
        links.append(
            TeachingLink(gettext("Cheat sheet: which cards to lead"), f"{sheet}#item-{skill}")
        )
    return links


def lesson_slug(kind: str, skill: str) -> str | None:
    """The lesson that teaches ``skill`` in drills of ``kind``: the first lesson
    :func:`links_for` links to."""
    if kind == "score":
        return SCORE_SECTIONS.get(skill, KIND_SECTIONS["score"])[0]
    if skill in ITEM_SECTIONS and kind in ("lead", "read", "reply"):
        return ITEM_SECTIONS[skill][0]
    section = KIND_SECTIONS.get(kind)
    return section[0] if section else None


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
LESSON_DRILLS: dict[str, tuple[str, dict[str, str]]] = {
    "the-game": ("score", {}),
    "scoring-and-leftovers": ("score", {"rule": "contribution"}),
    "the-leaders-checklist": ("checklist", {}),
    "reading-partner": ("read", {}),
    "replying": ("reply", {}),
    "the-finer-points": ("read", {}),
    "the-1994-card": ("lead", {"convention": "teach-yourself-1994"}),
}


def practice_for(slug: str, title: str = "") -> list[TeachingLink]:
    """ "Practise this": drills of what lesson ``slug`` (called ``title``) teaches — a lead and
    a read set of the signals its sections teach, or a set of the drill kind that practises it
    as a whole. Each link starts a practice set: ten drills played as a session, with a way
    back to the lesson and a summary at the end."""
    items = [item for item, (lesson, _, _) in ITEM_SECTIONS.items() if lesson == slug]
    sets: list[tuple[str, str, str, str]] = []  # link label, set name, kind, drill settings
    if items:
        query = urlencode({"items": ",".join(items)})
        sets.append((gettext("Lead these signals"), gettext("leading its signals"), "lead", query))
        sets.append((gettext("Read these signals"), gettext("reading its signals"), "read", query))
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
