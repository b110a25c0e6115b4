"""How drills, options and answers read to a learner."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.drills.model import SCORE_TITLES, Option
from engine.signals import (
    ITEM_TITLES,
)


def reading_option(item: str, shape: str | None) -> Option:
    key = item if shape is None else f"{item}:{shape}"
    label = ITEM_TITLES[item] + (f" ({shape})" if shape else "")
    return Option(key, label)


def advice_option(action: str, cards: Sequence[Card]) -> Option:
    if action == "play":
        return Option(
            "play:" + "-".join(str(c) for c in cards), "Play " + " ".join(c.symbol for c in cards)
        )
    return Option(action, {"pass": "Pass", "force": "Force partner: “Play!”"}[action])


def skill_title(kind: str, skill: str) -> str:
    if kind == "score":
        return SCORE_TITLES.get(skill, skill)
    return ITEM_TITLES.get(skill, skill)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[n]


def play_words(play: tuple[Card, Card | None]) -> str:
    c1, c2 = play
    return f"{c1.symbol} then {c2.symbol}" if c2 else f"{c1.symbol} and pass"


def signal_words(signal: tuple[Card, Card | None]) -> str:
    c1, c2 = signal
    if c2 is None:
        return f"Partner led {c1.symbol}, you passed, and partner passed too."
    return f"Partner led {c1.symbol}, you passed, partner played {c2.symbol}."


def shuffled(options: Sequence[Option], rng: random.Random) -> tuple[Option, ...]:
    out = list(options)
    rng.shuffle(out)
    return tuple(out)
