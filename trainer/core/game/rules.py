"""The scoring rules' names in the page's language (the engine names them ``classic`` and
``contribution``: ``engine.scoring.SCORING_RULES``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine.scoring import SCORING_RULES

#: Each rule's name for a menu: "Classic", "Contribution".
RULE_TITLES: dict[str, Promise] = {
    "classic": _("Classic"),
    "contribution": _("Contribution"),
}


def rule_title(name: str) -> str:
    """The rule's name in the active language; an unknown name comes back capitalised."""
    found = RULE_TITLES.get(name)
    return str(found) if found is not None else name.capitalize()


def rule_choices() -> list[tuple[str, str]]:
    """Every scoring rule as a (name, title) choice, in the active language."""
    return [(name, rule_title(name)) for name in SCORING_RULES]
