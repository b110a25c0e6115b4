"""Reads for duplicate sessions, each scoped to the person asking: a member sees the sessions
of their own clubs, their own pair's boards, and the ranking and travellers only once the
session has closed (no board's results before everyone's window is over).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from engine.duplicate.matchpoints import Result, Scorer, Standing
from engine.par import solve_deal
from engine.play import PlayTable
from trainer.duplicate.groups import Group, group_of, visible_q
from trainer.duplicate.models import ClubSession, SessionEntry, SessionPlay, SessionTable
from trainer.play.models import Game
from trainer.play.selectors import actions_of, setup_of


def sessions_of(*, group: Group) -> QuerySet[ClubSession]:
    if group.club is not None:
        return ClubSession.objects.filter(club=group.club)
    return ClubSession.objects.filter(classroom=group.classroom)


def session_get(*, user: User | AnonymousUser, pk: int) -> ClubSession | None:
    """The session ``pk`` if ``user`` belongs to its club or class, else None (a 404: a
    guessed id reveals nothing)."""
    if not user.is_authenticated:
        return None
    return (
        ClubSession.objects.select_related("club", "classroom")
        .filter(visible_q(user), pk=pk)
        .distinct()
        .first()
    )


def entry_of(*, session: ClubSession, user: User | AnonymousUser) -> SessionEntry | None:
    """The pair ``user`` plays in: as its member or its confirmed partner."""
    if not user.is_authenticated:
        return None
    return (
        SessionEntry.objects.filter(
            Q(player_id=user.pk) | Q(partner_id=user.pk, partner_confirmed=True), session=session
        )
        .select_related("player", "partner")
        .first()
    )


def invitation_for(*, session: ClubSession, user: User | AnonymousUser) -> SessionEntry | None:
    """A partnership waiting for ``user``'s answer."""
    if not user.is_authenticated:
        return None
    return (
        SessionEntry.objects.filter(session=session, partner_id=user.pk, partner_confirmed=False)
        .select_related("player")
        .first()
    )


def partner_choices(*, session: ClubSession, user: User) -> list[User]:
    """The group's members ``user`` may ask to partner them: not already in a pair."""
    taken = set(
        SessionEntry.objects.filter(session=session).values_list("player_id", flat=True)
    ) | set(
        SessionEntry.objects.filter(session=session, partner__isnull=False).values_list(
            "partner_id", flat=True
        )
    )
    allowed = group_of(session).member_ids() - taken - {user.pk}
    return list(User.objects.filter(pk__in=allowed).order_by("username"))


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
        BoardRow(n, str(session.board(n).dealer), plays.get(n))
        for n in range(1, session.boards + 1)
    ]


@dataclass(frozen=True)
class Played:
    """One counted result: the board, the pairs' numbers in the scorer (a daylong's bots are
    ``-pair``, a live session's bot pair 0), the points, and the deal's game."""

    board: int
    ns: int
    ew: int
    ns_points: int
    ew_points: int
    ns_hand: int
    game: Game
    ns_entry: SessionEntry | None
    ew_entry: SessionEntry | None


def _played(session: ClubSession) -> list[Played]:
    """The results that score: finished before the session closed."""
    window = {"finished_at__isnull": False, "finished_at__lt": session.closes_at}
    out: list[Played] = []
    if session.kind == ClubSession.Kind.LIVE:
        for t in SessionTable.objects.filter(session=session, **window).select_related(
            "ns__player", "ns__partner", "ew__player", "ew__partner", "live__game"
        ):
            assert t.ns_points is not None and t.ew_points is not None and t.live.game
            out.append(
                Played(
                    t.board,
                    t.ns.seat_number or 0 if t.ns else 0,
                    t.ew.seat_number or 0 if t.ew else 0,
                    t.ns_points,
                    t.ew_points,
                    t.ns_hand or 0,
                    t.live.game,
                    t.ns,
                    t.ew,
                )
            )
        return out
    for p in SessionPlay.objects.filter(entry__session=session, **window).select_related(
        "entry__player", "entry__partner", "game"
    ):
        assert p.ns_points is not None and p.ew_points is not None
        pair = p.entry.pair
        out.append(
            Played(
                p.board,
                pair,
                -pair,
                p.ns_points,
                p.ew_points,
                p.ns_hand or 0,
                p.game,
                p.entry,
                None,
            )
        )
    return out


def scorer_of(played: Sequence[Played], directions: dict[int, str] | None = None) -> Scorer:
    """The session's matchpoints, the results added in board and pair order."""
    scorer = Scorer(directions)
    for p in sorted(played, key=lambda p: (p.board, p.ns, p.ew)):
        scorer.add(Result(p.board, p.ns, p.ew, p.ns_points, p.ew_points))
    return scorer


@dataclass(frozen=True)
class RankRow:
    standing: Standing
    entry: SessionEntry


@dataclass(frozen=True)
class Results:
    ranking: list[RankRow]
    scorer: Scorer
    played: list[Played]


def _directions(session: ClubSession) -> dict[int, str]:
    """A Mitchell's directions (each ranked on its own); none for a Howell or a daylong."""
    moved = session.movement
    if not moved or moved["kind"] != "mitchell":
        return {}
    return {p: ("NS" if p <= moved["tables"] else "EW") for p in range(1, moved["pairs"] + 1)}


def _number(session: ClubSession, entry: SessionEntry) -> int:
    return (entry.seat_number or 0) if session.kind == ClubSession.Kind.LIVE else entry.pair


def results_of(*, session: ClubSession, now: datetime | None = None) -> Results | None:
    """The ranking once the session has closed; None before (nobody sees a result early)."""
    if not session.is_closed(now or timezone.now()):
        return None
    played = _played(session)
    scorer = scorer_of(played, _directions(session))
    entries = {
        _number(session, e): e
        for e in SessionEntry.objects.filter(session=session).select_related("player", "partner")
    }
    ranking = [RankRow(s, entries[s.pair]) for s in scorer.ranking() if s.pair in entries]
    return Results(ranking, scorer, played)


@dataclass(frozen=True)
class TravellerRow:
    played: Played
    ns_mp: float
    ew_mp: float
    vs_par: int


def traveller(
    *, results: Results, session: ClubSession, board: int
) -> tuple[list[TravellerRow], dict[str, int]]:
    """Every counted result on ``board`` (best for North-South first) with its matchpoints
    and North-South's points against par, and the board's par."""
    deal = session.board(board).deal(session.rule)
    par = {str(side): s.hand_score for side, s in solve_deal(deal).items()}
    by_pairs = {(p.ns, p.ew): p for p in results.played if p.board == board}
    rows = [
        TravellerRow(by_pairs[(r.ns, r.ew)], ns, ew, by_pairs[(r.ns, r.ew)].ns_hand - par["NS"])
        for r, ns, ew in results.scorer.traveller(board)
    ]
    rows.sort(key=lambda row: (-row.ns_mp, row.played.ns))
    return rows, par


def pair_names(entry: SessionEntry | None) -> str:
    """``"ann & bob"``, or one name and a bot (``"ann + bot"``), or ``"bots"``."""
    if entry is None:
        return "bots"
    if entry.partnered and entry.partner is not None:
        return f"{entry.player.username} & {entry.partner.username}"
    return f"{entry.player.username} + bot"


def results_csv(*, session: ClubSession, results: Results) -> str:
    """The ranking and every counted result, as CSV."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "direction", "pair", "players", "mp", "top", "percent", "boards"])
    for row in results.ranking:
        s = row.standing
        writer.writerow(
            [
                s.rank,
                s.direction or "",
                s.pair,
                pair_names(row.entry),
                s.mp,
                s.top,
                s.percent,
                s.boards,
            ]
        )
    writer.writerow([])
    writer.writerow(["board", "ns_pair", "ew_pair", "ns_points", "ew_points", "ns_mp", "ew_mp"])
    for board in range(1, session.boards + 1):
        for result, ns, ew in results.scorer.traveller(board):
            writer.writerow(
                [board, result.ns, result.ew, result.ns_points, result.ew_points, ns, ew]
            )
    return out.getvalue()


def pair_card(
    *, session: ClubSession, results: Results, entry: SessionEntry
) -> list[tuple[int, Played, float]]:
    """The pair's own boards with the matchpoints each earned (either direction)."""
    me = _number(session, entry)
    out = []
    for board in range(1, session.boards + 1):
        for result, ns, ew in results.scorer.traveller(board):
            if me in (result.ns, result.ew):
                played = next(
                    p
                    for p in results.played
                    if p.board == board and p.ns == result.ns and p.ew == result.ew
                )
                out.append((board, played, ns if result.ns == me else ew))
    return out


def history_of(*, user: User, group: Group) -> list[tuple[ClubSession, Standing | None]]:
    """``user``'s closed sessions in the group with their standing (None: no board counted)."""
    now = timezone.now()
    out = []
    for session in (
        sessions_of(group=group)
        .filter(
            Q(entries__player=user) | Q(entries__partner=user, entries__partner_confirmed=True),
            closes_at__lte=now,
        )
        .distinct()
    ):
        entry = entry_of(session=session, user=user)
        results = results_of(session=session, now=now)
        standing = None
        if results is not None and entry is not None:
            standing = next((r.standing for r in results.ranking if r.entry.pk == entry.pk), None)
        out.append((session, standing))
    return out


# -- Live sessions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableProgress:
    """A table's board as the director sees it: who plays, how far (no cards)."""

    row: SessionTable
    hands_played: int
    finished: bool


def round_tables(*, session: ClubSession, round_number: int | None = None) -> list[TableProgress]:
    """The tables of a round (the current one by default) and how far each has played."""
    number = round_number or session.current_round
    out = []
    for t in SessionTable.objects.filter(session=session, round=number).select_related(
        "ns__player", "ns__partner", "ew__player", "ew__partner", "live__game"
    ):
        game = t.live.game
        hands = 0
        if game is not None:
            engine = PlayTable.replay(setup_of(game), actions_of(game), frozenset())
            hands = len(engine.deal.played_hands)
        out.append(TableProgress(t, hands, t.finished_at is not None))
    return out


@dataclass(frozen=True)
class MyTable:
    row: SessionTable
    direction: str


def my_tables(*, session: ClubSession, entry: SessionEntry | None) -> list[MyTable]:
    """The pair's tables in the round in play: where it sits and which boards."""
    if entry is None or not session.current_round:
        return []
    rows = SessionTable.objects.filter(session=session, round=session.current_round).filter(
        Q(ns=entry) | Q(ew=entry)
    )
    return [MyTable(r, "NS" if r.ns_id == entry.pk else "EW") for r in rows]


def sits_out(*, session: ClubSession, entry: SessionEntry | None) -> bool:
    """Whether the pair has no table in the round in play."""
    if entry is None or not session.current_round or not session.movement:
        return False
    rnd = session.movement["rounds"][session.current_round - 1]
    return entry.seat_number in rnd["sitout"]


def round_ends_at(session: ClubSession) -> datetime | None:
    if session.round_started_at is None:
        return None
    return session.round_started_at + timedelta(minutes=session.round_minutes)
