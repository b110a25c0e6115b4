"""Command-line commands of the signal card: ``signal``, ``read``, ``reply``, ``cheatsheet``,
``posterior``.

See :mod:`engine.cli` for the JSON, batch (stdin) and exit-status rules.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.cards import Card, parse_cards
from engine.command import UsageError, command
from engine.signals.cheat_sheet import cheatsheet_text
from engine.signals.conventions import DEFAULT_CONVENTION, get_convention
from engine.signals.decoder import decode
from engine.signals.encoder import Play, encode
from engine.signals.posterior import posterior
from engine.signals.reply import reply_advice
from engine.signals.signal import Signal


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--side-hand", type=int, default=None, help="1..4 (1-2 strong, 3-4 weak)")
    p.add_argument("--convention", default=DEFAULT_CONVENTION.name)


def _side(ns: argparse.Namespace) -> int:
    if ns.side_hand is None:
        raise UsageError("--side-hand is required")
    side: int = ns.side_hand
    return side


def _play_json(play: Play) -> list[str]:
    return [str(play[0]), "pass" if play[1] is None else str(play[1])]


def _signal_cards(items: list[str]) -> Signal:
    if len(items) != 2:
        raise UsageError(f"expected C1 and C2 (or pass), got {' '.join(items)!r}")
    c1 = Card.parse(items[0])
    c2 = None if items[1].strip().lower() == "pass" else Card.parse(items[1])
    if c2 is c1:
        raise UsageError(f"the same card twice: {c1}")
    return Signal(c1, c2)


def _configure_signal(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="*", help="the leader's cards")
    _common(p)


@command(
    "signal",
    help="What the leader signals with CARDS: the item and every correct play.",
    configure=_configure_signal,
    wants_stdin=lambda ns: not ns.cards,
)
def run_signal(ns: argparse.Namespace) -> dict[str, Any]:
    enc = encode(parse_cards(ns.cards), _side(ns), get_convention(ns.convention))
    return {"item": enc.item, "shape": enc.shape, "plays": [_play_json(p) for p in enc.plays]}


def _configure_read(p: argparse.ArgumentParser) -> None:
    p.add_argument("signal", nargs="*", help="C1 C2, or C1 pass")
    _common(p)
    p.add_argument("--visible", nargs="*", default=[], help="cards the reader can see")


@command(
    "read",
    help="Every reading of the signal C1 C2 (or C1 pass), primary first.",
    configure=_configure_read,
    wants_stdin=lambda ns: not ns.signal,
)
def run_read(ns: argparse.Namespace) -> dict[str, Any]:
    c1, c2 = _signal_cards(ns.signal)
    readings = decode(c1, c2, _side(ns), get_convention(ns.convention), parse_cards(ns.visible))
    return {
        "primary": readings[0].item if readings else "no_signal",
        "readings": [{"item": r.item, "shape": r.shape, "text": r.text} for r in readings],
    }


def _configure_reply(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="*", help="partner's (the replier's) cards")
    p.add_argument("--signal", nargs=2, metavar=("C1", "C2"), required=False)
    _common(p)
    p.add_argument("--visible", nargs="*", default=[])


@command(
    "reply",
    help="What partner should do after the signal: play, pass or force.",
    configure=_configure_reply,
    wants_stdin=lambda ns: not ns.cards,
)
def run_reply(ns: argparse.Namespace) -> dict[str, Any]:
    if not ns.signal:
        raise UsageError("--signal C1 C2|pass is required")
    c1, c2 = _signal_cards(ns.signal)
    advice = reply_advice(
        parse_cards(ns.cards),
        c1,
        c2,
        _side(ns),
        get_convention(ns.convention),
        parse_cards(ns.visible),
    )
    return {
        "action": advice.action,
        "cards": [str(c) for c in advice.cards],
        "reason": advice.reason,
    }


def _configure_cheatsheet(p: argparse.ArgumentParser) -> None:
    p.add_argument("--convention", default=DEFAULT_CONVENTION.name)


@command(
    "cheatsheet", help="The convention card as text.", configure=_configure_cheatsheet, text=True
)
def run_cheatsheet(ns: argparse.Namespace) -> str:
    return cheatsheet_text(get_convention(ns.convention))


def _configure_posterior(p: argparse.ArgumentParser) -> None:
    p.add_argument("signal", nargs="*", help="C1 C2, or C1 pass")
    _common(p)
    p.add_argument(
        "--hand-size",
        type=int,
        default=None,
        help="partner's cards when leading, the signal included (1..13)",
    )
    p.add_argument("--visible", nargs="*", default=[], help="cards the reader can see")
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--model", default="preferred", help="preferred or any")


@command(
    "posterior",
    help="The odds of each item (and shape) partner holds after the signal C1 C2 (or C1 pass).",
    configure=_configure_posterior,
    wants_stdin=lambda ns: not ns.signal,
)
def run_posterior(ns: argparse.Namespace) -> dict[str, Any]:
    c1, c2 = _signal_cards(ns.signal)
    if ns.hand_size is None:
        raise UsageError("--hand-size is required")
    result = posterior(
        Signal(c1, c2),
        _side(ns),
        ns.hand_size,
        parse_cards(ns.visible),
        get_convention(ns.convention),
        samples=ns.samples,
        seed=ns.seed,
        model=ns.model,
    )
    return result.to_json()
