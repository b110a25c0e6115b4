"""What the layout's language switcher needs."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest


def switcher(request: HttpRequest) -> dict[str, str]:
    """``language_next``: where the switcher returns to: this page, its query kept except a
    ``next`` address (the page may carry one from elsewhere; it is not echoed back)."""
    query = [(k, v) for k, values in request.GET.lists() if k != "next" for v in values]
    return {"language_next": request.path + ("?" + urlencode(query) if query else "")}
