import random

import pytest

from engine.drills import KINDS, grade, make_drill
from trainer.drills.curation import right_answer, wrong_answer


@pytest.mark.parametrize("kind", KINDS)
def test_right_answer_is_graded_right_and_wrong_answer_wrong(kind):
    rng = random.Random(kind)
    for seed in range(25):
        drill = make_drill(kind, seed)
        right = right_answer(drill)
        if right is None:
            assert kind == "lead"
            continue
        assert grade(drill, right).correct
        assert not grade(drill, wrong_answer(drill, rng)).correct
