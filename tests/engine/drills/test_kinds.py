"""What each drill kind's class says about the kind (docs/drill-kinds.md): its level, what it
practises, the lesson section teaching it, how an answer is read, checked and given in steps."""

import random

import pytest

from engine.cards import Card
from engine.drills import (
    KIND_LEVELS,
    KINDS,
    Answer,
    CardNotInHandError,
    DrillKind,
    InvalidAnswerError,
    KindSpec,
    Topic,
    answer_key,
    grade,
    make_drill,
    skill_title,
    spec_for,
)
from engine.drills.kinds.base import register
from engine.errors import InvalidNotationError


def test_each_kind_sets_its_level_and_topic():
    assert KIND_LEVELS == {
        "score": 1,
        "checklist": 1,
        "lead": 2,
        "read": 2,
        "reply": 3,
        "last-hand": 3,
    }
    topics = {kind: spec_for(kind).topic for kind in KINDS}
    assert topics == {
        "score": Topic.SCORING,
        "checklist": Topic.CHECKLIST,
        "lead": Topic.SIGNALS,
        "read": Topic.SIGNALS,
        "reply": Topic.SIGNALS,
        "last-hand": Topic.SCORING,
    }
    assert [k for k in KINDS if not spec_for(k).has_side_hand] == ["score"]


def test_a_kind_without_a_level_is_refused():
    class Nameless(KindSpec):
        kind = DrillKind.SCORE
        title = description = "x"
        topic = Topic.SCORING

    with pytest.raises(TypeError, match="level"):
        register(Nameless)
    assert type(spec_for("score")).__name__ == "ScoreKind"


def test_the_kind_names_the_lesson_section_that_teaches_a_skill():
    score = spec_for("score")
    assert score.lesson_for("fours") == ("the-game", "what-you-are-building")
    assert score.lesson_for("three_pairs") == ("scoring-and-leftovers", "left-overs-the-big-swing")
    # A hand worth nothing is taught with the combinations, not with the left-overs (#20).
    assert score.lesson_for("nothing") == ("the-game", "what-you-are-building")
    assert spec_for("read").lesson_for("fours") == ("reading-partner", "the-grid")
    assert spec_for("lead").lesson_for("fours") is None  # taught by the item's own section


def test_a_skill_is_named_as_its_kind_names_it():
    assert str(skill_title("score", "fours")) == "Fours"  # the combination
    assert str(skill_title("lead", "fours")) == "Four of a kind"  # the checklist item
    assert skill_title("poker", "fours") == "fours"


@pytest.mark.parametrize(
    ("kind", "text", "key"),
    [
        ("lead", "6d 8D", "6D 8D"),
        ("lead", "7H pass", "7H pass"),
        ("reply", "7h 8h", "7H 8H"),
        ("reply", "FORCE", "force"),
        ("read", " four_sf ", "four_sf"),
        ("score", "12", "12"),
    ],
)
def test_an_answer_key_is_read_by_its_kind(kind, text, key):
    assert str(Answer.parse(text, kind)) == key
    assert Answer.parse(key, kind) == spec_for(kind).parse_key(text)


@pytest.mark.parametrize(
    ("kind", "text"),
    [("lead", "AS"), ("lead", "AS AS"), ("reply", "XX"), ("score", " "), ("poker", "1")],
)
def test_text_that_is_no_answer_is_refused(kind, text):
    with pytest.raises(InvalidNotationError):
        Answer.parse(text, kind)


def test_a_lead_is_given_in_two_steps_from_the_hand():
    drill = make_drill("lead", 17)
    lead = spec_for("lead")
    card = drill.hand[0]
    assert lead.first_step(drill, {"c1": str(card)}) is card
    assert lead.first_step(drill, {"c1": str(card), "c2": "pass"}) is None
    missing = next(c for c in map(Card.parse, ("AS", "2C", "7H", "KD")) if c not in drill.hand)
    with pytest.raises(CardNotInHandError) as error:
        lead.first_step(drill, {"c1": str(missing)})
    assert error.value.card is missing
    assert spec_for("read").first_step(make_drill("read", 17), {"c1": "AS"}) is None


def test_the_kind_checks_an_answer_against_the_drill():
    drill = make_drill("checklist", 4)
    checklist = spec_for("checklist")
    key = drill.options[0].key
    assert checklist.check(drill, Answer(option=key)) == Answer(option=key)
    with pytest.raises(InvalidAnswerError):
        checklist.check(drill, Answer(option="royal_flush"))
    lead = make_drill("lead", 17)
    with pytest.raises(InvalidAnswerError):
        spec_for("lead").check(lead, Answer(option="fours"))


@pytest.mark.parametrize("kind", KINDS)
def test_the_kind_picks_an_answer_it_could_be_given(kind):
    drill = make_drill(kind, 5)
    spec = spec_for(kind)
    wrong = spec.pick_answer(drill, random.Random(5), lambda a: not grade(drill, a).correct)
    assert wrong is not None and not grade(drill, spec.check(drill, wrong)).correct
    right = spec.pick_answer(drill, random.Random(5), lambda a: grade(drill, a).correct)
    if right is not None:  # a random lead may miss the few right ones
        assert str(right) in answer_key(drill).accepted
    assert spec.pick_answer(drill, random.Random(5), lambda a: False) is None
