"""Lessons (``/learn/``) and the printable cheat sheet (``/cheatsheet/``).

Both show the engine's data for one convention card: the one in ``?convention=``, else the
visitor's (or their club's) default from :func:`trainer.core.preferences.drill_defaults`.
"""

from __future__ import annotations

from typing import Any, cast

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from engine.messages import Join, Msg, Term, templates
from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    CheatSheet,
    Convention,
    cheatsheet,
    get_convention,
)
from engine.signals.cardcheck import diff_cards
from engine.signals.cheat_sheet import FAMILY_LABELS, ChecklistLine
from trainer.clubs import selectors as club_selectors
from trainer.clubs.curriculum import get_step
from trainer.core import preferences
from trainer.core.game import conventions
from trainer.core.game.odds import cheatsheet_odds
from trainer.learn import glossary, selectors
from trainer.learn.models import Lesson
from trainer.learn.rendering import render_markdown
from trainer.learn.teaching import lesson_slug, practice_for


def chosen_convention(request: HttpRequest, *, own_cards: bool = False) -> Convention:
    """``?convention=`` when it names a convention, else the visitor's default. Lessons are
    written about the shipped cards; with ``own_cards`` (the cheat sheet) a club's own card
    (its house card, ``club-<id>-<version>``) is shown as well."""
    name = request.GET.get("convention", "")
    if name not in CONVENTIONS and not (own_cards and conventions.is_known(name)):
        name = preferences.drill_defaults(request).get("convention", DEFAULT_CONVENTION.name)
    if own_cards and name not in CONVENTIONS and conventions.is_known(name):
        return get_convention(name)
    return CONVENTIONS.get(name, DEFAULT_CONVENTION)


@require_GET
def lesson_list(request: HttpRequest) -> HttpResponse:
    """Every lesson in the active language, English where one is not translated."""
    language = selectors.active_language()
    lessons = selectors.lessons(language)
    return render(
        request,
        "learn/lesson_list.html",
        {
            "lessons": lessons,
            "untranslated": {
                lesson.slug
                for lesson in lessons
                if lesson.language != language and lesson.language == selectors.source_language()
            },
            "club": (
                club_selectors.first_club_of(user=request.user)
                if request.user.is_authenticated
                else None
            ),
        },
    )


def _path_step(request: HttpRequest, lesson: Lesson) -> dict[str, Any] | None:
    """When the visitor came from their path — a club's (``?club=<slug>``) or their own
    (``?path=1``, *Start here*): links back to it."""
    slug = request.GET.get("club", "")
    step = get_step(lesson.step) if lesson.step else None
    if step is None or not request.user.is_authenticated:
        return None
    if not slug:
        if request.GET.get("path") != "1":
            return None
        return {
            "club": None,
            "step": step,
            "drills_url": reverse("start:step-next", args=[step.number]),
            "path_url": reverse("start:path"),
        }
    membership = club_selectors.membership_get(user=request.user, slug=slug)
    if membership is None:
        return None
    return {
        "club": membership.club,
        "step": step,
        "drills_url": reverse("clubs:step-next", args=[slug, step.number]),
        "path_url": reverse("clubs:path", args=[slug]),
    }


#: The drill kinds whose skills are checklist items (a lesson teaching any of them teaches it).
_ITEM_KINDS = ("checklist", "lead", "read", "reply")


def house_card_differences(request: HttpRequest, slug: str) -> dict[str, Any] | None:
    """Where the learner's house card (their club's or class's own) differs from Parlett's
    2008 card in the items lesson ``slug`` teaches: each such row as Parlett's card and the
    house card write it (from the engine's card diff and cheat sheets), or None (a shipped
    card, or no difference in this lesson)."""
    name = preferences.drill_defaults(request).get("convention", "")
    if not name or name in CONVENTIONS or not conventions.is_known(name):
        return None
    own = get_convention(name)
    diff = diff_cards(DEFAULT_CONVENTION, own)
    parlett = {r.id: r for r in cheatsheet(DEFAULT_CONVENTION).rows}
    ours = {r.id: r for r in cheatsheet(own).rows}
    ids = [r["id"] for r in diff["rows"]["changed"]]
    ids += [r["id"] for r in diff["rows"]["removed"]] + [r["id"] for r in diff["rows"]["added"]]
    rows = []
    for rid in ids:
        line = ours.get(rid) or parlett[rid]
        if not any(lesson_slug(kind, str(line.item)) == slug for kind in _ITEM_KINDS):
            continue
        rows.append(
            {
                "id": rid,
                "title": Msg("term", term=Term("item", str(line.item))),
                "shape": line.shape,
                "lines": (parlett.get(rid), ours.get(rid)),
            }
        )
    if not rows:
        return None
    return {"card": own, "rows": rows, "sheet_url": reverse("cheatsheet") + f"?convention={name}"}


@require_GET
def lesson_detail(request: HttpRequest, slug: str) -> HttpResponse:
    place = selectors.lesson_place(slug, selectors.active_language())
    if place is None:
        raise Http404("No such lesson.")
    lesson = place.lesson
    convention = chosen_convention(request)
    return render(
        request,
        "learn/lesson.html",
        {
            "lesson": lesson,
            "translated": place.translated,
            "html": render_markdown(lesson.body, convention),
            "convention": convention,
            "conventions": CONVENTIONS.values(),
            "is_default": convention == DEFAULT_CONVENTION,
            "previous": place.previous,
            "next": place.next,
            "path": _path_step(request, lesson),
            "practice": practice_for(lesson.slug, lesson.title),
            "house_card": house_card_differences(request, lesson.slug),
            "start_step": (
                reverse("start:step-next", args=[lesson.step])
                if lesson.step and request.user.is_authenticated
                else ""
            ),
        },
    )


def _sheet_lines(sheet: CheatSheet) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The checklist grouped by line number, and the encoding rows with their item's title
    (on the first row of each item only) and family."""
    lines: dict[int, list[ChecklistLine]] = {}
    for line in sheet.checklist:
        lines.setdefault(line.number, []).append(line)
    checklist = [
        {"number": n, "titles": [x.title for x in group], "family": group[0].family}
        for n, group in lines.items()
    ]
    rows, previous = [], None
    for row in sheet.rows:
        rows.append(
            {
                "row": row,
                "family": ITEM_FAMILY.get(row.item, ""),
                "title": Msg("term", term=Term("item", str(row.item)))
                if row.item != previous
                else "",
            }
        )
        previous = row.item
    return checklist, rows


def _reading_order(sheet: CheatSheet) -> list[Msg]:
    """The decoder's order of readings per round, with the families' printed names."""
    return [
        Msg(
            "sheet.round",
            round=Msg(f"sheet.round.{o.round}"),
            first=o.side_hands[0],
            last=o.side_hands[-1],
            # The engine builds every label as a Msg (its dict is typed by the wider str).
            families=Join(tuple(cast(Msg, FAMILY_LABELS[f]) for f in o.families)),
        )
        for o in sheet.reading_order
    ]


def _description(convention: Convention) -> str:
    """The convention's description: a message for a shipped card."""
    msg_id = f"convention.{convention.name}.description"
    return Msg(msg_id) if msg_id in templates() else convention.description


@require_GET
def cheatsheet_view(request: HttpRequest) -> HttpResponse:
    """The convention card on one page (printable on A4), generated from the engine's data."""
    convention = chosen_convention(request, own_cards=True)
    sheet = cheatsheet(convention)
    checklist, rows = _sheet_lines(sheet)
    return render(
        request,
        "learn/cheatsheet.html",
        {
            "sheet": sheet,
            "checklist": checklist,
            "rows": rows,
            "reading_order": _reading_order(sheet),
            "description": _description(convention),
            "intro": Msg("sheet.intro"),
            "must_play_after_pass": sheet.card_and_pass_reply == ("play",),
            "convention": convention,
            # The shipped cards, and the club's own card when it is the one shown.
            "conventions": [*CONVENTIONS.values()]
            + ([] if convention.name in CONVENTIONS else [convention]),
            "odds_examples": cheatsheet_odds(convention.name),
        },
    )


@require_GET
def glossary_view(request: HttpRequest) -> HttpResponse:
    """Every game and card term in each language side by side (English and Japanese; the
    page's language first), with a one-line definition in the page's language, from
    :mod:`trainer.learn.glossary`."""
    language = selectors.active_language()
    columns = glossary.languages(first=language)  # the page's language leads
    return render(
        request,
        "learn/glossary.html",
        {
            "columns": columns,
            "groups": [
                {
                    "id": group.id,
                    "title": group.title(language),
                    "terms": [
                        {
                            "id": term.id,
                            "anchor": "term-" + term.id.replace(":", "-").replace(".", "_"),
                            "names": [(code, term.names.get(code, "")) for code, _ in columns],
                            "notation": term.notation,
                            "definition": term.definition(language),
                        }
                        for term in group.terms
                    ],
                }
                for group in glossary.groups()
            ],
        },
    )
