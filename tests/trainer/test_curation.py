import random

import pytest

from engine.cards import parse_cards
from engine.drills import KINDS, Drill, DrillParams, grade, make_drill
from trainer.curation import right_answer, wrong_answer


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


def test_a_lead_with_nothing_to_signal_has_no_right_answer():
    drill = Drill(kind="lead", seed=0, params=DrillParams(), skill="none", side_hand=4,
                  prompt="", hand=tuple(parse_cards("KS 2S 9H 4H")))

    assert right_answer(drill) is None
    assert not grade(drill, wrong_answer(drill, random.Random(0))).correct
