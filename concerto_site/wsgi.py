"""WSGI entry point, e.g. ``gunicorn concerto_site.wsgi``.

Django's handler with a request that survives any ``charset`` (``trainer.core.web.wsgi``)."""

import os

from trainer.core.web.wsgi import get_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "concerto_site.settings")

application = get_application()
