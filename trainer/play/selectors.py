"""Reads for play. Each takes the user it reads for: no view can open another's deal.

Who may see a deal: its owner (who plays it); a teacher of the class whose assignment it was
played for (read only); anyone holding its share link once it is over (read only, the review).
Everyone else is told it does not exist (404).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet

from engine.play import PlaySetup, PlayTable
from trainer.classes.models import ClassMembership
from trainer.core import playlog
from trainer.play import tables
from trainer.play.models import Game
from trainer.progress.models import SOURCE_PLAY, Attempt

#: Games shown on "My games".
MY_GAMES_SHOWN = 30


@dataclass(frozen=True)
class Seen:
    """A deal as one person may see it: ``owner`` may play it, anyone else only looks."""

    game: Game
    owner: bool


def games_of(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Game]:
    """``user``'s deals and games, the latest played first."""
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(owner_id=user.pk).order_by("-updated_at", "-id")


def game_for(user: AbstractBaseUser | AnonymousUser, pk: int) -> Seen | None:
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


def table_of(game: Game) -> PlayTable:
    """The table of the game's record: kept from an earlier request, or rebuilt by the engine.
    The caller puts it back with ``tables.put`` when done."""
    return tables.take(game.setup, game.actions)


def setup_of(game: Game) -> PlaySetup:
    return PlaySetup.from_json(game.setup)


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


def play_accuracy(user: AbstractBaseUser) -> playlog.PlayFigures:
    """The user's leads and quiz answers made in play, and how many were right."""
    row = Attempt.objects.filter(user_id=user.pk, source=SOURCE_PLAY).aggregate(
        leads=Count("id", filter=Q(kind="lead")),
        leads_right=Count("id", filter=Q(kind="lead", correct=True)),
        reads=Count("id", filter=Q(kind="read")),
        reads_right=Count("id", filter=Q(kind="read", correct=True)),
    )
    return playlog.PlayFigures(row["leads"], row["leads_right"], row["reads"], row["reads_right"])


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
