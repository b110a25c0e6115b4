"""Building a drill from ``(kind, seed, params)``, its address, through the kind's class."""

from __future__ import annotations

import random
from functools import lru_cache

from engine.drills.kinds import spec_for
from engine.drills.kinds.score import score_points
from engine.drills.model import Drill, DrillAddress, DrillParams, RetiredDrillError
from engine.drills.situation import LEADER_SIZES
from engine.errors import InvalidNotationError
from engine.messages import Join, Msg, Param, Term, Text
from engine.signals import DEFAULT_CONVENTION, ITEMS, Convention, get_convention

__all__ = ["make_drill", "make_drill_at", "score_points", "skills_for"]


def skills_for(kind: str, convention: Convention = DEFAULT_CONVENTION) -> tuple[str, ...]:
    """The skills (checklist items, or combinations for score drills) a kind drills."""
    return spec_for(kind).skills(convention)


def make_drill(kind: str, seed: int, params: DrillParams | None = None) -> Drill:
    """Build the drill ``(kind, seed, params)``; the same arguments always give the same drill.

    Drills are immutable and a pure function of their arguments, so recent ones are kept in a
    small cache (a drill is shown, then answered, then often replayed).

    Raises :class:`InvalidNotationError` for an unknown kind, a negative seed, or targets that
    no drill of this kind can have, and :class:`RetiredDrillError` for an address made by an
    earlier generator.
    """
    return _make_drill(kind, seed, params or DrillParams())


def make_drill_at(address: DrillAddress) -> Drill:
    """The drill at ``address``: ``make_drill(address.kind, address.seed, address.params)``.

    >>> make_drill_at(DrillAddress.parse("checklist/7?items=fours&v=2")).skill
    'fours'
    """
    return _make_drill(address.kind, address.seed, address.params)


@lru_cache(maxsize=2048)
def _make_drill(kind: str, seed: int, params: DrillParams) -> Drill:
    spec = spec_for(kind)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidNotationError(Msg("error.drill.seed", seed=Text(repr(seed))))
    if params.retired:
        raise RetiredDrillError(
            Msg("error.drill.retired", seed=Text(str(seed)), version=Text(str(params.version)))
        )
    rng = random.Random(f"{spec.kind}:{seed}:{params.key()}")
    convention = get_convention(params.convention)
    feasible = [s for s in spec.skills(convention) if spec.feasible(s, params, convention)]
    wanted = [i for i in params.items if i in feasible]
    kind = Msg(f"kind.{spec.kind}.title")
    if params.items and not wanted:
        items = Join(tuple(_skill_words(spec.kind, i) for i in params.items), "list.and")
        raise InvalidNotationError(
            Msg("error.drill.no_item", convention=Text(convention.title), kind=kind, items=items)
        )
    if not feasible:
        raise InvalidNotationError(_no_fit(kind, params))
    skill = rng.choice(wanted or feasible)
    return spec.build(seed, params, rng, skill)


def _no_fit(kind: Msg, params: DrillParams) -> Msg:
    """No drill fits: why, when a side hand and a hand size cannot go together."""
    if params.side_hand is not None and params.hand_size is not None:
        lo, hi = LEADER_SIZES[params.side_hand]
        if not lo <= params.hand_size <= hi:
            return Msg(
                "error.drill.no_fit_size",
                kind=kind,
                side_hand=params.side_hand,
                low=lo,
                high=hi,
                size=params.hand_size,
            )
    return Msg("error.drill.no_fit", kind=kind)


def _skill_words(kind: str, skill: str) -> Param:
    """A drill's skill (a checklist item, a score skill) in words, else as written."""
    from engine.drills.grading import skill_title

    title = skill_title(kind, skill)
    if isinstance(title, Msg):
        return title
    if skill in ITEMS:  # a checklist item a kind does not drill (score drills name combinations)
        return Msg("term", term=Term("item_lower", skill))
    return Text(title)
