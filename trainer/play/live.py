"""Live tables: two to four people at one table, bots in the empty seats, a teacher watching.

What one person sees of a live table (:func:`live_shown`, :func:`live_context`: a seat's own
view, or every hand for a watcher). The reads (who may see and act, the rows and the engine
table) are :mod:`trainer.play.live_selectors`, the writes :mod:`trainer.play.live_services`;
both are named here too, so ``live.<name>`` reaches every part of the live tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils import timezone

from engine.game import FORCE, PASS, Action
from engine.play import LeadAdvice, ReadQuiz, TableView, coach_lead, coach_read, coach_stakes
from engine.seats import SEATS, Seat
from trainer.play.live_selectors import (
    OPPONENT_SEATS,
    Access,
    Present,
    Stall,
    _engine_table,
    _name,
    _stall,
    bot_signals_of,
    change_stamp,
    dealt_at,
    grace,
    humans_of,
    live_access,
    live_tables_for,
    may_host_to_watch,
    presence_stamp,
    replay_live,
    stamp_version,
    table_by_invite,
)
from trainer.play.live_services import (
    LOOK_AGAIN_AFTER,
    SEED_LIMIT,
    WATCHED_FOR,
    LiveRefused,
    TooManyMoves,
    TooManySockets,
    live_act,
    live_away,
    live_begin,
    live_coach,
    live_hand_over,
    live_invite_revoke,
    live_looked_on,
    live_move,
    live_seat_take,
    live_table_open,
    live_watchable,
    presence_beat,
    presence_close,
    presence_expiry,
    presence_open,
    presence_sweep,
)
from trainer.play.models import LiveTable
from trainer.play.presenters import lead_note
from trainer.play.table_view import live_table

__all__ = [
    "LOOK_AGAIN_AFTER",
    "OPPONENT_SEATS",
    "SEED_LIMIT",
    "WATCHED_FOR",
    "Access",
    "LiveCoach",
    "LiveRefused",
    "LiveShown",
    "LiveUrls",
    "Present",
    "SeatLine",
    "Stall",
    "TeachingShown",
    "TooManyMoves",
    "TooManySockets",
    "bot_signals_of",
    "change_stamp",
    "coach_wanted",
    "dealt_at",
    "grace",
    "humans_of",
    "live_access",
    "live_act",
    "live_away",
    "live_begin",
    "live_coach",
    "live_context",
    "live_hand_over",
    "live_invite_revoke",
    "live_looked_on",
    "live_move",
    "live_seat_take",
    "live_shown",
    "live_table_open",
    "live_tables_for",
    "live_urls",
    "live_watchable",
    "may_host_to_watch",
    "presence_beat",
    "presence_close",
    "presence_expiry",
    "presence_open",
    "presence_stamp",
    "presence_sweep",
    "replay_live",
    "stamp_version",
    "table_by_invite",
]


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
    #: In the seat's side's last hand: make the hand, or keep the left-overs low.
    stakes: str | None = None


def coach_wanted(seats: Any) -> tuple[int, int]:
    """``(wanting, people)``: the people seated (not handed to a bot) and how many want the
    coach."""
    people = [s for s in seats if s.user_id is not None and not s.away]
    return sum(1 for s in people if s.coach), len(people)


@dataclass(frozen=True)
class TeachingShown:
    """A teaching table as one person sees it: paused or not, the moves the teacher last took
    back (while paused), the hand the teacher shows everyone, and whether this is the
    teacher (who gets the controls)."""

    paused: bool
    mine: bool
    taken: tuple[str, ...] = ()
    shown_seat: Seat | None = None
    shown_cards: tuple[Any, ...] = ()


def _teaching_shown(access: Access, engine: Any) -> TeachingShown | None:
    table = access.table
    if table.supervisor_id is None:
        return None
    game = table.game
    log = game.teaching if game is not None else []
    last = log[-1] if log else None
    taken = tuple(last["taken"]) if table.paused and last and last["kind"] == "take_back" else ()
    seat = Seat(table.shown_seat) if table.shown_seat else None
    cards: tuple[Any, ...] = ()
    if seat is not None and engine is not None and not engine.is_over():
        cards = tuple(engine.hands_now()[seat])
    return TeachingShown(
        paused=table.paused,
        mine=access.viewer == table.supervisor_id,
        taken=taken,
        shown_seat=seat if cards else None,
        shown_cards=cards,
    )


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
    #: A teaching table's state (None: not a teaching table).
    teaching: TeachingShown | None = None

    @property
    def watched(self) -> bool:
        return bool(self.watchers)


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
        stakes=coach_stakes(engine, access.seat) if coached and engine and access.seat else None,
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
        teaching=_teaching_shown(access, engine),
    )


@dataclass(frozen=True)
class LiveUrls:
    """Where a table's partial posts its moves, coach votes and deals, and its record."""

    act: str
    coach: str
    begin: str
    record: str
    hand_over: str
    teach: str


def live_urls(pk: int) -> LiveUrls:
    """Table ``pk``'s addresses."""
    return LiveUrls(
        *(
            reverse(f"play:live-{name}", args=[pk])
            for name in ("act", "coach", "begin", "record", "hand-over", "teach")
        )
    )


def live_context(shown: LiveShown) -> dict[str, Any]:
    """The template context of the table partial: the board (``tv``, the seats around the
    table as this seat or watcher sees them), the seat's cards as buttons (legal ones only are
    buttons), pass and "Play!" when allowed, and the table's addresses."""
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
        "tv": live_table(shown),
    }
