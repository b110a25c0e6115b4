"""'Play N deals' assignments: setting them, students playing them, the teacher watching and
the dashboard's deals and signal accuracy in play."""

from __future__ import annotations

import csv
import io
import itertools
import random
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from engine.play import PlaySetup, PlayTable, parse_actions
from tests.trainer.classes.factories import classroom, student_in, teacher_of, user
from trainer.classes import selectors, services
from trainer.classes.models import Assignment
from trainer.play.models import Game
from trainer.progress.models import SOURCE_PLAY, Attempt

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seeds(monkeypatch):
    """Deals dealt in a known order, so every run meets the same deals."""
    from trainer.play import views

    seeds = itertools.count(2000)
    monkeypatch.setattr(views, "new_seed", lambda: next(seeds))


def _play(room, *, deals: int = 2, convention: str = "teach-yourself-1994") -> Assignment:
    return services.assignment_create(
        classroom=room,
        by=teacher_of(room),
        title="Play at the table",
        due_on=timezone.localdate() + timedelta(days=7),
        play=services.PlaySpec(deals, convention, "contribution"),
    )


def _client(who) -> Client:
    c = Client()
    c.force_login(who)
    return c


def _start(client: Client, assignment: Assignment, **extra) -> Game:
    before = set(Game.objects.values_list("pk", flat=True))
    form = {
        "convention": "parlett-2008",
        "rule": "classic",
        "opponents": "greedy",
        "length": "deal",
        "coach": "on",
        "assignment": assignment.pk,
    }
    response = client.post(f"/play/?assignment={assignment.pk}", {**form, **extra})
    assert response.status_code == 302, response.content[:300]
    (pk,) = set(Game.objects.values_list("pk", flat=True)) - before
    return Game.objects.get(pk=pk)


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


def test_a_play_assignment_keeps_deals_convention_and_rule_and_no_drills():
    room = classroom()
    a = _play(room, deals=3)
    assert (a.source, a.count, a.convention, a.rule) == (
        "play",
        3,
        "teach-yourself-1994",
        "contribution",
    )
    assert a.is_play
    assert not a.drills.exists()
    assert selectors.assignment_with_total(teacher_of(room), a.pk).total == 3


@pytest.mark.parametrize("deals", [0, 11])
def test_a_play_assignment_needs_one_to_ten_deals(deals):
    room = classroom()
    with pytest.raises(ValidationError):
        _play(room, deals=deals)
    assert not Assignment.objects.exists()


def test_the_assignment_form_sets_a_play_assignment():
    room = classroom()
    teacher = _client(teacher_of(room))
    response = teacher.post(
        f"/classes/{room.pk}/assignments/new/",
        {
            "title": "Two deals",
            "due_on": (timezone.localdate() + timedelta(days=3)).isoformat(),
            "source": "play",
            "deals": "2",
            "convention": "parlett-2008",
            "rule": "classic",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    a = Assignment.objects.get()
    assert (a.source, a.count) == ("play", 2)


def test_the_assignment_form_asks_how_many_deals():
    room = classroom()
    teacher = _client(teacher_of(room))
    response = teacher.post(
        f"/classes/{room.pk}/assignments/new/",
        {
            "title": "No count",
            "due_on": (timezone.localdate() + timedelta(days=3)).isoformat(),
            "source": "play",
            "convention": "parlett-2008",
            "rule": "classic",
        },
    )
    assert response.status_code == 200
    assert "Say how many deals to play." in response.content.decode()
    assert not Assignment.objects.exists()


def test_a_student_plays_with_the_assignments_convention_and_rule_whatever_is_posted():
    room = classroom()
    a = _play(room)
    student = student_in(room)
    game = _start(_client(student), a)
    assert game.assignment == a
    setup = PlaySetup.from_json(game.setup)
    assert (setup.convention, setup.rule.name) == ("teach-yourself-1994", "contribution")


def test_a_deal_cannot_be_linked_to_someone_elses_assignment():
    room = classroom()
    a = _play(room)
    outsider = user()
    game = _start(_client(outsider), a)
    assert game.assignment is None


def test_the_teacher_watches_an_assigned_deal_read_only_and_others_get_404():
    room = classroom()
    a = _play(room)
    student = student_in(room)
    game = _start(_client(student), a)
    teacher = _client(teacher_of(room))
    page = teacher.get(f"/play/{game.pk}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Watching" in body
    assert "data-action=" not in body
    assert (
        teacher.post(f"/play/{game.pk}/act/", {"action": "pass", "version": 0}).status_code == 404
    )
    # Another class's teacher, and a classmate, see nothing.
    other_teacher = _client(teacher_of(classroom()))
    classmate = _client(student_in(room))
    for who in (other_teacher, classmate):
        assert who.get(f"/play/{game.pk}/").status_code == 404
    # A deal the student plays on their own is not the teacher's to watch.
    own = Game.objects.create(owner=student, setup=game.setup, actions=game.actions)
    assert teacher.get(f"/play/{own.pk}/").status_code == 404


def test_the_dashboard_counts_finished_deals_and_signal_accuracy_in_play():
    room = classroom()
    a = _play(room, deals=2)
    student = student_in(room)
    client = _client(student)
    game = _start(client, a)
    _finish(client, game)
    data = selectors.dashboard_for(classroom=room)
    (row,) = data.students
    (completion,) = row.completions
    assert (completion.answered, completion.total, completion.deals) == (1, 2, True)
    assert completion.accuracy is None
    leads = Attempt.objects.filter(user=student, source=SOURCE_PLAY, kind="lead")
    assert row.play.leads == leads.count()
    assert row.play.leads_right == leads.filter(correct=True).count()
    page = _client(teacher_of(room)).get(f"/classes/{room.pk}/dashboard/")
    text = page.content.decode()
    assert "1/2 deals" in text
    assert "Signals in play" in text and "data-play-accuracy" in text


def test_the_teachers_assignment_page_links_each_students_deals():
    room = classroom()
    a = _play(room)
    student = student_in(room)
    game = _start(_client(student), a)
    body = _client(teacher_of(room)).get(f"/classes/assignments/{a.pk}/").content.decode()
    assert f'href="/play/{game.pk}/"' in body
    assert "(in play)" in body


def test_the_students_assignment_page_and_next_lead_to_the_table():
    room = classroom()
    a = _play(room)
    student = _client(student_in(room))
    body = student.get(f"/classes/assignments/{a.pk}/").content.decode()
    assert f'href="/play/?assignment={a.pk}"' in body
    response = student.get(f"/classes/assignments/{a.pk}/next/")
    assert response.status_code == 302
    assert response["Location"] == f"/play/?assignment={a.pk}"


def test_play_is_absent_from_classes_without_play_assignments():
    room = classroom()
    student_in(room)
    body = _client(teacher_of(room)).get(f"/classes/{room.pk}/dashboard/").content.decode()
    assert "Signals in play" not in body


def test_the_students_page_shows_answers_in_play_marked_and_linked_to_their_deal():
    room = classroom()
    a = _play(room)
    student = student_in(room)
    client = _client(student)
    game = _start(client, a)
    _finish(client, game)
    attempts = Attempt.objects.filter(user=student, source=SOURCE_PLAY)
    assert attempts.exists()
    body = (
        _client(teacher_of(room)).get(f"/classes/{room.pk}/students/{student.pk}/").content.decode()
    )
    history = body[body.index('<section id="history"') :]
    assert history.count("data-in-play") == attempts.count()
    # The latest wrong answers above the history mark theirs too.
    wrong = attempts.filter(correct=False).count()
    assert body.count("data-in-play") == attempts.count() + min(wrong, 10)
    assert f'href="/play/{game.pk}/"' in body
    assert "/drills/lead/" not in body  # no drill is rebuilt from a deal's number


def test_the_teacher_watching_sees_no_hidden_card():
    from tests.trainer.play.conftest import hidden_cards, leaks

    room = classroom()
    a = _play(room)
    student = student_in(room)
    client = _client(student)
    game = _start(client, a)
    teacher = _client(teacher_of(room))
    rng = random.Random(4)
    for _ in range(6):
        game.refresh_from_db()
        for url in (f"/play/{game.pk}/", f"/play/{game.pk}/table.json"):
            body = teacher.get(url).content.decode()
            assert not leaks(body, hidden_cards(game)), url
            assert str(game.setup["seed"]) not in body
        table = PlayTable.replay(PlaySetup.from_json(game.setup), parse_actions(game.actions))
        client.post(
            f"/play/{game.pk}/act/", {"action": rng.choice(table.legal()), "version": game.version}
        )


def test_the_csv_export_counts_deals_apart_from_drills():
    room = classroom()
    a = _play(room, deals=2)
    student = student_in(room)
    client = _client(student)
    _finish(client, _start(client, a))
    response = _client(teacher_of(room)).get(f"/classes/{room.pk}/export.csv")
    header, row = csv.reader(io.StringIO(response.content.decode()))
    due = a.due_on.isoformat()
    assert header[3:] == [
        f"Play at the table (due {due}): deals finished of 2",
        "all drill assignments: drills answered of 0",
        "all drill assignments: right first time (%)",
        "in play: signals led and read",
        "in play: right (%)",
    ]
    play = Attempt.objects.filter(user=student, source=SOURCE_PLAY)
    right = play.filter(correct=True).count()
    expected_accuracy = str(round(100 * right / play.count())) if play.exists() else ""
    assert row[3:] == ["1", "0", "", str(play.count()), expected_accuracy]


def test_answers_given_at_a_live_table_link_to_its_table_then_to_its_review():
    """A live deal is reached only through its table: the teacher's link for an answer given
    in it opens the table while the deal is in play, and its shared review once it is over
    (never the solo table's address, which is no page for a live deal)."""
    from engine.seats import SEATS, Seat
    from tests.trainer.play.test_live import SETTINGS, led_in
    from trainer.play import live

    room = classroom()
    ana, bo = student_in(room, user("ana")), student_in(room, user("bo"))
    teacher = _client(teacher_of(room))
    table = live.live_table_open(
        host=ana, settings=SETTINGS, seat=Seat.S, opponents_link=False, watchable=True
    )
    live.live_seat_take(pk=table.pk, user=bo, seat=Seat.N, allowed=SEATS)
    table = live.live_begin(pk=table.pk, by=ana)
    game = Game.objects.get(pk=table.game_id)
    led_in(ana, game, correct=False)
    page = f"/classes/{room.pk}/students/{ana.pk}/"

    body = teacher.get(page).content.decode()
    assert f'href="/play/tables/{table.pk}/"' in body
    assert f'href="/play/{game.pk}/"' not in body
    assert teacher.get(f"/play/tables/{table.pk}/").status_code == 200  # (may watch it)

    for who in (ana, bo):
        live.live_away(pk=table.pk, user=who, away=True)  # (the bots finish the deal)
    game.refresh_from_db()
    body = teacher.get(page).content.decode()
    assert f'href="/play/shared/{game.share_token}/"' in body
    assert f'href="/play/tables/{table.pk}/"' not in body

    Game.objects.filter(pk=game.pk).delete()  # (a deal no longer kept: no link, no error)
    body = teacher.get(page).content.decode()
    assert "data-in-play" in body and f"/play/shared/{game.share_token}/" not in body
