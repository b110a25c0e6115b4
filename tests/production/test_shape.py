"""The production shape holds like the embedded default: two app servers started as ``make
serve`` starts them, PostgreSQL, Redis for the cache and the channel layer.

- seated sockets idle for 30 s stay open, and a move made on one server reaches the other;
- Redis stopped mid-deal and started again: no 500, pages and form posts work meanwhile, the
  sockets come back by themselves, and each outage is one log line per process, no traceback;
- a server killed: its players resume on the other, nothing lost or doubled, and the killed
  server's sockets stop counting as "connected";
- 40 learners for 20 s: no 5xx, and PostgreSQL's connections stay within the pools' bound.

The servers' presence heartbeat is 2 s and lapses after 6 s (``tests.production.servers``).
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections import Counter

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from engine.seats import Seat
from tests.production.servers import Server
from tests.trainer.play.test_live_servers import (
    RedisServer,
    Seated,
    dealt_table,
    engine_of,
    human_moves,
    person,
    play_one,
    quiet,
)
from trainer.play.models import LivePresence

pytestmark = pytest.mark.production


def _open_all(players: dict[Seat, Seated], timeout: float = 30) -> None:
    """Open every player's socket, trying again while the servers cannot take them yet (as
    live.js does)."""
    deadline = time.monotonic() + timeout
    for p in players.values():
        while True:
            try:
                p.open()
                break
            except (InvalidStatus, ConnectionClosed, OSError):
                p.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)


def _close_all(players: dict[Seat, Seated]) -> None:
    for p in players.values():
        p.close()


def _no_traceback(*servers: Server) -> None:
    for server in servers:
        log = server.log()
        assert "Traceback" not in log, log[-4000:]


def _one_line_per_outage_and_process(server: Server, what: str) -> None:
    """``what`` ("channel layer", "cache") was logged unavailable at most once per worker
    process of ``server`` (one outage in the test)."""
    lines = re.findall(rf"The {what} is unavailable .*\(process (\d+)\)", server.log())
    counts = Counter(lines)
    assert counts, f"no outage of the {what} was logged by {server.name}"
    assert all(n == 1 for n in counts.values()), counts


def _table_across(servers: list[Server], south: str, north: str, *, first_move: bool = True):
    """A dealt table with ``south`` seated on server A and ``north`` on B, both sockets open
    (and, with ``first_move``, one move made): the table, its players and the people."""
    a, b = servers
    ana, ben = person(south), person(north)
    table = dealt_table(ana, ben)
    players = {Seat.S: Seated(a, ana, table, Seat.S), Seat.N: Seated(b, ben, table, Seat.N)}
    _open_all(players)
    quiet(*players.values())
    if first_move:
        play_one(players, table)
        table.refresh_from_db()
    return table, players, ana, ben


def test_idle_sockets_stay_open_and_moves_cross_servers(servers, transactional_db):
    a, b = servers
    table, players, _, _ = _table_across(servers, "ana", "ben", first_move=False)
    try:
        time.sleep(30)  # (idle: the channel layer blocks on Redis six times meanwhile)
        for p in players.values():
            with pytest.raises(TimeoutError):  # nothing came and nothing closed
                p.ws.recv(timeout=0.1)  # type: ignore[union-attr]
        directions = {play_one(players, table)}
        table.refresh_from_db()
        while len(directions) < 2 and table.status == "playing":
            directions.add(play_one(players, table))
            table.refresh_from_db()
        assert directions == {(Seat.S, Seat.N), (Seat.N, Seat.S)}
    finally:
        _close_all(players)
    _no_traceback(a, b)


def test_redis_stopped_and_started_mid_deal(servers, redis: RedisServer, transactional_db):
    a, b = servers
    table, players, ana, ben = _table_across(servers, "cleo", "dan")
    before = human_moves(table)

    redis.kill()
    for p in players.values():  # told to try again later, not dropped
        with pytest.raises(ConnectionClosed) as closed:
            p.drain(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        p.close()
    # A new socket's handshake is answered (no 500), then told to try again later.
    for server, user, seat in ((a, ana, Seat.S), (b, ben, Seat.N)):
        late = Seated(server, user, table, seat)
        with pytest.raises(ConnectionClosed) as closed:
            late.open().ws.recv(timeout=15)  # type: ignore[union-attr]
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        late.close()
    made = []
    for _ in range(3):  # moves by form post, through either server
        engine = engine_of(table)
        seat = engine.to_move()
        action = str(engine.legal(seat)[0])
        status, _ = players[seat].post(
            f"/play/tables/{table.pk}/act/", {"action": action, "version": str(table.version)}
        )
        assert status == 302, status
        made.append((seat, action))
        table.refresh_from_db()
        for p in players.values():
            status, page = p.get(f"/play/tables/{table.pk}/")
            assert status == 200 and f'data-version="{table.version}"' in page
    for p in players.values():  # pages that need the cache work without it
        assert p.get("/progress/")[0] == 200
    assert human_moves(table) == before + made

    redis.start()
    players = {Seat.S: Seated(a, ana, table, Seat.S), Seat.N: Seated(b, ben, table, Seat.N)}
    _open_all(players, timeout=60)
    try:
        quiet(*players.values())
        directions = {play_one(players, table)}
        table.refresh_from_db()
        directions.add(play_one(players, table))
    finally:
        _close_all(players)
    _no_traceback(a, b)
    for server in (a, b):
        _one_line_per_outage_and_process(server, "channel layer")
        _one_line_per_outage_and_process(server, "cache")


def test_a_server_killed_its_players_resume_on_the_other(
    servers, database_url, redis: RedisServer, folder, transactional_db
):
    a, b = servers
    table, players, ana, ben = _table_across(servers, "eve", "finn")
    assert set(LivePresence.objects.filter(table=table).values_list("user_id", flat=True)) == {
        ana.pk,
        ben.pk,
    }

    # The player on B sends a move, and B dies at once: the move is stored or it is not.
    engine = engine_of(table)
    moves_before = human_moves(table)
    if engine.to_move() is Seat.N:
        players[Seat.N].act(str(engine.legal(Seat.N)[0]), table.version)
    b.kill()
    players[Seat.N].close()
    # B's socket no longer counts once its heartbeat lapses: South's frames say so.
    deadline = time.monotonic() + 30
    while LivePresence.objects.filter(table=table, user=ben).exists():
        assert time.monotonic() < deadline, "a dead server's socket still counts"
        time.sleep(0.5)
    frame = players[Seat.S].frames[-1]
    deadline = time.monotonic() + 15
    while 'data-seat-line="N"' not in frame["html"] or (
        'data-connected="1"' in frame["html"].split('data-seat-line="N"')[1].split("</li>")[0]
    ):
        assert time.monotonic() < deadline, "South was not told North left"
        with contextlib.suppress(TimeoutError):
            frame = players[Seat.S].until_version(0, timeout=1)

    # North comes back through A (the load balancer sends it there) and play goes on.
    table.refresh_from_db()
    moved = human_moves(table)
    assert moved[: len(moves_before)] == moves_before and len(moved) - len(moves_before) <= 1
    players[Seat.N] = Seated(a, ben, table, Seat.N)
    _open_all({Seat.N: players[Seat.N]})
    try:
        quiet(*players.values())
        for _ in range(2):
            play_one(players, table)
            table.refresh_from_db()
        # Nothing doubled: each person's move is in the record once, in turn.
        assert len(human_moves(table)) == len(moved) + 2
    finally:
        _close_all(players)
        b.start()  # (for the tests after this one)
    _no_traceback(a)


def _learn(server: Server, session: str, stop: float, statuses: Counter, lock) -> None:
    import http.client
    import urllib.parse

    cookies = {"sessionid": session}
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

    def request(method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        nonlocal conn
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = server.url
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            return 0, ""
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key] = rest.split(";", 1)[0]
        return response.status, text

    mine: Counter = Counter()
    while time.monotonic() < stop:
        status, page = request("GET", "/drills/lead/")
        mine[status] += 1
        action = re.search(r'<form method="post" action="(/drills/[^"]+)"', page)
        showing = re.search(r'name="showing" value="([^"]+)"', page)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        cards = re.findall(r'name="c1" value="([^"]+)"', page)
        if not (action and showing and token and len(cards) >= 2):
            continue
        form = {
            "showing": showing[1],
            "csrfmiddlewaretoken": token[1],
            "c1": cards[0],
            "c2": cards[1],
        }
        status, _ = request("POST", action[1].replace("&amp;", "&"), form)
        mine[status] += 1
    with lock:
        statuses.update(mine)


def test_forty_learners_get_no_5xx_and_connections_stay_within_the_pools(servers, transactional_db):
    from django.conf import settings
    from django.db import connection

    from tests.browser.asgi_servers import session_cookie

    learners = [person(f"learner-{i}") for i in range(40)]
    sessions = [session_cookie(user) for user in learners]
    statuses: Counter = Counter()
    lock = threading.Lock()
    stop = time.monotonic() + 20
    threads = [
        threading.Thread(
            target=_learn, args=(servers[i % 2], session, stop, statuses, lock), daemon=True
        )
        for i, session in enumerate(sessions)
    ]
    peak: Counter = Counter()  # the most connections each server held at once
    for thread in threads:
        thread.start()
    with connection.cursor() as cursor:
        while any(thread.is_alive() for thread in threads):
            cursor.execute(
                "SELECT application_name, count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() GROUP BY application_name"
            )
            for name, count in cursor.fetchall():
                peak[name] = max(peak[name], count)
            time.sleep(0.25)
    for thread in threads:
        thread.join()
    assert sum(n for status, n in statuses.items() if status == 200) > 200, statuses
    assert not [s for s in statuses if s == 0 or s >= 500], statuses
    # Each worker process borrows from a pool of DB_POOL_MAX_SIZE connections at most.
    for server in servers:
        bound = int(server.env["WEB_CONCURRENCY"]) * settings.DB_POOL_MAX_SIZE
        assert 0 < peak[f"concerto-{server.name}"] <= bound, (server.name, peak, bound)
    assert sum(peak.values()) < 60, peak
    print(f"PostgreSQL connections at most {dict(peak)}; statuses {dict(statuses)}")
    _no_traceback(*servers)
