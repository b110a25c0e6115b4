"""Live tables in browsers: people open a table, invite, join and play whole deals live, each
page updated over its WebSocket without a reload; one page reloads and one loses its connection
mid-hand and both catch up; the table photographed for every seat at desktop and 360 px; and
every WebSocket frame and HTTP response each seat receives checked for cards it cannot see and
for the deal's seed.

pytest-django's ``live_server`` has no WebSockets: the site runs under uvicorn in a process of
its own against this test's database (:mod:`tests.browser.asgi_servers`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, BrowserContext, Page, Response, WebSocket, expect

from engine.cards import Card
from engine.play import PlaySetup, PlayTable, parse_actions, replay_record
from engine.seats import SEATS, Seat
from tests.browser.asgi_servers import AsgiServer, served_database, session_cookie
from tests.browser.layout import assert_fits
from tests.browser.leakcheck import shows
from trainer.play.live import humans_of
from trainer.play.models import LiveTable
from trainer.play.selectors import actions_of, setup_of

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
TABLE = "#live-table"
VERSION = re.compile(r'data-version="(\d+)"')
#: Keeps every WebSocket the page opens in ``window.__sockets``, so a test can drop one (going
#: offline in Chromium stops new connections but leaves open sockets alone); while
#: ``window.__noSockets`` is set (until the page reloads) new ones fail, as when the channel
#: layer is down.
KEEP_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = new Proxy(Native, {
    construct(target, args) {
      const socket = window.__noSockets ? new target("ws://127.0.0.1:9/") : new target(...args);
      window.__sockets.push(socket);
      return socket;
    },
  });
})();
"""


@pytest.fixture
def server(transactional_db, tmp_path: Path) -> Iterator[AsgiServer]:
    with served_database(tmp_path) as url, AsgiServer(url, tmp_path, name="live") as running:
        yield running
        log = running.log()
    if "Traceback" in log:  # the server's own errors fail the test that caused them
        pytest.fail(f"the server logged an error:\n{log[-4000:]}")


@dataclass
class Player:
    """One person in a browser context of their own, with everything the server sent them."""

    name: str
    context: BrowserContext
    page: Page
    seat: Seat | None = None
    #: Every WebSocket frame received (text), in order.
    frames: list[str] = field(default_factory=list)
    #: Every HTTP response body received: (url, text), in order.
    bodies: list[tuple[str, str]] = field(default_factory=list)
    #: How many bodies had come in when the deal was seen to be over.
    bodies_before_end: int | None = None

    def version(self) -> int:
        return int(self.page.locator(TABLE).get_attribute("data-version") or "-1")

    def to_move(self) -> str:
        return self.page.locator(f"{TABLE} [data-to-move]").get_attribute("data-to-move") or ""

    def mark(self) -> None:
        """Remember this page: :meth:`kept` is True until it reloads."""
        self.page.evaluate("window.__notReloaded = true")

    def kept(self) -> bool:
        return bool(self.page.evaluate("window.__notReloaded === true"))

    def wait_past(self, version: int) -> None:
        """Until the table on the page shows a version after ``version``."""
        self.page.wait_for_function(
            """v => { const t = document.querySelector('#live-table');
                      return t && Number(t.dataset.version) > v; }""",
            arg=version,
        )

    def wait_live(self) -> None:
        expect(self.page.locator("[data-live][data-socket-open]")).to_have_count(1)


@pytest.fixture
def people(browser: Browser, server: AsgiServer) -> Iterator[Callable[[str], Player]]:
    """``people(name)``: a new user, signed in, in a browser context of their own."""
    made: list[Player] = []

    def make(name: str) -> Player:
        made.append(_player(browser, server, name))
        return made[-1]

    yield make
    for player in made:
        player.context.close()


def _player(browser: Browser, server: AsgiServer, name: str) -> Player:
    user = get_user_model().objects.create_user(name, first_name=name.title())
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    context.add_init_script(KEEP_SOCKETS)
    context.add_cookies([{"name": "sessionid", "value": session_cookie(user), "url": server.url}])
    page = context.new_page()
    player = Player(name=name, context=context, page=page)

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: player.frames.append(_text(payload)))

    def on_response(response: Response) -> None:
        try:
            body = response.text()
        except Exception:  # (redirects and aborted loads have no body)
            return
        player.bodies.append((response.url, body))

    page.on("websocket", on_socket)
    page.on("response", on_response)
    return player


def _text(payload: str | bytes) -> str:
    return payload if isinstance(payload, str) else payload.decode("utf-8", "replace")


def _open_table(host: Player, base: str, *, opponents_link: bool = False) -> tuple[int, str]:
    """The host opens a table in South's seat; returns its number and the invite URL."""
    page = host.page
    page.goto(base + "/play/tables/new/")
    form = page.locator("form[data-start-table]")
    form.locator("select[name=seat]").select_option("S")
    if opponents_link:
        form.locator("input[name=opponents_link]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/play/tables/\d+/$"))
    expect(page.locator(TABLE)).to_have_attribute("data-my-seat", "S")
    host.seat = Seat.S
    pk = int(re.search(r"/play/tables/(\d+)/", page.url)[1])
    return pk, page.locator("[data-invite-url]").get_attribute("data-invite-url") or ""


def _join(player: Player, invite: str, seat: Seat) -> None:
    page = player.page
    page.goto(invite)
    page.locator(f'[data-join][data-seat="{seat}"]').click()
    page.wait_for_url(re.compile(r".*/play/tables/\d+/$"))
    expect(page.locator(TABLE)).to_have_attribute("data-my-seat", str(seat))
    player.seat = seat


def _begin(host: Player, others: list[Player]) -> None:
    """The host deals (a form post: the host's page reloads); the others' tables show the
    deal without a reload."""
    for p in others:
        p.mark()
    host.page.locator("[data-begin]").click()
    for p in (host, *others):
        expect(p.page.locator(TABLE)).to_have_attribute("data-status", "playing")
        expect(p.page.locator(f"{TABLE} [data-to-move]")).not_to_have_attribute("data-to-move", "")
    for p in others:
        assert p.kept(), f"{p.name}'s page reloaded for the deal"
    host.wait_live()
    host.mark()


def _move(players: list[Player]) -> None:
    """Whoever is to move plays their first legal action; every page moves on live."""
    _settle(players)
    version = players[0].version()
    to_move = players[0].to_move()
    for p in players[1:]:
        assert (p.version(), p.to_move()) == (version, to_move), p.name
    (mover,) = [p for p in players if str(p.seat) == to_move]
    expect(mover.page.locator(f"{TABLE} .play-turn")).to_contain_text("Your turn")
    mover.page.locator(f"{TABLE} [data-action]").first.click()
    for p in players:
        p.wait_past(version)


def _drop_and_catch_up(actor: Player, offline: Player) -> None:
    """``offline`` loses its connection; ``actor`` moves meanwhile; back online, the page
    catches up by itself (no reload) and ``actor``'s page shows it connected again."""
    version = actor.version()
    offline.context.set_offline(True)  # no new connection until it is back
    offline.page.evaluate("window.__sockets.forEach(s => s.close())")
    expect(offline.page.locator("[data-live-banner]")).to_be_visible()
    expect(offline.page.locator("[data-live][data-socket-open]")).to_have_count(0)
    presence = f'{TABLE} [data-seat-line="{offline.seat}"] [data-connected]'
    expect(actor.page.locator(presence)).to_have_attribute("data-connected", "0")
    actor.page.locator(f"{TABLE} [data-action]").first.click()
    actor.wait_past(version)
    assert offline.version() == version  # it missed the move
    offline.context.set_offline(False)
    offline.wait_past(version)
    offline.wait_live()
    expect(offline.page.locator("[data-live-banner]")).to_be_hidden()
    _settle([actor, offline])
    assert offline.version() == actor.version() and offline.to_move() == actor.to_move()
    assert offline.kept(), "the page reloaded to catch up"
    expect(actor.page.locator(presence)).to_have_attribute("data-connected", "1")


def _post_without_socket(players: list[Player]) -> None:
    """The mover's socket is down and will not come back: the banner says so, the move goes
    by a form post and the page reloads; the others see it live."""
    version = players[0].version()
    (mover,) = [p for p in players if str(p.seat) == players[0].to_move()]
    mover.page.evaluate("window.__noSockets = true; window.__sockets.forEach(s => s.close())")
    expect(mover.page.locator("[data-live-banner]")).to_be_visible()
    expect(mover.page.locator("[data-live][data-socket-open]")).to_have_count(0)
    with mover.page.expect_navigation():
        mover.page.locator(f"{TABLE} [data-action]").first.click()
    assert not mover.kept()
    mover.wait_live()  # the reloaded page has its socket again
    for p in players:
        p.wait_past(version)
    _settle(players)
    mover.mark()


def _over(players: list[Player]) -> bool:
    return players[0].page.locator(f'{TABLE}[data-status="finished"]').count() == 1


def _settle(players: list[Player]) -> None:
    """Until every page shows the same version (frames of one change reach each page)."""
    top = max(p.version() for p in players)
    for p in players:
        if p.version() < top:
            p.wait_past(top - 1)


def _finish(players: list[Player], base: str) -> dict:
    """After the last move: the review and the record open for every seat at once, without a
    reload; returns the record."""
    for p in players:
        expect(p.page.locator(TABLE)).to_have_attribute("data-status", "finished")
        p.bodies_before_end = len(p.bodies)
        expect(p.page.locator(f"{TABLE} [data-review]")).to_be_visible()
        assert p.kept(), f"{p.name}'s page reloaded"
    url = players[0].page.locator("[data-record-url]").get_attribute("data-record-url")
    response = players[0].page.request.get(base + url)
    assert response.ok, response.status
    record = response.json()
    assert replay_record(record)["actions"] == record["actions"]  # it replays, as it is
    players[1].page.locator(f"{TABLE} [data-review]").click()
    expect(players[1].page.locator("h1")).to_be_visible()
    return record


# -- what each seat may see ------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """The deal as the record tells it: what each seat could not see at each table version."""

    seed: int
    first_version: int
    last_version: int
    #: For each version from the first to the last: every seat's cards then.
    holdings: tuple[dict[Seat, frozenset[Card]], ...]

    @classmethod
    def of(cls, record: dict, humans: frozenset[Seat], last_version: int) -> Deal:
        setup = PlaySetup.from_json(record["setup"])
        table = PlayTable(setup, humans)
        holdings = []
        for action in parse_actions(record["actions"]):
            if table.to_move() in humans:  # a person's move: the table's version goes up
                holdings.append({s: frozenset(table.deal.held(s)) for s in SEATS})
            table.apply(action)
        holdings.append({s: frozenset() for s in SEATS})  # over: nothing is hidden
        return cls(setup.seed, last_version - len(holdings) + 1, last_version, tuple(holdings))

    def hidden(self, seat: Seat, version: int | None) -> set[Card]:
        """The cards ``seat`` cannot see at ``version`` (None: a page with no table on it,
        checked against the cards no one played before the end)."""
        if version is None:
            version = self.last_version - 1
        index = min(max(version - self.first_version, 0), len(self.holdings) - 1)
        return {c for s, cards in self.holdings[index].items() if s is not seat for c in cards}

    def check(self, player: Player, seat: Seat | None = None) -> int:
        """Every frame and body ``player`` received is clean for their seat (or ``seat``);
        returns how many were read."""
        seat = seat or player.seat
        assert seat is not None
        seed = re.compile(rf"(?<!\d){self.seed}(?!\d)")
        read = set()  # a table is sent again unchanged (someone connects): read it once
        for text in player.frames:
            data = json.loads(text)
            version = data.get("version")
            if version is not None and version < 0:
                version = None
            if (version, text) in read:
                continue
            read.add((version, text))
            body = data.get("html", "") + " " + str(data.get("error", ""))
            found = shows(body, self.hidden(seat, version))
            assert not found, (player.name, seat, version, found)
            if version is None or version < self.last_version:
                assert not seed.search(text), (player.name, "the seed in a frame", version)
        # Static files are the same for everyone and hold no deal (site.css's comments show
        # a sample card).
        before_end = [
            (url, body)
            for url, body in player.bodies[: player.bodies_before_end]
            if "/static/" not in url
        ]
        for url, body in before_end:
            match = re.search(r'id="live-table"[^>]*data-version="(\d+)"', body)
            version = int(match[1]) if match else None
            found = shows(body, self.hidden(seat, version))
            assert not found, (player.name, seat, url, version, found)
            if version is None or version < self.last_version:
                assert not seed.search(body), (player.name, "the seed in", url)
        return len(player.frames) + len(before_end)


def _check_every_seat(players: list[Player], record: dict) -> None:
    humans = frozenset(p.seat for p in players if p.seat is not None)
    last = players[0].version()
    deal = Deal.of(record, humans, last)
    for p in players:
        read = deal.check(p)
        assert len(p.frames) >= 10, (p.name, len(p.frames))
        assert read > len(p.frames), p.name  # the pages were read too
    # The check has teeth: read as another seat's, each player's frames name hidden cards.
    for p, other in zip(players, players[1:] + players[:1], strict=True):
        with pytest.raises(AssertionError):
            deal.check(p, other.seat)


# -- the tests -------------------------------------------------------------------------------


def test_two_people_play_a_deal_live_through_a_reload_and_a_lost_connection(
    server: AsgiServer, people: Callable[[str], Player]
):
    base = server.url
    host, partner = people("sofia"), people("nils")
    pk, invite = _open_table(host, base)
    assert invite.startswith("http://127.0.0.1:") and "/play/tables/join/" in invite
    host.wait_live()
    host.mark()

    # The join page names the free seats (all but the host's).
    partner.page.goto(invite)
    names = partner.page.locator("[data-join]").all_inner_texts()
    assert names == ["North", "East", "West"], names
    _join(partner, invite, Seat.N)
    # The host sees the partner sit down and connect, live.
    north = host.page.locator(f'{TABLE} [data-seat-line="N"]')
    expect(north).to_contain_text("North")
    expect(north).to_contain_text("Nils")
    expect(north.locator('[data-connected="1"]')).to_have_count(1)
    assert host.kept()
    partner.wait_live()
    players = [host, partner]
    _begin(host, [partner])

    moves = 0
    dropped = posted = False
    while not _over(players):
        if moves == 4:
            # A reload mid-hand: the same table, the same version, the same turn.
            before = (host.version(), host.to_move())
            host.page.reload()
            host.wait_live()
            assert (host.version(), host.to_move()) == before
            host.mark()
        if moves >= 8 and not dropped and host.to_move() == "S":
            _drop_and_catch_up(host, partner)  # the host moves while North is offline
            dropped = True
        elif moves >= 14 and not posted:
            _post_without_socket(players)
            posted = True
        else:
            _move(players)
        moves += 1
        assert moves <= 40
    assert moves >= 16 and dropped and posted
    record = _finish(players, base)
    assert record["setup"]["seed"] > 0
    _check_every_seat(players, record)

    # The host may deal again at once (the buttons came with the last frame, no reload), and
    # swap seats: the partner's open page then shows East's hand, and only East's.
    assert host.kept()
    expect(host.page.locator(f"{TABLE} [data-begin]")).to_be_visible()
    partner.page.go_back()
    partner.wait_live()
    expect(partner.page.locator(f"{TABLE} [data-begin]")).to_have_count(0)  # the host deals
    partner.mark()
    # The finished deal's last version is the table's, not the page's: the page shown on going back
    # may be older than that, its socket bringing the finished deal's last frame a moment later.
    seen, finished = len(partner.frames), LiveTable.objects.get(pk=pk).version
    with host.page.expect_navigation():
        host.page.locator(f"{TABLE} [data-swap]").click()
    expect(host.page.locator(TABLE)).to_have_attribute("data-my-seat", "W")
    expect(partner.page.locator(TABLE)).to_have_attribute("data-my-seat", "E")
    expect(partner.page.locator(TABLE)).to_have_attribute("data-status", "playing")
    assert partner.kept()
    table = LiveTable.objects.get(pk=pk)
    engine = PlayTable.replay(setup_of(table.game), actions_of(table.game), humans_of(table))
    assert humans_of(table) == {Seat.E, Seat.W}
    partner.wait_past(table.version - 1)
    hidden = {c for s in SEATS if s is not Seat.E for c in engine.deal.held(s)}
    # The socket opened again on the way back may still deliver the finished deal's frame (every
    # card of a finished deal is public); each frame after it is of the new deal.
    fresh = [json.loads(f).get("html", "") for f in partner.frames[seen:]]
    versions = [int(m.group(1)) if (m := VERSION.search(html)) else -1 for html in fresh]
    assert all(
        'data-status="finished"' in html
        for html, v in zip(fresh, versions, strict=True)
        if v <= finished
    )
    new_deal = [html for html, v in zip(fresh, versions, strict=True) if v > finished]
    assert any('data-my-seat="E"' in html for html in new_deal)
    for html in new_deal:
        assert not shows(html, hidden), "after the swap, a frame showed another seat's cards"

    # A frame that arrives late (older than the table shown) never turns the table back.
    now = partner.version()
    stale = next(f for f in reversed(partner.frames[:seen]) if json.loads(f).get("html"))
    partner.page.evaluate(
        "f => window.__sockets.at(-1).onmessage(new MessageEvent('message', {data: f}))", stale
    )
    expect(partner.page.locator(TABLE)).to_have_attribute("data-my-seat", "E")
    assert partner.version() == now


def test_four_people_play_a_deal_live_and_each_seat_is_photographed(
    server: AsgiServer, people: Callable[[str], Player], shot
):
    base = server.url
    host, north, east, west = (people(n) for n in ("sam", "nora", "emil", "wanda"))
    _pk, invite = _open_table(host, base, opponents_link=True)
    opponents = host.page.locator("[data-opponents-url]").get_attribute("data-opponents-url")
    assert opponents and opponents != invite
    _join(north, invite, Seat.N)
    _join(east, opponents, Seat.E)
    # The opponents' link opens East and West only; West is left.
    west.page.goto(opponents)
    expect(west.page.locator("[data-join]")).to_have_text(["West"])
    _join(west, opponents, Seat.W)
    players = [host, north, east, west]
    for p in players:
        p.wait_live()
        expect(p.page.locator(f"{TABLE} .live-presence[data-connected='1']")).to_have_count(4)
        # Before the deal the four players sit around the table, each seat named.
        expect(p.page.locator(f"{TABLE} .play-seat[data-seat-line]")).to_have_count(4)
    _begin(host, [north, east, west])

    moves = 0
    photographed = False
    while not _over(players):
        if not photographed and moves >= 6:
            _photograph(players, shot)
            photographed = True
        _move(players)
        if photographed:
            expect(host.page.locator(f"{TABLE} details[data-hand-log-fold]")).to_have_attribute(
                "open", ""
            )
        moves += 1
        assert moves <= 60
    assert photographed and moves >= 20
    for p in players:
        expect(p.page.locator(TABLE)).to_have_attribute("data-status", "finished")
    shot(host.page, "S-deal-over-desktop")
    record = _finish(players, base)
    _check_every_seat(players, record)


def _photograph(players: list[Player], shot) -> None:
    """Each seat's table at desktop width and on a 360 px phone; nothing wider than the
    phone's screen. On the desktop the hand log is beside the table; on South's phone it is
    folded under it, opened there (and it stays open as the table moves)."""
    seat_names = {"North", "East", "South", "West"}
    for p in players:
        expect(p.page.locator(f"{TABLE} [data-hand-log]")).to_be_visible()
        # The current hand names its seats in full, capitalised, as the solo table does.
        who = p.page.locator(f"{TABLE} .play-current .play-who").all_inner_texts()
        assert set(who) <= seat_names, who
    south = players[0].page
    south.set_viewport_size(PHONE)
    south.locator(f"{TABLE} details[data-hand-log-fold] summary").click()
    south.set_viewport_size(DESKTOP)
    for p in players:
        shot(p.page, f"{p.seat}-desktop")
        p.page.set_viewport_size(PHONE)
        shot(p.page, f"{p.seat}-phone")
        assert_fits(p.page)
        p.page.set_viewport_size(DESKTOP)


def test_the_coach_comes_on_live_when_both_players_ask_and_goes_when_one_does_not(
    server: AsgiServer, people: Callable[[str], Player], shot
):
    """Two people, two browsers: one asks for the coach (still off: 1 of 2), the other too
    (on, on both pages without a reload); the seat to move is advised from its own cards; one
    "no" turns it off for both."""
    base = server.url
    host, north = people("coachhost"), people("coachnorth")
    _pk, invite = _open_table(host, base)
    _join(north, invite, Seat.N)
    players = [host, north]
    for p in players:
        p.wait_live()
    _begin(host, [north])

    vote = f"{TABLE} [data-coach-vote]"
    toggle = f"{TABLE} [data-coach-toggle]"
    # North is on the button by keyboard while the host's vote replaces North's table: the
    # new table's button has the focus, so Enter still votes.
    north.page.locator(toggle).focus()
    host.page.locator(toggle).click()
    for p in players:
        expect(p.page.locator(vote)).to_have_attribute("data-coach-vote", "off")
        expect(p.page.locator(vote)).to_contain_text("1 of 2")
    expect(north.page.locator(toggle)).to_be_focused()
    north.page.keyboard.press("Enter")
    for p in players:
        expect(p.page.locator(vote)).to_have_attribute("data-coach-vote", "on")

    for _ in range(40):  # play until the seat to move is leading a signal: the coach advises
        mover = (
            next(p for p in players if str(p.seat) == p.to_move())
            if players[0].to_move() in ("N", "S")
            else None
        )
        if mover is not None and mover.page.locator("[data-coach-advice]").count():
            break
        _move(players)
    assert mover is not None
    advice = mover.page.locator("[data-coach-advice]")
    expect(advice).to_contain_text("Signal")
    shot(mover.page, "coach-on-desktop")
    mover.page.set_viewport_size(PHONE)
    shot(mover.page, "coach-on-phone")
    assert_fits(mover.page)
    mover.page.set_viewport_size(DESKTOP)

    host.page.locator(f"{TABLE} [data-coach-toggle]").click()
    for p in players:
        expect(p.page.locator(vote)).to_have_attribute("data-coach-vote", "off")
        expect(p.page.locator("[data-coach-advice]")).to_have_count(0)
