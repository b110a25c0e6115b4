"""Lessons (``/learn/``) and the printable cheat sheet (``/cheatsheet/``).

Both show the engine's data for one convention card: the one in ``?convention=``, else the
visitor's (or their club's) default from :func:`trainer.preferences.drill_defaults`.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEM_FAMILY,
    ITEM_TITLES,
    CheatSheet,
    Convention,
    cheatsheet,
)
from engine.signals.cheat_sheet import FAMILY_LABELS, ChecklistLine
from trainer import preferences
from trainer.clubs import selectors as club_selectors
from trainer.clubs.curriculum import get_step
from trainer.learn.rendering import render_markdown
from trainer.models import Lesson
from trainer.odds import cheatsheet_odds


def chosen_convention(request: HttpRequest) -> Convention:
    """``?convention=`` when it names a convention, else the visitor's default."""
    name = request.GET.get("convention", "")
    if name not in CONVENTIONS:
        name = preferences.drill_defaults(request).get("convention", DEFAULT_CONVENTION.name)
    return CONVENTIONS.get(name, DEFAULT_CONVENTION)


@require_GET
def lesson_list(request: HttpRequest) -> HttpResponse:
    memberships = list(club_selectors.memberships_for(user=request.user)[:1])
    return render(request, "learn/lesson_list.html", {
        "lessons": Lesson.objects.all(),
        "club": memberships[0].club if memberships else None,
    })


def _path_step(request: HttpRequest, lesson: Lesson) -> dict | None:
    """When the visitor came from their club's path (``?club=<slug>``): links back to it."""
    slug = request.GET.get("club", "")
    step = get_step(lesson.step) if lesson.step else None
    if not slug or step is None:
        return None
    membership = club_selectors.membership_get(user=request.user, slug=slug)
    if membership is None:
        return None
    return {
        "club": membership.club, "step": step,
        "drills_url": reverse("clubs:step-next", args=[slug, step.number]),
        "path_url": reverse("clubs:path", args=[slug]),
    }


@require_GET
def lesson_detail(request: HttpRequest, slug: str) -> HttpResponse:
    lesson = Lesson.objects.filter(slug=slug).first()
    if lesson is None:
        raise Http404("No such lesson.")
    convention = chosen_convention(request)
    siblings = list(Lesson.objects.only("slug", "title", "position"))
    index = next(i for i, s in enumerate(siblings) if s.pk == lesson.pk)
    return render(request, "learn/lesson.html", {
        "lesson": lesson,
        "html": render_markdown(lesson.body, convention),
        "convention": convention,
        "conventions": CONVENTIONS.values(),
        "is_default": convention == DEFAULT_CONVENTION,
        "previous": siblings[index - 1] if index > 0 else None,
        "next": siblings[index + 1] if index + 1 < len(siblings) else None,
        "path": _path_step(request, lesson),
    })


def _sheet_lines(sheet: CheatSheet) -> tuple[list[dict], list[dict]]:
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
        rows.append({"row": row, "family": ITEM_FAMILY.get(row.item, ""),
                     "title": ITEM_TITLES[row.item] if row.item != previous else ""})
        previous = row.item
    return checklist, rows


def _reading_order(sheet: CheatSheet) -> list[dict]:
    """The decoder's order of readings per round, with the families' printed names."""
    return [
        {"round": o.round, "first": o.side_hands[0], "last": o.side_hands[-1],
         "families": [FAMILY_LABELS[f] for f in o.families]}
        for o in sheet.reading_order
    ]


@require_GET
def cheatsheet_view(request: HttpRequest) -> HttpResponse:
    """The convention card on one page (printable on A4), generated from the engine's data."""
    convention = chosen_convention(request)
    sheet = cheatsheet(convention)
    checklist, rows = _sheet_lines(sheet)
    return render(request, "learn/cheatsheet.html", {
        "sheet": sheet, "checklist": checklist, "rows": rows,
        "reading_order": _reading_order(sheet),
        "must_play_after_pass": sheet.card_and_pass_reply == ("play",),
        "convention": convention, "conventions": CONVENTIONS.values(),
        "odds_examples": cheatsheet_odds(convention.name),
    })
