"""Reads of the teaching app: who may use a class's board sets, and the sets themselves."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet

from engine.cards import Card
from engine.game import DealState
from engine.seats import SEATS, Seat, Side
from trainer.classes.models import ClassMembership, Classroom
from trainer.duplicate.groups import Group
from trainer.duplicate.models import ClubSession, SessionEntry
from trainer.duplicate.selectors import Played, pair_card, pair_names, results_of
from trainer.play.pair_presenters import summary_of
from trainer.teaching.models import BoardSet, SetBoard


def taught_class(user: User, pk: int) -> Classroom | None:
    """The class ``pk`` when ``user`` teaches it (else None: the page is a 404)."""
    return Classroom.objects.filter(
        pk=pk, memberships__user_id=user.pk, memberships__role=ClassMembership.Role.TEACHER
    ).first()


def group_of_class(classroom: Classroom) -> Group:
    return Group(classroom=classroom)


def sets_of(classroom: Classroom) -> QuerySet[BoardSet]:
    return BoardSet.objects.filter(classroom=classroom)


@dataclass(frozen=True)
class BoardHands:
    """A set's board with the four hands it deals (for the teacher's page)."""

    board: SetBoard
    hands: tuple[tuple[Seat, tuple[Card, ...]], ...]


def set_boards(board_set: BoardSet) -> list[BoardHands]:
    out = []
    for board in board_set.boards.all():
        if board.hands is not None:
            dealt = DealState(board.dealer, board.hands).hands_dealt
        else:
            dealt = DealState.deal(board.dealer, random.Random(board.seed)).hands_dealt
        out.append(BoardHands(board, tuple((s, tuple(dealt[s])) for s in SEATS)))
    return out


@dataclass(frozen=True)
class PairLine:
    """One pair of a closed class session: its boards' matchpoints and its misreadings."""

    names: str
    percent: float | None
    #: Board by board (1, 2, …): (matchpoints, top), or None where the pair has no result.
    cells: list[tuple[float, float] | None]
    misread: tuple[tuple[str, int], ...]
    never_tried: tuple[str, ...]


@dataclass(frozen=True)
class Comparison:
    boards: list[int]
    pairs: list[PairLine]
    #: Items misread across the class, most first: (item, times).
    most_misread: list[tuple[str, int]]


def comparison(session: ClubSession) -> Comparison | None:
    """The class's pairs side by side on a closed session: each pair's matchpoints on each
    board and the signals its hands misread (None before the close)."""
    results = results_of(session=session)
    if results is None:
        return None
    tops: dict[int, float] = {}
    for board in range(1, session.boards + 1):
        count = len(results.scorer.traveller(board))
        tops[board] = 2.0 * (count - 1) if count > 1 else 0.0
    lines = []
    everyone: Counter[str] = Counter()
    for row in results.ranking:
        entry = row.entry
        card = pair_card(session=session, results=results, entry=entry)
        boards = {board: (mp, tops[board]) for board, _played, mp in card}
        games = [(p.game, _side_of(p, entry)) for _b, p, _mp in card]
        summary, _costly = summary_of(games, session.convention)
        everyone.update(dict(summary.misread))
        lines.append(
            PairLine(
                pair_names(entry),
                row.standing.percent,
                [boards.get(b) for b in range(1, session.boards + 1)],
                summary.misread,
                summary.never_tried,
            )
        )
    return Comparison(list(range(1, session.boards + 1)), lines, everyone.most_common())


def _side_of(played: Played, entry: SessionEntry) -> Side:
    """The side ``entry`` sat in the result (a daylong's pairs always North–South)."""
    return Side.EW if played.ew_entry is not None and played.ew_entry.pk == entry.pk else Side.NS


def class_session(classroom: Classroom, pk: int) -> ClubSession | None:
    return ClubSession.objects.filter(classroom=classroom, pk=pk).first()


def student_of(classroom: Classroom, user_pk: int) -> User | None:
    """A student of the class (None for anyone else)."""
    found = (
        ClassMembership.objects.filter(
            classroom=classroom, user_id=user_pk, role=ClassMembership.Role.STUDENT
        )
        .select_related("user")
        .first()
    )
    return found.user if found is not None else None
