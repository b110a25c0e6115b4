"""Play at the table: the learner South, a ``signal`` bot partner North, two bots East-West.

The web app (``trainer.play``) keeps a deal or a game as a :class:`PlaySetup` and the list of
actions taken, and rebuilds the :class:`PlayTable` from them on every request::

    >>> setup = PlaySetup(seed=7)
    >>> table, steps = PlayTable.start(setup)          # bots play up to South's first turn
    >>> action = table.legal()[0]                      # an Action: a card, PASS or FORCE
    >>> steps = table.act(action)                      # South acts, the bots answer
    >>> PlayTable.replay(setup, table.actions).view() == table.view()
    True
    >>> parse_actions(actions_json(table.actions)) == table.actions   # the record's text
    True

Only what South may see leaves a table before the end: :meth:`PlayTable.view`, the
:class:`Step` list, the coach (:func:`coach_lead`, :func:`coach_read`) and hand summaries hold
South's cards and cards already played, never a card still held by another seat. The seed, the
:func:`review` and the :func:`record_json` exist for deals that are over. ``docs/play.md``
describes the record and this rule.
"""

from engine.play.coach import (
    ODDS_SAMPLES,
    LeadAdvice,
    ReadQuiz,
    coach_lead,
    coach_read,
    coach_stakes,
    grade_read,
)
from engine.play.grading import PlayAttempt
from engine.play.pause import HandEnd, Paused, hand_ends, page_table, pause_at, paused
from engine.play.record import actions_json, parse_actions, record_json, replay_record
from engine.play.review import (
    DealReview,
    Decision,
    Frame,
    HandReview,
    ReviewedDeal,
    SidePar,
    review,
)
from engine.play.setup import (
    FIRST_DEALER,
    LEARNER,
    OPPONENTS,
    PARTNER,
    IllegalPlay,
    InvalidSetupError,
    PlaySetup,
)
from engine.play.summary import HandSummary
from engine.play.table import PlayTable, Step
from engine.play.view import DealScore, Outcome, ShownHand, TableView

__all__ = [
    "FIRST_DEALER",
    "LEARNER",
    "ODDS_SAMPLES",
    "OPPONENTS",
    "PARTNER",
    "DealReview",
    "DealScore",
    "Decision",
    "Frame",
    "HandEnd",
    "HandReview",
    "HandSummary",
    "IllegalPlay",
    "InvalidSetupError",
    "LeadAdvice",
    "Outcome",
    "Paused",
    "PlayAttempt",
    "PlaySetup",
    "PlayTable",
    "ReadQuiz",
    "ReviewedDeal",
    "ShownHand",
    "SidePar",
    "Step",
    "TableView",
    "actions_json",
    "coach_lead",
    "coach_read",
    "coach_stakes",
    "grade_read",
    "hand_ends",
    "hand_summary",
    "page_table",
    "parse_actions",
    "pause_at",
    "paused",
    "record_json",
    "replay_record",
    "review",
]


def hand_summary(
    table: PlayTable,
    hand_number: int,
    deal_number: int | None = None,
    *,
    read: str | None = None,
    read_correct: bool | None = None,
) -> HandSummary:
    """What was signalled in a finished hand, how it reads from South's seat, what was made
    (``read``: the learner's quiz answer on it, when given). See
    :meth:`PlayTable.hand_summary`."""
    return table.hand_summary(hand_number, deal_number, read=read, read_correct=read_correct)
