"""Which language a page is in: the browser's Accept-Language for visitors, the switcher
(Django's set_language, no JavaScript), a signed-in user's saved choice, the default of their
class or club, and the order between them. Addresses are the same in every language."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.trainer import factories
from trainer.classes import services as class_services
from trainer.clubs import services as club_services
from trainer.languages import services as language_services
from trainer.languages.models import LanguagePreference
from trainer.languages.selectors import classroom_language, group_language, language_for

pytestmark = pytest.mark.django_db

JA = "ja,en;q=0.5"


def _lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode())[1]


def test_a_visitor_gets_english_by_default(client):
    response = client.get("/")
    assert _lang(response) == "en"
    assert response["Content-Language"] == "en"
    assert "Read your partner's signals at a glance." in response.content.decode()


def test_a_visitor_whose_browser_prefers_japanese_gets_japanese(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=JA)
    html = response.content.decode()
    assert _lang(response) == "ja"
    assert response["Content-Language"] == "ja"
    assert "パートナーのシグナルを一目で読み取りましょう。" in html
    assert "Read your partner's signals" not in html
    assert "Accept-Language" in response["Vary"]


def test_an_unsupported_browser_language_falls_back_to_english(client):
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")) == "en"


def test_the_address_is_the_same_in_every_language(client):
    for accept in ("en", JA):
        assert client.get("/drills/", HTTP_ACCEPT_LANGUAGE=accept).status_code == 200
        assert client.get("/ja/drills/", HTTP_ACCEPT_LANGUAGE=accept).status_code == 404
    assert reverse("drill-menu") == "/drills/"


def test_the_layout_has_a_switcher_that_works_without_javascript(client):
    html = client.get("/drills/").content.decode()
    form = re.search(r'<form class="language-form[^"]*" method="post" action="([^"]+)">', html)
    assert form is not None and form[1] == "/i18n/setlang/"
    assert '<input type="hidden" name="next" value="/drills/">' in html
    assert '<label for="language-select">Language</label>' in html
    assert re.search(r'<option value="ja" lang="ja">\s*日本語\s*</option>', html)
    assert re.search(r'<option value="en" lang="en" selected>\s*English\s*</option>', html)
    assert re.search(r'<button type="submit"[^>]*>Change language</button>', html)


def test_the_switcher_sets_the_language_and_goes_back(client):
    response = client.post("/i18n/setlang/", {"language": "ja", "next": "/drills/"})
    assert response.status_code == 302
    assert response["Location"] == "/drills/"
    assert response.cookies["django_language"].value == "ja"
    # The choice beats the browser's own preference from now on.
    assert _lang(client.get("/drills/", HTTP_ACCEPT_LANGUAGE="en")) == "ja"
    client.post("/i18n/setlang/", {"language": "en", "next": "/drills/"})
    assert _lang(client.get("/drills/", HTTP_ACCEPT_LANGUAGE=JA)) == "en"


def test_the_switcher_refuses_an_unknown_language_and_a_foreign_next(client):
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "https://evil.example/"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "django_language" not in response.cookies


def test_the_switcher_only_accepts_a_post(client):
    assert client.get("/i18n/setlang/?language=ja").status_code == 405


def test_a_signed_in_users_choice_is_saved_and_follows_them(client):
    user = factories.user()
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert LanguagePreference.objects.get(user=user).language == "ja"
    # Another browser, English by its header and without the cookie: still Japanese.
    other = type(client)()
    other.force_login(user)
    assert _lang(other.get("/progress/", HTTP_ACCEPT_LANGUAGE="en")) == "ja"


def test_an_unknown_language_saves_nothing(client):
    user = factories.user()
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert not LanguagePreference.objects.filter(user=user).exists()


def test_a_visitors_switch_saves_nothing(client):
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert LanguagePreference.objects.count() == 0


def _club_with_language(language: str):
    organiser = factories.user()
    club = club_services.club_create(user=organiser, name="Riverside", language=language)
    return club, organiser


def test_a_clubs_default_applies_to_members_without_a_choice(client):
    club, _ = _club_with_language("ja")
    member = factories.user()
    club_services.club_join(user=member, club=club)
    client.force_login(member)
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "ja"


def test_a_club_without_a_default_leaves_the_browser_to_decide(client):
    club, _ = _club_with_language("")
    member = factories.user()
    club_services.club_join(user=member, club=club)
    client.force_login(member)
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "en"
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE=JA)) == "ja"


def test_the_members_own_choice_beats_the_clubs_default(client):
    club, _ = _club_with_language("ja")
    member = factories.user()
    club_services.club_join(user=member, club=club)
    client.force_login(member)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    other = type(client)()
    other.force_login(member)
    assert _lang(other.get("/", HTTP_ACCEPT_LANGUAGE=JA)) == "en"


def test_an_organiser_sets_the_clubs_default_with_the_house_rules(client):
    club, organiser = _club_with_language("")
    client.force_login(organiser)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert 'name="language"' in page
    response = client.post(
        reverse("clubs:rules", args=[club.slug]),
        {"convention": club.convention, "rule": club.rule, "language": "ja"},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.language == "ja"


def test_a_club_default_must_be_a_site_language(client):
    club, organiser = _club_with_language("")
    client.force_login(organiser)
    response = client.post(
        reverse("clubs:rules", args=[club.slug]),
        {"convention": club.convention, "rule": club.rule, "language": "xx"},
    )
    assert response.status_code == 400
    club.refresh_from_db()
    assert club.language == ""


def _class_with_student():
    teacher, student = factories.user(), factories.user()
    classroom = class_services.classroom_create(name="Tuesday", teacher=teacher)
    class_services.classroom_join(code=classroom.join_code, user=student)
    return classroom, teacher, student


def test_precedence_saved_then_class_then_club():
    classroom, teacher, student = _class_with_student()
    club, _ = _club_with_language("en")
    club_services.club_join(user=student, club=club)
    assert language_for(student) == "en"
    language_services.classroom_language_set(actor=teacher, classroom=classroom, language="ja")
    assert group_language(student) == "ja"
    assert language_for(student) == "ja"
    # A teacher of the class is not its student: the class's default is not theirs.
    assert language_for(teacher) is None
    LanguagePreference.objects.create(user=student, language="en")
    assert language_for(student) == "en"


def test_a_teacher_sets_the_class_default_from_the_class_page(client):
    classroom, teacher, student = _class_with_student()
    client.force_login(teacher)
    page = client.get(reverse("classes:detail", args=[classroom.pk])).content.decode()
    assert f'action="/classes/{classroom.pk}/language/"' in page
    response = client.post(f"/classes/{classroom.pk}/language/", {"language": "ja"})
    assert response.status_code == 302
    assert classroom_language(classroom) == "ja"
    # The student, signing in with an English browser, gets the class's Japanese.
    learner = type(client)()
    learner.force_login(student)
    assert _lang(learner.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "ja"
    client.post(f"/classes/{classroom.pk}/language/", {"language": ""})
    assert classroom_language(classroom) == ""


def test_only_a_teacher_sets_the_class_default_and_only_to_a_site_language(client):
    classroom, teacher, student = _class_with_student()
    client.force_login(student)
    assert client.post(f"/classes/{classroom.pk}/language/", {"language": "ja"}).status_code == 403
    stranger = type(client)()
    stranger.force_login(factories.user())
    response = stranger.post(f"/classes/{classroom.pk}/language/", {"language": "ja"})
    assert response.status_code == 404
    client.force_login(teacher)
    assert client.post(f"/classes/{classroom.pk}/language/", {"language": "xx"}).status_code == 400
    assert client.get(f"/classes/{classroom.pk}/language/").status_code == 405
    assert classroom_language(classroom) == ""


def test_an_archived_class_keeps_its_default(client):
    classroom, teacher, _student = _class_with_student()
    class_services.classroom_archive(classroom=classroom, by=teacher)
    client.force_login(teacher)
    assert client.post(f"/classes/{classroom.pk}/language/", {"language": "ja"}).status_code == 400
    assert classroom_language(classroom) == ""


def test_the_password_reset_email_is_in_the_users_language(client):
    user = factories.user()
    user.email = "ana@example.com"
    user.save()
    LanguagePreference.objects.create(user=user, language="ja")
    # Asked for from an English page: the e-mail still follows the user's saved language.
    response = client.post(
        "/accounts/password_reset/", {"email": "ana@example.com"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    message = mail.outbox[-1]
    assert message.subject == "Concerto Trainerのパスワード再設定"
    assert "次のリンクから新しいパスワードを設定してください。" in message.body
    assert message.body.startswith(f"{user.get_username()}様")
    assert "/accounts/reset/" in message.body


def test_the_password_reset_email_is_english_for_an_english_request(client):
    user = factories.user()
    user.email = "ben@example.com"
    user.save()
    client.post("/accounts/password_reset/", {"email": "ben@example.com"})
    message = mail.outbox[-1]
    assert message.subject == "Reset your Concerto Trainer password"
    assert "Someone (hopefully you) asked to reset the password" in message.body


def test_japanese_pages_show_local_dates_and_numbers(client):
    student = factories.user()
    factories.answer(student, kind="checklist", seed=3, correct=False)
    client.force_login(student)
    html = client.get("/progress/", HTTP_ACCEPT_LANGUAGE=JA).content.decode()
    assert re.search(r"\d+月\d+日", html), "the chart's days in Japanese form"
    assert "たった今" in html  # "… ago" of the missed drill, in Japanese (under a minute)
    english = client.get("/progress/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r"\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)", english)


def test_the_switcher_returns_to_the_page_with_its_query_but_no_foreign_next(client):
    html = client.get("/drills/?kind=read&next=https://evil.example/").content.decode()
    assert '<input type="hidden" name="next" value="/drills/?kind=read">' in html
    assert "evil.example" not in html
