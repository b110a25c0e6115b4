"""``manage.py cheatsheet_stats``: compute and store the cheat sheet's "in 2,000 deals" odds.

The cheat sheet shows the odds of its worked examples for each convention card; they cost
seconds of CPU, so they are computed here, once per card version, and the page only reads them
(``trainer.core.game.odds.cheatsheet_odds``). Run it after ``migrate`` (``make run`` and deployments
do): it stores what is missing and skips what is stored, so it is cheap to repeat.
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from engine.errors import ConcertoError
from engine.signals import CONVENTIONS, get_convention
from trainer.core.game.odds import (
    cheatsheet_stats_key,
    ensure_stats_table,
    store_cheatsheet_stats,
    stored_cheatsheet_stats,
)


class Command(BaseCommand):
    help = (
        "Compute and store the odds of the cheat sheet's worked examples for every shipped "
        "convention card (or those named), once per card version."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--convention",
            action="append",
            default=[],
            metavar="NAME",
            help="a card to do (repeatable; default: every shipped card)",
        )
        parser.add_argument("--force", action="store_true", help="compute again even when stored")
        parser.add_argument(
            "--check",
            action="store_true",
            help="compute nothing: exit with an error if any card's statistics are missing",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["convention"] or list(CONVENTIONS)
        try:
            cards = [get_convention(name) for name in names]
        except ConcertoError as exc:
            raise CommandError(str(exc)) from exc
        if not options["check"]:
            ensure_stats_table()
        missing = []
        for conv in cards:
            key = cheatsheet_stats_key(conv)
            if options["check"]:
                if stored_cheatsheet_stats(conv) is None:
                    missing.append(conv.name)
                    self.stdout.write(f"{conv.name}: missing ({key})")
                else:
                    self.stdout.write(f"{conv.name}: stored ({key})")
                continue
            start = time.process_time()
            computed = store_cheatsheet_stats(conv, force=options["force"])
            if computed:
                seconds = time.process_time() - start
                self.stdout.write(f"{conv.name}: computed in {seconds:.1f} s CPU ({key})")
            else:
                self.stdout.write(f"{conv.name}: already stored ({key})")
        if missing:
            raise CommandError(f"no cheat-sheet statistics for {', '.join(missing)}")
        if not options["check"]:
            self.stdout.write(self.style.SUCCESS(f"Cheat-sheet statistics: {len(cards)} card(s)."))
