"""What the wording tests share: engine output to render, and a finder of English words."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from engine import drills
from engine.bots import SignalBot
from engine.messages import Msg
from engine.play import PlaySetup, PlayTable, coach_lead, coach_read
from engine.scoring import get_rule
from engine.seats import Seat
from engine.signals import CONVENTIONS

SETTINGS = [(c, r) for c in sorted(CONVENTIONS) for r in ("classic", "contribution")]
#: Words that are the same in Japanese: the card titles (proper names) and the site's name.
PROPER_NAMES = {"Parlett", "Teach", "Yourself", "Concerto", "Trainer"}
_WORD = re.compile(r"[A-Za-z]{2,}")
#: Card notation: shapes (``XX.XX``), ``d=3``, ``c1``/``c2``, a rank letter, a seat letter.
_NOTATION = re.compile(r"X+")


def english_words(text: str) -> list[str]:
    """Words of two or more Latin letters that are neither card notation nor proper names."""
    return [w for w in _WORD.findall(text) if w not in PROPER_NAMES and not _NOTATION.fullmatch(w)]


def drill_output(drill: drills.Drill) -> Iterator[object]:
    """Everything a drill page prints from the engine: prompt, options, the key's words, and
    the grade of every option (or of the preferred lead)."""
    key = drills.answer_key(drill)
    yield drill.prompt
    yield from (o.label for o in drill.options)
    yield from (key.explanation, *key.details, key.expected, key.reveal_label)
    for k in key.accepted:
        yield drills.answer_words(drill.kind, k)
    if drill.kind == "lead":
        c1, c2 = key.accepted[0].split()
        answers = [drills.parse_answer(drill, {"c1": c1, "c2": c2})]
    else:
        answers = [drills.Answer.parse(o.key, drill.kind) for o in drill.options]
    for answer in answers:
        yield from drills.grade(drill, answer).details


def random_drills(per_setting: int, seed: int = 14) -> Iterator[drills.Drill]:
    """``per_setting`` random drills of every kind for each convention and scoring rule (read
    drills with and without the reader's own hand)."""
    rng = random.Random(seed)
    for convention, rule in SETTINGS:
        for kind in drills.KINDS:
            for i in range(per_setting):
                params = drills.DrillParams(
                    convention=convention, rule=rule, own_hand=kind == "read" and i % 2 == 1
                )
                yield drills.make_drill(kind, rng.randrange(2**31), params)


def play_output(deals: int, seed: int = 14) -> Iterator[object]:
    """The coach's words over whole deals (lead advice, read quizzes, hand summaries), South
    playing as a signal bot, for each convention and scoring rule."""
    rng = random.Random(seed)
    for convention, rule in SETTINGS:
        for _ in range(deals):
            table, _steps = PlayTable.start(
                PlaySetup(seed=rng.randrange(2**31), rule=get_rule(rule), convention=convention)
            )
            bot = SignalBot(convention)
            while not table.is_over():
                advice = coach_lead(table)
                if advice is not None:
                    yield advice.title
                    yield advice.why
                quiz = coach_read(table)
                if quiz is not None:
                    yield from (o.label for o in quiz.options)
                    yield from (quiz.answer_title, quiz.why, *quiz.details)
                obs = table.deal.observation(Seat.S)
                table.act(bot.choose(obs, obs.legal_actions))
            yield from (s.text for s in table.summaries())


def is_message(value: object) -> bool:
    return isinstance(value, Msg)
