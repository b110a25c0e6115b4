"""Drill feedback links to the lesson section and cheat-sheet row that teach the skill."""

import re

import pytest
from django.conf import settings

from engine.drills import KINDS, skills_for, spec_for
from engine.signals import CONVENTIONS
from tests.trainer.factories import right_option
from trainer.core import teaching
from trainer.core.seeding import discover_loaders, load_file
from trainer.learn.models import Lesson
from trainer.learn.teaching import ITEM_SECTIONS, SECTION_TITLES

pytestmark = pytest.mark.django_db
LESSONS = sorted((settings.BASE_DIR / "seeds" / "lessons").glob("*.md"))


@pytest.fixture
def lessons():
    discover_loaders()
    for path in LESSONS:
        load_file(path)


def _ids(html: str) -> list[str]:
    return re.findall(r'\bid="([^"]+)"', html)


def test_every_section_a_kind_or_an_item_names_has_a_title():
    named = set(ITEM_SECTIONS.values())
    for kind in KINDS:
        spec = spec_for(kind)
        named |= ({spec.lesson_for(str(s)) for s in skills_for(kind)} | {spec.lesson}) - {None}
    assert named == set(SECTION_TITLES)


def test_every_section_in_the_map_is_a_heading_of_its_lesson(client, lessons):
    for (slug, anchor), title in SECTION_TITLES.items():
        assert Lesson.objects.filter(slug=slug).exists(), slug
        html = client.get(f"/learn/{slug}/").content.decode()
        assert f'id="{anchor}"' in html, (slug, anchor)
        assert title.split(":")[0] in html


def test_every_drill_skill_links_to_a_lesson(lessons):
    for kind in KINDS:
        for skill in skills_for(kind):
            for convention in CONVENTIONS:
                links = teaching.links_for(kind, str(skill), convention)
                assert any(link.label.startswith("Lesson:") for link in links), (kind, skill)


def test_every_cheat_sheet_link_has_its_row(client):
    for convention in CONVENTIONS:
        html = client.get(f"/cheatsheet/?convention={convention}").content.decode()
        ids = _ids(html)
        assert len(ids) == len(set(ids)), "duplicate ids on the cheat sheet"
        for kind in ("lead", "read", "reply", "checklist"):
            for skill in skills_for(kind):
                for link in teaching.links_for(kind, str(skill), convention):
                    if link.url.startswith("/cheatsheet/"):
                        assert link.url.split("#")[1] in ids, link.url


def test_lead_feedback_links_to_the_fours_section_and_row(client, lessons):
    from engine.drills import DrillParams, make_drill
    from engine.signals import encode

    drill = make_drill("lead", 3, DrillParams(side_hand=1, items=("fours",)))
    c1, c2 = encode(drill.hand, 1).plays[0]
    url = "/drills/lead/3/?v=2&side_hand=1&items=fours"
    page = client.get(url).content.decode()
    showing = re.search(r'name="showing" value="([^"]+)"', page)[1]
    response = client.post(url, {"showing": showing, "c1": str(c1), "c2": str(c2 or "pass")})
    html = response.content.decode()
    assert 'href="/learn/strong-signals/#fours"' in html
    assert 'href="/cheatsheet/?convention=parlett-2008#item-fours"' in html


def test_read_feedback_links_to_the_reading_lesson(client, lessons):
    from engine.drills import DrillParams, make_drill

    drill = make_drill("read", 8, DrillParams(side_hand=2))
    url = "/drills/read/8/?v=2&side_hand=2"
    page = client.get(url).content.decode()
    showing = re.search(r'name="showing" value="([^"]+)"', page)[1]
    html = client.post(url, {"showing": showing, "option": right_option(drill)}).content.decode()
    assert 'href="/learn/reading-partner/#the-grid"' in html
    assert "Learn why:" in html


def test_every_lesson_ends_with_practise_this_drills_that_open(client, lessons):
    for slug in Lesson.objects.values_list("slug", flat=True):
        html = client.get(f"/learn/{slug}/").content.decode()
        assert "Practise this" in html, slug
        section = html.split('id="practise-title"', 1)[1].split("</section>", 1)[0]
        urls = re.findall(r'href="(/drills/[^"]+)"', section)
        assert urls, slug
        for url in urls:
            response = client.get(url.replace("&amp;", "&"), follow=True)
            assert response.status_code == 200, (slug, url)
            assert "drill-area" in response.content.decode(), (slug, url)


def test_practise_this_starts_a_session_that_leads_back_to_the_lesson(client, lessons):
    from tests.trainer import factories as f

    client.force_login(f.user("learner"))
    html = client.get("/learn/strong-signals/").content.decode()
    section = html.split('id="practise-title"', 1)[1].split("</section>", 1)[0]
    urls = re.findall(r'href="(/drills/practise/[^"]+)"', section)
    assert len(urls) == 2  # lead and read these signals
    response = client.get(urls[0], follow=True)
    page = response.content.decode()
    frame = page.split("data-session>", 1)[1].split("</div>", 1)[0]
    assert "Strong signals: leading its signals" in frame
    assert "Drill 1 of 10 · 0 right · pass mark 8" in " ".join(
        re.sub(r"<[^>]+>", " ", frame).split()
    )
    assert 'href="/learn/strong-signals/"' in frame


def test_lesson_from_start_here_links_back_to_the_path(client, lessons):
    from tests.trainer import factories as f

    client.force_login(f.user("solo"))
    html = client.get("/learn/strong-signals/?path=1").content.decode()
    assert 'href="/start/4/next/"' in html
    assert 'href="/start/"' in html


def test_drills_menu_is_in_learning_order_with_difficulty(client):
    html = client.get("/drills/").content.decode()
    order = re.findall(r'<h2 id="kind-([\w-]+)">', html)
    assert order == list(KINDS)
    assert html.count('class="pill level-') == len(KINDS)
    assert "Beginner" in html and "Advanced" in html


def _section_text(html: str, anchor: str) -> str:
    """The text of a lesson section: from its heading to the next ``<h2``."""
    part = html.split(f'id="{anchor}"', 1)[1].split("<h2", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", part).split())


def test_a_hand_worth_nothing_links_to_the_section_that_teaches_it(client, lessons):
    """Issue #20: the score drill for "nothing" sent learners to the left-overs. Its link is
    the lesson section (from the lesson map) whose text says five cards without a combination
    are worth nothing — the one listing the combinations and their values."""
    from engine.drills import DrillParams, make_drill

    links = [
        link
        for link in teaching.links_for("score", "nothing", "parlett-2008")
        if link.label.startswith("Lesson:")
    ]
    assert [link.url for link in links] == ["/learn/the-game/#what-you-are-building"]
    slug, anchor = links[0].url.strip("/").removeprefix("learn/").split("/#")
    section = _section_text(client.get(f"/learn/{slug}/").content.decode(), anchor)
    assert "Five cards with none of these are worth nothing" in section
    assert "Straight flush" in section  # the table of combinations and their values

    for seed in range(1, 200):  # a drill of the skill shows the link after an answer
        drill = make_drill("score", seed, DrillParams(items=("nothing",)))
        if drill.skill == "nothing":
            break
    url = f"/drills/score/{seed}/?v=2&items=nothing"
    page = client.get(url).content.decode()
    showing = re.search(r'name="showing" value="([^"]+)"', page)[1]
    html = client.post(url, {"showing": showing, "option": right_option(drill)}).content.decode()
    learn = html.split("Learn why:", 1)[1].split("</p>", 1)[0]
    assert 'href="/learn/the-game/#what-you-are-building"' in learn
    assert "left-overs" not in learn
