"""The background evaluation ("what is it worth"): chunks on the task queue's in-process worker (the
embedded default, Dramatiq's StubBroker and Worker), merged into the same result for 1 worker
thread or 3, and equal to the engine's tournament played in one process."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.urls import reverse

from engine.tournament import run_tournament
from trainer.cards import evaluation, selectors, services, work
from trainer.cards.models import CardEvaluation, EvaluationChunk
from trainer.cards.tasks import QUEUE
from trainer.core.infra import tasks

from ..factories import user
from .factories import club_owner, make_card

SMALL = {"CARDS_EVALUATION_DEALS": 12, "CARDS_EVALUATION_CHUNK": 4, "CARDS_EVALUATION_SEED": 5}

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("small")]


@pytest.fixture
def small():
    if not tasks.embedded():
        pytest.skip("TASK_BROKER_URL is set: tests/workers/ runs the evaluation on real workers")
    with override_settings(**SMALL):
        yield


@pytest.fixture
def card():
    organiser = user()
    version = make_card(
        club_owner(organiser), organiser, **{"row:two_threes:suits": "different_suits"}
    )
    return version, organiser


def _evaluate(version, organiser, threads: int) -> CardEvaluation:
    with tasks.embedded_worker(threads):
        services.evaluation_start(actor=organiser, version=version)
        tasks.join(QUEUE, timeout=300)
    return CardEvaluation.objects.get(version=version)


def test_an_evaluation_runs_on_the_in_process_worker(card):
    version, organiser = card
    done = _evaluate(version, organiser, 1)
    assert done.status == "done" and done.chunks_total == 6
    assert done.chunks.count() == 6 and done.cpu_seconds > 0
    base = done.result["base"]
    assert base["deals"] == 12 and base["pairs"]["EW"]["convention"] == "parlett-2008"
    assert base["pairs"]["NS"]["convention"] == version.name
    low, high = base["ci95"]
    assert low <= base["diff"] <= high
    assert done.result["greedy"]["pairs"]["EW"] == {"bot": "greedy", "convention": None}


def test_one_worker_and_three_give_the_same_result(card):
    version, organiser = card
    one = _evaluate(version, organiser, 1).result
    CardEvaluation.objects.all().delete()
    three = _evaluate(version, organiser, 3).result
    assert json.dumps(one, sort_keys=True) == json.dumps(three, sort_keys=True)


def test_the_merged_chunks_equal_one_process(card):
    version, organiser = card
    done = _evaluate(version, organiser, 2)
    for opponent in ("base", "greedy"):
        alone = run_tournament(evaluation.spec_for(done, opponent)).as_json()
        alone.pop("deals_per_cpu_s")
        assert done.result[opponent] == alone


def test_a_chunk_played_twice_is_written_once(card):
    version, organiser = card
    done = _evaluate(version, organiser, 1)
    before = done.result
    work.chunk_play(evaluation_id=done.pk, opponent="base", start=0, stop=4)
    assert EvaluationChunk.objects.filter(evaluation=done).count() == 6
    done.refresh_from_db()
    assert done.result == before


def test_a_lost_evaluation_is_sent_again_with_only_its_missing_chunks(card):
    version, organiser = card
    done = _evaluate(version, organiser, 1)
    # As if the in-process queue was lost in a restart with half the chunks played.
    EvaluationChunk.objects.filter(evaluation=done, opponent="greedy").delete()
    CardEvaluation.objects.filter(pk=done.pk).update(status="running", result=None)
    with override_settings(CARDS_EVALUATION_STALE_SECONDS=0):
        again = _evaluate(version, organiser, 1)
    assert again.pk == done.pk and again.status == "done"
    assert again.result["greedy"]["deals"] == 12


def test_a_running_evaluation_is_not_sent_twice(card, monkeypatch):
    version, organiser = card
    sent = []
    monkeypatch.setattr(services, "_send", lambda pk, chunks: sent.append(chunks))
    services.evaluation_start(actor=organiser, version=version)
    services.evaluation_start(actor=organiser, version=version)
    assert len(sent) == 1 and len(sent[0]) == 6


def test_a_bad_card_never_reaches_a_worker(card, monkeypatch):
    version, organiser = card
    version.data["rows"][0]["pattern"]["rank"] = "sideways"  # stored by hand, not by the service
    version.save()
    sent = []
    monkeypatch.setattr(services, "_send", lambda pk, chunks: sent.append(chunks))
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.evaluation_start(actor=organiser, version=version)
    assert sent == [] and not CardEvaluation.objects.exists()


def test_a_chunk_that_keeps_failing_marks_the_evaluation_failed(card, monkeypatch):
    version, organiser = card

    def broken(*args, **kwargs):
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(work, "play_boards", broken)
    from trainer.cards import tasks as card_tasks

    # No tries again (each waits a backoff of seconds): the first failure is the last.
    monkeypatch.setattr(card_tasks, "MAX_RETRIES", 0)
    monkeypatch.setitem(card_tasks.evaluate_chunk.options, "max_retries", 0)
    with tasks.embedded_worker(1):
        services.evaluation_start(actor=organiser, version=version)
        with pytest.raises(RuntimeError):
            tasks.join(QUEUE, timeout=120)
    tasks.broker().flush_all()
    evaluation_row = CardEvaluation.objects.get(version=version)
    assert evaluation_row.status == "failed" and "the engine broke" in evaluation_row.error


def test_the_page_polls_while_it_runs_and_shows_the_figures_when_done(card, client):
    version, organiser = card
    client.force_login(organiser)
    url = reverse("cards:evaluate", args=[version.card_id])
    with tasks.embedded_worker(1):
        panel = client.post(url, {"version": version.number}, HTTP_HX_REQUEST="true")
        assert panel.status_code == 200
        html = panel.content.decode()
        assert 'id="evaluation"' in html
        if "every 2s" in html:  # still running: a progress bar
            assert "<progress" in html
        tasks.join(QUEUE, timeout=300)
    status = client.get(
        reverse("cards:evaluation", args=[version.card_id]) + f"?version={version.number}",
        HTTP_HX_REQUEST="true",
    )
    html = status.content.decode()
    assert "every 2s" not in html  # done: no more polling
    assert "Points per deal" in html and 'data-opponent="base"' in html
    view = selectors.evaluation_view(selectors.evaluation_of(version))
    assert view["rows"][0]["low"] <= view["rows"][0]["diff"] <= view["rows"][0]["high"]


def test_a_queue_that_cannot_be_reached_fails_the_evaluation_not_the_page(card, monkeypatch):
    from redis.exceptions import ConnectionError as RedisConnectionError

    version, organiser = card

    def down(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    monkeypatch.setattr(tasks, "send", down)
    services.evaluation_start(actor=organiser, version=version)
    failed = CardEvaluation.objects.get(version=version)
    assert failed.status == "failed" and "Connection refused" in failed.error
