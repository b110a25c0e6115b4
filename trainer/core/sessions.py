"""The frame around a drill played as part of a session — a path step, an assignment, a
review: "Drill 3 of 10 · 2 right · pass mark 8" and a way back.

A session is the chain of drills its ``next`` address leads through (see
:func:`trainer.core.links.safe_next`). The core knows no steps or assignments: each feature
that runs sessions installs a provider (``ready()``), given the request and the resolved
``next`` address, that returns a :class:`Frame` when the address is one of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import Resolver404, ResolverMatch, resolve


@dataclass(frozen=True, slots=True)
class Frame:
    title: str
    back_url: str
    back_label: str
    answered: int
    right: int
    total: int
    pass_mark: int | None = None

    @property
    def upcoming(self) -> int:
        """The number of the drill being played (before it is answered)."""
        return min(self.answered + 1, self.total)


Provider = Callable[[HttpRequest, ResolverMatch], Frame | None]
_providers: list[Provider] = []


def add_provider(provider: Provider) -> None:
    """Install a feature's frame provider (once, at start-up)."""
    if provider not in _providers:
        _providers.append(provider)


def frame_for(request: HttpRequest, next_url: str) -> Frame | None:
    """The session frame of a drill whose *Next* goes to ``next_url`` (a local path), if any."""
    if not next_url or not request.user.is_authenticated:
        return None
    try:
        match = resolve(next_url.split("?", 1)[0])
    except Resolver404:
        return None
    for provider in _providers:
        frame = provider(request, match)
        if frame is not None:
            return frame
    return None
