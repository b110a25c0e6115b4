"""An evaluation's worker side: play one chunk and write it, merge the result when the last
chunk is in, or mark the evaluation failed.

The actor in :mod:`trainer.cards.tasks` runs these; :mod:`trainer.cards.services` starts an
evaluation and sends its chunks to that actor. Kept apart from the services so the import runs
one way: services → tasks → work.
"""

from __future__ import annotations

import logging
import time

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.tournament import play_boards
from trainer.cards import evaluation as plan
from trainer.cards.models import CardEvaluation, EvaluationChunk

logger = logging.getLogger(__name__)


def chunk_play(*, evaluation_id: int, opponent: str, start: int, stop: int) -> None:
    """Play one chunk of an evaluation and write it (a worker's job). Idempotent: a chunk
    already written is not played again, and the last chunk in merges the result."""
    evaluation = (
        CardEvaluation.objects.select_related("version__card").filter(pk=evaluation_id).first()
    )
    if evaluation is None or evaluation.status == CardEvaluation.Status.DONE:
        return
    if not EvaluationChunk.objects.filter(
        evaluation=evaluation, opponent=opponent, start=start
    ).exists():
        spec = plan.spec_for(evaluation, opponent)
        cpu0 = time.thread_time()
        boards = play_boards(spec, start, stop)
        cpu = time.thread_time() - cpu0
        try:
            with transaction.atomic():
                EvaluationChunk.objects.create(
                    evaluation=evaluation,
                    opponent=opponent,
                    start=start,
                    stop=stop,
                    boards=[b.to_json() for b in boards],
                    cpu_seconds=cpu,
                )
                CardEvaluation.objects.filter(
                    pk=evaluation.pk, status__in=["queued", "running"]
                ).update(status=CardEvaluation.Status.RUNNING, updated_at=timezone.now())
        except IntegrityError:  # another worker wrote it first (a retried chunk): same boards
            pass
    _finish_if_complete(evaluation.pk)


@transaction.atomic
def _finish_if_complete(evaluation_id: int) -> None:
    evaluation = (
        CardEvaluation.objects.select_for_update()
        .select_related("version__card")
        .get(pk=evaluation_id)
    )
    if evaluation.status == CardEvaluation.Status.DONE:
        return
    chunks = list(evaluation.chunks.all())
    if len(chunks) < evaluation.chunks_total:
        return
    evaluation.result = plan.merge(evaluation, chunks)
    evaluation.cpu_seconds = sum(c.cpu_seconds for c in chunks)
    evaluation.status = CardEvaluation.Status.DONE
    evaluation.error = ""
    evaluation.finished_at = evaluation.updated_at = timezone.now()
    evaluation.save()


def evaluation_fail(*, evaluation_id: int, error: str) -> None:
    """Mark an evaluation failed (a chunk raised on every try); "run" sends it again."""
    logger.error("card evaluation %s failed: %s", evaluation_id, error)
    CardEvaluation.objects.filter(pk=evaluation_id).exclude(
        status=CardEvaluation.Status.DONE
    ).update(status=CardEvaluation.Status.FAILED, error=error[:2000], updated_at=timezone.now())
