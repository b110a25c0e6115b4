"""``{{ user|display_name }}``: see :func:`trainer.core.people.display_name`."""

from django import template
from django.contrib.auth.models import AbstractBaseUser

from trainer.core.people import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user: AbstractBaseUser) -> str:
    return _display_name(user)
