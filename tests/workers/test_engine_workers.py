"""The engine's tournaments on real worker processes over a real Redis
(``python -m engine.worker``): the JSON of one process for 1 worker or 3, and a
worker killed with SIGKILL in the middle of a chunk loses nothing."""

from __future__ import annotations

import io
import json
import sys
import threading

from engine.cli import main
from engine.tournament import PairSpec, TournamentSpec, run_tournament
from engine.tournament.workers import redis_broker, run_on_workers

from .conftest import FAST_REQUEUE, kill, redis_url, wait_for

WORKER = [sys.executable, "-m", "engine.worker"]


def _figures(result: dict) -> dict:
    result = dict(result)
    result.pop("deals_per_cpu_s")
    return result


def _workers(start_process, count: int) -> list:
    return [
        start_process([*WORKER, redis_url()], env=FAST_REQUEUE, ready="worker ready")
        for _ in range(count)
    ]


def _on_workers(deals: int, chunk: int) -> dict:
    out, err = io.StringIO(), io.StringIO()
    args = ["tournament", "--deals", str(deals), "--seed", "7", "--json"]
    status = main([*args, "--workers", redis_url(), "--chunk", str(chunk)], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_one_worker_process_and_three_give_the_json_of_one_process(redis_client, start_process):
    alone = _figures(
        run_tournament(TournamentSpec(PairSpec("signal"), PairSpec("greedy"), 24, 7)).as_json()
    )
    workers = _workers(start_process, 1)
    one = _on_workers(24, 4)
    workers += _workers(start_process, 2)
    three = _on_workers(24, 4)
    assert json.dumps(_figures(one)) == json.dumps(alone)
    assert json.dumps(_figures(three)) == json.dumps(alone)


def test_a_worker_killed_mid_chunk_loses_nothing(redis_client, start_process):
    spec = TournamentSpec(PairSpec("signal"), PairSpec("signal", "teach-yourself-1994"), 60, 3)
    (victim,) = _workers(start_process, 1)
    broker = redis_broker(redis_url())
    found: dict = {}
    coordinator = threading.Thread(
        target=lambda: found.setdefault("result", run_on_workers(spec, broker, chunk=30)),
        daemon=True,
    )
    coordinator.start()

    def holding() -> list:
        return [k for k in redis_client.keys("dramatiq:__acks__.*") if redis_client.scard(k)]

    def results() -> list:  # the result store's keys (the broker's all start "dramatiq:")
        return [k for k in redis_client.keys("*") if not k.startswith(b"dramatiq:")]

    wait_for(holding, timeout=60, what="the worker to take a chunk")
    kill(victim)  # SIGKILL: no goodbye, the chunk stays unacknowledged in Redis
    assert results() == [] and holding(), "the chunk was finished before the kill"
    _workers(start_process, 1)  # another worker; Redis gives it the dead worker's chunk
    coordinator.join(timeout=180)
    assert not coordinator.is_alive(), "the killed chunk was never played again"
    broker.close()
    assert _figures(found["result"].as_json()) == _figures(run_tournament(spec).as_json())


def test_a_duplicate_session_on_worker_processes_is_the_one_process_json(
    redis_client, start_process
):
    from engine.duplicate.session import SessionSpec, play_session

    spec = SessionSpec(pairs=6, boards=5, seed=11, bots=("strong", "greedy"))
    _workers(start_process, 2)
    out, err = io.StringIO(), io.StringIO()
    args = ["session", "--pairs", "6", "--boards", "5", "--seed", "11", "--bots", "strong,greedy"]
    status = main(
        [*args, "--json", "--workers", redis_url(), "--chunk", "3"], stdout=out, stderr=err
    )
    assert status == 0, err.getvalue()
    assert out.getvalue().strip() == json.dumps(play_session(spec))
