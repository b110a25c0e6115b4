"""``{{ moment|since }}``: how long ago, in its largest unit ("2 days", 「2日」);
``{{ moment|ago }}`` the whole phrase ("2 days ago", 「2日前」), and "just now" (「たった今」)
under a minute.

Django's ``timesince`` gives two units joined by a list separator ("1 day, 8 hours"), which
reads badly in Japanese (「1日、8時間」); one unit is as much as a list of past answers needs.
"""

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext

register = template.Library()


@register.filter
def since(value: datetime | None) -> str:
    return timesince(value, depth=1) if value else ""


@register.filter
def ago(value: datetime | None) -> str:
    if not value:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return gettext("just now")
    return gettext("%(since)s ago") % {"since": since(value)}
