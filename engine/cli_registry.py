"""The registry of the engine's commands: :func:`command` registers a subcommand.

Modules holding commands (:mod:`engine.commands`, :mod:`engine.signals.commands`,
:mod:`engine.drills.commands`) import this module and register at import time;
:mod:`engine.cli` imports them and this registry. The imports run one way: cli → command
modules → this registry, never back.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import ConcertoError

__all__ = ["REGISTRY", "Command", "UsageError", "command"]


class UsageError(ConcertoError):
    """Arguments the command line cannot read (raised instead of argparse's exit)."""


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Any]
    #: True when the parsed arguments lack the main input, so cases come from stdin.
    wants_stdin: Callable[[argparse.Namespace], bool]
    #: Print the result as plain text (e.g. the cheat sheet) instead of JSON.
    text: bool = False


REGISTRY: dict[str, Command] = {}


def command(
    name: str,
    *,
    help: str,
    configure: Callable[[argparse.ArgumentParser], None],
    wants_stdin: Callable[[argparse.Namespace], bool] = lambda ns: False,
    text: bool = False,
) -> Callable[[Callable[[argparse.Namespace], Any]], Callable[[argparse.Namespace], Any]]:
    """Register ``run(namespace) -> JSON-serialisable`` as a subcommand.

    ``run`` raises a :class:`ValueError` subclass for bad input; the CLI turns it into exit 2.
    """

    def register(run: Callable[[argparse.Namespace], Any]) -> Callable[[argparse.Namespace], Any]:
        REGISTRY[name] = Command(name, help, configure, run, wants_stdin, text)
        return run

    return register
