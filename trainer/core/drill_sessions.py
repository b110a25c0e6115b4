"""The frame around a drill played as part of a session — a path step, an assignment, a
review, a "practise this" set: "Drill 3 of 10 · 2 right · pass mark 8" and a way back.

A session is the chain of drills its ``next`` address leads through (see
:func:`trainer.core.links.safe_next`). The core knows no steps or assignments: each feature
that runs sessions answers the ``session_frames`` extension point with a provider, given the
request and the resolved ``next`` address, that returns a :class:`Frame` when the address is
one of its own.

A *practice set* (a lesson's "practise this" drills) is a session whose whole definition
travels in its address: a :class:`PracticeSet` signed into a token by
:func:`practice_sign`. Any feature can make one (the lessons do); :mod:`trainer.drills`
serves it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from django.core import signing
from django.http import HttpRequest
from django.urls import Resolver404, ResolverMatch, resolve

from trainer.core import extensions
from trainer.core.web.http import AuthenticatedHttpRequest, signed_in


@dataclass(frozen=True, slots=True)
class Frame:
    title: str
    back_url: str
    back_label: str
    answered: int
    right: int
    total: int
    pass_mark: int | None = None
    #: A daily goal rather than a fixed set: "Today: 7 of 20 answers · 5 right".
    daily: bool = False
    #: The drill's own number in a set listed in order (a path step's "Drill 6"), when the
    #: drills are not served in that order: the frame then names it and counts answers apart.
    number: int | None = None

    @property
    def shown(self) -> int:
        """The answers the progress bar shows (it stops full)."""
        return min(self.answered, self.total)

    @property
    def upcoming(self) -> int:
        """The number of the drill being played (before it is answered)."""
        return self.number if self.number is not None else min(self.answered + 1, self.total)


#: A feature's frame provider: called for signed-in users only (see :func:`frame_for`); the
#: providers are listed, in order, as ``session_frames`` in ``settings.CONCERTO_EXTENSIONS``.
Provider = Callable[[AuthenticatedHttpRequest, ResolverMatch], Frame | None]


def frame_for(request: HttpRequest, next_url: str) -> Frame | None:
    """The session frame of a drill whose *Next* goes to ``next_url`` (a local path), if any."""
    if not next_url or not signed_in(request):
        return None
    try:
        match = resolve(next_url.split("?", 1)[0])
    except Resolver404:
        return None
    for provider in extensions.every("session_frames"):
        frame: Frame | None = provider(request, match)
        if frame is not None:
            return frame
    return None


#: Drills in a practice set, and the share of them to get right first time to pass.
PRACTICE_SIZE = 10
PRACTICE_PASS_SHARE = 0.8
_PRACTICE_SALT = "trainer.practice-set"


@dataclass(frozen=True, slots=True)
class PracticeSet:
    """A set of drills of one ``kind`` played as a session.

    ``query`` holds the drill settings as a query string. Until the set starts, ``first_seed``
    is ``None`` and ``query`` may leave settings out (the learner's defaults fill them when it
    starts); a started set has its drills' seeds and their full address (``DrillParams.key()``).
    """

    title: str
    back_url: str
    back_label: str
    kind: str
    query: str = ""
    first_seed: int | None = None
    size: int = PRACTICE_SIZE
    #: What ``back_url`` shows (a lesson's title), for the breadcrumbs.
    back_title: str = ""

    @property
    def started(self) -> bool:
        return self.first_seed is not None

    @property
    def seeds(self) -> range:
        start = self.first_seed or 0
        return range(start, start + self.size) if self.started else range(0)

    @property
    def pass_mark(self) -> int:
        return math.ceil(self.size * PRACTICE_PASS_SHARE)

    def start(self, *, first_seed: int, key: str) -> PracticeSet:
        """This set begun: drills from ``first_seed`` on, at the drill address ``key``."""
        return replace(self, first_seed=first_seed, query=key)


def practice_sign(practice: PracticeSet) -> str:
    """The token of ``practice``, for its address (signed: only this site makes sets)."""
    return signing.dumps(asdict(practice), salt=_PRACTICE_SALT, compress=True)


def practice_load(token: str) -> PracticeSet | None:
    """The practice set a token holds, or ``None`` when it is damaged or not one."""
    try:
        data: Any = signing.loads(token, salt=_PRACTICE_SALT)
        practice = PracticeSet(**data)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    local = practice.back_url.startswith("/") and not practice.back_url.startswith("//")
    if not 1 <= practice.size <= 50 or not local:
        return None
    return practice
