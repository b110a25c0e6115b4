"""Seed kinds of the site app: ``demo`` (users, attempts, a club and a class; see trainer.demo)."""

from trainer.demo import load_demo

__all__ = ["load_demo"]
