"""The task queue's worker entry point, for Dramatiq's command line::

    TASK_BROKER_URL=redis://127.0.0.1:6379/2 dramatiq concerto_site.worker --processes 2 --threads 1

Sets Django up (the same settings as the site: DATABASE_URL, TASK_BROKER_URL …), then imports
every app's ``tasks`` module, which declares its actors on the broker
(``trainer.core.infra.tasks``).
The work is pure Python: give each process one thread and run one process per core.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "concerto_site.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.utils.module_loading import autodiscover_modules  # noqa: E402

from trainer.core.infra import tasks  # noqa: E402

if not settings.TASK_BROKER_URL:
    raise ImproperlyConfigured(
        "TASK_BROKER_URL is not set: without it the site plays its background work itself "
        "(make run); a worker needs the Redis queue the site sends to."
    )
broker = tasks.broker()
autodiscover_modules("tasks")
