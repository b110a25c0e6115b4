"""How long ago, in one unit, in both languages."""

from datetime import timedelta

from django.template import Context, Template
from django.utils import timezone, translation


def _since(moment) -> str:
    return Template("{% load when %}{{ moment|since }}").render(Context({"moment": moment}))


def test_one_unit_in_english_and_japanese():
    moment = timezone.now() - timedelta(days=1, hours=8)
    assert _since(moment) == "1\xa0day"
    with translation.override("ja"):
        assert _since(moment) == "1日"
    assert _since(None) == ""


def _ago(moment) -> str:
    return Template("{% load when %}{{ moment|ago }}").render(Context({"moment": moment}))


def test_a_moment_under_a_minute_ago_is_just_now_not_zero_minutes():
    now = timezone.now()
    assert _ago(now - timedelta(seconds=20)) == "just now"
    assert _ago(now - timedelta(minutes=3)) == "3\xa0minutes ago"
    with translation.override("ja"):
        assert _ago(now - timedelta(seconds=20)) == "たった今"
        assert _ago(now - timedelta(minutes=3)) == "3分前"
    assert _ago(None) == ""
