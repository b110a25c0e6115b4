"""Two app servers, one table: with the Redis channel layer, a move made through one ASGI
process reaches a player connected to another; with Redis down, moves by form post still work
(the page reloads) and nothing is lost; once Redis is back, the sockets work again.

Two uvicorn processes share the test database (a file: see :mod:`tests.browser.asgi_servers`)
and a ``redis-server`` of the test's own on a free port. Skipped without ``redis-server``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import shutil
import socket
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from engine.play import PlayTable
from engine.seats import SEATS, Seat
from tests.browser.asgi_servers import AsgiServer, free_port, served_database, session_cookie
from tests.browser.leakcheck import shows
from trainer.play import live
from trainer.play.models import LivePresence, LiveTable
from trainer.play.selectors import actions_of, setup_of

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (apt install redis-server)"
)

SETTINGS = {
    "rule": "classic",
    "convention": "parlett-2008",
    "opponents": "signal",
    "opponents_convention": "parlett-2008",
    "game": False,
}


class RedisServer:
    """``redis-server`` on a free loopback port, nothing saved; :meth:`kill` and
    :meth:`start` again on the same port."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("redis-server did not start")
            time.sleep(0.05)
        return self

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path).start()
    yield server
    server.kill()


@pytest.fixture
def servers(transactional_db, tmp_path: Path, redis: RedisServer):
    """Two ASGI processes on one database and one Redis channel layer."""
    with served_database(tmp_path) as url:
        a = AsgiServer(url, tmp_path, name="a", CHANNEL_LAYER_URL=redis.url)
        b = AsgiServer(url, tmp_path, name="b", CHANNEL_LAYER_URL=redis.url)
        try:
            yield a.start(), b.start()
        finally:
            a.stop()
            b.stop()


def person(name: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name)


def dealt_table(south, north) -> LiveTable:
    table = live.live_table_open(host=south, settings=SETTINGS, seat=Seat.S, opponents_link=False)
    live.live_seat_take(pk=table.pk, user=north, seat=Seat.N, allowed=SEATS)
    live.live_begin(pk=table.pk, by=south)
    table.refresh_from_db()
    return table


def engine_of(table: LiveTable) -> PlayTable:
    table.refresh_from_db()
    assert table.game is not None
    return PlayTable.replay(setup_of(table.game), actions_of(table.game), live.humans_of(table))


class Seated:
    """One player's socket to one server."""

    def __init__(self, server: AsgiServer, user, table: LiveTable, seat: Seat) -> None:
        self.server, self.user, self.table, self.seat = server, user, table, seat
        self.cookie = f"sessionid={session_cookie(user)}"
        self.ws: ClientConnection | None = None
        self.frames: list[dict] = []
        self.stack = contextlib.ExitStack()
        self.csrf = ""  # the CSRF cookie, once a page has set it

    def open(self) -> Seated:
        self.ws = self.stack.enter_context(
            connect(
                f"ws://127.0.0.1:{self.server.port}/ws/play/tables/{self.table.pk}/",
                origin=self.server.url,  # type: ignore[arg-type]
                additional_headers={"Cookie": self.cookie},
                open_timeout=10,
            )
        )
        return self

    def close(self) -> None:
        self.stack.close()

    def until_version(self, version: int, timeout: float = 10.0) -> dict:
        """Frames until one shows ``version`` or later; returns that one."""
        assert self.ws is not None
        deadline = time.monotonic() + timeout
        while True:
            data = json.loads(self.ws.recv(timeout=max(deadline - time.monotonic(), 0.01)))
            self.frames.append(data)
            assert "error" not in data, data
            if data["version"] >= version:
                return data

    def drain(self, timeout: float) -> None:
        """Read frames until the server closes the socket (or ``timeout`` passes)."""
        assert self.ws is not None
        while True:
            self.ws.recv(timeout=timeout)

    def act(self, action: str, version: int) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps({"action": action, "version": version}))

    def post(self, path: str, form: dict[str, str]) -> tuple[int, str]:
        """A form post through the table page's form (its CSRF token and cookie)."""
        page = self.get(f"/play/tables/{self.table.pk}/")[1]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        return self.request("POST", path, {**form, "csrfmiddlewaretoken": token})

    def get(self, path: str) -> tuple[int, str]:
        return self.request("GET", path)

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        headers = {"Cookie": "; ".join(c for c in (self.cookie, self.csrf) if c)}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.server.url
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                self.csrf = value.split(";", 1)[0]
        conn.close()
        return response.status, text


def hidden(table: LiveTable, seat: Seat) -> set:
    engine = engine_of(table)
    return {c for s in SEATS if s is not seat for c in engine.deal.held(s)}


def human_moves(table: LiveTable) -> list[tuple[Seat, str]]:
    """The people's moves in the deal's record, in order: (seat, action)."""
    table.refresh_from_db()
    assert table.game is not None
    engine = PlayTable(setup_of(table.game), live.humans_of(table))
    moves = []
    for action in actions_of(table.game):
        seat = engine.to_move()
        if seat in engine.humans:
            moves.append((seat, str(action)))
        engine.apply(action)
    return moves


def play_one(players: dict[Seat, Seated], table: LiveTable) -> tuple[Seat, Seat]:
    """The player to move acts over their socket; the other's socket, on the other server,
    shows the new version. Returns (from seat, to seat)."""
    engine = engine_of(table)
    seat = engine.to_move()
    mover = players[seat]
    (other,) = [p for s, p in players.items() if s is not seat]
    mover.act(str(engine.legal(seat)[0]), table.version)
    frame = other.until_version(table.version + 1)
    mover.until_version(table.version + 1)
    assert frame["version"] == table.version + 1
    table.refresh_from_db()
    secret = hidden(table, other.seat) if table.status == "playing" else set()
    assert not shows(frame["html"], secret)
    return mover.seat, other.seat


def quiet(*players: Seated) -> None:
    """Read whatever frames are on their way (connections announce themselves)."""
    for p in players:
        assert p.ws is not None
        with contextlib.suppress(TimeoutError):
            while True:
                p.frames.append(json.loads(p.ws.recv(timeout=0.5)))


def table_across(servers, south: str, north: str):
    """A dealt table with ``south`` seated through server A and ``north`` through B, both
    sockets open: the table, its players (by seat) and the two people."""
    a, b = servers
    ana, ben = person(south), person(north)
    table = dealt_table(ana, ben)
    players = {Seat.S: Seated(a, ana, table, Seat.S), Seat.N: Seated(b, ben, table, Seat.N)}
    for p in players.values():
        p.open()
    return table, players, ana, ben


def test_a_move_through_one_server_reaches_a_player_on_the_other(servers):
    a, b = servers
    table, players, _, _ = table_across(servers, "ana", "ben")
    try:
        quiet(*players.values())
        directions = set()
        while table.status == "playing":
            directions.add(play_one(players, table))
            table.refresh_from_db()
        # South (on A) reached North (on B), and North (on B) reached South (on A).
        assert directions == {(Seat.S, Seat.N), (Seat.N, Seat.S)}
        assert table.status == "finished"
        assert len(players[Seat.N].frames) >= 10
    finally:
        for p in players.values():
            p.close()
    assert "Traceback" not in a.log() + b.log(), a.log() + b.log()


def test_with_redis_down_moves_go_by_form_post_and_nothing_is_lost(servers, redis):
    a, b = servers
    table, players, ana, ben = table_across(servers, "ana", "ben")
    quiet(*players.values())
    play_one(players, table)  # live, through Redis
    table.refresh_from_db()
    before = human_moves(table)

    redis.kill()
    # The open sockets close with 1013 ("try again later": their channel layer is gone): the
    # pages show the banner and fall back to form posts.
    for p in players.values():
        with pytest.raises(ConnectionClosed) as closed:
            p.drain(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    # Their seats are not shown connected any more (each consumer counts itself off as it
    # closes: a moment after the close frame).
    deadline = time.monotonic() + 10
    while LivePresence.objects.filter(table=table).exists():
        assert time.monotonic() < deadline, list(LivePresence.objects.values("kind", "socket"))
        time.sleep(0.1)
    # A new socket is not a 500: its handshake is answered, then it is told to try later.
    refused = Seated(b, ben, table, Seat.N)
    with pytest.raises(ConnectionClosed) as closed:
        refused.open().ws.recv(timeout=10)  # type: ignore[union-attr]
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    refused.close()

    made = []
    for _ in range(3):  # moves by form post, through either server, while Redis is down
        engine = engine_of(table)
        seat = engine.to_move()
        action = str(engine.legal(seat)[0])
        started = time.monotonic()
        status, _ = players[seat].post(
            f"/play/tables/{table.pk}/act/", {"action": action, "version": str(table.version)}
        )
        assert status == 302, status  # to the table page, which the browser loads again
        assert time.monotonic() - started < 10  # a dead Redis does not hold the move up long
        made.append((seat, action))
        version = table.version
        table.refresh_from_db()
        assert table.version == version + 1
        # The table page shows the move, on both servers.
        for p in players.values():
            page = p.get(f"/play/tables/{table.pk}/")[1]
            assert f'data-version="{table.version}"' in page
            assert "data-live-banner" in page
    # Nothing lost: the record holds every move, each once, in order.
    assert human_moves(table) == before + made

    redis.start()
    # Back live: new sockets on both servers, and a move through one reaches the other.
    players = {Seat.S: Seated(a, ana, table, Seat.S), Seat.N: Seated(b, ben, table, Seat.N)}
    deadline = time.monotonic() + 20
    while True:
        try:
            for p in players.values():
                p.open()
            break
        except (InvalidStatus, ConnectionClosed, OSError):
            for p in players.values():
                p.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    try:
        quiet(*players.values())
        directions = {play_one(players, table)}
        table.refresh_from_db()
        directions.add(play_one(players, table))
        assert directions
    finally:
        for p in players.values():
            p.close()
    # Every socket closed is counted off: no seat stays "connected".
    deadline = time.monotonic() + 10
    while LivePresence.objects.filter(table=table).exists():
        assert time.monotonic() < deadline, list(LivePresence.objects.values("kind", "socket"))
        time.sleep(0.1)
    # The outage was one line per server, without a traceback.
    for server in (a, b):
        log = server.log()
        assert "Traceback" not in log, log
        assert log.count("The channel layer is unavailable") == 1, log


def test_an_idle_socket_on_the_redis_layer_stays_open(servers):
    """channels-redis waits on Redis in blocking reads of 5 s: with a socket timeout no longer
    than that (redis-py's default), every idle socket failed after 5 s (code 1006, a
    traceback each). Idle for twice that, both sockets are still open and a move still goes
    from one server to the other."""
    a, b = servers
    table, players, _, _ = table_across(servers, "ana", "ben")
    try:
        quiet(*players.values())
        time.sleep(11)
        for p in players.values():
            with pytest.raises(TimeoutError):  # (nothing came, and nothing closed)
                p.ws.recv(timeout=0.1)  # type: ignore[union-attr]
        play_one(players, table)
    finally:
        for p in players.values():
            p.close()
    for server in (a, b):
        assert "Traceback" not in server.log() and "Timeout" not in server.log(), server.log()
