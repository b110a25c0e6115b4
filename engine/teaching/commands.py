"""The ``boards`` command: deals a teacher can set, found by what one seat's dealt cards hold.

See :mod:`engine.teaching.boards` for what a board promises and :mod:`engine.cli` for the exit
status (2 with the reason when the request is impossible or too rare)::

    $ python -m engine boards --seat S --first-item four_sf --count 3 --json
    {"query": {...}, "deals_searched": 212, "boards": [{"seed": ..., "dealer": "E", ...}, ...]}
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.cli_registry import command
from engine.commands import _seat
from engine.scoring import CLASSIC, SCORING_RULES
from engine.signals import DEFAULT_CONVENTION
from engine.signals.commands import convention_type
from engine.teaching.boards import (
    DEFAULT_MAX_DEALS,
    MAX_COUNT,
    BoardQuery,
    BoardSearch,
    find_boards,
)
from engine.tournament.commands import _rule

__all__ = ["boards_text", "run_boards"]


def _margin(text: str) -> tuple[int, int]:
    low, sep, high = text.partition(":")
    try:
        return (int(low), int(high)) if sep else (int(low), int(low))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a par margin: {text!r} (LOW:HIGH, e.g. -5:5 or 10:99)"
        ) from None


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seat", type=_seat, default="N", help="the seat that leads (default N)")
    p.add_argument(
        "--side-hand", type=int, default=1, help="the side's hand the seat leads (only 1)"
    )
    p.add_argument("--first-item", metavar="ITEM", help="the first checklist item it holds")
    p.add_argument("--row", metavar="ROW", help="the card's row its lead comes from")
    p.add_argument(
        "--completes", action="store_true", help="partner holds what completes the signal"
    )
    p.add_argument(
        "--play-out",
        action="store_true",
        help="four of a kind to play out (cards without a fours signal)",
    )
    p.add_argument(
        "--par-margin",
        type=_margin,
        metavar="LOW:HIGH",
        help="the seat's side's par hand score minus the other side's, e.g. --par-margin=-5:5",
    )
    p.add_argument(
        "--convention",
        type=convention_type,
        default=DEFAULT_CONVENTION,
        metavar="NAME_OR_FILE",
        help="the card (default parlett-2008)",
    )
    p.add_argument("--rule", type=_rule, default=CLASSIC, metavar="|".join(SCORING_RULES))
    p.add_argument("--count", type=int, default=10, help=f"boards to find, 1..{MAX_COUNT}")
    p.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    p.add_argument(
        "--max-deals",
        type=int,
        default=DEFAULT_MAX_DEALS,
        help=f"deals to look through before giving up (default {DEFAULT_MAX_DEALS})",
    )
    p.add_argument("--json", action="store_true", help="print JSON")


def boards_text(search: BoardSearch) -> str:
    lines = []
    for b in search.boards:
        c1, c2 = b.lead
        lead = f"{c1} {'pass' if c2 is None else c2}"
        extra = f", partner completes with {' '.join(map(str, b.reply))}" if b.reply else ""
        if b.par is not None:
            extra += f", par {b.par[0]}-{b.par[1]}"
        lines.append(
            f"seed {b.seed} dealer {b.dealer}: {b.seat} holds {b.item}"
            f"{' ' + b.shape if b.shape else ''}, leads {lead} ({b.row}){extra}"
        )
    lines.append(f"({len(search.boards)} boards in {search.deals_searched} deals)")
    return "\n".join(lines)


@command(
    "boards",
    help="Find deals where a seat leads its side's first hand holding what a lesson needs.",
    configure=_configure,
    text=True,
)
def run_boards(ns: argparse.Namespace) -> str:
    query = BoardQuery(
        seat=ns.seat,
        side_hand=ns.side_hand,
        first_item=ns.first_item,
        row=ns.row,
        completes=ns.completes,
        play_out=ns.play_out,
        par_margin=ns.par_margin,
        convention=ns.convention,
        rule=ns.rule,
    )
    search = find_boards(query, ns.count, ns.seed, ns.max_deals)
    if not ns.json:
        return boards_text(search)
    out: dict[str, Any] = {
        "query": {
            "seat": str(query.seat),
            "side_hand": query.side_hand,
            "first_item": query.first_item,
            "row": query.row,
            "completes": query.completes,
            "play_out": query.play_out,
            "par_margin": list(query.par_margin) if query.par_margin else None,
            "convention": query.convention.name,
            "rule": query.rule.name,
            "seed": ns.seed,
        },
        "deals_searched": search.deals_searched,
        "boards": [b.as_json() for b in search.boards],
    }
    return json.dumps(out)
