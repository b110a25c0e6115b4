"""Who is at a live table: presence from sockets kept alive by their server's heartbeat (never
a counter), a table that does not wait for ever for a player who has gone, and at most a few
sockets per person at one table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.seats import Seat
from tests.asyncrun import run_async
from tests.trainer.classes import factories as classes
from tests.trainer.play.test_live import (
    WAIT,
    _communicator,
    _frame,
    client_of,
    engine_of,
    person,
    seated_table,
)
from trainer.classes.models import ClassMembership
from trainer.play import consumers, live
from trainer.play.models import LivePresence, LiveSeat, LiveTable

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def _connected(table: LiveTable, viewer) -> dict[str, bool]:
    shown = live.live_shown(live.live_access(viewer, table.pk))
    return {str(line.seat): line.connected for line in shown.seats if not line.bot}


@pytest.mark.django_db
def test_a_socket_counts_while_its_heartbeat_lasts_and_not_after(time_machine):
    """A server killed never counts its sockets off: its rows lapse on their own, and the
    next sweep (any server's) says who was last seen when."""
    time_machine.move_to(T0, tick=False)
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-1")
    assert _connected(table, ana) == {"S": False, "N": True}

    expiry = timedelta(seconds=60)
    last_beat = T0 + expiry - timedelta(seconds=1)
    time_machine.move_to(last_beat, tick=False)
    assert live.presence_beat(sockets=[(table.pk, "ben-1", ben.pk, False)]) == 1  # alive
    time_machine.move_to(T0 + expiry + timedelta(seconds=30), tick=False)
    assert _connected(table, ana)["N"] is True
    assert live.presence_sweep() == []

    # Its server died after that beat: a minute on, the socket no longer counts.
    time_machine.move_to(last_beat + expiry + timedelta(seconds=1), tick=False)
    assert _connected(table, ana)["N"] is False
    assert live.presence_sweep() == [table.pk]  # (the table is told)
    assert not LivePresence.objects.exists()
    assert LiveSeat.objects.get(table=table, user=ben).last_seen == last_beat + expiry


@pytest.mark.django_db
def test_a_socket_closed_counts_off_at_once_and_sets_last_seen(time_machine):
    time_machine.move_to(T0, tick=False)
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-1")
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-2")
    time_machine.move_to(T0 + timedelta(seconds=5), tick=False)
    live.presence_close(pk=table.pk, socket="ben-1")
    assert _connected(table, ana)["N"] is True  # (another tab is still open)
    live.presence_close(pk=table.pk, socket="ben-2")
    assert _connected(table, ana)["N"] is False
    assert LiveSeat.objects.get(table=table, user=ben).last_seen == T0 + timedelta(seconds=5)


@pytest.mark.django_db
def test_one_person_opens_at_most_a_few_sockets_at_one_table(settings):
    settings.LIVE_SOCKETS_PER_USER = 2
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-1")
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-2")
    with pytest.raises(live.TooManySockets):
        live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-3")
    assert LivePresence.objects.filter(user=ben).count() == 2
    live.presence_open(pk=table.pk, user=ana, watcher=False, socket="ana-1")  # (per person)
    live.presence_close(pk=table.pk, socket="ben-1")
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-3")


@pytest.mark.django_db(transaction=True)
def test_a_socket_beyond_the_limit_is_told_why_and_closed_and_the_others_stay(settings):
    settings.LIVE_SOCKETS_PER_USER = 2
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))

    async def open_three() -> tuple[dict, dict, int]:
        first, second, third = (_communicator(ben, table) for _ in range(3))
        for comm in (first, second):
            assert (await comm.connect(timeout=WAIT))[0]
        assert (await third.connect(timeout=WAIT))[0]
        refusal = await third.receive_json_from(timeout=WAIT)
        closed = await third.receive_output(timeout=WAIT)
        frame = await _frame(first)
        for comm in (first, second):
            await comm.disconnect()
        return refusal, closed, frame["version"]

    refusal, closed, _version = run_async(open_three)
    assert "too many tabs" in refusal["error"]
    assert closed == {"type": "websocket.close", "code": consumers.TOO_MANY}


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_keeps_a_servers_sockets_and_sweeps_a_dead_servers(time_machine):
    """Two sockets of this process are kept alive by one heartbeat; a row of a server that
    died is swept by it, and the table's open sockets get a frame saying so."""
    time_machine.move_to(T0, tick=True)
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="dead-server-socket")

    async def beat() -> tuple[str, str]:
        comm = _communicator(ana, table)
        assert (await comm.connect(timeout=WAIT))[0]
        first = await _frame(comm)
        time_machine.shift(timedelta(seconds=61))  # (ben's server stopped beating)
        await consumers.heartbeat.beat()
        after = await _frame(comm)
        await comm.disconnect()
        return first["html"], after["html"]

    first, after = run_async(beat)
    assert 'data-seat-line="N"' in first
    north = first.split('data-seat-line="N"')[1].split("</li>")[0]
    assert 'data-connected="1"' in north
    north = after.split('data-seat-line="N"')[1].split("</li>")[0]
    assert 'data-connected="0"' in north
    # Ana's own socket was refreshed by the beat, not swept (and counted off on closing).
    assert not LivePresence.objects.exists()


def _play_until(table: LiveTable, seat: Seat, users: dict) -> None:
    """The people (``users`` by seat) play their first legal action until ``seat``'s turn;
    ``table`` is read again."""
    engine = engine_of(table)
    while engine.to_move() is not seat:
        table.refresh_from_db()
        mover = engine.to_move()
        live.live_act(
            pk=table.pk, user=users[mover], action=engine.legal(mover)[0], version=table.version
        )
        engine = engine_of(table)
    table.refresh_from_db()


def _stalled_table(time_machine):
    """Ana (host, South) and Ben (North) at a dealt table, played on until it is Ben's turn;
    Ben then closes his last socket."""
    time_machine.move_to(T0, tick=False)
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.live_begin(pk=table.pk, by=ana)
    _play_until(table, Seat.N, {Seat.S: ana, Seat.N: ben})
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-1")
    live.presence_close(pk=table.pk, socket="ben-1")
    table.refresh_from_db()
    return table, ana, ben


@pytest.mark.django_db
def test_a_player_gone_on_their_turn_may_be_handed_to_a_bot_after_the_grace(time_machine, settings):
    settings.LIVE_GRACE_SECONDS = 60
    cy = person("cy")
    table, ana, ben = _stalled_table(time_machine)
    shown = live.live_shown(live.live_access(ana, table.pk))
    assert shown.stalled is not None and shown.stalled.seat is Seat.N
    assert shown.stalled.wait == 60

    # Ana is the host: she may at once. A stranger may not at all.
    with pytest.raises(live.LiveRefused):
        live.live_hand_over(pk=table.pk, by=cy, seat=Seat.N, version=table.version)
    table = live.live_hand_over(pk=table.pk, by=ana, seat=Seat.N, version=table.version)
    north = LiveSeat.objects.get(table=table, seat="N")
    assert north.away and north.away_by == ana
    assert engine_of(table).to_move() is not Seat.N  # (the bot played North's turn)

    # Ben comes back and takes his seat back with the usual button.
    live.live_away(pk=table.pk, user=ben, away=False)
    north.refresh_from_db()
    assert not north.away and north.away_by is None


@pytest.mark.django_db
def test_another_player_waits_out_the_grace_and_a_player_who_is_here_is_never_handed(
    time_machine, settings
):
    settings.LIVE_GRACE_SECONDS = 60
    time_machine.move_to(T0, tick=False)
    ana, ben, cy = person("ana"), person("ben"), person("cy")
    table = seated_table((ana, Seat.S), (ben, Seat.N), (cy, Seat.W))
    live.live_begin(pk=table.pk, by=ana)
    _play_until(table, Seat.N, {Seat.S: ana, Seat.N: ben, Seat.W: cy})
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-1")
    # Ben is here: nobody may hand his seat over, the host included.
    for who in (ana, cy):
        with pytest.raises(live.LiveRefused):
            live.live_hand_over(pk=table.pk, by=who, seat=Seat.N, version=table.version)
    live.presence_close(pk=table.pk, socket="ben-1")
    table.refresh_from_db()

    time_machine.move_to(T0 + timedelta(seconds=30), tick=False)
    response = client_of(cy).post(
        f"/play/tables/{table.pk}/hand-over/", {"seat": "N", "version": table.version}
    )
    assert response.status_code == 400 and "30 seconds" in response.text
    assert not LiveSeat.objects.get(table=table, seat="N").away
    page = client_of(cy).get(f"/play/tables/{table.pk}/").text
    assert 'data-stalled="N"' in page and 'data-refresh-in="30"' in page
    assert "data-hand-over" not in page

    time_machine.move_to(T0 + timedelta(seconds=61), tick=False)
    page = client_of(cy).get(f"/play/tables/{table.pk}/").text
    assert 'data-hand-over="N"' in page and "data-refresh-in" not in page
    response = client_of(cy).post(
        f"/play/tables/{table.pk}/hand-over/", {"seat": "N", "version": table.version}
    )
    assert response.status_code == 302
    assert LiveSeat.objects.get(table=table, seat="N").away_by == cy


@pytest.mark.django_db
def test_a_hand_over_that_is_not_one_changes_nothing(time_machine):
    table, ana, _ben = _stalled_table(time_machine)
    before = LiveTable.objects.get(pk=table.pk).version
    url = f"/play/tables/{table.pk}/hand-over/"
    for form in (
        {"seat": "X", "version": table.version},  # not a seat
        {"seat": "N", "version": "x"},  # not a version
        {"seat": "N", "version": table.version - 1},  # a stale page
        {"seat": "E", "version": table.version},  # a bot's seat
        {"seat": "S", "version": table.version},  # not the seat to move
    ):
        assert client_of(ana).post(url, form).status_code == 400, form
    assert client_of(person("cy")).post(url, {"seat": "N", "version": 0}).status_code == 404
    assert LiveTable.objects.get(pk=table.pk).version == before
    assert not LiveSeat.objects.filter(table=table, away=True).exists()


@pytest.mark.django_db
def test_a_watcher_may_not_hand_a_seat_over(time_machine):
    time_machine.move_to(T0, tick=False)
    room = classes.classroom()
    teacher = classes.teacher_of(room)
    table, ana, ben = _stalled_table(time_machine)
    ClassMembership.objects.filter(classroom=room).update(joined_at=T0 - timedelta(days=1))
    ClassMembership.objects.create(
        classroom=room, user=ben, role="student", joined_at=T0 - timedelta(days=1)
    )
    live.live_watchable(pk=table.pk, by=ana, watchable=True)
    table.refresh_from_db()
    time_machine.move_to(T0 + timedelta(minutes=5), tick=False)
    assert client_of(teacher).get(f"/play/tables/{table.pk}/").status_code == 200
    with pytest.raises(live.LiveRefused):
        live.live_hand_over(pk=table.pk, by=teacher, seat=Seat.N, version=table.version)


@pytest.mark.django_db
def test_a_finished_live_deal_says_who_won_winner_first():
    ana = person("ana")
    table = seated_table((ana, Seat.S))
    live.live_begin(pk=table.pk, by=ana)
    live.live_away(pk=table.pk, user=ana, away=True)  # (the bots finish the deal)
    table.refresh_from_db()
    score = engine_of(table).view(Seat.S).score
    page = client_of(ana).get(f"/play/tables/{table.pk}/").text
    ns, ew = score["NS"], score["EW"]
    if ns > ew:
        assert f"North–South won, {ns} to {ew}." in page
    elif ew > ns:
        assert f"East–West won, {ew} to {ns}." in page
    else:
        assert f"A draw, {ns} each." in page


@pytest.mark.django_db
def test_a_socket_whose_presence_lapsed_counts_again_at_its_next_beat(time_machine):
    """The database was away longer than the expiry: the row was swept, the socket is still
    open, and its server's next heartbeat makes it count again."""
    time_machine.move_to(T0, tick=False)
    ana, ben = person("ana"), person("ben")
    table = seated_table((ana, Seat.S), (ben, Seat.N))
    live.presence_open(pk=table.pk, user=ben, watcher=False, socket="ben-1")
    time_machine.move_to(T0 + timedelta(minutes=5), tick=False)
    live.presence_sweep()
    assert _connected(table, ana)["N"] is False
    assert live.presence_beat(sockets=[(table.pk, "ben-1", ben.pk, False)]) == 0
    assert _connected(table, ana)["N"] is True
    assert LivePresence.objects.get().kind == LivePresence.Kind.SEAT
