"""Command-line commands of the signal card: ``signal``, ``read``, ``reply``, ``cheatsheet``,
``posterior`` and ``convention`` (``show``, ``check``, ``diff`` and ``list`` cards).

Every ``--convention`` takes a card's name or the path of a card file (``docs/conventions.md``).
See :mod:`engine.cli` for the JSON, batch (stdin) and exit-status rules.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.cards import Card, parse_cards
from engine.cli_registry import UsageError, command
from engine.errors import ConcertoError
from engine.messages import Msg, Text
from engine.signals.cardcheck import check_card, diff_cards
from engine.signals.cardfile import card_text, load_convention
from engine.signals.cheat_sheet import cheatsheet_text
from engine.signals.conventions import (
    DEFAULT_CONVENTION,
    Convention,
    get_convention,
    known_conventions,
    open_convention,
)
from engine.signals.decoder import decode
from engine.signals.encoder import Play, encode
from engine.signals.posterior import posterior
from engine.signals.reply import reply_advice
from engine.signals.signal import Signal

__all__ = ["CardCheckFailed", "convention_name_type", "convention_type"]

_CONVENTION_HELP = "a card's name (default parlett-2008) or the path of a card file (.json)"


def convention_type(text: str) -> Convention:
    """An argparse ``type``: the card called ``text``, or the card in the file ``text``, checked
    and registered under its name (:func:`~engine.signals.conventions.open_convention`)."""
    try:
        return open_convention(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def convention_name_type(text: str) -> str:
    """:func:`convention_type`, as the card's name (for settings that store a name)."""
    return convention_type(text).name


def _add_convention(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--convention", type=convention_type, default=DEFAULT_CONVENTION.name, help=_CONVENTION_HELP
    )


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--side-hand", type=int, default=None, help="1..4 (1-2 strong, 3-4 weak)")
    _add_convention(p)


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
    _add_convention(p)


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


def _card(text: str) -> Convention:
    """A known card by name, else the card in the file ``text`` (read and checked, not
    registered: a changed copy of a shipped card keeps its name here)."""
    found = known_conventions().get(text)
    return found if found is not None else load_convention(text)


def _configure_convention(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    show = actions.add_parser(
        "show", help="a card as data: its file (or one JSON line with --json, with its version)"
    )
    show.add_argument("card", metavar="NAME_OR_FILE")
    show.add_argument("--json", action="store_true", help="one line of JSON, with the version")
    check = actions.add_parser(
        "check",
        help="is the card valid; which signals does it make ambiguous; does every play read "
        "back (exit status 2 when it is not valid)",
    )
    check.add_argument("card", metavar="FILE_OR_NAME")
    check.add_argument("--hands", type=int, default=2000, help="round-trip hands (default 2000)")
    check.add_argument("--seed", type=int, default=0, help="the round trip's seed (default 0)")
    check.add_argument(
        "--samples", type=int, default=300, help="partner's hands behind each odds (default 300)"
    )
    diff = actions.add_parser("diff", help="the rows added, removed and changed from A to B")
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    actions.add_parser("list", help="the cards known by name, with their versions")


@command(
    "convention",
    help="Convention cards as data: show NAME|FILE [--json], check FILE, diff A B, list.",
    configure=_configure_convention,
    text=True,
)
def run_convention(ns: argparse.Namespace) -> Any:
    if ns.action == "show":
        conv = _card(ns.card)
        if ns.json:
            return {**conv.to_json(), "version": conv.version}
        return card_text(conv)
    if ns.action == "check":
        if ns.hands < 0 or ns.samples < 1:
            raise UsageError("--hands must be 0 or more and --samples at least 1")
        known = known_conventions().get(ns.card)
        report = check_card(known or ns.card, hands=ns.hands, seed=ns.seed, samples=ns.samples)
        if not report["valid"]:
            raise CardCheckFailed(ns.card, report)
        return report
    if ns.action == "diff":
        return diff_cards(_card(ns.a), _card(ns.b))
    return [
        {"name": c.name, "title": c.title, "version": c.version, "shipped": c.shipped}
        for c in known_conventions().values()
    ]


class CardCheckFailed(ConcertoError):
    """A card that failed ``convention check``: the CLI prints ``report`` (the check's JSON) on
    stdout, then this error's one line on stderr, and exits with status 2."""

    def __init__(self, source: str, report: dict[str, Any]) -> None:
        self.report = report
        errors, roundtrip = report["errors"], report["roundtrip"]
        failed = roundtrip["failed"] if roundtrip else 0
        first = errors[0]["message"] if errors else Msg("card.check_failed.roundtrip")
        counts = (
            Msg("card.check_failed.failures", n=len(errors), failures=failed)
            if failed
            else Msg("card.check_failed.errors", n=len(errors))
        )
        super().__init__(
            Msg(
                "card.check_failed",
                source=Text(source),
                counts=counts,
                first=first if isinstance(first, Msg) else Text(first),
            )
        )
