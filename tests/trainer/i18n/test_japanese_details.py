"""Single Japanese pages of issue #21, checked fast (the slow walk over every page is
``test_japanese_latin``): today's review lists missed drills in Japanese, a form refused for its
CSRF token shows the site's own 403 page, a new account is welcomed (a returning one welcomed
back) by its name as written, sign-up says "required" one way, the account links end in 。, a
lesson's score example names combinations and seats in Japanese, and /drills/custom/ without
settings goes to the form instead of an error about a kind called “”."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.trainer import factories
from tests.trainer.i18n.latin import latin_runs
from trainer.progress.models import ReviewGoal

pytestmark = pytest.mark.django_db
JA = "ja,en;q=0.3"


def _ja(user=None, **extra) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=JA, **extra)
    if user is not None:
        client.force_login(user)
    return client


def test_todays_review_lists_the_missed_drills_in_japanese():
    learner = factories.user("reviewer")
    ReviewGoal.objects.create(user=learner, per_day=1)  # met by one answer: the summary shows
    factories.answer(learner, kind="read", seed=3, correct=False)
    html = _ja(learner).get("/drills/review/").content.decode()
    missed = re.search(r'<ul class="missed-list">(.*?)</ul>', html, re.S)
    assert missed, "the summary lists the missed drill"
    text = re.sub(r"<[^>]+>", "", missed[1])
    assert "パートナーのシグナルを読む：" in text and "あなたの答えは" in text
    assert latin_runs(missed[0]) == []


def test_a_form_refused_for_its_csrf_token_shows_the_sites_page_in_japanese():
    response = _ja(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x"})
    html = response.content.decode()
    assert response.status_code == 403
    assert '<html lang="ja">' in html and 'class="site-header' in html  # the styled page
    assert "このフォームは期限切れです" in html
    assert latin_runs(html) == []


def test_the_csrf_page_in_english_says_the_same():
    response = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True).post(
        "/accounts/login/", {"username": "x"}
    )
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()


def test_a_new_account_is_welcomed_and_a_returning_one_welcomed_back():
    fresh = factories.user("jatester9")
    html = _ja(fresh).get("/").content.decode()
    assert 'ようこそ、<span class="person-name">jatester9</span>さん' in html
    assert "おかえりなさい" not in html
    factories.answer(fresh, kind="checklist", seed=1)
    html = _ja(fresh).get("/").content.decode()
    assert 'おかえりなさい、<span class="person-name">jatester9</span>さん' in html


def test_sign_up_says_required_one_way():
    html = _ja().post("/accounts/signup/", {"username": ""}).content.decode()
    assert "この項目は必須です。" in html
    assert "このフィールドは必須です" not in html
    assert "ユーザー名：" in html and "ユーザー名:" not in html  # a full-width label colon
    assert "パスワード（確認用）" in html
    assert re.search(r"アカウントをお持ちですか？<a [^>]+>ログイン</a>してください。", html)


def test_the_login_page_links_sign_up_in_one_sentence():
    html = _ja().get("/accounts/login/?next=/progress/").content.decode()
    link = '<a href="/accounts/signup/?next=%2Fprogress%2F">アカウントを作成</a>'
    assert f"はじめてですか？{link}しましょう。" in html


def test_the_custom_drill_address_without_settings_goes_to_the_form():
    response = _ja().get("/drills/custom/")
    assert response.status_code == 302
    assert response["Location"].endswith("/drills/#custom-title")


def test_a_score_example_names_combinations_and_seats_in_japanese():
    from django.utils import translation

    from engine.signals import DEFAULT_CONVENTION
    from trainer.learn.examples import render_example

    with translation.override("ja"):
        html = render_example("score", "AH 2H 3H 4H 5H\nby: NNNSS", DEFAULT_CONVENTION)
    assert "ストレートフラッシュ" in html and "北が出した" in html
    assert latin_runs(html) == []
