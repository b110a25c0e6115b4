"""Every page, rendered for a browser that prefers Japanese, shows no English from the UI
catalog (``locale/ja/LC_MESSAGES/django.po``).

Visitors, a student, a teacher and a club organiser (the demo data) open every page of the
site; a drill of each kind is answered (the feedback shown). The visible text of each page
(text nodes, and the ``title``, ``aria-label``, ``placeholder`` and ``alt`` attributes) is
checked for the English of every catalog entry: a page or a string that is not translated
fails with the page's address and the English it showed. Card notation, proper names and
the demo's own data (user, club, class and assignment names) are allowed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from engine.drills import KINDS, DrillParams, make_drill
from engine.signals import encode
from tests.trainer import factories
from tests.trainer.i18n.catalogs import ROOT, VisibleText, entries
from trainer.core.links import drill_url

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

JA = "ja,en;q=0.3"
CATALOG = ROOT / "locale/ja/LC_MESSAGES/django.po"
#: English that may stand on a Japanese page: the site's and the game's names, card notation.
ALLOWED = {"Concerto Trainer", "Concerto", "CSV"}
#: Named URLs that are not pages: actions answering a POST, files, feeds and redirects.
NOT_PAGES = {
    "healthz": "a plain-text health check",
    "favicon": "a redirect to the icon",
    "review-goal": "POST only",
    "drill-practise-next": "a redirect to the set's next drill",
    "classes:export": "a CSV file",
    "classes:student-remove": "POST only",
    "classes:co-teacher-add": "POST only",
    "classes:archive": "POST only",
    "classes:restore": "POST only",
    "classes:join-code-rotate": "POST only",
    "classes:leave": "POST only",
    "classes:assignment-next": "a redirect to the next drill",
    "classes:assignment-delete": "POST only",
    "clubs:step-next": "a redirect to the step's next drill",
    "clubs:promote": "POST only",
    "clubs:invite-rotate": "POST only",
    "clubs:rules": "POST only",
    "start:step-next": "a redirect to the step's next drill",
    "play:act": "POST only",
    "play:advice": "a fragment for the table's script",
    "play:quiz": "POST only",
    "play:table-json": "JSON",
    "play:record": "JSON",
    "name-update": "POST only",
    "logout": "POST only",
    "set_language": "POST only",
    "classroom-language": "POST only",
    "drill-next": "a redirect to a fresh drill (drill-detail is checked)",
    "play:shared": "needs a finished deal its player shared (the table and review are checked)",
    "password_reset_confirm": "needs a reset token (checked with one below)",
    "play:live-partial": "the table fragment a live page reloads (play:live is checked)",
    "play:live-begin": "POST only",
    "play:live-act": "POST only",
    "play:live-away": "POST only",
    "play:live-revoke": "POST only",
    "play:live-record": "JSON",
    "cards:check": "POST only: the card editor's live check (a fragment of cards:detail)",
    "cards:check-new": "POST only: the live check of a new card (a fragment of cards:new)",
    "cards:default": "POST only",
    "cards:evaluate": "POST only",
    "cards:evaluation": "a fragment of cards:detail that the page polls",
}


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


def visible_text(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return [" ".join(p.split()) for p in parser.parts]


_PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%%|<[^>]+>")


def _fragments(msgid: str) -> list[str]:
    """The literal English of a message, cut at its placeholders and tags. A piece counts when
    it has two words, or one word of four letters or more ("of", "the" alone say nothing)."""
    pieces = (" ".join(p.split()).strip(" .,:;·—–()“”?!") for p in _PLACEHOLDER.split(msgid))
    return [p for p in pieces if re.search(r"[A-Za-z]{2,}\W+[A-Za-z]{2,}|[A-Za-z]{4,}", p)]


def english_phrases() -> dict[str, str]:
    """Fragment → the catalog message it comes from (format-only entries excluded)."""
    found: dict[str, str] = {}
    for entry in entries(CATALOG):
        if entry.context == "date format":
            continue
        for text in filter(None, (entry.msgid, entry.msgid_plural)):
            for fragment in _fragments(text):
                if fragment and fragment not in ALLOWED:
                    found.setdefault(fragment, text)
    return found


def english_on(html: str, phrases: dict[str, str], allowed: set[str]) -> list[str]:
    """Each catalog phrase found in the page's text, with the text it was found in."""
    texts = visible_text(html)
    for name in sorted(allowed, key=len, reverse=True):
        texts = [t.replace(name, " ") for t in texts]
    hits = []
    for fragment in phrases:
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(fragment) + r"(?![A-Za-z])")
        where = next((t for t in texts if pattern.search(t)), None)
        if where is not None:
            hits.append(f"{fragment!r} in {where[:90]!r}")
    return sorted(hits)


def _url_names(resolver=None, namespace="") -> set[str]:
    names = set()
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            if "admin" in str(p.pattern):
                continue
            names |= _url_names(p, namespace + (f"{p.namespace}:" if p.namespace else ""))
        elif isinstance(p, URLPattern) and p.name:
            names.add(namespace + p.name)
    return names


@pytest.fixture
def demo(settings):
    settings.TRAINER_DEMO_DATA = True
    with override_settings(TRAINER_DEMO_DATA=True):
        call_command("seed", verbosity=0)
    from django.contrib.auth import get_user_model

    from trainer.classes.models import Assignment, Classroom
    from trainer.clubs.models import Club
    from trainer.drills.models import DrillSet
    from trainer.learn.models import Lesson

    users = {u.username: u for u in get_user_model().objects.all()}
    allowed = set(ALLOWED)
    for u in users.values():
        allowed |= {u.username, u.first_name, u.last_name}
        allowed.add(f"{u.first_name} {u.last_name[:1]}.")
    allowed |= set(Club.objects.values_list("name", flat=True))
    allowed |= set(Classroom.objects.values_list("name", flat=True))
    allowed |= set(Assignment.objects.values_list("title", flat=True))
    allowed |= set(DrillSet.objects.values_list("title", flat=True))
    return {
        "users": users,
        "allowed": {a for a in allowed if a},
        "club": Club.objects.get(),
        "classroom": Classroom.objects.get(),
        "assignment": Assignment.objects.order_by("pk").first(),
        "lessons": list(Lesson.objects.values_list("slug", flat=True).distinct()),
    }


def _client(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=JA)
    if user is not None:
        client.force_login(user)
    return client


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


def _answered_drills(client: Client) -> dict[str, str]:
    """Each drill kind's page after an answer was posted: kind → HTML."""
    pages = {}
    for kind in KINDS:
        drill = make_drill(kind, 5, DrillParams())
        url = drill_url(kind, 5, DrillParams())
        html = client.get(url).content.decode()
        showing = re.search(r'name="showing" value="([^"]+)"', html)[1]
        if kind == "lead":
            c1, c2 = encode(drill.hand, drill.params.side_hand or 1).plays[0]
            data = {"c1": str(c1), "c2": str(c2) if c2 else "pass"}
        else:
            data = {"option": factories.wrong_option(drill)}
        pages[f"{url} (answered)"] = client.post(url, {"showing": showing, **data})
        pages[url] = client.get(url)
    return pages


def test_every_named_page_is_checked_or_said_not_to_be_a_page():
    checked = {
        "home", "review", "progress", "settings", "drill-menu", "drill-custom",
        "drill-practise", "drill-detail", "classes:list", "classes:create", "classes:join",
        "classes:join-link", "classes:detail", "classes:dashboard", "classes:student",
        "classes:assignment-create", "classes:assignment", "clubs:list", "clubs:create",
        "clubs:join", "clubs:detail", "clubs:path", "clubs:step", "clubs:members",
        "start:path", "start:step", "learn:list", "learn:lesson", "play:home", "play:table",
        "play:review", "cheatsheet", "glossary", "signup", "login",
        "cards:list", "cards:new", "cards:detail",
        "play:live-new", "play:live", "play:live-join", "play:live-list",
        "password_reset", "password_change", "password_change_done", "password_reset_done",
        "password_reset_complete",
    }  # fmt: skip
    assert _url_names() - checked - set(NOT_PAGES) == set()


def test_no_page_shows_english_from_the_ui_catalog(demo):
    users = demo["users"]
    club, classroom, assignment = demo["club"], demo["classroom"], demo["assignment"]
    student, teacher = users["student1"], users["teacher"]
    visitor, learner, teach, organise = (
        _client(),
        _client(student),
        _client(teacher),
        _client(users["organiser"]),
    )
    pages: dict[str, object] = {}

    def visit(who: Client, label: str, url: str) -> None:
        pages[f"{label} {url}"] = who.get(url, follow=True)

    for url in ("/", "/drills/", "/learn/", "/cheatsheet/", "/glossary/", "/play/",
                "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
                "/accounts/password_reset/done/", "/accounts/reset/done/",
                "/accounts/reset/MQ/bad-token/", "/no-such-page/",
                f"/clubs/join/{club.invite_token}/", f"/classes/join/{classroom.join_code}/",
                "/classes/join/NOSUCHCODE/", "/drills/custom/?kind=read&side_hand=3"):  # fmt: skip
        visit(visitor, "visitor", url)
    for slug in demo["lessons"]:
        visit(visitor, "visitor", f"/learn/{slug}/")
    for label, page in _answered_drills(visitor).items():
        pages[f"visitor {label}"] = page
    for url in ("/", "/progress/", "/settings/", "/drills/", "/drills/review/", "/start/",
                "/start/1/", "/start/7/", "/classes/", "/classes/join/", "/clubs/",
                f"/classes/{classroom.pk}/", f"/classes/assignments/{assignment.pk}/",
                "/accounts/password_change/", "/accounts/password_change/done/", "/play/",
                f"/clubs/{club.slug}/", f"/clubs/{club.slug}/path/",
                f"/clubs/{club.slug}/path/3/", f"/clubs/{club.slug}/members/"):  # fmt: skip
        visit(learner, "student", url)
    lesson = pages.get("visitor /learn/strong-signals/")
    practise = lesson and re.search(r'href="(/drills/practise/[^"/]+/)"', lesson.content.decode())
    assert practise, "the lesson links to a practice set"
    visit(learner, "student", practise[1])
    for label, page in _answered_drills(learner).items():
        pages[f"student {label}"] = page
    start = learner.get("/play/").content.decode()
    table = learner.post("/play/", form_data(start, "data-start"))
    if table.status_code == 302:
        game = table["Location"].split("?")[0]
        visit(learner, "student", game)
        visit(learner, "student", game + "review/")
    for url in ("/classes/", "/classes/new/", f"/classes/{classroom.pk}/",
                f"/classes/{classroom.pk}/dashboard/",
                f"/classes/{classroom.pk}/students/{student.pk}/",
                f"/classes/{classroom.pk}/students/{student.pk}/?show=mistakes",
                f"/classes/{classroom.pk}/assignments/new/",
                f"/classes/assignments/{assignment.pk}/"):  # fmt: skip
        visit(teach, "teacher", url)
    for url in ("/clubs/", "/clubs/new/", f"/clubs/{club.slug}/",
                f"/clubs/{club.slug}/members/", f"/clubs/{club.slug}/path/"):  # fmt: skip
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
    partner = _client(users["student2"])
    visit(partner, "student2", invite)
    partner.post(invite, {"seat": "N"})
    learner.post(live_url + "begin/")
    visit(learner, "student", live_url)
    visit(partner, "student2", live_url)
    visit(learner, "student", "/play/tables/")
    visit(teach, "teacher", "/play/tables/")
    visit(teach, "teacher", live_url)
    card = _club_card(users["organiser"], club)
    for url in ("/cards/", f"/cards/new/?club={club.slug}&from=parlett-2008",
                f"/cards/{card.card_id}/"):  # fmt: skip
        visit(organise, "organiser", url)

    phrases = english_phrases()
    problems = {}
    for label, response in pages.items():
        assert response.status_code < 500, label
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        found = english_on(response.content.decode(), phrases, demo["allowed"])
        if found:
            problems[label] = found
    report = "\n".join(f"{page}:\n    " + "\n    ".join(hits) for page, hits in problems.items())
    assert not problems, "English from the UI catalog on Japanese pages:\n" + report
