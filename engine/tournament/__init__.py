"""Seeded duplicate tournaments between two pairs of bots.

Board ``i`` of a tournament with seed ``s`` is the deal of ``python -m engine deal --seed
s * 1000000 + i`` (dealer North). In duplicate (the default) every board is played twice: pair A
(``ns`` as given) sits North-South at table 1 and East-West at table 2, so both pairs hold the
same cards and the luck of the deal cancels. Results belong to the pair, whatever seat it held.

Every bot decision depends only on the board's seed and the bot's observation (random bots draw
from ``random.Random(f"{seed}:{board}:{table}:{seat}")``), so the results do not depend on how
the boards are split among processes (``jobs``).

>>> result = run_tournament(TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=2))
>>> result.deals, result.duplicate
(2, True)

The same tournament in seeded chunks, played anywhere (other processes, other machines: see
:mod:`engine.tournament.workers`) and merged: :func:`plan_chunks` splits the boards,
:func:`play_boards` plays one chunk, :class:`BoardResult` travels as JSON, and
:func:`summarise` merges the boards into the result :func:`run_tournament` gives.

>>> spec = TournamentSpec(PairSpec("signal"), PairSpec("greedy"), deals=4)
>>> chunks = [play_boards(spec, a, b) for a, b in plan_chunks(spec, 3)]
>>> boards = [BoardResult.from_json(b.to_json()) for chunk in chunks for b in chunk]
>>> summarise(spec, boards).diff == run_tournament(spec).diff
True
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from engine.bots import Bot, RandomBot, make_bot
from engine.bots.signal import SignalBot, given_signal
from engine.game import DealState
from engine.scoring import CLASSIC, Combination, ScoringRule, get_rule
from engine.seats import SEATS, SIDES, Seat, Side
from engine.signals import DEFAULT_CONVENTION, Convention, encode, get_convention, primary_reading
from engine.signals.cardfile import load_convention
from engine.signals.conventions import ConventionConflictError, register_convention
from engine.signals.reply import PROMISE

__all__ = [
    "BOARD_SEED_STRIDE",
    "BoardResult",
    "PairSpec",
    "TournamentResult",
    "TournamentSpec",
    "board_seed",
    "plan_chunks",
    "play_board",
    "play_boards",
    "run_tournament",
    "summarise",
]

#: Board ``i`` of seed ``s`` is dealt from ``random.Random(s * BOARD_SEED_STRIDE + i)``.
BOARD_SEED_STRIDE = 1_000_000
#: The bots that follow a convention card (their signals are tallied): the signal bot at
#: its standard strength, as the beginner partner and as the strong partner.
SIGNALLING = ("signal", "beginner", "strong")
#: The most boards in one task.
_CHUNK = 100


@dataclass(frozen=True)
class PairSpec:
    """A pair: a bot name and, for the signal bot, its convention card (a card's name, or the
    card itself, e.g. a club's card read from a file: it travels to the worker processes)."""

    bot: str
    convention: str | Convention | None = None

    def convention_value(self) -> Convention:
        return get_convention(self.convention) if self.convention else DEFAULT_CONVENTION

    def label(self) -> dict[str, Any]:
        """``{"bot", "convention"}``; a card that is not shipped also names its ``version``."""
        if self.bot not in SIGNALLING:
            return {"bot": self.bot, "convention": None}
        conv = self.convention_value()
        out: dict[str, Any] = {"bot": self.bot, "convention": conv.name}
        if not conv.shipped:
            out["version"] = conv.version
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"bot", "convention"}``: a shipped card by its name, any other card as its JSON
        (so a process that has never seen it plays it: :meth:`from_json`)."""
        if self.convention is None:
            return {"bot": self.bot, "convention": None}
        conv = self.convention_value()
        return {"bot": self.bot, "convention": conv.name if conv.shipped else conv.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PairSpec:
        """The pair of :meth:`to_json`. A card given as JSON is read, checked and registered
        under its name; when this process knows another card of that name, as
        ``name@version`` (several memo tables are keyed by a card's name)."""
        bot, conv = data["bot"], data.get("convention")
        if not isinstance(bot, str):
            raise ValueError(f"not a bot name: {bot!r}")
        if conv is None or isinstance(conv, str):
            return cls(bot, get_convention(conv).name if conv else None)
        card = load_convention(conv)
        try:
            card = register_convention(card)
        except ConventionConflictError:
            card = register_convention(load_convention({**conv, "name": _own_name(card)}))
        return cls(bot, card)


def _own_name(conv: Convention) -> str:
    """A name of ``conv``'s own, made of its name and version: ``our-club-v0123456789ab``."""
    return f"{conv.name[:48]}-v{conv.version}"


@dataclass(frozen=True)
class TournamentSpec:
    ns: PairSpec
    ew: PairSpec
    deals: int
    seed: int = 1
    #: The scoring rule's name (names pickle; rule values hold mapping proxies).
    rule: str = CLASSIC.name
    duplicate: bool = True

    @property
    def scoring_rule(self) -> ScoringRule:
        return get_rule(self.rule)

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON (what a chunk's message carries to a worker)."""
        return {
            "ns": self.ns.to_json(),
            "ew": self.ew.to_json(),
            "deals": self.deals,
            "seed": self.seed,
            "rule": self.rule,
            "duplicate": self.duplicate,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSpec:
        """The spec of :meth:`to_json` (its rule checked, its cards read and registered)."""
        rule = get_rule(str(data["rule"])).name
        return cls(
            PairSpec.from_json(data["ns"]),
            PairSpec.from_json(data["ew"]),
            int(data["deals"]),
            int(data["seed"]),
            rule,
            bool(data["duplicate"]),
        )


def board_seed(seed: int, board: int) -> int:
    """The ``deal --seed`` of a board."""
    return seed * BOARD_SEED_STRIDE + board


@dataclass
class _PairTally:
    """One pair's figures on one board (summed over the tables it played)."""

    score: int = 0
    hand_score: int = 0
    leftover: int = 0
    par_loss: int = 0
    signals: int = 0
    read_right: int = 0
    completed: int = 0


_TALLY_FIELDS = tuple(f.name for f in fields(_PairTally))


@dataclass
class BoardResult:
    """Per-pair tallies of one board (keys ``"A"``, ``"B"``) and the played deals' records."""

    board: int
    tallies: dict[str, _PairTally]
    records: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"board", "tallies": {"A": {...}, "B": {...}}, "records"}`` (integers and lines)."""
        return {
            "board": self.board,
            "tallies": {pair: asdict(self.tallies[pair]) for pair in sorted(self.tallies)},
            "records": list(self.records),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BoardResult:
        """The board of :meth:`to_json`; a missing or extra figure is a ``ValueError``."""
        tallies: dict[str, _PairTally] = {}
        for pair in ("A", "B"):
            raw = data["tallies"][pair]
            if set(raw) != set(_TALLY_FIELDS):
                raise ValueError(f"board {data.get('board')!r}: bad tallies of pair {pair}")
            tallies[pair] = _PairTally(**{name: int(raw[name]) for name in _TALLY_FIELDS})
        records = [str(line) for line in data.get("records", [])]
        return cls(int(data["board"]), tallies, records)


def _make(pair: PairSpec, rng: random.Random, partner_view: Any = None) -> Bot:
    if pair.bot == "open":
        from engine.bots.open import OpenBot

        return OpenBot(partner_view)
    return make_bot(pair.bot, rng=rng, convention=pair.convention_value())


class _Bots:
    """Bots reused across boards in one process (their caches are pure memo tables)."""

    def __init__(self, spec: TournamentSpec) -> None:
        self.spec = spec
        self.cache: dict[tuple[str, int], Bot] = {}

    def seat(self, pair: PairSpec, key: str, seat: Seat, state: DealState, rng_seed: str) -> Bot:
        if pair.bot == "random":
            return RandomBot(random.Random(rng_seed))
        if pair.bot == "open":
            from engine.bots.open import OpenBot

            return OpenBot(lambda: state.held(seat.partner))
        found = self.cache.get((key, id(pair)))
        if found is None:
            found = _make(pair, random.Random(0))
            self.cache[(key, id(pair))] = found
        return found


def _signal_stats(
    state: DealState, pair: PairSpec, tally: _PairTally, bots: Mapping[Seat, Bot]
) -> tuple[str, str] | None:
    """At the moment a signal is complete: the item the leader showed and partner's reading
    (from partner's own cards and the finished hands: the signal bot's own reading, which is the
    decoder's first at every strength but ``strong``).

    The item shown is that of the cards the leader's bot says its lead shows
    (:meth:`~engine.bots.signal.SignalBot.shown_cards`: its whole hand's first item, or the best
    five, or a three or two pairs it leads for a full house); for a bot that cannot say, the
    leader's whole hand's."""
    seat = state.current_player()
    if seat is None:
        return None
    obs = state.observation(seat)
    signal = given_signal(obs)
    if signal is None or len(obs.current_actions) != 3:
        return None
    leader = obs.current_actions[0][0]
    conv = pair.convention_value()
    before = (*state.held(leader), *(c for s, c in obs.current_cards if s is leader))
    leader_bot = bots[leader]
    shown = (
        leader_bot.shown_cards(before, obs.side_hand, state.rule)
        if isinstance(leader_bot, SignalBot)
        else before
    )
    item = encode(shown or before, obs.side_hand, conv).item
    reader = bots[leader.partner]
    if isinstance(reader, SignalBot):
        read = reader.reading(state.observation(leader.partner))
    else:
        seen = (*state.held(leader.partner), *(c for h in obs.played_hands for _, c in h.cards))
        reading = primary_reading(signal[0], signal[1], obs.side_hand, conv, seen)
        read = reading.item if reading is not None else None
    tally.signals += 1
    if read is not None and read == item:
        tally.read_right += 1
    return item, leader.side.value


def _play_table(
    spec: TournamentSpec,
    board: int,
    table: int,
    bots: _Bots,
    tallies: dict[str, _PairTally],
    records: list[str] | None,
    par: dict[Side, int] | None,
) -> None:
    seed = board_seed(spec.seed, board)
    state = DealState.deal(Seat.N, random.Random(seed), spec.rule)
    pair_of_side = {Side.NS: "A", Side.EW: "B"} if table == 1 else {Side.NS: "B", Side.EW: "A"}
    spec_of = {"A": spec.ns, "B": spec.ew}
    seat_bots = {
        seat: bots.seat(
            spec_of[pair_of_side[seat.side]],
            pair_of_side[seat.side],
            seat,
            state,
            f"{spec.seed}:{board}:{table}:{seat}",
        )
        for seat in SEATS
    }
    shown: dict[int, str] = {}
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        obs = state.observation(seat)
        state.apply_action(seat_bots[seat].choose(obs, obs.legal_actions))
        if state.is_terminal():
            break
        acts = state.current_actions
        if len(acts) == 3:
            pair = pair_of_side[state.side_of_hand]
            if spec_of[pair].bot in SIGNALLING:
                found = _signal_stats(state, spec_of[pair], tallies[pair], seat_bots)
                if found is not None:
                    shown[state.hand_number] = found[0]
    for hand in state.played_hands:
        item = shown.get(hand.number)
        if (
            item is not None
            and item in PROMISE
            and hand.combination >= PROMISE[item]
            and hand.combination is not Combination.NOTHING
        ):
            tallies[pair_of_side[hand.side]].completed += 1
    result = state.result()
    for side in SIDES:
        t = tallies[pair_of_side[side]]
        t.score += result.scores[side]
        t.hand_score += result.hand_scores[side]
        t.leftover += result.leftover_bonus[side]
        if par is not None:
            t.par_loss += par[side] - result.hand_scores[side]
    if records is not None:
        from engine.commands import deal_json

        record = {
            "rule": spec.rule,
            "seed": seed,
            "board": board,
            "table": table,
            "pairs": {
                str(side): spec_of[pair_of_side[side]].label() | {"pair": pair_of_side[side]}
                for side in SIDES
            },
            "deals": [deal_json(state)],
            "totals": {str(side): result.scores[side] for side in SIDES},
        }
        records.append(json.dumps(record))


def _par_scores(spec: TournamentSpec, board: int) -> dict[Side, int]:
    from engine.par import solve_deal

    state = DealState.deal(Seat.N, random.Random(board_seed(spec.seed, board)), spec.rule)
    return {side: solution.hand_score for side, solution in solve_deal(state).items()}


def play_board(
    spec: TournamentSpec,
    board: int,
    *,
    records: bool = False,
    par: bool = False,
    bots: _Bots | None = None,
) -> BoardResult:
    """Play one board (twice in duplicate) and tally it per pair."""
    bots = bots if bots is not None else _Bots(spec)
    tallies = {"A": _PairTally(), "B": _PairTally()}
    out: list[str] | None = [] if records else None
    par_scores = _par_scores(spec, board) if par else None
    for table in (1, 2) if spec.duplicate else (1,):
        _play_table(spec, board, table, bots, tallies, out, par_scores)
    return BoardResult(board, tallies, out or [])


#: The bots of this process, made once per tournament (see :func:`_start_worker`).
_WORKER: dict[str, Any] = {}


def _warm(spec: TournamentSpec) -> None:
    """Build the tables the bots use on first use (the signal card's readings, the par
    solver's module) once, in the parent: worker processes are forked from it and share them."""
    from engine.signals.decoder import readings_table

    for pair in (spec.ns, spec.ew):
        if pair.bot in SIGNALLING:
            readings_table(pair.convention_value())
        if pair.bot == "open":
            import engine.par  # noqa: F401  (imported once, not per chunk)


def _start_worker(spec: TournamentSpec) -> None:
    """Set a process up for ``spec`` before its first chunk: its bots, kept for every chunk
    it plays (their memo tables too), and the tables :func:`_warm` builds, when the process
    was not forked from a warm parent."""
    _warm(spec)
    _WORKER["spec"], _WORKER["bots"] = spec, _Bots(spec)


def _play_chunk(args: tuple[int, int, bool, bool]) -> list[BoardResult]:
    """Play boards ``start``..``stop - 1`` with this process's bots (a task is four ints; the
    spec travels once, to the worker's initializer)."""
    start, stop, records, par = args
    spec: TournamentSpec = _WORKER["spec"]
    bots: _Bots = _WORKER["bots"]
    return [play_board(spec, b, records=records, par=par, bots=bots) for b in range(start, stop)]


#: Each thread's bots, for the last spec it played (see :func:`play_boards`).
_LOCAL = threading.local()


def play_boards(
    spec: TournamentSpec, start: int, stop: int, *, records: bool = False, par: bool = False
) -> list[BoardResult]:
    """Play boards ``start``..``stop - 1`` of ``spec``: one chunk, anywhere.

    The bots (and their memo tables) are kept per thread for the last spec played, so a worker
    playing chunk after chunk of one tournament builds them once. The boards are the same
    whichever process plays them and whatever it played before.
    """
    if not 0 <= start <= stop <= spec.deals:
        raise ValueError(f"boards {start}..{stop} are not within the {spec.deals} of the spec")
    kept: tuple[TournamentSpec, _Bots] | None = getattr(_LOCAL, "bots", None)
    if kept is None or kept[0] != spec:
        _warm(spec)
        kept = (spec, _Bots(spec))
        _LOCAL.bots = kept
    bots = kept[1]
    return [play_board(spec, b, records=records, par=par, bots=bots) for b in range(start, stop)]


def plan_chunks(spec: TournamentSpec, size: int) -> list[tuple[int, int]]:
    """The boards of ``spec`` in chunks of ``size`` (the last one shorter): ``(start, stop)``.

    >>> plan_chunks(TournamentSpec(PairSpec("greedy"), PairSpec("greedy"), deals=7), 3)
    [(0, 3), (3, 6), (6, 7)]
    """
    if size < 1:
        raise ValueError(f"a chunk holds at least one board, not {size}")
    return [(a, min(a + size, spec.deals)) for a in range(0, spec.deals, size)]


def summarise(
    spec: TournamentSpec,
    boards: Iterable[BoardResult],
    *,
    cpu_seconds: float | None = None,
    par: bool = False,
) -> TournamentResult:
    """Merge the boards of ``spec``, in any order, from any number of chunks, into its result:
    exactly what :func:`run_tournament` gives. A board played twice (a chunk retried) counts
    once; a missing board is a ``ValueError``. ``cpu_seconds`` (what the boards cost, summed
    over the workers) makes ``deals_per_cpu_s``; without it that figure is 0.
    """
    by_board: dict[int, BoardResult] = {}
    for board in boards:
        by_board.setdefault(board.board, board)
    missing = [b for b in range(spec.deals) if b not in by_board]
    if missing or len(by_board) != spec.deals:
        raise ValueError(
            f"the boards do not make the tournament: {len(missing)} missing "
            f"(first {missing[:5]}), {len(by_board) - spec.deals + len(missing)} unknown"
        )
    rate = spec.deals / cpu_seconds if cpu_seconds else 0.0
    return _summarise(spec, [by_board[b] for b in range(spec.deals)], rate, par)


@dataclass(frozen=True)
class TournamentResult:
    deals: int
    duplicate: bool
    pairs: dict[str, dict[str, Any]]
    mean_per_deal: dict[str, float]
    diff: float
    ci95: tuple[float, float]
    hand_score_mean: dict[str, float]
    leftover_mean: dict[str, float]
    signals: dict[str, dict[str, float | int | None]]
    deals_per_cpu_s: float
    rule: str = "classic"
    seed: int = 1

    def as_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "duplicate": self.duplicate,
            "rule": self.rule,
            "seed": self.seed,
            "pairs": self.pairs,
            "mean_per_deal": self.mean_per_deal,
            "diff": self.diff,
            "ci95": list(self.ci95),
            "hand_score_mean": self.hand_score_mean,
            "leftover_mean": self.leftover_mean,
            "signals": self.signals,
            "deals_per_cpu_s": self.deals_per_cpu_s,
        }

    def text(self) -> str:
        ns, ew = self.pairs["NS"], self.pairs["EW"]

        def name(p: dict[str, Any]) -> str:
            return str(p["bot"]) + (f" ({p['convention']})" if p.get("convention") else "")

        lines = [
            f"{self.deals} {'duplicate ' if self.duplicate else ''}deals, rule {self.rule}, "
            f"seed {self.seed}",
            f"  NS {name(ns)}: {self.mean_per_deal['NS']:.2f} per deal "
            f"(hands {self.hand_score_mean['NS']:.2f}, left-over bonus "
            f"{self.leftover_mean['NS']:.2f})",
            f"  EW {name(ew)}: {self.mean_per_deal['EW']:.2f} per deal "
            f"(hands {self.hand_score_mean['EW']:.2f}, left-over bonus "
            f"{self.leftover_mean['EW']:.2f})",
            f"  difference NS - EW: {self.diff:+.2f} per deal, 95% CI "
            f"[{self.ci95[0]:+.2f}, {self.ci95[1]:+.2f}]",
        ]
        for key, stats in self.signals.items():
            if stats.get("signals"):
                lines.append(
                    f"  {key} signals: {stats['signals']}, partner's reading right "
                    f"{stats['first_reading_right']:.1%}, hand completed "
                    f"{stats['completed']:.1%}"
                )
            if stats.get("points_lost_to_par") is not None:
                lines.append(
                    f"  {key} points lost to par: {stats['points_lost_to_par']:.2f} per deal"
                )
        lines.append(f"  {self.deals_per_cpu_s:.1f} deals per CPU second")
        return "\n".join(lines)


def _chunks(deals: int, jobs: int) -> Iterator[tuple[int, int]]:
    """Boards split into chunks: about eight per process (so the last ones finish together),
    at most :data:`_CHUNK` boards each (so the progress bar moves)."""
    size = max(1, min(_CHUNK, -(-deals // (8 * max(jobs, 1)))))
    for start in range(0, deals, size):
        yield start, min(start + size, deals)


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run_tournament(
    spec: TournamentSpec,
    *,
    jobs: int = 1,
    records_path: str | None = None,
    progress: bool = False,
    par: bool = False,
) -> TournamentResult:
    """Play ``spec.deals`` boards on ``jobs`` processes; results are independent of ``jobs``."""
    if spec.deals < 1:
        raise ValueError(f"deals must be at least 1, not {spec.deals}")
    cpu0 = _cpu_seconds()
    want_records = records_path is not None
    tasks = [(a, b, want_records, par) for a, b in _chunks(spec.deals, jobs)]
    bar: Any = None
    if progress:
        try:  # the optional ``sim`` extra: a progress bar on a terminal, nothing without it
            from tqdm import tqdm  # type: ignore[import-untyped]
        except ImportError:
            tqdm = None
        if tqdm is not None:
            bar = tqdm(total=spec.deals, file=sys.stderr, unit="deal", disable=None)
    results: list[BoardResult] = []
    sink = open(records_path, "w", encoding="utf-8") if records_path else None  # noqa: SIM115
    try:
        if jobs <= 1:
            _start_worker(spec)
            outputs: Iterator[list[BoardResult]] = map(_play_chunk, tasks)
            for chunk in outputs:
                _collect(chunk, results, sink, bar)
        else:
            _warm(spec)
            with ProcessPoolExecutor(
                max_workers=jobs, initializer=_start_worker, initargs=(spec,)
            ) as pool:
                for chunk in pool.map(_play_chunk, tasks):
                    _collect(chunk, results, sink, bar)
    finally:
        _WORKER.clear()
        if sink is not None:
            sink.close()
        if bar is not None:
            bar.close()
    cpu = max(_cpu_seconds() - cpu0, 1e-9)
    return _summarise(spec, results, spec.deals / cpu, par)


def _collect(chunk: Sequence[BoardResult], results: list[BoardResult], sink: Any, bar: Any) -> None:
    for board in chunk:
        results.append(board)
        if sink is not None:
            for line in board.records:
                sink.write(line + "\n")
    if bar is not None:
        bar.update(len(chunk))


def _summarise(
    spec: TournamentSpec, boards: Sequence[BoardResult], rate: float, par: bool = False
) -> TournamentResult:
    n = len(boards)
    tables = 2 if spec.duplicate else 1

    def mean(pair: str, attr: str) -> float:
        return float(sum(getattr(b.tallies[pair], attr) for b in boards)) / (n * tables)

    diffs = [(b.tallies["A"].score - b.tallies["B"].score) / tables for b in boards]
    d_mean = sum(diffs) / n
    var = sum((d - d_mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else float("inf")
    signals: dict[str, dict[str, float | int | None]] = {}
    for key, pair in (("NS", "A"), ("EW", "B")):
        total = sum(b.tallies[pair].signals for b in boards)
        signals[key] = {
            "signals": total,
            "first_reading_right": (
                sum(b.tallies[pair].read_right for b in boards) / total if total else None
            ),
            "completed": (
                sum(b.tallies[pair].completed for b in boards) / total if total else None
            ),
            "points_lost_to_par": (
                round(sum(b.tallies[pair].par_loss for b in boards) / (n * tables), 4)
                if par
                else None
            ),
        }
    return TournamentResult(
        deals=n,
        duplicate=spec.duplicate,
        pairs={"NS": spec.ns.label(), "EW": spec.ew.label()},
        mean_per_deal={"NS": round(mean("A", "score"), 4), "EW": round(mean("B", "score"), 4)},
        diff=round(d_mean, 4),
        ci95=(round(d_mean - half, 4), round(d_mean + half, 4)),
        hand_score_mean={
            "NS": round(mean("A", "hand_score"), 4),
            "EW": round(mean("B", "hand_score"), 4),
        },
        leftover_mean={
            "NS": round(mean("A", "leftover"), 4),
            "EW": round(mean("B", "leftover"), 4),
        },
        signals=signals,
        deals_per_cpu_s=round(rate, 2),
        rule=spec.rule,
        seed=spec.seed,
    )
