"""Every page of the site as a Japanese reader meets it, for the i18n page tests.

:func:`demo_data` loads the demo (users, a club, a class with assignments, answers);
:func:`japanese_pages` opens every page in Japanese as a visitor, a student, a teacher and a
club organiser, with realistic content: each drill kind answered (the feedback shown), a bot
deal played to its end (the result and its review), today's review after wrong answers, a
live table, a club's own card, forms sent with errors, a new account's first home page, and
the page a refused form (CSRF) shows.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

from django.core.management import call_command
from django.test import Client, override_settings

from engine.drills import KINDS, DrillAddress, DrillParams, make_drill
from engine.play import PlaySetup, PlayTable, parse_actions
from engine.signals import encode
from tests.trainer import factories
from trainer.core.links import drill_url

JA = "ja,en;q=0.3"
#: A new account's name: the home page greets it.
NEW_USER = "jatester9"
PASSWORD = "a-long-pass-phrase-9"


class _FormData(HTMLParser):
    """The values a browser would post from the first form matching ``attribute``."""

    def __init__(self, attribute: str) -> None:
        super().__init__(convert_charrefs=True)
        self.attribute, self.data, self._in, self._select = attribute, {}, False, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and self.attribute in a and not self.data:
            self._in = True
        elif self._in and tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind not in ("radio", "checkbox") or "checked" in a:
                self.data.setdefault(a["name"], a.get("value", ""))
        elif self._in and tag == "select":
            self._select = a.get("name")
        elif (
            self._in
            and tag == "option"
            and self._select
            and ("selected" in a or self._select not in self.data)
        ):
            self.data[self._select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._in = False
        elif tag == "select":
            self._select = None


def form_data(html: str, attribute: str) -> dict[str, str]:
    parser = _FormData(attribute)
    parser.feed(html)
    return parser.data


def demo_data(allowed: set[str]) -> dict:
    """Load the demo data; returns its users, club, class, first assignment and lesson slugs,
    and under ``allowed`` the names it made (``allowed`` plus every person's, club's, class's,
    assignment's and drill set's name)."""
    with override_settings(TRAINER_DEMO_DATA=True):
        call_command("seed", verbosity=0)
    from django.contrib.auth import get_user_model

    from trainer.classes.models import Assignment, Classroom
    from trainer.clubs.models import Club
    from trainer.drills.models import DrillSet
    from trainer.learn.models import Lesson

    users = {u.username: u for u in get_user_model().objects.all()}
    names = set(allowed) | {NEW_USER}
    for u in users.values():
        names |= {u.username, u.first_name, u.last_name}
        names.add(f"{u.first_name} {u.last_name[:1]}.")
    names |= set(Club.objects.values_list("name", flat=True))
    names |= set(Classroom.objects.values_list("name", flat=True))
    names |= set(Assignment.objects.values_list("title", flat=True))
    names |= set(DrillSet.objects.values_list("title", flat=True))
    return {
        "users": users,
        "allowed": {a for a in names if a},
        "club": Club.objects.get(),
        "classroom": Classroom.objects.get(),
        "assignment": Assignment.objects.order_by("pk").first(),
        "lessons": list(Lesson.objects.values_list("slug", flat=True).distinct()),
    }


def client(user=None, **extra) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=JA, raise_request_exception=False, **extra)
    if user is not None:
        c.force_login(user)
    return c


def _club_card(organiser, club):
    """A card of the demo club (its first version), made through the service."""
    from engine.signals import DEFAULT_CONVENTION
    from trainer.cards import services as card_services
    from trainer.cards.selectors import Owner

    return card_services.card_create(
        actor=organiser,
        owner=Owner(club=club),
        derived_from=DEFAULT_CONVENTION.name,
        data={**DEFAULT_CONVENTION.to_json(), "title": club.name},
    )


def answered_drills(who: Client) -> dict[str, object]:
    """Each drill kind's page after an answer was posted (a wrong one, or the lead drill's
    right one), and before: label → response."""
    pages = {}
    for kind in KINDS:
        drill = make_drill(kind, 5, DrillParams())
        url = drill_url(DrillAddress(kind, 5, DrillParams()))
        page = who.get(url)
        showing = re.search(r'name="showing" value="([^"]+)"', page.content.decode())
        if showing is None:  # the page failed: reported with the others
            pages[url] = page
            continue
        showing = showing[1]
        if kind == "lead":
            c1, c2 = encode(drill.hand, drill.params.side_hand or 1).plays[0]
            data = {"c1": str(c1), "c2": str(c2) if c2 else "pass"}
        else:
            data = {"option": factories.wrong_option(drill)}
        pages[f"{url} (answered)"] = who.post(url, {"showing": showing, **data})
        pages[url] = who.get(url)
    return pages


def _finish_deal(who: Client, game_url: str) -> None:
    """Play South's turns at random (legal moves) until the deal is over."""
    from trainer.play.models import Game

    game = Game.objects.get(pk=int(game_url.strip("/").split("/")[-1]))
    rng = random.Random(3)
    for _ in range(200):
        game.refresh_from_db()
        if game.is_finished:
            return
        table = PlayTable.replay(PlaySetup.from_json(game.setup), parse_actions(game.actions))
        legal = table.legal()
        who.post(f"{game_url}act/", {"action": str(rng.choice(legal)), "version": game.version})
    raise AssertionError("the deal did not finish")


def japanese_pages(demo: dict) -> dict[str, object]:
    """Every page in Japanese, as each role: label (role and address) → response."""
    users = demo["users"]
    club, classroom, assignment = demo["club"], demo["classroom"], demo["assignment"]
    student, teacher = users["student1"], users["teacher"]
    visitor, learner, teach, organise = (
        client(),
        client(student),
        client(teacher),
        client(users["organiser"]),
    )
    pages: dict[str, object] = {}

    def visit(who: Client, label: str, url: str, note: str = "") -> None:
        pages[f"{label} {url}" + (f" ({note})" if note else "")] = who.get(url, follow=True)

    for url in ("/", "/drills/", "/learn/", "/cheatsheet/", "/glossary/", "/play/",
                "/cheatsheet/?convention=teach-yourself-1994",
                "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
                "/accounts/password_reset/done/", "/accounts/reset/done/",
                "/accounts/reset/MQ/bad-token/", "/no-such-page/",
                f"/clubs/join/{club.invite_token}/", f"/classes/join/{classroom.join_code}/",
                "/classes/join/NOSUCHCODE/", "/drills/custom/",
                "/drills/custom/?kind=read&side_hand=3", "/drills/custom/?kind=nosuchkind",
                "/progress/", "/classes/"):  # fmt: skip
        visit(visitor, "visitor", url)
    for slug in demo["lessons"]:
        visit(visitor, "visitor", f"/learn/{slug}/")
        visit(visitor, "visitor", f"/learn/{slug}/?convention=teach-yourself-1994")
    for label, page in answered_drills(visitor).items():
        pages[f"visitor {label}"] = page
    # Forms sent with errors: sign-up empty and with a taken name, a wrong password.
    pages["visitor /accounts/signup/ (empty)"] = visitor.post("/accounts/signup/", {"username": ""})
    pages["visitor /accounts/signup/ (taken)"] = visitor.post(
        "/accounts/signup/",
        {"username": "student1", "password1": "x", "password2": "y"},
    )
    pages["visitor /accounts/login/ (wrong)"] = visitor.post(
        "/accounts/login/", {"username": "student1", "password": "wrong-password"}
    )
    # A form refused for its missing CSRF token: the site's own 403 page.
    strict = client(enforce_csrf_checks=True)
    pages["visitor /accounts/login/ (no CSRF token)"] = strict.post(
        "/accounts/login/", {"username": "x", "password": "y"}
    )
    # A new account: its welcome and first home page.
    fresh = client()
    pages["new user /accounts/signup/ (sent)"] = fresh.post(
        "/accounts/signup/",
        {"username": NEW_USER, "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    visit(fresh, "new user", "/")

    for url in ("/", "/progress/", "/settings/", "/drills/", "/drills/review/", "/start/",
                "/start/1/", "/start/7/", "/classes/", "/classes/join/", "/clubs/",
                f"/classes/{classroom.pk}/", f"/classes/assignments/{assignment.pk}/",
                "/accounts/password_change/", "/accounts/password_change/done/", "/play/",
                f"/clubs/{club.slug}/", f"/clubs/{club.slug}/path/",
                f"/clubs/{club.slug}/path/3/", f"/clubs/{club.slug}/members/",
                "/cheatsheet/", "/glossary/"):  # fmt: skip
        visit(learner, "student", url)
    lesson = pages.get("visitor /learn/strong-signals/")
    practise = lesson and re.search(r'href="(/drills/practise/[^"/]+/)"', lesson.content.decode())
    assert practise, "the lesson links to a practice set"
    visit(learner, "student", practise[1])
    for label, page in answered_drills(learner).items():
        pages[f"student {label}"] = page
    # Today's review once the wrong answers above are in: the missed drills listed.
    visit(learner, "student", "/drills/review/", "after wrong answers")
    visit(learner, "student", "/progress/", "after wrong answers")
    visit(learner, "student", practise[1], "after wrong answers")
    # The drill menu's sets: one of each kind, and a skill's.
    menu = learner.get("/drills/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for number, url in enumerate(re.findall(r'href="(/drills/practise/[^"/]+/)"', menu)[:6]):
        visit(learner, "student", url, f"the menu's set {number + 1}")
    # A bot deal: its table, played to the end, its review.
    start = learner.get("/play/").content.decode()
    table = learner.post("/play/", form_data(start, "data-start"))
    assert table.status_code == 302, "a deal starts"
    game = table["Location"].split("?")[0]
    visit(learner, "student", game)
    _finish_deal(learner, game)
    visit(learner, "student", game, "over")
    visit(learner, "student", game + "review/")
    visit(learner, "student", game + "review/?frame=5")
    visit(learner, "student", "/play/", "after a deal")
    for url in ("/classes/", "/classes/new/", f"/classes/{classroom.pk}/",
                f"/classes/{classroom.pk}/dashboard/",
                f"/classes/{classroom.pk}/students/{student.pk}/",
                f"/classes/{classroom.pk}/students/{student.pk}/?show=mistakes",
                f"/classes/{classroom.pk}/assignments/new/",
                f"/classes/assignments/{assignment.pk}/", "/progress/", "/"):  # fmt: skip
        visit(teach, "teacher", url)
    for url in ("/clubs/", "/clubs/new/", f"/clubs/{club.slug}/",
                f"/clubs/{club.slug}/members/", f"/clubs/{club.slug}/path/", "/"):  # fmt: skip
        visit(organise, "organiser", url)
    # A live table: its form, the host's page before and during the deal, the invitation,
    # the partner's page, the list, and the class's teacher watching.
    new = learner.get("/play/tables/new/").content.decode()
    opened = learner.post("/play/tables/new/", form_data(new, "data-start-table"))
    assert opened.status_code == 302, "a live table opens"
    live_url = opened["Location"]
    visit(learner, "student", "/play/tables/new/")
    visit(learner, "student", live_url)
    invite = re.search(
        r'data-invite-url="https?://[^/]+([^"]+)"', pages[f"student {live_url}"].content.decode()
    )[1]
    partner = client(users["student2"])
    visit(partner, "student2", invite)
    partner.post(invite, {"seat": "N"})
    learner.post(live_url + "begin/")
    visit(learner, "student", live_url, "dealt")
    visit(partner, "student2", live_url)
    visit(learner, "student", "/play/tables/")
    visit(learner, "student", "/play/pairs/")
    visit(teach, "teacher", "/play/tables/")
    visit(teach, "teacher", live_url)
    card = _club_card(users["organiser"], club)
    for url in ("/cards/", f"/cards/new/?club={club.slug}&from=parlett-2008",
                f"/cards/{card.card_id}/", f"/cards/{card.card_id}/diff/"):  # fmt: skip
        visit(organise, "organiser", url)
    _session_pages(pages, visit, learner, organise, users["organiser"], club)
    visit(teach, "teacher", f"/classes/{classroom.pk}/sessions/")
    visit(learner, "student", f"/classes/{classroom.pk}/sessions/")
    _board_set_pages(pages, visit, teach, classroom)
    return pages


def _board_set_pages(pages, visit, teach, classroom) -> None:  # type: ignore[no-untyped-def]
    """A teacher's board sets: the search, its results, a refused search, a set's page."""
    boards = f"/classes/{classroom.pk}/boards/"
    visit(teach, "teacher", boards)
    asked = {"convention": "parlett-2008", "seat": "S", "item": "four_sf", "count": "3",
             "completes": "on", "seed": "7"}  # fmt: skip
    visit(teach, "teacher", boards + "?" + "&".join(f"{k}={v}" for k, v in asked.items()))
    pages["teacher board search (refused)"] = teach.get(
        boards, {**asked, "par_low": "5", "par_high": "1"}
    )
    saved = teach.post(boards, {**asked, "title": "四枚の練習", "picks": ["0", "1"]})
    visit(teach, "teacher", saved["Location"])
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from trainer.teaching import services
    from trainer.teaching.models import BoardSet

    board_set = BoardSet.objects.get(title="四枚の練習")
    assert board_set.created_by is not None
    session = services.set_deal(
        by=board_set.created_by, board_set=board_set, kind="daylong", title="比べる日",
        opens_at=timezone.now() - timedelta(minutes=5),
        closes_at=timezone.now() + timedelta(minutes=5),
    )  # fmt: skip
    with time_machine.travel(session.closes_at + timedelta(minutes=1)):
        visit(teach, "teacher", f"/classes/{classroom.pk}/sessions/{session.pk}/compare/")
    from trainer.classes.models import ClassMembership

    student = ClassMembership.objects.filter(classroom=classroom, role="student").first()
    assert student is not None
    visit(teach, "teacher", f"/classes/{classroom.pk}/students/{student.user_id}/partnerships/")


def _session_pages(pages, visit, learner, organise, organiser, club) -> None:  # type: ignore[no-untyped-def]
    """A daylong: its list and form, a refused form, the session before and after entering,
    a board at the table and finished, then after the close the ranking and a traveller."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from trainer.duplicate import services

    now = timezone.now()
    visit(organise, "organiser", f"/clubs/{club.slug}/sessions/")
    pages["organiser session form (refused)"] = organise.post(
        f"/clubs/{club.slug}/sessions/", {"title": "x", "boards": "0"}
    )
    session = services.session_create(
        user=organiser, club=club, title="金曜のデイロング", boards=2,
        opens_at=now - timedelta(minutes=1), closes_at=now + timedelta(hours=1),
    )  # fmt: skip
    visit(learner, "student", f"/sessions/{session.pk}/", "not entered")
    learner.post(f"/sessions/{session.pk}/enter/")
    pages["student session (entered twice)"] = learner.post(f"/sessions/{session.pk}/enter/")
    table = learner.post(f"/sessions/{session.pk}/boards/1/play/")
    visit(learner, "student", table["Location"], "a session board")
    _finish_deal(learner, table["Location"])
    visit(learner, "student", f"/sessions/{session.pk}/", "one board played")
    with time_machine.travel(session.closes_at + timedelta(minutes=1)):
        visit(learner, "student", f"/sessions/{session.pk}/", "closed")
        visit(learner, "student", f"/sessions/{session.pk}/boards/1/")
        visit(learner, "student", f"/clubs/{club.slug}/sessions/", "closed")
    _live_session_pages(pages, visit, learner, organise, organiser, club)


def _live_session_pages(pages, visit, learner, organise, organiser, club) -> None:  # type: ignore[no-untyped-def]
    """A live session: a partnership asked, check-in, the director's page before the start,
    in a round and closed, and a pair's page in a round."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from trainer.clubs.models import ClubMembership
    from trainer.duplicate import services
    from trainer.duplicate.models import SessionEntry

    session = services.session_create(
        user=organiser, club=club, title="火曜の夜", boards=0, kind="live",
        opens_at=timezone.now() - timedelta(minutes=1),
    )  # fmt: skip
    visit(organise, "organiser", f"/clubs/{club.slug}/sessions/", "two sessions")
    members = [
        m.user
        for m in ClubMembership.objects.filter(club=club).select_related("user")
        if m.user.username != "student1"
    ]
    student = get_user_model().objects.get(username="student1")
    services.session_enter(user=members[0], session=session, partner=student)
    visit(learner, "student", f"/sessions/{session.pk}/", "asked to partner")
    learner.post(f"/sessions/{session.pk}/partner/", {"answer": "yes"})
    for who in members[1:3]:
        services.session_enter(user=who, session=session)
    for entry in SessionEntry.objects.filter(session=session):
        services.check_in(user=entry.player, session=session, here=True)
    visit(learner, "student", f"/sessions/{session.pk}/", "checked in")
    visit(organise, "organiser", f"/sessions/{session.pk}/director/", "before the start")
    organise.post(f"/sessions/{session.pk}/director/act/", {"do": "start"})
    organise.post(f"/sessions/{session.pk}/director/act/", {"do": "round"})
    visit(organise, "organiser", f"/sessions/{session.pk}/director/", "round 1")
    visit(learner, "student", f"/sessions/{session.pk}/", "round 1")
    pages["organiser director (refused)"] = organise.post(
        f"/sessions/{session.pk}/director/act/", {"do": "start"}
    )
    organise.post(f"/sessions/{session.pk}/director/act/", {"do": "close"})
    visit(organise, "organiser", f"/sessions/{session.pk}/director/", "closed")
    visit(learner, "student", f"/sessions/{session.pk}/", "live, closed")


def html_pages(pages: dict[str, object]) -> dict[str, str]:
    """The HTML of each page (other content types left out); fails on server errors, naming
    every page that had one."""
    broken = [label for label, response in pages.items() if response.status_code >= 500]
    assert not broken, "server errors on: " + ", ".join(broken)
    return {
        label: response.content.decode()
        for label, response in pages.items()
        if response.get("Content-Type", "").startswith("text/html")
    }
