"""WebSocket routes of the live tables (see :mod:`concerto_site.asgi`)."""

from __future__ import annotations

from django.urls import path

from trainer.play.consumers import LiveTableConsumer

websocket_urlpatterns = [
    path("ws/play/tables/<int:pk>/", LiveTableConsumer.as_asgi()),
]
