"""The onboarding path: the ordered steps a new club member works through.

Each step pairs a lesson (``seeds/lessons/``) with a short curated drill set
(``seeds/onboarding/``); answering ``pass_mark`` of the set's drills right passes the step and
unlocks the next one. The last step also sends the member to the table (``play``): a whole
deal with a bot partner, where every lead and read counts like a drill. The steps are code
data, like the engine's catalogues: the database only holds the lessons, the drill sets and
the members' answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    slug: str
    title: str | Promise
    #: What the step is for, in one line (shown on the path page).
    goal: str | Promise
    lesson: str
    drill_set: str
    pass_mark: int = 8
    #: The step ends at the table: besides its drills it offers a whole deal to play with a
    #: bot partner (``/play/``), where the step's skills are used for real.
    play: bool = False


STEPS: tuple[Step, ...] = (
    Step(
        1,
        "rules",
        _("The game and one deal"),
        _("Know how a deal runs and recognise the five-card combinations."),
        lesson="the-game",
        drill_set="onboarding-1-rules",
    ),
    Step(
        2,
        "scoring",
        _("Scoring and left-overs"),
        _("Score a finished hand and a side's six left-over cards."),
        lesson="scoring-and-leftovers",
        drill_set="onboarding-2-scoring",
    ),
    Step(
        3,
        "checklist",
        _("The leader's checklist"),
        _("Find the first item of the checklist in a hand."),
        lesson="the-leaders-checklist",
        drill_set="onboarding-3-checklist",
    ),
    Step(
        4,
        "strong-signals",
        _("Strong signals"),
        _("Lead the signal for straight-flush shapes, fours, two threes and full houses."),
        lesson="strong-signals",
        drill_set="onboarding-4-strong-signals",
    ),
    Step(
        5,
        "weak-signals",
        _("Weak signals"),
        _("Lead the signal for flushes, straights, threes and pairs."),
        lesson="weak-signals",
        drill_set="onboarding-5-weak-signals",
    ),
    Step(
        6,
        "reading",
        _("Reading partner"),
        _("Say what partner holds from the two cards they led."),
        lesson="reading-partner",
        drill_set="onboarding-6-reading",
    ),
    Step(
        7,
        "replying",
        _("Replying"),
        _("Complete partner's combination, pass, or force."),
        lesson="replying",
        drill_set="onboarding-7-replying",
        play=True,
    ),
)

STEP_BY_NUMBER: dict[int, Step] = {s.number: s for s in STEPS}


def get_step(number: int) -> Step | None:
    return STEP_BY_NUMBER.get(number)
