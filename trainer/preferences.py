"""A visitor's drill preferences, kept in the session (so they work without an account).

``drill_defaults`` gives the convention and scoring rule a drill uses when its URL names none:
the visitor's own choice first, then their club's house rules, then the site's defaults.
"""

from __future__ import annotations

from django.http import HttpRequest

from engine.scoring import SCORING_RULES
from engine.signals import CONVENTIONS

SESSION_KEY = "trainer.preferences"


def get(request: HttpRequest) -> dict[str, str]:
    return dict(request.session.get(SESSION_KEY, {}))


def drill_defaults(request: HttpRequest) -> dict[str, str]:
    chosen = get(request)
    defaults: dict[str, str] = {}
    house = house_rules(request)
    for name, catalogue in (("convention", CONVENTIONS), ("rule", SCORING_RULES)):
        value = chosen.get(name) or house.get(name)
        if value in catalogue:
            defaults[name] = value
    return defaults


def house_rules(request: HttpRequest) -> dict[str, str]:
    """The house rules of the signed-in user's club (the earliest joined, if several), or {}.

    One query per request at most: the answer is cached on the request object.
    """
    cached = getattr(request, "_trainer_house_rules", None)
    if cached is None:
        from trainer.clubs.selectors import house_rules_for

        user = getattr(request, "user", None)
        cached = house_rules_for(user=user) if user is not None else {}
        request._trainer_house_rules = cached
    return dict(cached)


def save(request: HttpRequest, *, convention: str | None, rule: str | None,
         four_colour: bool) -> None:
    """Store validated choices; an empty value falls back to the club's or the site's default."""
    data = {"four_colour": four_colour}
    if convention in CONVENTIONS:
        data["convention"] = convention
    if rule in SCORING_RULES:
        data["rule"] = rule
    request.session[SESSION_KEY] = data


def four_colour(request: HttpRequest) -> bool:
    return bool(get(request).get("four_colour"))
