"""Hardening (issue 9, finding 6): a Content-Security-Policy with no inline script or style,
HSTS preload only when asked for, session lifetime as a setting, look-alike usernames refused."""

import re

import pytest
from django.conf import settings

from tests.concerto_site.test_settings import production_env, run_manage
from tests.trainer import factories as f

pytestmark = pytest.mark.django_db

TEMPLATE_DIRS = [settings.BASE_DIR / "templates", settings.BASE_DIR / "trainer" / "templates"]


def test_pages_carry_a_strict_content_security_policy(client):
    policy = client.get("/drills/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())

    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_no_template_has_inline_script_handlers_or_styles():
    offenders = []
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*.html"):
            text = path.read_text()
            for pattern in (
                r"<script(?![^>]*\bsrc=)[^>]*>",
                r"\son[a-z]+\s*=",
                r"\sstyle\s*=",
                r"<style\b",
                r"javascript:",
            ):
                if re.search(pattern, text, re.IGNORECASE):
                    offenders.append(f"{path.relative_to(settings.BASE_DIR)}: {pattern}")

    assert offenders == []


def test_htmx_is_told_not_to_inject_styles_or_eval(client):
    page = client.get("/drills/").text
    config = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'', page)[1]

    assert '"includeIndicatorStyles": false' in config
    assert '"allowEval": false' in config


def _production_setting(name, **extra):
    result = run_manage(
        "shell",
        "-c",
        f"from django.conf import settings; print(settings.{name})",
        env={**production_env(), **extra},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_hsts_preload_is_off_unless_asked_for():
    assert _production_setting("SECURE_HSTS_PRELOAD") == "False"
    assert _production_setting("SECURE_HSTS_PRELOAD", SECURE_HSTS_PRELOAD="1") == "True"


def test_session_lifetime_is_a_named_setting():
    assert _production_setting("SESSION_COOKIE_AGE", SESSION_COOKIE_AGE="3600") == "3600"


SIGNUP = {"password1": "a-Long-pass-phrase-9", "password2": "a-Long-pass-phrase-9"}


def test_a_cyrillic_look_alike_of_a_username_is_refused(client):
    f.user("teacher")

    response = client.post("/accounts/signup/", {"username": "t\u0435acher", **SIGNUP})

    assert response.status_code == 200
    assert "one alphabet" in response.text
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.count() == 1


def test_a_single_script_look_alike_is_refused(client):
    f.user("teacher")

    cyrillic_teacher = "\u0442\u0435\u0430\u0441\u043d\u0435\u0433"  # "теаснег"

    response = client.post("/accounts/signup/", {"username": cyrillic_teacher, **SIGNUP})

    assert "looks too much like an existing one" in response.text


def test_an_existing_look_alike_blocks_the_latin_name_too(client):
    f.user("\u0441\u043e\u0440\u0435")  # Cyrillic "соре"

    response = client.post("/accounts/signup/", {"username": "cope", **SIGNUP})

    assert "looks too much like an existing one" in response.text


def test_usernames_are_normalised_to_nfkc(client):
    response = client.post("/accounts/signup/", {"username": "\uff41\uff44\uff41", **SIGNUP})

    assert response.status_code == 302
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.filter(username="ada").exists()


@pytest.mark.parametrize(
    "name",
    [
        "\uff54\uff45\uff41\uff43\uff48\uff45\uff52",  # full-width "ｔｅａｃｈｅｒ"
        "teacher",
        "Teacher",
        "TEACHER",
    ],
)
def test_the_name_of_an_existing_user_in_any_width_or_case_is_a_form_error(client, name):
    from django.contrib.auth import get_user_model

    f.user("teacher")

    response = client.post("/accounts/signup/", {"username": name, **SIGNUP})

    assert response.status_code == 200
    assert "A user with that username already exists." in response.text
    assert 'name="username"' in response.text  # the form again, to choose another name
    assert get_user_model().objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_ordinary_names_in_other_alphabets_are_welcome(client):
    sergei = "\u0421\u0435\u0440\u0433\u0435\u0439"

    response = client.post("/accounts/signup/", {"username": sergei, **SIGNUP})

    assert response.status_code == 302


def test_a_sign_up_racing_another_for_the_same_name_is_a_form_error(client, monkeypatch):
    from django.db import IntegrityError

    from trainer.accounts.forms import SignupForm

    def taken_meanwhile(self, commit=True):
        raise IntegrityError("UNIQUE constraint failed: auth_user.username")

    monkeypatch.setattr(SignupForm, "save", taken_meanwhile)

    response = client.post("/accounts/signup/", {"username": "twin", **SIGNUP})

    assert response.status_code == 200
    assert "already exists" in response.text
