"""``{% load rules %}``: ``{{ name|rule_title }}``, a scoring rule's name in the page's language."""

from django import template

from trainer.core.game.rules import rule_title as _rule_title

register = template.Library()


@register.filter
def rule_title(name: str) -> str:
    return _rule_title(str(name))
