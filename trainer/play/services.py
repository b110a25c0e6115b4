"""Writes for play. Keyword-only and atomic; the engine decides every rule.

Every action is checked by the engine against the stored record (the setup and the actions so
far): the table is rebuilt, the learner's action applied, the bots run until the learner's next
turn, and the new action list written only if the row still has the version the page was
showing (``UPDATE … WHERE version = n``). A replayed or tampered post, or a second tab posting
the same move, is refused with :class:`PlayRefused` and changes nothing.

The table a service returns was taken from :mod:`trainer.play.tables`; the caller puts it back
(``tables.put``) once it has rendered it.

The learner's leads (graded like lead drills) and answers to the coach's quiz (graded like read
drills) are recorded as progress attempts with ``source="play"``, once per hand, so skills,
review and class statistics count them with the drills.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.play import (
    IllegalPlay,
    LeadAdvice,
    PlayAttempt,
    PlaySetup,
    PlayTable,
    Step,
    coach_lead,
    coach_read,
    grade_read,
)
from trainer.classes.models import Assignment
from trainer.core.dbretry import retry_on_lock
from trainer.play import tables
from trainer.play.models import Game, hand_key
from trainer.progress.models import SOURCE_PLAY, Attempt
from trainer.progress.services import attempt_store


class PlayRefused(Exception):
    """A request the table refuses (400) with a reason for the learner; nothing was written."""


@dataclass(frozen=True)
class Played:
    """What a learner's action did: the game row as stored, the table after it, and the steps
    (the learner's own, then every bot's until the learner's next turn or the end)."""

    game: Game
    table: PlayTable
    steps: list[Step]


def _attempt_store(
    *, game: Game, user: AbstractBaseUser, attempt: PlayAttempt, now: datetime
) -> tuple[Attempt, bool]:
    """Record one graded lead or read as an ``in play`` attempt, once per hand."""
    return attempt_store(
        user=user,
        token=game.attempt_token(attempt.kind, attempt.deal_number, attempt.hand_number),
        kind=attempt.kind,
        skill=attempt.skill,
        # Not the deal's seed, which would reveal every hand: the game's number.
        seed=game.pk,
        params=f"play={game.pk}",
        answer=attempt.answer[:64],
        correct=attempt.correct,
        now=now,
        source=SOURCE_PLAY,
    )


@transaction.atomic
def game_start(
    *,
    user: AbstractBaseUser,
    setup: PlaySetup,
    coach: str = Game.Coach.ON,
    assignment: Assignment | None = None,
    now: datetime | None = None,
) -> tuple[Game, list[Step]]:
    """A new deal or game for ``user`` (South), the bots run until South's first turn."""
    if coach not in Game.Coach.values:
        raise PlayRefused(gettext("There is no such coach setting."))
    now = now or timezone.now()
    table, steps = PlayTable.start(setup)
    game = Game.objects.create(
        owner=user,
        setup=setup.to_json(),
        actions=list(table.actions),
        coach=coach,
        assignment=assignment,
        created_at=now,
        updated_at=now,
    )
    if table.is_over():  # pragma: no cover - a deal always needs South
        _finish(game, now)
    return game, steps


def _finish(game: Game, now: datetime) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.share_token = uuid.uuid4()
    game.save(update_fields=["status", "finished_at", "share_token"])


def _check_version(game: Game, version: int) -> None:
    if game.is_finished:
        raise PlayRefused(gettext("This deal is over: nothing more can be played."))
    if version != game.version:
        raise PlayRefused(
            gettext(
                "This move was chosen on a page that is out of date: the table has moved on "
                "(another tab, or a repeated post). Reload the table to see where play stands."
            )
        )


def _position_in_hand(table: PlayTable, steps: list[Step]) -> int:
    """Where the first step (South's action) stands in its hand: 0 for the lead."""
    first = steps[0]
    deal = table.deals[first.deal_number - 1]
    if first.hand_number <= len(deal.played_hands):
        taken = len(deal.played_hands[first.hand_number - 1].actions)
    else:
        taken = len(deal.current_actions)
    later = sum(
        1 for s in steps if (s.deal_number, s.hand_number) == (first.deal_number, first.hand_number)
    )
    return taken - later


@retry_on_lock
@transaction.atomic
def game_act(
    *,
    game_id: int,
    user: AbstractBaseUser,
    action: str,
    version: int,
    now: datetime | None = None,
) -> Played:
    """Play ``action`` (``"7H"``, ``"pass"``, ``"force"``) for South in ``user``'s game, at
    the table's ``version``; then the bots move until South's next turn or the end.

    Raises :class:`PlayRefused` when the game is over, the version is not the stored one, or
    the engine finds the action illegal; ``Game.DoesNotExist`` for another user's game.
    """
    now = now or timezone.now()
    game = Game.objects.select_for_update().get(pk=game_id, owner_id=user.pk)
    _check_version(game, version)
    table = tables.take(game.setup, game.actions)
    try:
        steps = table.act(action)
    except IllegalPlay as exc:
        tables.put(game.setup, table)  # unchanged: the engine refused before moving
        raise PlayRefused(
            gettext("That move is not allowed: %(reason)s") % {"reason": exc}
        ) from exc
    actions = list(table.actions)
    updated = Game.objects.filter(pk=game.pk, version=version).update(
        actions=actions, version=version + 1, updated_at=now
    )
    if updated != 1:  # another request recorded a move since this one read the row
        raise PlayRefused(
            gettext("Another move was recorded at the same moment; this one was not.")
        )
    game.actions, game.version, game.updated_at = actions, version + 1, now
    # A lead is complete at its third action (c1, partner's pass, South's c2 or pass): when
    # South's action was the third of its hand, the lead is graded and recorded (once: a lead
    # already recorded is found by its token and kept as it is).
    mine = (steps[0].deal_number, steps[0].hand_number)
    if _position_in_hand(table, steps) == 2 and hand_key(*mine) not in game.helped:
        for attempt in table.attempts():
            if (attempt.deal_number, attempt.hand_number) == mine:
                _attempt_store(game=game, user=user, attempt=attempt, now=now)
    if table.is_over():
        _finish(game, now)
    return Played(game, table, steps)


@transaction.atomic
def advice_ask(
    *, game_id: int, user: AbstractBaseUser, version: int
) -> tuple[Game, PlayTable, LeadAdvice]:
    """The coach's advice for South's lead now. The hand is marked *helped*: the lead South
    then makes is not counted as South's own answer."""
    game = Game.objects.select_for_update().get(pk=game_id, owner_id=user.pk)
    _check_version(game, version)
    if game.coach == Game.Coach.OFF:
        raise PlayRefused(gettext("The coach is off for this deal."))
    table = tables.take(game.setup, game.actions)
    advice = coach_lead(table)
    if advice is None:
        tables.put(game.setup, table)
        raise PlayRefused(gettext("The coach advises on a lead only when it is your turn to lead."))
    view = table.view()
    key = hand_key(view.deal_number, view.hand_number)
    if key not in game.helped:
        game.helped = [*game.helped, key]
        game.save(update_fields=["helped"])
    return game, table, advice


@dataclass(frozen=True)
class ReadAnswered:
    game: Game
    table: PlayTable
    attempt: Attempt
    graded: PlayAttempt
    #: False when this hand's quiz had been answered before: the first answer is kept.
    created: bool


@transaction.atomic
def read_answer(
    *,
    game_id: int,
    user: AbstractBaseUser,
    option: str,
    version: int,
    now: datetime | None = None,
) -> ReadAnswered:
    """South's answer to "what does partner hold?" after North's lead, graded like a read
    drill and recorded once per hand (a second answer keeps the first)."""
    now = now or timezone.now()
    game = Game.objects.select_for_update().get(pk=game_id, owner_id=user.pk)
    _check_version(game, version)
    if game.coach == Game.Coach.OFF:
        raise PlayRefused(gettext("The coach is off for this deal."))
    table = tables.take(game.setup, game.actions)
    quiz = coach_read(table)
    try:
        if quiz is None:
            raise PlayRefused(gettext("There is no quiz now: it comes after partner leads."))
        if option not in quiz.option_keys:
            raise PlayRefused(gettext("That is not one of the quiz's answers."))
        graded = grade_read(table, option)
    except IllegalPlay as exc:
        tables.put(game.setup, table)
        raise PlayRefused(
            gettext("That answer cannot be graded: %(reason)s") % {"reason": exc}
        ) from exc
    except PlayRefused:
        tables.put(game.setup, table)
        raise
    stored, created = _attempt_store(game=game, user=user, attempt=graded, now=now)
    return ReadAnswered(game, table, stored, graded, created)
