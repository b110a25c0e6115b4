"""SQLite under concurrent writers: several processes recording answers at once lose none.

Each process is a separate Django (as gunicorn's workers are) on one SQLite file. Before the
SQLite options (immediate transactions, WAL, a busy timeout) a large share of these writes failed
with ``database is locked``: the attempt insert upgraded a read transaction to a write, which
SQLite refuses at once instead of waiting.
"""

import json
import subprocess
import sys
import time

import pytest

from tests.concerto_site.test_settings import ROOT, run_manage

PROCESSES = 6
ROUNDS = 25

WRITER = r"""
import json, os, sys, time, uuid
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "concerto_site.settings"
django.setup()
from django.contrib.auth import get_user_model
from engine.drills import Answer, DrillParams, grade, make_drill
from trainer.progress import services

me, rounds, start = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
User = get_user_model()
mine, shared = User.objects.get(username=me), User.objects.get(username="shared")
drill = make_drill("lead", 7, DrillParams())
answer = Answer(play=(drill.hand[0], drill.hand[1]))
verdict = grade(drill, answer)
while time.time() < start:
    time.sleep(0.005)
ok, errors, created = 0, [], 0
for i in range(rounds):
    for user, token in ((mine, uuid.uuid4()), (shared, uuid.uuid5(uuid.NAMESPACE_URL, str(i)))):
        try:
            made = services.attempt_record(
                user=user, drill=drill, answer=answer,
                showing=services.Showing(token, int(time.time() * 1000))).created
            ok += 1
            created += int(made and user is shared)
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
print(json.dumps({"ok": ok, "errors": errors, "shared_created": created}))
"""

COUNT = """
from trainer.progress.models import Attempt, SkillState
print(Attempt.objects.filter(user__username="shared").count(),
      Attempt.objects.exclude(user__username="shared").count(),
      sum(SkillState.objects.filter(user__username="shared").values_list("attempts", flat=True)))
"""


def test_concurrent_answers_on_sqlite_are_all_stored(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'load.sqlite3'}", "CACHE_URL": "db"}
    users = "; ".join(f"U.objects.create_user('writer{n}')" for n in range(PROCESSES))
    made = run_manage(  # one process migrates and makes the users
        "shell",
        "-c",
        "from django.core.management import call_command; "
        "call_command('migrate', interactive=False, verbosity=0); "
        "from django.contrib.auth import get_user_model as g; "
        f"U = g(); U.objects.create_user('shared'); {users}",
        env=env,
    )
    assert made.returncode == 0, made.stderr

    import os

    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    start = time.time() + 3  # every process imported and waiting, then all at once
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, f"writer{n}", str(ROUNDS), str(start)],
            cwd=ROOT,
            env={**clean, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(PROCESSES)
    ]
    results = []
    for writer in writers:
        out, err = writer.communicate(timeout=240)
        assert writer.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))

    errors = [e for r in results for e in r["errors"]]
    assert errors == [], f"{len(errors)} of {2 * PROCESSES * ROUNDS} writes failed: {errors[:3]}"
    counted = run_manage("shell", "-c", COUNT, env=env)
    shared, own, shared_skill = map(int, counted.stdout.strip().splitlines()[-1].split())
    assert own == PROCESSES * ROUNDS  # every answer stored
    assert shared == ROUNDS  # double submits of one showing: stored once
    assert sum(r["shared_created"] for r in results) == ROUNDS
    assert shared_skill == ROUNDS  # and counted once on the skill


def test_sqlite_is_configured_for_concurrent_writers():
    from django.conf import settings

    from concerto_site import settings as site_settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite only")
    options = site_settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert "synchronous=NORMAL" in options["init_command"]
    assert options["timeout"] >= 5
