"""A duplicate session: its boards, played by bot pairs over a movement, and scored.

Board ``b`` of a session with seed ``s`` is the deal of ``python -m engine deal --seed B
--dealer D``, where ``B`` is drawn from ``s`` and ``b`` by SHA-256 (so the seed of a board
someone has played, which its record shows, says nothing of the other boards) and the dealer
turns with the board number as at a bridge club (board 1 North, 2 East, 3 South, 4 West, 5
North…): every table that plays board ``b`` holds the same cards. :func:`session_board` is the
one place that says so; the site deals its tables from it.

:func:`play_session` plays a whole session with bots (pair ``i`` is ``bots[(i - 1) %
len(bots)]``), one table's board at a time, in the movement's order. Every choice a bot makes
depends only on the board and its own view (a random bot draws from the board, table and
seat), so the plays can be split into chunks played anywhere (:func:`play_chunk`, on the
task-queue workers: :mod:`engine.duplicate.workers`) and merged into the same JSON.

>>> spec = SessionSpec(pairs=4, boards=3, seed=2, bots=("signal", "greedy"))
>>> out = play_session(spec)
>>> [len(b["results"]) for b in out["boards"]], [row["pair"] for row in out["ranking"]][:1]
([2, 2, 2], [4])
>>> split = [r for a, b in plan_chunks(spec, 2) for r in play_chunk(spec, a, b)]
>>> summarise_session(spec, split) == out
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.bots import BOT_NAMES, Bot, RandomBot, make_bot
from engine.cards import Card
from engine.duplicate.matchpoints import Result, Scorer
from engine.duplicate.movement import Movement, TableRound, movement
from engine.game import Action, DealState
from engine.par import solve_deal
from engine.play.record import record_json
from engine.play.setup import PlaySetup
from engine.scoring import CLASSIC, get_rule
from engine.seats import SEATS, SIDES, Seat, Side
from engine.signals import Convention
from engine.tournament import PairSpec

__all__ = [
    "DEALERS",
    "Board",
    "SessionSpec",
    "plan_chunks",
    "play_chunk",
    "play_session",
    "session_board",
    "summarise_session",
]

#: The dealer of board ``b`` is ``DEALERS[(b - 1) % 4]``.
DEALERS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)


@dataclass(frozen=True)
class Board:
    """A session's board: the ``deal --seed`` and dealer that deal its cards."""

    number: int
    seed: int
    dealer: Seat
    #: A board entered by hand: its hands N, E, S, W (None: dealt from ``seed``).
    hands: tuple[tuple[Card, ...], ...] | None = None

    def deal(self, rule: str = CLASSIC.name) -> DealState:
        if self.hands is not None:
            return DealState(self.dealer, dict(zip(SEATS, self.hands, strict=True)), rule)
        return DealState.deal(self.dealer, random.Random(self.seed), rule)

    def to_json(self) -> dict[str, Any]:
        return {"board": self.number, "seed": self.seed, "dealer": str(self.dealer)}


def session_board(seed: int, number: int) -> Board:
    """Board ``number`` (from 1) of the session seeded ``seed``.

    >>> session_board(1, 2).dealer, 0 <= session_board(1, 2).seed < 2**62
    (<Seat.E: 'E'>, True)
    """
    if number < 1:
        raise ValueError(f"boards are numbered from 1, not {number}")
    digest = hashlib.sha256(f"concerto-session:{seed}:{number}".encode()).digest()
    return Board(number, int.from_bytes(digest[:8], "big") >> 2, DEALERS[(number - 1) % 4])


@dataclass(frozen=True)
class SessionSpec:
    """A session played by bots: the movement's arguments, the seed, the bots of the pairs in
    turn, the scoring rule's name and the card every signalling bot plays."""

    pairs: int
    boards: int | None = None
    seed: int = 1
    bots: tuple[str, ...] = ("signal",)
    rule: str = CLASSIC.name
    convention: str | Convention | None = None
    kind: str = "auto"
    rounds: int | None = None
    fill: str = "sitout"

    def __post_init__(self) -> None:
        if not self.bots:
            raise ValueError("a session needs at least one bot")
        unknown = [b for b in self.bots if b not in BOT_NAMES or b == "open"]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (choose {', '.join(BOT_NAMES[:-1])})")
        get_rule(self.rule)

    def movement(self) -> Movement:
        return movement(
            self.pairs, boards=self.boards, kind=self.kind, rounds=self.rounds, fill=self.fill
        )

    def bot_of(self, pair: int) -> str:
        return self.bots[(pair - 1) % len(self.bots)]

    @property
    def card(self) -> Convention:
        return PairSpec("signal", self.convention).convention_value()

    def to_json(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "boards": self.boards,
            "seed": self.seed,
            "bots": list(self.bots),
            "rule": self.rule,
            "convention": PairSpec("signal", self.convention).to_json()["convention"],
            "kind": self.kind,
            "rounds": self.rounds,
            "fill": self.fill,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionSpec:
        card = PairSpec.from_json({"bot": "signal", "convention": data.get("convention")})
        return cls(
            pairs=int(data["pairs"]),
            boards=None if data.get("boards") is None else int(data["boards"]),
            seed=int(data["seed"]),
            bots=tuple(str(b) for b in data["bots"]),
            rule=get_rule(str(data["rule"])).name,
            convention=card.convention,
            kind=str(data.get("kind", "auto")),
            rounds=None if data.get("rounds") is None else int(data["rounds"]),
            fill=str(data.get("fill", "sitout")),
        )


def _plays(spec: SessionSpec) -> list[tuple[int, TableRound, int]]:
    return list(spec.movement().plays())


def plan_chunks(spec: SessionSpec, size: int) -> list[tuple[int, int]]:
    """The session's plays (one table's board each, in the movement's order) in chunks of
    ``size``: ``(start, stop)``."""
    if size < 1:
        raise ValueError(f"a chunk holds at least one play, not {size}")
    total = len(_plays(spec))
    return [(a, min(a + size, total)) for a in range(0, total, size)]


class _SeatBots:
    """The bots of one process: the card-playing bots are kept (their memo tables are pure),
    random ones are drawn afresh for each seat of each board."""

    def __init__(self, spec: SessionSpec) -> None:
        self.spec = spec
        self.kept: dict[str, Bot] = {}

    def bot(self, name: str, key: str) -> Bot:
        if name == "random":
            return RandomBot(random.Random(key))
        found = self.kept.get(name)
        if found is None:
            found = self.kept[name] = make_bot(name, convention=self.spec.card)
        return found


def _play(
    spec: SessionSpec, rnd: int, table: TableRound, number: int, bots: _SeatBots
) -> dict[str, Any]:
    board = session_board(spec.seed, number)
    state = board.deal(spec.rule)
    pair_of = {Side.NS: table.ns, Side.EW: table.ew}
    seat_bots = {
        seat: bots.bot(
            spec.bot_of(pair_of[seat.side]), f"{spec.seed}:{number}:{table.table}:{seat}"
        )
        for seat in SEATS
    }
    actions: list[Action] = []
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        obs = state.observation(seat)
        action = seat_bots[seat].choose(obs, obs.legal_actions)
        state.apply_action(action)
        actions.append(action)
    result = state.result()
    setup = PlaySetup(
        seed=board.seed, rule=get_rule(spec.rule), convention=spec.card.name, dealer=board.dealer
    )
    record = record_json(setup, actions) | {
        "board": number,
        "round": rnd,
        "table": table.table,
        "pairs": {
            str(side): {"pair": pair_of[side], "bot": spec.bot_of(pair_of[side])} for side in SIDES
        },
    }
    return {
        "board": number,
        "round": rnd,
        "table": table.table,
        "ns": table.ns,
        "ew": table.ew,
        "ns_points": result.scores[Side.NS],
        "ew_points": result.scores[Side.EW],
        "ns_hand": result.hand_scores[Side.NS],
        "ew_hand": result.hand_scores[Side.EW],
        "record": record,
    }


def play_chunk(spec: SessionSpec, start: int, stop: int) -> list[dict[str, Any]]:
    """Plays ``start``..``stop - 1`` of the session (see :func:`plan_chunks`), as JSON."""
    plays = _plays(spec)
    if not 0 <= start <= stop <= len(plays):
        raise ValueError(f"plays {start}..{stop} are not within the {len(plays)} of the session")
    bots = _SeatBots(spec)
    return [_play(spec, rnd, table, board, bots) for rnd, table, board in plays[start:stop]]


def summarise_session(spec: SessionSpec, plays: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The session's JSON from its plays, in any order (a play sent twice counts once):
    ``{"movement", "boards": [{"board", "seed", "dealer", "par", "results": […]}], "ranking"}``.
    A missing play is a ``ValueError``."""
    moved = spec.movement()
    by_key: dict[tuple[int, int], Mapping[str, Any]] = {}
    for play in plays:
        by_key.setdefault((int(play["board"]), int(play["table"])), play)
    wanted = [(board, table.table) for _, table, board in moved.plays()]
    missing = [key for key in wanted if key not in by_key]
    if missing or len(by_key) != len(wanted):
        raise ValueError(f"the plays do not make the session: {len(missing)} missing")
    directions = {p: d for p in range(1, moved.pairs + 1) if (d := moved.direction(p))}
    scorer = Scorer(directions)
    ordered = sorted(by_key.values(), key=lambda p: (int(p["board"]), int(p["table"])))
    for play in ordered:
        scorer.add(_result(play))
    boards = []
    for number in range(1, moved.boards + 1):
        board = session_board(spec.seed, number)
        par = _par(board, spec.rule)
        rows = []
        for (result, ns_mp, ew_mp), play in zip(
            scorer.traveller(number), (p for p in ordered if int(p["board"]) == number), strict=True
        ):
            rows.append(
                {
                    "table": int(play["table"]),
                    "round": int(play["round"]),
                    "ns": result.ns,
                    "ew": result.ew,
                    "ns_points": result.ns_points,
                    "ew_points": result.ew_points,
                    "ns_mp": ns_mp,
                    "ew_mp": ew_mp,
                    "ns_vs_par": int(play["ns_hand"]) - par[Side.NS],
                    "ew_vs_par": int(play["ew_hand"]) - par[Side.EW],
                    "record": play["record"],
                }
            )
        boards.append(
            board.to_json() | {"par": {str(side): par[side] for side in SIDES}, "results": rows}
        )
    return {
        "seed": spec.seed,
        "rule": spec.rule,
        "convention": spec.card.name,
        "bots": {str(p): spec.bot_of(p) for p in range(1, moved.pairs + 1)},
        "movement": moved.to_json(),
        "boards": boards,
        "ranking": [row.to_json() for row in scorer.ranking()],
    }


def _result(play: Mapping[str, Any]) -> Result:
    return Result(
        int(play["board"]),
        int(play["ns"]),
        int(play["ew"]),
        int(play["ns_points"]),
        int(play["ew_points"]),
    )


def _par(board: Board, rule: str) -> dict[Side, int]:
    """Each side's par hand score on ``board`` (its best four hands)."""
    return {side: s.hand_score for side, s in solve_deal(board.deal(rule)).items()}


def play_session(spec: SessionSpec) -> dict[str, Any]:
    """Play the whole session in this process and score it."""
    total = len(_plays(spec))
    return summarise_session(spec, play_chunk(spec, 0, total))
