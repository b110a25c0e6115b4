"""Reads for duplicate sessions, each scoped to the person asking: a member sees the sessions
of their own clubs, their own pair's boards, and the ranking and travellers only once the
session has closed (no board's results before everyone's window is over).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils import timezone

from engine.duplicate.matchpoints import Result, Scorer, Standing
from engine.duplicate.session import session_board
from engine.par import solve_deal
from engine.seats import Side
from trainer.clubs.models import Club, ClubMembership
from trainer.duplicate.models import ClubSession, SessionEntry, SessionPlay


def membership_of(*, user: User | AnonymousUser, club: Club) -> ClubMembership | None:
    if not user.is_authenticated:
        return None
    return ClubMembership.objects.filter(club=club, user_id=user.pk).first()


def sessions_of(*, club: Club) -> QuerySet[ClubSession]:
    return ClubSession.objects.filter(club=club)


def session_get(*, user: User | AnonymousUser, pk: int) -> ClubSession | None:
    """The session ``pk`` if ``user`` belongs to its club, else None (a 404: a guessed id
    reveals nothing)."""
    if not user.is_authenticated:
        return None
    return (
        ClubSession.objects.select_related("club")
        .filter(pk=pk, club__memberships__user_id=user.pk)
        .first()
    )


def entry_of(*, session: ClubSession, user: User | AnonymousUser) -> SessionEntry | None:
    if not user.is_authenticated:
        return None
    return SessionEntry.objects.filter(session=session, player_id=user.pk).first()


@dataclass(frozen=True)
class BoardRow:
    number: int
    dealer: str
    play: SessionPlay | None

    @property
    def state(self) -> str:
        if self.play is None:
            return "new"
        return "played" if self.play.is_finished else "playing"


def board_rows(*, session: ClubSession, entry: SessionEntry | None) -> list[BoardRow]:
    """Each board of the session with the pair's play of it, if any."""
    plays = {p.board: p for p in entry.plays.all()} if entry is not None else {}
    return [
        BoardRow(n, str(session_board(session.seed, n).dealer), plays.get(n))
        for n in range(1, session.boards + 1)
    ]


def _counted(session: ClubSession) -> QuerySet[SessionPlay]:
    """The plays that score: finished before the session closed."""
    return SessionPlay.objects.filter(
        entry__session=session, finished_at__isnull=False, finished_at__lt=session.closes_at
    ).select_related("entry__player", "game")


def scorer_of(plays: Sequence[SessionPlay]) -> Scorer:
    """The session's matchpoints: every pair sat North-South against the same bots, so each
    pair's bots stand in as pair ``-pair``."""
    scorer = Scorer()
    for play in sorted(plays, key=lambda p: (p.board, p.entry.pair)):
        assert play.ns_points is not None and play.ew_points is not None
        pair = play.entry.pair
        scorer.add(Result(play.board, pair, -pair, play.ns_points, play.ew_points))
    return scorer


@dataclass(frozen=True)
class RankRow:
    standing: Standing
    entry: SessionEntry


@dataclass(frozen=True)
class Results:
    ranking: list[RankRow]
    scorer: Scorer
    plays: list[SessionPlay]


def results_of(*, session: ClubSession, now: datetime | None = None) -> Results | None:
    """The ranking once the session has closed; None before (nobody sees a result early)."""
    if not session.is_closed(now or timezone.now()):
        return None
    plays = list(_counted(session))
    scorer = scorer_of(plays)
    entries = {
        e.pair: e for e in SessionEntry.objects.filter(session=session).select_related("player")
    }
    ranking = [RankRow(s, entries[s.pair]) for s in scorer.ranking()]
    return Results(ranking, scorer, plays)


@dataclass(frozen=True)
class TravellerRow:
    play: SessionPlay
    ns_mp: float
    ew_mp: float
    vs_par: int


def traveller(
    *, results: Results, session: ClubSession, board: int
) -> tuple[list[TravellerRow], dict[str, int]]:
    """Every counted result on ``board`` (best first) with its matchpoints and points against
    par, and the board's par."""
    deal = session_board(session.seed, board).deal(session.rule)
    par = {str(side): s.hand_score for side, s in solve_deal(deal).items()}
    by_pair = {p.entry.pair: p for p in results.plays if p.board == board}
    rows = [
        TravellerRow(by_pair[r.ns], ns, ew, int(by_pair[r.ns].ns_hand or 0) - par[str(Side.NS)])
        for r, ns, ew in results.scorer.traveller(board)
    ]
    rows.sort(key=lambda row: (-row.ns_mp, row.play.entry.pair))
    return rows, par


def results_csv(*, session: ClubSession, results: Results) -> str:
    """The ranking and every counted result, as CSV."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "pair", "player", "partner", "mp", "top", "percent", "boards"])
    for row in results.ranking:
        s = row.standing
        writer.writerow(
            [
                s.rank,
                s.pair,
                row.entry.player.username,
                "strong bot",
                s.mp,
                s.top,
                s.percent,
                s.boards,
            ]
        )
    writer.writerow([])
    writer.writerow(["board", "pair", "ns_points", "ew_points", "ns_mp", "ew_mp"])
    for board in range(1, session.boards + 1):
        for result, ns, ew in results.scorer.traveller(board):
            writer.writerow([board, result.ns, result.ns_points, result.ew_points, ns, ew])
    return out.getvalue()


def pair_card(*, results: Results, entry: SessionEntry) -> list[tuple[int, SessionPlay, float]]:
    """The pair's own boards with the matchpoints each earned."""
    out = []
    mine = {p.board: p for p in results.plays if p.entry_id == entry.pk}
    for board, play in sorted(mine.items()):
        for result, ns, _ in results.scorer.traveller(board):
            if result.ns == entry.pair:
                out.append((board, play, ns))
    return out


def history_of(*, user: User, club: Club) -> list[tuple[ClubSession, Standing | None]]:
    """``user``'s closed sessions in ``club`` with their standing (None: no board counted)."""
    now = timezone.now()
    out = []
    for entry in SessionEntry.objects.filter(
        player=user, session__club=club, session__closes_at__lte=now
    ).select_related("session"):
        results = results_of(session=entry.session, now=now)
        standing = (
            next((r.standing for r in results.ranking if r.entry.pk == entry.pk), None)
            if results
            else None
        )
        out.append((entry.session, standing))
    return out
