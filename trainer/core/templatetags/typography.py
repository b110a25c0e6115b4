"""``{% load typography %}``: the page's language's punctuation around what a template writes.

``{% brackets %}…{% endbrackets %}`` sets its content off in brackets (`` (3 cards)`` in English,
``（3枚）`` in Japanese); ``{% stop %}`` ends a sentence the template ends itself (``.``, ``。``).
A template that typed ``(`` and ``.`` itself would give Japanese pages half-width punctuation.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

register = template.Library()


class _Brackets(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        inside = self.nodelist.render(context)
        # The translation adds only the language's brackets (and English's space before them)
        # around markup the template escaped.
        return mark_safe(pgettext("brackets", " (%(inside)s)") % {"inside": inside})  # noqa: S308


@register.tag
def brackets(parser: template.base.Parser, token: template.base.Token) -> _Brackets:
    """``{% brackets %}…{% endbrackets %}``: the content in the page's language's brackets, set
    off as that language sets them off (`` (3 cards)`` in English, ``（3枚）`` in Japanese)."""
    nodelist = parser.parse(("endbrackets",))
    parser.delete_first_token()
    return _Brackets(nodelist)


@register.simple_tag
def stop() -> str:
    """The end of a sentence a template ends itself: ``.`` in English, ``。`` in Japanese."""
    return pgettext("full stop", ".")
