"""Template context every page needs."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from trainer.core import preferences


def display(request: HttpRequest) -> dict[str, bool]:
    """``four_colour``: draw diamonds blue and clubs green (a visitor's choice)."""
    return {"four_colour": preferences.four_colour(request)}


#: The main navigation: URL name, label. Order is the order shown.
#: (The glossary is reached from the lessons page and belongs to the Learn section.)
NAV: tuple[tuple[str, Promise], ...] = (
    ("home", _("Home")),
    ("drill-menu", _("Drills")),
    ("play:home", pgettext_lazy("navigation", "Play")),
    ("progress", _("Progress")),
    ("learn:list", _("Learn")),
    ("cheatsheet", _("Cheat sheet")),
    ("clubs:list", _("Clubs")),
    ("classes:list", _("Classes")),
)


def navigation(request: HttpRequest) -> dict[str, list[dict[str, object]]]:
    """``nav``: the main links by URL name, each marked ``current`` when the page is in its
    section (the home link only on the home page itself)."""
    items = []
    for name, label in NAV:
        url = reverse(name)
        current = request.path == url if url == "/" else request.path.startswith(url)
        if name == "learn:list" and request.path.startswith(reverse("glossary")):
            current = True
        items.append({"url": url, "label": label, "current": current})
    return {"nav": items}
