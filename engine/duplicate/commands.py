"""Commands of duplicate sessions: ``movement`` (who plays whom, where, on which boards) and
``session`` (a whole session played by bot pairs, scored in matchpoints).

See :mod:`engine.cli` for the exit-status rules; both print text, or JSON with ``--json``::

    $ python -m engine movement --pairs 7 --kind mitchell --json
    $ python -m engine session --pairs 6 --boards 10 --seed 3 --bots strong,signal --json
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.bots import BOT_NAMES
from engine.cli_registry import UsageError, command
from engine.duplicate.movement import FILLS, KINDS, Movement, movement
from engine.duplicate.session import SessionSpec, play_session
from engine.scoring import CLASSIC, SCORING_RULES
from engine.signals.commands import convention_type
from engine.tournament.commands import _rule

__all__ = ["run_movement", "run_session"]


def _movement_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pairs", type=int, required=True, help="pairs in the field")
    p.add_argument("--boards", type=int, help="boards in all (default 2 a round)")
    p.add_argument("--kind", choices=KINDS, default="auto", help="the movement (default auto)")
    p.add_argument("--rounds", type=int, help="rounds to play (default: the complete movement)")
    p.add_argument(
        "--fill", choices=FILLS, default="sitout", help="an odd field: a sit-out or a bot pair"
    )
    p.add_argument("--json", action="store_true", help="print JSON")


def _configure_movement(p: argparse.ArgumentParser) -> None:
    _movement_args(p)


def movement_text(m: Movement) -> str:
    lines = [
        f"{m.kind.capitalize()}: {m.pairs} pairs at {m.tables} tables, {len(m.rounds)} rounds "
        f"of {m.per_round} board{'s' if m.per_round != 1 else ''} ({m.boards} boards)"
        + (f"; pair {m.bot_pair} is a bot pair" if m.bot_pair else "")
    ]
    for rnd in m.rounds:
        first, last = rnd.tables[0].boards[0], rnd.tables[0].boards[-1]
        boards = f"board {first}" if first == last else f"boards {first}-{last}"
        lines.append(f"Round {rnd.number} ({boards}):")
        for t in rnd.tables:
            lines.append(f"  table {t.table}: NS pair {t.ns} v EW pair {t.ew}")
        if rnd.sitout:
            lines.append(f"  sitting out: pair {', '.join(map(str, rnd.sitout))}")
    return "\n".join(lines)


@command(
    "movement",
    help="A duplicate session's movement (Howell or Mitchell): who meets whom, where, on which "
    "boards.",
    configure=_configure_movement,
    text=True,
)
def run_movement(ns: argparse.Namespace) -> str:
    m = movement(ns.pairs, boards=ns.boards, kind=ns.kind, rounds=ns.rounds, fill=ns.fill)
    return json.dumps(m.to_json()) if ns.json else movement_text(m)


def _bots(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    allowed = [b for b in BOT_NAMES if b != "open"]
    for name in names:
        if name not in allowed:
            raise argparse.ArgumentTypeError(f"unknown bot {name!r} (choose {', '.join(allowed)})")
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot")
    return names


def _configure_session(p: argparse.ArgumentParser) -> None:
    _movement_args(p)
    p.add_argument("--seed", type=int, default=1, help="the session's seed (default 1)")
    p.add_argument(
        "--bots",
        type=_bots,
        default=("signal",),
        metavar="K1,K2,…",
        help="the pairs' bots in turn: pair i plays bot K[(i - 1) mod n] (default signal)",
    )
    p.add_argument("--rule", type=_rule, default=CLASSIC, metavar="|".join(SCORING_RULES))
    p.add_argument(
        "--convention",
        type=convention_type,
        default=None,
        metavar="NAME_OR_FILE",
        help="the card every signalling bot plays: a name (default parlett-2008) or a card file",
    )
    p.add_argument(
        "--workers",
        metavar="URL",
        help="play the session's chunks on the workers of this Redis queue "
        "(python -m engine.worker URL)",
    )
    p.add_argument("--chunk", type=int, default=None, metavar="PLAYS", help=argparse.SUPPRESS)


def session_text(out: dict[str, Any]) -> str:
    moved = out["movement"]
    lines = [
        f"{moved['kind'].capitalize()} of {moved['pairs']} pairs, {moved['boards']} boards, "
        f"rule {out['rule']}, seed {out['seed']}",
        "Ranking:",
    ]
    for row in out["ranking"]:
        way = f" {row['direction']}" if "direction" in row else ""
        lines.append(
            f"  {row['rank']:>3}.{way} pair {row['pair']:>3} ({out['bots'][str(row['pair'])]}): "
            f"{row['percent']:.2f}% ({row['mp']:g} of {row['top']:g})"
        )
    for board in out["boards"]:
        lines.append(f"Board {board['board']} (dealer {board['dealer']}):")
        for r in board["results"]:
            lines.append(
                f"  pair {r['ns']} v {r['ew']}: {r['ns_points']}-{r['ew_points']}, "
                f"matchpoints {r['ns_mp']:g}-{r['ew_mp']:g}"
            )
    return "\n".join(lines)


@command(
    "session",
    help="Play a whole duplicate session with bot pairs and rank it in matchpoints.",
    configure=_configure_session,
    text=True,
)
def run_session(ns: argparse.Namespace) -> str:
    spec = SessionSpec(
        pairs=ns.pairs,
        boards=ns.boards,
        seed=ns.seed,
        bots=ns.bots,
        rule=ns.rule.name,
        convention=ns.convention,
        kind=ns.kind,
        rounds=ns.rounds,
        fill=ns.fill,
    )
    spec.movement()  # a movement that cannot be made stops here, before any play
    out = _on_workers(spec, ns.workers, ns.chunk) if ns.workers else play_session(spec)
    return json.dumps(out) if ns.json else session_text(out)


def _on_workers(spec: SessionSpec, url: str, chunk: int | None) -> dict[str, Any]:
    from dramatiq.errors import DramatiqError
    from redis.exceptions import RedisError

    from engine.duplicate.workers import run_session_on_workers
    from engine.tournament.workers import redis_broker

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError(f"--workers takes a Redis URL (redis://host:port/db), not {url!r}")
    broker = redis_broker(url)
    try:
        return run_session_on_workers(spec, broker, chunk=chunk or 8, progress=sys.stderr.isatty())
    except (RedisError, DramatiqError, RuntimeError) as exc:
        raise UsageError(f"the workers at {url}: {exc}") from None
    finally:
        broker.close()
