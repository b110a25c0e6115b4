"""Reads for play. Each takes the user it reads for: no view can open another's deal.

Who may see a deal: its owner (who plays it); a teacher of the class whose assignment it was
played for (read only); anyone holding its share link once it is over (read only, the review).
Everyone else is told it does not exist (404).

A game's row keeps its setup and actions as JSON text: :func:`setup_of` and :func:`actions_of`
read them into the engine's values. What a page shows of a table is a :class:`TableShown`,
read from the table while it is in hand (:func:`table_shown` here replays the record; the
services read it from the table they borrowed), so no table outlives the request that built it.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, QuerySet

from engine.game import Action
from engine.play import (
    HandSummary,
    IllegalPlay,
    LeadAdvice,
    PlaySetup,
    PlayTable,
    ReadQuiz,
    Step,
    TableView,
    coach_lead,
    coach_read,
    hand_summary,
    parse_actions,
)
from trainer.classes.models import ClassMembership
from trainer.core import playlog
from trainer.play.models import Game
from trainer.progress.models import SOURCE_PLAY, Attempt

#: Games shown on "My games".
MY_GAMES_SHOWN = 30


@dataclass(frozen=True)
class Seen:
    """A deal as one person may see it: ``owner`` may play it, anyone else only looks."""

    game: Game
    owner: bool


def games_of(user: User | AnonymousUser) -> QuerySet[Game]:
    """``user``'s deals and games, the latest played first."""
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(owner_id=user.pk).order_by("-updated_at", "-id")


def game_for(user: User | AnonymousUser, pk: int) -> Seen | None:
    """Game ``pk`` if ``user`` may see it: its owner, or a teacher of the class it was
    assigned in. ``None`` for anyone else (the view answers 404)."""
    if not user.is_authenticated:
        return None
    game = Game.objects.select_related("assignment").filter(pk=pk).first()
    if game is None:
        return None
    if game.owner_id == user.pk:
        return Seen(game, owner=True)
    if game.assignment is not None and (
        ClassMembership.objects.filter(
            classroom_id=game.assignment.classroom_id,
            user_id=user.pk,
            role=ClassMembership.Role.TEACHER,
        ).exists()
        # The student must still be in the class.
        and ClassMembership.objects.filter(
            classroom_id=game.assignment.classroom_id,
            user_id=game.owner_id,
            role=ClassMembership.Role.STUDENT,
        ).exists()
    ):
        return Seen(game, owner=False)
    return None


def game_shared(token: uuid.UUID) -> Game | None:
    """The finished game whose share link carries ``token``."""
    return Game.objects.filter(share_token=token, status=Game.Status.FINISHED).first()


def setup_of(game: Game) -> PlaySetup:
    """The game's setup, read from its row."""
    return PlaySetup.from_json(game.setup)


def actions_of(game: Game) -> tuple[Action, ...]:
    """The game's actions, read from its row (text: ``7H``, ``pass``, ``force``)."""
    return parse_actions(game.actions)


@dataclass(frozen=True)
class TableShown:
    """What the table page shows of a table, read from it while it was in hand: South's
    ``view``, the ``steps`` to show one by one, the coach's ``advice`` and ``quiz`` (None when
    the coach is off, the viewer is not the player, or the coach has nothing to say now) and the
    ``summaries`` of the finished hands the page lists (the last one; every hand of the deal
    once it is over; none while the coach is off)."""

    view: TableView
    steps: tuple[Step, ...] = ()
    advice: LeadAdvice | None = None
    quiz: ReadQuiz | None = None
    summaries: tuple[HandSummary, ...] = ()


def shown(table: PlayTable, game: Game, *, owner: bool, steps: Sequence[Step] = ()) -> TableShown:
    """Read what the table page shows from ``table`` (the table of ``game``'s record)."""
    view = table.view()
    coach = owner and game.coach != Game.Coach.OFF and not view.is_over
    summaries: tuple[HandSummary, ...] = ()
    if game.coach != Game.Coach.OFF or view.is_over:
        listed = view.completed if view.is_over else view.completed[-1:]
        summaries = tuple(hand_summary(table, h.number, view.deal_number) for h in listed)
    return TableShown(
        view=view,
        steps=tuple(steps),
        advice=coach_lead(table) if coach else None,
        quiz=coach_read(table) if coach else None,
        summaries=summaries,
    )


def table_shown(game: Game, *, owner: bool, step: int | None = None) -> TableShown:
    """What the table page shows of ``game``, its record replayed by the engine. ``step``
    (the owner's ``?step=n``): the actions from the n-th on as steps — a learner's action and
    the bots' replies, or the bots' first moves (n = 0); a number naming no such point of the
    record shows the table without steps."""
    setup, actions = setup_of(game), actions_of(game)
    if owner and step is not None and 0 <= step < len(actions):
        try:
            if step == 0:
                table, steps = PlayTable.start(setup)
            else:
                table = PlayTable.replay(setup, actions[:step])
                steps = table.act(actions[step])
        except IllegalPlay:
            pass
        else:
            if table.actions == actions:
                return shown(table, game, owner=owner, steps=steps)
    return shown(PlayTable.replay(setup, actions), game, owner=owner)


def deals_played(assignment_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """``{(assignment_id, user_id): finished deals}``: what ``core.playlog`` asks (one
    query). A finished game counts as one."""
    rows = (
        Game.objects.filter(assignment_id__in=list(assignment_ids), status=Game.Status.FINISHED)
        .values("assignment_id", "owner_id")
        .annotate(n=Count("id"))
    )
    return {(r["assignment_id"], r["owner_id"]): r["n"] for r in rows}


def deal_links(assignment_id: int) -> dict[int, list[playlog.DealLink]]:
    """Every deal played for an assignment, by student, oldest first (for their teacher)."""
    out: dict[int, list[playlog.DealLink]] = {}
    games = Game.objects.filter(assignment_id=assignment_id).order_by("created_at", "id")
    for game in games:
        mine = out.setdefault(game.owner_id, [])
        label = f"deal {len(mine) + 1}" + ("" if game.is_finished else " (in play)")
        mine.append(playlog.DealLink(game.get_absolute_url(), label, game.is_finished))
    return out


def hand_attempts(game: Game) -> dict[str, Attempt]:
    """The game's recorded attempts by ``"kind:deal:hand"`` (their tokens name them)."""
    attempts = Attempt.objects.filter(
        user_id=game.owner_id, source=SOURCE_PLAY, params=f"play={game.pk}"
    )
    names = _token_names(game.pk)
    return {names[a.token]: a for a in attempts if a.token in names}


@functools.lru_cache(maxsize=512)
def _token_names(pk: int) -> dict[uuid.UUID, str]:
    """``{token: "kind:deal:hand"}`` for every lead and quiz a game can have (a pure function
    of the game's number, so kept)."""
    game = Game(pk=pk)
    return {
        game.attempt_token(kind, deal, hand): f"{kind}:{deal}:{hand}"
        for kind in ("lead", "read")
        for deal in range(1, 5)
        for hand in range(1, 9)
    }
