"""Daylong duplicate sessions on the site: an organiser creates one, members enter and play its
boards (solo deals dealt from the board's seed and dealer), results and travellers appear only
once the session has closed, and every boundary refuses with a reason and writes nothing."""

from __future__ import annotations

import csv
import io
import random
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from engine.duplicate.session import session_board
from engine.play import PlaySetup, PlayTable, parse_actions
from engine.seats import Seat
from tests.trainer.clubs.factories import club, join
from tests.trainer.factories import user
from trainer.duplicate import services
from trainer.duplicate.models import ClubSession, SessionEntry, SessionPlay
from trainer.play.models import Game

pytestmark = pytest.mark.django_db


def _client(who) -> Client:
    c = Client()
    c.force_login(who)
    return c


@pytest.fixture
def field():
    organiser = user("org")
    the_club = club(organiser)
    members = [user(f"m{i}") for i in range(3)]
    for m in members:
        join(the_club, m)
    return the_club, organiser, members


def _daylong(the_club, organiser, boards: int = 3) -> ClubSession:
    now = timezone.now()
    return services.session_create(
        user=organiser,
        club=the_club,
        title="Friday daylong",
        boards=boards,
        opens_at=now - timedelta(minutes=5),
        closes_at=now + timedelta(hours=2),
    )


def _finish(client: Client, game: Game) -> None:
    rng = random.Random(game.pk)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return
        table = PlayTable.replay(PlaySetup.from_json(game.setup), parse_actions(game.actions))
        response = client.post(
            f"/play/{game.pk}/act/", {"action": rng.choice(table.legal()), "version": game.version}
        )
        assert response.status_code == 302


def _play_board(client: Client, session: ClubSession, board: int) -> Game:
    response = client.post(f"/sessions/{session.pk}/boards/{board}/play/")
    assert response.status_code == 302, response.content[:300]
    return Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


def test_an_organiser_creates_a_daylong_and_a_member_cannot(field):
    the_club, organiser, (member, *_) = field
    form = {
        "kind": "daylong",
        "title": "Club night",
        "boards": "6",
        "opens_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    assert _client(member).post(f"/clubs/{the_club.slug}/sessions/", form).status_code == 403
    assert not ClubSession.objects.exists()
    response = _client(organiser).post(f"/clubs/{the_club.slug}/sessions/", form)
    assert response.status_code == 302
    session = ClubSession.objects.get()
    assert (session.boards, session.rule, session.convention) == (
        6,
        the_club.rule,
        the_club.convention,
    )
    chosen = _client(organiser).post(
        f"/clubs/{the_club.slug}/sessions/",
        {**form, "convention": "teach-yourself-1994", "rule": "contribution"},
    )
    assert chosen.status_code == 302
    latest = ClubSession.objects.order_by("-pk").first()
    assert (latest.convention, latest.rule) == ("teach-yourself-1994", "contribution")
    page = _client(member).get(f"/sessions/{latest.pk}/").content.decode()
    assert "Teach Yourself 1994" in page
    latest.delete()
    tampered = _client(organiser).post(
        f"/clubs/{the_club.slug}/sessions/", {**form, "convention": "someone-elses-card"}
    )
    assert tampered.status_code == 400 and ClubSession.objects.count() == 1
    with pytest.raises(services.SessionRefused, match="convention cards"):
        services.session_create(
            user=organiser, club=the_club, title="x", boards=2, convention="nope",
            opens_at=timezone.now(), closes_at=timezone.now() + timedelta(hours=1),
        )  # fmt: skip
    bad = _client(organiser).post(f"/clubs/{the_club.slug}/sessions/", {**form, "boards": "0"})
    assert bad.status_code == 400 and ClubSession.objects.count() == 1
    early = {**form, "closes_at": form["opens_at"]}
    refused = _client(organiser).post(f"/clubs/{the_club.slug}/sessions/", early)
    assert refused.status_code == 400 and ClubSession.objects.count() == 1
    assert "close after it opens" in refused.content.decode()


def test_outsiders_see_no_session(field):
    the_club, organiser, _ = field
    session = _daylong(the_club, organiser)
    outsider = _client(user("outsider"))
    assert outsider.get(f"/clubs/{the_club.slug}/sessions/").status_code == 404
    assert outsider.get(f"/sessions/{session.pk}/").status_code == 404
    assert outsider.post(f"/sessions/{session.pk}/enter/").status_code == 404
    assert outsider.post(f"/sessions/{session.pk}/boards/1/play/").status_code == 404
    assert not SessionEntry.objects.exists()


def test_a_member_enters_once_and_plays_each_board_once_from_its_seed(field):
    the_club, organiser, (member, *_) = field
    session = _daylong(the_club, organiser)
    c = _client(member)
    assert c.post(f"/sessions/{session.pk}/boards/1/play/").status_code == 400  # not entered
    assert c.post(f"/sessions/{session.pk}/enter/").status_code == 302
    again = c.post(f"/sessions/{session.pk}/enter/")
    assert again.status_code == 400 and SessionEntry.objects.count() == 1
    assert "You have already entered this session." in again.content.decode()
    page = c.get(f"/sessions/{session.pk}/").content.decode()
    assert page.count("Play board ") == 3 and "open until" in page
    game = _play_board(c, session, 2)
    setup = PlaySetup.from_json(game.setup)
    board = session_board(session.seed, 2)
    assert (setup.seed, setup.dealer, setup.partner) == (board.seed, board.dealer, "strong")
    assert _play_board(c, session, 2).pk == game.pk  # the same deal, not a second one
    assert SessionPlay.objects.count() == 1
    assert c.post(f"/sessions/{session.pk}/boards/4/play/").status_code == 400
    assert SessionPlay.objects.count() == 1


def test_the_seed_never_reaches_the_page_and_boards_do_not_reveal_each_other(field):
    the_club, organiser, (member, *_) = field
    session = _daylong(the_club, organiser)
    c = _client(member)
    c.post(f"/sessions/{session.pk}/enter/")
    game = _play_board(c, session, 1)
    page = c.get(f"/sessions/{session.pk}/").content.decode()
    table = c.get(f"/play/{game.pk}/").content.decode()
    for text in (page, table):
        assert str(session.seed) not in text
        assert str(session_board(session.seed, 1).seed) not in text
    _finish(c, game)
    record = c.get(f"/play/{game.pk}/record.json").json()
    assert record["setup"]["seed"] == session_board(session.seed, 1).seed
    assert str(session.seed) not in str(record)


def test_results_and_travellers_wait_for_the_close_then_rank_every_pair(field):
    the_club, organiser, members = field
    session = _daylong(the_club, organiser, boards=2)
    clients = [_client(m) for m in members]
    for c in clients:
        c.post(f"/sessions/{session.pk}/enter/")
        for board in (1, 2):
            _finish(c, _play_board(c, session, board))
    plays = SessionPlay.objects.all()
    assert all(p.ns_points is not None for p in plays) and plays.count() == 6
    c = clients[0]
    assert c.get(f"/sessions/{session.pk}/boards/1/").status_code == 404
    assert c.get(f"/sessions/{session.pk}/results.csv").status_code == 404
    assert "Ranking" not in c.get(f"/sessions/{session.pk}/").content.decode()
    with time_machine.travel(session.closes_at + timedelta(minutes=1)):
        page = c.get(f"/sessions/{session.pk}/").content.decode()
        assert "Ranking" in page and "Your card" in page
        traveller = c.get(f"/sessions/{session.pk}/boards/1/")
        assert traveller.status_code == 200
        assert traveller.content.decode().count("/play/shared/") == 3
        rows = list(
            csv.reader(io.StringIO(c.get(f"/sessions/{session.pk}/results.csv").content.decode()))
        )
        ranking = rows[1:4]
        assert sorted(int(r[2]) for r in ranking) == [1, 2, 3]
        # Three results on a board share 0 + 2 + 4 matchpoints (ties split them): 12 on two.
        assert sum(float(r[4]) for r in ranking) == pytest.approx(12)
        assert c.post(f"/sessions/{session.pk}/boards/1/play/").status_code == 302  # own deal
        assert _client(user("late")).get(f"/sessions/{session.pk}/").status_code == 404


def test_a_board_finished_after_the_close_does_not_count(field):
    the_club, organiser, (a, b, _) = field
    session = _daylong(the_club, organiser, boards=1)
    ca, cb = _client(a), _client(b)
    for c in (ca, cb):
        c.post(f"/sessions/{session.pk}/enter/")
    _finish(ca, _play_board(ca, session, 1))
    late_game = _play_board(cb, session, 1)
    with time_machine.travel(session.closes_at + timedelta(minutes=1)):
        _finish(cb, late_game)
        page = ca.get(f"/sessions/{session.pk}/boards/1/").content.decode()
        assert page.count("/play/shared/") == 1
        assert cb.post(f"/sessions/{session.pk}/enter/").status_code == 400


def test_a_teacher_runs_a_daylong_for_the_class_and_only_the_class_sees_it(field):
    from tests.trainer.classes.factories import classroom, student_in, teacher_of

    room = classroom()
    teacher, student = teacher_of(room), student_in(room)
    other_room = classroom()
    other_teacher, other_student = teacher_of(other_room), student_in(other_room)
    form = {
        "kind": "daylong",
        "title": "Homework night",
        "boards": "2",
        "opens_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    assert _client(student).post(f"/classes/{room.pk}/sessions/", form).status_code == 403
    assert _client(other_teacher).post(f"/classes/{room.pk}/sessions/", form).status_code == 404
    assert not ClubSession.objects.exists()
    assert _client(teacher).post(f"/classes/{room.pk}/sessions/", form).status_code == 302
    session = ClubSession.objects.get()
    assert session.classroom == room and session.club is None
    c = _client(student)
    assert "Homework night" in c.get(f"/classes/{room.pk}/sessions/").content.decode()
    assert c.post(f"/sessions/{session.pk}/enter/").status_code == 302
    _finish(c, _play_board(c, session, 1))
    for outsider in (other_student, other_teacher):
        assert _client(outsider).get(f"/sessions/{session.pk}/").status_code == 404
        assert _client(outsider).post(f"/sessions/{session.pk}/enter/").status_code == 404
    with time_machine.travel(session.closes_at + timedelta(minutes=1)):
        assert "Ranking" in _client(teacher).get(f"/sessions/{session.pk}/").content.decode()


@pytest.mark.parametrize("strength", ["beginner", "standard", "strong"])
def test_the_director_picks_the_strength_of_the_sessions_bots(field, strength):
    """A daylong's partner North and bot pair East-West play at the strength the director
    chose; a strength the engine does not know is refused and creates nothing."""
    from engine.bots.signal import SignalBot

    the_club, organiser, (member, *_) = field
    form = {
        "kind": "daylong",
        "title": "Club night",
        "boards": "2",
        "bots": strength,
        "opens_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    director = _client(organiser)
    assert 'name="bots" value="beginner"' in director.get(f"/clubs/{the_club.slug}/sessions/").text
    tampered = director.post(f"/clubs/{the_club.slug}/sessions/", {**form, "bots": "godlike"})
    assert tampered.status_code == 400 and not ClubSession.objects.exists()
    assert director.post(f"/clubs/{the_club.slug}/sessions/", form).status_code == 302
    session = ClubSession.objects.get()
    assert session.bots == strength
    c = _client(member)
    assert c.post(f"/sessions/{session.pk}/enter/").status_code == 302
    setup = PlaySetup.from_json(_play_board(c, session, 1).setup)
    assert (setup.partner, setup.opponents_strength) == (strength, strength)
    table = PlayTable.replay(setup, [])
    for seat in (Seat.N, Seat.E, Seat.W):
        bot = table.bot_for(seat)
        assert isinstance(bot, SignalBot) and bot.strength == strength
