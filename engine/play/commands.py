"""The ``replay`` command: score a play record again from its setup and actions.

``python -m engine replay < record.json`` (or ``python -m engine replay record.json``) reads one
record (a JSON object, as ``/play/<id>/record.json`` exports it), a JSON list of records, or one
record per line, and prints for each the JSON that ``playout`` prints for a game, with the
record's ``setup`` and ``actions``: one line per record. A record that does not replay, or whose
stored scores differ from the replay's, is bad input (exit status 2, naming the record).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.cli_registry import UsageError, command
from engine.errors import ConcertoError
from engine.play.record import replay_record

__all__ = ["replay_text", "run_replay"]


def _records(text: str) -> list[tuple[str, Any]]:
    """``(where, record)`` for each record in ``text``: one JSON document, or JSON lines."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        out = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                out.append((f"line {number}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise UsageError(f"line {number}: not JSON ({exc.msg})") from None
        return out
    if isinstance(whole, list):
        return [(f"record {n}", r) for n, r in enumerate(whole, start=1)]
    return [("record", whole)]


def replay_text(text: str) -> str:
    """Replay every record of ``text``; one JSON line per record."""
    records = _records(text)
    if not records:
        raise UsageError("no record to replay (stdin was empty)")
    lines = []
    for where, record in records:
        try:
            lines.append(json.dumps(replay_record(record), ensure_ascii=False))
        except ConcertoError as exc:
            raise UsageError(f"{where}: {exc}") from None
    return "\n".join(lines)


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record", nargs="?", metavar="FILE", help="a record's JSON file (default: stdin)"
    )


@command(
    "replay",
    help="Score a play record (setup and actions) again; prints the playout JSON.",
    configure=_configure,
    text=True,
)
def run_replay(ns: argparse.Namespace) -> str:
    if ns.record:
        try:
            with open(ns.record, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise UsageError(f"cannot read {ns.record}: {exc.strerror}") from None
    else:
        text = sys.stdin.read()
    return replay_text(text)
