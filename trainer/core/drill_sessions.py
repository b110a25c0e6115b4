"""Drill sessions: drills played one after another as a path step, an assignment, today's
review or a "practise this" set, with a frame around each drill ("Drill 3 of 10 · 2 right ·
pass mark 8" and a way back) and an end (the session's summary page).

Every session is a :class:`DrillSession`: ``next_drill(after)`` says where its *Next* goes
(the next drill's page, or the summary when it is over), ``frame(after)`` draws the frame
around the drill numbered ``after``, ``summary_url()`` is its end. A session lives in its
"go on" address (``/start/1/next/``, ``/classes/assignments/7/next/``, ``/drills/review/``,
``/drills/practise/<token>/next/``), which each drill page carries as ``?next=``: resolving
it (:func:`session_for`) gives the session back. The core knows no steps or assignments:
each feature that runs sessions answers the ``drill_sessions`` extension point with an
opener, given the request and the resolved address, that returns its session when the
address is one of its own; :func:`go_on` is every "go on" view's answer.

A *practice set* (a lesson's "practise this" drills) is a session whose whole definition
travels in its address: a :class:`PracticeSet` signed into a token by
:func:`practice_sign`. Any feature can make one (the lessons do); :mod:`trainer.drills`
serves it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import Resolver404, ResolverMatch, resolve

from trainer.core import extensions
from trainer.core.web.htmx import redirect_page
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


@dataclass(frozen=True, slots=True)
class Next:
    """Where a session's *Next* goes: another drill's page, or (``ended``) its summary, with
    a line to show on arrival (``message``; ``passed`` shows it as a success). A summary is
    always a whole page; ``whole_page`` asks the same of a drill (a drill page's htmx *Next*
    otherwise swaps the drill in)."""

    url: str
    ended: bool = False
    message: str = ""
    passed: bool = False
    whole_page: bool = False


class DrillSession(Protocol):
    """A session of drills (see the module's docstring)."""

    def next_drill(self, after: int | None) -> Next:
        """Where to go after the drill numbered ``after`` (None: the session's start)."""
        ...

    def frame(self, after: int | None) -> Frame:
        """The frame around the drill numbered ``after`` (the one its *Next* names)."""
        ...

    def summary_url(self) -> str:
        """The session's end: the page that sums it up."""
        ...


#: A feature's opener: given the request and a resolved "go on" address, its session (None
#: when the address is not one of its own); listed, in order, as ``drill_sessions`` in
#: ``settings.CONCERTO_EXTENSIONS``. Called for signed-in users only.
Opener = Callable[[AuthenticatedHttpRequest, ResolverMatch], DrillSession | None]


def after_of(url: str) -> int | None:
    """The ``after=<number>`` of a "go on" address (None without one, or not a number)."""
    value = parse_qs(urlsplit(url).query).get("after", [""])[0]
    return int(value) if value.isdigit() else None


def session_for(request: HttpRequest, next_url: str) -> DrillSession | None:
    """The session whose "go on" address is ``next_url`` (a local path), if any."""
    local = next_url.startswith("/") and not next_url.startswith("//")
    if not local or not signed_in(request):
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    for opener in extensions.every("drill_sessions"):
        session: DrillSession | None = opener(request, match)
        if session is not None:
            return session
    return None


def frame_for(request: HttpRequest, next_url: str) -> Frame | None:
    """The session frame of a drill whose *Next* goes to ``next_url``, if any."""
    session = session_for(request, next_url)
    return session.frame(after_of(next_url)) if session is not None else None


def go_on(request: HttpRequest, session: DrillSession, after: int | None) -> HttpResponse:
    """A "go on" view's answer: the session's next drill, or its summary as a whole page
    (from a drill page's htmx *Next* too), with the line it has to say."""
    step = session.next_drill(after)
    if step.message:
        (messages.success if step.passed else messages.info)(request, step.message)
    whole = step.ended or step.whole_page
    return redirect_page(request, step.url) if whole else redirect(step.url)


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
