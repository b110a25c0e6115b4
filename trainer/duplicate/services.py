"""Writes for duplicate sessions: creating one, entering it, starting a board, and recording
a board's result when its deal ends. Keyword-only and atomic; the engine deals and scores.

Refusals are :class:`SessionRefused` with a reason for the page (400); nothing is written.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from engine.bots.signal import STRENGTHS, STRONG
from engine.duplicate.movement import KINDS, MovementError, movement
from engine.play import PlaySetup, PlayTable
from engine.scoring import SCORING_RULES, get_rule
from engine.seats import Seat, Side
from trainer.classes.models import Classroom
from trainer.clubs.models import Club
from trainer.duplicate.groups import Group, group_of
from trainer.duplicate.models import ClubSession, SessionEntry, SessionPlay, SessionTable
from trainer.play.live_services import LiveRefused, live_board_deal, live_bots_finish
from trainer.play.models import Game
from trainer.play.selectors import actions_of, setup_of
from trainer.play.services import game_start
from trainer.wording.errors import reason

#: Session seeds (each board's seed is drawn from it one way: ``session_board``).
SEED_MAX = 2**62
#: The partner of a member who enters alone, and the bots East-West at every table.
OPPONENTS = "signal"
#: The longest window a daylong may have; a live session is closed by its director, at the
#: latest this long after it starts.
LONGEST_WINDOW = timedelta(days=14)
LIVE_LONGEST = timedelta(hours=12)
MOST_BOARDS = 36


class SessionRefused(Exception):
    """A request a session refuses (400), with a reason for the page; nothing was written."""


@transaction.atomic
def session_create(
    *,
    user: User,
    club: Club | None = None,
    classroom: Classroom | None = None,
    title: str,
    boards: int,
    opens_at: datetime,
    closes_at: datetime | None = None,
    kind: str = ClubSession.Kind.DAYLONG,
    per_round: int = 2,
    round_minutes: int = 20,
    movement_kind: str = "auto",
    convention: str | None = None,
    rule: str | None = None,
    bots: str = STRONG,
    board_list: list[dict[str, object]] | None = None,
    now: datetime | None = None,
) -> ClubSession:
    """A session for ``club`` (or ``classroom``) on ``convention`` and ``rule`` (default: the
    club's house rules; a card the group may use, checked), created by one who directs the
    group's sessions (an organiser, a teacher): a daylong over a window, or a live session
    starting at ``opens_at`` (its boards follow from the movement when the director starts
    it; it closes when the director says). ``board_list``: boards a teacher chose (each
    ``{"seed", "dealer"}``): a daylong plays them all, a live session as many rounds as they
    fill."""
    group = Group(club, classroom)
    if not group.directs(user):
        raise SessionRefused(
            gettext("Only the club's organisers can create a session.")
            if club is not None
            else gettext("Only the class's teachers can create a session.")
        )
    now = now or timezone.now()
    convention = convention or group.default_convention
    rule = rule or group.default_rule
    if convention not in {name for name, _ in group.card_choices()}:
        raise SessionRefused(gettext("Choose one of the club's convention cards."))
    if rule not in SCORING_RULES:
        raise SessionRefused(gettext("There is no such scoring rule."))
    if bots not in STRENGTHS:
        raise SessionRefused(gettext("There is no such strength of bots."))
    if kind not in ClubSession.Kind.values:
        raise SessionRefused(gettext("There is no such kind of session."))
    if movement_kind not in KINDS:
        raise SessionRefused(gettext("There is no such movement."))
    if not 1 <= per_round <= 4 or not 5 <= round_minutes <= 90:
        raise SessionRefused(gettext("A round has 1 to 4 boards and lasts 5 to 90 minutes."))
    if board_list is not None:
        boards = len(board_list)
        if kind == ClubSession.Kind.LIVE and boards < per_round:
            raise SessionRefused(gettext("The set has fewer boards than a round plays."))
    if kind == ClubSession.Kind.LIVE:
        boards = per_round if board_list is None else len(board_list)
        closes_at = opens_at + LIVE_LONGEST
    if closes_at is None:
        raise SessionRefused(gettext("The session must close after it opens."))
    if not 1 <= boards <= MOST_BOARDS:
        raise SessionRefused(gettext("A session has 1 to %(most)s boards.") % {"most": MOST_BOARDS})
    if closes_at <= opens_at:
        raise SessionRefused(gettext("The session must close after it opens."))
    if closes_at <= now:
        raise SessionRefused(gettext("The session must close in the future."))
    if closes_at - opens_at > LONGEST_WINDOW:
        raise SessionRefused(gettext("A daylong lasts at most two weeks."))
    return ClubSession.objects.create(
        club=club,
        classroom=classroom,
        title=title.strip() or gettext("Club session"),
        seed=secrets.randbelow(SEED_MAX) + 1,
        boards=boards,
        rule=rule,
        convention=convention,
        bots=bots,
        opens_at=opens_at,
        closes_at=closes_at,
        created_by=user,
        created_at=now,
        kind=kind,
        per_round=per_round,
        round_minutes=round_minutes,
        movement_kind=movement_kind,
        board_list=board_list,
    )


def _in_a_pair(session: ClubSession, user: User) -> bool:
    return SessionEntry.objects.filter(
        Q(player=user) | Q(partner=user, partner_confirmed=True), session=session
    ).exists()


@transaction.atomic
def session_enter(
    *,
    user: User,
    session: ClubSession,
    partner: User | None = None,
    now: datetime | None = None,
) -> SessionEntry:
    """Enter ``user`` as a pair: with ``partner`` (a member of the club, who must confirm),
    or alone with a bot partner. A member is in one pair per session."""
    now = now or timezone.now()
    members = group_of(session).member_ids()
    if user.pk not in members:
        raise SessionRefused(gettext("Only the club's members can enter its sessions."))
    if session.is_closed(now) or session.movement is not None:
        raise SessionRefused(gettext("This session has closed to new pairs."))
    ClubSession.objects.select_for_update().get(pk=session.pk)  # one pair number at a time
    if _in_a_pair(session, user):
        raise SessionRefused(gettext("You have already entered this session."))
    if partner is not None:
        if partner.pk == user.pk or partner.pk not in members:
            raise SessionRefused(gettext("Your partner must be another member of the club."))
        if (
            _in_a_pair(session, partner)
            or SessionEntry.objects.filter(session=session, partner=partner).exists()
        ):
            raise SessionRefused(gettext("That member is already in a pair in this session."))
    last = SessionEntry.objects.filter(session=session).aggregate(m=Max("pair"))["m"] or 0
    try:
        with transaction.atomic():
            return SessionEntry.objects.create(
                session=session, player=user, partner=partner, pair=last + 1, created_at=now
            )
    except IntegrityError:
        raise SessionRefused(gettext("You have already entered this session.")) from None


@transaction.atomic
def partner_answer(*, user: User, entry: SessionEntry, accept: bool) -> SessionEntry:
    """The named partner confirms the pair, or declines (the member then plays alone)."""
    entry = SessionEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.partner_id != user.pk or entry.partner_confirmed:
        raise SessionRefused(gettext("There is no partnership waiting for your answer."))
    if accept and _in_a_pair(entry.session, user):
        raise SessionRefused(gettext("You have already entered this session."))
    if accept:
        entry.partner_confirmed = True
    else:
        entry.partner = None
    entry.save(update_fields=["partner", "partner_confirmed"])
    return entry


@transaction.atomic
def check_in(*, user: User, session: ClubSession, here: bool) -> SessionEntry:
    """A live session's pair says it is here (or not, any more) before the start."""
    entry = (
        SessionEntry.objects.select_for_update()
        .filter(Q(player=user) | Q(partner=user, partner_confirmed=True), session=session)
        .first()
    )
    if entry is None:
        raise SessionRefused(gettext("Enter the session first."))
    if session.movement is not None:
        raise SessionRefused(gettext("The session has started: the director has the field."))
    entry.here = here
    entry.save(update_fields=["here"])
    return entry


def board_setup(session: ClubSession, number: int) -> PlaySetup:
    """The solo deal of board ``number``: the member South, the partner North and the same
    signalling bots East-West at every table, all of the session's strength (``bots``) and on
    its card and rule."""
    board = session.board(number)
    return PlaySetup(
        seed=board.seed,
        rule=get_rule(session.rule),
        convention=session.convention,
        opponents=OPPONENTS,
        opponents_convention=session.convention,
        partner=session.bots,
        opponents_strength=session.bots,
        dealer=board.dealer,
        hands=board.hands,
    )


def pair_of(session: ClubSession, user: User) -> SessionEntry | None:
    """The pair ``user`` plays in: as its member, or as its confirmed partner."""
    return (
        SessionEntry.objects.filter(
            Q(player=user) | Q(partner=user, partner_confirmed=True), session=session
        )
        .select_related("player", "partner")
        .first()
    )


def _table_settings(session: ClubSession, number: int) -> dict[str, object]:
    """A live table's settings for board ``number`` (its seed travels apart: ``deal_seed``)."""
    setup = board_setup(session, number).to_json()
    setup.pop("seed")
    setup.pop("hands", None)  # (they travel apart too, as the table's ``deal_hands``)
    return setup


@transaction.atomic
def board_start(
    *, user: User, session: ClubSession, board: int, now: datetime | None = None
) -> SessionPlay:
    """Board ``board`` of a daylong for ``user``'s pair: started now, or the one already
    started (a pair plays each board once). A member alone plays it at the solo table; a
    partnership at a live table where both sit North-South."""
    now = now or timezone.now()
    entry = pair_of(session, user)
    if entry is None:
        raise SessionRefused(gettext("Enter the session before playing its boards."))
    if session.kind != ClubSession.Kind.DAYLONG:
        raise SessionRefused(gettext("The director seats the pairs of a live session."))
    if entry.partner_id is not None and not entry.partner_confirmed:
        raise SessionRefused(gettext("Your partner has not confirmed the partnership yet."))
    if not 1 <= board <= session.boards:
        raise SessionRefused(
            gettext("This session has boards 1 to %(last)s.") % {"last": session.boards}
        )
    SessionEntry.objects.select_for_update().get(pk=entry.pk)  # one start of a board at a time
    found = SessionPlay.objects.filter(entry=entry, board=board).select_related("game").first()
    if found is not None:
        return found
    if not session.is_open(now):
        raise SessionRefused(
            gettext("This session has closed.")
            if session.is_closed(now)
            else gettext("This session has not opened yet.")
        )
    if entry.partnered:
        assert entry.partner is not None
        table = live_board_deal(
            host=entry.player,
            settings=_table_settings(session, board),
            seed=session.board(board).seed,
            hands=session.board(board).hands,
            seated={Seat.S: entry.player, Seat.N: entry.partner},
            supervisor=session.created_by if session.classroom_id is not None else None,
        )
        assert table.game is not None
        return SessionPlay.objects.create(entry=entry, board=board, game=table.game, live=table)
    game, _ = game_start(user=user, setup=board_setup(session, board), now=now)
    return SessionPlay.objects.create(entry=entry, board=board, game=game)


@transaction.atomic
def play_record(*, game: Game) -> SessionPlay | SessionTable | None:
    """Write the points of a session board whose deal has just ended (once). A deal finished
    after the session closed is kept as played but scores nothing."""
    if not game.is_finished or game.finished_at is None:
        return None
    play: SessionPlay | SessionTable | None = (
        SessionPlay.objects.select_for_update().filter(game=game, finished_at__isnull=True).first()
    )
    if play is None and game.live:
        play = (
            SessionTable.objects.select_for_update()
            .filter(live__game=game, finished_at__isnull=True)
            .first()
        )
    if play is None:
        return None
    table = PlayTable.replay(setup_of(game), actions_of(game))
    result = table.deals[0].result()
    play.ns_points, play.ew_points = result.scores[Side.NS], result.scores[Side.EW]
    play.ns_hand, play.ew_hand = result.hand_scores[Side.NS], result.hand_scores[Side.EW]
    play.finished_at = game.finished_at
    play.save(update_fields=["ns_points", "ew_points", "ns_hand", "ew_hand", "finished_at"])
    return play


# -- Live sessions: the director's tools ---------------------------------------------------


def _director(session: ClubSession, user: User) -> None:
    if session.kind != ClubSession.Kind.LIVE:
        raise SessionRefused(gettext("Only a live session has a director."))
    if not group_of(session).directs(user):
        raise SessionRefused(gettext("Only the club's organisers direct its sessions."))


@transaction.atomic
def session_start(*, by: User, session: ClubSession, now: datetime | None = None) -> ClubSession:
    """Fix the field: the pairs here (a pair whose partner has not confirmed plays with a
    bot), numbered in the order they entered, and their movement (an odd field meets a bot
    pair). The boards follow from it."""
    _director(session, by)
    now = now or timezone.now()
    session = ClubSession.objects.select_for_update().get(pk=session.pk)
    if session.movement is not None:
        raise SessionRefused(gettext("The session has started already."))
    if now < session.opens_at:
        raise SessionRefused(gettext("This session has not opened yet."))
    here = list(SessionEntry.objects.filter(session=session, here=True).order_by("pair"))
    try:
        moved = movement(
            len(here),
            boards=None,
            kind=session.movement_kind,
            fill="bot",
            rounds=None,
        )
        rounds = len(moved.rounds)
        if session.board_list is not None:  # as many rounds as the chosen boards fill
            rounds = min(rounds, len(session.board_list) // session.per_round)
        moved = movement(
            len(here),
            boards=session.per_round * rounds,
            kind=session.movement_kind,
            fill="bot",
            rounds=rounds if rounds < len(moved.rounds) else None,
        )
    except MovementError as exc:
        raise SessionRefused(str(reason(exc))) from None
    for number, entry in enumerate(here, start=1):
        entry.seat_number = number
        entry.save(update_fields=["seat_number"])
    SessionEntry.objects.filter(session=session, here=False).delete()
    session.movement = moved.to_json()
    session.boards = moved.boards
    session.save(update_fields=["movement", "boards"])
    return session


def _seating(entry: SessionEntry | None, side: tuple[Seat, Seat]) -> dict[Seat, User]:
    """The people of a pair at its two seats (the member first); empty seats are bots."""
    if entry is None:
        return {}
    seats = {side[0]: entry.player}
    if entry.partnered:
        assert entry.partner is not None
        seats[side[1]] = entry.partner
    return seats


@transaction.atomic
def round_start(*, by: User, session: ClubSession, now: datetime | None = None) -> ClubSession:
    """Start the next round: a live table for each of its boards at each table, the pairs
    seated by the movement (bots in empty seats), dealt at once."""
    _director(session, by)
    now = now or timezone.now()
    session = ClubSession.objects.select_for_update().get(pk=session.pk)
    if session.movement is None:
        raise SessionRefused(gettext("Start the session first."))
    if session.is_closed(now):
        raise SessionRefused(gettext("This session has closed."))
    rounds = session.movement["rounds"]
    if session.current_round >= len(rounds):
        raise SessionRefused(gettext("Every round has been played: close the session."))
    number = session.current_round + 1
    by_seat = {
        e.seat_number: e
        for e in SessionEntry.objects.filter(session=session).select_related("player", "partner")
    }
    for table in rounds[number - 1]["tables"]:
        ns, ew = by_seat.get(table["ns"]), by_seat.get(table["ew"])
        people = _seating(ns, (Seat.S, Seat.N)) | _seating(ew, (Seat.E, Seat.W))
        for board in table["boards"]:
            live = live_board_deal(
                host=by,
                settings=_table_settings(session, board),
                seed=session.board(board).seed,
                hands=session.board(board).hands,
                seated=people,
                supervisor=by if session.classroom_id is not None else None,
            )
            SessionTable.objects.create(
                session=session,
                round=number,
                table=table["table"],
                board=board,
                ns=ns,
                ew=ew,
                live=live,
            )
    session.current_round = number
    session.round_started_at = now
    session.save(update_fields=["current_round", "round_started_at"])
    return session


@transaction.atomic
def bots_finish(*, by: User, session: ClubSession, table: SessionTable) -> SessionTable:
    """A late board: the bots play every seat to the end, on the director's word."""
    _director(session, by)
    if table.session_id != session.pk:
        raise SessionRefused(gettext("That table is not in this session."))
    try:
        live_bots_finish(pk=table.live_id, by=table.live.host)
    except LiveRefused as exc:
        raise SessionRefused(str(exc)) from None
    table.refresh_from_db()
    return table


@transaction.atomic
def session_close(*, by: User, session: ClubSession, now: datetime | None = None) -> ClubSession:
    """The director ends the session: results and travellers are shown from now on. A
    board still in play then scores nothing."""
    _director(session, by)
    now = now or timezone.now()
    if session.is_closed(now):
        raise SessionRefused(gettext("This session has closed."))
    if now <= session.opens_at:
        raise SessionRefused(gettext("This session has not opened yet."))
    session.closes_at = now
    session.save(update_fields=["closes_at"])
    return session
