"""Lessons per language: ``seeds/lessons/`` (English) and ``seeds/lessons/<code>/``.

The Japanese lessons are written for Japanese readers, not translated line by line, but they
must teach with the same engine-computed examples, keep every section anchor the feedback and
"practise this" links point at, and fall back to English where a lesson is missing.
"""

import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from engine.signals import CONVENTIONS, encode
from trainer.core import seeding
from trainer.core.seeding import discover_loaders, load_file, read_seed
from trainer.learn import selectors
from trainer.learn.examples import block_cards, block_convention
from trainer.learn.models import Lesson
from trainer.learn.rendering import example_blocks, render_markdown
from trainer.learn.teaching import SECTION_TITLES, links_for

pytestmark = pytest.mark.django_db
LESSON_DIR = settings.BASE_DIR / "seeds" / "lessons"
ENGLISH = sorted(LESSON_DIR.glob("*.md"))
JAPANESE = sorted((LESSON_DIR / "ja").glob("*.md"))
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
#: A Japanese character (kana or kanji): Japanese text is on the page.
KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def lessons():
    discover_loaders()
    for path in [*ENGLISH, *JAPANESE]:
        load_file(path)


def _anchors(body: str) -> list[tuple[str, str]]:
    html = render_markdown(body, CONVENTIONS["parlett-2008"])
    return re.findall(r'<h([2-6]) id="([^"]+)"', html)


def _headings(body: str) -> dict[str, str]:
    """Section anchor → heading text."""
    html = render_markdown(body, CONVENTIONS["parlett-2008"])
    return {
        anchor: unescape(re.sub(r"<[^>]+>", "", text))
        for anchor, text in re.findall(r'<h[2-6] id="([^"]+)">(.*?)</h[2-6]>', html)
    }


def _without_captions(body: str) -> list[tuple[str, dict[str, str], str]]:
    return [
        (b.kind, {k: v for k, v in b.fields.items() if k != "caption"}, b.main)
        for b in example_blocks(body)
    ]


def _cards_shown(html: str) -> list[list[tuple[str, str]]]:
    """Per example on a page: the cards it shows, as (suit class, rank) — language-free."""
    examples = html.split('class="example example-')[1:]
    return [
        re.findall(r'class="card[^"]*?(suit-\w+)[^"]*"[^>]*><span class="rank"[^>]*>(\w+)<', e)
        for e in examples
    ]


# The files ---------------------------------------------------------------------------------


def test_every_english_lesson_has_a_japanese_one_under_the_same_file_name():
    assert [p.name for p in JAPANESE] == [p.name for p in ENGLISH]
    assert len(JAPANESE) == 10


@pytest.mark.parametrize("name", [p.name for p in ENGLISH])
def test_japanese_lesson_keeps_slug_place_examples_anchors_and_links(name):
    en, ja = read_seed(LESSON_DIR / name), read_seed(LESSON_DIR / "ja" / name)

    assert [ja.get(k) for k in ("slug", "position", "step")] == [
        en.get(k) for k in ("slug", "position", "step")
    ]
    assert _without_captions(ja["body"]) == _without_captions(en["body"])
    assert _anchors(ja["body"]) == _anchors(en["body"])
    assert sorted(re.findall(r"\]\((/[^)]*)\)", ja["body"])) == sorted(
        re.findall(r"\]\((/[^)]*)\)", en["body"])
    )
    assert KANA.search(ja["title"]) and KANA.search(ja["summary"])
    assert not KANA.search(en["body"])


# Loading -----------------------------------------------------------------------------------


def test_seed_loads_one_row_per_lesson_and_language(lessons):
    assert Lesson.objects.filter(language="en").count() == len(ENGLISH)
    assert Lesson.objects.filter(language="ja").count() == len(JAPANESE)
    assert set(Lesson.objects.filter(language="ja").values_list("slug", flat=True)) == set(
        Lesson.objects.filter(language="en").values_list("slug", flat=True)
    )


def test_loading_twice_keeps_one_row_per_language(lessons):
    for path in JAPANESE[:2]:
        load_file(path)

    assert Lesson.objects.count() == len(ENGLISH) + len(JAPANESE)


def test_a_folder_named_like_a_language_not_in_languages_is_an_error(tmp_path):
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "01-a.md").write_text(
        "---\nkind: lesson\nslug: a\ntitle: A\n---\nText.\n", encoding="utf-8"
    )

    with pytest.raises(seeding.SeedError, match="'xx' names no language"):
        seeding.load_all(tmp_path)
    assert not Lesson.objects.exists()


# Pages -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", JAPANESE, ids=lambda p: p.stem)
def test_japanese_lesson_page_renders_with_the_english_pages_examples(client, lessons, path):
    slug = read_seed(path)["slug"]
    ja = client.get(f"/learn/{slug}/", **JA)
    en = client.get(f"/learn/{slug}/", **EN)

    assert ja.status_code == en.status_code == 200
    assert ja.headers["Content-Language"] == "ja"
    title = Lesson.objects.get(slug=slug, language="ja").title
    assert f'<h1 id="lesson-title">{title}</h1>' in ja.text
    assert '<article class="lesson" aria-labelledby="lesson-title" lang="ja">' in ja.text
    assert "This example cannot be shown" not in ja.text and "```" not in ja.text
    assert "lesson-untranslated" not in ja.text
    # Same examples, worked out by the engine the same way, whatever the words around them.
    shown = _cards_shown(ja.text)
    assert shown == _cards_shown(en.text)
    assert len(shown) == len(example_blocks(read_seed(path)["body"]))
    # Same section anchors on the page.
    ids = re.findall(r'<h[2-6] id="([^"]+)"', ja.text)
    assert ids == re.findall(r'<h[2-6] id="([^"]+)"', en.text)


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_japanese_hand_examples_show_the_engines_preferred_lead(client, lessons, convention):
    checked = 0
    for lesson in Lesson.objects.filter(language="ja"):
        page = client.get(f"/learn/{lesson.slug}/?convention={convention}", **JA).text
        examples = page.split('class="example example-')[1:]
        for block, html in zip(example_blocks(lesson.body), examples, strict=True):
            if block.kind != "hand":
                continue
            conv = block_convention(block, CONVENTIONS[convention])
            encoding = encode(block_cards(block), int(block.fields.get("side_hand", "1")), conv)
            if not encoding.plays:
                continue
            c1, _ = encoding.plays[0]
            lead = html.split("example-lead")[1].split("</p>")[0]
            first = re.search(
                r'class="card[^"]*?(suit-\w+)[^"]*"[^>]*><span class="rank"[^>]*>(\w+)<', lead
            )
            assert first is not None, lesson.slug
            assert (first[1], first[2]) == (
                f"suit-{c1.suit.name.lower()}",
                "10" if c1.rank == 10 else c1.rank_char,
            ), lesson.slug
            checked += 1
    assert checked >= 20


def test_lesson_list_in_japanese_lists_the_japanese_lessons_in_order(client, lessons):
    response = client.get("/learn/", **JA)

    titles = re.findall(r'<h2><a href="/learn/([\w-]+)/">([^<]+)</a></h2>', response.text)
    japanese = {lesson.slug: lesson.title for lesson in Lesson.objects.filter(language="ja")}
    english = list(Lesson.objects.filter(language="en").values_list("slug", flat=True))
    assert [slug for slug, _ in titles] == english
    assert [unescape(t) for _, t in titles] == [japanese[s] for s in english]
    assert "lesson-untranslated" not in response.text


def test_english_visitors_still_get_the_english_lessons(client, lessons):
    response = client.get("/learn/strong-signals/", **EN)

    assert '<h1 id="lesson-title">Strong signals</h1>' in response.text
    assert 'lang="en"' in response.text and "ストレートフラッシュの形" not in response.text


def test_a_missing_translation_falls_back_to_english_with_a_note(client, lessons):
    Lesson.objects.filter(slug="replying", language="ja").delete()

    page = client.get("/learn/replying/", **JA)
    listing = client.get("/learn/", **JA)
    translated = client.get("/learn/reading-partner/", **JA)

    assert page.status_code == 200
    assert '<h1 id="lesson-title">Replying</h1>' in page.text
    assert '<article class="lesson" aria-labelledby="lesson-title" lang="en">' in page.text
    assert "lesson-untranslated" in page.text
    note = page.text.split('class="callout lesson-untranslated" lang="ja">')[1].split("</p>")[0]
    assert KANA.search(note) and "translated" not in note
    assert listing.text.count("lesson-untranslated") == 1
    assert ">Replying</a>" in listing.text
    assert "lesson-untranslated" not in translated.text
    # The neighbours of a translated lesson are still found through the fallback.
    assert 'href="/learn/replying/" rel="next" lang="en"' in translated.text


def test_a_third_language_is_a_folder_of_lessons(client, settings, tmp_path, lessons):
    """No code: a language in LANGUAGES (with Django's own catalog here) and a folder."""
    settings.LANGUAGES = [*settings.LANGUAGES, ("fr", "French")]
    folder = tmp_path / "lessons" / "fr"
    folder.mkdir(parents=True)
    english = (LESSON_DIR / "01-the-game.md").read_text(encoding="utf-8")
    french = english.replace("title: The game and one deal", "title: Le jeu et une donne")
    (folder / "01-the-game.md").write_text(french, encoding="utf-8")

    seeding.load_all(tmp_path)
    game = client.get("/learn/the-game/", HTTP_ACCEPT_LANGUAGE="fr")
    other = client.get("/learn/strong-signals/", HTTP_ACCEPT_LANGUAGE="fr")
    listing = client.get("/learn/", HTTP_ACCEPT_LANGUAGE="fr")

    assert Lesson.objects.get(slug="the-game", language="fr").title == "Le jeu et une donne"
    assert '<h1 id="lesson-title">Le jeu et une donne</h1>' in game.text
    assert "lesson-untranslated" not in game.text
    assert '<h1 id="lesson-title">Strong signals</h1>' in other.text
    assert "lesson-untranslated" in other.text
    assert listing.text.count("lesson-untranslated") == len(ENGLISH) - 1


def test_language_chain_tries_the_base_language_before_english(lessons):
    assert [lesson.language for lesson in selectors.lessons("ja-jp")] == ["ja"] * len(JAPANESE)
    assert [lesson.language for lesson in selectors.lessons("en")] == ["en"] * len(ENGLISH)


# Anchors and the links that point at them -------------------------------------------------


def test_a_heading_anchor_comes_from_its_marker_not_its_text():
    html = render_markdown(
        "## 形 {#straight-flush-shapes}\n\n## Plain\n", CONVENTIONS["parlett-2008"]
    )

    assert '<h2 id="straight-flush-shapes">形</h2>' in html
    assert '<h2 id="plain">Plain</h2>' in html


def test_every_linked_section_is_a_heading_of_the_japanese_lesson_under_its_title(lessons):
    """Feedback links point at the same anchor in both languages, and in Japanese their label
    is the Japanese lesson's heading for that section."""
    for (slug, anchor), title in SECTION_TITLES.items():
        headings = _headings(Lesson.objects.get(slug=slug, language="ja").body)
        with translation.override("ja"):
            assert headings.get(anchor) == str(title), (slug, anchor)
        with translation.override("en"):
            english = _headings(Lesson.objects.get(slug=slug, language="en").body)
            assert english[anchor] == str(title), (slug, anchor)


def test_feedback_links_in_japanese_keep_their_address(lessons):
    with translation.override("en"):
        english = links_for("lead", "fours", "parlett-2008")
    with translation.override("ja"):
        japanese = links_for("lead", "fours", "parlett-2008")

    assert [link.url for link in japanese] == [link.url for link in english]
    assert japanese[0].url == "/learn/strong-signals/#fours"
    assert japanese[0].label == "レッスン：フォーカード"


def test_practise_links_on_a_japanese_lesson_are_in_japanese(client, lessons):
    response = client.get("/learn/strong-signals/", **JA)

    assert "練習する" in response.text
    assert "このシグナルをリードする" in response.text and "Lead these signals" not in response.text
    game = client.get("/learn/the-game/", **JA).text.split('id="practise-title"')[1]
    practise = game.split("</section>")[0]
    assert "練習：" in practise and "Score the cards" not in practise


def test_lesson_files_are_all_utf8_markdown_with_front_matter():
    for path in [*ENGLISH, *JAPANESE]:
        assert Path(path).read_text(encoding="utf-8").startswith("---\n"), path


def test_japanese_lines_are_joined_without_a_space():
    """A source line break between two Japanese characters would show as a space."""
    html = render_markdown(
        "パートナーが\nパスし、**c1** と\n呼びます。\n\nTwo\nwords\n", CONVENTIONS["parlett-2008"]
    )

    assert "パートナーがパスし、<strong>c1</strong> と呼びます。" in html
    assert "Two\nwords" in html
    assert "パートナーと2人で" in render_markdown(
        "パートナーと\n2人で\n", CONVENTIONS["parlett-2008"]
    )
    for path in JAPANESE:
        body = render_markdown(read_seed(path)["body"], CONVENTIONS["parlett-2008"])
        assert not re.search(
            r"[\u3040-\u30ff\u4e00-\u9fff、。）]\s*\n\s*[\u3040-\u30ff\u4e00-\u9fff]", body
        ), path.name
