"""Bad input is a 400 or a 404, never a 500 (issue 9, finding 3).

NUL bytes crash PostgreSQL queries, ids above 2**63 - 1 raise OverflowError on SQLite, and a
drill address longer than the column that keeps it crashed PostgreSQL.
"""

import pytest
from django.test import Client

from tests.asyncrun import run_async
from tests.trainer import factories as f
from tests.trainer.classes import factories as cf
from tests.trainer.clubs import factories as clf
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db

HUGE = str(2**63)  # one past the largest id the database can hold
HUGER = "9" * 30


@pytest.fixture
def lenient():
    """A client that returns the 500 page instead of raising, as a browser would see it."""
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "url",
    [
        "/clubs/join/%00/",
        "/learn/the-game/?club=%00",
        "/drills/lead/?items=%00",
        "/classes/join/%00/",
        "/%00",
    ],
)
def test_a_nul_byte_in_the_address_is_a_400(lenient, url):
    response = lenient.get(url)

    assert response.status_code == 400
    assert "NUL" in response.text


def test_a_nul_byte_in_the_address_is_a_400_when_signed_in(lenient):
    lenient.force_login(f.user())

    assert lenient.get("/clubs/join/%00/").status_code == 400
    assert lenient.get("/learn/the-game/?club=%00").status_code == 400


def test_a_nul_byte_in_a_form_is_a_400(lenient):
    lenient.force_login(f.user())

    response = lenient.post("/classes/join/", {"code": "ABC\x00DEF"})

    assert response.status_code == 400
    assert "form" in response.text


def test_an_over_long_value_is_a_400(lenient, settings):
    settings.MAX_INPUT_VALUE_LENGTH = 100

    assert lenient.get("/drills/?club=" + "x" * 101).status_code == 400
    assert lenient.get("/drills/?club=" + "x" * 99).status_code == 200


def test_the_400_page_needs_no_database(lenient, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = lenient.get("/clubs/join/%00/")

    assert response.status_code == 400


@pytest.mark.parametrize("user_id", [HUGE, HUGER])
def test_huge_ids_in_class_student_urls_are_404(lenient, user_id):
    room = cf.classroom()
    lenient.force_login(cf.teacher_of(room))

    assert lenient.get(f"/classes/{room.pk}/students/{user_id}/").status_code == 404
    assert lenient.post(f"/classes/{room.pk}/students/{user_id}/remove/").status_code == 404
    assert lenient.get(f"/classes/{user_id}/").status_code == 404
    assert lenient.get(f"/classes/assignments/{user_id}/").status_code == 404


@pytest.mark.parametrize("user_id", [HUGE, HUGER])
def test_huge_ids_in_club_member_urls_are_404(lenient, user_id):
    organiser = f.user()
    club = clf.club(organiser)
    lenient.force_login(organiser)

    assert lenient.post(f"/clubs/{club.slug}/members/{user_id}/promote/").status_code == 404
    assert lenient.get(f"/clubs/{club.slug}/path/{user_id}/").status_code == 404


def test_the_largest_id_still_resolves_to_an_ordinary_404(lenient):
    room = cf.classroom()
    lenient.force_login(cf.teacher_of(room))

    response = lenient.get(f"/classes/{room.pk}/students/{2**63 - 1}/")

    assert response.status_code == 404


def test_a_drill_address_too_long_to_store_is_refused(lenient, monkeypatch):
    from trainer.progress import services

    monkeypatch.setattr(services, "ATTEMPT_PARAMS_MAX_LENGTH", 10)
    lenient.force_login(f.user())

    response = lenient.get("/drills/lead/3/?v=2&items=five_sf,fours,four_sf")

    assert response.status_code == 400
    assert "too long" in response.text
    assert not Attempt.objects.exists()


def test_the_longest_real_drill_address_fits_the_column():
    from engine.drills import DrillParams
    from engine.scoring import SCORING_RULES
    from engine.signals import CONVENTIONS, ITEMS

    longest_convention = max(CONVENTIONS, key=len)
    longest_rule = max(SCORING_RULES, key=len)
    params = DrillParams(
        convention=longest_convention,
        rule=longest_rule,
        side_hand=4,
        items=tuple(ITEMS),
        hand_size=13,
        own_hand=True,
    )

    assert len(params.key()) <= Attempt._meta.get_field("params").max_length


def test_a_nul_byte_in_a_cookie_is_a_400(lenient):
    # A quoted cookie value may spell a NUL as \\000; Django's cookie parser decodes it.
    response = lenient.get("/drills/", HTTP_COOKIE='sessionid="abcdefgh\\000ijkl"')

    assert response.status_code == 400


# --- character sets (security audit, "Never a 500": bad charsets were 500s on every form) ----

BAD_CHARSETS = ["utf-16", "UTF-16LE", "latin-1", "hex", "rot13", "zlib", "bogus", "undefined"]


@pytest.mark.parametrize("charset", BAD_CHARSETS)
def test_a_form_in_another_character_set_is_a_400_and_writes_nothing(lenient, charset):
    from trainer.progress.models import ReviewGoal

    lenient.force_login(f.user())

    response = lenient.generic(
        "POST",
        "/settings/goal/",
        b"per_day=12",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )

    assert response.status_code == 400
    assert "UTF-8" in response.text
    assert not ReviewGoal.objects.exists()


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/accounts/signup/", b"username=newbie&password1=a-Long-pass-9&password2=a-Long-pass-9"),
        ("/classes/join/", b"code=ABCDEFGHJK"),
        ("/classes/new/", b"name=Tuesday"),
        ("/play/", b"convention=parlett-2008&rule=classic&opponents=greedy&length=deal"),
        ("/settings/", b"four_colour=on"),
    ],
)
def test_a_utf16_form_is_a_400_on_every_form(lenient, url, body):
    from django.contrib.auth import get_user_model

    lenient.force_login(f.user())
    users = get_user_model().objects.count()

    response = lenient.generic(
        "POST", url, body, content_type="application/x-www-form-urlencoded; charset=utf-16"
    )

    assert response.status_code == 400, url
    assert "UTF-8" in response.text
    assert get_user_model().objects.count() == users


@pytest.mark.parametrize("charset", ["hex", "rot13", "utf-16", "bogus"])
def test_a_multipart_form_or_a_get_in_another_character_set_is_a_400(lenient, charset):
    lenient.force_login(f.user())
    body = b'--xyz\r\nContent-Disposition: form-data; name="per_day"\r\n\r\n12\r\n--xyz--\r\n'

    posted = lenient.generic(
        "POST",
        "/settings/goal/",
        body,
        content_type=f"multipart/form-data; boundary=xyz; charset={charset}",
    )
    fetched = lenient.get("/drills/", CONTENT_TYPE=f"text/plain; charset={charset}")

    assert posted.status_code == 400 and fetched.status_code == 400


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8", "us-ascii"])
def test_a_form_that_names_utf8_is_read_as_usual(client, charset):
    from trainer.progress.models import ReviewGoal

    client.force_login(f.user())

    response = client.generic(
        "POST",
        "/settings/goal/",
        b"per_day=12",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
    )

    assert response.status_code == 302
    assert ReviewGoal.objects.get().per_day == 12


def _wsgi(method: str, path: str, query: str, content_type: str, body: bytes = b"") -> str:
    """Call the site's WSGI application itself (the test client builds its own request)."""
    import io

    from concerto_site.wsgi import application

    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)),
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
    }
    status = []
    chunks = application(environ, lambda s, headers, exc_info=None: status.append(s))
    b"".join(chunks)
    return status[0]


@pytest.mark.parametrize("charset", ["hex", "rot13", "base64", "undefined"])
def test_a_codec_that_is_no_text_encoding_with_a_query_string_is_a_400(charset):
    """Django reads the query string in the named charset while it builds the request, before
    any middleware: ``trainer.core.web.wsgi`` keeps that from being a bare 500."""
    assert _wsgi("GET", "/drills/", "kind=read", f"text/plain; charset={charset}").startswith("400")
    assert _wsgi(
        "POST", "/settings/", "a=1", f"application/x-www-form-urlencoded; charset={charset}", b"x=1"
    ).startswith("400")


@pytest.mark.django_db(transaction=True)  # (run_async: perhaps on a thread of its own)
@pytest.mark.parametrize("charset", ["hex", "undefined", "utf-16"])
def test_a_bad_character_set_is_a_400_through_asgi_too(charset):
    from django.test import AsyncClient

    async def post():
        return await AsyncClient().generic(
            "POST",
            "/settings/?kind=read",
            b"four_colour=on",
            content_type=f"application/x-www-form-urlencoded; charset={charset}",
        )

    response = run_async(post)

    assert response.status_code == 400
    assert b"UTF-8" in response.content
