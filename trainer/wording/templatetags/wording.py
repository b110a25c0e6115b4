"""``{% load wording %}``: engine output in the page's language.

``{{ grade.explanation|say }}`` renders an engine message (or any text) in the active language
with the suit symbols coloured as ``|suits`` does; ``{{ value|say_plain }}`` the same as plain
text (attributes, titles); ``{% words "sheet.intro" %}`` a message id without parameters (the
cheat sheet's own words).
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from engine.messages import Join, Msg, Param, Text, terms
from trainer.core.templatetags.cards import suits
from trainer.wording import render

register = template.Library()


@register.filter
def say(value: object) -> SafeString:
    """An engine message (or text) in the active language, suit symbols coloured."""
    return suits(render.say(value))


@register.filter
def say_plain(value: object) -> str:
    """An engine message in the active language as plain text (escaped by the template)."""
    return render.say(value)


@register.filter
def term(key: object, kind: str) -> str:
    """A term of the game by its key (``{{ seat.value|term:"seat" }}``, ``{{ id|term:"item" }}``)
    in the active language; an unknown key comes back as it is."""
    words_of = terms().get(kind, {})
    english = words_of.get(str(key))
    return str(key) if english is None else render.term(kind, english)


@register.filter
def readings(cell: object) -> list[SafeString]:
    """A reading grid's cell as its readings, each in the active language (suit symbols
    coloured): a template keeps each on one line and breaks only between them."""
    if isinstance(cell, Msg) and cell.id == "sheet.cell":
        inner = cell.params.get("item")
        if isinstance(inner, Join) and inner.sep == "list.dot":
            return [say(part) for part in inner.parts]
    return [say(cell)]


@register.simple_tag
def words(msg_id: str, **params: object) -> SafeString:
    """The message ``msg_id`` in the active language; ``params`` are messages, numbers or
    text shown as it is (a proper name)."""
    fields: dict[str, Param] = {}
    for name, value in params.items():
        if isinstance(value, Msg | int):
            fields[name] = value
        else:
            fields[name] = Text(str(value))
    return suits(render.say(Msg(msg_id, **fields)))
