"""Template context every page needs."""

from django.http import HttpRequest

from trainer.core import preferences


def display(request: HttpRequest) -> dict[str, bool]:
    """``four_colour``: draw diamonds blue and clubs green (a visitor's choice)."""
    return {"four_colour": preferences.four_colour(request)}
