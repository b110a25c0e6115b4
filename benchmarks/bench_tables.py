"""Live tables under load: N tables × 2 people over WebSockets (and 2 bots each) on an ASGI server.

Starts uvicorn (``concerto_site.asgi``) on a free loopback port with a throwaway SQLite
database — the in-memory channel layer in one process, or with ``--redis`` a ``redis-server``
of its own for the channel layer and the cache (``--workers`` processes) — seats two people
at each of N tables (South hosts, North partners; East and West are bots) and deals. Each person
is a WebSocket client reading every frame of their table; on their turn they play their first
legal action after about ``--think`` seconds, and South deals again (a form post, as the page does)
when a deal ends. For ``--seconds``:

- actions/s: moves the people made (the bots' replies come with them);
- latency: from a person's move (sent) to each *other* person's frame showing it, p50/p95
  (and to the mover's own frame);
- beside it, in the same run, a separate process asks for the trivial page (``GET
  /accounts/login/`` signed in, as ``bench_web.py``) and ``/healthz``, a pair every
  ``--probe-every`` seconds (0.25): p50/p95. The reference is kept light so that it does not
  load the server it measures: pairs 0.05 s apart (about 11 a second) took about a third of
  the server's CPU at 50 tables;
- lost and duplicated moves (must be 0): every move sent and not refused must be in the
  deal's record once, read from the database afterwards;
- leaked cards (must be 0): every frame each person received, checked afterwards against the
  cards their seat could not see at that frame's version (rebuilt from the records) with the
  play tests' check (``tests.browser.leakcheck``); and no deal's seed in a frame before its end;
- CPU seconds of the server processes and of this driver (``time.process_time``).

- socket reconnects (must be 0): sockets that closed under a player and were opened again,
  counted apart for the ``--idle-sockets``: N more seated sockets, at tables of their own
  that nobody plays, which send nothing for the whole run (a channel layer that drops idle
  sockets shows here).

With ``--servers S`` (and ``--redis``) the tables are played across S app servers (each its own
uvicorn, ``--workers`` processes): each table's South on one server and North on the next, so
every move reaches the other seat through Redis.

The last lines are the ratios (the target: p95 ≤ 3× the trivial page's p50 at 50 tables):

    ratio_p50_vs_trivial_p50: …
    ratio_p95_vs_trivial_p50: …

    python benchmarks/bench_tables.py [--tables 50] [--seconds 60] [--think 2] [--redis]\
        [--workers N] [--servers S] [--idle-sockets N] [--probe-every 0.25]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from engine.seats import SEATS, Seat
from trainer.play import live

settings = {settings!r}
users = get_user_model().objects


def cookie(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


tables = []
for i in range({tables} + {warm} + {idle}):
    south = users.create_user(f"bench-s{{i}}")
    north = users.create_user(f"bench-n{{i}}")
    table = live.live_table_open(host=south, settings=settings, seat=Seat.S, opponents_link=False)
    live.live_seat_take(pk=table.pk, user=north, seat=Seat.N, allowed=SEATS)
    table = live.live_begin(pk=table.pk, by=south)
    tables.append(dict(pk=table.pk, version=table.version, S=cookie(south), N=cookie(north)))
probe = cookie(users.create_user("bench-probe"))
print("BENCH-SETUP " + json.dumps(dict(tables=tables, probe=probe)))
"""

VERSION = re.compile(r'id="live-table"[^>]*?data-version="(\d+)"')
STATUS = re.compile(r'data-status="(\w+)"')
TO_MOVE = re.compile(r'data-to-move="(\w*)"')
ACTION = re.compile(r'data-action="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(int(p * (len(ordered) - 1) + 0.5), len(ordered) - 1)]


# -- HTTP ------------------------------------------------------------------------------------


def http_request(
    port: int, method: str, path: str, cookies: dict[str, str], form: dict | None = None
) -> tuple[int, str, dict[str, str]]:
    """One request; returns status, body and the cookies it set."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
    body = None
    if form is not None:
        body = urllib.parse.urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Origin"] = f"http://127.0.0.1:{port}"
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    text = response.read().decode()
    set_cookies = {}
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            key, _, rest = value.partition("=")
            set_cookies[key] = rest.split(";", 1)[0]
    conn.close()
    return response.status, text, set_cookies


def deal_again(port: int, pk: int, session: str) -> bool:
    """The host's "Play another deal": the table page's form, posted."""
    cookies = {"sessionid": session}
    status, page, more = http_request(port, "GET", f"/play/tables/{pk}/", cookies)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or token is None:
        return False
    cookies.update(more)
    status, _, _ = http_request(
        port, "POST", f"/play/tables/{pk}/begin/", cookies, {"csrfmiddlewaretoken": token[1]}
    )
    return status == 302


def probe(port: int, session: str, warmup: float, seconds: float, every: float, queue: Any) -> None:
    """The trivial page and /healthz, one after the other, every ``every`` seconds (or as
    soon as the last pair is answered, if later), for ``seconds`` after ``warmup`` (in a
    process of its own). A light touch: the reference must not load the server it measures
    (pairs 0.05 s apart took about a third of the server's CPU at 50 tables)."""
    time.sleep(warmup)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    timings: dict[str, list[float]] = {"trivial": [], "bare": []}
    next_pair = time.perf_counter()
    stop = next_pair + seconds
    while time.perf_counter() < stop:
        next_pair += every
        for name, path in (("trivial", "/accounts/login/"), ("bare", "/healthz")):
            started = time.perf_counter()
            conn.request("GET", path, headers={"Cookie": f"sessionid={session}"})
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                timings[name].append(time.perf_counter() - started)
        time.sleep(max(0.0, next_pair - time.perf_counter()))
    queue.put(timings)


# -- the people ------------------------------------------------------------------------------


@dataclass
class Move:
    sent: float
    actor: str
    #: When each seat's frame first showed it (the mover's own too).
    seen: dict[str, float] = field(default_factory=dict)


@dataclass
class Table:
    pk: int
    cookies: dict[str, str]
    first_version: int
    #: Every frame each seat received: (version, html).
    #: The app server each seat's socket goes to.
    ports: dict[str, int] = field(default_factory=dict)
    #: Nobody plays it: its sockets only read (``--idle-sockets``).
    idle: bool = False
    frames: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    #: The seats people play (the rest are bots), and whether South deals again at the end.
    seats: tuple[str, ...] = ("S", "N")
    redeal: bool = True
    moves: dict[int, Move] = field(default_factory=dict)  # by the version the move makes
    sent: int = 0
    refused: list[str] = field(default_factory=list)
    dealing: bool = False
    deals_begun: int = 0


class Driver:
    def __init__(
        self,
        port: int,
        tables: list[Table],
        think: float,
        measure_from: float,
        stop_at: float,
        *,
        deflate: bool = True,
    ) -> None:
        self.port, self.tables, self.think, self.deflate = port, tables, think, deflate
        self.measure_from, self.stop_at = measure_from, stop_at
        self.measured = 0  # moves sent in the measuring window
        self.latencies: list[float] = []
        self.own_latencies: list[float] = []
        self.reconnects = 0
        self.idle_reconnects = 0
        self.tasks: set[asyncio.Task] = set()
        self.over: dict[int, asyncio.Event] = {}
        self.random = random.Random(2026)

    def spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def pause(self) -> float:
        """A person's thinking time: ``think`` on average, anywhere from half to one and a
        half times it (people at different tables do not move in step)."""
        return self.random.uniform(0.5, 1.5) * self.think

    async def seat(self, table: Table, seat: str) -> None:
        import websockets

        acted = -1
        port = table.ports.get(seat, self.port)
        uri = f"ws://127.0.0.1:{port}/ws/play/tables/{table.pk}/"
        while True:
            try:
                async with websockets.connect(
                    uri,
                    origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"sessionid={table.cookies[seat]}"},
                    open_timeout=60,
                    ping_interval=None,
                    max_size=None,
                    compression="deflate" if self.deflate else None,
                ) as ws:
                    async for message in ws:
                        now = time.perf_counter()
                        data = json.loads(message)
                        if "error" in data:
                            table.refused.append(str(data["error"]))
                            acted = -1  # look again at the next frame
                            continue
                        version, html = int(data["version"]), data["html"]
                        table.frames.setdefault(seat, []).append((version, html))
                        if table.idle:
                            continue
                        for made, move in list(table.moves.items()):
                            if made > version or seat in move.seen:
                                continue
                            move.seen[seat] = now
                            if move.sent >= self.measure_from:
                                mine = move.actor == seat
                                (self.own_latencies if mine else self.latencies).append(
                                    now - move.sent
                                )
                            if len(move.seen) == len(table.seats):
                                del table.moves[made]  # every seat has seen it
                        status = STATUS.search(html)
                        status = status[1] if status else ""
                        if status == "finished" and table.pk in self.over:
                            self.over[table.pk].set()
                            continue
                        if now > self.stop_at:
                            continue
                        if (
                            status == "finished"
                            and seat == "S"
                            and table.redeal
                            and not table.dealing
                        ):
                            table.dealing = True
                            self.spawn(self.deal(table))
                        turn = TO_MOVE.search(html)
                        action = ACTION.search(html)
                        if (
                            status == "playing"
                            and turn
                            and turn[1] == seat
                            and action
                            and version > acted
                        ):
                            acted = version
                            self.spawn(self.act(ws, table, seat, action[1], version))
                    return
            except (OSError, websockets.ConnectionClosed):
                if time.perf_counter() > self.stop_at:
                    return
                if table.idle:
                    self.idle_reconnects += 1
                else:
                    self.reconnects += 1
                await asyncio.sleep(0.5)

    async def act(self, ws: Any, table: Table, seat: str, action: str, version: int) -> None:
        await asyncio.sleep(self.pause())
        if time.perf_counter() > self.stop_at:
            return
        table.moves[version + 1] = Move(time.perf_counter(), seat)
        table.sent += 1
        self.measured += int(time.perf_counter() >= self.measure_from)
        await ws.send(json.dumps({"action": action, "version": version}))

    async def deal(self, table: Table) -> None:
        await asyncio.sleep(self.pause())
        if time.perf_counter() < self.stop_at:
            port = table.ports.get("S", self.port)
            ok = await asyncio.to_thread(deal_again, port, table.pk, table.cookies["S"])
            table.deals_begun += int(ok)
        table.dealing = False

    async def run(self, drain: float, *, until_over: bool = False) -> None:
        """Play until ``stop_at``, then read frames ``drain`` seconds more; ``until_over``:
        only until every table's deal is over."""
        if until_over:
            self.over = {table.pk: asyncio.Event() for table in self.tables}
        tasks = [
            asyncio.create_task(self.seat(table, seat))
            for table in self.tables
            for seat in table.seats
        ]
        wait = max(self.stop_at - time.perf_counter(), 0) + drain
        if until_over:
            every = asyncio.gather(*(event.wait() for event in self.over.values()))
            await asyncio.wait_for(every, timeout=wait)
        else:
            await asyncio.sleep(wait)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# -- afterwards: the records -----------------------------------------------------------------


def check_records(tables: list[Table]) -> dict[str, Any]:
    """Lost and duplicated moves and leaked cards, from the database's records (this process
    sets Django up on the benchmark's database)."""
    import django

    django.setup()
    from engine.play import PlaySetup, PlayTable, parse_actions
    from engine.seats import SEATS, Seat
    from tests.browser.leakcheck import shows
    from trainer.play.models import Game, LiveTable

    found: dict[str, Any] = {
        "recorded": 0,
        "lost": 0,
        "duplicated": 0,
        "leaked_frames": 0,
        "leaked_examples": [],
        "seeds_early": 0,
        "frames": 0,
        "frames_read": 0,
        "unmapped": 0,
        "deals_finished": 0,
        "teeth": 0,
    }
    for table in tables:
        humans = frozenset(Seat(s) for s in table.seats)
        row = LiveTable.objects.select_related("game").get(pk=table.pk)
        if row.deal_seed is not None:  # a chosen board: its one deal
            games = [row.game] if row.game is not None else []
        else:
            games = list(Game.objects.filter(owner_id=row.host_id).order_by("pk"))
        # For each table version: the cards each seat held then, who was to move, the seed
        # and whether the deal was over.
        states: dict[int, tuple[dict[Seat, frozenset], str, int, bool]] = {}
        version = table.first_version
        recorded = 0
        for game in games:
            setup = PlaySetup.from_json(game.setup)
            engine = PlayTable(setup, humans)
            for action in parse_actions(game.actions):
                if engine.to_move() in humans:
                    held = {s: frozenset(engine.deal.held(s)) for s in SEATS}
                    states[version] = (held, str(engine.to_move()), setup.seed, False)
                    version += 1
                    recorded += 1
                engine.apply(action)
            over = engine.is_over()
            held = {s: frozenset() if over else frozenset(engine.deal.held(s)) for s in SEATS}
            turn = "" if over else str(engine.to_move())
            states[version] = (held, turn, setup.seed, over)
            found["deals_finished"] += int(over)
            version += 1  # the next deal is dealt: one version more
        found["recorded"] += recorded
        accepted = table.sent - len(table.refused)
        found["lost"] += max(accepted - recorded, 0)
        found["duplicated"] += max(recorded - accepted, 0)
        for seat, frames in table.frames.items():
            found["frames"] += len(frames)
            me = Seat(seat)
            for version, html in dict.fromkeys(frames):  # each distinct frame once
                state = states.get(version)
                turn = TO_MOVE.search(html)
                if state is None or (turn and turn[1] != state[1]):
                    found["unmapped"] += 1
                    continue
                found["frames_read"] += 1
                held, _turn, seed, over = state
                hidden = {c for s, cards in held.items() if s is not me for c in cards}
                leaked = shows(html, hidden)
                if leaked:
                    found["leaked_frames"] += 1
                    found["leaked_examples"].append((table.pk, seat, version, leaked[:3]))
                if not over and re.search(rf"(?<!\d){seed}(?!\d)", html):
                    found["seeds_early"] += 1
                # The check has teeth: read as the partner's, a frame shows hidden cards.
                partner = {c for s, cards in held.items() if s is not me.partner for c in cards}
                found["teeth"] += int(not over and bool(shows(html, partner)))
    found["leaked_examples"] = found["leaked_examples"][:5]
    return found


# -- the run ---------------------------------------------------------------------------------


def bench_env(tmp: str) -> dict[str, str]:
    """The environment of a benchmark's site: a throwaway SQLite database in ``tmp``."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "concerto_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": f"{tmp}/static",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def uvicorn(port: int, env: dict[str, str], *, workers: int = 1) -> subprocess.Popen:
    """An app server (uvicorn, ``workers`` processes) on ``port``, in a session of its own."""
    return subprocess.Popen(
        [
            *(PY, "-m", "uvicorn", "concerto_site.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)),
            *("--lifespan", "off", "--log-level", "warning"),
            *("--timeout-graceful-shutdown", "3"),
        ],
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )


def server_cpu(pgid: int) -> float:
    """CPU seconds (user + system) of every process in the server's process group."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, …
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def wait_http(port: int, server: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while True:
        try:
            if http_request(port, "GET", "/healthz", {})[0] == 200:
                return
        except OSError:
            pass
        if time.time() > deadline or server.poll() is not None:
            raise SystemExit("the ASGI server did not start")
        time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="seconds a person takes for a move, on average (from half to 1.5 times it)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds played before measuring (a fresh server's first hands are slower)",
    )
    parser.add_argument(
        "--probe-every",
        type=float,
        default=0.25,
        help="seconds between the reference requests (the trivial page and /healthz)",
    )
    parser.add_argument("--bots", choices=("signal", "greedy"), default="signal")
    parser.add_argument("--redis", action="store_true", help="Redis channel layer and cache")
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="frames uncompressed (browsers ask for permessage-deflate, as the clients do)",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (needs --redis)")
    parser.add_argument(
        "--servers", type=int, default=1, help="app servers, each its own uvicorn (needs --redis)"
    )
    parser.add_argument(
        "--idle-sockets",
        type=int,
        default=0,
        help="more seated sockets, at tables nobody plays, that send nothing for the whole run",
    )
    args = parser.parse_args()
    if (args.workers > 1 or args.servers > 1) and not args.redis:
        parser.error("--workers/--servers > 1 need --redis: the in-memory layer is per process")
    idle_tables = (args.idle_sockets + 1) // 2

    with tempfile.TemporaryDirectory() as tmp:
        env = bench_env(tmp)
        redis = None
        if args.redis:
            if shutil.which("redis-server") is None:
                raise SystemExit("--redis needs redis-server")
            redis_port = free_port()
            redis = subprocess.Popen(
                [
                    *("redis-server", "--bind", "127.0.0.1", "--port", str(redis_port)),
                    *("--save", "", "--appendonly", "no", "--dir", tmp),
                ],
                stdout=subprocess.DEVNULL,
            )
            env["CHANNEL_LAYER_URL"] = f"redis://127.0.0.1:{redis_port}/1"
            env["CACHE_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        manage = [PY, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT)
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT
        )
        settings = {
            "rule": "classic",
            "convention": "parlett-2008",
            "opponents": args.bots,
            "opponents_convention": "parlett-2008",
            "game": False,
        }
        made = subprocess.run(
            [
                *manage,
                *("shell", "-c"),
                SETUP.format(
                    settings=settings,
                    tables=args.tables,
                    warm=2 * args.workers * args.servers,
                    idle=idle_tables,
                ),
            ],
            env=env,
            check=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        setup = json.loads(made.stdout.split("BENCH-SETUP ", 1)[1])
        ports = [free_port() for _ in range(args.servers)]
        everything = [
            Table(
                t["pk"],
                {"S": t["S"], "N": t["N"]},
                t["version"],
                # South on one server, North on the next: every move crosses servers.
                ports={"S": ports[i % len(ports)], "N": ports[(i + 1) % len(ports)]},
            )
            for i, t in enumerate(setup["tables"])
        ]
        tables = everything[: args.tables]
        idle = everything[len(everything) - idle_tables :] if idle_tables else []
        warm = everything[args.tables : len(everything) - idle_tables]
        for table in idle:
            table.idle = True
        port = ports[0]
        servers = [uvicorn(p, env, workers=args.workers) for p in ports]
        try:
            for p, server in zip(ports, servers, strict=True):
                wait_http(p, server)
            queue: multiprocessing.Queue = multiprocessing.Queue()
            prober = multiprocessing.Process(
                target=probe,
                args=(port, setup["probe"], args.warmup, args.seconds, args.probe_every, queue),
            )
            # Warm-up tables first, played fast to their end: each server process builds its
            # one-time tables (the signal bots' decoder: about a second) before the clock runs.
            now = time.perf_counter()
            asyncio.run(
                Driver(port, warm, 0.0, now + 3600, now + 60).run(drain=0.0, until_over=True)
            )
            cpu_server = sum(server_cpu(server.pid) for server in servers)
            cpu_driver = time.process_time()
            started = time.perf_counter()
            prober.start()
            measure_from = started + args.warmup
            driver = Driver(
                port,
                tables + idle,
                args.think,
                measure_from,
                measure_from + args.seconds,
                deflate=not args.no_deflate,
            )
            asyncio.run(driver.run(drain=3.0))
            elapsed = time.perf_counter() - started
            cpu_server = sum(server_cpu(server.pid) for server in servers) - cpu_server
            cpu_driver = time.process_time() - cpu_driver
            timings = queue.get(timeout=120)
            prober.join()
        finally:
            for server in servers:
                os.killpg(server.pid, signal.SIGTERM)
            for server in servers:
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
            if redis is not None:
                redis.terminate()
                redis.wait(timeout=10)

        os.environ.update({k: v for k, v in env.items() if k != "CHANNEL_LAYER_URL"})
        os.environ.pop("CACHE_URL", None)  # the cache is not read afterwards
        checked = check_records(everything)

    sent = sum(t.sent for t in everything)
    measured = driver.measured
    refused = [r for t in everything for r in t.refused]
    lat, own = driver.latencies, driver.own_latencies
    trivial, bare = timings["trivial"], timings["bare"]
    trivial_p50 = statistics.median(trivial) if trivial else float("nan")
    layer = (
        f"Redis, {args.servers} server(s) × {args.workers} uvicorn worker(s)"
        if args.redis
        else "in-memory, 1 process"
    )
    print(
        f"tables: {args.tables} (2 people + 2 {args.bots} bots each), seconds: {args.seconds:g} "
        f"(after {args.warmup:g} s warm-up), think: {args.think:g} s, uvicorn, "
        f"channel layer: {layer}"
    )
    print(
        f"actions: {measured} in {args.seconds:g} s ({measured / args.seconds:.1f}/s); "
        f"whole run (warm-up tables too): {sent} sent, {checked['recorded']} recorded, "
        f"deals dealt again: {sum(t.deals_begun for t in tables)}, "
        f"finished: {checked['deals_finished']}"
    )
    print(
        f"latency action → other seat's frame: p50 {1000 * percentile(lat, 0.5):.1f} ms  "
        f"p95 {1000 * percentile(lat, 0.95):.1f} ms  max {1000 * max(lat, default=0):.1f} ms  "
        f"({len(lat)} moves)"
    )
    print(
        f"latency action → own frame:          p50 {1000 * percentile(own, 0.5):.1f} ms  "
        f"p95 {1000 * percentile(own, 0.95):.1f} ms"
    )
    print(
        f"trivial page (GET /accounts/login/, signed in): p50 {1000 * trivial_p50:.1f} ms  "
        f"p95 {1000 * percentile(trivial, 0.95):.1f} ms  ({len(trivial)} requests, "
        f"a pair every {args.probe_every:g} s)"
    )
    print(
        f"bare (GET /healthz): p50 {1000 * percentile(bare, 0.5):.1f} ms  "
        f"p95 {1000 * percentile(bare, 0.95):.1f} ms  ({len(bare)} requests)"
    )
    print(
        f"lost: {checked['lost']}  duplicated: {checked['duplicated']}  refused: {len(refused)}"
        f" {sorted(set(refused))[:3]}  socket reconnects: {driver.reconnects}, "
        f"idle sockets: {2 * len(idle)} open the whole run, reconnects: {driver.idle_reconnects}"
    )
    print(
        f"frames: {checked['frames']} received, {checked['frames_read']} distinct read, "
        f"unmapped: {checked['unmapped']}; leaked cards: {checked['leaked_frames']} "
        f"{checked['leaked_examples']}; seeds before the end: {checked['seeds_early']} "
        f"(read as the partner's, {checked['teeth']} frames would leak: the check works)"
    )
    print(
        f"cpu: server {cpu_server:.1f} s ({100 * cpu_server / elapsed:.0f}% of one core), "
        f"driver {cpu_driver:.1f} s (process_time), wall {elapsed:.1f} s, {os.cpu_count()} cores"
    )
    summary = {
        "tables": args.tables,
        "seconds": args.seconds,
        "actions_per_s": measured / args.seconds,
        "p50_ms": 1000 * percentile(lat, 0.5),
        "p95_ms": 1000 * percentile(lat, 0.95),
        "trivial_p50_ms": 1000 * trivial_p50,
        "lost": checked["lost"],
        "duplicated": checked["duplicated"],
        "leaked": checked["leaked_frames"],
        "seeds_early": checked["seeds_early"],
        "reconnects": driver.reconnects,
        "idle_reconnects": driver.idle_reconnects,
    }
    print(json.dumps(summary))
    print(f"ratio_p50_vs_trivial_p50: {percentile(lat, 0.5) / trivial_p50:.2f}")
    print(f"ratio_p95_vs_trivial_p50: {percentile(lat, 0.95) / trivial_p50:.2f}")
    bad = checked["lost"] + checked["duplicated"] + checked["leaked_frames"]
    bad += checked["seeds_early"] + checked["unmapped"] + int(checked["teeth"] == 0)
    bad += driver.reconnects + driver.idle_reconnects
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
