"""The ``drill`` command: one drill, its answer key and (optionally) the grade of an answer.

For auditing the answer key at scale; see :mod:`engine.cli` for batch mode (one
``KIND SEED [options]`` per stdin line) and exit codes::

    $ python -m engine drill lead 9 --answer "6D 8D"
    {"kind": "lead", "seed": 9, "params": {...}, "resolved": {...}, "hand": [...], ...}

``params`` is every setting as given (defaults filled in), so ``make_drill(kind, seed,
DrillParams(**params))`` rebuilds the drill; ``resolved`` is what the seed chose where
``params`` left it open (the side hand, the leader's hand size). Passing ``resolved`` back as
``--side-hand``/``--hand-size`` names a different drill: the settings are part of its address.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.cards import Card
from engine.cli_registry import UsageError, command
from engine.drills.build import make_drill
from engine.drills.grading import answer_key, grade
from engine.drills.kinds import spec_for
from engine.drills.model import Drill, DrillKind, DrillParams, Grade
from engine.messages import Msg, Text
from engine.signals import DEFAULT_CONVENTION
from engine.signals.commands import convention_name_type

__all__ = ["drill_json"]


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def _params_json(params: DrillParams) -> dict[str, Any]:
    return {
        "convention": params.convention,
        "rule": params.rule,
        "side_hand": params.side_hand,
        "hand_size": params.hand_size,
        "items": list(params.items),
        "own_hand": params.own_hand,
        "version": params.version,
    }


def _signal_json(signal: tuple[Card, Card | None] | None) -> list[str] | None:
    if signal is None:
        return None
    c1, c2 = signal
    return [str(c1), "pass" if c2 is None else str(c2)]


def _verdict(verdict: Grade, given: str) -> Msg:
    """The feedback line the trainer shows above the explanation, with the explanation."""
    expected = verdict.expected if isinstance(verdict.expected, Msg) else Text(verdict.expected)
    if verdict.correct:
        if given != verdict.preferred:
            line = Msg("verdict.right_best", expected=expected)
        else:
            line = Msg("verdict.right")
    elif len(verdict.accepted) > 1:
        line = Msg("verdict.wrong_best", expected=expected)
    else:
        line = Msg("verdict.wrong", expected=expected)
    why = verdict.explanation
    return Msg("sentences", first=line, second=why if isinstance(why, Msg) else Text(why))


def drill_json(drill: Drill, answer: str | None = None) -> dict[str, Any]:
    """A drill, its answer key and, with ``answer``, that answer's grade, as JSON values."""
    key = answer_key(drill)
    spec = spec_for(drill.kind)
    out: dict[str, Any] = {
        "kind": str(drill.kind),
        "seed": drill.seed,
        "params": _params_json(drill.params),
        "resolved": {
            "side_hand": drill.side_hand if spec.has_side_hand else None,
            "hand_size": spec.leader_size(drill),
        },
        "skill": drill.skill,
        "prompt": drill.prompt,
        "hand": _cards(drill.hand),
        "visible": _cards(drill.visible),
        "completed": [_cards(h) for h in drill.completed],
        "opponents": [_cards(h) for h in drill.opponents],
        "signal": _signal_json(drill.signal),
        "partner_hand": _cards(drill.source) if drill.signal is not None else None,
        "cards": _cards(drill.cards),
        "by": [str(s) for s in drill.by],
        "options": [{"key": o.key, "label": o.label} for o in drill.options],
        "accepted": list(key.accepted),
        "preferred": key.preferred,
        "expected": key.expected,
        "explanation": key.explanation,
        "details": list(key.details),
    }
    if answer is not None:
        given = spec.parse_text(drill, answer)
        verdict = grade(drill, given)
        out["grade"] = {
            "answer": str(given),
            "correct": verdict.correct,
            "feedback": _verdict(verdict, str(given)),
            "details": list(verdict.details),
        }
    return out


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"not a seed: {text!r} (a whole number)") from None


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "words",
        nargs="*",
        metavar="KIND SEED",
        help=f"the drill kind ({', '.join(DrillKind)}) and its seed",
    )
    p.add_argument(
        "--convention",
        type=convention_name_type,
        default=DEFAULT_CONVENTION.name,
        help="a card's name or the path of a card file (.json)",
    )
    p.add_argument("--rule", default="classic", help="classic or contribution")
    p.add_argument("--side-hand", type=int, default=None, help="1..4 (default: from the seed)")
    p.add_argument(
        "--hand-size", type=int, default=None, help="the leader's cards (default: from the seed)"
    )
    p.add_argument("--items", default="", help="checklist items (or combinations), I,J")
    p.add_argument(
        "--own-hand",
        action="store_true",
        help="read drills: show (and prune with) the reader's own hand",
    )
    p.add_argument(
        "--answer",
        default=None,
        help='grade this answer: "6D 8D", "7H pass", an option key ("four_sf", '
        '"7H 8H", "force", "12")',
    )


@command(
    "drill",
    help="Build drill KIND SEED: the position, its options, every accepted answer "
    "and why; with --answer, that answer's grade.",
    configure=_configure,
    wants_stdin=lambda ns: not ns.words,
)
def run_drill(ns: argparse.Namespace) -> dict[str, Any]:
    if len(ns.words) != 2:
        raise UsageError(f"expected KIND SEED, got {' '.join(ns.words)!r}")
    kind, seed = ns.words[0], _seed(ns.words[1])
    items = tuple(dict.fromkeys(i.strip() for i in ns.items.split(",") if i.strip()))
    params = DrillParams(
        convention=ns.convention,
        rule=ns.rule,
        side_hand=ns.side_hand,
        items=items,
        hand_size=ns.hand_size,
        own_hand=ns.own_hand,
    )
    return drill_json(make_drill(kind, seed, params), ns.answer)
