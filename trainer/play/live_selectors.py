"""Reads for the live tables: who may see a table and act at it (a seat's player, or a watcher
the host lets in), the rows read for a change, and the engine table of a deal's record.

Every frame of one change (:func:`change_stamp`) in one process reads the table's rows once
(:data:`_READ_ROWS`); the engine tables are the process's store (:mod:`trainer.play.tables`),
shared by the frames of one move and never changed by a reader. Nothing here writes.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cachetools import LRUCache
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.utils import timezone

from engine.play import PlayTable
from engine.seats import SEATS, Seat
from trainer.classes.models import ClassMembership
from trainer.clubs.models import ClubMembership
from trainer.play import tables
from trainer.play.models import Game, LivePresence, LiveSeat, LiveTable, hand_of_key
from trainer.play.selectors import actions_of, setup_of

#: The opponents' seats (the second invite link opens only these).
OPPONENT_SEATS = (Seat.E, Seat.W)


@dataclass(frozen=True)
class Present:
    """Someone at the table now: a seat's player with a socket open, or a watcher (a socket,
    or a look at the page within :data:`WATCHED_FOR`), by name."""

    user_id: int
    name: str
    watcher: bool


@dataclass(frozen=True)
class Access:
    """How ``user`` may see a table: ``seat`` (their chair) or ``watcher`` (all four hands).
    ``table`` (with its game), ``seats`` (with their users) and ``present`` are as read when
    access was checked, so that a page or frame built at once reads them only once."""

    table: LiveTable
    seat: Seat | None
    watcher: bool
    seats: tuple[LiveSeat, ...] = ()
    present: tuple[Present, ...] = ()
    #: The user this access is for.
    viewer: int | None = None


def dealt_at(table: LiveTable) -> datetime:
    """When the table's deal was dealt (now, before the first deal): a watcher's relation to
    the players must be older than this."""
    return table.game.created_at if table.game is not None else timezone.now()


def _watches(user: User, table: LiveTable, seats: Iterable[LiveSeat]) -> bool:
    """``user`` may watch ``table``: the host lets the players' teachers and organisers watch
    (:attr:`~LiveTable.watchable`), and ``user`` taught a class one of the seated players
    studied in, or organised a club one of them belonged to, since before the deal was dealt.
    A relation made during the deal (a class made and joined mid-deal) opens nothing."""
    if not table.watchable:
        return False
    players = [s.user_id for s in seats if s.user_id is not None and s.user_id != user.pk]
    if not players:
        return False
    before = dealt_at(table)
    taught = ClassMembership.objects.filter(
        user_id=user.pk, role=ClassMembership.Role.TEACHER, joined_at__lte=before
    ).values("classroom_id")
    if ClassMembership.objects.filter(
        classroom_id__in=taught,
        user_id__in=players,
        role=ClassMembership.Role.STUDENT,
        joined_at__lte=before,
    ).exists():
        return True
    organised = ClubMembership.objects.filter(
        user_id=user.pk, role=ClubMembership.Role.ORGANISER, role_since__lte=before
    ).values("club_id")
    return ClubMembership.objects.filter(
        club_id__in=organised, user_id__in=players, joined_at__lte=before
    ).exists()


def change_stamp(table: LiveTable) -> str:
    """What names one change of a table: its version and the moment it was made (a table id
    used again, after a restore, cannot name an older table's rows)."""
    return f"{table.version}@{table.updated_at.isoformat()}"


def presence_stamp() -> str:
    """What names one change of who is at a table (someone came, left, or looked on): no
    version, but every frame of that change shares one read and one rendering per view."""
    return f"p:{uuid.uuid4().hex}"


def stamp_version(stamp: str) -> int:
    """The version a change stamp names (-1: none, as when presence changed)."""
    version = stamp.partition("@")[0]
    return int(version) if version.isdigit() else -1


def _present(pk: int) -> tuple[Present, ...]:
    """Who is at table ``pk`` now: unexpired presence rows, one line per person and role."""
    rows = (
        LivePresence.objects.filter(table_id=pk, expires_at__gt=timezone.now())
        .select_related("user")
        .order_by("opened_at", "id")
    )
    seen: dict[tuple[int, bool], Present] = {}
    for row in rows:
        watcher = row.kind != LivePresence.Kind.SEAT
        seen.setdefault((row.user_id, watcher), Present(row.user_id, _name(row.user), watcher))
    return tuple(seen.values())


def _read_rows(pk: int) -> tuple[LiveTable, tuple[LiveSeat, ...], tuple[Present, ...]] | None:
    table = LiveTable.objects.select_related("game").filter(pk=pk).first()
    if table is None:
        return None
    return table, tuple(table.seats.select_related("user")), _present(pk)


def live_access(user: User | AnonymousUser, pk: int, stamp: str = "") -> Access | None:
    """``None`` (the page answers 404) unless ``user`` sits at table ``pk`` or may watch it.

    ``stamp``: the change (:func:`change_stamp`, :func:`presence_stamp`) a frame is built for.
    The rows read for it are kept, so every frame of one change in this process reads them
    once; without one they are read afresh, as pages are."""
    if not user.is_authenticated:
        return None
    kept = None
    if stamp:
        with _READ_ROWS_LOCK:
            kept = _READ_ROWS.get((pk, stamp))
    if kept is None:
        kept = _read_rows(pk)
        if kept is None:
            return None
        if stamp:  # (a read for a change is as fresh as that change, or fresher)
            with _READ_ROWS_LOCK:
                kept = _READ_ROWS.setdefault((pk, stamp), kept)
    table, seats, present = kept
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None:
        return Access(table, Seat(mine.seat), False, seats, present, user.pk)
    supervises = table.supervisor_id is not None and table.supervisor_id == user.pk
    if supervises or _watches(user, table, seats) or _hosts_to_watch(user, table):
        return Access(table, None, True, seats, present, user.pk)
    return None


def _hosts_to_watch(user: User, table: LiveTable) -> bool:
    """The host of a table they opened for others, without a seat, to watch (a teacher or an
    organiser): everyone who sat down there was told so, by the host's name."""
    return table.host_id == user.pk and table.watchable and may_host_to_watch(user)


def may_host_to_watch(user: User) -> bool:
    """Teachers and club organisers may open a table for others without a seat, and watch."""
    return (
        ClassMembership.objects.filter(user_id=user.pk, role=ClassMembership.Role.TEACHER).exists()
        or ClubMembership.objects.filter(
            user_id=user.pk, role=ClubMembership.Role.ORGANISER
        ).exists()
    )


def live_tables_for(user: User) -> list[LiveTable]:
    """The live tables ``user`` sits at, hosts, or may watch (their students' or club members',
    where the host lets them), latest first: the teacher's list of live tables."""
    taught = ClassMembership.objects.filter(
        user_id=user.pk, role=ClassMembership.Role.TEACHER
    ).values("classroom_id")
    students = ClassMembership.objects.filter(
        classroom_id__in=taught, role=ClassMembership.Role.STUDENT
    ).values("user_id")
    organised = ClubMembership.objects.filter(
        user_id=user.pk, role=ClubMembership.Role.ORGANISER
    ).values("club_id")
    members = ClubMembership.objects.filter(club_id__in=organised).values("user_id")
    return list(
        LiveTable.objects.filter(
            Q(host_id=user.pk)
            | Q(supervisor_id=user.pk)
            | Q(seats__user_id=user.pk)
            | Q(watchable=True, seats__user_id__in=students)
            | Q(watchable=True, seats__user_id__in=members)
        )
        .distinct()
        .prefetch_related("seats__user")
        .order_by("-updated_at", "-id")[:50]
    )


def table_by_invite(token: uuid.UUID) -> tuple[LiveTable, tuple[Seat, ...]] | None:
    """The table an invite key opens, and the seats it opens (any, or the opponents')."""
    table = LiveTable.objects.filter(invite_token=token).first()
    if table is not None:
        return table, SEATS
    table = LiveTable.objects.filter(opponents_token=token).first()
    if table is not None:
        return table, OPPONENT_SEATS
    return None


def bot_signals_of(game: Game) -> frozenset[tuple[int, int]]:
    """The hands whose signal a bot made, wholly or in part, for a person (``game.helped``
    at a live table): :class:`~engine.play.PlayTable` reads those signals as a bot leads."""
    return frozenset(hand_of_key(key) for key in game.helped)


def humans_of(table: LiveTable, seats: Iterable[LiveSeat] | None = None) -> frozenset[Seat]:
    """The seats people play now (seated and not handed to a bot); ``seats``: the table's
    seats when already read."""
    return frozenset(
        Seat(s.seat)
        for s in (table.seats.all() if seats is None else seats)
        if s.user_id is not None and not s.away
    )


#: A table row (with its game), its seats (with their users) and who is present, by (table,
#: change stamp): every frame of one change in this process reads them once. Only reads use
#: them; nothing changes them after they are read.
_READ_ROWS: LRUCache[
    tuple[int, str], tuple[LiveTable, tuple[LiveSeat, ...], tuple[Present, ...]]
] = LRUCache(maxsize=256)
_READ_ROWS_LOCK = threading.Lock()


def _kept_table(
    game: Game, humans: frozenset[Seat], away: frozenset[Seat] = frozenset()
) -> PlayTable:
    """The table of ``game``'s record, from the process's store (:mod:`trainer.play.tables`):
    for reading only (a write acts on a :meth:`~PlayTable.copy`). ``away``: the seats people
    have handed to a bot."""
    return tables.store.read(
        game, lambda: replay_live(game, humans, away), live_shape(game, humans, away)
    )


def live_shape(game: Game, humans: frozenset[Seat], away: frozenset[Seat]) -> tuple[Any, ...]:
    """What a live table's engine is built from besides its record: the seats people play,
    those handed to a bot, and the hands whose signal a bot made for a person."""
    return (humans, away, tuple(game.helped))


def replay_live(game: Game, humans: frozenset[Seat], away: frozenset[Seat]) -> PlayTable:
    """The engine table of a live game's record: ``humans`` play, ``away`` have handed their
    seats to bots, and the signals the bots made for people are the game's ``helped`` hands."""
    return PlayTable.replay(
        setup_of(game), actions_of(game), humans, away=away, bot_signals=bot_signals_of(game)
    )


def _engine_table(table: LiveTable, seats: Iterable[LiveSeat]) -> PlayTable | None:
    game = table.game
    seats = tuple(seats)
    return None if game is None else _kept_table(game, humans_of(table, seats), _away(seats))


@dataclass(frozen=True)
class Stall:
    """The seat to move belongs to a person who has gone (no socket open). After
    ``LIVE_GRACE_SECONDS`` the other players may hand it to a bot; the host may at once."""

    seat: Seat
    name: str
    #: Seconds until the other players may hand the seat over (0: they may now).
    wait: int
    #: Whether the viewer may hand it over now.
    may_hand: bool


def grace() -> timedelta:
    """How long a player due to move may be gone before the others may hand the seat to a
    bot (the ``LIVE_GRACE_SECONDS`` setting)."""
    return timedelta(seconds=settings.LIVE_GRACE_SECONDS)


def _stall(
    access: Access, to_move: Seat | None, connected: frozenset[int], now: datetime
) -> Stall | None:
    """The :class:`Stall` of the seat to move, as ``access``'s viewer sees it (None: the seat
    to move is a bot's, or its player is here)."""
    table = access.table
    row = next((s for s in access.seats if to_move is not None and s.seat == str(to_move)), None)
    if row is None or row.user_id is None or row.away or row.user_id in connected:
        return None
    if table.status != LiveTable.Status.PLAYING:
        return None
    gone = max(filter(None, (row.last_seen, table.updated_at)))
    wait = max(0, int((gone + grace() - now).total_seconds() + 0.999))
    viewer = next((s for s in access.seats if access.seat and s.seat == str(access.seat)), None)
    player = viewer is not None and viewer.user_id is not None and not viewer.away
    host = bool(access.viewer and table.host_id == access.viewer)
    return Stall(
        seat=Seat(row.seat),
        name=_name(row.user),
        wait=wait,
        may_hand=host or (player and wait == 0),
    )


def _name(user: Any) -> str:
    if user is None:
        return ""
    first = (user.first_name or "").strip()
    last = (user.last_name or "").strip()
    if first:
        return f"{first} {last[:1]}." if last else first
    return str(user.get_username())


def _away(seats: Iterable[LiveSeat]) -> frozenset[Seat]:
    """The seats of people who have handed them to a bot for now."""
    return frozenset(Seat(r.seat) for r in seats if r.user_id is not None and r.away)
