import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-unusual-passphrase-42"


def make_user(username: str = "ada", email: str = "ada@example.com"):
    return get_user_model().objects.create_user(username=username, email=email, password=PASSWORD)


def signup_data(**overrides: str) -> dict[str, str]:
    return {
        "username": "newplayer",
        "email": "new@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **overrides,
    }


def test_signup_page_renders(client):
    response = client.get("/accounts/signup/")

    assert response.status_code == 200
    assert 'name="password1"' in response.text


def test_signup_creates_user_and_logs_in(client):
    response = client.post("/accounts/signup/", signup_data())

    assert response.status_code == 302
    assert response["Location"] == "/start/"  # a new account lands on "Start here"
    user = get_user_model().objects.get(username="newplayer")
    assert user.email == "new@example.com"
    assert client.session["_auth_user_id"] == str(user.pk)


def test_signup_redirects_to_safe_next(client):
    response = client.post("/accounts/signup/", signup_data(next="/drills/"))

    assert response["Location"] == "/drills/"


def test_signup_ignores_offsite_next(client):
    response = client.post("/accounts/signup/", signup_data(next="https://evil.example/"))

    assert response["Location"] == "/start/"


@pytest.mark.parametrize("target", ["foo", "-5", "🎹", "login"])
def test_signup_when_signed_in_ignores_a_next_that_is_not_a_path(client, target):
    client.force_login(make_user())

    response = client.get("/accounts/signup/", {"next": target})

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_signup_with_mismatched_passwords_shows_errors(client):
    response = client.post("/accounts/signup/", signup_data(password2="something-else-99"))

    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="newplayer").exists()
    assert "errorlist" in response.text


def test_login_then_home_shows_username(client):
    make_user()

    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "ada" in client.get("/").text


def test_login_with_wrong_password_fails(client):
    make_user()

    response = client.post("/accounts/login/", {"username": "ada", "password": "wrong"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post(client):
    client.force_login(make_user())

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session


def test_logout_rejects_get(client):
    client.force_login(make_user())

    response = client.get("/accounts/logout/")

    assert response.status_code == 405


def test_password_reset_sends_email(client):
    make_user()

    response = client.post("/accounts/password_reset/", {"email": "ada@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.com"]
    assert "/accounts/reset/" in mail.outbox[0].body


def test_password_reset_link_lets_user_set_new_password(client):
    make_user()
    client.post("/accounts/password_reset/", {"email": "ada@example.com"})
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    path = link.split("://", 1)[1].split("/", 1)[1]

    form_page = client.get("/" + path, follow=True)
    new_password = "another-Unusual-phrase-77"
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
    )

    assert response.status_code == 302
    assert client.login(username="ada", password=new_password)


def test_login_page_says_why_a_page_needs_an_account(client):
    response = client.get("/progress/", follow=True)
    assert b"Log in to see your progress." in response.content


def test_login_page_without_next_gives_no_reason(client):
    response = client.get("/accounts/login/")
    assert b"login-reason" not in response.content


def test_name_set_on_settings_is_shown_as_first_name_and_initial(client):
    from trainer.core.people import display_name

    user = make_user()
    client.force_login(user)
    assert b'action="/accounts/name/"' in client.get("/settings/").content
    response = client.post("/accounts/name/", {"first_name": "Ada", "last_name": "lovelace"})
    assert response["Location"] == "/settings/"
    user.refresh_from_db()
    assert display_name(user) == "Ada L."
    assert b"<strong>Ada L.</strong>" in client.get("/settings/").content


def test_display_name_falls_back_to_the_username(client):
    from trainer.core.people import display_name

    assert display_name(make_user()) == "ada"
