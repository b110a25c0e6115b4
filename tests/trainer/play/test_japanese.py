"""The play pages in Japanese: the start page, the table mid-hand with the coach's quiz
answered (and the coach's advice), and the review show no English from the play pages' UI
strings or from the engine's words.

The Japanese of the play pages is in the site's catalogs as committed. The phrases looked for
are the English of every root catalog entry the play templates and code use, and of the
engine's message catalog (``trainer/wording``): card notation, the site's name and convention
titles are allowed.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client

from engine.play import coach_lead, coach_read
from engine.signals import CONVENTIONS
from tests.trainer.i18n.catalogs import VisibleText, entries
from tests.trainer.play.conftest import start, table_of
from trainer.play.models import Game

pytestmark = pytest.mark.django_db

ROOT = Path(django_settings.BASE_DIR)
ROOT_PO = ROOT / "locale/ja/LC_MESSAGES/django.po"
WORDING = ROOT / "trainer/wording/locale/ja/LC_MESSAGES/django.po"
#: Sources whose UI strings the play pages show.
PLAY_SOURCES = [*sorted((ROOT / "templates/play").glob("*.html")),
                *sorted((ROOT / "trainer/play").glob("*.py"))]  # fmt: skip
#: English that may stand on a Japanese page: names and notation.
ALLOWED = {"Concerto Trainer", "Concerto", "JSON", *(c.title for c in CONVENTIONS.values())}
JA = "ja"


@pytest.fixture
def japanese():
    """The committed catalogs (checked complete and compiled by ``tests/trainer/i18n``)."""
    return ROOT_PO


_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%%|<[^>]+>")


def _fragments(msgid: str) -> list[str]:
    """A message's literal English cut at placeholders and tags; a piece counts when it has
    two words or a word of four letters or more."""
    pieces = (" ".join(p.split()).strip(" .,:;·—–()“”?!…«»←→") for p in _PLACEHOLDER.split(msgid))
    return [p for p in pieces if re.search(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}|[A-Za-z]{4,}", p)]


def _phrases() -> dict[str, str]:
    """English fragment → the message it comes from."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in PLAY_SOURCES)
    chosen = list(entries(WORDING))
    for entry in entries(ROOT_PO):
        if entry.context == "date format":
            continue
        if entry.msgid in sources or any(f in sources for f in _fragments(entry.msgid)):
            chosen.append(entry)
    found: dict[str, str] = {}
    for entry in chosen:
        for text in filter(None, (entry.msgid, entry.msgid_plural)):
            for fragment in _fragments(text):
                if fragment not in ALLOWED:
                    found.setdefault(fragment, text)
    return found


def english_on(html: str, phrases: dict[str, str]) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    texts = parser.parts
    for name in sorted(ALLOWED, key=len, reverse=True):
        texts = [t.replace(name, " ") for t in texts]
    hits = []
    for fragment, message in phrases.items():
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(fragment) + r"(?![A-Za-z])")
        where = next((t for t in texts if pattern.search(t)), None)
        if where is not None:
            hits.append(f"{fragment!r} (from {message[:50]!r}) in {where[:90]!r}")
    return sorted(hits)


def _act(client: Client, game: Game, action: str):
    game.refresh_from_db()
    return client.post(f"/play/{game.pk}/act/", {"action": action, "version": game.version})


def _until(client: Client, game: Game, predicate, seed: int = 0) -> bool:
    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return False
        table = table_of(game)
        if predicate(table):
            return True
        assert _act(client, game, rng.choice(table.legal())).status_code == 302


@pytest.fixture
def ja_south(player, japanese) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=JA)
    client.force_login(player)
    return client


def _page(client: Client, url: str, method: str = "get", **data) -> str:
    response = getattr(client, method)(url, data) if data else getattr(client, method)(url)
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    assert 'lang="ja"' in html or method == "post", url
    return html


def test_the_play_pages_in_japanese_show_no_english(ja_south):
    phrases = _phrases()
    pages: dict[str, str] = {"start": _page(ja_south, "/play/")}
    # The coach's advice, asked for on South's lead.
    for seed in range(8):
        game = start(ja_south)
        if _until(ja_south, game, lambda t: coach_lead(t) is not None, seed=seed):
            break
    else:  # pragma: no cover - the seeded deals always give South a lead
        raise AssertionError("South never led in eight deals")
    game.refresh_from_db()
    pages["advice"] = _page(ja_south, f"/play/{game.pk}/advice/", "post", version=game.version)
    # The quiz after partner's signal, answered wrongly: mid-hand, the answer and odds shown.
    for seed in range(8):
        game = start(ja_south)
        if _until(ja_south, game, lambda t: coach_read(t) is not None, seed=seed):
            break
    else:  # pragma: no cover
        raise AssertionError("no quiz came up in eight deals")
    game.refresh_from_db()
    quiz = coach_read(table_of(game))
    wrong = next(k for k in quiz.option_keys if k != quiz.answer)
    pages["table, quiz asked"] = _page(ja_south, f"/play/{game.pk}/")
    pages["table, quiz answered"] = _page(
        ja_south, f"/play/{game.pk}/quiz/", "post", version=game.version, option=wrong
    )
    assert "data-quiz-result" in pages["table, quiz answered"]
    assert "odds-chart" in pages["table, quiz answered"]
    # The deal played out: the result, then the review and one of its steps.
    _until(ja_south, game, lambda t: False, seed=1)
    pages["table, over"] = _page(ja_south, f"/play/{game.pk}/")
    pages["review"] = _page(ja_south, f"/play/{game.pk}/review/")
    pages["review, step 5"] = _page(ja_south, f"/play/{game.pk}/review/?frame=5")
    pages["my games"] = _page(ja_south, "/play/")
    assert "data-result" in pages["table, over"] and "data-review-hand=" in pages["review"]
    found = {name: english_on(html, phrases) for name, html in pages.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}
    # The Japanese is there: the table's words and the engine's.
    assert "あなたの番です。" in pages["table, quiz asked"]
    assert "パーと失点" in pages["review"]


def test_the_check_finds_english_left_on_a_japanese_page(ja_south):
    """The check itself: an English play string on the page is found."""
    phrases = _phrases()
    clean = '<html lang="ja"><body><p>第1回</p><p>あなたの番です。</p><p>8♥ 北</p></body></html>'
    assert english_on(clean, phrases) == []
    left = clean.replace("あなたの番です。", "Your turn.")
    assert any(hit.startswith("'Your turn'") for hit in english_on(left, phrases))


# -- a refused move says why, in the page's language -----------------------------------------

#: What the page says when South passes on the first card of a hand South leads.
NO_PASS = {
    "en": "That move is not allowed: S cannot pass: the first card of a hand must be played",
    "ja": "その手は出せません：Sはパスできません：各回の最初はカードを出さなければなりません",
}


def _client(player, language: str | None, how: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if how == "header" and language else Client()
    if how == "cookie" and language:
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(player)
    return client


def _error(response) -> str:
    """The page's error line (``data-error``), as the reader sees it."""
    html = response.content.decode()
    found = re.search(r"<p[^>]*data-error[^>]*>(.*?)</p>", html, flags=re.S)
    assert found is not None, html[:400]
    parser = VisibleText()
    parser.feed(found.group(1))
    return " ".join(parser.parts)


@pytest.mark.parametrize(
    ("language", "how"), [("ja", "header"), ("ja", "cookie"), (None, "header")]
)
def test_a_refused_move_says_the_engines_reason_in_the_pages_language(player, language, how):
    """A pass where the engine refuses it: 400, and the engine's reason in the words of the
    page (Accept-Language or the language cookie), not its English."""
    client = _client(player, language, how)
    game = start(client)
    assert _until(client, game, lambda t: not t.deal.current_actions and t.learner_to_move())
    game.refresh_from_db()
    before = (list(game.actions), game.version)
    response = client.post(f"/play/{game.pk}/act/", {"action": "pass", "version": game.version})
    assert response.status_code == 400
    assert _error(response) == NO_PASS[language or "en"]
    game.refresh_from_db()
    assert (game.actions, game.version) == before


def test_a_malformed_move_says_why_in_japanese(ja_south):
    game = start(ja_south)
    response = ja_south.post(f"/play/{game.pk}/act/", {"action": "ZZ", "version": game.version})
    assert response.status_code == 400
    assert _error(response) == (
        "手がないか、形式が正しくありません："
        "'ZZ'は手として読めません（ASのようなカード、pass、forceのどれかを指定してください）"
    )
