"""Template context every page needs."""

from django.http import HttpRequest
from django.urls import reverse

from trainer.core import preferences


def display(request: HttpRequest) -> dict[str, bool]:
    """``four_colour``: draw diamonds blue and clubs green (a visitor's choice)."""
    return {"four_colour": preferences.four_colour(request)}


#: The main navigation: URL name, label. Order is the order shown.
NAV: tuple[tuple[str, str], ...] = (
    ("home", "Home"),
    ("drill-menu", "Drills"),
    ("progress", "Progress"),
    ("learn:list", "Learn"),
    ("cheatsheet", "Cheat sheet"),
    ("clubs:list", "Clubs"),
    ("classes:list", "Classes"),
)


def navigation(request: HttpRequest) -> dict[str, list[dict[str, object]]]:
    """``nav``: the main links by URL name, each marked ``current`` when the page is in its
    section (the home link only on the home page itself)."""
    items = []
    for name, label in NAV:
        url = reverse(name)
        current = request.path == url if url == "/" else request.path.startswith(url)
        items.append({"url": url, "label": label, "current": current})
    return {"nav": items}
