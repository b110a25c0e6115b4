"""Writes of the teaching app: a board set saved from a search, and a set dealt to the class.

A set is saved by running the teacher's search again (it is deterministic) and keeping the
boards picked by their places in it, so a tampered post can pick only boards the search found.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from engine.cards import Card
from engine.game import DealState
from engine.seats import SEATS, Seat
from engine.signals import encode, get_convention
from engine.teaching.boards import BoardQuery, BoardSearchError, find_boards
from trainer.classes.models import Classroom
from trainer.duplicate import services as sessions
from trainer.duplicate.models import ClubSession
from trainer.teaching.models import BoardSet, SetBoard
from trainer.teaching.selectors import group_of_class
from trainer.wording.errors import reason

#: Seeds of boards entered by hand (they seed the bots only).
BOARD_SEED_LIMIT = 2**62


class SetRefused(Exception):
    """A request refused with a reason for the page (400); nothing was written."""


def _teacher(classroom: Classroom, user: User) -> None:
    if not group_of_class(classroom).directs(user):
        raise SetRefused(gettext("Only the class's teachers choose its boards."))


def search(query: BoardQuery, count: int, seed: int) -> Any:
    """The boards a search finds, or :class:`SetRefused` with the engine's reason."""
    try:
        return find_boards(query, count, seed)
    except BoardSearchError as exc:
        raise SetRefused(str(reason(exc))) from None


@transaction.atomic
def set_create(
    *,
    by: User,
    classroom: Classroom,
    title: str,
    query: BoardQuery,
    asked: dict[str, Any],
    count: int,
    seed: int,
    picks: list[int],
) -> BoardSet:
    """A set of the boards at places ``picks`` of the search (``query``, ``count``, ``seed``),
    in the order picked."""
    _teacher(classroom, by)
    if not title.strip():
        raise SetRefused(gettext("Name the set."))
    if query.convention.name not in {n for n, _ in group_of_class(classroom).card_choices()}:
        raise SetRefused(gettext("Choose one of the class's convention cards."))
    found = search(query, count, seed).boards
    if not picks or len(set(picks)) != len(picks) or not all(0 <= p < len(found) for p in picks):
        raise SetRefused(gettext("Pick boards the search found."))
    board_set = BoardSet.objects.create(
        classroom=classroom,
        title=title.strip(),
        convention=query.convention.name,
        query={**asked, "seed": seed, "count": count},
        created_by=by,
    )
    SetBoard.objects.bulk_create(
        SetBoard(
            board_set=board_set,
            number=number,
            seed=found[p].seed,
            dealer=str(found[p].dealer),
            seat=str(found[p].seat),
            item=found[p].item,
            shape=found[p].shape or "",
            lead=" ".join("pass" if c is None else str(c) for c in found[p].lead),
        )
        for number, p in enumerate(picks, start=1)
    )
    return board_set


def set_deal(*, by: User, board_set: BoardSet, opens_at: datetime, **session: Any) -> ClubSession:
    """A session of the class on the set's boards, every table dealt the same ones."""
    _teacher(board_set.classroom, by)
    for fixed in ("boards", "convention"):  # the set's (the session form's defaults aside)
        session.pop(fixed, None)
    boards = [
        {"seed": b.seed, "dealer": b.dealer} | ({} if b.hands is None else {"hands": b.hands})
        for b in board_set.boards.all()
    ]
    try:
        return sessions.session_create(
            user=by,
            classroom=board_set.classroom,
            convention=board_set.convention,
            board_list=boards,
            boards=len(boards),
            opens_at=opens_at,
            **session,
        )
    except sessions.SessionRefused as exc:
        raise SetRefused(str(exc)) from None


@transaction.atomic
def board_add(
    *, by: User, board_set: BoardSet, dealer: Seat, hands: dict[Seat, tuple[Card, ...]]
) -> SetBoard:
    """A board entered by hand (checked: 13 different cards a seat, 52 in all), added as the
    set's next board; its seed (fresh) only seeds the bots."""
    _teacher(board_set.classroom, by)
    BoardSet.objects.select_for_update().get(pk=board_set.pk)
    deal = DealState(dealer, hands)  # the engine checks the cards
    leader = dealer.after(1)
    enc = encode(deal.hands_dealt[leader], 1, get_convention(board_set.convention))
    lead = " ".join("pass" if c is None else str(c) for c in enc.preferred or ())
    return SetBoard.objects.create(
        board_set=board_set,
        number=board_set.boards.count() + 1,
        seed=secrets.randbelow(BOARD_SEED_LIMIT),
        dealer=str(dealer),
        seat=str(leader),
        item=str(enc.item),
        shape=enc.shape or "",
        lead=lead,
        hands={str(s): [str(c) for c in deal.hands_dealt[s]] for s in SEATS},
    )


@transaction.atomic
def set_delete(*, by: User, board_set: BoardSet) -> None:
    _teacher(board_set.classroom, by)
    board_set.delete()
