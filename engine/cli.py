"""The engine's command line: ``python -m engine COMMAND …``.

Every command prints one JSON object per case on stdout. A command whose main input is missing
from the command line (no cards, no seed) reads one case per line from stdin instead, each line
holding that command's arguments (options on the command line are defaults for every line), and
prints one JSON line per case. Bad input: exit status 2 and one line on stderr naming it; in batch
mode every good line is still answered and the bad ones are reported as ``line N: reason``.

Commands are registered with :func:`engine.command.command`; this module imports every module
holding commands (each registers at import time), so the imports run one way only.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from typing import Any, TextIO

# Importing the command modules registers their commands.
import engine.commands
import engine.drills.commands
import engine.signals.commands
import engine.tournament.commands
from engine.command import REGISTRY, Command, UsageError, command

__all__ = ["COMMAND_MODULES", "EXIT_BAD_INPUT", "REGISTRY", "UsageError", "command", "main"]

#: The modules whose import registered the commands.
COMMAND_MODULES: list[str] = [
    m.__name__
    for m in (
        engine.commands,
        engine.signals.commands,
        engine.drills.commands,
        engine.tournament.commands,
    )
]

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    parser = _Parser(prog="python -m engine", description="The Concerto rules and signals engine.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    subs: dict[str, argparse.ArgumentParser] = {}
    for cmd in REGISTRY.values():
        sub = subparsers.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.configure(sub)
        subs[cmd.name] = sub
    return parser, subs


def _emit(cmd: Command, result: Any, out: TextIO) -> None:
    if cmd.text:
        out.write(str(result).rstrip("\n") + "\n")
    else:
        out.write(json.dumps(result, ensure_ascii=False) + "\n")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or exc.__class__.__name__


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status (0, or 2 on bad input)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser, subs = build_parser()
    try:
        ns = parser.parse_args(argv)
        cmd = REGISTRY[ns.command]
        if not cmd.wants_stdin(ns):
            _emit(cmd, cmd.run(ns), stdout)
            return 0
    except ValueError as exc:
        stderr.write(f"error: {_one_line(exc)}\n")
        return EXIT_BAD_INPUT

    status = 0
    sub = subs[cmd.name]
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            case = sub.parse_args(shlex.split(line), namespace=argparse.Namespace(**vars(ns)))
            if cmd.wants_stdin(case):
                raise UsageError("the line holds no input")
            _emit(cmd, cmd.run(case), stdout)
        except ValueError as exc:
            stderr.write(f"error: line {number}: {_one_line(exc)}\n")
            status = EXIT_BAD_INPUT
        stdout.flush()
    return status
