"""Commands of the tournament: ``tournament``, ``par`` (the par solver's best hands) and
``ladder``.

See :mod:`engine.cli` for the JSON, batch (stdin) and exit-status rules::

    $ python -m engine tournament --ns signal --ew greedy --deals 200 --seed 1 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from engine.bots import BOT_NAMES
from engine.cli_registry import UsageError, command
from engine.game import DealState
from engine.par import solve_deal
from engine.scoring import CLASSIC, SCORING_RULES, ScoringRule, get_rule
from engine.seats import SIDES, Seat
from engine.signals.commands import convention_type
from engine.tournament import PairSpec, TournamentResult, TournamentSpec, run_tournament

__all__ = ["run_par", "run_tournament_command"]


def _rule(text: str) -> ScoringRule:
    try:
        return get_rule(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _configure_tournament(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ns", choices=BOT_NAMES, default="signal", help="pair A (starts NS)")
    p.add_argument("--ew", choices=BOT_NAMES, default="greedy", help="pair B (starts EW)")
    p.add_argument("--deals", type=int, default=1000, help="boards to play (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    p.add_argument(
        "--workers",
        metavar="URL",
        help="play the chunks on the workers of this Redis queue (redis://host:port/db; "
        "start them with python -m engine.worker URL) instead of --jobs",
    )
    p.add_argument(
        "--chunk",
        type=int,
        default=None,
        metavar="BOARDS",
        help="boards per chunk sent to the workers (default 25)",
    )
    p.add_argument(
        "--convention",
        "--ns-convention",
        dest="convention",
        type=convention_type,
        default=None,
        metavar="NAME_OR_FILE",
        help="convention card of pair A: a name (default parlett-2008) or a card file",
    )
    p.add_argument(
        "--ew-convention",
        type=convention_type,
        default=None,
        metavar="NAME_OR_FILE",
        help="convention card of pair B: a name or a card file (default: as --convention)",
    )
    p.add_argument("--rule", type=_rule, default=CLASSIC, metavar="|".join(SCORING_RULES))
    p.add_argument("--records", metavar="FILE", help="write every played deal as a JSON line")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--no-duplicate",
        dest="duplicate",
        action="store_false",
        help="play each board once (pair A always NS)",
    )
    p.add_argument(
        "--par",
        action="store_true",
        help="also solve each board's par to report points lost to par (slower)",
    )


@command(
    "tournament",
    help="Play seeded duplicate deals between two pairs of bots.",
    configure=_configure_tournament,
    text=True,
)
def run_tournament_command(ns: argparse.Namespace) -> str:
    if ns.deals < 1:
        raise UsageError(f"--deals must be at least 1, not {ns.deals}")
    if ns.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {ns.jobs}")
    if ns.chunk is not None and (ns.chunk < 1 or not ns.workers):
        raise UsageError("--chunk is a positive number of boards, with --workers")
    if ns.workers and not ns.workers.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--workers takes a Redis URL (redis://host:port/db), not {ns.workers!r}")
    ew_conv = ns.ew_convention if ns.ew_convention is not None else ns.convention
    spec = TournamentSpec(
        PairSpec(ns.ns, ns.convention),
        PairSpec(ns.ew, ew_conv),
        ns.deals,
        ns.seed,
        ns.rule.name,
        ns.duplicate,
    )
    if ns.workers:
        result = _on_workers(spec, ns)
    else:
        result = run_tournament(
            spec, jobs=ns.jobs, records_path=ns.records, progress=sys.stderr.isatty(), par=ns.par
        )
    return json.dumps(result.as_json()) if ns.json else result.text()


def _on_workers(spec: TournamentSpec, ns: argparse.Namespace) -> TournamentResult:
    """The tournament's chunks through the Redis queue ``ns.workers``
    (:mod:`engine.tournament.workers`)."""
    from dramatiq.errors import DramatiqError
    from redis.exceptions import RedisError

    from engine.tournament.workers import CHUNK, redis_broker, run_on_workers

    broker = redis_broker(ns.workers)
    try:
        return run_on_workers(
            spec,
            broker,
            chunk=ns.chunk or CHUNK,
            records_path=ns.records,
            progress=sys.stderr.isatty(),
            par=ns.par,
        )
    except (RedisError, DramatiqError, RuntimeError) as exc:
        raise UsageError(f"the workers at {ns.workers}: {exc}") from None
    finally:
        broker.close()


def _configure_par(p: argparse.ArgumentParser) -> None:
    p.add_argument("seed_arg", nargs="?", type=int, metavar="SEED", help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, help="the deal of `deal --seed N`")
    p.add_argument("--dealer", default="N", help="the dealer (default N)")
    p.add_argument("--rule", type=_rule, default=CLASSIC, metavar="|".join(SCORING_RULES))


def _par_seed(ns: argparse.Namespace) -> int | None:
    seed: int | None = ns.seed if ns.seed is not None else ns.seed_arg
    return seed


@command(
    "par",
    help="The par of a deal: each side's best four hands and weakest left-overs.",
    configure=_configure_par,
    wants_stdin=lambda ns: _par_seed(ns) is None,
)
def run_par(ns: argparse.Namespace) -> dict[str, object]:
    seed = _par_seed(ns)
    assert seed is not None
    state = DealState.deal(Seat.parse(ns.dealer), random.Random(seed), ns.rule)
    sides = solve_deal(state)
    return {
        "seed": seed,
        "rule": ns.rule.name,
        "sides": {str(side): sides[side].as_json() for side in SIDES},
    }
