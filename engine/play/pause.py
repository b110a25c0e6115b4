"""Where the table stops for the learner: the end of each hand of the learner's side.

After the learner acts, the bots play on until the learner's next turn, which often takes in
the end of the learner's hand, the whole of the other side's next hand and partner's lead in
the hand after. A page that showed all of it at once would replace the summary of the
learner's own hand before it could be read, so the table *pauses* at the end of each hand led
by the learner's side (the hands whose signal the learner gave or was asked to read): the page
shows the table as it stood when that hand ended, with the hand's :class:`HandSummary`, until
the learner goes on. That holds when the learner's last card ends the deal too: the bots may
play out the deal's last hands on their own, and the learner's hand is still paused on before
them. Only the record's very last hand is never paused on: the result shows it; and a table
that is over, looked at again later (no steps to show), shows its result at once.

Nothing here is stored. Where each hand ended is read from the table's deals; the page tells
how far into the record the learner has already gone on (``seen``, a record length); and the
learner's own action always goes past every hand that ended before it.

Everything a :class:`Paused` holds is built from the record up to a point the learner has
reached, so it shows no card the learner cannot see at that point (see ``docs/play.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.game import Action
from engine.messages import Msg, Text
from engine.play.setup import LEARNER, IllegalPlay, PlaySetup, reason
from engine.play.summary import HandSummary
from engine.play.table import PlayTable, Step
from engine.seats import Seat, Side

__all__ = ["HandEnd", "Paused", "hand_ends", "last_turn", "page_table", "pause_at", "paused"]


@dataclass(frozen=True, slots=True)
class HandEnd:
    """A finished hand's place in the record: ``at`` is how many actions the record held once
    the hand was over (its last action is ``actions[at - 1]``). ``leader`` is the seat whose
    turn it was to lead, ``side`` its side."""

    deal_number: int
    hand_number: int
    leader: Seat
    side: Side
    at: int


@dataclass(frozen=True, slots=True)
class Paused:
    """What a page shows of a table that may pause.

    ``table`` is the record's table, or, when the page pauses, the table as it stood when the
    paused hand ended (replayed up to there: it holds nothing later); ``steps`` are the actions
    to show one by one, up to there; ``pause`` is the hand paused on (None: no pause) and
    ``summary`` its summary.
    """

    table: PlayTable
    steps: tuple[Step, ...]
    pause: HandEnd | None = None
    summary: HandSummary | None = None


def hand_ends(table: PlayTable) -> tuple[HandEnd, ...]:
    """Every finished hand of every deal, in play order, with where it ended in the record."""
    out: list[HandEnd] = []
    at = 0
    for number, deal in enumerate(table.deals, start=1):
        for hand in deal.played_hands:
            at += len(hand.actions)
            out.append(
                HandEnd(
                    deal_number=number,
                    hand_number=hand.number,
                    leader=hand.leader,
                    side=hand.side,
                    at=at,
                )
            )
        at += len(deal.current_actions)
    return tuple(out)


def last_turn(table: PlayTable, seat: Seat = LEARNER) -> int:
    """How many actions the record held before ``seat``'s last action (-1: none yet)."""
    found = -1
    at = 0
    for deal in table.deals:
        for hand in deal.played_hands:
            for who, _action in hand.actions:
                if who is seat:
                    found = at
                at += 1
        for who, _action in deal.current_actions:
            if who is seat:
                found = at
            at += 1
    return found


def pause_at(table: PlayTable, *, seen: int = 0, seat: Seat = LEARNER) -> HandEnd | None:
    """The finished hand the table pauses on: the first hand led by ``seat``'s side that ended
    after ``seat``'s last action and after the first ``seen`` actions of the record (where the
    learner last went on). None when there is none; never the last hand of a table that is
    over (the result shows it)."""
    mark = max(seen, last_turn(table, seat))
    ends = hand_ends(table)
    last = len(table.actions) if table.is_over() else None
    for end in ends:
        if end.at > mark and end.side is seat.side and end.at != last:
            return end
    return None


def _until(table: PlayTable, end: HandEnd) -> PlayTable:
    """The table as it stood when ``end``'s hand was over (the record replayed up to there)."""
    return PlayTable.replay(
        table.setup,
        table.actions[: end.at],
        table.humans,
        away=table.away,
        bot_signals=table.bot_signals,
    )


def paused(
    table: PlayTable, steps: Sequence[Step] = (), *, seen: int = 0, seat: Seat = LEARNER
) -> Paused:
    """``table`` and the ``steps`` that brought it to where it is (the record's last actions,
    e.g. what :meth:`PlayTable.act` returned), cut at the hand it pauses on, if any. A table
    that is over pauses only on the way to its end (with ``steps``): looked at again later, it
    shows its result."""
    if table.is_over() and not steps:
        return Paused(table, tuple(steps))
    end = pause_at(table, seen=seen, seat=seat)
    if end is None:
        return Paused(table, tuple(steps))
    first = len(table.actions) - len(steps)
    kept = tuple(steps[: max(0, end.at - first)])
    summary = table.hand_summary(end.hand_number, end.deal_number)
    return Paused(_until(table, end), kept, end, summary)


def page_table(
    setup: PlaySetup,
    actions: Sequence[Action],
    *,
    start: int | None = None,
    seen: int = 0,
    pausing: bool = True,
    seat: Seat = LEARNER,
) -> Paused:
    """The table of a record as a page shows it: replayed, the actions from the ``start``-th
    on as steps, and, when ``pausing``, cut at the hand it pauses on (see :func:`paused`).

    ``start`` names where the page last stood: 0 (the bots' first moves), an action of
    ``seat``'s, or the end of a hand (where the page paused); any other number shows no steps.
    Raises :class:`~engine.play.setup.IllegalPlay` when the record does not replay.
    """
    table = PlayTable(setup, frozenset({seat}))
    everything: list[Step] = []
    ends: set[int] = set()
    for number, action in enumerate(actions):
        try:
            step = table.apply(action, summarise=start is not None and number >= start)
        except IllegalPlay as exc:  # as PlayTable.replay names it
            raise IllegalPlay(
                Msg(
                    "error.play.record_action",
                    number=number + 1,
                    action=Text(repr(str(action))),
                    reason=reason(exc),
                )
            ) from None
        everything.append(step)
        if step.hand_finished:
            ends.add(number + 1)
    steps: tuple[Step, ...] = ()
    if start is not None and 0 <= start < len(everything):
        mover = everything[start].seat
        if start == 0 or mover is seat or start in ends:
            steps = tuple(everything[start:])
    if not pausing:
        return Paused(table, steps)
    return paused(table, steps, seen=seen, seat=seat)
