"""Never a 500 (security audit): random requests to every URL pattern, as every role.

Every pattern of the URL resolver (the admin's included) gets requests Hypothesis makes up: a
method, path arguments (ids, slugs, codes and tokens that exist, and ones that do not), a query
string, a body (a form of the site's field names, or random bytes) in any content type and
``charset``. Each request is sent as a visitor, a learner, a teacher and a club organiser.
No response may be a 5xx, and a 4xx must leave the data as it was: no row added or removed,
no row written (sessions, the login throttle's records and the cache table aside: a refused
request may still count against a limit).

Requests are built as the site's WSGI application builds them (``trainer.core.web.wsgi.Request``),
so a ``charset`` Python cannot decode text with is met as in production. ``test_fuzz_every_url``
sends a few requests per pattern and role (``make test``); ``test_fuzz_every_site_url_at_volume``
(``slow``: ``make test-slow``) sends many more to every pattern but the admin's.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from importlib import import_module
from urllib.parse import quote, urlencode

import django.test.client
import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, transaction
from django.test import Client
from django.test.client import encode_multipart
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf
from tests.trainer.play.conftest import START, table_of
from trainer.clubs.curriculum import STEP_BY_NUMBER
from trainer.core.drill_sessions import PracticeSet, practice_sign
from trainer.core.web.wsgi import Request
from trainer.learn.models import Lesson
from trainer.play.models import Game

ROLES = ("visitor", "learner", "teacher", "organiser")

# --- the URL patterns ------------------------------------------------------------------------

_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _patterns(resolver: URLResolver, prefix: tuple = ()) -> list[tuple]:
    out = []
    for entry in resolver.url_patterns:
        pieces = (*prefix, entry.pattern)
        if isinstance(entry, URLResolver):
            out.extend(_patterns(entry, pieces))
        elif isinstance(entry, URLPattern):
            out.append(pieces)
    return out


def _label(pieces: tuple) -> str:
    return "".join(str(p) for p in pieces) or "(home)"


PATTERNS = {_label(p): p for p in _patterns(get_resolver())}


# --- the world the requests meet ------------------------------------------------------------


@dataclass
class World:
    users: dict[str, object]
    #: Each role's session as signing in made it (each request gets a copy of its own).
    sessions: dict[str, dict]
    ids: list[int]
    strings: list[str]
    slugs: list[str]
    uuids: list[str]
    values: list[str]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Learner, teacher and organiser with a class, an assignment, a club, answers, a deal in
    play and a finished one; made once for the module and rolled back after it."""
    with (
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        learner, teacher, organiser = (f.user(name) for name in ("learner", "teacher", "organiser"))
        room = cf.classroom(teacher=teacher)
        cf.student_in(room, learner)
        assignment = cf.built(room)
        club = clf.club(organiser)
        clf.join(club, learner)
        clf.load_step(1)
        f.answer(learner)
        f.answer(learner, correct=False, seed=2)
        lesson = Lesson.objects.create(
            slug="fuzz-lesson", title="Fuzz", position=1, step=1, body="# Fuzz\n\nA lesson."
        )
        player = Client()
        player.force_login(learner)
        games = [_start_game(player), _start_game(player)]
        _finish_game(player, games[1])
        games[1].refresh_from_db()
        practice = practice_sign(
            PracticeSet(title="Fuzz", back_url="/learn/", back_label="Back", kind="read")
        )
        uid = urlsafe_base64_encode(force_bytes(learner.pk))
        reset_token = default_token_generator.make_token(learner)
        users = {"learner": learner, "teacher": teacher, "organiser": organiser}
        sessions = {}
        for role, user in users.items():
            signed_in = Client()
            signed_in.force_login(user)
            sessions[role] = dict(signed_in.session.items())
        yield World(
            users=users,
            sessions=sessions,
            ids=sorted(
                {u.pk for u in users.values()}
                | {room.pk, assignment.pk, *(g.pk for g in games), *STEP_BY_NUMBER}
                | {0, 999_999, 2**63 - 1}
            ),
            strings=[
                room.join_code,
                club.invite_token,
                practice,
                uid,
                reset_token,
                "set-password",
                "read",
                "lead",
                "score",
                "checklist",
                "reply",
                "custom",
                "classroom",
                "user",
            ],
            slugs=[club.slug, lesson.slug, "the-game", "no-such-thing"],
            uuids=[str(games[1].share_token), str(uuid.UUID(int=0))],
            values=[
                room.join_code,
                club.slug,
                str(room.pk),
                str(assignment.pk),
                str(learner.pk),
                str(games[0].version),
                "7H",
                "pass",
                "force",
                "parlett-2008",
                "teach-yourself-1994",
                "classic",
                "contribution",
                "greedy",
                "deal",
                "game",
                "on",
                "ja",
                "en",
                "learner",
                "teacher",
                "2030-01-31",
                "2020-02-30",
                "/progress/",
                "/drills/review/",
            ],
        )
        transaction.set_rollback(True)


def _start_game(client: Client) -> Game:
    before = set(Game.objects.values_list("pk", flat=True))
    assert client.post("/play/", START).status_code == 302
    (pk,) = set(Game.objects.values_list("pk", flat=True)) - before
    return Game.objects.get(pk=pk)


def _finish_game(client: Client, game: Game) -> None:
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return
        legal = sorted(str(a) for a in table_of(game).legal())
        action = next((a for a in legal if a not in ("pass", "force")), legal[0])
        response = client.post(f"/play/{game.pk}/act/", {"action": action, "version": game.version})
        assert response.status_code == 302


# --- requests ---------------------------------------------------------------------------------

#: The names of the fields the site's forms and query strings read.
FIELDS = [
    "next", "per_day", "convention", "rule", "four_colour", "code", "name", "username",
    "password", "password1", "password2", "old_password", "new_password1", "new_password2",
    "email", "first_name", "last_name", "showing", "option", "answer", "kind", "kinds", "items",
    "count", "title", "due_on", "drill_set", "language", "opponents", "length", "coach",
    "action", "version", "card", "v", "review", "more", "after", "club", "path", "seed",
    "side_hand", "hand_size", "own_hand", "role", "q", "page", "format",
]  # fmt: skip
TRICKY = [
    "", "0", "-1", "1", "12", "201", "99999999999999999999999", str(2**63), "1e9", "NaN",
    "🎹", "ｔｅａｃｈｅｒ", "teacher", "/", "//evil.example/", "https://evil.example/", "foo",
    "../", "%", "%ff", "<script>", " ", "\n", "true", "[]", "{}",
]  # fmt: skip
#: Refused by the bad-input middleware whatever the page (tried in the odd request only, so
#: that most requests reach a view).
REFUSED = ["\x00", "x" * 5000]
GOOD_CHARSETS = [None, "utf-8", "UTF-8", "utf8", "us-ascii"]
BAD_CHARSETS = [
    "utf-16", "utf-16-le", "latin-1", "cp1252", "hex", "rot13", "base64", "zlib", "bogus",
    "undefined", "",
]  # fmt: skip
FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data; boundary=BoUnDaRy"]
OTHER_TYPES = ["application/json", "text/plain", ""]
METHODS = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"]


def _value(world: World, odd: bool) -> st.SearchStrategy[str]:
    values = st.one_of(st.sampled_from(world.values), st.sampled_from(TRICKY), st.text(max_size=20))
    return values | st.sampled_from(REFUSED) if odd else values


def _form(world: World, odd: bool) -> st.SearchStrategy[list[tuple[str, str]]]:
    key = st.one_of(st.sampled_from(FIELDS), st.text(max_size=8))
    return st.lists(st.tuples(key, _value(world, odd)), max_size=8)


def _argument(world: World, converter: str | None, name: str) -> st.SearchStrategy[str]:
    if converter == "id":
        return st.one_of(st.sampled_from(world.ids), st.integers(0, 10**19)).map(str)
    if converter == "int":
        return st.one_of(st.sampled_from(world.ids), st.integers(0, 10**25)).map(str)
    if converter == "slug":
        return st.one_of(
            st.sampled_from(world.slugs), st.from_regex(r"[-a-zA-Z0-9_]+", fullmatch=True)
        )
    if converter == "uuid":
        return st.one_of(st.sampled_from(world.uuids), st.uuids().map(str))
    if converter == "path":
        return st.one_of(st.sampled_from([*world.strings, "1/change", "1"]), st.text(min_size=1))
    text = st.text(min_size=1, max_size=30).filter(lambda s: "/" not in s)
    return st.one_of(st.sampled_from(world.strings), text)


def _piece(world: World, pattern) -> st.SearchStrategy[str]:
    """One pattern's part of the path, percent-encoded."""
    if isinstance(pattern, RegexPattern):
        return st.from_regex(pattern.regex, fullmatch=True).map(lambda s: quote(s, safe="/"))
    assert isinstance(pattern, RoutePattern), pattern
    route = str(pattern)
    parts: list[st.SearchStrategy[str]] = []
    end = 0
    for match in _PARAMETER.finditer(route):
        parts.append(st.just(quote(route[end : match.start()], safe="/")))
        arg = _argument(world, match["converter"], match["name"])
        safe = "/" if match["converter"] == "path" else ""
        parts.append(arg.map(lambda s, safe=safe: quote(s, safe=safe)))
        end = match.end()
    parts.append(st.just(quote(route[end:], safe="/")))
    return st.tuples(*parts).map("".join)


@st.composite
def requests(draw, world: World, pieces: tuple) -> dict:
    """A request to the pattern: mostly one a browser or a script could send (a form, a
    query string, GET or POST); one in four odd (any method, content type and charset,
    random bytes, NUL bytes, over-long values)."""
    odd = draw(st.integers(0, 3)) == 3
    path = "/" + "".join(draw(_piece(world, p)) for p in pieces)
    method = draw(st.sampled_from(METHODS if odd else METHODS[:2]))
    if draw(st.booleans()):
        query = urlencode(draw(_form(world, odd)))
    else:
        query = draw(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40))
    content_type = draw(st.sampled_from(FORM_TYPES + OTHER_TYPES if odd else FORM_TYPES))
    charset = draw(st.sampled_from(GOOD_CHARSETS + BAD_CHARSETS if odd else GOOD_CHARSETS))
    if content_type.startswith("multipart"):
        fields: dict[str, list[str]] = {}
        for key, value in draw(_form(world, odd)):
            fields.setdefault(key, []).append(value)
        body = encode_multipart("BoUnDaRy", fields)
    elif odd and draw(st.booleans()):
        body = draw(st.binary(max_size=64))
    else:
        body = urlencode(draw(_form(world, odd))).encode()
    if charset is not None:
        content_type += f"; charset={charset}"
    return {"method": method, "path": path, "query": query, "body": body, "type": content_type}


# --- what must hold ---------------------------------------------------------------------------

#: Tables a refused request may still write: the session, the login throttle's records.
MAY_WRITE = re.compile(r"django_session|axes_|django_cache", re.IGNORECASE)
WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def _counted_tables() -> list[str]:
    return sorted(
        m._meta.db_table
        for m in apps.get_models()
        if m._meta.managed and not m._meta.proxy and not MAY_WRITE.search(m._meta.db_table)
    )


def _row_counts(tables: list[str]) -> tuple[int, ...]:
    quoted = connection.ops.quote_name
    # One query for every table; the names are the models' own, quoted.
    counts = ", ".join(f"(SELECT COUNT(*) FROM {quoted(t)})" for t in tables)  # noqa: S608
    sql = f"SELECT {counts}"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


class Writes:
    """The write statements run while it is installed (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if WRITE.match(sql) and not MAY_WRITE.search(sql):
            self.seen.append(sql[:200])
        return execute(sql, params, many, context)


@pytest.fixture(autouse=True)
def _as_the_site_builds_requests(monkeypatch):
    """The test client builds ``WSGIRequest``s; the site's WSGI application builds
    ``trainer.core.web.wsgi.Request``s."""
    monkeypatch.setattr(django.test.client, "WSGIRequest", Request)


def _signed_in(data: dict) -> Client:
    """A client with a session of its own holding ``data`` (a role's signed-in session): as
    signed in as ``force_login`` makes it, without signing in again for every request."""
    client = Client()
    store = import_module(django_settings.SESSION_ENGINE).SessionStore()
    store.update(data)
    store.save()
    client.cookies[django_settings.SESSION_COOKIE_NAME] = store.session_key
    return client


def _send(world: World, role: str, request: dict, tables: list[str]) -> None:
    client = Client() if role == "visitor" else _signed_in(world.sessions[role])
    before = _row_counts(tables)
    writes = Writes()
    with connection.execute_wrapper(writes):
        response = client.generic(
            request["method"],
            request["path"],
            request["body"],
            content_type=request["type"],
            QUERY_STRING=request["query"],
        )
    status = response.status_code
    where = f"{role} {request['method']} {request['path']}?{request['query'][:80]}"
    assert status < 500, f"{status} for {where}"
    if 400 <= status < 500:
        assert _row_counts(tables) == before, f"rows changed by a {status} to {where}"
        assert writes.seen == [], f"a {status} to {where} wrote: {writes.seen}"


def _fuzz(world: World, pieces: tuple, examples: int) -> None:
    tables = _counted_tables()

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
        ],
    )
    @given(request=requests(world, pieces))
    def check(request: dict) -> None:
        for role in ROLES:
            _send(world, role, request, tables)

    check()


@pytest.mark.django_db
def test_every_role_but_the_visitor_sends_its_requests_signed_in(world):
    for role, user in world.users.items():
        client = _signed_in(world.sessions[role])
        response = client.get("/progress/")
        assert response.status_code == 200 and response.wsgi_request.user == user, role
    assert Client().get("/progress/").status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("label", sorted(PATTERNS))
def test_fuzz_every_url(world, label):
    _fuzz(world, PATTERNS[label], examples=3)


#: The admin's pages only send these roles (none is staff) to its login page: not worth volume.
SITE_PATTERNS = sorted(label for label in PATTERNS if not label.startswith("admin/"))


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("label", SITE_PATTERNS)
def test_fuzz_every_site_url_at_volume(world, label):
    _fuzz(world, PATTERNS[label], examples=30)
