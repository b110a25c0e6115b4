"""The engine's command line: ``python -m engine COMMAND …``.

Every command prints one JSON object per case on stdout. A command whose main input is missing
from the command line (no cards, no seed) reads one case per line from stdin instead, each line
holding that command's arguments (options on the command line are defaults for every line), and
prints one JSON line per case. Bad input: exit status 2 and one line on stderr naming it; in batch
mode every good line is still answered and the bad ones are reported as ``line N: reason``. An
error may carry the command's output (``exc.report``: ``convention check`` of an invalid card
reports why), printed on stdout before that line.

Commands are registered with :func:`engine.cli_registry.command`; this module imports every module
holding commands (each registers at import time), so the imports run one way only.
"""

from __future__ import annotations

import argparse
import gettext
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

# Importing the command modules registers their commands.
import engine.commands
import engine.drills.commands
import engine.duplicate.commands
import engine.play.commands
import engine.signals.commands
import engine.teaching.commands
import engine.tournament.commands
from engine.cli_registry import REGISTRY, Command, UsageError, command
from engine.messages import ENGLISH, Msg, Translator, render

__all__ = ["COMMAND_MODULES", "EXIT_BAD_INPUT", "REGISTRY", "UsageError", "command", "main"]

#: The modules whose import registered the commands.
COMMAND_MODULES: list[str] = [
    m.__name__
    for m in (
        engine.commands,
        engine.signals.commands,
        engine.drills.commands,
        engine.duplicate.commands,
        engine.tournament.commands,
        engine.play.commands,
        engine.teaching.commands,
    )
]

EXIT_BAD_INPUT = 2
#: The catalogs of the engine's sentences (``--lang``): the trainer's ``trainer.wording`` app
#: keeps them, one ``<lang>/LC_MESSAGES/django.mo`` each, next to this package.
CATALOGS = Path(__file__).resolve().parent.parent / "trainer/wording/locale"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    parser = _Parser(prog="python -m engine", description="The Concerto rules and signals engine.")
    parser.add_argument(
        "--lang",
        default="en",
        help="language of the engine's sentences in JSON output: en (default) or one the "
        "trainer has a catalog for (ja)",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    subs: dict[str, argparse.ArgumentParser] = {}
    for cmd in REGISTRY.values():
        sub = subparsers.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.configure(sub)
        subs[cmd.name] = sub
    return parser, subs


def _translator(lang: str) -> Translator:
    """The catalog of ``lang`` (English needs none); :class:`UsageError` when there is none."""
    if lang == "en":
        return ENGLISH
    catalog = CATALOGS / lang / "LC_MESSAGES/django.mo"
    try:
        if not lang.isalpha():
            raise OSError(lang)
        with catalog.open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        raise UsageError(f"no catalog of the engine's sentences for language {lang!r}") from None


def _words(value: Any, translator: Translator) -> Any:
    """``value`` with every engine message in it rendered by ``translator``."""
    if isinstance(value, Msg):
        return render(value, translator)
    if isinstance(value, dict):
        return {k: _words(v, translator) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_words(v, translator) for v in value]
    return value


def _emit(cmd: Command, result: Any, out: TextIO, translator: Translator = ENGLISH) -> None:
    """A command's result: text as it is (a text command's), anything else as one line of
    JSON with the engine's sentences in ``translator``'s language."""
    if cmd.text and isinstance(result, str):
        out.write(result.rstrip("\n") + "\n")
    else:
        out.write(json.dumps(_words(result, translator), ensure_ascii=False) + "\n")


def _report(exc: BaseException, out: TextIO, translator: Translator = ENGLISH) -> None:
    """The output a command attached to its error (``exc.report``, e.g. the JSON of a failed
    ``convention check``): printed on stdout before the error's line on stderr."""
    report = getattr(exc, "report", None)
    if isinstance(report, str):
        out.write(report.rstrip("\n") + "\n")
    elif report is not None:
        out.write(json.dumps(_words(report, translator), ensure_ascii=False) + "\n")


def _one_line(exc: BaseException) -> str:
    """The error's English on one line (``--lang`` chooses the JSON output's language; the
    error line is for scripts and logs, the same in every language)."""
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
    translator: Translator = ENGLISH
    try:
        ns = parser.parse_args(argv)
        cmd = REGISTRY[ns.command]
        translator = _translator(ns.lang)
        if not cmd.wants_stdin(ns):
            _emit(cmd, cmd.run(ns), stdout, translator)
            return 0
    except ValueError as exc:
        _report(exc, stdout, translator)
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
            _emit(cmd, cmd.run(case), stdout, translator)
        except ValueError as exc:
            _report(exc, stdout, translator)
            stderr.write(f"error: line {number}: {_one_line(exc)}\n")
            status = EXIT_BAD_INPUT
        stdout.flush()
    return status
