"""Each drill kind's own template (``templates/trainer/drills/kinds/<kind>.html``): its name and
its answer form, included by name (``trainer.core.game.kinds``), never chosen by an if on the
kind."""

import random
import re
import uuid

import pytest
from django.template.loader import get_template

from engine.drills import KINDS, make_drill, spec_for
from tests.trainer import factories
from trainer.core.game.kinds import PARTS, kind_template
from trainer.drills.curation import wrong_answer
from trainer.progress import services

pytestmark = pytest.mark.django_db

NAMES = {
    "score": ("Score drill", "得点ドリル"),
    "checklist": ("Checklist drill", "チェックリストドリル"),
    "lead": ("Lead drill", "リードドリル"),
    "read": ("Read drill", "読みドリル"),
    "reply": ("Reply drill", "応答ドリル"),
    "last-hand": ("Last-hand drill", "最後の回ドリル"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_its_template_with_every_part(kind):
    for part in PARTS:
        assert get_template(kind_template(kind, part))
    assert get_template(kind_template(kind, "name")).render({}).strip() == NAMES[kind][0]


def test_an_unknown_kind_or_part_has_no_template():
    with pytest.raises(ValueError, match="unknown drill kind"):
        kind_template("poker", "name")
    with pytest.raises(ValueError, match="no part"):
        kind_template("lead", "footer")


@pytest.mark.parametrize("language", [0, 1])
def test_the_progress_page_names_each_missed_drill_by_its_kind(client, language):
    user = factories.user()
    for seed, kind in enumerate(KINDS, start=40):
        drill = make_drill(kind, seed)
        services.attempt_record(
            user=user,
            drill=drill,
            answer=wrong_answer(drill, random.Random(seed)),
            showing=services.Showing(uuid.uuid4(), 0),
        )
    client.force_login(user)
    headers = {"HTTP_ACCEPT_LANGUAGE": "ja"} if language else {}
    html = client.get("/progress/", **headers).content.decode()
    for seed, kind in enumerate(KINDS, start=40):
        assert re.search(rf">{NAMES[kind][language]} {seed}</a>", html), kind


@pytest.mark.parametrize("kind", KINDS)
def test_the_drill_page_shows_the_side_hand_when_the_kind_has_one(client, kind):
    html = client.get(f"/drills/{kind}/3/?v=2").content.decode()
    assert ("Side hand" in html) == spec_for(kind).has_side_hand


@pytest.mark.parametrize("kind", KINDS)
def test_the_drill_page_asks_for_the_answer_through_the_kinds_template(client, kind):
    html = client.get(f"/drills/{kind}/3/?v=2").content.decode()
    form = html.split("data-drill-form>", 1)[1].split("</form>", 1)[0]
    if make_drill(kind, 3).options:
        assert form.count('name="option"') == len(make_drill(kind, 3).options)
        assert 'name="c1"' not in form
    else:
        assert "Choose your first card." in form and 'name="c1"' in form
