"""How the strong partner's reply was chosen: its variants, paired on the same boards.

Each variant is the ``strong`` partner (:mod:`engine.bots.odds_reading`) with another way of
choosing its reply from the same kept hands of the leader's (the reading is the same):

- ``shown`` — the candidates are the replier's part of the best completion of each kept hand's
  *shown* cards (the holding the lead stands for) and its own; each is worth the most points
  the leader could then complete from those shown cards (the first ``strong`` partner);
- ``joint`` — the same over each kept hand's whole drawn hand;
- ``full`` — the candidates of ``joint``, each worth what the hand makes when it is played out
  (:func:`~engine.bots.odds_reading.play_out`: the leader's best fill after each of the
  replier's cards);
- ``strong`` — the bot as it plays: played out, and the candidates are one or two cards of each
  completion's, in every order (the replier never plays three in a row while the leader holds
  a card).

Every variant plays the tournament's boards (``--seed 1``: the ladder's deals) against
``greedy``; the script prints each one's points per deal with a 95% interval, its speed, and
its difference from the first variant on the same deals (paired, with a 95% interval)::

    .venv/bin/python scripts/strong_variants.py --start 300 --deals 1000 --jobs 2 \\
        --rule contribution --variants joint full strong
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.tournament as tournament
from engine.bots import odds_reading
from engine.bots import signal as signal_bot
from engine.bots.hands import points5, side_keep
from engine.bots.odds_reading import Holding, Position, best_completion, play_out
from engine.cards import Card
from engine.seats import Seat
from engine.tournament import PairSpec, TournamentSpec, play_boards

Option = tuple[Card, ...]


def _most_points(
    table: Sequence[tuple[Seat, Card]], cards: Sequence[Card], owner: Seat, position: Position
) -> int:
    need = 5 - len(table)
    base = [c for _, c in table]
    seats = [s for s, _ in table] + [owner] * need
    made = (points5(base + list(fill), seats, position.rule) for fill in combinations(cards, need))
    return max(made, default=0)


def _plan(
    position: Position,
    kept: Sequence[Holding],
    *,
    whole: bool,
    played_out: bool,
) -> Option:
    """The reply of the variant: candidates from the best completions, the most points on
    average over the kept hands (ties: fewer cards, then the least useful)."""
    leader = position.leader
    table = tuple((leader, c) for c in position.signal)
    # The first strong partner kept the shown cards in the encoder's order (ties between equal
    # completions follow it); whole hands are drawn in random order, so they are sorted.
    holdings = Counter(
        tuple(sorted(rest, key=lambda c: c.index)) if whole else tuple(rest)
        for rest in (
            [c for c in (hand if whole else shown or hand) if c not in position.signal]
            for hand, shown in kept
        )
    )
    if not holdings:
        return ()
    own = list(position.own)
    keep = side_keep(own, position.side_hand)
    options: set[Option] = {()}
    for rest in holdings:
        pool = [*((leader, c) for c in rest), *((position.seat, c) for c in own)]
        plan = best_completion(table, pool, position.seat, position.rule, keep)
        if plan is not None:
            options.add(tuple(c for s, c in plan if s is position.seat))

    def worth(option: Option) -> int:
        if played_out:
            return sum(play_out(table, option, r, own, position) * n for r, n in holdings.items())
        base = (*table, *((position.seat, c) for c in option))
        return sum(_most_points(base, r, leader, position) * n for r, n in holdings.items())

    return max(
        sorted(options, key=lambda o: [c.index for c in o]),
        key=lambda o: (worth(o), -len(o), -sum(keep.get(c, 0) for c in o)),
    )


PlanFunction = Callable[[Position, Sequence[Holding]], Option]
VARIANTS: dict[str, PlanFunction] = {
    "shown": lambda p, k: _plan(p, k, whole=False, played_out=False),
    "joint": lambda p, k: _plan(p, k, whole=True, played_out=False),
    "full": lambda p, k: _plan(p, k, whole=True, played_out=True),
    "strong": odds_reading.odds_plan,
}


def _chunk(args: tuple[str, TournamentSpec, int, int]) -> tuple[list[float], float]:
    variant, spec, start, stop = args
    signal_bot.odds_plan = VARIANTS[variant]  # type: ignore[assignment]
    # Fresh bots: their memo tables must not hold another variant's replies.
    tournament._LOCAL.bots = None
    began = time.process_time()
    boards = play_boards(spec, start, stop)
    spent = time.process_time() - began
    return [(b.tallies["A"].score - b.tallies["B"].score) / 2 for b in boards], spent


def _interval(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS))
    parser.add_argument("--start", type=int, default=0, help="first board")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--convention", default="parlett-2008")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=25)
    ns = parser.parse_args(argv)
    boards = ns.start + ns.deals
    spec = TournamentSpec(
        PairSpec("strong", ns.convention), PairSpec("greedy"), boards, ns.seed, ns.rule
    )
    steps = [(a, min(boards, a + ns.chunk)) for a in range(ns.start, boards, ns.chunk)]
    results: dict[str, list[float]] = {}
    with ProcessPoolExecutor(ns.jobs) as pool:
        for variant in ns.variants:
            parts = list(pool.map(_chunk, [(variant, spec, a, b) for a, b in steps]))
            results[variant] = [x for part, _ in parts for x in part]
            cpu = sum(spent for _, spent in parts)
            mean, half = _interval(results[variant])
            print(
                f"{ns.rule} {ns.convention} boards {ns.start}..{boards - 1} {variant}: "
                f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f}), "
                f"{ns.deals / cpu:.1f} deals per CPU second",
                flush=True,
            )
    first = ns.variants[0]
    for variant in ns.variants[1:]:
        diff = [a - b for a, b in zip(results[variant], results[first], strict=True)]
        mean, half = _interval(diff)
        print(f"{variant} - {first}: {mean:+.2f} ± {half:.2f} (paired)")


if __name__ == "__main__":
    main()
