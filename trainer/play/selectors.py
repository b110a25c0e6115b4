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
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext

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
    coach_stakes,
    hand_summary,
    parse_actions,
)
from trainer.classes.models import Assignment, ClassMembership
from trainer.core import playlog
from trainer.play.models import Game, LivePlayer, LiveTable
from trainer.progress.models import Attempt

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
    return Game.objects.filter(owner_id=user.pk, live=False).order_by("-updated_at", "-id")


def game_for(user: User | AnonymousUser, pk: int) -> Seen | None:
    """Solo game ``pk`` if ``user`` may see it: its owner, or a teacher of the class it was
    assigned in. ``None`` for anyone else, and for a live table's deal, which only its table
    shows, to each seat what it may see (the view answers 404)."""
    if not user.is_authenticated:
        return None
    game = Game.objects.select_related("assignment").filter(pk=pk, live=False).first()
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
    #: At South's turn in its side's last hand: make the hand, or keep the left-overs low.
    stakes: str | None = None


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
        stakes=coach_stakes(table) if coach else None,
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


def deals_played(
    assignment_ids: Iterable[int],
    *,
    games: dict[tuple[int, int], list[tuple[Game, int | None]]] | None = None,
) -> dict[tuple[int, int], int]:
    """``{(assignment_id, user_id): finished deals}``: what ``core.playlog`` asks. A finished
    game counts as one, played at either table:

    - *solo*: a game started for the assignment (``Game.assignment``), by its owner;
    - *live*: a deal at a live table that a student of the assignment's class sat in, begun
      after the assignment was set and after they joined the class. A live deal is set for no
      one assignment, so it counts towards each of the student's play assignments it
      follows. Who sat in it is kept with the deal (``LivePlayer``: the people seated when it
      was dealt, whether they then played their seat or handed it to a bot).

    ``games`` (for :func:`deal_links`) is filled with every such game, finished or not, and the
    live table it was dealt at if known, by ``(assignment_id, user_id)``, oldest first. A fixed
    handful of queries, whatever the number of students.
    """
    ids = list(assignment_ids)
    if not ids:
        return {}
    fields = ("pk", "owner_id", "assignment_id", "status", "created_at", "share_token")
    found: dict[tuple[int, int], dict[int, tuple[Game, int | None]]] = {}
    for game in Game.objects.filter(assignment_id__in=ids).only(*fields):
        assert game.assignment_id is not None  # filtered on it
        found.setdefault((game.assignment_id, game.owner_id), {})[game.pk] = (game, None)

    # Live deals: the class's students, then the deals they sat in.
    rows = ClassMembership.objects.filter(
        role=ClassMembership.Role.STUDENT,
        classroom__assignments__in=ids,
        classroom__assignments__source=Assignment.Source.PLAY,
    ).values_list(
        "user_id", "joined_at", "classroom__assignments__id", "classroom__assignments__created_at"
    )
    followed: dict[int, list[tuple[int, datetime]]] = {}  # user → [(assignment, counts from)]
    for user_id, joined_at, assignment_id, set_at in rows:
        followed.setdefault(user_id, []).append((assignment_id, max(joined_at, set_at)))
    if followed:
        sat = list(
            LivePlayer.objects.filter(user_id__in=followed, game__assignment__isnull=True)
            .select_related("game")
            .only("user_id", *(f"game__{f}" for f in fields if f != "pk"))
        )
        # A deal in play is its table's latest (linked to the table); earlier ones are over.
        in_play = {p.game_id for p in sat if not p.game.is_finished}
        # (only tables the players' teachers may watch: the others are no page for them)
        tables = dict(
            LiveTable.objects.filter(game_id__in=in_play, watchable=True).values_list(
                "game_id", "pk"
            )
        )
        for player in sat:
            user_id, deal = player.user_id, player.game
            for assignment_id, since in followed[user_id]:
                if deal.created_at >= since:
                    found.setdefault((assignment_id, user_id), {})[deal.pk] = (
                        deal,
                        tables.get(deal.pk),
                    )
    if games is not None:
        for key, played in found.items():
            games[key] = sorted(played.values(), key=lambda gt: (gt[0].created_at, gt[0].pk))
    counts = {key: sum(g.is_finished for g, _ in played.values()) for key, played in found.items()}
    return {key: n for key, n in counts.items() if n}


def deal_urls(game_ids: Iterable[int]) -> dict[int, str]:
    """``{game_id: url}`` (``core.playlog``): a solo deal's table (a teacher of the class may
    look on); a live deal's shared review once over, while in play its live table if its host
    lets the players' teachers watch (else no link). Two queries."""
    games = Game.objects.filter(pk__in=set(game_ids)).only("pk", "live", "status", "share_token")
    tables = dict(
        LiveTable.objects.filter(game_id__in=set(game_ids), game__live=True, watchable=True)
        .exclude(game__status=Game.Status.FINISHED)
        .values_list("game_id", "pk")
    )
    urls: dict[int, str] = {}
    for game in games:
        if not game.live:
            urls[game.pk] = game.get_absolute_url()
        elif game.is_finished and game.share_token is not None:
            urls[game.pk] = reverse("play:shared", args=[game.share_token])
        elif game.pk in tables:
            urls[game.pk] = reverse("play:live", args=[tables[game.pk]])
    return urls


def deal_links(assignment_id: int) -> dict[int, list[playlog.DealLink]]:
    """Every deal played for an assignment, by student, oldest first (for their teacher and
    the student): the deals :func:`deals_played` counts, and those still in play. A solo deal
    links to its table (a teacher of the class may look on); a live deal to its shared review
    once over, else to its live table (where the student's teacher may watch)."""
    games: dict[tuple[int, int], list[tuple[Game, int | None]]] = {}
    deals_played([assignment_id], games=games)
    out: dict[int, list[playlog.DealLink]] = {}
    for (_, user_id), played in sorted(games.items()):
        mine = out.setdefault(user_id, [])
        for game, table_id in played:
            if game.assignment_id is not None:  # a solo deal, started for the assignment
                url = game.get_absolute_url()
                label = (
                    gettext("deal %(number)s")
                    if game.is_finished
                    else gettext("deal %(number)s (in play)")
                )
            else:
                if game.is_finished and game.share_token is not None:
                    url = reverse("play:shared", args=[game.share_token])
                elif table_id is not None:
                    url = reverse("play:live", args=[table_id])
                else:  # in play at a table its players do not let teachers watch
                    url = ""
                label = (
                    gettext("deal %(number)s at a live table")
                    if game.is_finished
                    else gettext("deal %(number)s at a live table (in play)")
                )
            label %= {"number": len(mine) + 1}
            mine.append(playlog.DealLink(url, label, game.is_finished))
    return out


def hand_attempts(game: Game) -> dict[str, Attempt]:
    """The game's recorded attempts by ``"kind:deal:hand"`` (their tokens name them)."""
    attempts = Attempt.objects.filter(user_id=game.owner_id, game=game)
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
