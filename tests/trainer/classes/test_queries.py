"""The dashboard and its CSV run a fixed number of queries, whatever the class's size.

Per request: the session and the user (authentication), the class (through
``classes_taught_by``), then ``dashboard_for``: assignments, students, one GROUP BY for progress
on assignments, one GROUP BY for skills (by student; the class's are pooled from them) and, on
the page only, the students' ratings. The page adds nothing, the "needs help" list included.
"""

import pytest
from django.conf import settings

from tests.trainer.classes import factories as f
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db

# With a shared cache (CACHE_URL=redis://…) sessions are read from it, not from the database.
_SESSION = 0 if settings.SESSION_ENGINE.endswith(("cached_db", "cached_sessions")) else 1
DASHBOARD_QUERIES = 7 + _SESSION
CSV_QUERIES = 6 + _SESSION


def _class_of(students: int, attempts: int, assignments: int = 2):
    room = f.classroom()
    works = [f.built(room, title=f"Work {n}", base_seed=1000 * (n + 1)) for n in range(assignments)]
    drills = [d for w in works for d in w.drills.all()]
    rows = []
    for s in range(students):
        who = f.student_in(room)
        for n in range(attempts):
            d = drills[n % len(drills)]
            rows.append(
                f.bulk_attempt(
                    who,
                    kind=d.kind,
                    seed=d.seed,
                    params=d.params,
                    skill=["fours", "threes", "two_pair"][n % 3],
                    correct=(n + s) % 3 != 0,
                )
            )
    Attempt.objects.bulk_create(rows)
    return room


@pytest.mark.parametrize(
    ("students", "attempts", "assignments"), [(1, 2, 1), (4, 10, 2), (15, 40, 4)]
)
def test_dashboard_queries_do_not_grow_with_the_class(
    client, django_assert_num_queries, students, attempts, assignments
):
    room = _class_of(students, attempts, assignments)
    client.force_login(f.teacher_of(room))

    with django_assert_num_queries(DASHBOARD_QUERIES):
        response = client.get(f"/classes/{room.pk}/dashboard/")

    assert response.status_code == 200
    assert response.text.count('scope="row"') == students


@pytest.mark.parametrize(
    ("students", "attempts", "assignments"), [(1, 2, 1), (4, 10, 2), (15, 40, 4)]
)
def test_csv_queries_do_not_grow_with_the_class(
    client, django_assert_num_queries, students, attempts, assignments
):
    room = _class_of(students, attempts, assignments)
    client.force_login(f.teacher_of(room))

    with django_assert_num_queries(CSV_QUERIES):
        response = client.get(f"/classes/{room.pk}/export.csv")

    assert response.content.decode().count("\n") == students + 1
