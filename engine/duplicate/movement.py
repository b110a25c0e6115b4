"""Movements: which pairs meet at which table in each round of a duplicate session, and which
boards they play.

Online there is no wallet of boards to pass from table to table, so every table of a round plays
that round's boards: round ``r`` plays boards ``(r - 1) * per_round + 1 .. r * per_round``.
Each board is then played at every table of its round (the most results to compare it with) and
all its results land together, when the round ends.

- **Howell** (every pair meets every other pair at most once; a pair sits North-South in some
  rounds and East-West in others): the circle method. With ``n`` pairs (``n`` even), pair ``n``
  stays at table 1 and the others rotate; ``n - 1`` rounds make the complete round robin.
- **Mitchell** (North-South pairs stay North-South): ``T`` tables, North-South pairs ``1..T``
  sit at their own table, East-West pairs ``T + 1 .. 2T`` move up a table each round; ``T``
  rounds let every East-West pair meet every North-South pair once. Matchpoints compare
  North-South pairs with North-South pairs, so a Mitchell has a winner in each direction.

An odd number of pairs adds a phantom: the pair drawn against it sits the round out (``sitout``)
or, with ``fill="bot"``, the phantom is a bot pair (:attr:`Movement.bot_pair`).

``auto`` picks a Howell up to :data:`HOWELL_UP_TO` pairs (a complete round robin is still one
evening) and a Mitchell above.

>>> m = movement(6)
>>> m.kind, m.tables, len(m.rounds), m.boards
('howell', 3, 5, 10)
>>> m.rounds[0].tables[0]
TableRound(table=1, ns=6, ew=1, boards=(1, 2))
>>> check_movement(m)
[]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.errors import ConcertoError
from engine.messages import Msg, Text

__all__ = [
    "FILLS",
    "HOWELL_UP_TO",
    "KINDS",
    "MAX_BOARDS",
    "MIN_PAIRS",
    "Movement",
    "MovementError",
    "Round",
    "TableRound",
    "check_movement",
    "movement",
]

#: The kinds a movement may be asked for (``auto`` picks one of the others).
KINDS: tuple[str, ...] = ("auto", "howell", "mitchell")
#: What an odd pair out does: sit the round out, or play a bot pair.
FILLS: tuple[str, ...] = ("sitout", "bot")
#: ``auto`` plays a Howell up to this many pairs.
HOWELL_UP_TO = 10
#: The fewest pairs a session compares (two tables), a bot pair filling an odd field counted.
MIN_PAIRS = 4
#: The most pairs and boards one session holds.
MAX_PAIRS = 200
MAX_BOARDS = 200
#: Boards a round plays unless told.
DEFAULT_PER_ROUND = 2


class MovementError(ConcertoError):
    """A movement that cannot be made as asked (the message says why)."""


@dataclass(frozen=True)
class TableRound:
    """One table in one round: its pairs and the boards they play."""

    table: int
    ns: int
    ew: int
    boards: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "ns": self.ns, "ew": self.ew, "boards": list(self.boards)}


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[TableRound, ...]
    #: The pairs with no table this round.
    sitout: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "tables": [t.to_json() for t in self.tables],
            "sitout": list(self.sitout),
        }


@dataclass(frozen=True)
class Movement:
    """A whole session's movement. ``pairs`` counts every pair that plays (a bot pair too);
    ``tables`` is the highest table number used."""

    kind: str
    pairs: int
    tables: int
    boards: int
    rounds: tuple[Round, ...]
    #: The bot pair filling an odd field (``fill="bot"``), else None.
    bot_pair: int | None = None

    @property
    def per_round(self) -> int:
        return self.boards // len(self.rounds)

    @property
    def ns_stays(self) -> bool:
        """True for a Mitchell: a pair keeps its direction, and is ranked within it."""
        return self.kind == "mitchell"

    def direction(self, pair: int) -> str | None:
        """``"NS"`` or ``"EW"`` for a Mitchell's pair (its ranking), else None."""
        if not self.ns_stays:
            return None
        return "NS" if pair <= self.tables else "EW"

    def table_of(self, pair: int, round_number: int) -> TableRound | None:
        """Where ``pair`` plays in round ``round_number`` (None: it sits out)."""
        for table in self.rounds[round_number - 1].tables:
            if pair in (table.ns, table.ew):
                return table
        return None

    def plays(self) -> Iterator[tuple[int, TableRound, int]]:
        """Every ``(round, table, board)`` played, in order."""
        for rnd in self.rounds:
            for table in rnd.tables:
                for board in table.boards:
                    yield rnd.number, table, board

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "pairs": self.pairs,
            "tables": self.tables,
            "boards": self.boards,
            "bot_pair": self.bot_pair,
            "rounds": [r.to_json() for r in self.rounds],
        }


def movement(
    pairs: int,
    *,
    boards: int | None = None,
    kind: str = "auto",
    rounds: int | None = None,
    fill: str = "sitout",
) -> Movement:
    """The movement for ``pairs`` pairs: ``boards`` in all (default
    :data:`DEFAULT_PER_ROUND` a round), ``rounds`` (default: the kind's complete count).
    Raises :class:`MovementError` naming why it cannot be made."""
    if kind not in KINDS:
        raise MovementError(
            Msg("error.movement.kind", kind=Text(repr(kind)), choices=Text(", ".join(KINDS)))
        )
    if fill not in FILLS:
        raise MovementError(
            Msg("error.movement.fill", fill=Text(repr(fill)), choices=Text(", ".join(FILLS)))
        )
    if kind == "auto":
        kind = "howell" if pairs <= HOWELL_UP_TO else "mitchell"
    playing = pairs + 1 if pairs % 2 and fill == "bot" else pairs
    if not MIN_PAIRS <= playing <= MAX_PAIRS:
        raise MovementError(
            Msg("error.movement.pairs", pairs=pairs, least=MIN_PAIRS, most=MAX_PAIRS)
        )
    bot_pair = playing if playing != pairs else None
    full = _howell(playing) if kind == "howell" else _mitchell(playing)
    count = len(full) if rounds is None else rounds
    if not 1 <= count <= len(full):
        raise MovementError(
            Msg(
                "error.movement.rounds_howell"
                if kind == "howell"
                else "error.movement.rounds_mitchell",
                pairs=playing,
                full=len(full),
                rounds=count,
            )
        )
    total = boards if boards is not None else DEFAULT_PER_ROUND * count
    if total < 1 or total > MAX_BOARDS:
        raise MovementError(Msg("error.movement.boards_range", boards=total, most=MAX_BOARDS))
    if total % count:
        lower, higher = total // count * count, (total // count + 1) * count
        raise MovementError(
            Msg(
                "error.movement.boards_split",
                boards=total,
                rounds=count,
                lower=lower or count,
                higher=higher,
            )
        )
    per_round = total // count
    built = tuple(
        Round(
            number,
            tuple(
                TableRound(table, ns, ew, _boards(number, per_round)) for table, ns, ew in seating
            ),
            sitout,
        )
        for number, (seating, sitout) in enumerate(full[:count], start=1)
    )
    tables = max(t.table for r in built for t in r.tables)
    return Movement(kind, playing, tables, total, built, bot_pair)


def _boards(round_number: int, per_round: int) -> tuple[int, ...]:
    first = (round_number - 1) * per_round + 1
    return tuple(range(first, first + per_round))


#: A round: ``[(table, ns, ew)…], sitout``.
_Seating = tuple[list[tuple[int, int, int]], tuple[int, ...]]


def _howell(pairs: int) -> list[_Seating]:
    """The circle method's rounds. An odd field has a phantom pair ``pairs + 1``, stationary
    at the first table: whoever meets it sits out, and the tables are numbered without it."""
    n = pairs + pairs % 2
    phantom = n if pairs % 2 else None
    out: list[_Seating] = []
    for r in range(n - 1):
        meetings = [(n, r % (n - 1) + 1)]
        for k in range(1, n // 2):
            meetings.append(((r + k) % (n - 1) + 1, (r - k) % (n - 1) + 1))
        seating: list[tuple[int, int, int]] = []
        sitout: list[int] = []
        for k, (a, b) in enumerate(meetings):
            if phantom in (a, b):
                sitout.append(b if a == phantom else a)
                continue
            table = k if phantom else k + 1
            # Each pair sits North-South in half its rounds, give or take one: the fixed
            # pair alternates by round, the others by their distance round the circle.
            first = r % 2 == 0 if k == 0 else k % 2 == 0
            seating.append((table, a, b) if first else (table, b, a))
        out.append((seating, tuple(sitout)))
    return out


def _mitchell(pairs: int) -> list[_Seating]:
    """``T`` tables: North-South pair ``t`` stays at table ``t``; East-West pair ``T + 1 + e``
    sits at table ``(e + r) mod T + 1`` in round ``r + 1``. An odd field lacks pair ``2T``:
    the North-South pair it would meet sits out."""
    tables = -(-pairs // 2)
    out: list[_Seating] = []
    for r in range(tables):
        seating: list[tuple[int, int, int]] = []
        sitout: list[int] = []
        for t in range(tables):
            ew = tables + 1 + (t - r) % tables
            if ew > pairs:
                sitout.append(t + 1)
            else:
                seating.append((t + 1, t + 1, ew))
        out.append((seating, tuple(sitout)))
    return out


def check_movement(m: Movement) -> list[str]:
    """What is wrong with ``m`` (an empty list when nothing): every pair plays once a round or
    sits out, no pair plays a board twice, every board is played at two or more tables, no two
    pairs meet twice, a Mitchell's pairs keep their direction, and a round's tables play its
    own boards."""
    problems: list[str] = []
    played: dict[int, int] = {}
    seen_boards: dict[int, set[int]] = {p: set() for p in range(1, m.pairs + 1)}
    met: set[frozenset[int]] = set()
    directions: dict[int, str] = {}
    for rnd in m.rounds:
        here = [p for t in rnd.tables for p in (t.ns, t.ew)] + list(rnd.sitout)
        if sorted(here) != list(range(1, m.pairs + 1)):
            problems.append(f"round {rnd.number}: pairs {sorted(here)} are not each pair once")
        for table in rnd.tables:
            if table.boards != _boards(rnd.number, m.per_round):
                problems.append(f"round {rnd.number} table {table.table}: boards {table.boards}")
            if m.ns_stays and table.ns != table.table:
                problems.append(f"North-South pair {table.ns} is not at its table {table.table}")
            meeting = frozenset((table.ns, table.ew))
            if meeting in met:
                problems.append(f"pairs {table.ns} and {table.ew} meet twice")
            met.add(meeting)
            for pair, way in ((table.ns, "NS"), (table.ew, "EW")):
                if m.ns_stays and directions.setdefault(pair, way) != way:
                    problems.append(f"pair {pair} changes direction in a Mitchell")
                for board in table.boards:
                    if board in seen_boards[pair]:
                        problems.append(f"pair {pair} plays board {board} twice")
                    seen_boards[pair].add(board)
            for board in table.boards:
                played[board] = played.get(board, 0) + 1
    for board in range(1, m.boards + 1):
        if played.get(board, 0) < 2:
            problems.append(f"board {board} is played at {played.get(board, 0)} table(s)")
    return problems
