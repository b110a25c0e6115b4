"""What a card version is worth: the two tournaments of an evaluation, as the engine plays them.

The club's card (``signal`` bots with it, pair A) plays the card it came from (``signal`` bots
with that card, pair B) and the ``greedy`` bot, over the same seeded duplicate deals. Each
tournament is split into chunks (:func:`engine.tournament.plan_chunks`); a worker plays a
chunk (:func:`engine.tournament.play_boards`) and the chunks merge
(:func:`engine.tournament.summarise`) into the result one process would give, whatever the
number of workers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.tournament import BoardResult, PairSpec, TournamentSpec, plan_chunks, summarise
from trainer.cards.models import CardEvaluation, EvaluationChunk

OPPONENTS = (EvaluationChunk.Opponent.BASE, EvaluationChunk.Opponent.GREEDY)


def spec_for(evaluation: CardEvaluation, opponent: str) -> TournamentSpec:
    """The tournament of ``evaluation`` against ``opponent`` (``base`` or ``greedy``)."""
    version = evaluation.version
    if opponent == EvaluationChunk.Opponent.BASE:
        other = PairSpec("signal", version.card.derived_from)
    elif opponent == EvaluationChunk.Opponent.GREEDY:
        other = PairSpec("greedy")
    else:
        raise ValueError(f"no such opponent: {opponent!r}")
    return TournamentSpec(
        PairSpec("signal", version.name),
        other,
        evaluation.deals,
        evaluation.seed,
        evaluation.rule,
    )


def chunks_of(evaluation: CardEvaluation) -> list[tuple[str, int, int]]:
    """Every chunk of the evaluation: ``(opponent, start, stop)``."""
    return [
        (str(opponent), start, stop)
        for opponent in OPPONENTS
        for start, stop in plan_chunks(spec_for(evaluation, opponent), evaluation.chunk_size)
    ]


def merge(
    evaluation: CardEvaluation, chunks: Iterable[EvaluationChunk]
) -> dict[str, dict[str, Any]]:
    """The result of each tournament from its chunks (the timing left out, so the result is
    the same for any number of workers)."""
    boards: dict[str, list[BoardResult]] = {str(o): [] for o in OPPONENTS}
    for chunk in chunks:
        boards[chunk.opponent].extend(BoardResult.from_json(b) for b in chunk.boards)
    out: dict[str, dict[str, Any]] = {}
    for opponent, found in boards.items():
        result = summarise(spec_for(evaluation, opponent), found).as_json()
        result.pop("deals_per_cpu_s")
        out[opponent] = result
    return out
