"""The app split (models moved from ``trainer`` to the feature apps) loses no row.

The database is taken back to the state before the split (``trainer`` 0002, the feature apps'
migrations unapplied), filled there with the demo data and with rows written through the
historical ``trainer`` models, then migrated forward. Every table must hold exactly the rows it
held, readable through the new models, and content types, permissions and admin log entries
must follow the models to their new apps.
"""

from __future__ import annotations

import uuid

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from django.utils import timezone

from trainer.classes.models import Assignment, AssignmentDrill, ClassMembership, Classroom
from trainer.clubs.models import Club, ClubMembership
from trainer.drills.models import DrillSet, DrillSetEntry
from trainer.learn.models import Lesson
from trainer.progress.models import Attempt, SkillState

PRE_SPLIT = ("trainer", "0002_attempt_params_1024_cache_table")
SPLIT = ("trainer", "0003_models_moved_to_feature_apps")
FEATURE_APPS = ["drills", "progress", "learn", "clubs", "classes"]
MOVED = [
    DrillSet,
    DrillSetEntry,
    Attempt,
    SkillState,
    Lesson,
    Club,
    ClubMembership,
    Classroom,
    ClassMembership,
    Assignment,
    AssignmentDrill,
]


def _migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def _latest() -> list[tuple[str, str | None]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _tables() -> dict[str, list[tuple]]:
    """Every row of every moved table, as the database holds it."""
    rows = {}
    with connection.cursor() as cursor:
        for model in MOVED:
            table = model._meta.db_table
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY id")  # noqa: S608 - table names from the models
            rows[table] = cursor.fetchall()
    return rows


def _old_rows(old_apps) -> None:
    """A row in each moved model written through the historical ``trainer`` models."""
    user = old_apps.get_model("auth", "User").objects.create(username="historian")
    drill_set = old_apps.get_model("trainer", "DrillSet").objects.create(
        slug="old-set", title="Old set", position=999
    )
    old_apps.get_model("trainer", "DrillSetEntry").objects.create(
        drill_set=drill_set, position=1, kind="checklist", seed=3, params="items=fours&v=2"
    )
    old_apps.get_model("trainer", "Attempt").objects.create(
        user=user,
        token=uuid.uuid4(),
        kind="checklist",
        skill="fours",
        seed=3,
        params="items=fours&v=2",
        answer="fours",
        correct=True,
        created_at=timezone.now(),
    )
    old_apps.get_model("trainer", "Lesson").objects.create(
        slug="old-lesson", title="Old lesson", position=999, body="<p>Body</p>"
    )


@pytest.mark.django_db(transaction=True)
def test_moving_the_models_to_feature_apps_keeps_every_row():
    try:
        # The demo data is written through today's models, then the schema is taken back to
        # before the split (later migrations such as new columns are reversed with it).
        with override_settings(TRAINER_DEMO_DATA=True):
            call_command("seed")
        executor = _migrate([PRE_SPLIT] + [(app, None) for app in FEATURE_APPS])
        old_apps = executor.loader.project_state(PRE_SPLIT, at_end=True).apps
        assert ContentType.objects.filter(app_label="trainer", model="attempt").exists()
        _old_rows(old_apps)
        attempt_type = ContentType.objects.get(app_label="trainer", model="attempt")
        admin = get_user_model().objects.create(username="admin", is_staff=True)
        grant = Group.objects.create(name="reviewers")
        grant.permissions.add(Permission.objects.get(codename="view_attempt"))
        LogEntry.objects.create(
            user=admin,
            content_type=attempt_type,
            object_id="1",
            object_repr="an attempt",
            action_flag=1,
        )
        before = _tables()
        assert all(before.values()), {t: len(r) for t, r in before.items()}

        _migrate([SPLIT] + [(app, "0001_initial") for app in FEATURE_APPS])

        assert _tables() == before
        _migrate(_latest())
        assert set(Attempt.objects.values_list("source", flat=True)) == {"drill"}
        for model in MOVED:
            assert sorted(obj.pk for obj in model.objects.all()) == [
                row[0] for row in before[model._meta.db_table]
            ]
        assert Attempt.objects.get(user__username="historian").skill == "fours"
        assert DrillSetEntry.objects.get(drill_set__slug="old-set").drill_params.items == ("fours",)
        assert Lesson.objects.get(slug="old-lesson").body == "<p>Body</p>"
        moved_type = ContentType.objects.get_for_model(Attempt)
        assert (moved_type.pk, moved_type.app_label) == (attempt_type.pk, "progress")
        assert not ContentType.objects.filter(app_label="trainer").exists()
        assert grant.permissions.get().content_type == moved_type
        assert LogEntry.objects.get().content_type == moved_type
    finally:
        _migrate(_latest())
