"""The cards' background work: one actor, which plays one chunk of an evaluation.

Declared on the task queue's broker (:mod:`trainer.core.infra.tasks`); a worker process runs it with
``dramatiq concerto_site.worker``, or the in-process worker does without ``TASK_BROKER_URL``.
"""

from __future__ import annotations

import dramatiq
from django.db import close_old_connections
from dramatiq.middleware import CurrentMessage

from trainer.cards import work
from trainer.core.infra import tasks

QUEUE = "concerto-cards"
#: A chunk that raises is tried again this often before its evaluation is marked failed; a
#: worker that dies is not a failure (Redis hands its chunk to another worker).
MAX_RETRIES = 3


@dramatiq.actor(
    broker=tasks.broker(),
    queue_name=QUEUE,
    actor_name="cards_evaluate_chunk",
    max_retries=MAX_RETRIES,
    min_backoff=1000,
    max_backoff=30_000,
    time_limit=60 * 60 * 1000,
)
def evaluate_chunk(evaluation_id: int, opponent: str, start: int, stop: int) -> None:
    close_old_connections()
    try:
        work.chunk_play(evaluation_id=evaluation_id, opponent=opponent, start=start, stop=stop)
    except Exception as exc:
        message = CurrentMessage.get_current_message()
        retries = message.options.get("retries", 0) if message is not None else MAX_RETRIES
        if retries >= MAX_RETRIES:
            work.evaluation_fail(evaluation_id=evaluation_id, error=f"{type(exc).__name__}: {exc}")
        raise
    finally:
        close_old_connections()
