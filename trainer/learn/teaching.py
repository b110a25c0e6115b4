"""Which lesson section teaches each drill skill: the map behind the feedback's "learn this"
links (see :mod:`trainer.core.teaching`).

Sections are the heading anchors Markdown's ``toc`` extension gives a lesson's ``##`` titles;
``tests/trainer/learn/test_teaching.py`` checks every anchor here against the lesson files.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlencode

from django.urls import reverse

from engine.drills import KIND_TITLES
from engine.signals import CONVENTIONS, cheatsheet
from trainer.core.links import drill_url
from trainer.core.teaching import TeachingLink

#: Lesson slug, section anchor and section title for each checklist item's signal.
ITEM_SECTIONS: dict[str, tuple[str, str, str]] = {
    "five_sf": ("strong-signals", "straight-flush-shapes", "Straight-flush shapes"),
    "four_sf": ("strong-signals", "straight-flush-shapes", "Straight-flush shapes"),
    "three_sf": ("strong-signals", "straight-flush-shapes", "Straight-flush shapes"),
    "fours": ("strong-signals", "fours", "Fours"),
    "two_threes": ("strong-signals", "two-threes-and-full-house", "Two threes and full house"),
    "full_house": ("strong-signals", "two-threes-and-full-house", "Two threes and full house"),
    "five_flush": ("weak-signals", "flushes", "Flushes"),
    "four_flush": ("weak-signals", "flushes", "Flushes"),
    "three_flush": ("weak-signals", "flushes", "Flushes"),
    "five_straight": ("weak-signals", "straights", "Straights"),
    "four_straight": ("weak-signals", "straights", "Straights"),
    "three_straight": ("weak-signals", "straights", "Straights"),
    "threes": (
        "weak-signals",
        "threes-and-pairs-a-card-and-a-pass",
        "Threes and pairs: a card and a pass",
    ),
    "one_pair": (
        "weak-signals",
        "threes-and-pairs-a-card-and-a-pass",
        "Threes and pairs: a card and a pass",
    ),
    "two_pair": ("weak-signals", "two-pair", "Two pair"),
}

#: Sections teaching a whole drill kind, whatever the skill.
KIND_SECTIONS: dict[str, tuple[str, str, str]] = {
    "score": ("the-game", "what-you-are-building", "What you are building"),
    "checklist": ("the-leaders-checklist", "the-list", "The list"),
    "read": ("reading-partner", "the-grid", "The grid"),
    "reply": (
        "replying",
        "after-two-cards-complete-the-combination",
        "After two cards: complete the combination",
    ),
}

#: Score-drill skills taught elsewhere than the combinations.
SCORE_SECTIONS: dict[str, tuple[str, str, str]] = {
    "three_pairs": (
        "scoring-and-leftovers",
        "left-overs-the-big-swing",
        "Left-overs: the big swing",
    ),
    "nothing": ("scoring-and-leftovers", "left-overs-the-big-swing", "Left-overs: the big swing"),
}


def _lesson_link(section: tuple[str, str, str]) -> TeachingLink:
    slug, anchor, title = section
    return TeachingLink(f"Lesson: {title}", reverse("learn:lesson", args=[slug]) + "#" + anchor)


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
            TeachingLink("Cheat sheet: the leader's checklist", sheet + "#checklist-title")
        )
    elif skill in _sheet_items(convention):
        links.append(TeachingLink("Cheat sheet: which cards to lead", f"{sheet}#item-{skill}"))
    return links


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


def practice_for(slug: str) -> list[TeachingLink]:
    """ "Practise this": drills of what lesson ``slug`` teaches — a lead drill of each signal
    family the lesson's sections teach, or the drill kind that practises it as a whole."""
    items = [item for item, (lesson, _, _) in ITEM_SECTIONS.items() if lesson == slug]
    links: list[TeachingLink] = []
    if items:
        query = urlencode({"items": ",".join(items)})
        links.append(TeachingLink("Lead these signals", drill_url("lead", None, query)))
        links.append(TeachingLink("Read these signals", drill_url("read", None, query)))
    if slug in LESSON_DRILLS:
        kind, extra = LESSON_DRILLS[slug]
        links.append(
            TeachingLink(f"Practise: {KIND_TITLES[kind]}", drill_url(kind, None, urlencode(extra)))
        )
    return links
