"""A visitor's drill preferences, kept in the session (so they work without an account).

``drill_defaults`` gives the convention and scoring rule a drill uses when its URL names none:
the visitor's own choice first, then their club's house rules (which may name the club's own
card: :mod:`trainer.core.game.conventions`), then the site's defaults.
"""

from __future__ import annotations

from django.http import HttpRequest

from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS
from trainer.core import extensions
from trainer.core.game import conventions

SESSION_KEY = "trainer.preferences"  # unchanged: existing sessions keep their choices


def get(request: HttpRequest) -> dict[str, str]:
    return dict(request.session.get(SESSION_KEY, {}))


def drill_defaults(request: HttpRequest) -> dict[str, str]:
    chosen = get(request)
    defaults: dict[str, str] = {}
    house = house_rules(request)
    for name, known in (
        ("convention", conventions.is_known),
        ("rule", SCORING_RULES.__contains__),
    ):
        value = chosen.get(name) or house.get(name)
        if value and known(value):
            defaults[name] = value
    return defaults


#: The request attribute that caches :func:`house_rules` (HttpRequest declares no such field).
_HOUSE_RULES_ATTR = "_trainer_house_rules"


def house_rules(request: HttpRequest) -> dict[str, str]:
    """The house rules of the signed-in user's club (the earliest joined, if several), or {}.

    One query per request at most: the answer is cached on the request object. The clubs
    feature answers (``house_rules`` in ``settings.CONCERTO_EXTENSIONS``).
    """
    cached = getattr(request, _HOUSE_RULES_ATTR, None)
    if cached is None:
        user = getattr(request, "user", None)
        source = extensions.one("house_rules")
        cached = source(user=user) if user is not None and source is not None else {}
        setattr(request, _HOUSE_RULES_ATTR, cached)
    return dict(cached)


class UnknownChoice(ValueError):
    """A convention or scoring rule the engine does not know, e.g. ``"nope"``."""


def save(
    request: HttpRequest, *, convention: str | None, rule: str | None, four_colour: bool
) -> None:
    """Store the visitor's choices; an empty value falls back to the club's or the site's
    default. Raises :class:`UnknownChoice` (nothing stored) for a name the engine lacks."""
    data: dict[str, str | bool] = {"four_colour": four_colour}
    for name, value, catalogue in (
        ("convention", convention, CONVENTIONS),
        ("rule", rule, SCORING_RULES),
    ):
        if not value:
            continue
        if value not in catalogue:
            raise UnknownChoice(f"unknown {name}: {value!r}")
        data[name] = value
    request.session[SESSION_KEY] = data


def four_colour(request: HttpRequest) -> bool:
    return bool(get(request).get("four_colour"))
