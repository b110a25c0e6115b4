"""Board sets: a teacher searches the engine's boards, saves a set, deals it to the class as a
session whose every board is the set's; nobody else sees a set, and a tampered post writes
nothing."""

from __future__ import annotations

import random
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.utils import timezone

from engine.game import DealState
from engine.seats import Seat
from engine.signals import detect, get_convention
from tests.trainer.classes.factories import classroom, student_in, teacher_of
from tests.trainer.factories import user
from trainer.duplicate import services as sessions
from trainer.duplicate.models import ClubSession, SessionPlay
from trainer.teaching.models import BoardSet, SetBoard

pytestmark = pytest.mark.django_db

SEARCH = {"convention": "parlett-2008", "seat": "S", "item": "four_sf", "count": "4"}


def _client(who) -> Client:
    c = Client()
    c.force_login(who)
    return c


@pytest.fixture
def room():
    the_class = classroom()
    teacher = teacher_of(the_class)
    students = [student_in(the_class) for _ in range(4)]
    return the_class, teacher, students


def _searched(client, pk, **extra):
    """A search: the first GET picks a seed and redirects to the page that names it."""
    first = client.get(f"/classes/{pk}/boards/", {**SEARCH, **extra})
    assert first.status_code == 302
    seed = parse_qs(urlparse(first["Location"]).query)["seed"][0]
    return client.get(first["Location"]), seed


def _saved(client, pk, seed, picks=("0", "2"), title="四枚のストレートフラッシュ"):
    return client.post(
        f"/classes/{pk}/boards/", {**SEARCH, "seed": seed, "title": title, "picks": list(picks)}
    )


def test_a_teacher_searches_saves_a_set_and_sees_every_hand(room):
    the_class, teacher, _ = room
    c = _client(teacher)
    page, seed = _searched(c, the_class.pk)
    assert page.status_code == 200 and page.content.decode().count('name="picks"') == 4
    saved = _saved(c, the_class.pk, seed)
    assert saved.status_code == 302
    board_set = BoardSet.objects.get()
    boards = list(board_set.boards.all())
    assert [b.number for b in boards] == [1, 2] and board_set.query["seed"] == int(seed)
    conv = get_convention("parlett-2008")
    for b in boards:
        hand = DealState.deal(b.dealer, random.Random(b.seed)).hands_dealt[Seat.S]
        assert b.dealer == "E" and b.seat == "S" and detect(hand, conv).item == "four_sf"
    shown = c.get(saved["Location"]).content.decode()
    assert "Board 2" in shown and "Deal this set to the class" in shown


def test_tampered_picks_and_searches_write_nothing(room):
    the_class, teacher, _ = room
    c = _client(teacher)
    _, seed = _searched(c, the_class.pk)
    for picks in (("9",), ("0", "0"), ("x",), ()):
        assert _saved(c, the_class.pk, seed, picks).status_code == 400
    bad = c.post(
        f"/classes/{the_class.pk}/boards/",
        {**SEARCH, "item": "four_straight", "seed": seed, "title": "t", "picks": ["0"]},
    )
    assert bad.status_code == 400  # not among the items 13 cards can show first
    upside_down = c.get(
        f"/classes/{the_class.pk}/boards/", {**SEARCH, "seed": seed, "par_low": 5, "par_high": 1}
    )
    assert upside_down.status_code == 400 and "above its high end" in upside_down.content.decode()
    assert c.get(f"/classes/{the_class.pk}/boards/", {**SEARCH, "seat": "X"}).status_code == 400
    assert not BoardSet.objects.exists() and not SetBoard.objects.exists()


def test_only_the_class_teachers_reach_the_sets(room):
    the_class, teacher, students = room
    c = _client(teacher)
    _, seed = _searched(c, the_class.pk)
    _saved(c, the_class.pk, seed)
    board_set = BoardSet.objects.get()
    other_class = classroom(name="他のクラス")
    other_teacher = teacher_of(other_class)
    for who in (students[0], other_teacher, user("stranger")):
        o = _client(who)
        assert o.get(f"/classes/{the_class.pk}/boards/").status_code == 404
        assert o.get(f"/classes/{the_class.pk}/boards/{board_set.pk}/").status_code == 404
        assert _saved(o, the_class.pk, seed).status_code == 404
        assert o.post(f"/classes/{the_class.pk}/boards/{board_set.pk}/delete/").status_code == 404
        dealt = o.post(f"/classes/{the_class.pk}/boards/{board_set.pk}/", {"kind": "daylong"})
        assert dealt.status_code == 404
    assert o.get(f"/classes/{other_class.pk}/boards/{board_set.pk}/").status_code == 404
    assert BoardSet.objects.count() == 1 and not ClubSession.objects.exists()
    page = _client(students[0]).get(f"/classes/{the_class.pk}/").content.decode()
    assert str(SetBoard.objects.first().seed) not in page


def test_a_set_dealt_as_a_daylong_gives_every_pair_the_sets_boards(room):
    the_class, teacher, students = room
    c = _client(teacher)
    _, seed = _searched(c, the_class.pk)
    _saved(c, the_class.pk, seed, picks=("1", "3", "0"))
    board_set = BoardSet.objects.get()
    now = timezone.localtime()
    dealt = c.post(
        f"/classes/{the_class.pk}/boards/{board_set.pk}/",
        {
            "kind": "daylong",
            "title": "授業の日",
            "opens_at": (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"),
            "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
            "rule": "classic",
        },
    )
    assert dealt.status_code == 302
    session = ClubSession.objects.get()
    assert session.classroom == the_class and session.boards == 3
    assert session.convention == board_set.convention
    chosen = list(board_set.boards.all())
    for number, board in enumerate(chosen, start=1):
        assert (session.board(number).seed, str(session.board(number).dealer)) == (
            board.seed,
            board.dealer,
        )
    sessions.session_enter(user=students[0], session=session)
    play = sessions.board_start(user=students[0], session=session, board=2)
    assert play.game.setup["seed"] == chosen[1].seed
    assert SessionPlay.objects.count() == 1


def test_a_live_session_on_a_set_plays_as_many_rounds_as_the_set_fills(room):
    the_class, teacher, students = room
    c = _client(teacher)
    _, seed = _searched(c, the_class.pk)
    _saved(c, the_class.pk, seed, picks=("0", "1", "2"))
    board_set = BoardSet.objects.get()
    from trainer.teaching import services

    session = services.set_deal(
        by=teacher,
        board_set=board_set,
        kind=ClubSession.Kind.LIVE,
        title="授業",
        opens_at=timezone.now() - timedelta(minutes=1),
        per_round=1,
    )
    for s in students:
        sessions.session_enter(user=s, session=session)
        sessions.check_in(user=s, session=session, here=True)
    sessions.session_start(by=teacher, session=session)
    session.refresh_from_db()
    assert len(session.movement["rounds"]) == 3 and session.boards == 3
    sessions.round_start(by=teacher, session=session)
    seeds = {t.live.deal_seed for t in session.tables.all()}
    assert seeds == {board_set.boards.get(number=1).seed}
    assert session.tables.count() == 2  # four pairs at two tables, the same board at each
    with pytest.raises(services.SetRefused, match="fewer boards than a round"):
        services.set_deal(
            by=teacher,
            board_set=board_set,
            kind=ClubSession.Kind.LIVE,
            title="授業",
            opens_at=timezone.now(),
            per_round=4,
        )


def test_after_the_close_the_teacher_compares_the_pairs_board_by_board(room):
    import time_machine

    from trainer.play.live_services import live_bots_finish
    from trainer.teaching import services

    the_class, teacher, students = room
    c = _client(teacher)
    _, seed = _searched(c, the_class.pk)
    _saved(c, the_class.pk, seed, picks=("0", "1"))
    session = services.set_deal(
        by=teacher,
        board_set=BoardSet.objects.get(),
        kind=ClubSession.Kind.DAYLONG,
        title="比べる日",
        opens_at=timezone.now() - timedelta(minutes=5),
        closes_at=timezone.now() + timedelta(hours=1),
    )
    for member, partner in ((students[0], students[1]), (students[2], students[3])):
        sessions.session_enter(user=member, session=session, partner=partner)
        sessions.partner_answer(user=partner, entry=session.entries.get(player=member), accept=True)
        for board in (1, 2):
            play = sessions.board_start(user=member, session=session, board=board)
            live_bots_finish(pk=play.live.pk, by=member)
    url = f"/classes/{the_class.pk}/sessions/{session.pk}/compare/"
    assert c.get(url).status_code == 404  # not before the close
    with time_machine.travel(session.closes_at + timedelta(minutes=1)):
        page = c.get(url)
        assert page.status_code == 200
        body = page.content.decode()
        assert body.count('<tr><th scope="row">') == 4  # two pairs, in both tables
        assert "/ 2" in body  # each board: two results, a top of 2
        assert "data-misreadings" in body
        session_page = c.get(f"/sessions/{session.pk}/").content.decode()
        assert "data-compare-link" in session_page
        for who in (students[0], teacher_of(classroom(name="別のクラス")), user("someone")):
            assert _client(who).get(url).status_code == 404
        assert (
            "data-compare-link"
            not in _client(students[0]).get(f"/sessions/{session.pk}/").content.decode()
        )


def _hands_text(seed: int = 8):
    dealt = DealState.deal(Seat.W, random.Random(seed)).hands_dealt
    return {str(s): " ".join(str(c) for c in dealt[s]) for s in dealt}, dealt


def test_a_board_entered_by_hand_is_checked_added_and_dealt_with_its_cards(room):
    the_class, teacher, students = room
    c = _client(teacher)
    _, seed = _searched(c, the_class.pk)
    _saved(c, the_class.pk, seed, picks=("0",))
    board_set = BoardSet.objects.get()
    url = f"/classes/{the_class.pk}/boards/{board_set.pk}/"
    text, dealt = _hands_text()
    bad = [
        {**text, "N": text["N"].replace(text["N"].split()[0], "XZ")},  # not a card
        {**text, "N": " ".join(text["N"].split()[:12])},  # 12 cards
        {**text, "E": text["N"]},  # North's cards twice
    ]
    for hands in bad:
        assert c.post(url, {"add_board": "1", "dealer": "W", **hands}).status_code == 400
    assert board_set.boards.count() == 1
    for who in (students[0], teacher_of(classroom(name="別の教室"))):
        assert _client(who).post(url, {"add_board": "1", "dealer": "W", **text}).status_code == 404
    assert c.post(url, {"add_board": "1", "dealer": "W", **text}).status_code == 302
    added = board_set.boards.get(number=2)
    assert added.seat == "N" and added.hands == {
        s: [str(x) for x in dealt[Seat(s)]] for s in "NESW"
    }
    page = c.get(url).content.decode()
    assert "entered by hand" in page and "Board 2" in page
    # Dealt to the class: the pair's table deals exactly those cards.
    now = timezone.localtime()
    c.post(url, {"kind": "daylong", "title": "手で入れた日", "rule": "classic",
                 "opens_at": (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"),
                 "closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")})  # fmt: skip
    session = ClubSession.objects.get()
    assert session.board(2).hands is not None
    sessions.session_enter(user=students[0], session=session, partner=students[1])
    sessions.partner_answer(user=students[1], entry=session.entries.get(), accept=True)
    play = sessions.board_start(user=students[0], session=session, board=2)
    engine = live_engine(play.live)
    assert {s: engine.deal.hands_dealt[s] for s in dealt} == dict(dealt)
    solo = students[2]
    sessions.session_enter(user=solo, session=session)
    alone = sessions.board_start(user=solo, session=session, board=2)
    assert alone.game.setup["hands"]["S"] == [str(x) for x in dealt[Seat.S]]
    # The hands are never on a player's page before the deal ends.
    table_page = _client(students[0]).get(f"/play/tables/{play.live.pk}/").content.decode()
    assert "deal_hands" not in table_page and str(play.live.deal_seed) not in table_page


def live_engine(table):
    from trainer.play import live
    from trainer.play.selectors import actions_of, setup_of

    table.refresh_from_db()
    from engine.play import PlayTable

    return PlayTable.replay(setup_of(table.game), actions_of(table.game), live.humans_of(table))
