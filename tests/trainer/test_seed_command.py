"""``manage.py seed`` on a real site: the content, never the demo data."""

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from trainer.learn.models import Lesson

pytestmark = pytest.mark.django_db
DEMO_USERS = ["organiser", "teacher", "student1", "student2", "student3"]


def test_no_demo_data_on_a_real_site(settings):
    settings.TRAINER_DEMO_DATA = False

    call_command("seed")

    assert not get_user_model().objects.filter(username__in=DEMO_USERS).exists()
    lessons = len(list((django_settings.BASE_DIR / "seeds" / "lessons").rglob("*.md")))
    assert Lesson.objects.count() == lessons
