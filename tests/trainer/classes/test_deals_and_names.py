"""Issue #20, items 5–7: a "play N deals" assignment counts deals (solo and at live tables) and
says "deals"; names ending in an initial get one full stop; the club's members page names
people as the rest of the site does."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from engine.seats import SEATS, Seat
from tests.trainer.classes.factories import classroom, student_in, teacher_of, user
from trainer.classes import selectors, services
from trainer.classes.models import Assignment
from trainer.core import playlog
from trainer.play import live
from trainer.play.models import Game
from trainer.progress.models import Attempt

pytestmark = pytest.mark.django_db

SETTINGS = {
    "rule": "classic",
    "convention": "parlett-2008",
    "opponents": "signal",
    "opponents_convention": "parlett-2008",
    "game": False,
}


def _client(who) -> Client:
    c = Client()
    c.force_login(who)
    return c


def _play(room, *, deals: int = 2, title: str = "Play two deals") -> Assignment:
    return services.assignment_create(
        classroom=room,
        by=teacher_of(room),
        title=title,
        due_on=timezone.localdate() + timedelta(days=7),
        play=services.PlaySpec(deals, "teach-yourself-1994", "contribution"),
    )


def _live_deal(host, *players) -> Game:
    """A live deal the teacher ``host`` watches, ``players`` seated from South round; the bots
    play it to the end for them (each hands their seat over)."""
    table = live.live_table_open(host=host, settings=SETTINGS, seat=None, opponents_link=False)
    for who, seat in zip(players, (Seat.S, Seat.N, Seat.E, Seat.W), strict=False):
        live.live_seat_take(pk=table.pk, user=who, seat=seat, allowed=SEATS)
    live.live_begin(pk=table.pk, by=host)
    for who in players:
        live.live_away(pk=table.pk, user=who, away=True)
    table.refresh_from_db()
    assert table.game is not None and table.game.is_finished
    return table.game


# --- "0 of 2 deals" ---------------------------------------------------------------------------


def test_the_class_page_counts_a_play_assignment_in_deals():
    room = classroom()
    student = student_in(room)
    _play(room)

    page = _client(student).get(f"/classes/{room.pk}/").text
    teacher_page = _client(teacher_of(room)).get(f"/classes/{room.pk}/").text

    assert "0 of 2 deals played" in page
    assert "of 2 drills" not in page
    assert "2 deals to play" in teacher_page


def test_a_play_assignment_row_on_the_students_page_counts_deals():
    room = classroom()
    student = student_in(room)
    a = _play(room)

    html = _client(teacher_of(room)).get(f"/classes/{room.pk}/students/{student.pk}/").text

    row = re.search(rf'<tr data-assignment="{a.pk}">.*?</tr>', html, re.S).group(0)
    assert "0/2 deals" in row


# --- Deals at live tables ---------------------------------------------------------------------


def test_a_live_table_deal_counts_for_the_seated_student():
    room = classroom()
    ana, ben = student_in(room, user("ana")), student_in(room, user("ben"))
    a = _play(room)
    game = _live_deal(teacher_of(room), ana)

    counted = playlog.deals_played([a.pk])

    assert counted == {(a.pk, ana.pk): 1}
    assert game.owner_id == teacher_of(room).pk  # the host's record, not the student's
    board = selectors.dashboard_for(classroom=room)
    cells = {r.user.username: r.completions[0] for r in board.students}
    assert (cells["ana"].answered, cells["ana"].total) == (1, 2)
    assert cells["ben"].answered == 0
    html = _client(teacher_of(room)).get(f"/classes/{room.pk}/dashboard/").text
    assert "1/2 deals" in html
    assert _client(ben).get(f"/classes/{room.pk}/").text.count("0 of 2 deals played") == 1


def test_solo_and_live_deals_add_up_and_stop_at_the_count():
    room = classroom()
    ana = student_in(room, user("ana"))
    a = _play(room, deals=2)
    Game.objects.create(owner=ana, setup={"seed": 1}, status="finished", assignment=a)
    Game.objects.create(owner=ana, setup={"seed": 2}, status="playing", assignment=a)
    for _ in range(2):
        _live_deal(teacher_of(room), ana)

    assert playlog.deals_played([a.pk]) == {(a.pk, ana.pk): 3}
    (row,) = selectors.dashboard_for(classroom=room).students
    assert (row.completions[0].answered, row.completions[0].done) == (2, True)


def test_an_earlier_deal_of_a_table_counts_for_everyone_seated_in_it():
    """A table points at its latest deal only; each deal keeps who sat in it, so an earlier
    deal counts though the student recorded no lead in it, and a student who hosts and plays
    is counted for each of their deals too."""
    room = classroom()
    ana, host = student_in(room, user("ana")), student_in(room, user("hosting"))
    a = _play(room, deals=3)
    first = _live_deal(teacher_of(room), ana)
    table = first.livetable_set.get()
    live.live_begin(pk=table.pk, by=teacher_of(room))  # the second deal (ana still away)
    table.refresh_from_db()
    assert table.game != first and table.game is not None and table.game.is_finished
    assert not Attempt.objects.filter(user=ana, game=first).exists()

    own = live.live_table_open(host=host, settings=SETTINGS, seat=Seat.S, opponents_link=False)
    live.live_begin(pk=own.pk, by=host)
    live.live_away(pk=own.pk, user=host, away=True)
    live.live_begin(pk=own.pk, by=host)  # (the host's first deal is now an earlier one)
    Game.objects.create(owner=host, setup={"seed": 3}, status="finished")  # solo, set for none

    assert playlog.deals_played([a.pk]) == {(a.pk, ana.pk): 2, (a.pk, host.pk): 2}


def test_live_deals_before_the_assignment_or_joining_or_of_others_do_not_count():
    room, other_room = classroom(), classroom(name="Other class")
    ana = student_in(room, user("ana"))
    outsider = student_in(other_room, user("out"))
    early = _live_deal(teacher_of(room), ana)
    Game.objects.filter(pk=early.pk).update(created_at=timezone.now() - timedelta(days=1))
    a = _play(room)
    _live_deal(teacher_of(other_room), outsider)  # a student of another class
    # The teacher's own solo deal, set for nothing, is no live deal of anyone's.
    Game.objects.create(owner=ana, setup={"seed": 3}, status="finished")
    latecomer = user("late")
    late_deal = _live_deal(teacher_of(room), latecomer)
    student_in(room, latecomer)  # joined after playing it

    assert late_deal.created_at < room.memberships.get(user=latecomer).joined_at
    assert playlog.deals_played([a.pk]) == {}


def test_the_teacher_sees_a_link_to_each_live_deals_review():
    room = classroom()
    ana = student_in(room, user("ana"))
    a = _play(room)
    game = _live_deal(teacher_of(room), ana)
    game.refresh_from_db()

    links = playlog.deal_links(a.pk)
    html = _client(teacher_of(room)).get(f"/classes/assignments/{a.pk}/").text

    (link,) = links[ana.pk]
    assert link.finished
    assert link.url == f"/play/shared/{game.share_token}/"
    assert link.label == "deal 1 at a live table"
    assert f'href="/play/shared/{game.share_token}/" data-deal-link' in html
    assert _client(teacher_of(room)).get(link.url).status_code == 200
    # The student sees the same deal on their own assignment page.
    assert f"/play/shared/{game.share_token}/" in _client(ana).get(a.get_absolute_url()).text


# --- Names ------------------------------------------------------------------------------------


def _named(username: str, first: str, last: str = ""):
    who = user(username)
    who.first_name, who.last_name = first, last
    who.save()
    return who


def test_taught_by_a_name_ending_in_an_initial_has_one_full_stop():
    room = classroom(_named("theo", "Theo", "Quinn"))
    student = student_in(room)

    html = _client(student).get(f"/classes/{room.pk}/").text

    assert "Taught by Theo Q.</p>" in html
    assert "Q.." not in html


def test_taught_by_a_first_name_alone_ends_the_sentence():
    room = classroom(_named("theo", "Theo"))
    services.co_teacher_add(
        classroom=room, by=teacher_of(room), username=_named("ann", "Ann").username
    )
    student = student_in(room)

    html = _client(student).get(f"/classes/{room.pk}/").text
    link = _client(user("visitor")).get(room.join_path).text

    assert re.search(r"Taught by (Theo, Ann|Ann, Theo)\.</p>", html)
    assert "Q.." not in link and "<strong>Theo</strong>." in link.replace("\n", "")


def test_the_join_page_ends_an_initial_with_one_full_stop():
    room = classroom(_named("theo", "Theo", "Quinn"))

    html = _client(user("visitor")).get(room.join_path).text

    assert "<strong>Theo Q.</strong></p>" in html
    assert "Q.." not in html


def test_the_club_members_page_names_people_by_display_name():
    from tests.trainer.clubs import factories as cf

    olive = _named("olive99", "Olive", "Marsh")
    club = cf.club(olive)
    cf.join(club, _named("ana42", "Ana", "Berg"))
    cf.join(club, user("plain_sam"))  # no name given: the username

    html = _client(olive).get(f"/clubs/{club.slug}/members/").text

    names = re.findall(r'<span class="member-name">([^<]*)</span>', html)
    assert sorted(names) == ["Ana B.", "Olive M.", "plain_sam"]
    table = html[html.index('<table class="members-table">') : html.index("</table>")]
    assert "ana42" not in table and "olive99" not in table
    assert "(Ana B.)</span>" in html  # the button's hidden words too


def test_live_deals_are_counted_in_the_same_queries_however_many_there_are(
    django_assert_num_queries,
):
    """The dashboard's count reads the deals with their players: no query per deal, nor one
    per thousand (SQLite splits a long list of ids into chunks of 999)."""
    from trainer.play.models import LivePlayer

    room = classroom()
    ana = student_in(room, user("ana"))
    a = _play(room, deals=5)
    host = teacher_of(room)

    def deals(n: int) -> None:
        games = Game.objects.bulk_create(
            Game(owner=host, setup={"seed": i}, status="finished", live=True) for i in range(n)
        )
        LivePlayer.objects.bulk_create(LivePlayer(game=g, user=ana, seat="S") for g in games)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    deals(1)
    with CaptureQueriesContext(connection) as few:
        assert playlog.deals_played([a.pk]) == {(a.pk, ana.pk): 1}
    deals(1_100)
    with django_assert_num_queries(len(few.captured_queries)):
        assert playlog.deals_played([a.pk]) == {(a.pk, ana.pk): 1_101}
