"""Assignment drill lists: what a teacher picks, resolved to ``(kind, seed, params)``.

A built assignment is a spec — kinds × checklist items × ``count`` drills per pair, under one
convention and scoring rule — plus a random base seed. The drill list follows from the two alone,
so it is the same every time it is resolved::

    >>> spec = BuiltSpec(kinds=("checklist",), items=("fours", "two_pair"), count=2)
    >>> [(d.kind, d.seed, d.params) for d in spec.drills(base_seed=100)]  # doctest: +ELLIPSIS
    [('checklist', 100, 'items=fours'), ('checklist', 101, 'items=two_pair'), ...]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext

from engine.drills import KIND_TITLES, DrillAddress, DrillParams, make_drill_at, skills_for
from engine.errors import ConcertoError
from engine.messages import Msg, Term
from engine.signals import DEFAULT_CONVENTION, ITEM_TITLES, get_convention
from trainer.wording.errors import sentence
from trainer.wording.render import say

#: Most drills one assignment may hold (setting ``CLASSES_ASSIGNMENT_MAX_DRILLS``).
DEFAULT_MAX_DRILLS = 60


def max_drills() -> int:
    return int(getattr(settings, "CLASSES_ASSIGNMENT_MAX_DRILLS", DEFAULT_MAX_DRILLS))


class SpecError(ValueError):
    """A drill list that cannot be used; the message is meant for the teacher."""


@dataclass(frozen=True, slots=True)
class PlannedDrill:
    kind: str
    seed: int
    params: str  # DrillParams.key()


@dataclass(frozen=True, slots=True)
class BuiltSpec:
    """Kinds × items × ``count``; no items means "any checklist item"."""

    kinds: tuple[str, ...]
    items: tuple[str, ...] = ()
    count: int = 1
    convention: str = DEFAULT_CONVENTION.name
    rule: str = "classic"

    def size(self) -> int:
        return len(self.kinds) * max(1, len(self.items)) * self.count

    def drills(self, *, base_seed: int) -> list[PlannedDrill]:
        """Grouped by kind; within a kind the items take turns. Seeds count up from
        ``base_seed``, so no two drills of one assignment are the same."""
        out: list[PlannedDrill] = []
        targets: tuple[tuple[str, ...], ...] = tuple((i,) for i in self.items) or ((),)
        for kind in self.kinds:
            for _ in range(self.count):
                for items in targets:
                    params = DrillParams(convention=self.convention, rule=self.rule, items=items)
                    out.append(PlannedDrill(kind, base_seed + len(out), params.key()))
        return out

    def check(self, *, base_seed: int) -> list[PlannedDrill]:
        """The drill list, after the engine has built every drill in it.

        Raises :class:`SpecError` for an empty or oversized list, or naming each kind × item
        pair the engine cannot build (say, a score drill for four to a straight flush).
        """
        if not self.kinds:
            raise SpecError(gettext("Choose at least one kind of drill."))
        if self.count < 1:
            raise SpecError(gettext("Ask for at least one drill of each kind."))
        if self.size() > max_drills():
            raise SpecError(
                gettext(
                    "That makes %(size)s drills; an assignment holds at most %(max)s. "
                    "Choose fewer kinds, items or drills per pair."
                )
                % {"size": self.size(), "max": max_drills()}
            )
        convention = get_convention(self.convention)
        infeasible = [
            _pair_words(kind, (item,))
            for kind in self.kinds
            for item in self.items
            if item not in skills_for(kind, convention)
        ]
        if infeasible:
            raise SpecError(
                gettext(
                    "There are no drills for %(pairs)s under %(convention)s. "
                    "Untick those kinds or items."
                )
                % {"pairs": gettext("; ").join(infeasible), "convention": convention.title}
            )
        planned = self.drills(base_seed=base_seed)
        for drill in planned:
            address = DrillAddress.of(drill.kind, drill.seed, drill.params)
            try:
                make_drill_at(address)
            except (ConcertoError, ValueError) as exc:
                raise SpecError(
                    gettext("Drill %(seed)s (%(pair)s) cannot be built: %(reason)s")
                    % {
                        "seed": drill.seed,
                        "pair": _pair_words(drill.kind, address.params.items),
                        "reason": sentence(exc),
                    }
                ) from exc
        return planned


def _pair_words(kind: str, items: Iterable[str]) -> str:
    names = say(Msg("list.comma")).join(
        say(Msg("term", term=Term("item_lower", i))) if i in ITEM_TITLES else i for i in items
    ) or gettext("any item")
    return gettext("“%(kind)s” × %(items)s") % {"kind": say(KIND_TITLES[kind]), "items": names}
