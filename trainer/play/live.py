"""Live tables: two to four people at one table, bots in the empty seats, a teacher watching.

Writes (``live_*`` services) and reads (``live_access``, ``live_shown``) for the live tables.
The state stays in the database (the table row, its seats, and each deal's :class:`Game`
record); the engine rebuilds the table from the record on every action and checks the action
against the sender's seat; sockets (:mod:`trainer.play.consumers`) and form posts go through
the same :func:`live_act`. Every write bumps ``LiveTable.version`` under a row lock, so two
connections of one seat, or a stale page, never act twice.
"""

from __future__ import annotations

import copy
import functools
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import F, Q
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from engine.game import FORCE, PASS, Action
from engine.play import (
    IllegalPlay,
    LeadAdvice,
    PlaySetup,
    PlayTable,
    ReadQuiz,
    TableView,
    actions_json,
    coach_lead,
    coach_read,
)
from engine.seats import SEATS, Seat
from trainer.classes.models import ClassMembership
from trainer.clubs.models import ClubMembership
from trainer.core.compiled import Compiled
from trainer.play.models import (
    Game,
    LivePlayer,
    LivePresence,
    LiveSeat,
    LiveTable,
    hand_key,
    hand_of_key,
)
from trainer.play.presenters import lead_note
from trainer.play.selectors import actions_of, setup_of
from trainer.progress.models import SOURCE_PLAY
from trainer.progress.services import attempt_store
from trainer.wording.errors import reason

K = TypeVar("K")
V = TypeVar("V")

#: The opponents' seats (the second invite link opens only these).
OPPONENT_SEATS = (Seat.E, Seat.W)
SEED_LIMIT = 2**63


class LiveRefused(Exception):
    """A request the live table refuses (400) with a reason; nothing was written."""


# -- reads -----------------------------------------------------------------------------------


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
    kept = _READ_ROWS.get((pk, stamp)) if stamp else None
    if kept is None:
        kept = _read_rows(pk)
        if kept is None:
            return None
        if stamp:  # (a read for a change is as fresh as that change, or fresher)
            _READ_ROWS.put((pk, stamp), kept, replace=False)
    table, seats, present = kept
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is not None:
        return Access(table, Seat(mine.seat), False, seats, present, user.pk)
    if _watches(user, table, seats) or _hosts_to_watch(user, table):
        return Access(table, None, True, seats, present, user.pk)
    return None


def _hosts_to_watch(user: User, table: LiveTable) -> bool:
    """The host of a table they opened for others, without a seat, to watch (a teacher or an
    organiser): everyone who sat down there was told so, by the host's name."""
    return table.host_id == user.pk and table.watchable and may_host_to_watch(user)


#: How long the players are told someone watches after a watcher read the deal without a
#: socket (the page, a reload): they cannot tell how long that page stays open.
WATCHED_FOR = timedelta(minutes=10)
#: A watcher's reads less than this apart are one look (not a write per reload).
LOOK_AGAIN_AFTER = timedelta(minutes=1)


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


class _Kept(Generic[K, V]):
    """The last ``size`` values read, by key (shared by the threads that build frames)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def put(self, key: K, value: V, *, replace: bool = True) -> None:
        """Keep ``value`` for ``key``; ``replace=False``: unless one is kept already (read at
        the same moment or later)."""
        with self.lock:
            if replace or key not in self.values:
                self.values[key] = value
                self.values.move_to_end(key)
                while len(self.values) > self.size:
                    self.values.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.values.clear()


#: A table row (with its game), its seats (with their users) and who is present, by (table,
#: change stamp). Only reads use them; nothing changes them after they are read.
_READ_ROWS: _Kept[tuple[int, str], tuple[LiveTable, tuple[LiveSeat, ...], tuple[Present, ...]]] = (
    _Kept(256)
)


@dataclass(frozen=True)
class _ReadTable:
    """A table rebuilt for reading and the record it was rebuilt from, as stored."""

    setup: dict[str, Any]
    actions: tuple[Any, ...]
    table: PlayTable


#: Tables rebuilt for reading, by (game, its number of actions, the seats people play, those
#: handed to a bot): every seat's frame of one move reads the same table, rebuilt once (or kept
#: by the move that made it). One is used only for the same stored setup and actions (the
#: engine is deterministic), so a game id used again never shows another deal; comparing the
#: stored text spares every frame parsing the whole record again. Only reads use them; a move
#: rebuilds its own from the locked record.
_READ_TABLES: _Kept[tuple[int, int, frozenset[Seat], frozenset[Seat]], _ReadTable] = _Kept(256)


def _kept_table(
    game: Game, humans: frozenset[Seat], away: frozenset[Seat] = frozenset()
) -> PlayTable:
    """The table of ``game``'s record, rebuilt once and kept: for reading only (a write acts
    on a :meth:`~PlayTable.copy`). ``away``: the seats people have handed to a bot."""
    stored = tuple(game.actions) if isinstance(game.actions, list) else None
    key = (game.pk, -1 if stored is None else len(stored), humans, away)
    found = _READ_TABLES.get(key)
    if found is not None and found.actions == stored and found.setup == game.setup:
        return found.table
    table = replay_live(game, humans, away)
    _READ_TABLES.put(key, _ReadTable(copy.deepcopy(game.setup), stored or (), table))
    return table


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


def _keep_for_reading(game: Game, engine: PlayTable) -> None:
    """After a move is stored: the table it built, for the frames that show it, which then
    need not replay the record again."""
    stored = tuple(game.actions)  # (actions_json(engine.actions), as the move stored them)
    key = (game.pk, len(stored), engine.humans, engine.away)
    _READ_TABLES.put(key, _ReadTable(copy.deepcopy(game.setup), stored, engine))


@dataclass(frozen=True)
class SeatLine:
    seat: Seat
    name: str
    bot: bool
    away: bool
    connected: bool
    mine: bool


@dataclass(frozen=True)
class LiveCoach:
    """The coach at a live table: on only while every person seated wants it (``wanted`` of
    ``people``); then the seat to move gets the coach's lead advice or its reading of
    partner's signal, built from that seat's own view like the solo table's coach."""

    on: bool
    wanted: int
    people: int
    mine: bool | None
    advice: LeadAdvice | None = None
    quiz: ReadQuiz | None = None


def coach_wanted(seats: Any) -> tuple[int, int]:
    """``(wanting, people)``: the people seated (not handed to a bot) and how many want the
    coach."""
    people = [s for s in seats if s.user_id is not None and not s.away]
    return sum(1 for s in people if s.coach), len(people)


@dataclass(frozen=True)
class LiveShown:
    """What one person sees of a live table: their seat's view (or, for a watcher, every
    hand), the seats, and whose turn it is."""

    table: LiveTable
    seat: Seat | None
    watcher: bool
    seats: tuple[SeatLine, ...]
    view: TableView | None
    hands: dict[str, tuple[Any, ...]] | None
    #: The names of those watching now (a socket open, or the page read lately).
    watchers: tuple[str, ...]
    to_move: Seat | None
    coach: LiveCoach
    #: The seat to move is a person who is not connected: since when, and whether this
    #: viewer may hand it to a bot now.
    stalled: Stall | None = None

    @property
    def watched(self) -> bool:
        return bool(self.watchers)


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
    return user.get_username()


def live_shown(access: Access) -> LiveShown:
    """Everything a page or a socket frame shows ``access`` of its table, built from that
    seat's own observation (a watcher's from every seat: only authorised watchers get one)."""
    table = access.table
    seats = {s.seat: s for s in access.seats}
    connected = frozenset(p.user_id for p in access.present if not p.watcher)
    engine = _engine_table(table, access.seats)
    view = engine.view(access.seat or Seat.S) if engine is not None else None
    hands = None
    if access.watcher and engine is not None and not engine.is_over():
        hands = {str(s): tuple(c) for s, c in engine.hands_now().items()}
    lines = tuple(
        SeatLine(
            seat=s,
            name=_name(seats[str(s)].user) if str(s) in seats else "",
            bot=str(s) not in seats or seats[str(s)].user_id is None or seats[str(s)].away,
            away=str(s) in seats and seats[str(s)].away,
            connected=str(s) in seats and seats[str(s)].user_id in connected,
            mine=s is access.seat,
        )
        for s in SEATS
    )
    wanted, people = coach_wanted(seats.values())
    on = people > 0 and wanted == people
    to_move = engine.to_move() if engine is not None and not engine.is_over() else None
    mine = seats[str(access.seat)].coach if access.seat and str(access.seat) in seats else None
    coached = on and access.seat is not None and engine is not None and not engine.is_over()
    coach = LiveCoach(
        on=on,
        wanted=wanted,
        people=people,
        mine=mine,
        advice=coach_lead(engine, access.seat) if coached and engine and access.seat else None,
        quiz=coach_read(engine, access.seat) if coached and engine and access.seat else None,
    )
    return LiveShown(
        table=table,
        seat=access.seat,
        watcher=access.watcher,
        seats=lines,
        view=view,
        hands=hands,
        watchers=tuple(p.name for p in access.present if p.watcher),
        to_move=to_move,
        coach=coach,
        stalled=_stall(access, to_move, connected, timezone.now()),
    )


@dataclass(frozen=True)
class LiveUrls:
    """Where a table's partial posts its moves, coach votes and deals, and its record."""

    act: str
    coach: str
    begin: str
    record: str
    hand_over: str


def live_urls(pk: int) -> LiveUrls:
    """Table ``pk``'s addresses, worked out once per table (and script prefix): reversing
    them was about a third of the time a frame took to render."""
    return _live_urls(pk, get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=1024)
def _live_urls(pk: int, prefix: str, urlconf: str | None) -> LiveUrls:
    # (``reverse`` reads the same prefix and URLconf)
    return LiveUrls(
        *(
            reverse(f"play:live-{name}", args=[pk])
            for name in ("act", "coach", "begin", "record", "hand-over")
        )
    )


def live_context(shown: LiveShown) -> dict[str, Any]:
    """The template context of the table partial: the seat's cards as buttons (legal ones
    only are buttons), pass and "Play!" when allowed, and the table's addresses."""
    legal = shown.view.legal if shown.view is not None and shown.seat is not None else ()
    hand = shown.view.hand if shown.view is not None and shown.seat is not None else ()
    return {
        "shown": shown,
        "buttons": [(c, Action.play(c) in legal) for c in hand],
        "can_pass": PASS in legal,
        "can_force": FORCE in legal,
        "my_away": any(line.mine and line.away for line in shown.seats),
        "advice": lead_note(shown.coach.advice),
        "urls": live_urls(shown.table.pk),
    }


# -- writes ----------------------------------------------------------------------------------


def _bump(table: LiveTable) -> None:
    """The table's next version (every write's last step; ``table`` was read under
    :func:`_locked`'s row lock, so its version is the stored one)."""
    now = timezone.now()
    LiveTable.objects.filter(pk=table.pk).update(version=F("version") + 1, updated_at=now)
    table.version += 1
    table.updated_at = now


@transaction.atomic
def live_table_open(
    *,
    host: User,
    settings: dict[str, Any],
    seat: Seat | None,
    opponents_link: bool,
    watchable: bool | None = None,
) -> LiveTable:
    """Open a table with ``host`` in ``seat`` (None: a teacher or organiser who only watches);
    the other seats wait for people (or bots). ``watchable``: whether the players' teachers
    and organisers may watch; by default only a table opened to watch is."""
    PlaySetup.from_json({"seed": 0, **settings})  # the engine checks every setting
    if seat is None and not may_host_to_watch(host):
        raise LiveRefused(gettext("Only teachers and club organisers open a table to watch."))
    table = LiveTable.objects.create(
        host=host,
        settings=settings,
        opponents_token=uuid.uuid4() if opponents_link else None,
        watchable=seat is None if watchable is None else watchable or seat is None,
    )
    if seat is not None:
        LiveSeat.objects.create(table=table, seat=str(seat), user=host)
    return table


def _locked(pk: int) -> LiveTable:
    """The table's row, locked until the transaction ends."""
    return LiveTable.objects.select_for_update().get(pk=pk)


#: A move's two reads, their SQL built once per connection (``trainer.core.compiled``).
_TABLE_WITH_GAME = Compiled(
    lambda pk: (
        LiveTable.objects.select_for_update()
        .select_related("game")
        .filter(pk=pk, game__isnull=False)
    ),
    "pk",
)
_SEATS_WITH_PEOPLE = Compiled(
    lambda table: LiveSeat.objects.filter(table_id=table).select_related("user"), "table"
)


def _locked_with_game(pk: int) -> LiveTable:
    """The table's row and its game's, read and locked in one query (an inner join: a lock
    cannot reach the nullable side of an outer one); a table with no game yet, alone."""
    found = _TABLE_WITH_GAME(pk=pk)
    if found:
        return found[0]
    table = _locked(pk)  # (no game, or one dealt since the query began)
    if table.game_id is not None:
        table.game = Game.objects.select_for_update().get(pk=table.game_id)
    return table


@transaction.atomic
def live_seat_take(
    *,
    pk: int,
    user: User,
    seat: Seat,
    allowed: tuple[Seat, ...],
    token: uuid.UUID | None = None,
) -> LiveSeat:
    """``user`` takes a free ``seat`` (one ``allowed`` by their invite) before the deal.
    ``token``: the invite key they came by, checked again under the table's lock (the host
    may have withdrawn it since the page was read)."""
    table = _locked(pk)
    if token is not None:
        opened = {table.invite_token: SEATS, table.opponents_token: OPPONENT_SEATS}
        if token not in opened:
            raise LiveRefused(gettext("This invitation is not valid (any more)."))
        allowed = tuple(s for s in allowed if s in opened[token])
    if table.status == LiveTable.Status.PLAYING:
        raise LiveRefused(gettext("The deal has begun: seats are taken before it starts."))
    if seat not in allowed:
        raise LiveRefused(gettext("This invitation does not open that seat."))
    if table.seats.filter(user_id=user.pk).exists():
        raise LiveRefused(gettext("You already have a seat at this table."))
    taken = table.seats.filter(seat=str(seat)).first()
    if taken is not None and taken.user_id is not None:
        raise LiveRefused(gettext("That seat is taken."))
    row, _ = LiveSeat.objects.update_or_create(
        table=table, seat=str(seat), defaults={"user": user, "away": False}
    )
    _bump(table)
    return row


@transaction.atomic
def live_begin(*, pk: int, by: User, swap: bool = False) -> LiveTable:
    """The host deals: a new :class:`Game` record (a fresh seed), bots play until a person's
    turn. ``swap``: the partnerships change places first (N↔E, S↔W)."""
    table = _locked(pk)
    if table.host_id != by.pk:
        raise LiveRefused(gettext("Only the host deals."))
    if table.status == LiveTable.Status.PLAYING:
        raise LiveRefused(gettext("A deal is in play already."))
    if not table.seats.filter(user__isnull=False).exists():
        raise LiveRefused(gettext("Nobody is seated yet: send the invitation first."))
    if swap:
        moves = {"N": "E", "E": "N", "S": "W", "W": "S"}
        rows = [
            (moves[r.seat], r.user_id, r.away, r.away_by_id, r.coach, r.last_seen)
            for r in table.seats.all()
        ]
        table.seats.all().delete()  # then seated again: (table, seat) stays unique throughout
        for seat, user_id, away, away_by, coach, last_seen in rows:
            # Wishes move with their players (their sockets are theirs, not the seat's).
            LiveSeat.objects.create(
                table=table,
                seat=seat,
                user_id=user_id,
                away=away,
                away_by_id=away_by,
                coach=coach,
                last_seen=last_seen,
            )
    setup = PlaySetup.from_json({"seed": secrets.randbelow(SEED_LIMIT), **table.settings})
    seated = tuple(table.seats.all())
    engine, _steps = PlayTable.start(setup, humans_of(table, seated), away=_away(seated))
    game = Game(
        owner=table.host,
        live=True,
        setup=setup.to_json(),
        actions=actions_json(engine.actions),
        version=len(engine.actions),
        coach=Game.Coach.OFF,
    )
    _mark_bots_signals(game, engine)
    table.status = LiveTable.Status.PLAYING
    if engine.is_over():  # (every person seated has handed their seat to a bot)
        _end(game, table)
    game.save(force_insert=True)
    LivePlayer.objects.bulk_create(  # (seats are not taken during a deal: these played it)
        LivePlayer(game=game, user_id=row.user_id, seat=row.seat)
        for row in seated
        if row.user_id is not None
    )
    table.game = game
    table.save(update_fields=["game", "status"])
    _bump(table)
    return table


def _away(seats: Iterable[LiveSeat]) -> frozenset[Seat]:
    """The seats of people who have handed them to a bot for now."""
    return frozenset(Seat(r.seat) for r in seats if r.user_id is not None and r.away)


def _mark_bots_signals(game: Game, engine: PlayTable) -> list[str]:
    """Hands whose signal a bot made, wholly or in part, for a person who handed it their
    seat (:attr:`~engine.play.PlayTable.bot_signals`) are marked helped on ``game``: those
    leads are not counted as the person's answers, and the seat's partner reads them as a
    bot's. The game's fields this changed."""
    new = [
        key
        for deal, hand in sorted(engine.bot_signals)
        if (key := hand_key(deal, hand)) not in game.helped
    ]
    if not new:
        return []
    game.helped = [*game.helped, *new]
    return ["helped"]


def _end(game: Game, table: LiveTable) -> list[str]:
    """The deal is over: the game finished, with the key of its shared review, and the table
    ready for the next deal. The game's fields this changed (the caller saves both rows)."""
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.share_token = uuid.uuid4()
    table.status = LiveTable.Status.FINISHED
    return ["status", "finished_at", "share_token"]


@transaction.atomic
def live_act(*, pk: int, user: User, action: Action, version: int) -> LiveTable:
    """``user`` takes ``action`` from their seat at the table as it was at ``version``; the
    bots then play until a person's turn. Refused, with the engine's reason and nothing
    written, out of turn, for another seat, twice (a stale version) or after the end."""
    table = _locked_with_game(pk)
    seats = tuple(_SEATS_WITH_PEOPLE(table=table.pk))
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise LiveRefused(gettext("You have no seat at this table."))
    if table.status != LiveTable.Status.PLAYING or table.game_id is None:
        raise LiveRefused(gettext("No deal is in play at this table."))
    if version != table.version:
        raise LiveRefused(gettext("The table has moved on since this page was shown."))
    if mine.away:
        raise LiveRefused(gettext("A bot is playing your seat: take it back first."))
    game = table.game
    assert game is not None  # (table.game_id is not None)
    humans = humans_of(table, seats)
    away = _away(seats)
    engine = _kept_table(game, humans, away).copy()  # the locked record's table
    seat = Seat(mine.seat)
    try:
        engine.act(action, seat)
    except IllegalPlay as exc:
        raise LiveRefused(str(reason(exc))) from None
    helped = _mark_bots_signals(game, engine)
    _record_leads(game, engine, seat, user)
    game.actions = actions_json(engine.actions)
    game.version = len(engine.actions)
    game.updated_at = timezone.now()
    written = ["actions", "version", "updated_at", *helped]  # (the setup is the deal's own)
    if engine.is_over():
        written += _end(game, table)
        table.save(update_fields=["status"])
    game.save(update_fields=written)
    _bump(table)
    stored = copy.copy(game)  # (the caller's game may change; the kept one may not)
    transaction.on_commit(lambda: _keep_for_reading(stored, engine))
    return table


def _record_leads(game: Game, engine: PlayTable, seat: Seat, user: User) -> None:
    """The seat's leads, graded like lead drills, as ``in play`` attempts (once per hand): a
    live deal counts in skills and class statistics like a solo one."""
    now = timezone.now()
    for attempt in engine.attempts(seat):
        if hand_key(attempt.deal_number, attempt.hand_number) in game.helped:
            continue  # (a bot played the seat's signal, or part of it, for them)
        name = f"concerto-live:{game.pk}:{seat}:{attempt.deal_number}:{attempt.hand_number}"
        attempt_store(
            user=user,
            token=uuid.uuid5(uuid.NAMESPACE_URL, name),
            kind=attempt.kind,
            skill=attempt.skill,
            seed=game.pk,  # never the deal's seed
            params=f"play={game.pk}",
            answer=attempt.answer[:64],
            correct=attempt.correct,
            now=now,
            source=SOURCE_PLAY,
        )


@transaction.atomic
def live_away(*, pk: int, user: User, away: bool) -> LiveTable:
    """Hand one's seat to a bot (``away``) or take it back (also when another player or the
    host handed it over while one was gone); a bot that takes over plays at once if it is the
    seat's turn."""
    table = _locked(pk)
    mine = table.seats.filter(user_id=user.pk).first()
    if mine is None:
        raise LiveRefused(gettext("You have no seat at this table."))
    mine.away = away
    mine.away_by = None
    mine.save(update_fields=["away", "away_by"])
    _bots_play_on(table)
    _bump(table)
    return table


def _bots_play_on(table: LiveTable) -> None:
    """After a seat changed hands: the bots play until a person's turn (the table's row is
    locked by the caller)."""
    if table.status != LiveTable.Status.PLAYING or table.game is None:
        return
    game = Game.objects.select_for_update().get(pk=table.game.pk)
    seated = tuple(table.seats.all())
    engine = replay_live(game, humans_of(table, seated), _away(seated))
    if engine.advance():
        _mark_bots_signals(game, engine)
        game.actions = actions_json(engine.actions)
        game.version = len(engine.actions)
        if engine.is_over():
            _end(game, table)
            table.save(update_fields=["status"])
        game.save()


@transaction.atomic
def live_hand_over(
    *, pk: int, by: User, seat: Seat, version: int, now: datetime | None = None
) -> LiveTable:
    """A player (or the host) hands the seat of a player who has gone to a bot, so the table
    does not wait for them for ever. Only the seat to move, only while its player has no
    socket open, and, for the other players, only once that player has been gone
    ``LIVE_GRACE_SECONDS`` (the host may at once). The player takes the seat back with the
    usual button when they return."""
    now = now or timezone.now()
    table = _locked_with_game(pk)
    seats = tuple(_SEATS_WITH_PEOPLE(table=table.pk))
    if version != table.version:
        raise LiveRefused(gettext("The table has moved on since this page was shown."))
    present = _present(pk)
    access = Access(table, None, False, seats, present, by.pk)
    mine = next((s for s in seats if s.user_id == by.pk), None)
    if mine is not None:
        access = Access(table, Seat(mine.seat), False, seats, present, by.pk)
    elif table.host_id != by.pk:
        raise LiveRefused(gettext("You have no seat at this table."))
    engine = _engine_table(table, seats)
    to_move = engine.to_move() if engine is not None and not engine.is_over() else None
    connected = frozenset(p.user_id for p in present if not p.watcher)
    stall = _stall(access, to_move, connected, now)
    if stall is None or stall.seat != seat:
        raise LiveRefused(gettext("That seat's player is here, or it is not their turn."))
    if not stall.may_hand:
        raise LiveRefused(
            ngettext(
                "Give them a little longer: you may hand the seat to a bot in %(n)d second.",
                "Give them a little longer: you may hand the seat to a bot in %(n)d seconds.",
                stall.wait,
            )
            % {"n": stall.wait}
        )
    LiveSeat.objects.filter(table=table, seat=str(seat)).update(away=True, away_by=by)
    _bots_play_on(table)
    _bump(table)
    return table


@transaction.atomic
def live_coach(*, pk: int, user: User, on: bool) -> LiveTable:
    """``user`` asks for the coach (``on``) or no coach at their seat's table. The coach is on
    only while every person seated asks for it."""
    table = _locked(pk)
    mine = table.seats.filter(user_id=user.pk).first()
    if mine is None:
        raise LiveRefused(gettext("You have no seat at this table."))
    if mine.coach != on:
        mine.coach = on
        mine.save(update_fields=["coach"])
        _bump(table)
    return table


@transaction.atomic
def live_invite_revoke(*, pk: int, by: User) -> LiveTable:
    """The host withdraws both invite links (new ones can be made)."""
    table = _locked(pk)
    if table.host_id != by.pk:
        raise LiveRefused(gettext("Only the host manages the invitations."))
    table.invite_token = uuid.uuid4()
    if table.opponents_token is not None:
        table.opponents_token = uuid.uuid4()
    table.save(update_fields=["invite_token", "opponents_token"])
    _bump(table)
    return table


def live_looked_on(*, pk: int, user: User) -> bool:
    """A watcher read table ``pk``'s deal in play over HTTP (every hand shown): kept for
    :data:`WATCHED_FOR`, so the players are told who watches. True when that is news to tell
    the table (the first look, or one after :data:`LOOK_AGAIN_AFTER`); no new version
    (presence does not take one: the players' moves stay valid)."""
    now = timezone.now()
    if not LiveTable.objects.filter(pk=pk, status=LiveTable.Status.PLAYING).exists():
        return False
    socket = f"look:{user.pk}"
    expires = now + WATCHED_FOR
    fresh = LivePresence.objects.filter(
        table_id=pk, socket=socket, expires_at__gt=expires - LOOK_AGAIN_AFTER
    )
    if fresh.exists():
        return False
    LivePresence.objects.update_or_create(
        table_id=pk,
        socket=socket,
        defaults={"user": user, "kind": LivePresence.Kind.LOOK, "expires_at": expires},
        create_defaults={
            "user": user,
            "kind": LivePresence.Kind.LOOK,
            "expires_at": expires,
            "opened_at": now,
        },
    )
    return True


def presence_expiry(now: datetime | None = None) -> datetime:
    """When a socket's presence lapses unless its server's heartbeat refreshes it."""
    return (now or timezone.now()) + timedelta(seconds=settings.LIVE_PRESENCE_EXPIRY_SECONDS)


class TooManySockets(LiveRefused):
    """A person has as many sockets open at one table as they may (``LIVE_SOCKETS_PER_USER``)."""


@transaction.atomic
def presence_open(*, pk: int, user: User, watcher: bool, socket: str) -> None:
    """A socket of ``user`` opened at table ``pk`` (as a seat's player or a watcher). Refused
    (:class:`TooManySockets`) beyond ``LIVE_SOCKETS_PER_USER`` open at one table: each socket
    costs a frame at every change."""
    now = timezone.now()
    _locked(pk)  # (two sockets opening at once are counted one after the other)
    open_now = LivePresence.objects.filter(
        table_id=pk, user_id=user.pk, expires_at__gt=now
    ).exclude(kind=LivePresence.Kind.LOOK)
    if open_now.count() >= settings.LIVE_SOCKETS_PER_USER:
        raise TooManySockets(
            gettext("You have this table open in too many tabs: close one and reload.")
        )
    LivePresence.objects.create(
        table_id=pk,
        user=user,
        kind=LivePresence.Kind.WATCH if watcher else LivePresence.Kind.SEAT,
        socket=socket,
        opened_at=now,
        expires_at=presence_expiry(now),
    )


def presence_close(*, pk: int, socket: str) -> None:
    """A socket closed: it no longer counts, and its seat's player was last seen now."""
    now = timezone.now()
    rows = LivePresence.objects.filter(table_id=pk, socket=socket)
    users = list(rows.filter(kind=LivePresence.Kind.SEAT).values_list("user_id", flat=True))
    rows.delete()
    if users:
        LiveSeat.objects.filter(table_id=pk, user_id__in=users).update(last_seen=now)


def presence_beat(*, sockets: Iterable[tuple[int, str, int, bool]]) -> int:
    """The heartbeat of a server's open sockets (``(table, socket, user, watcher)``): they
    count for another ``LIVE_PRESENCE_EXPIRY_SECONDS``. A socket whose row lapsed meanwhile
    (the database was away longer than that) counts again from now. The number of rows
    refreshed."""
    rows = list(sockets)
    if not rows:
        return 0
    expires = presence_expiry()
    match = Q()
    for pk, socket, _user, _watcher in rows:
        match |= Q(table_id=pk, socket=socket)
    refreshed = LivePresence.objects.filter(match).update(expires_at=expires)
    if refreshed < len(rows):
        LivePresence.objects.bulk_create(
            [
                LivePresence(
                    table_id=pk,
                    user_id=user,
                    kind=LivePresence.Kind.WATCH if watcher else LivePresence.Kind.SEAT,
                    socket=socket,
                    expires_at=expires,
                )
                for pk, socket, user, watcher in rows
                if LiveTable.objects.filter(pk=pk).exists()
            ],
            ignore_conflicts=True,  # (the rows that were refreshed stay as they are)
        )
    return refreshed


def presence_sweep(now: datetime | None = None) -> list[int]:
    """Forget presence that has lapsed (the sockets of a server that died, old looks): the
    tables whose players should be told who is there now. A seat's player whose last socket
    lapsed was last seen when it did."""
    now = now or timezone.now()
    lapsed = LivePresence.objects.filter(expires_at__lte=now)
    rows = list(lapsed.values_list("pk", "table_id", "user_id", "kind", "expires_at"))
    if not rows:
        return []
    LivePresence.objects.filter(pk__in=[r[0] for r in rows]).delete()
    for _, pk, user_id, kind, expired in rows:
        if kind == LivePresence.Kind.SEAT:
            LiveSeat.objects.filter(table_id=pk, user_id=user_id).filter(
                Q(last_seen__isnull=True) | Q(last_seen__lt=expired)
            ).update(last_seen=expired)
    return sorted({r[1] for r in rows})


@transaction.atomic
def live_watchable(*, pk: int, by: User, watchable: bool) -> LiveTable:
    """The host lets the players' teachers and club organisers watch, or stops them."""
    table = _locked(pk)
    if table.host_id != by.pk:
        raise LiveRefused(gettext("Only the host decides who may watch."))
    if not table.seats.filter(user_id=by.pk).exists() and not watchable:
        raise LiveRefused(gettext("You opened this table to watch it: it stays open to you."))
    if table.watchable != watchable:
        table.watchable = watchable
        table.save(update_fields=["watchable"])
        if not watchable:
            LivePresence.objects.filter(table=table).exclude(kind=LivePresence.Kind.SEAT).delete()
        _bump(table)
    return table
