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

from engine.drills import Answer, Drill, answer_key, grade


def right_answer(drill: Drill) -> Answer:
    """The engine's preferred right answer (every drill has one)."""
    return Answer.parse(answer_key(drill).preferred, drill.kind)


def wrong_answer(drill: Drill, rng: random.Random) -> Answer:
    """An answer the engine grades wrong (a random one of them)."""
    if drill.kind == "lead":
        hand = list(drill.hand)
        for _ in range(200):
            c1 = rng.choice(hand)
            c2 = rng.choice([None, *[c for c in hand if c != c1]])
            answer = Answer(play=(c1, c2))
            if not grade(drill, answer).correct:
                return answer
        raise ValueError(f"no wrong lead found for {drill.kind}/{drill.seed}")
    wrong = [
        Answer(option=o.key)
        for o in drill.options
        if not grade(drill, Answer(option=o.key)).correct
    ]
    if not wrong:
        raise ValueError(f"every option of {drill.kind}/{drill.seed} is right")
    return rng.choice(wrong)
