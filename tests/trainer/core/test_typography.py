"""A template's own brackets and full stops are the page's language's."""

from django.template import Context, Template
from django.utils import translation

SOURCE = (
    "{% load typography %}<p>Hand log{% brackets %}<b>{{ n }}</b>{% endbrackets %}</p>"
    "<p>Right{% stop %}</p>"
)


def _render() -> str:
    return Template(SOURCE).render(Context({"n": "<3>"}))


def test_brackets_and_stops_in_english_and_japanese():
    assert _render() == "<p>Hand log (<b>&lt;3&gt;</b>)</p><p>Right.</p>"
    with translation.override("ja"):
        assert _render() == "<p>Hand log（<b>&lt;3&gt;</b>）</p><p>Right。</p>"
