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
from django.utils import translation

from engine.game import PASS, Action
from engine.messages import Msg
from engine.play import coach_lead, coach_read
from engine.play.table import _quoted
from engine.seats import Seat
from engine.signals import CONVENTIONS
from tests.trainer.classes import factories as classes
from tests.trainer.i18n.catalogs import VisibleText, entries
from tests.trainer.i18n.latin import latin_runs
from tests.trainer.play.conftest import start, table_of
from tests.trainer.play.test_live import engine_of, person, seated_table
from trainer.classes.models import ClassMembership
from trainer.play import live
from trainer.play.models import Game
from trainer.play.templatetags.play_cards import played_cards
from trainer.wording.render import say

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
    "ja": "その手は出せません。南はパスできません。各回の最初はカードを出さなければなりません",
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
        "手がないか、形式が正しくありません。"
        "'ZZ'は手として読めません（ASのようなカード、pass、forceのどれかを指定してください）"
    )


# -- seats and sides in the page's words -------------------------------------------------------

#: The seats as a Japanese page writes them (names and short labels alike), and as the English
#: page does: the names beside a solo table's current cards and in the review, the letters on
#: the completed hands' cards and everywhere at a live table.
JA_SEATS = {"北", "東", "南", "西"}
EN_NAMES = {"North", "East", "South", "West"}
EN_LETTERS = {"N", "E", "S", "W"}


def _spans(html: str, css: str) -> list[str]:
    """The text of every ``<span class="css" …>text</span>`` (the seat beside a card)."""
    return re.findall(rf'<span class="{css}"[^>]*>([^<]*)</span>', html)


def _turn(html: str) -> str:
    """The turn line (``data-to-move``), as the reader sees it."""
    found = re.search(r'<p class="play-turn[^"]*"[^>]*>(.*?)</p>', html, flags=re.S)
    assert found is not None
    parser = VisibleText()
    parser.feed(found.group(1))
    return " ".join(parser.parts)


def _go_on(client: Client, game: Game, html: str) -> str:
    """The table past the pause it shows, if any (the learner presses *Continue*)."""
    paused = re.search(r'data-pause="(\d+)"', html)
    if paused is None:
        return html
    game.refresh_from_db()
    client.post(f"/play/{game.pk}/act/", {"seen": paused[1], "version": game.version})
    return _page(client, f"/play/{game.pk}/")


def test_the_solo_table_and_its_review_name_the_seats_in_japanese_and_english_is_unchanged(
    ja_south, player
):
    game = start(ja_south)
    assert _until(ja_south, game, lambda t: bool(t.view().completed and t.view().current))
    view = table_of(game).view()
    ja = _go_on(ja_south, game, _page(ja_south, f"/play/{game.pk}/"))
    en = ja_south.get(f"/play/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="en"' in en
    # Beside the completed hands' cards: 北 … in Japanese, the letters (as drawn before) in English.
    played = len([c for h in view.completed for c in h.cards])
    assert len(_spans(ja, "play-by")) == played and set(_spans(ja, "play-by")) <= JA_SEATS
    assert set(_spans(en, "play-by")) <= EN_LETTERS and len(_spans(en, "play-by")) == played
    for h in view.completed:
        assert str(played_cards([(str(s), c) for s, c in h.cards])) in en
    # Beside the current hand's cards: the seats' names.
    assert _spans(ja, "play-who") and set(_spans(ja, "play-who")) <= JA_SEATS
    assert _spans(en, "play-who") and set(_spans(en, "play-who")) <= EN_NAMES
    assert "N–S (you)" in en and "南北（あなたの側）" in ja
    assert not re.search(r"[A-Za-z]", _turn(ja)), _turn(ja)
    assert latin_runs(ja, {player.username}) == []

    # The review: the seats beside the cards of a step mid-hand, in the page's words.
    _until(ja_south, game, lambda t: False, seed=1)
    for frame in range(1, 12):
        ja = _page(ja_south, f"/play/{game.pk}/review/?frame={frame}")
        if _spans(ja, "play-who"):
            break
    en = ja_south.get(
        f"/play/{game.pk}/review/?frame={frame}", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert set(_spans(ja, "play-who")) <= JA_SEATS and _spans(ja, "play-who")
    assert set(_spans(en, "play-who")) <= EN_NAMES and _spans(en, "play-who")
    assert "（南北" in ja and "(N–S " in en
    assert latin_runs(ja, {player.username}) == []


def _live_table():
    """A live table (Ana South, Ben North, bots East–West, Ana's teacher watching) dealt and
    played on until the current hand holds a card and a pass: the table, the player waiting
    for the other's move, and the teacher."""
    ana, ben = person("ana"), person("ben")
    room = classes.classroom()
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    teacher = classes.teacher_of(room)  # (since before the deal: may watch it)
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    live.live_begin(pk=table.pk, by=ana)
    users = {Seat.S: ana, Seat.N: ben}
    for _ in range(100):
        engine = engine_of(table)
        seat = engine.to_move()
        assert seat is not None, "the deal ended before a pass and a card met in a hand"
        if {a == PASS for _, a in engine.view(seat).current} == {True, False}:
            return table, users[seat.partner], teacher
        legal = engine.legal(seat)
        action = PASS if PASS in legal and engine.view(seat).current else legal[0]
        live.live_act(pk=table.pk, user=users[seat], action=action, version=table.version)
    raise AssertionError("no hand held a card and a pass")


def _live_client(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_live_table_names_the_seats_and_sides_in_japanese_and_english_is_unchanged():
    table, waiting, teacher = _live_table()
    url = f"/play/tables/{table.pk}/"
    names = {"ana", "ben", teacher.username}
    for who in (waiting, teacher):
        html = _page(_live_client(who, "ja"), url)
        who_spans = _spans(html, "play-who")
        assert who_spans and set(who_spans) <= JA_SEATS, who_spans
        assert re.search(r"[北南]の番です。", _turn(html)), _turn(html)
        assert re.search(r"· 南北\d+点 · 東西\d+点</p>", html)
        assert '<span class="card pass-card play-word">パス</span>' in html
        assert latin_runs(html, names) == [], latin_runs(html, names)
    watched = _page(_live_client(teacher, "ja"), url)
    assert re.findall(r'data-held="(\w)" aria-label="(.)', watched) == [
        ("N", "北"),
        ("W", "西"),
        ("E", "東"),
        ("S", "南"),
    ]
    for who in (waiting, teacher):
        listing = _page(_live_client(who, "ja"), "/play/tables/")
        assert "南：ana、北：ben" in listing and latin_runs(listing, names) == []

    # The English pages: the seats' names beside the current hand's cards, in the turn line and
    # on the watcher's hands (as the solo table names them), letters in the list; N–S and E–W
    # in the score; "Pass" on the card (as on the solo table).
    for who in (waiting, teacher):
        html = _live_client(who, "en").get(url).content.decode()
        assert 'lang="en"' in html
        assert set(_spans(html, "play-who")) <= EN_NAMES and _spans(html, "play-who")
        assert re.fullmatch(r"(North|South) to play\.", _turn(html)), _turn(html)
        assert re.search(r"· N–S \d+ · E–W \d+</p>", html)
        assert '<span class="card pass-card play-word">Pass</span>' in html
        listing = _live_client(who, "en").get("/play/tables/").content.decode()
        assert "S: ana, N: ben" in listing
    watched = _live_client(teacher, "en").get(url).content.decode()
    assert re.findall(r'data-held="(\w)" aria-label="(\w+)', watched) == [
        ("N", "North"),
        ("W", "West"),
        ("E", "East"),
        ("S", "South"),
    ]


@pytest.mark.parametrize(
    ("action", "en", "ja"),
    [
        ("pass", "'pass' is not allowed now", "今は「パス」はできません"),
        ("force", "'force' is not allowed now", "今は「プレイ！」はできません"),
        ("7H", "'7H' is not allowed now", "今は「7H」はできません"),
    ],
)
def test_an_action_not_allowed_now_is_named_in_the_pages_language(action, en, ja):
    """The engine names the refused action as a parameter the page words: a call is a term."""
    message = Msg("error.play.not_allowed_now", action=_quoted(Action.parse(action)))
    assert str(message) == en
    with translation.override("ja"):
        assert say(message) == ja
    with translation.override("en"):
        assert say(message) == en
