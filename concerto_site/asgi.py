"""ASGI entry point: HTTP through Django, WebSockets (the live tables) through Channels.

``manage.py runserver`` serves it with daphne (make run); ``make serve`` runs it under gunicorn
with uvicorn workers. Sockets are authenticated by the session cookie and refused from any
origin but the site's own (scheme, host and port: :mod:`trainer.core.web.origins`).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "concerto_site.settings")

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application

# Django first: the consumers import models.
django_application = get_asgi_application()

from trainer.core.web.origins import SameOriginValidator  # noqa: E402
from trainer.play.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
