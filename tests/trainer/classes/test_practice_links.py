"""Issue #20, item 1: "Set practice on Fours" opens the assignment form with the skill's kind,
its item (or a score drill's combination) and a title ticked and filled in, from the link's
query values as the form checks them; values it does not know are dropped, never a 500."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.utils import timezone

from tests.trainer.classes import factories as f
from trainer.classes.forms import AssignmentForm
from trainer.classes.models import Assignment

pytestmark = pytest.mark.django_db


def _checked(html: str, name: str) -> list[str]:
    """The values of the ticked boxes named ``name``."""
    return [
        m.group(1)
        for m in re.finditer(rf'<input type="checkbox" name="{name}" value="([^"]+)"[^>]*>', html)
        if " checked" in m.group(0)
    ]


def _title(html: str) -> str | None:
    m = re.search(r'<input type="text" name="title"[^>]*?(?: value="([^"]*)")?[^>]*>', html)
    assert m is not None
    return unescape(m.group(1)) if m.group(1) is not None else None


def _weak_class(kind: str, skill: str, *, wrong: int = 6):
    """A class whose students got ``kind`` × ``skill`` wrong ``wrong`` times (ranked weakest)."""
    room = f.classroom()
    student = f.student_in(room)
    work = f.built(room, kinds=(kind,), items=(skill,), count=wrong, title="Week one")
    for d in work.drills.all():
        f.answer_drill(student, d, correct=False)
    return room


def _practice_link(client, room) -> str:
    html = client.get(f"/classes/{room.pk}/dashboard/").text
    links = re.findall(r'href="(/classes/\d+/assignments/new/\?[^"]+)"', html)
    assert len(links) == 1, links
    return unescape(links[0])


def test_set_practice_on_a_score_drills_fours_ticks_kind_item_and_titles_it(client):
    room = _weak_class("score", "fours")
    client.force_login(f.teacher_of(room))

    link = _practice_link(client, room)
    form = client.get(link).text

    assert link.endswith("?kinds=score&items=fours")
    assert _checked(form, "kinds") == ["score"]
    assert _checked(form, "items") == ["fours"]  # not "any item"
    assert _checked(form, "combos") == []
    assert _title(form) == "Practice: Fours"


def test_set_practice_on_a_read_item_uses_the_items_name(client):
    room = _weak_class("read", "fours")
    client.force_login(f.teacher_of(room))

    form = client.get(_practice_link(client, room)).text

    assert _checked(form, "kinds") == ["read"]
    assert _checked(form, "items") == ["fours"]
    assert _title(form) == "Practice: Four of a kind"


def test_set_practice_on_a_combination_no_item_names_ticks_the_combination(client):
    room = _weak_class("score", "straight_flush")
    client.force_login(f.teacher_of(room))

    link = _practice_link(client, room)
    form = client.get(link).text

    assert link.endswith("?kinds=score&combos=straight_flush")
    assert _checked(form, "items") == []
    assert _checked(form, "combos") == ["straight_flush"]
    assert _title(form) == "Practice: Straight flush"


def test_the_prefilled_form_sent_as_it_is_sets_only_that_skill(client):
    room = _weak_class("score", "straight_flush")
    client.force_login(f.teacher_of(room))
    form = client.get(_practice_link(client, room)).text

    response = client.post(
        f"/classes/{room.pk}/assignments/new/",
        {
            "title": _title(form),
            "due_on": (timezone.localdate() + timedelta(days=7)).isoformat(),
            "source": "built",
            "kinds": _checked(form, "kinds"),
            "items": _checked(form, "items"),
            "combos": _checked(form, "combos"),
            "count": "2",
            "convention": "parlett-2008",
            "rule": "classic",
        },
    )

    assert response.status_code == 302, response.text[:2000]
    made = Assignment.objects.get(title="Practice: Straight flush")
    assert made.item_list == ["straight_flush"]
    assert {d.drill_params.items for d in made.drills.all()} == {("straight_flush",)}


@pytest.mark.parametrize(
    "query",
    [
        "kinds=nope&items=bogus&combos=%3Cscript%3E",
        "kinds=&items=&combos=",
        "title=Anything+I+like&source=play&deals=9",  # not pre-fillable
        "kinds=read&kinds=read&kinds=" + "x" * 500,
    ],
)
def test_unknown_query_values_are_ignored(client, query):
    room = f.classroom()
    client.force_login(f.teacher_of(room))

    response = client.get(f"/classes/{room.pk}/assignments/new/?{query}")

    assert response.status_code == 200
    # The page's own form (the language switcher repeats the address, escaped, elsewhere).
    text = response.text
    start = text.index('class="form assignment-form"')
    form = text[start : text.index("</form>", start)]
    assert _checked(form, "kinds") in ([], ["read"])
    assert _checked(form, "items") == [] and _checked(form, "combos") == []
    assert "bogus" not in form and "<script>" not in form and "%3Cscript" not in form
    assert "Anything I like" not in form
    assert _title(form) in (None, "Practice: Read partner's signal")


def test_known_values_are_kept_beside_unknown_ones(client):
    room = f.classroom()
    client.force_login(f.teacher_of(room))

    form = client.get(
        f"/classes/{room.pk}/assignments/new/?kinds=lead&kinds=tea&items=fours&items=bogus"
    ).text

    assert _checked(form, "kinds") == ["lead"]
    assert _checked(form, "items") == ["fours"]
    assert _title(form) == "Practice: Four of a kind"


def test_without_a_kind_the_skills_are_ticked_but_nothing_is_titled(client):
    room = f.classroom()
    client.force_login(f.teacher_of(room))

    form = client.get(f"/classes/{room.pk}/assignments/new/?items=fours&combos=straight").text

    assert _checked(form, "kinds") == []
    assert (_checked(form, "items"), _checked(form, "combos")) == (["fours"], ["straight"])
    assert _title(form) is None


def test_the_form_titles_several_skills_and_kinds():
    query = {"kinds": ["read", "score"], "items": ["fours", "two_pair"], "combos": ["flush"]}
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    for key, values in query.items():
        data.setlist(key, values)

    initial = AssignmentForm.initial_from_query(data)

    assert initial == {
        "kinds": ["read", "score"],
        "items": ["fours", "two_pair"],
        "combos": ["flush"],
        "title": "Practice: Four of a kind, Two pair, Flush",
    }
    only_kinds = QueryDict("kinds=lead")
    assert AssignmentForm.initial_from_query(only_kinds)["title"] == "Practice: Lead a signal"


def test_another_teachers_class_form_is_not_found_prefilled_or_not(client):
    room = _weak_class("score", "fours")
    client.force_login(f.user("stranger"))
    f.classroom(f.user("stranger2"))

    response = client.get(f"/classes/{room.pk}/assignments/new/?kinds=score&items=fours")

    assert response.status_code == 404
