"""Live tables: people take seats by invitation, the host deals, every move is checked against
the sender's seat, and every socket frame and page carries only what its seat may see."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from engine.game import PASS, Action
from engine.play import PlayTable
from engine.seats import SEATS, Seat
from tests.asyncrun import run_async
from tests.trainer.classes import factories as classes
from tests.trainer.play.conftest import leaks, shows_seed
from trainer.classes.models import ClassMembership
from trainer.play import live, live_selectors, live_services, tables
from trainer.play.models import Game, LiveSeat, LiveTable
from trainer.play.routing import websocket_urlpatterns
from trainer.play.selectors import actions_of, setup_of

SETTINGS = {
    "rule": "classic",
    "convention": "parlett-2008",
    "opponents": "signal",
    "opponents_convention": "parlett-2008",
    "game": False,
}


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """The in-memory layer keeps queues tied to the loop that first used them: one per test."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def person(name: str):
    return get_user_model().objects.create_user(username=name, password="pw-" + name)


def client_of(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def seated_table(*people_at: tuple[object, Seat], settings: dict | None = None) -> LiveTable:
    host, seat = people_at[0]
    table = live.live_table_open(
        host=host, settings=settings or SETTINGS, seat=seat, opponents_link=True
    )
    for user, s in people_at[1:]:
        live.live_seat_take(pk=table.pk, user=user, seat=s, allowed=SEATS)
    return table


def led_in(user, game: Game, *, correct: bool = True) -> None:
    """A lead ``user`` recorded in ``game``, as play stores one (``Attempt.game``)."""
    from trainer.progress.models import SOURCE_PLAY, Attempt

    Attempt.objects.create(
        user=user,
        kind="lead",
        skill="fours",
        seed=0,
        game=game,
        answer="AS KS",
        correct=correct,
        source=SOURCE_PLAY,
    )


def led_in_before_games_were_linked(user, game: Game) -> None:
    """A lead as play stored one before ``Attempt.game`` (progress migration 0004): the game's
    number as the seed and ``params="play=<game>"``, what the earlier migrations read."""
    from trainer.progress.models import SOURCE_PLAY, Attempt

    Attempt.objects.create(
        user=user,
        kind="lead",
        skill="fours",
        seed=game.pk,
        params=f"play={game.pk}",
        answer="AS KS",
        correct=True,
        source=SOURCE_PLAY,
    )


def engine_of(table: LiveTable) -> PlayTable:
    table.refresh_from_db()
    assert table.game is not None
    return PlayTable.replay(setup_of(table.game), actions_of(table.game), live.humans_of(table))


def hidden(table: LiveTable, seat: Seat) -> set:
    engine = engine_of(table)
    return {c for s in SEATS if s is not seat for c in engine.deal.held(s)}


def shows(body: str, cards: set) -> list[str]:
    """The cards of ``cards`` a page or frame names (codes, labels, symbols; tags dropped too)."""
    return leaks(body, cards) + leaks(re.sub(r"<[^>]+>", "", body), cards)


@pytest.mark.django_db
def test_open_invite_join_and_deal_through_the_pages():
    ana, ben = person("ana"), person("ben")
    host = client_of(ana)
    response = host.post(
        "/play/tables/new/",
        {
            "convention": "parlett-2008",
            "rule": "classic",
            "opponents": "signal",
            "length": "deal",
            "seat": "S",
        },
    )
    table = LiveTable.objects.get()
    assert response["Location"] == f"/play/tables/{table.pk}/"
    assert table.settings["partner"] == "strong"  # a bot in an empty North–South seat (default)
    page = host.get(response["Location"]).text
    invite = re.search(r'data-invite-url="([^"]+)"', page).group(1)
    assert str(table.invite_token) in invite and 'data-my-seat="S"' in page

    guest = client_of(ben)
    join = guest.get(invite.replace("http://testserver", ""))
    assert 'data-join data-seat="N"' in join.text and 'data-seat="S"' not in join.text
    guest.post(invite.replace("http://testserver", ""), {"seat": "N"})
    assert LiveSeat.objects.get(table=table, seat="N").user == ben
    assert 'data-my-seat="N"' in guest.get(f"/play/tables/{table.pk}/").text

    assert guest.post(f"/play/tables/{table.pk}/begin/").status_code == 400  # the host deals
    host.post(f"/play/tables/{table.pk}/begin/")
    table.refresh_from_db()
    assert table.status == "playing" and table.game is not None
    for user_client, seat in ((host, Seat.S), (guest, Seat.N)):
        text = user_client.get(f"/play/tables/{table.pk}/").text
        assert not shows(text, hidden(table, seat)), seat
        assert shows(text, set(engine_of(table).deal.held(seat)))  # one's own cards are there
        assert not shows_seed(text, table.game.setup["seed"])


@pytest.mark.django_db
def test_every_move_is_checked_against_the_senders_seat_and_nothing_is_written_on_refusal():
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    engine = engine_of(table)
    mover = {Seat.S: ana, Seat.N: ben}[engine.to_move()]
    other = ben if mover is ana else ana
    legal = engine.legal(engine.to_move())
    before = (table.version, list(table.game.actions))

    with pytest.raises(live.LiveRefused):  # out of turn
        live.live_act(pk=table.pk, user=other, action=legal[0], version=table.version)
    with pytest.raises(live.LiveRefused):  # a stale page
        live.live_act(pk=table.pk, user=mover, action=legal[0], version=table.version - 1)
    with pytest.raises(live.LiveRefused):  # a stranger
        live.live_act(pk=table.pk, user=person("cy"), action=legal[0], version=table.version)
    table.refresh_from_db()
    assert (table.version, list(table.game.actions)) == before

    live.live_act(pk=table.pk, user=mover, action=legal[0], version=table.version)
    with pytest.raises(live.LiveRefused):  # the same post twice
        live.live_act(pk=table.pk, user=mover, action=legal[0], version=before[0])


@pytest.mark.django_db
def test_strangers_and_teachers_of_other_classes_get_404_and_a_teacher_watches():
    ana, ben = person("ana"), person("ben")
    room = classes.classroom()
    other_room = classes.classroom()
    teacher = classes.teacher_of(room)
    outsider = classes.teacher_of(other_room)
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    live.live_begin(pk=table.pk, by=ana)
    table.refresh_from_db()
    assert client_of(person("cy")).get(f"/play/tables/{table.pk}/").status_code == 404
    assert Client().get(f"/play/tables/{table.pk}/").status_code == 302  # sign in first
    assert client_of(outsider).get(f"/play/tables/{table.pk}/").status_code == 404

    page = client_of(teacher).get(f"/play/tables/{table.pk}/").text
    engine = engine_of(table)
    every = {c for s in SEATS for c in engine.deal.held(s)}
    assert "data-watching" in page and all(shows(page, {c}) for c in every)
    assert shows(client_of(ana).get(f"/play/tables/{table.pk}/").text, every)
    # The watcher cannot play.
    with pytest.raises(live.LiveRefused):
        live.live_act(pk=table.pk, user=teacher, action=Action.parse("pass"), version=table.version)


def _watch_status(user, table: LiveTable) -> int:
    return client_of(user).get(f"/play/tables/{table.pk}/").status_code


@pytest.mark.django_db
def test_a_class_made_and_joined_during_the_deal_lets_nobody_watch():
    """A seated player's second account makes a class (anyone may), the player joins it
    mid-deal: the new "teacher" sees nothing. The relation must be older than the deal."""
    ana, ben, puppet = person("ana"), person("ben"), person("puppet")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    live.live_begin(pk=table.pk, by=ana)
    room = classes.classroom()
    ClassMembership.objects.create(classroom=room, user=puppet, role="teacher")
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    table.refresh_from_db()
    assert _watch_status(puppet, table) == 404
    assert live.live_access(puppet, table.pk) is None
    # The next deal is dealt after the relation: now it is a prior one.
    live.live_away(pk=table.pk, user=ana, away=True)
    live.live_away(pk=table.pk, user=ben, away=True)
    table.refresh_from_db()
    assert table.status == "finished"
    live.live_begin(pk=table.pk, by=ana)
    assert _watch_status(puppet, table) == 200


@pytest.mark.django_db
def test_a_club_made_or_an_organiser_made_during_the_deal_lets_nobody_watch():
    from trainer.clubs import services as clubs
    from trainer.clubs.models import ClubMembership

    ana, ben, puppet, boss = person("ana"), person("ben"), person("puppet"), person("boss")
    club = clubs.club_create(user=boss, name="Riverside")
    ClubMembership.objects.create(club=club, user=puppet, role="member")
    ClubMembership.objects.create(club=club, user=ana, role="member")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    live.live_begin(pk=table.pk, by=ana)
    assert _watch_status(boss, table) == 200  # an organiser since before the deal
    # A member made organiser during the deal is not one since before it.
    clubs.member_promote(actor=boss, club=club, user_id=puppet.pk)
    assert _watch_status(puppet, table) == 404
    # Nor is an organiser of a club made during the deal.
    own = clubs.club_create(user=person("other"), name="Mine")
    ClubMembership.objects.create(club=own, user=ana, role="member")
    assert _watch_status(own.memberships.get(role="organiser").user, table) == 404


@pytest.mark.django_db
def test_a_table_a_player_opens_refuses_watchers_until_its_host_lets_them():
    ana, ben = person("ana"), person("ben")
    room = classes.classroom()
    teacher = classes.teacher_of(room)
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    assert not table.watchable
    live.live_begin(pk=table.pk, by=ana)
    assert _watch_status(teacher, table) == 404
    assert table not in live.live_tables_for(teacher)
    # Only the host decides; a seated player who is not the host cannot, nor can the teacher.
    for who in (ben, teacher):
        response = client_of(who).post(f"/play/tables/{table.pk}/watchers/", {"watchable": "1"})
        assert response.status_code in (400, 404)
    table.refresh_from_db()
    assert not table.watchable
    client_of(ana).post(f"/play/tables/{table.pk}/watchers/", {"watchable": "1"})
    table.refresh_from_db()
    assert table.watchable and _watch_status(teacher, table) == 200
    assert table in live.live_tables_for(teacher)
    # And back off: the teacher's page is gone again.
    client_of(ana).post(f"/play/tables/{table.pk}/watchers/", {"watchable": "0"})
    assert _watch_status(teacher, table) == 404


@pytest.mark.django_db
def test_the_players_see_who_watches_by_name():
    ana, ben = person("ana"), person("ben")
    room = classes.classroom()
    teacher = classes.teacher_of(room)
    teacher.first_name, teacher.last_name = "Tess", "Quill"
    teacher.save()
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    live.live_begin(pk=table.pk, by=ana)
    assert "data-watched" not in client_of(ben).get(f"/play/tables/{table.pk}/").text
    client_of(teacher).get(f"/play/tables/{table.pk}/")
    page = client_of(ben).get(f"/play/tables/{table.pk}/").text
    assert "data-watched" in page and "Tess Q." in page


@pytest.mark.django_db
def test_the_join_page_says_when_the_table_may_be_watched():
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S))
    join = f"/play/tables/join/{table.invite_token}/"
    assert "data-join-watched" not in client_of(ben).get(join).text
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    assert "data-join-watched" in client_of(ben).get(join).text


@pytest.mark.django_db
def test_the_live_table_page_answers_get_only():
    ana = person("ana")
    table = seated_table((ana, Seat.S))
    assert client_of(ana).post(f"/play/tables/{table.pk}/").status_code == 405
    assert client_of(ana).post(f"/play/tables/{table.pk}/table/").status_code == 405


@pytest.mark.django_db
def test_an_invite_opens_only_its_seats_and_a_withdrawn_one_nothing():
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S))
    opponents = f"/play/tables/join/{table.opponents_token}/"
    assert client_of(ben).post(opponents, {"seat": "N"}).status_code == 400
    assert not LiveSeat.objects.filter(user=ben).exists()
    live.live_invite_revoke(pk=table.pk, by=ana)
    assert client_of(ben).get(opponents).status_code == 404
    assert client_of(ben).get(f"/play/tables/join/{uuid.uuid4()}/").status_code == 404


@pytest.mark.django_db
def test_a_seat_handed_to_a_bot_is_played_and_the_deal_finishes_with_a_record():
    ana = person("ana")
    table = seated_table((ana, Seat.S))
    live.live_begin(pk=table.pk, by=ana)
    live.live_away(pk=table.pk, user=ana, away=True)  # the bot plays South to the end
    table.refresh_from_db()
    assert table.status == "finished" and table.game.status == Game.Status.FINISHED
    record = client_of(ana).get(f"/play/tables/{table.pk}/record.json").json()
    assert PlayTable.replay(setup_of(table.game), actions_of(table.game)).is_over()
    assert record["setup"]["seed"] == table.game.setup["seed"]


#: How long a socket test waits for a frame: long, because a loaded machine (browsers and other
#: test processes on two cores) can take seconds; only a failing test waits it out.
WAIT = 30.0


async def _frame(comm: WebsocketCommunicator, *others: WebsocketCommunicator) -> dict:
    """The next frame ``comm`` receives; when none comes, the error of any of ``others`` (other
    connections whose consumer may have died before announcing its change) before the timeout."""
    try:
        return json.loads(await comm.receive_from(timeout=WAIT))
    except TimeoutError:
        for other in others:
            if other.future.done():
                other.future.result()
        raise


def _communicator(user, table: LiveTable) -> WebsocketCommunicator:
    app = URLRouter(websocket_urlpatterns)
    comm = WebsocketCommunicator(app, f"/ws/play/tables/{table.pk}/")
    comm.scope["user"] = user
    return comm


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("second", "settings"),
    # Partners; then opponents, with strong bots (reading by the odds) North and West.
    [(Seat.N, SETTINGS), (Seat.E, {**SETTINGS, "partner": "strong"})],
)
def test_sockets_carry_each_seat_only_its_own_cards_through_a_whole_deal(second, settings):
    """Two people play a whole deal over sockets; every frame each receives is checked for
    cards its seat cannot see, and the seed."""
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, second), settings=settings)
    live.live_begin(pk=table.pk, by=ana)
    seats = {Seat.S: ana, second: ben}

    async def play() -> int:
        comms = {s: _communicator(u, table) for s, u in seats.items()}
        for comm in comms.values():
            connected, _ = await comm.connect(timeout=WAIT)
            assert connected
        frames = 0
        for _ in range(200):
            for seat, comm in comms.items():
                while not await comm.receive_nothing(timeout=0.05):
                    data = await _frame(comm)
                    frames += 1
                    if "html" in data:
                        secret = await _hidden(seat)
                        assert not shows(data["html"], secret), seat
                        assert not shows_seed(data["html"], await _seed())
            state = await _state()
            if state is None:
                break
            to_move, version, legal = state
            await comms[to_move].send_json_to({"action": legal, "version": version})
            reply = await _frame(comms[to_move])
            frames += 1
            assert "error" not in reply, reply
            assert not shows(reply["html"], await _hidden(to_move))
        for comm in comms.values():
            await comm.disconnect()
        return frames

    from channels.db import database_sync_to_async

    @database_sync_to_async
    def _hidden(seat):
        t = LiveTable.objects.get(pk=table.pk)
        return hidden(t, seat) if t.status == "playing" else set()

    @database_sync_to_async
    def _seed():
        return LiveTable.objects.get(pk=table.pk).game.setup["seed"]

    @database_sync_to_async
    def _state():
        t = LiveTable.objects.get(pk=table.pk)
        if t.status != "playing":
            return None
        engine = engine_of(t)
        seat = engine.to_move()
        return seat, t.version, str(engine.legal(seat)[0])

    frames = run_async(play)
    table.refresh_from_db()
    assert table.status == "finished" and frames > 20


@pytest.mark.django_db(transaction=True)
def test_a_socket_of_someone_not_at_the_table_is_refused():
    ana = person("ana")
    table = seated_table((ana, Seat.S))

    async def connect() -> bool:
        comm = _communicator(person_async_user, table)
        connected, _ = await comm.connect(timeout=WAIT)
        await comm.disconnect()
        return connected

    person_async_user = person("cy")
    assert run_async(connect) is False


@pytest.mark.django_db
def test_a_teacher_opens_a_table_for_two_students_lists_it_and_watches():
    room = classes.classroom()
    teacher = classes.teacher_of(room)
    ana, ben = person("ana"), person("ben")
    for student in (ana, ben):
        ClassMembership.objects.create(classroom=room, user=student, role="student")
    data = {
        "convention": "parlett-2008",
        "rule": "classic",
        "opponents": "signal",
        "length": "deal",
        "seat": "watch",
    }
    assert client_of(person("cy")).post("/play/tables/new/", data).status_code == 400
    assert not LiveTable.objects.exists()  # only teachers and organisers open a table to watch

    client_of(teacher).post("/play/tables/new/", data)
    table = LiveTable.objects.get()
    assert not table.seats.exists()
    for student, seat in ((ana, "S"), (ben, "N")):
        client_of(student).post(f"/play/tables/join/{table.invite_token}/", {"seat": seat})
    client_of(teacher).post(f"/play/tables/{table.pk}/begin/")
    listing = client_of(teacher).get("/play/tables/").text
    assert f'data-live-table="{table.pk}"' in listing
    assert f'data-live-table="{table.pk}"' not in client_of(person("dee")).get("/play/tables/").text
    page = client_of(teacher).get(f"/play/tables/{table.pk}/").text
    assert "data-watching" in page and "data-my-seat" not in page
    # The players see that someone is watching? They see the seats and their own cards only.
    assert 'data-my-seat="S"' in client_of(ana).get(f"/play/tables/{table.pk}/").text


@pytest.mark.django_db
def test_each_players_leads_count_as_attempts_in_play(monkeypatch):
    monkeypatch.setattr(live_services.secrets, "randbelow", lambda n: 5)  # a deal with signals
    from engine.play.table import signal_bot
    from trainer.progress.models import Attempt

    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    users = {Seat.S: ana, Seat.N: ben}
    for _ in range(400):
        table.refresh_from_db()
        if table.status != "playing":
            break
        engine = engine_of(table)
        seat = engine.to_move()
        obs = engine.deal.observation(seat)
        if len(obs.current_actions) == 1 and PASS in obs.legal_actions:
            move = PASS  # partner passes the lead: the signal is given
        else:  # people who signal as the card says
            move = signal_bot("parlett-2008").choose(obs, obs.legal_actions)
        live.live_act(pk=table.pk, user=users[seat], action=move, version=table.version)
    engine = engine_of(table)
    for seat, user in users.items():
        graded = engine.attempts(seat)
        stored = Attempt.objects.filter(user=user, kind="lead", source="play")
        assert stored.count() == len(graded)
        assert {(a.skill, a.correct) for a in stored} == {(g.skill, g.correct) for g in graded}
        assert not stored.filter(seed=table.game.setup["seed"]).exists()
    assert Attempt.objects.filter(kind="lead").exists()


def _play_until(table: LiveTable, users: dict, predicate) -> bool:
    """Play the first legal action of whoever is to move until ``predicate(engine)``."""
    for _ in range(300):
        table.refresh_from_db()
        if table.status != "playing":
            return False
        engine = engine_of(table)
        if predicate(engine):
            return True
        seat = engine.to_move()
        live.live_act(
            pk=table.pk, user=users[seat], action=engine.legal(seat)[0], version=table.version
        )
    return False


@pytest.mark.django_db
def test_the_coach_is_on_only_while_every_player_wants_it_and_shows_only_ones_own_cards():
    from engine.play import coach_lead

    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    users = {Seat.S: ana, Seat.N: ben}
    assert _play_until(table, users, lambda e: coach_lead(e, e.to_move()) is not None)
    mover = engine_of(table).to_move()
    page_url = f"/play/tables/{table.pk}/"

    def page(user) -> str:
        return client_of(user).get(page_url).text

    assert 'data-coach-vote="off"' in page(users[mover]) and "data-coach-advice" not in page(
        users[mover]
    )
    assert client_of(ana).post(f"{page_url}coach/", {"coach": "1"}).status_code == 302
    html = page(ana)
    assert 'data-coach-vote="off"' in html and "(1 of 2 players want it" in html
    client_of(ben).post(f"{page_url}coach/", {"coach": "1"})

    mine = page(users[mover])
    assert 'data-coach-vote="on"' in mine and "data-coach-advice" in mine
    assert not shows(mine, hidden(table, mover))
    other = users[Seat.N if mover is Seat.S else Seat.S]
    assert "data-coach-advice" not in page(other)  # not their turn: nothing to advise
    # a player handing the seat to a bot leaves the others' wish standing
    live.live_away(pk=table.pk, user=other, away=True)
    table.refresh_from_db()
    # one of them changes their mind: off for everyone
    live.live_away(pk=table.pk, user=other, away=False)
    client_of(other).post(f"{page_url}coach/", {"coach": "0"})
    assert "data-coach-advice" not in page(users[mover])


@pytest.mark.django_db
def test_only_a_seated_player_votes_for_the_coach():
    ana = person("ana")
    table = seated_table((ana, Seat.S))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)  # (the teacher may watch)
    before = LiveTable.objects.get(pk=table.pk).version
    assert (
        client_of(person("cy")).post(f"/play/tables/{table.pk}/coach/", {"coach": "1"}).status_code
        == 404
    )
    room = classes.classroom()
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    teacher = classes.teacher_of(room)
    refused = client_of(teacher).post(f"/play/tables/{table.pk}/coach/", {"coach": "1"})
    assert refused.status_code == 400 and "no seat" in refused.text
    assert LiveTable.objects.get(pk=table.pk).version == before
    assert not LiveSeat.objects.filter(table=table, coach=True).exists()


@pytest.mark.django_db
def test_the_frames_of_one_change_share_one_read_and_one_rendering_per_view(
    django_assert_max_num_queries, django_capture_on_commit_callbacks, monkeypatch
):
    """After a move, the frames for its change read the table once in a process (the first
    frame: the table, its seats, who is present), then nothing; neither the move nor the
    frames rebuild the deal from its record (the move acts on a copy of the kept table and
    keeps its own). Presence is announced with a stamp of its own, read once too."""
    from trainer.play import consumers
    from trainer.play.consumers import render_for
    from trainer.play.live import change_stamp, presence_stamp

    ana, bo = person("ana"), person("bo")
    users = {Seat.S: ana, Seat.N: bo}
    table = seated_table((ana, Seat.S), (bo, Seat.N))
    table = live.live_begin(pk=table.pk, by=ana)
    render_for(ana, table.pk, "en")  # the deal as dealt, rebuilt and kept for reading
    rebuilt = []
    real = PlayTable.replay.__func__
    rendered = []
    real_render = consumers.render_table

    def counting(cls, *args, **kwargs):
        rebuilt.append(1)
        return real(cls, *args, **kwargs)

    def counting_render(*args, **kwargs):
        rendered.append(1)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(PlayTable, "replay", classmethod(counting))
    monkeypatch.setattr(consumers, "render_table", counting_render)
    for _ in range(2):
        engine = engine_of(table)
        mover = users[engine.to_move()]
        kept = live_selectors._kept_table(Game.objects.get(pk=table.game_id), live.humans_of(table))
        before = (kept.actions, dict(kept._starts), kept.view(Seat.S))
        rebuilt.clear()
        with django_capture_on_commit_callbacks(execute=True):
            table = live.live_act(
                pk=table.pk,
                user=mover,
                action=engine.view(engine.to_move()).legal[0],
                version=table.version,
            )
        assert (kept.actions, dict(kept._starts), kept.view(Seat.S)) == before
        rendered.clear()
        with django_assert_max_num_queries(3):
            render_for(ana, table.pk, "en", change_stamp(table))
        for user in (bo, ana, bo):
            with django_assert_max_num_queries(0):
                _access, html, version = render_for(user, table.pk, "en", change_stamp(table))
            assert version == table.version and f'data-version="{version}"' in html
            assert html == render_for(user, table.pk, "en")[1]  # (as read afresh)
        assert len(rendered) == 4 + 3  # (one per frame for the change; three read afresh)
        assert rebuilt == []
        assert 'data-connected="1"' not in html
        # Presence changes without a new version; its stamp is read once, and afresh.
        live.presence_open(pk=table.pk, user=bo, watcher=False, socket="bo-1")
        stamp = presence_stamp()
        with django_assert_max_num_queries(3):
            _access, html, version = render_for(ana, table.pk, "en", stamp)
        assert 'data-connected="1"' in html and version == table.version
        with django_assert_max_num_queries(0):
            assert render_for(ana, table.pk, "en", stamp)[1] == html
        live.presence_close(pk=table.pk, socket="bo-1")
        assert 'data-connected="1"' not in render_for(ana, table.pk, "en", presence_stamp())[1]


@pytest.mark.django_db
def test_a_table_kept_for_reading_is_never_shown_for_another_deal_under_the_same_ids(
    monkeypatch,
):
    """The frames' shared caches are keyed by ids a database restore can hand out again: a
    kept table of another deal under the same game id and length, or rows kept under the same
    table id and version, are not used."""
    from trainer.play.consumers import render_for

    ana, bo = person("ana"), person("bo")
    table = live.live_begin(pk=seated_table((ana, Seat.S), (bo, Seat.N)).pk, by=ana)
    if not table.game.actions:  # (a person leads: one move, so that the record has actions)
        engine = engine_of(table)
        table = live.live_act(
            pk=table.pk,
            user={Seat.S: ana, Seat.N: bo}[engine.to_move()],
            action=engine.view(engine.to_move()).legal[0],
            version=table.version,
        )
    game = Game.objects.get(pk=table.game_id)
    assert game.actions
    humans = live.humans_of(table)
    tables.clear()
    fresh = render_for(ana, table.pk, "en")[1]

    # A table kept for another deal: the same actions, another seed (and one for the same
    # seed, other actions of the same number); either, if used, fails to draw.
    another = {**game.setup, "seed": game.setup["seed"] + 1}
    for setup, actions in ((another, game.actions), (game.setup, ["pass"] * len(game.actions))):
        other = Game(pk=game.pk, setup=setup, actions=list(actions), helped=game.helped)
        shape = live_selectors.live_shape(other, humans, frozenset())
        tables.store.read(other, object, shape)  # type: ignore[arg-type]
        assert render_for(ana, table.pk, "en")[1] == fresh
    # Rows kept for a change of the same table id and version made at another moment (an id
    # handed out again): not used.
    stale = LiveTable.objects.get(pk=table.pk)
    stale.status = LiveTable.Status.FINISHED
    stale.updated_at -= timedelta(seconds=1)
    live_selectors._READ_ROWS[(table.pk, live.change_stamp(stale))] = (stale, (), ())
    access = live.live_access(ana, table.pk, live.change_stamp(table))
    assert access is not None and access.seat is Seat.S
    assert access.table.status == LiveTable.Status.PLAYING


@pytest.mark.django_db
def test_a_move_refused_on_the_socket_says_why_in_the_players_language():
    """The socket's refusals come in the language of the page that opened it (Japanese
    here), and write nothing."""
    from django.utils import translation

    from trainer.play.consumers import move

    ana, bo = person("ana"), person("bo")
    table = live.live_begin(pk=seated_table((ana, Seat.S), (bo, Seat.N)).pk, by=ana)
    engine = engine_of(table)
    mover = {Seat.S: ana, Seat.N: bo}[engine.to_move()]
    legal = str(engine.view(engine.to_move()).legal[0])
    before = (table.version, Game.objects.get(pk=table.game_id).actions)

    def japanese(message: str) -> str:
        with translation.override("ja"):
            said = translation.gettext(message)
        assert said != message, f"not translated: {message}"
        return said

    assert move(mover, table.pk, {"action": "zz"}, "ja") == japanese("That is not a move.")
    stale = {"action": legal, "version": table.version - 1}
    assert move(mover, table.pk, stale, "ja") == japanese(
        "The table has moved on since this page was shown."
    )
    other = bo if mover is ana else ana
    fresh = {"action": legal, "version": table.version}
    assert move(other, table.pk, fresh, "en") != move(other, table.pk, fresh, "ja")
    table.refresh_from_db()
    assert (table.version, Game.objects.get(pk=table.game_id).actions) == before
    assert isinstance(move(mover, table.pk, fresh, "ja"), LiveTable)


@pytest.mark.django_db
def test_a_late_frame_for_someone_seated_since_that_change_still_finds_their_seat():
    """A frame announced for an earlier change, reaching a player who took a seat after it,
    reads the table afresh instead of closing their socket as if they had no seat."""
    from trainer.play.consumers import render_for

    ana, bo = person("ana"), person("bo")
    table = seated_table((ana, Seat.S))
    earlier = live.change_stamp(table)
    assert render_for(ana, table.pk, "en", earlier) is not None  # its rows: ana's alone
    live.live_seat_take(pk=table.pk, user=bo, seat=Seat.N, allowed=SEATS)
    rendered = render_for(bo, table.pk, "en", earlier)
    assert rendered is not None and rendered[0].seat is Seat.N
    assert 'data-my-seat="N"' in rendered[1]
    assert live.stamp_version(earlier) == table.version < rendered[2]
    assert live.stamp_version("") == -1


@pytest.mark.django_db(transaction=True)
def test_a_player_connecting_after_a_move_shows_as_connected_on_the_others_socket():
    """Presence changes without a new version: the frame it brings is sent even though a
    frame of that version went first."""
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)

    async def play() -> tuple[str, str]:
        first = _communicator(ana, table)
        assert (await first.connect(timeout=WAIT))[0]
        before = (await _frame(first))["html"]
        second = _communicator(ben, table)
        assert (await second.connect(timeout=WAIT))[0]
        after = (await _frame(first, second))["html"]
        for comm in (first, second):
            await comm.disconnect()
        return before, after

    before, after = run_async(play)
    line = (
        r'data-seat-line="N">\s*<h2[^>]*>.*?</h2>\s*'
        r'<p class="play-seat-who">[^\n]*?data-connected="(\d)"'
    )
    assert re.search(line, before)[1] == "0" and re.search(line, after)[1] == "1"
    assert (
        re.search(r'data-version="(\d+)"', before)[1]
        == re.search(r'data-version="(\d+)"', after)[1]
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "title"), [("en", "Hand {}"), ("ja", "第{}回")])
def test_the_finished_hands_list_each_hand_and_its_cards_in_order(language, title):
    from trainer.play.consumers import render_for

    ana = person("ana")
    table = seated_table((ana, Seat.S))
    live.live_begin(pk=table.pk, by=ana)
    live.live_away(pk=table.pk, user=ana, away=True)  # the bots play the deal to its end
    completed = engine_of(table).view(Seat.S).completed
    assert len(completed) >= 2

    rendered = render_for(ana, table.pk, language)
    assert rendered is not None
    html = rendered[1]
    # The hand log beside the table: one line per finished hand, in order, named by its number.
    log = re.search(r"<aside [^>]*data-hand-log>(.*?)</aside>", html, re.S)
    assert log is not None
    items = re.findall(r'<li class="" data-log-line="(\d+):(\d+)">(.*?)</li>', log[1], re.S)
    assert [int(n) for _, n, _ in items] == [h.number for h in completed]
    for (_, _, text), hand in zip(items, completed, strict=True):
        assert text.startswith(title.format(hand.number)), text
    # Each hand's cards face up, in the order played, in the seat box of the seat that led it.
    for hand in completed:
        seat = re.search(
            rf'<div class="play-seat [^"]*" data-seat-line="{hand.leader}">(.*?)</div>\s*'
            r'(?=<div class="play-(?:seat|centre) |</div>)',
            html,
            re.S,
        )
        assert seat is not None
        block = re.search(
            rf'data-hand="{hand.number}">.*?<ul class="hand play-mini"[^>]*>(.*?)</ul>',
            seat[0],
            re.S,
        )
        assert block is not None, hand.number
        cards = block[1]
        shown = re.findall(r'<span class="card [^"]*" title="[^"]*"><span class="rank"', cards)
        assert len(shown) == len(hand.cards)
        faces = re.findall(r'<span class="rank" aria-hidden="true">([^<]+)</span>', cards)
        assert faces == [("10" if c.rank == 10 else c.rank_char) for _, c in hand.cards]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "names", "you", "bot", "away", "connected"),
    [
        ("en", "North East South West", " (you)", "bot", "(a bot plays for now)", "● connected"),
        (
            "ja",
            "北 東 南 西",
            "（あなた）",
            "ボット",
            "（いまはボットが代わりにプレイします）",
            "● 接続中",
        ),
    ],
)
def test_the_seat_lines_and_the_hand_say_who_sits_where_and_what_may_be_played(
    language, names, you, bot, away, connected
):
    from trainer.play.consumers import render_for

    ana, bea, cora = person("ana"), person("bea"), person("cora")
    table = seated_table((ana, Seat.S), (bea, Seat.N), (cora, Seat.W))
    live.live_begin(pk=table.pk, by=ana)
    live.live_away(pk=table.pk, user=bea, away=True)  # a bot plays North
    live.presence_open(pk=table.pk, user=ana, watcher=False, socket="ana-1")  # (West is not)
    engine = engine_of(table)
    while engine.to_move() is Seat.W:  # (then South's turn)
        table.refresh_from_db()
        action = engine.view(Seat.W).legal[0]
        live.live_act(pk=table.pk, user=cora, action=action, version=table.version)
        engine = engine_of(table)
    assert engine.to_move() is Seat.S

    rendered = render_for(ana, table.pk, language)
    assert rendered is not None
    html = rendered[1]
    # The seats around the table (North, West, East, South): the name and cards left, then who
    # plays the seat and whether they are here.
    lines = re.findall(
        r'<div class="play-seat play-[\w-]+([^"]*)" data-seat-line="(\w)">\s*'
        r'<h2 class="play-seat-name">([^<]*?) · <span data-count="\w">\d+</span>[^<]*</h2>\s*'
        r'<p class="play-seat-who">(.*?)</p>',
        html,
        re.S,
    )
    assert [seat for _, seat, _, _ in lines] == ["N", "W", "E", "S"]
    assert [name for _, _, name, _ in lines] == [names.split()[i] for i in (0, 3, 1, 2)]
    by_seat = {seat: (classes, rest) for classes, seat, _, rest in lines}
    assert by_seat["S"][0] == " mine to-move"
    assert all(by_seat[s][0] == "" for s in "NEW")
    south = by_seat["S"][1]
    # The role in the language's brackets: " (you)", 「（あなた）」.
    assert f'<span class="play-person">ana</span><span class="muted">{you}</span>' in south
    assert f'data-connected="1">{connected}</span>' in south and bot not in south
    north = by_seat["N"][1]
    assert f'<span class="pill">{bot}</span> <span class="play-person">bea</span>' in north
    assert away in north
    assert "data-connected" not in north and you not in north  # (a bot's seat: no presence)
    east, west = by_seat["E"][1], by_seat["W"][1]
    assert f'<span class="pill">{bot}</span>' in east
    assert "data-connected" not in east and away not in east
    assert '<span class="play-person">cora</span>' in west
    assert bot not in west and you not in west
    assert 'data-connected="0">○ ' in west and connected not in west

    hand = re.search(r'<div class="hand" role="group"[^>]*>(.*?)</div>', html, re.S)
    assert hand is not None
    view = engine.view(Seat.S)
    playable = [str(c) for c in view.hand if Action.play(c) in view.legal]
    buttons = re.findall(
        r'<button type="submit" name="action" value="(\w+)" class="card-button" '
        r'data-action="(\w+)"><span class="card',
        hand[1],
    )
    assert [v for v, _ in buttons] == playable and [a for _, a in buttons] == playable
    idle = re.findall(r'<span class="card-button" aria-disabled="true"><span class="card', hand[1])
    assert len(buttons) + len(idle) == len(view.hand) and playable


@pytest.mark.django_db
def test_socket_moves_past_the_limit_are_refused_until_the_window_passes(time_machine):
    from datetime import UTC, datetime

    from trainer.play.consumers import move

    time_machine.move_to(datetime(2026, 12, 1, 12, 0, 1, tzinfo=UTC), tick=False)
    ana, bea = person("ana"), person("bea")
    table = seated_table((ana, Seat.S), (bea, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    live.live_away(pk=table.pk, user=bea, away=True)  # a bot plays North: South's turn
    table.refresh_from_db()
    engine = engine_of(table)
    assert engine.to_move() is Seat.S
    play = {"action": str(engine.view(Seat.S).legal[0]), "version": table.version}
    for _ in range(30):  # 30 in 10 s (counted before the move is read: nonsense counts too)
        assert move(ana, table.pk, {"action": "ZZ"}, "en") == "That is not a move."

    assert move(ana, table.pk, play, "ja") == "短時間に送られた手が多すぎます。"
    assert LiveTable.objects.get(pk=table.pk).version == table.version  # nothing written
    assert move(bea, table.pk, {"action": "ZZ"}, "en") == "That is not a move."  # (per person)

    time_machine.move_to(datetime(2026, 12, 1, 12, 0, 11, tzinfo=UTC), tick=False)
    moved = move(ana, table.pk, play, "en")
    assert isinstance(moved, LiveTable) and moved.version == table.version + 1


@pytest.mark.django_db
def test_form_moves_and_joins_past_their_limits_are_refused_with_429(time_machine):
    from datetime import UTC, datetime

    time_machine.move_to(datetime(2026, 12, 1, 12, 0, 1, tzinfo=UTC), tick=False)
    ana, bea = person("ana"), person("bea")
    table = seated_table((ana, Seat.S))
    live.live_begin(pk=table.pk, by=ana)
    table.refresh_from_db()
    act = client_of(ana)
    for _ in range(30):
        assert act.post(f"/play/tables/{table.pk}/act/", {"action": "ZZ"}).status_code == 400
    refused = act.post(f"/play/tables/{table.pk}/act/", {"action": "ZZ"})
    assert refused.status_code == 429 and b"Too many moves at once." in refused.content

    waiting = seated_table((ana, Seat.S))  # (seats are taken before the deal)
    join = client_of(bea)
    url = f"/play/tables/join/{waiting.invite_token}/"
    for _ in range(20):  # 20 a minute
        assert join.post(url, {"seat": "X"}).status_code == 400
    refused = join.post(url, {"seat": "N"})
    assert refused.status_code == 429 and b"wait a minute" in refused.content
    assert not LiveSeat.objects.filter(user=bea).exists()
    time_machine.move_to(datetime(2026, 12, 1, 12, 1, 1, tzinfo=UTC), tick=False)
    assert join.post(url, {"seat": "N"}).status_code == 302
    assert LiveSeat.objects.filter(table=waiting, user=bea, seat="N").exists()


@pytest.mark.django_db
def test_a_tables_addresses_are_worked_out_once_per_table_and_script_prefix():
    """The partial's form actions come from ``live_urls`` (kept per table): they are the
    table's own, and a site served under a prefix gets prefixed ones, not another's kept."""
    from django.urls import reverse, set_script_prefix

    first, second = seated_table((person("ann"), Seat.S)), seated_table((person("bea"), Seat.S))
    for table in (first, second):
        urls = live.live_urls(table.pk)
        assert (urls.act, urls.coach, urls.begin, urls.record) == tuple(
            reverse(f"play:live-{name}", args=[table.pk])
            for name in ("act", "coach", "begin", "record")
        )
    set_script_prefix("/concerto/")
    try:
        assert live.live_urls(first.pk).act == f"/concerto/play/tables/{first.pk}/act/"
    finally:
        set_script_prefix("/")
    assert live.live_urls(first.pk).act == f"/play/tables/{first.pk}/act/"
    page = client_of(first.host).get(f"/play/tables/{first.pk}/").content.decode()
    assert f'action="/play/tables/{first.pk}/coach/"' in page


@pytest.mark.django_db
def test_a_live_deal_is_not_a_solo_game_of_its_host():
    """The host owns the deal's row, but the solo pages and services (South's view, South's
    moves) never reach a live deal: a host sitting North neither sees South's hand there nor
    plays South's cards; the deal is reached only through its table."""
    ana, bo = person("ana"), person("bo")
    table = live.live_begin(pk=seated_table((ana, Seat.N), (bo, Seat.S)).pk, by=ana)
    engine = engine_of(table)
    game = Game.objects.get(pk=table.game_id)
    assert game.live and game.owner_id == ana.pk
    south = {str(c) for c in engine.deal.held(Seat.S)}
    host = client_of(ana)
    for path in ("", "table.json", "review/", "record.json"):
        response = host.get(f"/play/{game.pk}/{path}")
        assert response.status_code == 404, path
        assert not south & set(
            re.findall(r"\b(?:10|[2-9TJQKA])[SHDC]\b", response.content.decode())
        )
    legal = engine.view(Seat.S).legal
    before = (list(game.actions), game.version)
    for path in ("act/", "advice/", "quiz/"):
        response = host.post(
            f"/play/{game.pk}/{path}", {"action": str(legal[0]), "version": game.version}
        )
        assert response.status_code == 404, path
    game.refresh_from_db()
    assert (game.actions, game.version) == before
    assert f"/play/{game.pk}/" not in host.get("/play/").content.decode()
    assert client_of(bo).get(f"/play/{game.pk}/").status_code == 404
    assert host.get(f"/play/tables/{table.pk}/").status_code == 200  # (its table shows it)


@pytest.mark.django_db
def test_deals_stored_before_the_live_mark_are_found_by_the_migration():
    """The migration marks each table's latest deal and every deal someone other than its
    owner led in, and leaves the owner's solo deals alone."""
    import importlib

    from django.apps import apps

    mark = importlib.import_module("trainer.play.migrations.0004_game_live").mark_live_deals
    ana, bo = person("ana"), person("bo")
    table = live.live_begin(pk=seated_table((ana, Seat.S), (bo, Seat.N)).pk, by=ana)
    latest = Game.objects.get(pk=table.game_id)
    earlier = Game.objects.create(owner=ana, setup=latest.setup)
    solo = Game.objects.create(owner=ana, setup=latest.setup)
    for user, deal in ((bo, earlier), (ana, solo)):
        led_in_before_games_were_linked(user, deal)
    Game.objects.update(live=False)
    mark(apps, None)
    assert set(Game.objects.filter(live=True).values_list("pk", flat=True)) == {
        latest.pk,
        earlier.pk,
    }


@pytest.mark.django_db
def test_the_players_of_deals_stored_before_they_were_kept_are_filled_in():
    """The migration keeps the seats of each table's latest deal, and whoever led in an
    earlier live deal (seat unknown); a solo deal gets no players."""
    import importlib

    from django.apps import apps

    from trainer.play.models import LivePlayer

    fill = importlib.import_module("trainer.play.migrations.0005_liveplayer").fill_players
    ana, bo = person("ana"), person("bo")
    table = live.live_begin(pk=seated_table((ana, Seat.S), (bo, Seat.N)).pk, by=ana)
    latest = Game.objects.get(pk=table.game_id)
    earlier = Game.objects.create(owner=ana, setup=latest.setup, live=True)
    solo = Game.objects.create(owner=ana, setup=latest.setup)
    for user, deal in ((bo, earlier), (ana, solo), (bo, latest)):
        led_in_before_games_were_linked(user, deal)
    LivePlayer.objects.all().delete()
    fill(apps, None)
    assert set(LivePlayer.objects.values_list("game_id", "user_id", "seat")) == {
        (latest.pk, ana.pk, "S"),
        (latest.pk, bo.pk, "N"),
        (earlier.pk, bo.pk, ""),
    }


@pytest.mark.django_db
def test_each_deal_keeps_who_was_seated_when_it_was_dealt():
    """Seats move between deals (a swap moves each player with their wishes, a seat handed to
    a bot stays the player's); every deal keeps the people who sat in it, and a watching host
    is no player."""
    from trainer.play.models import LivePlayer

    teacher, ana, bo = classes.teacher_of(classes.classroom()), person("ana"), person("bo")
    table = live.live_table_open(host=teacher, settings=SETTINGS, seat=None, opponents_link=False)
    live.live_seat_take(pk=table.pk, user=ana, seat=Seat.S, allowed=SEATS)
    live.live_seat_take(pk=table.pk, user=bo, seat=Seat.N, allowed=SEATS)
    first = live.live_begin(pk=table.pk, by=teacher).game
    for who in (ana, bo):
        live.live_away(pk=table.pk, user=who, away=True)  # (the bots finish the deal)
    live.live_coach(pk=table.pk, user=ana, on=True)
    second = live.live_begin(pk=table.pk, by=teacher, swap=True).game
    assert first is not None and second is not None and first != second
    # Each player's wishes move with them: still away, and Ana still asks for the coach.
    moved = {s.user.username: s for s in LiveSeat.objects.filter(table=table)}
    assert (moved["ana"].seat, moved["ana"].away, moved["ana"].coach) == ("W", True, True)
    assert (moved["bo"].seat, moved["bo"].away, moved["bo"].coach) == ("E", True, False)

    def players(game: Game) -> set[tuple[str, str]]:
        rows = LivePlayer.objects.filter(game=game).values_list("user__username", "seat")
        return set(rows)

    assert players(first) == {("ana", "S"), ("bo", "N")}
    assert players(second) == {("ana", "W"), ("bo", "E")}


@pytest.mark.django_db
def test_staff_see_who_sat_in_a_live_deal_in_the_admin(admin_client):
    ana, bo = person("ana"), person("bo")
    table = live.live_begin(pk=seated_table((ana, Seat.S), (bo, Seat.N)).pk, by=ana)

    page = admin_client.get(f"/admin/play/game/{table.game_id}/change/")

    assert page.status_code == 200
    inline = page.content.decode().split('id="players-group"', 1)[1]
    assert 'name="players-TOTAL_FORMS" value="2"' in inline
    assert f'value="{ana.pk}"' in inline and f'value="{bo.pk}"' in inline


@pytest.mark.django_db
def test_a_deal_the_bots_play_to_its_end_at_once_is_over_and_the_table_deals_again():
    """Every person seated has handed their seat to a bot before the deal: the bots play it
    through as it is dealt; it ends like any deal (its review is shared, the table is free)."""
    ana, bo = person("ana"), person("bo")
    table = seated_table((ana, Seat.S), (bo, Seat.N))
    for who in (ana, bo):
        live.live_away(pk=table.pk, user=who, away=True)

    table = live.live_begin(pk=table.pk, by=ana)

    game = Game.objects.get(pk=table.game_id)
    assert game.is_finished and game.finished_at is not None
    assert game.share_token is not None
    table.refresh_from_db()
    assert table.status == LiveTable.Status.FINISHED
    page = client_of(bo).get(f"/play/tables/{table.pk}/").content.decode()
    assert f"/play/shared/{game.share_token}/" in page
    again = live.live_begin(pk=table.pk, by=ana)  # (not "a deal is in play already")
    assert again.game_id != game.pk


@pytest.mark.django_db
def test_tables_left_in_play_by_a_deal_over_at_dealing_are_freed_by_the_migration():
    import importlib

    from django.apps import apps

    end = importlib.import_module("trainer.play.migrations.0006_end_deals_over_at_dealing")
    ana, bo = person("ana"), person("bo")
    stuck = live.live_begin(pk=seated_table((ana, Seat.S), (bo, Seat.N)).pk, by=ana)
    cy = person("cy")
    playing = live.live_begin(pk=seated_table((cy, Seat.S)).pk, by=cy)
    Game.objects.filter(pk=stuck.game_id).update(status="finished", share_token=None)
    LiveTable.objects.filter(pk=stuck.pk).update(status="playing")
    solo = Game.objects.create(owner=ana, setup={"seed": 1}, status="finished")

    end.end_deals(apps, None)

    stuck.refresh_from_db()
    assert stuck.status == "finished"
    assert Game.objects.get(pk=stuck.game_id).share_token is not None
    assert LiveTable.objects.get(pk=playing.pk).status == "playing"
    assert Game.objects.get(pk=playing.game_id).share_token is None
    assert Game.objects.get(pk=solo.pk).share_token is None  # (a solo deal is not touched)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "frame",
    [
        '{"action": "pass", "version": 1e400}',
        '{"action": "pass", "version": Infinity}',
        '{"action": "pass", "version": -Infinity}',
        "{not json",
        "null",
        b"\x00\x01",
    ],
    ids=["huge", "infinity", "minus-infinity", "not-json", "null", "binary"],
)
def test_a_frame_that_is_not_a_move_is_answered_and_the_socket_goes_on(frame):
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    version = LiveTable.objects.get(pk=table.pk).version

    async def send() -> tuple[dict, dict]:
        comm = _communicator(ana, table)
        assert (await comm.connect(timeout=WAIT))[0]
        await _frame(comm)  # (the table as it is)
        if isinstance(frame, bytes):
            await comm.send_to(bytes_data=frame)
        else:
            await comm.send_to(text_data=frame)
        reply = await _frame(comm)
        await comm.send_json_to({"action": "pass", "version": -1})  # (still listening)
        after = await _frame(comm)
        await comm.disconnect()
        return reply, after

    reply, after = run_async(send)
    assert reply == {"error": "That is not a move."}
    assert "error" in after
    assert LiveTable.objects.get(pk=table.pk).version == version  # nothing written


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [5, 11, 23])
def test_a_signal_a_bot_made_for_a_person_away_is_not_stored_as_their_answer(monkeypatch, seed):
    """Ana hands her seat to a bot before the deal and takes it back after it has led: the
    leads the bot made for her are marked helped and not stored as hers; the leads she makes
    herself afterwards are."""
    from engine.play.table import signal_bot
    from trainer.progress.models import SOURCE_PLAY, Attempt

    monkeypatch.setattr(live_services.secrets, "randbelow", lambda n: seed)
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_away(pk=table.pk, user=ana, away=True)
    table = live.live_begin(pk=table.pk, by=ana)
    people = {Seat.S: ana, Seat.N: ben}
    bot = signal_bot("parlett-2008")
    taken_back = False
    for _ in range(400):
        table.refresh_from_db()
        if table.status != "playing":
            break
        engine = engine_of(table)
        if not taken_back and engine.attempts(Seat.S):
            live.live_away(pk=table.pk, user=ana, away=False)
            taken_back = True
            continue
        seat = engine.to_move()
        seen = engine.deal.observation(seat)
        move = bot.choose(seen, seen.legal_actions)
        live.live_act(pk=table.pk, user=people[seat], action=move, version=table.version)
    table.refresh_from_db()
    assert table.status == "finished" and taken_back
    game = Game.objects.get(pk=table.game_id)
    leads = {(a.deal_number, a.hand_number) for a in engine_of(table).attempts(Seat.S)}
    by_bot = {k for k in leads if f"{k[0]}:{k[1]}" in game.helped}
    stored = Attempt.objects.filter(user=ana, source=SOURCE_PLAY, game=game)
    assert by_bot and stored.count() == len(leads - by_bot) > 0


@pytest.mark.django_db(transaction=True)
def test_players_are_told_when_a_watcher_reads_the_deal_without_a_socket(time_machine):
    """A teacher reading all four hands from the page or the partial (no socket to count)
    is kept: the players' frames say someone watches, at once and for ten minutes after the
    last look; no new version is taken (the players' moves stay valid)."""
    from datetime import UTC, datetime

    time_machine.move_to(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False)
    room = classes.classroom()
    teacher = classes.teacher_of(room)
    ana, ben = person("ana"), person("ben")
    ClassMembership.objects.create(classroom=room, user=ana, role="student")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    live.live_begin(pk=table.pk, by=ana)
    partial = f"/play/tables/{table.pk}/table/"
    assert "data-watched" not in client_of(ben).get(partial).text
    client_of(ana).get(f"/play/tables/{table.pk}/")  # (a player's read is no watcher's)
    assert "data-watched" not in client_of(ben).get(partial).text
    version = LiveTable.objects.get(pk=table.pk).version

    async def watch_from_the_page() -> dict:
        comm = _communicator(ben, table)
        assert (await comm.connect(timeout=WAIT))[0]
        await _frame(comm)  # (the table as it is: nobody watching)
        from asgiref.sync import sync_to_async

        # (a thread of its own: the page announces the look with async_to_sync, which a
        # thread sharing an event loop's thread, as after a browser test, may not use)
        shown = await sync_to_async(
            lambda: client_of(teacher).get(f"/play/tables/{table.pk}/").text,
            thread_sensitive=False,
        )()
        assert "data-watching" in shown
        frame = await _frame(comm)
        await comm.disconnect()
        return frame

    frame = run_async(watch_from_the_page)
    assert "data-watched" in frame["html"]
    assert LiveTable.objects.get(pk=table.pk).version == version
    assert "data-watched" in client_of(ana).get(partial).text

    time_machine.move_to(datetime(2026, 12, 1, 12, 9, tzinfo=UTC), tick=False)
    client_of(teacher).get(partial)  # (looked again: ten minutes from now)
    time_machine.move_to(datetime(2026, 12, 1, 12, 18, tzinfo=UTC), tick=False)
    assert "data-watched" in client_of(ben).get(partial).text
    time_machine.move_to(datetime(2026, 12, 1, 12, 19, 1, tzinfo=UTC), tick=False)
    assert "data-watched" not in client_of(ben).get(partial).text


@pytest.mark.django_db
def test_a_seat_is_taken_only_by_an_invitation_still_valid_under_the_tables_lock():
    """The join page reads the invitation before the seat is taken: a key the host has
    withdrawn in between is refused when the seat is taken, and the opponents' key opens
    only East and West, whatever the caller allows."""
    ana, bo, cy = person("ana"), person("bo"), person("cy")
    table = live.live_table_open(host=ana, settings=SETTINGS, seat=Seat.S, opponents_link=True)
    old, opponents = table.invite_token, table.opponents_token
    assert old is not None and opponents is not None
    with pytest.raises(live.LiveRefused, match="does not open that seat"):
        live.live_seat_take(pk=table.pk, user=cy, seat=Seat.N, allowed=SEATS, token=opponents)
    live.live_seat_take(pk=table.pk, user=cy, seat=Seat.E, allowed=SEATS, token=opponents)

    live.live_invite_revoke(pk=table.pk, by=ana)
    with pytest.raises(live.LiveRefused, match="not valid"):
        live.live_seat_take(pk=table.pk, user=bo, seat=Seat.N, allowed=SEATS, token=old)
    assert not LiveSeat.objects.filter(table=table, user=bo).exists()
    fresh = LiveTable.objects.get(pk=table.pk).invite_token
    live.live_seat_take(pk=table.pk, user=bo, seat=Seat.N, allowed=SEATS, token=fresh)
    assert LiveSeat.objects.get(table=table, user=bo).seat == "N"


@pytest.mark.django_db
def test_a_signal_is_read_as_its_maker_led_it_when_its_maker_hands_the_seat_over(monkeypatch):
    """Ana signals from South and hands her seat to a bot before the hand is over: the strong
    North goes on reading her signal by the card (as a person leads), not as a bot's; the
    hands the bot then leads for her are marked helped and read as a bot's, also when she is
    back in the middle of one (the table rebuilt from the stored record)."""
    from engine.play.table import signal_bot

    monkeypatch.setattr(live_services.secrets, "randbelow", lambda n: 4)
    ana = person("ana")
    table = seated_table((ana, Seat.S), settings={**SETTINGS, "partner": "strong"})
    table = live.live_begin(pk=table.pk, by=ana)
    south = signal_bot("parlett-2008", "strong", "card")
    for _ in range(60):  # Ana plays until her own two-card signal stands in an unfinished hand
        table.refresh_from_db()
        engine = engine_of(table)
        acts = engine.deal.current_actions
        if len(acts) >= 3 and acts[0][0] is Seat.S and acts[2][1].is_play:
            break
        seen = engine.deal.observation(Seat.S)
        move = south.choose(seen, seen.legal_actions)
        live.live_act(pk=table.pk, user=ana, action=move, version=table.version)
    else:
        pytest.fail("South never stood in her own signalled hand")
    signalled = (1, engine.deal.hand_number)
    read: list[tuple[tuple[int, int], str]] = []
    real = PlayTable.bot_for

    def bot_for(self, seat):
        bot = real(self, seat)
        if (
            seat is Seat.N
            and self.deal.current_actions[:1]
            and (self.deal.current_actions[0][0] is Seat.S)
        ):
            read.append(((1, self.deal.hand_number), bot.partner_leads))
        return bot

    monkeypatch.setattr(PlayTable, "bot_for", bot_for)
    live.live_away(pk=table.pk, user=ana, away=True)  # the bots play the deal to its end
    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    assert table.status == "finished"
    own = {model for hand, model in read if hand == signalled}
    by_bot = {model for hand, model in read if hand > signalled}
    assert own == {"card"}  # (North read Ana's own signal as hers to the end of the hand)
    assert by_bot == {"bot"}
    marked = live.bot_signals_of(game)
    assert signalled not in marked
    assert {hand for hand, _ in read if hand > signalled} <= marked
    # Ana back in the middle of a hand whose signal the bot made for her: the stored helped
    # hands make North read it as a bot's (and only they: without them, by the card).
    record, at = actions_of(game), None
    table_at = PlayTable.replay(setup_of(game), (), frozenset({Seat.S}))
    for number, action in enumerate(record):
        acts = table_at.deal.current_actions
        if (
            len(acts) == 3
            and acts[0][0] is Seat.S
            and (1, table_at.deal.hand_number) in marked
            and table_at.to_move() is Seat.N
        ):
            at = number
            break
        table_at.apply(action)
    assert at is not None
    game.actions = game.actions[:at]
    back = live.replay_live(game, frozenset({Seat.S}), frozenset())
    assert back.bot_for(Seat.N).partner_leads == "bot"
    game.helped = []
    assert (
        live.replay_live(game, frozenset({Seat.S}), frozenset()).bot_for(Seat.N).partner_leads
        == "card"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("strength", ["beginner", "standard", "strong"])
def test_the_host_picks_the_strength_of_the_bots_in_empty_north_south_seats(strength):
    from engine.bots.signal import SignalBot

    ana = person("ana")
    host = client_of(ana)
    form = {"convention": "parlett-2008", "rule": "classic", "opponents": "signal"}
    form |= {"length": "deal", "seat": "S", "partner": strength}
    page = host.get("/play/tables/new/").text
    assert 'name="partner" value="beginner"' in page and 'value="strong"' in page
    host.post("/play/tables/new/", form)
    table = LiveTable.objects.get()
    assert table.settings["partner"] == strength
    live.live_begin(pk=table.pk, by=ana)  # North is empty: a bot of that strength plays it
    bot = engine_of(LiveTable.objects.get()).bot_for(Seat.N)
    assert isinstance(bot, SignalBot) and bot.strength == strength


@pytest.mark.django_db
def test_a_strength_the_engine_does_not_know_is_refused_and_opens_nothing():
    host = client_of(person("ana"))
    form = {"convention": "parlett-2008", "rule": "classic", "opponents": "signal"}
    response = host.post(
        "/play/tables/new/", {**form, "length": "deal", "seat": "S", "partner": "godlike"}
    )
    assert response.status_code == 400 and LiveTable.objects.count() == 0
