"""Building a drill from ``(kind, seed, params)``, its address, through the kind's class."""

from __future__ import annotations

import random
from functools import lru_cache

from engine.drills.kinds import spec_for
from engine.drills.kinds.score import score_points
from engine.drills.model import Drill, DrillAddress, DrillParams, RetiredDrillError
from engine.drills.situation import LEADER_SIZES
from engine.errors import InvalidNotationError
from engine.signals import DEFAULT_CONVENTION, Convention, get_convention

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
        raise InvalidNotationError(f"a drill seed is a whole number from 0, not {seed!r}")
    if params.retired:
        raise RetiredDrillError(
            f"drill {seed} was made by version {params.version} of the drill generator, which "
            "has been retired; its position is no longer built"
        )
    rng = random.Random(f"{spec.kind}:{seed}:{params.key()}")
    convention = get_convention(params.convention)
    feasible = [s for s in spec.skills(convention) if spec.feasible(s, params, convention)]
    wanted = [i for i in params.items if i in feasible]
    if params.items and not wanted:
        raise InvalidNotationError(
            f"no {spec.kind} drill exists for {', '.join(params.items)} in {convention.name}"
        )
    if not feasible:
        raise InvalidNotationError(f"no {spec.kind} drill fits these settings{_why(params)}")
    skill = rng.choice(wanted or feasible)
    return spec.build(seed, params, rng, skill)


def _why(params: DrillParams) -> str:
    """Why a side hand and hand size cannot go together, when that is the reason."""
    if params.side_hand is None or params.hand_size is None:
        return ""
    lo, hi = LEADER_SIZES[params.side_hand]
    if lo <= params.hand_size <= hi:
        return ""
    return (
        f": the leader of side hand {params.side_hand} holds {lo} to {hi} cards, not "
        f"{params.hand_size}"
    )
