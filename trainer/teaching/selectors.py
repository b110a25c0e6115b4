"""Reads of the teaching app: who may use a class's board sets, and the sets themselves."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet

from engine.cards import Card
from engine.game import DealState
from engine.seats import SEATS, Seat
from trainer.classes.models import ClassMembership, Classroom
from trainer.duplicate.groups import Group
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
        dealt = DealState.deal(board.dealer, random.Random(board.seed)).hands_dealt
        out.append(BoardHands(board, tuple((s, tuple(dealt[s])) for s in SEATS)))
    return out
