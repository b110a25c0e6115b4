"""A live table's socket speaks the language its pages speak, decided once at connect: the
user's saved choice, else their class's (or club's) default, else the language cookie, else
the browser's Accept-Language, else English."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from engine.seats import Seat
from tests.trainer.classes.factories import classroom, student_in
from tests.trainer.play.test_live import WAIT, person, seated_table
from trainer.core.languages import scope_language
from trainer.languages.models import ClassroomLanguage, LanguagePreference
from trainer.play import live
from trainer.play.routing import websocket_urlpatterns


def _scope(user, headers=()):
    return {"user": user, "headers": list(headers)}


@pytest.mark.django_db
def test_the_rule_is_the_pages_rule():
    ana = person("ana")
    assert scope_language(_scope(ana)) == "en"
    assert scope_language(_scope(ana, [(b"accept-language", b"ja,en;q=0.5")])) == "ja"
    cookie = [(b"cookie", b"django_language=en"), (b"accept-language", b"ja")]
    assert scope_language(_scope(ana, cookie)) == "en"  # the cookie before the browser
    room = classroom(name="日本語のクラス")
    student_in(room, ana)
    ClassroomLanguage.objects.create(classroom=room, language="ja")
    assert scope_language(_scope(ana, cookie)) == "ja"  # the class's default before the cookie
    LanguagePreference.objects.create(user=ana, language="en")
    assert scope_language(_scope(ana, [(b"accept-language", b"ja")])) == "en"  # saved: first
    assert scope_language({"user": ana, "session": {"trainer_language": "ja"}}) == "ja"
    assert scope_language(_scope(ana, [(b"accept-language", b"xx")])) == "en"


@pytest.mark.django_db(transaction=True)
def test_a_student_of_a_japanese_class_gets_japanese_frames_without_a_cookie():
    ana, bo = person("ana"), person("bo")
    room = classroom(name="日本語のクラス")
    student_in(room, ana)
    ClassroomLanguage.objects.create(classroom=room, language="ja")
    table = seated_table((ana, Seat.S), (bo, Seat.N))
    live.live_begin(pk=table.pk, by=ana)

    async def frames() -> tuple[str, str]:
        got = []
        for who in (ana, bo):
            comm = WebsocketCommunicator(
                URLRouter(websocket_urlpatterns), f"/ws/play/tables/{table.pk}/"
            )
            comm.scope["user"] = who
            assert (await comm.connect(timeout=WAIT))[0]
            got.append(json.loads(await comm.receive_from(timeout=WAIT))["html"])
            await comm.disconnect()
        return got[0], got[1]

    japanese, english = async_to_sync(frames)()
    assert "あなたの手札" in japanese and "Your hand" not in japanese
    assert "Your hand" in english
