"""A club card's "what is it worth" on a real worker process (``dramatiq concerto_site.worker``)
over a real Redis broker and the shared PostgreSQL database: the result of one process, and a
worker killed with SIGKILL mid-chunk loses nothing (Redis hands the chunk to the next worker).

Needs ``TASK_BROKER_URL`` set for the whole test process (the site's broker is made from it)
and PostgreSQL (``DATABASE_URL``): ``.ci/run`` runs them so.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from engine.tournament import run_tournament
from trainer.cards import evaluation, services
from trainer.cards.models import CardEvaluation, EvaluationChunk
from trainer.cards.tasks import QUEUE

from ..trainer.cards.factories import club_owner, make_card
from ..trainer.factories import user
from .conftest import FAST_REQUEUE, kill, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

DRAMATIQ = [str(Path(sys.executable).parent / "dramatiq"), "concerto_site.worker"]


@pytest.fixture
def site_worker(redis_client, start_process):
    """``start()``: a ``dramatiq concerto_site.worker`` process on this test's database."""
    if not settings.TASK_BROKER_URL:
        pytest.skip("the site's broker is in process: set TASK_BROKER_URL for the test run")
    if connection.vendor != "postgresql":
        pytest.skip("a worker process shares the test database: run on PostgreSQL")
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {"DATABASE_URL": url, "dramatiq_queue_prefetch": "1", **FAST_REQUEUE}

    def start():
        return start_process(
            [*DRAMATIQ, "--processes", "1", "--threads", "1"],
            env=env,
            ready="ready for action",
        )

    return start


def _card():
    organiser = user()
    owner = club_owner(organiser)
    return make_card(owner, organiser, **{"row:two_threes:suits": "different_suits"}), organiser


def _done(version) -> CardEvaluation | None:
    found = CardEvaluation.objects.filter(version=version, status="done").first()
    return found


def _expected(done: CardEvaluation) -> dict:
    out = {}
    for opponent in ("base", "greedy"):
        alone = run_tournament(evaluation.spec_for(done, opponent)).as_json()
        alone.pop("deals_per_cpu_s")
        out[opponent] = alone
    return out


@override_settings(CARDS_EVALUATION_DEALS=16, CARDS_EVALUATION_CHUNK=4)
def test_a_real_worker_evaluates_a_card(site_worker):
    site_worker()
    version, organiser = _card()
    services.evaluation_start(actor=organiser, version=version)
    done = wait_for(lambda: _done(version), timeout=240, what="the evaluation")
    assert done.chunks.count() == done.chunks_total == 8
    assert done.result == _expected(done)


@override_settings(CARDS_EVALUATION_DEALS=60, CARDS_EVALUATION_CHUNK=30)
def test_a_worker_killed_mid_chunk_loses_nothing(site_worker, redis_client):
    victim = site_worker()
    version, organiser = _card()
    services.evaluation_start(actor=organiser, version=version)

    def holding() -> list:
        pattern = f"concerto-tasks:__acks__.*.{QUEUE}"
        return [k for k in redis_client.keys(pattern) if redis_client.scard(k)]

    wait_for(holding, timeout=60, what="the worker to take a chunk")
    kill(victim)  # SIGKILL to every process of the worker: the chunk is left half played
    evaluation_row = CardEvaluation.objects.get(version=version)
    assert EvaluationChunk.objects.filter(evaluation=evaluation_row).count() == 0, (
        "the chunk was finished before the kill"
    )
    assert holding()
    site_worker()
    done = wait_for(lambda: _done(version), timeout=300, what="the evaluation")
    assert done.chunks.count() == done.chunks_total == 4
    assert done.result == _expected(done)
