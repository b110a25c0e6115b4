"""Class dashboard speed on a big class: 200 students with 5,000 answers each (a million rows).

Builds the data in a throwaway SQLite database (migrated from scratch, rows made with
``bulk_create``), then renders ``/classes/<id>/dashboard/`` through Django's test client as the
class's teacher, best of several runs. The CSV export and one student's page are timed too. The
last line is ``dashboard_render_s: X.XX``::

    .venv/bin/python benchmarks/bench_dashboard.py [STUDENTS] [ATTEMPTS_EACH] [ROUNDS]
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 20240601
ASSIGNMENTS = 5
ITEMS_PER_ASSIGNMENT = ("fours", "threes", "two_pair", "one_pair")
KINDS_PER_ASSIGNMENT = ("checklist", "read")
COUNT = 2  # 2 kinds × 4 items × 2 = 16 drills per assignment


def main(argv: list[str]) -> int:
    students = int(argv[1]) if len(argv) > 1 else 200
    each = int(argv[2]) if len(argv) > 2 else 5_000
    rounds = int(argv[3]) if len(argv) > 3 else 5
    with tempfile.TemporaryDirectory(prefix="bench-dashboard-") as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "concerto_site.settings")
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        import django

        django.setup()
        from django.core.management import call_command
        from django.test.utils import setup_test_environment

        setup_test_environment(debug=False)  # allows the test client's host; no query log
        call_command("migrate", verbosity=0)
        return run(students, each, rounds)


def run(students: int, each: int, rounds: int) -> int:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.utils import timezone

    from engine.drills import KINDS, skills_for
    from trainer.classes import services
    from trainer.classes.models import ClassMembership
    from trainer.classes.specs import BuiltSpec
    from trainer.progress.models import Attempt

    rng = random.Random(SEED)
    user_model = get_user_model()
    now = timezone.now()
    joined = now - timedelta(days=90)
    start = time.perf_counter()
    with transaction.atomic():
        teacher = user_model.objects.create_user("bench-teacher", password=None)
        room = services.classroom_create(
            name="Benchmark class", teacher=teacher, now=joined - timedelta(days=1)
        )
        works = [
            services.assignment_create(
                classroom=room,
                by=teacher,
                title=f"Week {n + 1}",
                due_on=(joined + timedelta(days=7 * (n + 1))).date(),
                spec=BuiltSpec(kinds=KINDS_PER_ASSIGNMENT, items=ITEMS_PER_ASSIGNMENT, count=COUNT),
                base_seed=100_000 * (n + 1),
                now=joined + timedelta(days=7 * n),
            )
            for n in range(ASSIGNMENTS)
        ]
        drills = [(w, d) for w in works for d in w.drills.all()]
        users = user_model.objects.bulk_create(
            [user_model(username=f"student{n:04d}", password="!") for n in range(students)]
        )
        ClassMembership.objects.bulk_create(
            [
                ClassMembership(classroom=room, user=u, role="student", joined_at=joined)
                for u in users
            ]
        )
        skills = {k: skills_for(k) for k in KINDS}
        span = int((now - joined).total_seconds())
        for u in users:
            rows = []
            for w, d in drills:  # every assignment drill, right about three times in four
                if len(rows) >= each:
                    break
                rows.append(
                    Attempt(
                        user=u,
                        token=uuid.uuid4(),
                        kind=d.kind,
                        skill=rng.choice(skills[d.kind]),
                        seed=d.seed,
                        params=d.params,
                        answer="fours",
                        correct=rng.random() < 0.75,
                        created_at=w.created_at + timedelta(minutes=rng.randrange(1, 5000)),
                    )
                )
            while len(rows) < each:  # free practice on random drills
                kind = rng.choice(KINDS)
                rows.append(
                    Attempt(
                        user=u,
                        token=uuid.uuid4(),
                        kind=kind,
                        skill=rng.choice(skills[kind]),
                        seed=rng.randrange(10**9),
                        params="",
                        answer="fours",
                        correct=rng.random() < 0.7,
                        created_at=joined + timedelta(seconds=rng.randrange(span)),
                    )
                )
            Attempt.objects.bulk_create(rows, batch_size=2_000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    built = time.perf_counter() - start

    client = Client()
    client.force_login(teacher)
    student = users[0]

    def best(path: str) -> float:
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            response = client.get(path)
            times.append(time.perf_counter() - t0)
            assert response.status_code == 200, (path, response.status_code)
        return min(times)

    dashboard = best(f"/classes/{room.pk}/dashboard/")
    export = best(f"/classes/{room.pk}/export.csv")
    history = best(f"/classes/{room.pk}/students/{student.pk}/")
    total = Attempt.objects.count()
    print(
        f"students: {students}, answers each: {each}, answers in all: {total:,}, "
        f"assignments: {len(works)} × {len(drills) // len(works)} drills, seed: {SEED}"
    )
    print(f"database: {connection.vendor}, built in {built:.1f}s, best of {rounds} runs")
    print(f"export_csv_s: {export:.2f}")
    print(f"student_page_s: {history:.2f}")
    print(f"dashboard_render_s: {dashboard:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
