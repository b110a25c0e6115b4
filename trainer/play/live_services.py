"""Writes for the live tables: open a table, take a seat, deal, act, hand a seat to a bot or
take it back, the coach's votes, invitations, watching, and the sockets' presence.

The state stays in the database (the table row, its seats, and each deal's :class:`Game`
record); the engine rebuilds the table from the record on every action and checks the action
against the sender's seat; sockets (:mod:`trainer.play.consumers`) and form posts send a move
through the same :func:`live_move` (one form, one throttle, one wording). Every write bumps
``LiveTable.version`` under a row lock, so two connections of one seat, or a stale page,
never act twice.
"""

from __future__ import annotations

import copy
import dataclasses
import secrets
import uuid
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from engine.cards import Card
from engine.game import Action
from engine.play import IllegalPlay, PlaySetup, PlayTable, actions_json
from engine.seats import SEATS, Seat
from trainer.core.infra.throttle import allow
from trainer.play import tables
from trainer.play.forms import ActionForm
from trainer.play.live_selectors import (
    OPPONENT_SEATS,
    Access,
    _away,
    _engine_table,
    _kept_table,
    _present,
    _stall,
    humans_of,
    live_shape,
    may_host_to_watch,
    replay_live,
)
from trainer.play.models import Game, LivePlayer, LivePresence, LiveSeat, LiveTable, hand_key
from trainer.progress.services import Graded, attempt_store
from trainer.wording.errors import reason

SEED_LIMIT = 2**63


class LiveRefused(Exception):
    """A request the live table refuses (400) with a reason; nothing was written."""


#: How long the players are told someone watches after a watcher read the deal without a
#: socket (the page, a reload): they cannot tell how long that page stays open.
WATCHED_FOR = timedelta(minutes=10)


#: A watcher's reads less than this apart are one look (not a write per reload).
LOOK_AGAIN_AFTER = timedelta(minutes=1)


def _keep_for_reading(game: Game, engine: PlayTable) -> None:
    """After a move is stored: the table it built, for the frames that show it, which then
    need not replay the record again."""
    shape = live_shape(game, engine.humans, engine.away)
    tables.store.keep(game.pk, game.setup, engine, shape, shared=True)


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


@transaction.atomic
def live_board_deal(
    *,
    host: User,
    settings: dict[str, Any],
    seed: int,
    seated: Mapping[Seat, User],
    supervisor: User | None = None,
    hands: tuple[tuple[Card, ...], ...] | None = None,
) -> LiveTable:
    """A table for a chosen board (a club session's): the people ``seated`` at their seats,
    the rest bots, dealt at once from ``seed`` (with the ``dealer`` the settings name). Not
    watchable: the host runs it and sees its progress, never its cards. ``supervisor``: a
    teaching table's teacher (a class's session), who watches and may pause it."""
    # The engine checks every setting, and the hands of a board entered by hand.
    dataclasses.replace(PlaySetup.from_json({**settings, "seed": seed}), hands=hands)
    table = LiveTable.objects.create(
        host=host,
        settings=settings,
        invite_token=None,
        watchable=False,
        deal_seed=seed,
        deal_hands=None if hands is None else [[str(c) for c in h] for h in hands],
        supervisor=supervisor,
    )
    LiveSeat.objects.bulk_create(
        LiveSeat(table=table, seat=str(seat), user=user) for seat, user in seated.items()
    )
    return live_begin(pk=table.pk, by=host)


@transaction.atomic
def live_bots_finish(*, pk: int, by: User) -> LiveTable:
    """The host has the bots play every seat to the end of the deal (a late board); the
    players' seats are marked handed over by the host, as :func:`live_hand_over` does."""
    table = _locked_with_game(pk)
    if table.host_id != by.pk:
        raise LiveRefused(gettext("Only the host can have the bots finish the deal."))
    if table.status != LiveTable.Status.PLAYING:
        raise LiveRefused(gettext("There is no deal in play at this table."))
    LiveSeat.objects.filter(table=table, user__isnull=False).update(away=True, away_by=by)
    _bots_play_on(table)
    _bump(table)
    return table


def _locked(pk: int) -> LiveTable:
    """The table's row, locked until the transaction ends."""
    return LiveTable.objects.select_for_update().get(pk=pk)


def _seats_with_people(pk: int) -> tuple[LiveSeat, ...]:
    return tuple(LiveSeat.objects.filter(table_id=pk).select_related("user"))


def _locked_with_game(pk: int) -> LiveTable:
    """The table's row and its game's, read and locked in one query (an inner join: a lock
    cannot reach the nullable side of an outer one); a table with no game yet, alone."""
    found = (
        LiveTable.objects.select_for_update()
        .select_related("game")
        .filter(pk=pk, game__isnull=False)
        .first()
    )
    if found is not None:
        return found
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
    if table.deal_seed is not None and table.game_id is not None:
        raise LiveRefused(gettext("This table deals one chosen board, and it has been played."))
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
    seed = table.deal_seed if table.deal_seed is not None else secrets.randbelow(SEED_LIMIT)
    hands = None
    if table.deal_hands is not None:  # (a board entered by hand: N, E, S, W)
        hands = {str(s): cards for s, cards in zip(SEATS, table.deal_hands, strict=True)}
    setup = PlaySetup.from_json({**table.settings, "seed": seed, "hands": hands})
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
    table.paused, table.shown_seat = False, ""
    table.save(update_fields=["game", "status", "paused", "shown_seat"])
    _bump(table)
    return table


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
    seats = _seats_with_people(table.pk)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise LiveRefused(gettext("You have no seat at this table."))
    if table.status != LiveTable.Status.PLAYING or table.game_id is None:
        raise LiveRefused(gettext("No deal is in play at this table."))
    if version != table.version:
        raise LiveRefused(gettext("The table has moved on since this page was shown."))
    if mine.away:
        raise LiveRefused(gettext("A bot is playing your seat: take it back first."))
    if table.paused:
        raise LiveRefused(gettext("Your teacher has paused the table."))
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
    changed = []
    if engine.is_over():
        written += _end(game, table)
        changed.append("status")
    if table.shown_seat:  # (a hand the teacher showed is shown until the next move)
        table.shown_seat = ""
        changed.append("shown_seat")
    if changed:
        table.save(update_fields=changed)
    game.save(update_fields=written)
    _bump(table)
    stored = copy.copy(game)  # (the caller's game may change; the kept one may not)
    transaction.on_commit(lambda: _keep_for_reading(stored, engine))
    return table


class TooManyMoves(LiveRefused):
    """A person sent more moves than :data:`MOVES_PER_WINDOW` in :data:`MOVE_WINDOW` seconds."""


#: Moves one person may send (on sockets and forms together) in :data:`MOVE_WINDOW` seconds.
MOVES_PER_WINDOW = 30
MOVE_WINDOW = 10


def live_move(*, pk: int, user: User, data: Mapping[str, Any] | Any) -> LiveTable:
    """A move sent on a socket or posted by a form (``{"action": "7H", "version": 12}``):
    counted first (nonsense counts too), read by :class:`~trainer.play.forms.ActionForm`,
    then played by :func:`live_act`. Refused (:class:`TooManyMoves` past the limit,
    :class:`LiveRefused` otherwise) with the same words on either path."""
    if not allow(f"live-act:{user.pk}", limit=MOVES_PER_WINDOW, seconds=MOVE_WINDOW):
        raise TooManyMoves(gettext("Too many moves at once."))
    form = ActionForm(data if isinstance(data, Mapping) else {})
    if not form.is_valid():
        raise LiveRefused(gettext("That is not a move."))
    action: Action = form.cleaned_data["action"]
    return live_act(pk=pk, user=user, action=action, version=form.cleaned_data["version"])


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
            graded=Graded(
                attempt.kind, attempt.skill, attempt.answer[:64], attempt.correct, game_id=game.pk
            ),
            now=now,
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
    if table.status != LiveTable.Status.PLAYING or table.game is None or table.paused:
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
    seats = _seats_with_people(table.pk)
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
