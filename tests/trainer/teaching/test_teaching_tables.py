"""A teaching table: the class's teacher pauses it, takes the hand back, shows a hand and goes
on; the players see each of these; nobody else may do any of them; the record keeps them all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from engine.play import PlayTable
from engine.seats import SEATS, Seat
from tests.trainer.classes.factories import classroom, student_in, teacher_of
from tests.trainer.factories import user
from tests.trainer.play.test_live import leaks
from trainer.classes.models import ClassMembership
from trainer.duplicate import services as sessions
from trainer.duplicate.models import ClubSession
from trainer.play import live
from trainer.play.live_services import LiveRefused
from trainer.play.models import Game, LiveTable
from trainer.play.selectors import actions_of, setup_of

pytestmark = pytest.mark.django_db


def _client(who) -> Client:
    c = Client()
    c.force_login(who)
    return c


def _game(table: LiveTable) -> Game:
    return Game.objects.get(pk=LiveTable.objects.get(pk=table.pk).game_id)


def _engine(table: LiveTable) -> PlayTable:
    table.refresh_from_db()
    game = _game(table)
    return PlayTable.replay(setup_of(game), actions_of(game), live.humans_of(table))


@pytest.fixture
def lesson():
    """A class's live session, round 1 dealt: four pairs at two tables, the teacher
    directing; the first table's four players."""
    room = classroom()
    teacher = teacher_of(room)
    students = [student_in(room) for _ in range(8)]
    session = sessions.session_create(
        user=teacher,
        classroom=room,
        title="授業",
        boards=0,
        kind=ClubSession.Kind.LIVE,
        opens_at=timezone.now() - timedelta(minutes=1),
        per_round=1,
    )
    for member, partner in zip(students[::2], students[1::2], strict=True):
        sessions.session_enter(user=member, session=session, partner=partner)
        entry = session.entries.get(player=member)
        sessions.partner_answer(user=partner, entry=entry, accept=True)
        sessions.check_in(user=member, session=session, here=True)
    sessions.session_start(by=teacher, session=session)
    sessions.round_start(by=teacher, session=session)
    table = session.tables.order_by("table").first().live
    people = {Seat(s.seat): s.user for s in table.seats.all()}
    return room, teacher, people, table


def _play(table: LiveTable, people: dict, moves: int) -> None:
    for _ in range(moves):
        engine = _engine(table)
        seat = engine.to_move()
        live.live_act(
            pk=table.pk, user=people[seat], action=engine.legal(seat)[0], version=table.version
        )


def _teach(who, table, **post) -> int:
    return _client(who).post(f"/play/tables/{table.pk}/teach/", post).status_code


def test_the_teacher_watches_every_hand_and_has_the_controls(lesson):
    _, teacher, people, table = lesson
    assert table.supervisor == teacher and set(people) == set(SEATS)
    page = _client(teacher).get(f"/play/tables/{table.pk}/").content.decode()
    assert 'data-teach="pause"' in page and "data-watcher" in page
    player_page = _client(people[Seat.N]).get(f"/play/tables/{table.pk}/").content.decode()
    assert "data-teach" not in player_page


def test_pause_stops_every_move_until_the_teacher_goes_on(lesson):
    _, teacher, people, table = lesson
    _play(table, people, 2)
    assert _teach(teacher, table, do="pause") == 302
    table.refresh_from_db()
    engine = _engine(table)
    seat = engine.to_move()
    with pytest.raises(LiveRefused, match="paused"):
        live.live_act(pk=table.pk, user=people[seat], action=engine.legal(seat)[0],
                      version=table.version)  # fmt: skip
    page = _client(people[seat]).get(f"/play/tables/{table.pk}/").content.decode()
    assert "data-paused" in page and "Paused by your teacher" in page
    assert _teach(teacher, table, do="resume") == 302
    _play(table, people, 1)
    assert [e["kind"] for e in _game(table).teaching] == ["pause", "resume"]


def test_take_back_returns_to_the_start_of_the_hand_and_the_record_keeps_the_moves(lesson):
    _, teacher, people, table = lesson
    engine = _engine(table)
    first_hand = len(engine.deal.played_hands)
    _play(table, people, 3)
    before = list(_game(table).actions)
    assert _teach(teacher, table, do="take_back") == 302
    table.refresh_from_db()
    game = _game(table)
    after = _engine(table)
    assert table.paused and len(after.deal.played_hands) == first_hand
    assert after.deal.current_actions == () and game.actions == before[: len(game.actions)]
    (log,) = game.teaching
    assert log["kind"] == "take_back" and log["taken"] == before[len(game.actions) :]
    page = _client(people[Seat.E]).get(f"/play/tables/{table.pk}/").content.decode()
    assert "data-taken-back" in page
    assert _teach(teacher, table, do="resume") == 302
    _play(table, people, 2)  # play goes on from the start of the hand
    table.refresh_from_db()
    assert not table.paused and len(_game(table).actions) >= len(game.actions) + 2


def test_a_hand_shown_reaches_every_seat_until_the_next_move_and_is_recorded(lesson):
    _, teacher, people, table = lesson
    north = set(_engine(table).deal.held(Seat.N))
    east_page = _client(people[Seat.E]).get(f"/play/tables/{table.pk}/").content.decode()
    assert not leaks(east_page, north)
    assert _teach(teacher, table, do="show", seat="N") == 302
    for seat in (Seat.E, Seat.S, Seat.W):
        page = _client(people[seat]).get(f"/play/tables/{table.pk}/").content.decode()
        assert 'data-shown-hand="N"' in page and leaks(page, north)
    shown = _game(table).teaching[-1]
    assert shown["kind"] == "show" and set(shown["cards"]) == {str(c) for c in north}
    _play(table, people, 1)
    page = _client(people[Seat.E]).get(f"/play/tables/{table.pk}/").content.decode()
    assert "data-shown-hand" not in page


def test_every_teacher_action_is_refused_to_anyone_else(lesson):
    room, teacher, people, table = lesson
    _play(table, people, 1)
    other_teacher = teacher_of(classroom(name="他のクラス"))
    co_teacher = user("co_teacher")
    ClassMembership.objects.create(classroom=room, user=co_teacher, role="teacher")
    bystander = student_in(room)
    version = LiveTable.objects.get(pk=table.pk).version
    for post in ({"do": "pause"}, {"do": "take_back"}, {"do": "show", "seat": "N"},
                 {"do": "hide"}, {"do": "resume"}):  # fmt: skip
        for player in people.values():
            assert _teach(player, table, **post) == 400
        assert _teach(co_teacher, table, **post) == 404  # not the table's teacher: not shown it
        for outsider in (other_teacher, bystander):
            assert _teach(outsider, table, **post) == 404
    table.refresh_from_db()
    assert table.version == version and not table.paused and _game(table).teaching == []
    assert _teach(teacher, table, do="show", seat="X") == 400
    assert _teach(teacher, table, do="dance") == 400
    assert _teach(teacher, table, do="resume") == 400  # (not paused)


def test_the_record_of_a_finished_deal_carries_the_teaching(lesson):
    _, teacher, people, table = lesson
    _play(table, people, 2)
    _teach(teacher, table, do="take_back")
    _teach(teacher, table, do="show", seat="S")
    _teach(teacher, table, do="resume")
    for _ in range(400):
        table.refresh_from_db()
        if table.status != "playing":
            break
        _play(table, people, 1)
    record = _client(people[Seat.N]).get(f"/play/tables/{table.pk}/record.json").json()
    assert [e["kind"] for e in record["teaching"]] == ["take_back", "show", "resume"]
    game = _game(table)
    page = _client(people[Seat.N]).get(f"/play/tables/{table.pk}/").content.decode()
    assert f"/play/shared/{game.share_token}/" in page  # the table's link to its review
    review = _client(people[Seat.N]).get(f"/play/shared/{game.share_token}/").content.decode()
    assert "data-teaching-log" in review and "the hand was taken back to move" in review
    # The pair's own review: both sides had people, each with a row per hand it led.
    assert "data-pair-review" in review
    assert review.count("<tbody>") >= 2


def test_the_pair_review_opens_only_once_the_deal_is_over(lesson):
    _, teacher, people, table = lesson
    _play(table, people, 3)
    game = _game(table)
    assert game.share_token is None  # (no link to a review until the deal is over)
    for who in (*people.values(), teacher, user("stranger2")):
        assert _client(who).get(f"/play/{game.pk}/review/").status_code == 404


def test_partnerships_are_summed_up_for_the_player_and_their_teacher_only(lesson):
    room, teacher, people, table = lesson
    for _ in range(400):
        table.refresh_from_db()
        if table.status != "playing":
            break
        _play(table, people, 1)
    north, south = people[Seat.N], people[Seat.S]
    page = _client(north).get("/play/pairs/").content.decode()
    assert page.count("data-partnership") == 1 and f"With {south.username}" in page
    assert "Signals misread" in page and "Never signalled" in page
    url = f"/classes/{room.pk}/students/{north.pk}/partnerships/"
    taught = _client(teacher).get(url)
    assert taught.status_code == 200 and f"With {south.username}" in taught.content.decode()
    other = teacher_of(classroom(name="他の教室"))
    for who in (south, other, user("nobody")):
        assert _client(who).get(url).status_code == 404
    assert (
        _client(teacher).get(f"/classes/{room.pk}/students/{teacher.pk}/partnerships/").status_code
        == 404
    )
    assert "No finished deal yet." in _client(user("fresh")).get("/play/pairs/").content.decode()
