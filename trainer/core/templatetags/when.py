"""``{{ moment|since }}``: how long ago, in its largest unit ("2 days", 「2日」).

Django's ``timesince`` gives two units joined by a list separator ("1 day, 8 hours"), which
reads badly in Japanese (「1日、8時間」); one unit is as much as a list of past answers needs.
"""

from datetime import datetime

from django import template
from django.utils.timesince import timesince

register = template.Library()


@register.filter
def since(value: datetime | None) -> str:
    return timesince(value, depth=1) if value else ""
