"""The live table's socket: authenticate, validate through the same service as a form post,
and send each connection its own seat's server-rendered table.

A change at a table is announced to the table's group (``live-<pk>``) with only its change
stamp; every connection then renders the table *for its own user* and sends that HTML, so no
frame ever carries another seat's cards. Connections of one process that see the table the
same way (the same seat, or watching; host or not; one language) share one rendering of each
change. With the Redis channel layer the group spans every app server, so two players on
different processes share one table.

Presence is not counted here: each socket has a :class:`~trainer.play.models.LivePresence`
row that its process's heartbeat keeps alive (:class:`Heartbeat`), so a server that dies
stops counting as "connected" when its rows lapse, and whichever server sweeps them tells the
table. When the channel layer (Redis) fails, the socket is closed with 1013 ("try again
later"), the page falls back to form posts and reconnects by itself, and the outage is logged
once per process (:data:`trainer.core.infra.outage.channel_layer`), without a traceback.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import translation
from redis.exceptions import RedisError

from trainer.core.infra import outage
from trainer.core.infra.throttle import allow
from trainer.core.languages import scope_language
from trainer.play import live
from trainer.play.models import LiveTable

#: What the channel layer raises when Redis is down or does not answer (redis-py wraps its
#: socket errors in its own), or when a group's queue overflows. Not the client's going away
#: (an ``OSError`` from the server's ``send``): that is no outage.
LAYER_ERRORS: tuple[type[BaseException], ...] = (RedisError, ChannelFull)

try:
    from uvicorn.protocols.utils import ClientDisconnected
except ImportError:  # pragma: no cover - served by daphne alone

    class ClientDisconnected(OSError):  # type: ignore[no-redef]
        """(uvicorn's, raised when a frame is sent to a client that has gone)"""


#: Close codes the page understands: 1013 try again later (the channel layer is down), 4404
#: not (or no longer) yours to see, 4429 too many tabs open at this table.
TRY_AGAIN_LATER = 1013
NOT_YOURS = 4404
TOO_MANY = 4429


def group_name(pk: int) -> str:
    return f"live-{pk}"


def changed(table: LiveTable | None = None) -> dict[str, Any]:
    """The message that tells a table's connections it changed: ``table`` as just written
    (its change stamp), or None when only who is there changed (a fresh presence stamp).
    Either way every frame of one change in one process shares one read of the table."""
    stamp = live.change_stamp(table) if table else live.presence_stamp()
    return {"type": "table.changed", "stamp": stamp}


def announce(table: LiveTable) -> bool:
    """Tell every connection of ``table`` (as just written) that it changed (from synchronous
    code: views, services). False when the channel layer is down: the pages then reload on
    their own."""
    return _tell(table.pk, changed(table))


def announce_presence(pk: int) -> bool:
    """Tell table ``pk``'s connections that who is there changed (someone watches, say).
    False when the channel layer is down."""
    return _tell(pk, changed())


def _tell(pk: int, message: dict[str, Any]) -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # (the usual case: a view's thread, which runs no event loop)
        loop = None
    if loop is not None:  # (synchronous code called on an event loop's thread: no waiting)
        loop.create_task(layer.group_send(group_name(pk), message))
        return True
    try:
        async_to_sync(layer.group_send)(group_name(pk), message)
    except LAYER_ERRORS as exc:
        outage.channel_layer.failed(exc, f"announcing table {pk}")
        return False
    outage.channel_layer.answered()
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
    announced (every frame of it in this process shares one read of the table); none: read
    afresh."""
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
        try:
            return live.live_move(pk=pk, user=user, data=content)
        except live.LiveRefused as exc:
            return str(exc)


@dataclass(frozen=True)
class OpenSocket:
    """A socket this process keeps alive at a table: whose, and as a seat's or a watcher's."""

    pk: int
    socket: str
    user: int
    watcher: bool


class Heartbeat:
    """This process's open sockets, refreshed every ``LIVE_HEARTBEAT_SECONDS`` in one query,
    and the presence of dead servers' sockets swept at the same pace (the tables they were at
    are told). Runs on the event loop while any socket is open."""

    def __init__(self) -> None:
        self.sockets: set[OpenSocket] = set()
        self.task: asyncio.Task[None] | None = None

    def add(self, socket: OpenSocket) -> None:
        self.sockets.add(socket)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def remove(self, socket: OpenSocket) -> None:
        self.sockets.discard(socket)
        if not self.sockets and self.task is not None:
            self.task.cancel()  # (the next socket starts it again)
            self.task = None

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            await self.beat()

    async def beat(self) -> None:
        """Refresh this process's sockets and sweep lapsed presence (also the tests' way to
        make a heartbeat happen now)."""
        rows = [(s.pk, s.socket, s.user, s.watcher) for s in self.sockets]
        try:
            await database_sync_to_async(live.presence_beat)(sockets=rows)
            swept = await database_sync_to_async(live.presence_sweep)()
        except DatabaseError as exc:
            outage.database.failed(exc, "the live tables' heartbeat")
            return
        layer = get_channel_layer()
        for pk in swept:
            if layer is None:
                break
            try:
                await layer.group_send(group_name(pk), changed())
            except LAYER_ERRORS as exc:
                outage.channel_layer.failed(exc, "the live tables' heartbeat")
                break


heartbeat = Heartbeat()


class LiveTableConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels: no types
    """``/ws/play/tables/<pk>/``: one browser tab at a live table."""

    pk: int
    access: live.Access | None = None
    #: This socket's presence, kept alive by the process's heartbeat, until it is closed.
    present: OpenSocket | None = None
    #: The version of the last frame sent: a change announced after a later one is not shown.
    sent: int = -1
    #: The language of the frames and messages (the connecting page's, found on connecting).
    language: str = "en"
    accepted: bool = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except LAYER_ERRORS as exc:
            # The channel layer failed under the socket (Redis stopped or stalled): one line
            # per outage, no traceback; the page is told to try again later.
            outage.channel_layer.failed(exc, "a live table's socket")
            await self._close_quietly(TRY_AGAIN_LATER)
        except ClientDisconnected:
            pass  # (a frame for a client that has just gone: nobody to send it to)
        finally:
            # Also when the consumer dies without a disconnect: the seat must not stay
            # "connected" (if this fails too, the row lapses by itself).
            await self.leave()

    async def _close_quietly(self, code: int) -> None:
        try:
            if not self.accepted:
                await self.accept()
            await self.close(code=code)
        except Exception:  # noqa: S110 - (the client has gone already: nothing to tell it)
            pass

    async def accept(self, subprotocol: Any = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.pk = int(self.scope["url_route"]["kwargs"]["pk"])
        self.access = await database_sync_to_async(live.live_access)(user, self.pk)
        if self.access is None:
            await self.close(code=NOT_YOURS)
            return
        self.language = await database_sync_to_async(scope_language)(self.scope)
        try:
            await self.channel_layer.group_add(group_name(self.pk), self.channel_name)
        except LAYER_ERRORS as exc:
            outage.channel_layer.failed(exc, "opening a live table's socket")
            await self._close_quietly(TRY_AGAIN_LATER)
            return
        outage.channel_layer.answered()
        await self.accept()
        try:
            await database_sync_to_async(live.presence_open)(
                pk=self.pk, user=user, watcher=self.access.seat is None, socket=self.channel_name
            )
        except live.TooManySockets as exc:
            with translation.override(self.language):
                await self.send_json({"error": str(exc)})
            await self.close(code=TOO_MANY)
            return
        self.present = OpenSocket(
            self.pk, self.channel_name, user.pk, watcher=self.access.seat is None
        )
        heartbeat.add(self.present)
        await self.channel_layer.group_send(group_name(self.pk), changed())

    async def leave(self) -> None:
        """This socket no longer counts as present (once)."""
        present, self.present = self.present, None
        if present is None:
            return
        heartbeat.remove(present)
        try:
            await database_sync_to_async(live.presence_close)(pk=present.pk, socket=present.socket)
        except DatabaseError as exc:  # (the row lapses by itself)
            outage.database.failed(exc, "closing a live table's socket")

    async def disconnect(self, code: int) -> None:
        if self.access is None:
            return
        await self.leave()
        try:
            await self.channel_layer.group_discard(group_name(self.pk), self.channel_name)
            await self.channel_layer.group_send(group_name(self.pk), changed())
        except LAYER_ERRORS as exc:  # (the channel layer is down: no one to tell)
            outage.channel_layer.failed(exc, "closing a live table's socket")

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
        if isinstance(content, dict) and content.get("refresh"):
            # The page asks for the table as it is now (a wait it was shown has run out).
            key = f"live-refresh:{self.scope['user'].pk}"
            if await database_sync_to_async(allow)(key, limit=10, seconds=10):
                await self.send_table()
            return
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
        try:
            await self.channel_layer.group_send(group_name(self.pk), changed(outcome))
        except LAYER_ERRORS:
            # The move is stored; this player sees it now, the others on their next frame or
            # reload. Then the socket closes with 1013 (by __call__).
            await self.send_table()
            raise

    async def table_changed(self, event: dict[str, Any]) -> None:
        stamp = str(event.get("stamp", ""))
        if 0 <= live.stamp_version(stamp) < self.sent:
            return  # (announced before the change last shown)
        await self.send_table(stamp)

    async def send_table(self, stamp: str = "") -> None:
        rendered = await database_sync_to_async(render_for)(
            self.scope["user"], self.pk, self.language, stamp
        )
        if rendered is None:  # no longer at this table, nor allowed to watch it
            await self.close(code=NOT_YOURS)
            return
        access, html, version = rendered
        if version < self.sent:  # (a frame of a later change went first)
            return
        self.access, self.sent = access, version
        await self.send_json({"html": html, "version": version})
