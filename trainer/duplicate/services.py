"""Writes for duplicate sessions: creating one, entering it, starting a board, and recording
a board's result when its deal ends. Keyword-only and atomic; the engine deals and scores.

Refusals are :class:`SessionRefused` with a reason for the page (400); nothing is written.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from engine.duplicate.session import session_board
from engine.play import PlaySetup, PlayTable
from engine.scoring import get_rule
from engine.seats import Side
from trainer.clubs.models import Club, ClubMembership
from trainer.duplicate.models import ClubSession, SessionEntry, SessionPlay
from trainer.play.models import Game
from trainer.play.selectors import actions_of, setup_of
from trainer.play.services import game_start

#: Session seeds (each board's seed is drawn from it one way: ``session_board``).
SEED_MAX = 2**62
#: The partner of a member who enters alone, and the bots East-West at every table.
PARTNER = "strong"
OPPONENTS = "signal"
#: The longest window a daylong may have.
LONGEST_WINDOW = timedelta(days=14)
MOST_BOARDS = 36


class SessionRefused(Exception):
    """A request a session refuses (400), with a reason for the page; nothing was written."""


@transaction.atomic
def session_create(
    *,
    user: User,
    club: Club,
    title: str,
    boards: int,
    opens_at: datetime,
    closes_at: datetime,
    now: datetime | None = None,
) -> ClubSession:
    """A daylong for ``club`` on its house card and rule (``user`` must organise it)."""
    if not ClubMembership.objects.filter(
        club=club, user=user, role=ClubMembership.Role.ORGANISER
    ).exists():
        raise SessionRefused(gettext("Only the club's organisers can create a session."))
    now = now or timezone.now()
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
        title=title.strip() or gettext("Daylong"),
        seed=secrets.randbelow(SEED_MAX) + 1,
        boards=boards,
        rule=club.rule,
        convention=club.convention,
        opens_at=opens_at,
        closes_at=closes_at,
        created_by=user,
        created_at=now,
    )


@transaction.atomic
def session_enter(*, user: User, session: ClubSession, now: datetime | None = None) -> SessionEntry:
    """Enter ``user`` as a pair with the strong partner; a member enters once."""
    now = now or timezone.now()
    if not ClubMembership.objects.filter(club_id=session.club_id, user=user).exists():
        raise SessionRefused(gettext("Only the club's members can enter its sessions."))
    if session.is_closed(now):
        raise SessionRefused(gettext("This session has closed."))
    ClubSession.objects.select_for_update().get(pk=session.pk)  # one pair number at a time
    if SessionEntry.objects.filter(session=session, player=user).exists():
        raise SessionRefused(gettext("You have already entered this session."))
    last = SessionEntry.objects.filter(session=session).aggregate(m=Max("pair"))["m"] or 0
    try:
        with transaction.atomic():
            return SessionEntry.objects.create(
                session=session, player=user, pair=last + 1, created_at=now
            )
    except IntegrityError:
        raise SessionRefused(gettext("You have already entered this session.")) from None


def board_setup(session: ClubSession, number: int) -> PlaySetup:
    """The solo deal of board ``number``: the member South, the strong partner North, the same
    signalling bots East-West at every table, all on the session's card and rule."""
    board = session_board(session.seed, number)
    return PlaySetup(
        seed=board.seed,
        rule=get_rule(session.rule),
        convention=session.convention,
        opponents=OPPONENTS,
        opponents_convention=session.convention,
        partner=PARTNER,
        dealer=board.dealer,
    )


@transaction.atomic
def board_start(
    *, user: User, session: ClubSession, board: int, now: datetime | None = None
) -> Game:
    """The deal of board ``board`` for ``user``'s pair: started now, or the one already
    started (a pair plays each board once)."""
    now = now or timezone.now()
    entry = SessionEntry.objects.select_for_update().filter(session=session, player=user).first()
    if entry is None:
        raise SessionRefused(gettext("Enter the session before playing its boards."))
    if not 1 <= board <= session.boards:
        raise SessionRefused(
            gettext("This session has boards 1 to %(last)s.") % {"last": session.boards}
        )
    found = SessionPlay.objects.filter(entry=entry, board=board).select_related("game").first()
    if found is not None:
        return found.game
    if not session.is_open(now):
        raise SessionRefused(
            gettext("This session has closed.")
            if session.is_closed(now)
            else gettext("This session has not opened yet.")
        )
    game, _ = game_start(user=user, setup=board_setup(session, board), now=now)
    SessionPlay.objects.create(entry=entry, board=board, game=game)
    if game.is_finished:  # pragma: no cover - a deal always needs South
        play_record(game=game)
    return game


@transaction.atomic
def play_record(*, game: Game) -> SessionPlay | None:
    """Write the points of a session board whose deal has just ended (once). A deal finished
    after the session closed is kept as played but scores nothing."""
    play = (
        SessionPlay.objects.select_for_update()
        .select_related("entry__session")
        .filter(game=game, finished_at__isnull=True)
        .first()
    )
    if play is None or not game.is_finished or game.finished_at is None:
        return None
    table = PlayTable.replay(setup_of(game), actions_of(game))
    result = table.deals[0].result()
    play.ns_points, play.ew_points = result.scores[Side.NS], result.scores[Side.EW]
    play.ns_hand, play.ew_hand = result.hand_scores[Side.NS], result.hand_scores[Side.EW]
    play.finished_at = game.finished_at
    play.save(update_fields=["ns_points", "ew_points", "ns_hand", "ew_hand", "finished_at"])
    return play
