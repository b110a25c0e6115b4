"""One table as one seat, or a watcher, sees it: the view model both tables draw.

The solo table (a learner and three bots) and the live table (two to four people) show the same
thing: four seats around the table, each with its name, who plays it (a bot, a person, the
reader) and, where people play, whether they are connected; the hands each seat led, face up;
the current hand in the middle; and the hand log. :class:`TableView` holds that, built by
:func:`solo_table` from what the solo presenter reads of South's view and by :func:`live_table`
from a live table's shown state; ``templates/play/_table_view.html`` draws it for both.

Nothing here sees more than the view it is built from: a seat's own cards are not part of the
board (each table draws them in its own form), and the other seats' cards (``held``) are given
only to a watcher, who is shown every hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext, ngettext, pgettext

from engine.cards import Card, sort_cards
from engine.game import Action, ActionKind
from engine.messages import terms
from engine.play import ShownHand
from engine.play import TableView as EngineView
from engine.seats import SEATS, Seat
from trainer.wording.render import term

#: Where each seat sits on the board (the stylesheet's grid areas).
POSITIONS = {"N": "play-north", "E": "play-east", "S": "play-south-hands", "W": "play-west"}
#: The seats in the board's reading order: North, West, (the middle), East, South.
BOARD_ORDER = ("N", "W", "E", "S")
#: The partials that draw the middle of each table (the current hand, whose turn, a pause).
SOLO_CENTRE = "play/table.html#centre"
LIVE_CENTRE = "play/live/_table.html#centre"


def seat_name(seat: Seat | str) -> str:
    """A seat's name in the active language (``Seat.N`` or its letter → North)."""
    english = terms()["seat"].get(str(seat))
    return str(seat) if english is None else term("seat", english)


def side_name(side: str) -> str:
    """A side's short name in the active language (``NS`` → N–S)."""
    english = terms()["side"].get(side)
    return side if english is None else term("side", english)


def combination_name(key: str) -> str:
    """A combination's name in lower case in the active language (unknown: the key)."""
    english = terms().get("combo_lower", {}).get(key)
    return key if english is None else term("combo_lower", english)


@dataclass(frozen=True)
class Played:
    """One action shown on the table: a card, a pass or a force, by a seat; ``delay``: the
    step (``d1`` … CSS class) at which the solo table shows it (0: at once)."""

    seat: Seat
    action: Action
    delay: int = 0

    @property
    def card(self) -> Card | None:
        return self.action.card

    @property
    def seat_name(self) -> str:
        return seat_name(self.seat)

    @property
    def word(self) -> str:
        if self.action.kind is ActionKind.PASS:
            return pgettext("the call", "Pass")
        if self.action.kind is ActionKind.FORCE:
            return pgettext("the call", "Play!")
        return ""


@dataclass(frozen=True)
class SeatHand:
    """A finished hand, face up beside the seat that led it."""

    number: int
    leader: str
    side: str
    #: Who played each card (the seat's letter, which the template writes as the
    #: ``seat_short`` term: ``N`` in English, 北 in Japanese) and the card.
    cards: tuple[tuple[str, Card], ...]
    combination: str
    points: int
    side_name: str
    delay: int = 0

    @classmethod
    def of(cls, hand: ShownHand, side_name: str, delay: int = 0) -> SeatHand:
        """A hand the engine shows (``TableView.completed``), its side named ``side_name``."""
        return cls(
            number=hand.number,
            leader=str(hand.leader),
            side=str(hand.side),
            cards=tuple((str(seat), c) for seat, c in hand.cards),
            combination=hand.combination,
            points=hand.points,
            side_name=side_name,
            delay=delay,
        )

    @property
    def combination_text(self) -> str:
        return combination_name(self.combination)


@dataclass(frozen=True)
class SeatView:
    """One seat as the reader sees it: its name, how many cards it holds, who plays it."""

    seat: str
    count: int
    #: The person playing it ("" for a bot, or a player left unnamed).
    person: str = ""
    #: The seat's relation to the reader, in words: "you", "partner", or "".
    role: str = ""
    bot: bool = False
    #: A person's seat handed to a bot for now.
    away: bool = False
    #: Whether its player has the table open (None: not shown, as for a bot's seat).
    connected: bool | None = None
    mine: bool = False
    to_move: bool = False
    completed: tuple[SeatHand, ...] = ()
    #: Its cards, for a watcher only (None: not shown).
    held: tuple[Card, ...] | None = None

    @property
    def name(self) -> str:
        return seat_name(self.seat)

    @property
    def position(self) -> str:
        return POSITIONS[self.seat]


@dataclass(frozen=True)
class LogLine:
    hand_number: int
    #: The line: an engine message (the solo coach's summary) or text, said by ``|say``.
    text: Any
    delay: int = 0


@dataclass(frozen=True)
class LogDeal:
    deal_number: int
    lines: tuple[LogLine, ...]


@dataclass(frozen=True)
class TableView:
    """A table as one reader sees it: the seats (North, East, South, West), the current hand,
    the hand log, and the partial that draws the middle of the table."""

    seats: tuple[SeatView, ...]
    current: tuple[Played, ...]
    log: tuple[LogDeal, ...]
    #: The log names its deals (a game of several).
    deals_named: bool
    centre: str
    dealt: bool = True

    @property
    def by_seat(self) -> dict[str, SeatView]:
        return {s.seat: s for s in self.seats}

    @property
    def board(self) -> tuple[SeatView, ...]:
        """The seats in the board's order (North, West, East, South)."""
        seats = self.by_seat
        return tuple(seats[s] for s in BOARD_ORDER)

    @property
    def north(self) -> SeatView:
        return self.by_seat["N"]

    @property
    def west(self) -> SeatView:
        return self.by_seat["W"]

    @property
    def east(self) -> SeatView:
        return self.by_seat["E"]

    @property
    def south(self) -> SeatView:
        return self.by_seat["S"]

    @property
    def log_count(self) -> int:
        return sum(len(d.lines) for d in self.log)


def _by_leader(hands: Iterable[SeatHand]) -> dict[str, tuple[SeatHand, ...]]:
    out: dict[str, list[SeatHand]] = {str(s): [] for s in SEATS}
    for hand in hands:
        out[hand.leader].append(hand)
    return {seat: tuple(found) for seat, found in out.items()}


def solo_table(
    *,
    view: EngineView,
    current: Sequence[Played],
    completed: Sequence[SeatHand],
    log: Sequence[LogDeal],
    owner: bool,
    player: str | None,
    paused: bool,
) -> TableView:
    """The solo table from South's view: bots in North, East and West, the learner South
    (``owner``: the reader; else ``player`` names them, "" unnamed). ``current``,
    ``completed`` and ``log`` carry the delays the presenter gave the bots' steps; while
    ``paused`` on a finished hand nobody is to move."""
    hands = _by_leader(completed)
    seats = []
    for s in SEATS:
        letter = str(s)
        learner = s is Seat.S
        seats.append(
            SeatView(
                seat=letter,
                count=view.counts[letter],
                person="" if not learner or owner else (player or ""),
                role=gettext("you")
                if learner and owner
                else (gettext("partner") if s is Seat.N else ""),
                bot=not learner,
                mine=learner and owner,
                to_move=view.to_move is s and not paused,
                completed=hands[letter],
            )
        )
    return TableView(
        seats=tuple(seats),
        current=tuple(current),
        log=tuple(log),
        deals_named=view.game,
        centre=SOLO_CENTRE,
    )


class ShownSeat(Protocol):
    """A live table's seat line as :class:`trainer.play.live.SeatLine` gives it."""

    @property
    def seat(self) -> Seat: ...
    @property
    def name(self) -> str: ...
    @property
    def bot(self) -> bool: ...
    @property
    def away(self) -> bool: ...
    @property
    def connected(self) -> bool: ...
    @property
    def mine(self) -> bool: ...


class LiveState(Protocol):
    """What :func:`live_table` reads of a live table's shown state
    (:class:`trainer.play.live.LiveShown`)."""

    @property
    def seat(self) -> Seat | None: ...
    @property
    def seats(self) -> Sequence[ShownSeat]: ...
    @property
    def view(self) -> EngineView | None: ...
    @property
    def hands(self) -> Mapping[str, Sequence[Card]] | None: ...
    @property
    def to_move(self) -> Seat | None: ...


def live_table(shown: LiveState) -> TableView:
    """A live table as ``shown`` to one seat (or a watcher): the seats' people and presence,
    the hands each led, the current hand and one log line per finished hand."""
    view = shown.view
    completed = [
        SeatHand.of(h, side_name(str(h.side))) for h in (view.completed if view is not None else ())
    ]
    hands = _by_leader(completed)
    partner = shown.seat.partner if shown.seat is not None else None
    seats = []
    for line in shown.seats:
        letter = str(line.seat)
        held = shown.hands.get(letter) if shown.hands is not None else None
        seats.append(
            SeatView(
                seat=letter,
                count=view.counts[letter] if view is not None else 0,
                person=line.name,
                role=gettext("you")
                if line.mine
                else (gettext("partner") if line.seat is partner else ""),
                bot=line.bot,
                away=line.away,
                connected=None if line.bot else line.connected,
                mine=line.mine,
                to_move=shown.to_move is line.seat,
                completed=hands[letter],
                held=tuple(sort_cards(held)) if held is not None else None,
            )
        )
    lines = tuple(
        LogLine(
            hand_number=h.number,
            text=ngettext(
                "Hand %(number)s, led by %(seat)s: %(combination)s for %(side)s, %(points)s point",
                "Hand %(number)s, led by %(seat)s: %(combination)s for %(side)s, %(points)s points",
                h.points,
            )
            % {
                "number": h.number,
                "seat": seat_name(h.leader),
                "combination": h.combination_text,
                "side": h.side_name,
                "points": h.points,
            },
        )
        for h in completed
    )
    return TableView(
        seats=tuple(seats),
        current=tuple(Played(seat, action) for seat, action in view.current)
        if view is not None
        else (),
        log=(LogDeal(view.deal_number, lines),) if view is not None and lines else (),
        deals_named=False,
        centre=LIVE_CENTRE,
        dealt=view is not None,
    )
