"""A teaching table: its teacher (``LiveTable.supervisor``) pauses it, takes the moves of the
hand back, shows one seat's hand to everyone, and goes on. Nobody else may.

Everything is kept in the deal's record, ``Game.teaching``: each pause and resume, each
take-back with the moves it took (so the replay shows what was played before), each hand shown
with its cards. The rest of the record stays what the engine replays: after a take-back,
``Game.actions`` are the moves that stand.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from engine.play import PlayTable
from engine.play.pause import hand_ends
from engine.seats import Seat
from trainer.play.live_selectors import _away, _kept_table, humans_of, replay_live
from trainer.play.live_services import (
    LiveRefused,
    _bots_play_on,
    _bump,
    _keep_for_reading,
    _locked_with_game,
)
from trainer.play.models import Game, LiveTable, hand_of_key

__all__ = ["hand_start", "live_pause", "live_show", "live_take_back"]


def _teaching(pk: int, by: User) -> tuple[LiveTable, Game]:
    """The table (locked) and its deal in play, when ``by`` is its teacher."""
    table = _locked_with_game(pk)
    if table.supervisor_id is None or table.supervisor_id != by.pk:
        raise LiveRefused(gettext("Only the table's teacher can do that."))
    if table.status != LiveTable.Status.PLAYING or table.game is None:
        raise LiveRefused(gettext("No deal is in play at this table."))
    return table, table.game


def _log(game: Game, by: User, kind: str, **fields: Any) -> None:
    game.teaching = [
        *game.teaching,
        {"kind": kind, "at": len(game.actions), "by": by.get_username(),
         "when": timezone.now().isoformat(), **fields},
    ]  # fmt: skip


@transaction.atomic
def live_pause(*, pk: int, by: User, paused: bool) -> LiveTable:
    """Pause the table (no move is taken and no bot plays) or go on (the bots play on to a
    person's turn)."""
    table, game = _teaching(pk, by)
    if table.paused == paused:
        raise LiveRefused(
            gettext("The table is paused already.")
            if paused
            else gettext("The table is not paused.")
        )
    _log(game, by, "pause" if paused else "resume")
    game.save(update_fields=["teaching"])
    table.paused = paused
    table.shown_seat = ""
    table.save(update_fields=["paused", "shown_seat"])
    if not paused:
        _bots_play_on(table)
    _bump(table)
    return table


def hand_start(engine: PlayTable) -> tuple[int, int, int]:
    """Where a take-back goes: ``(at, deal, hand)``, the record's length when the current hand
    of the current deal began, or, when it has no move yet, when the hand before it began."""
    deal = len(engine.deals)
    ends = [e for e in hand_ends(engine) if e.deal_number == deal]
    earlier = [e.at for e in hand_ends(engine) if e.deal_number < deal]
    deal_start = earlier[-1] if earlier else 0
    starts = [deal_start, *(e.at for e in ends)]
    hand = len(ends) + 1
    at = starts[-1]
    if at == len(engine.actions) and len(starts) > 1:  # the hand has not begun: the one before
        at, hand = starts[-2], hand - 1
    return at, deal, hand


@transaction.atomic
def live_take_back(*, pk: int, by: User) -> LiveTable:
    """Take back every move of the current hand (the table pauses: the teacher goes on when
    the class has looked). The moves taken are logged; the record keeps the ones that stand."""
    table, game = _teaching(pk, by)
    seats = tuple(table.seats.all())
    engine = _kept_table(game, humans_of(table, seats), _away(seats))  # (read only)
    at, deal, hand = hand_start(engine)
    if at >= len(game.actions):
        raise LiveRefused(gettext("There is no move to take back in this hand."))
    _log(game, by, "take_back", to=at, deal=deal, hand=hand, taken=list(game.actions[at:]))
    game.actions = list(game.actions[:at])
    game.version = at
    game.helped = [k for k in game.helped if hand_of_key(k) < (deal, hand)]
    game.updated_at = timezone.now()
    game.save(update_fields=["actions", "version", "helped", "teaching", "updated_at"])
    table.paused = True
    table.shown_seat = ""
    table.save(update_fields=["paused", "shown_seat"])
    _bump(table)
    rebuilt = replay_live(game, humans_of(table, seats), _away(seats))
    transaction.on_commit(lambda: _keep_for_reading(game, rebuilt))
    return table


@transaction.atomic
def live_show(*, pk: int, by: User, seat: Seat | None) -> LiveTable:
    """Show ``seat``'s cards to everyone at the table until the next move (None: hide them
    again). A hand shown is logged with its cards."""
    table, game = _teaching(pk, by)
    if seat is not None:
        seats = tuple(table.seats.all())
        held = _kept_table(game, humans_of(table, seats), _away(seats)).hands_now()[seat]
        _log(game, by, "show", seat=str(seat), cards=[str(c) for c in held])
        game.save(update_fields=["teaching"])
    table.shown_seat = "" if seat is None else str(seat)
    table.save(update_fields=["shown_seat"])
    _bump(table)
    return table
