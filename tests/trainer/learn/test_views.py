import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client

from engine.signals import CONVENTIONS, ITEM_TITLES, cheatsheet, decode, encode
from trainer.core.seeding import discover_loaders, load_file
from trainer.learn.examples import block_cards, block_convention, block_signal
from trainer.learn.models import Lesson
from trainer.learn.rendering import example_blocks

from .. import factories as f
from ..clubs import factories as cf

pytestmark = pytest.mark.django_db
LESSONS = sorted((settings.BASE_DIR / "seeds" / "lessons").glob("*.md"))


@pytest.fixture
def lessons():
    discover_loaders()
    for path in LESSONS:
        load_file(path)
    return list(Lesson.objects.all())


def _text(html: str) -> str:
    """Visible text with tags dropped and whitespace collapsed (compare with ``_norm``)."""
    return _norm(unescape(re.sub(r"<[^>]+>", "", html)))


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_lessons_page_lists_every_lesson_in_order(client, lessons):
    response = client.get("/learn/")

    titles = re.findall(r'<h2><a href="/learn/[\w-]+/">([^<]+)</a></h2>', response.text)
    assert [unescape(t) for t in titles] == [lesson.title for lesson in lessons]
    assert len(titles) == len(LESSONS) >= 9


def test_unknown_lesson_is_404(client, lessons):
    assert client.get("/learn/no-such-lesson/").status_code == 404


def test_every_lesson_renders_without_a_broken_example(client, lessons):
    for lesson in lessons:
        response = client.get(f"/learn/{lesson.slug}/")
        assert response.status_code == 200, lesson.slug
        assert "This example cannot be shown" not in response.text
        assert "```" not in response.text


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_lesson_examples_show_the_engines_answers(client, lessons, convention):
    """Every hand example on every lesson page shows the engine's item and preferred lead, and
    every signal example the engine's primary reading, for the chosen convention (or the one
    the block names), and every grid the cheat sheet's cells."""
    checked = 0
    for lesson in lessons:
        page = client.get(f"/learn/{lesson.slug}/?convention={convention}").text
        examples = page.split('class="example example-')[1:]
        blocks = example_blocks(lesson.body)
        assert len(examples) == len(blocks), lesson.slug
        for block, html in zip(blocks, examples, strict=True):
            text = _text(html)
            conv = block_convention(block, CONVENTIONS[convention])
            if block.kind == "grid":
                for row in cheatsheet(conv).grid:
                    for cell in row.cells:
                        assert _norm(cell) in text, lesson.slug
            elif block.kind == "hand":
                side = int(block.fields.get("side_hand", "1"))
                encoding = encode(block_cards(block), side, conv)
                assert _norm(ITEM_TITLES[encoding.item]) in text, lesson.slug
                if encoding.plays:
                    c1, c2 = encoding.plays[0]
                    lead = html.split("example-lead")[1].split("</p>")[0]
                    assert lead.index(c1.label) < (lead.index(c2.label) if c2 else 10**6)
                    checked += 1
            elif block.kind == "signal":
                side = int(block.fields.get("side_hand", "1"))
                c1, c2 = block_signal(block)
                visible = block_cards(block, key="visible") if "visible" in block.fields else ()
                readings = decode(c1, c2, side, conv, visible)
                if readings:
                    assert _norm(readings[0].text) in text, lesson.slug
                checked += 1
    assert checked > 25


def test_lesson_from_the_path_links_to_its_drills(lessons):
    member = f.user()
    club = cf.club(f.user(), "Riverside")
    cf.join(club, member)
    client = Client()
    client.force_login(member)

    response = client.get("/learn/strong-signals/?club=riverside")

    assert "/clubs/riverside/path/4/next/" in response.text
    assert "Back to your path" in response.text


def test_lesson_ignores_a_club_the_visitor_is_not_in(client, lessons):
    cf.club(f.user(), "Riverside")

    response = client.get("/learn/strong-signals/?club=riverside")

    assert "/clubs/riverside/" not in response.text


def test_lesson_examples_use_the_visitors_convention(client, lessons):
    session = client.session
    session["trainer.preferences"] = {"convention": "teach-yourself-1994"}
    session.save()

    response = client.get("/learn/strong-signals/")

    assert "Worked out by the trainer's engine (Teach Yourself 1994)" in response.text
    assert "The text describes the Parlett 2008 card" in response.text


# The cheat sheet --------------------------------------------------------------------------


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_cheatsheet_is_generated_from_the_engine(client, convention):
    sheet = cheatsheet(CONVENTIONS[convention])

    response = client.get(f"/cheatsheet/?convention={convention}")

    text = _text(response.text)
    assert response.status_code == 200
    assert sheet.title in text
    for row in sheet.grid:
        for cell in row.cells:
            assert _norm(cell) in text
    for line in sheet.checklist:
        assert line.title in text
    for row in sheet.rows:
        assert _norm(row.cards) in text
    assert response.text.count('<tr class="family-') == len(sheet.rows)
    for order in sheet.reading_order:
        families = ", ".join(f.replace("-", " ") for f in order.families)
        assert (
            f"{order.round} round ({order.side_hands[0]}–{order.side_hands[-1]}): {families}"
            in text
        )
    assert "partner must play a card, neither pass nor “Play!”" in text


def test_cheatsheet_defaults_to_the_clubs_convention():
    member = f.user()
    cf.join(cf.club(f.user(), convention="teach-yourself-1994"), member)
    client = Client()
    client.force_login(member)

    response = client.get("/cheatsheet/")

    assert '<option value="teach-yourself-1994" selected>' in response.text


def test_cheatsheet_ignores_an_unknown_convention(client):
    response = client.get("/cheatsheet/?convention=house-special")

    assert response.status_code == 200
    assert '<option value="parlett-2008" selected>' in response.text


def test_cheatsheet_prints_on_a4():
    css = (settings.BASE_DIR / "trainer" / "static" / "trainer" / "site.css").read_text()

    assert re.search(r"@page\s*{\s*size:\s*A4;\s*margin:\s*8mm;", css)
