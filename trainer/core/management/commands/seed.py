from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from trainer.core.seeding import SeedError, default_seed_dir, load_all


class Command(BaseCommand):
    help = "Load the seed files in seeds/ (idempotent: safe to run again)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--dir", type=Path, default=None, help="seed directory (default: seeds/)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        directory = options["dir"] or default_seed_dir()
        try:
            results = load_all(directory)
        except SeedError as exc:
            raise CommandError(str(exc)) from exc
        for result in results:
            self.stdout.write(f"{result.path}: {result.kind} ({result.count})")
        self.stdout.write(self.style.SUCCESS(f"Seeded {len(results)} file(s) from {directory}."))
