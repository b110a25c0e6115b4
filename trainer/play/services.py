"""Writes for play. Keyword-only and atomic; the engine decides every rule.

Every action is checked by the engine against the stored record (the setup and the actions so
far): the table is rebuilt, the learner's action applied, the bots run until the learner's next
turn, and the new action list written only if the row still has the version the page was
showing (``UPDATE … WHERE version = n``). A replayed or tampered post, or a second tab posting
the same move, is refused with :class:`PlayRefused` and changes nothing.

A service borrows the table of the game's record (``with tables.borrowed(game) as table:``,
:mod:`trainer.play.tables`) and returns what the page shows of it (a
:class:`~trainer.play.selectors.TableShown`, read before the table goes back), never the table.
The engine's refusals reach the learner as :class:`PlayRefused`, their reason in the page's
language (:func:`trainer.wording.errors.reason`).

The learner's leads (graded like lead drills) and answers to the coach's quiz (graded like read
drills) are recorded as progress attempts with ``source="play"``, once per hand, so skills,
review and class statistics count them with the drills.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.game import Action
from engine.play import (
    HandEnd,
    HandSummary,
    IllegalPlay,
    Paused,
    PlayAttempt,
    PlaySetup,
    PlayTable,
    Step,
    actions_json,
    coach_lead,
    coach_read,
    grade_read,
    page_table,
    paused,
)
from trainer.classes.models import Assignment
from trainer.core.infra.dbretry import retry_on_lock
from trainer.play import tables
from trainer.play.models import Game, hand_key
from trainer.play.selectors import TableShown, actions_of, setup_of, shown
from trainer.progress.models import Attempt
from trainer.progress.services import Graded, attempt_store
from trainer.wording.errors import reason


class PlayRefused(Exception):
    """A request the table refuses (400) with a reason for the learner; nothing was written."""


@dataclass(frozen=True)
class Played:
    """What a learner's action did: the game row as stored, and the table after it as the page
    shows it, with the steps (the learner's own, then every bot's until the learner's next turn
    or the end). When the table pauses at the end of a hand of the learner's side
    (:mod:`engine.play.pause`), ``shown`` is the table as it stood then, its steps end there,
    and ``pause`` and ``summary`` name the hand."""

    game: Game
    shown: TableShown
    pause: HandEnd | None = None
    summary: HandSummary | None = None
    #: Where the steps start in the record (the learner's action, or the bots' first moves).
    start: int = 0

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.shown.steps


def _pausing(game: Game, *, owner: bool) -> bool:
    """Whether the table stops after each hand of the learner's side: for its player, unless
    the coach is off (then there is no summary to read)."""
    return owner and game.coach != Game.Coach.OFF


def _page(at: Paused, game: Game, *, owner: bool) -> Played:
    """What the table page shows of ``at``: the coach (none while paused: nothing is playable
    then) and the hand log, the summary of every finished hand of the deal being played (none
    while the coach is off, until the end; a game's earlier deals are in the review)."""
    seen = shown(at.table, game, owner=owner and at.pause is None, steps=at.steps)
    log: tuple[HandSummary, ...] = ()
    if game.coach != Game.Coach.OFF or seen.view.is_over:
        number = seen.view.deal_number
        log = tuple(s for s in at.table.summaries() if s.deal_number == number)
    start = len(at.table.actions) - len(at.steps)
    return Played(game, replace(seen, summaries=log), at.pause, at.summary, start)


def table_read(game: Game, *, owner: bool, step: int | None = None, seen: int = 0) -> Played:
    """The table page's read of ``game`` (nothing is written): its record replayed by the
    engine, the actions from the ``step``-th on as steps (see
    :func:`engine.play.pause.page_table`), stopped at the end of the first hand of the
    learner's side the player has not gone on from (``seen``: how far into the record the
    player went on last; their own actions go on too). Kept beside the services, which read
    their borrowed tables the same way (``_page``)."""
    at = page_table(
        setup_of(game),
        actions_of(game),
        start=step if owner else None,
        seen=seen,
        pausing=_pausing(game, owner=owner),
    )
    return _page(at, game, owner=owner)


def _attempt_store(
    *, game: Game, user: User, attempt: PlayAttempt, now: datetime
) -> tuple[Attempt, bool]:
    """Record one graded lead or read as an ``in play`` attempt, once per hand."""
    return attempt_store(
        user=user,
        token=game.attempt_token(attempt.kind, attempt.deal_number, attempt.hand_number),
        graded=Graded(
            attempt.kind, attempt.skill, attempt.answer[:64], attempt.correct, game_id=game.pk
        ),
        now=now,
    )


@transaction.atomic
def game_start(
    *,
    user: User,
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
        actions=actions_json(table.actions),
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
    user: User,
    action: Action,
    version: int,
    now: datetime | None = None,
) -> Played:
    """Play ``action`` (a card, pass or force) for South in ``user``'s game, at the table's
    ``version``; then the bots move until South's next turn or the end.

    Raises :class:`PlayRefused` when the game is over, the version is not the stored one, or
    the engine finds the action illegal; ``Game.DoesNotExist`` for another user's game.
    """
    now = now or timezone.now()
    game = Game.objects.select_for_update().get(pk=game_id, owner_id=user.pk, live=False)
    _check_version(game, version)
    try:
        with tables.borrowed(game) as table:
            steps = table.act(action)
            actions = actions_json(table.actions)
            updated = Game.objects.filter(pk=game.pk, version=version).update(
                actions=actions, version=version + 1, updated_at=now
            )
            if updated != 1:  # another request recorded a move since this one read the row
                raise PlayRefused(
                    gettext("Another move was recorded at the same moment; this one was not.")
                )
            game.actions, game.version, game.updated_at = actions, version + 1, now
            # A lead is complete at its third action (c1, partner's pass, South's c2 or
            # pass): when South's action was the third of its hand, the lead is graded and
            # recorded (once: a lead already recorded is found by its token and kept).
            mine = (steps[0].deal_number, steps[0].hand_number)
            if _position_in_hand(table, steps) == 2 and hand_key(*mine) not in game.helped:
                for attempt in table.attempts():
                    if (attempt.deal_number, attempt.hand_number) == mine:
                        _attempt_store(game=game, user=user, attempt=attempt, now=now)
            if table.is_over():
                _finish(game, now)
            at = paused(table, steps) if _pausing(game, owner=True) else Paused(table, tuple(steps))
            played = _page(at, game, owner=True)
    except IllegalPlay as exc:  # the engine refused before moving: nothing was written
        raise PlayRefused(
            gettext("That move is not allowed: %(reason)s") % {"reason": reason(exc)}
        ) from exc
    return played


@transaction.atomic
def advice_ask(*, game_id: int, user: User, version: int) -> tuple[Game, TableShown]:
    """The coach's advice for South's lead now (in the table shown, ``advice``). The hand is
    marked *helped*: the lead South then makes is not counted as South's own answer."""
    game = Game.objects.select_for_update().get(pk=game_id, owner_id=user.pk, live=False)
    _check_version(game, version)
    if game.coach == Game.Coach.OFF:
        raise PlayRefused(gettext("The coach is off for this deal."))
    with tables.borrowed(game) as table:
        if coach_lead(table) is None:
            raise PlayRefused(
                gettext("The coach advises on a lead only when it is your turn to lead.")
            )
        view = table.view()
        key = hand_key(view.deal_number, view.hand_number)
        if key not in game.helped:
            game.helped = [*game.helped, key]
            game.save(update_fields=["helped"])
        return game, _page(Paused(table, ()), game, owner=True).shown


@dataclass(frozen=True)
class ReadAnswered:
    game: Game
    shown: TableShown
    attempt: Attempt
    graded: PlayAttempt
    #: False when this hand's quiz had been answered before: the first answer is kept.
    created: bool


@transaction.atomic
def read_answer(
    *,
    game_id: int,
    user: User,
    option: str,
    version: int,
    now: datetime | None = None,
) -> ReadAnswered:
    """South's answer to "what does partner hold?" after North's lead, graded like a read
    drill and recorded once per hand (a second answer keeps the first)."""
    now = now or timezone.now()
    game = Game.objects.select_for_update().get(pk=game_id, owner_id=user.pk, live=False)
    _check_version(game, version)
    if game.coach == Game.Coach.OFF:
        raise PlayRefused(gettext("The coach is off for this deal."))
    try:
        with tables.borrowed(game) as table:
            quiz = coach_read(table)
            if quiz is None:
                raise PlayRefused(gettext("There is no quiz now: it comes after partner leads."))
            if option not in quiz.option_keys:
                raise PlayRefused(gettext("That is not one of the quiz's answers."))
            graded = grade_read(table, option)
            stored, created = _attempt_store(game=game, user=user, attempt=graded, now=now)
            page = _page(Paused(table, ()), game, owner=True)
            return ReadAnswered(game, page.shown, stored, graded, created)
    except IllegalPlay as exc:
        raise PlayRefused(
            gettext("That answer cannot be graded: %(reason)s") % {"reason": reason(exc)}
        ) from exc
