"""The engine's own answers to drills, for curating drill sets and for the demo data.

Nothing here decides what is right: :func:`right_answer` asks :func:`engine.drills.grade`
which of the drill's possible answers it accepts, so a curated ``expect`` or a demo attempt
always agrees with the engine.

>>> from engine.drills import make_drill, grade
>>> drill = make_drill("checklist", 7)
>>> grade(drill, right_answer(drill)).correct
True
"""

from __future__ import annotations

import random

from engine.drills import Answer, Drill, answer_key, grade, spec_for


def right_answer(drill: Drill) -> Answer:
    """The engine's preferred right answer (every drill has one)."""
    return spec_for(drill.kind).parse_key(answer_key(drill).preferred)


def wrong_answer(drill: Drill, rng: random.Random) -> Answer:
    """An answer the engine grades wrong (a random one of them, drawn by the drill's kind)."""
    answer = spec_for(drill.kind).pick_answer(drill, rng, lambda a: not grade(drill, a).correct)
    if answer is None:
        raise ValueError(f"no wrong answer found for {drill.address}")
    return answer
