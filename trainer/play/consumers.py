"""The live table's socket: authenticate, validate through the same service as a form post,
and send each connection its own seat's server-rendered table.

A change at a table is announced to the table's group (``live-<pk>``) with only its change
stamp; every connection then renders the table *for its own user* and sends that HTML, so no
frame ever carries another seat's cards. With the Redis channel layer the group spans every app
server, so two players on different processes share one table.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import translation

from engine.errors import ConcertoError
from engine.game import Action
from trainer.core.throttle import allow
from trainer.play import live
from trainer.play.models import LiveTable


def group_name(pk: int) -> str:
    return f"live-{pk}"


def changed(table: LiveTable | None = None) -> dict[str, Any]:
    """The message that tells a table's connections it changed: ``table`` as just written
    (its change stamp lets every seat's frame share one read of it), or None when only who
    is connected or watching changed (the frames then read it afresh)."""
    return {"type": "table.changed", "stamp": live.change_stamp(table) if table else ""}


def announce(table: LiveTable) -> bool:
    """Tell every connection of ``table`` (as just written) that it changed (from synchronous
    code: views, services). False when the channel layer is down: the pages then reload on
    their own."""
    return _tell(table.pk, changed(table))


def announce_presence(pk: int) -> bool:
    """Tell table ``pk``'s connections that who is there changed (someone watches, say):
    their frames read the table afresh. False when the channel layer is down."""
    return _tell(pk, changed())


def _tell(pk: int, message: dict[str, Any]) -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(group_name(pk), message)
    except Exception:
        return False
    return True


def render_table(access: live.Access, language: str, *, host: bool = False) -> tuple[str, int]:
    """The table partial for ``access``'s user in ``language`` (with the dealing buttons for
    the ``host``), and its version. No request, so no CSRF token: live.js gives the frame's
    forms the page's."""
    shown = live.live_shown(access)
    with translation.override(language):
        html = render_to_string(
            "play/live/_table.html",
            {**live.live_context(shown), "host": host, "csrf_token": "NOTPROVIDED"},
        )
    return html, shown.table.version


def render_for(
    user: Any, pk: int, language: str, stamp: str = ""
) -> tuple[live.Access, str, int] | None:
    """The table partial for ``user`` as they sit *now* (seats change places when the host
    swaps them), or None once they may not see the table any more. ``stamp``: the change
    announced (every seat's frame of it shares one read of the table); none: read afresh."""
    access = live.live_access(user, pk, stamp)
    if access is None and stamp:  # (seated or allowed to watch since that change?)
        access = live.live_access(user, pk)
    if access is None:
        return None
    html, version = render_table(access, language, host=access.table.host_id == user.pk)
    return access, html, version


def not_a_move() -> str:
    return translation.gettext("That is not a move.")


def move(user: Any, pk: int, content: Any, language: str) -> LiveTable | str:
    """A move sent on a socket (``{"action": "7H", "version": 12}``), in one step: the table
    after it, or why it was refused, in ``language``."""
    with translation.override(language):
        if not allow(f"live-act:{user.pk}", limit=30, seconds=10):
            return translation.gettext("Too many moves at once.")
        try:
            action = Action.parse(str(content.get("action", "")))
            version = int(content.get("version", -1))
        except (ConcertoError, TypeError, ValueError, AttributeError, OverflowError):
            return not_a_move()
        try:
            return live.live_act(pk=pk, user=user, action=action, version=version)
        except live.LiveRefused as exc:
            return str(exc)


class LiveTableConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/play/tables/<pk>/``: one browser tab at a live table."""

    pk: int
    access: live.Access | None = None
    #: How this socket is counted at the table ("seat" or "watcher"), until it is counted off.
    counted: str | None = None
    #: The version of the last frame sent: a change announced after a later one is not shown.
    sent: int = -1
    #: The language of the frames and messages (the connecting page's, found on connecting).
    language: str = "en"

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # Also when the consumer dies without a disconnect (its channel layer went down):
            # the seat must not stay "connected".
            await self.count_off()

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.pk = int(self.scope["url_route"]["kwargs"]["pk"])
        self.access = await database_sync_to_async(live.live_access)(user, self.pk)
        if self.access is None:
            await self.close(code=4404)
            return
        self.language = _language(self.scope)
        await self.channel_layer.group_add(group_name(self.pk), self.channel_name)
        await self.accept()
        self.counted = "seat" if self.access.seat is not None else "watcher"
        await database_sync_to_async(self._count)(self.counted, 1)
        await self.channel_layer.group_send(group_name(self.pk), changed())

    def _count(self, counted: str, delta: int) -> None:
        if counted == "seat":
            live.live_connected(pk=self.pk, user=self.scope["user"], delta=delta)
        else:
            live.live_watching(pk=self.pk, delta=delta)

    async def count_off(self) -> None:
        counted, self.counted = self.counted, None
        if counted is not None:
            await database_sync_to_async(self._count)(counted, -1)

    async def disconnect(self, code: int) -> None:
        if self.access is None:
            return
        await self.count_off()
        try:
            await self.channel_layer.group_discard(group_name(self.pk), self.channel_name)
            await self.channel_layer.group_send(group_name(self.pk), changed())
        except Exception:  # (the channel layer is down: no one to tell)
            return

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """A frame that is not JSON text (binary, or not JSON) is answered, not a crash."""
        try:
            if text_data is None:
                raise ValueError("not a text frame")
            content = await self.decode_json(text_data)
        except ValueError:  # (json.JSONDecodeError is one)
            with translation.override(self.language):
                await self.send_json({"error": not_a_move()})
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.access is None or self.access.seat is None:
            with translation.override(self.language):
                await self.send_json({"error": translation.gettext("Watchers do not play.")})
            return
        outcome = await database_sync_to_async(move)(
            self.scope["user"], self.pk, content, self.language
        )
        if isinstance(outcome, str):
            await self.send_json({"error": outcome})
            return
        await self.channel_layer.group_send(group_name(self.pk), changed(outcome))

    async def table_changed(self, event: dict[str, Any]) -> None:
        stamp = str(event.get("stamp", ""))
        if stamp and live.stamp_version(stamp) < self.sent:
            return  # (announced before the change last shown; without a stamp: presence)
        await self.send_table(stamp)

    async def send_table(self, stamp: str = "") -> None:
        rendered = await database_sync_to_async(render_for)(
            self.scope["user"], self.pk, self.language, stamp
        )
        if rendered is None:  # no longer at this table, nor allowed to watch it
            await self.close(code=4404)
            return
        access, html, version = rendered
        if version < self.sent:  # (a frame of a later change went first)
            return
        self.access, self.sent = access, version
        await self.send_json({"html": html, "version": version})


def _language(scope: dict[str, Any]) -> str:
    from django.conf import settings

    cookies = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, val = part.strip().partition("=")
                cookies.setdefault(key, val)
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    codes = {code for code, _ in settings.LANGUAGES}
    return chosen if chosen in codes else settings.LANGUAGE_CODE
