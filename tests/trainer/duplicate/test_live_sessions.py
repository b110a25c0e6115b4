"""Live duplicate sessions: partnerships (asked and confirmed), check-in, the director's start,
rounds of live tables dealt from each board's seed with the pairs seated by the movement, late
boards finished by bots on the director's word, the close, and every boundary between them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from engine.duplicate.session import session_board
from engine.play import PlaySetup
from tests.trainer.clubs.factories import club, join
from tests.trainer.factories import user
from trainer.duplicate import services
from trainer.duplicate.models import ClubSession, SessionEntry, SessionTable
from trainer.play.models import LiveSeat

pytestmark = pytest.mark.django_db


def _client(who) -> Client:
    c = Client()
    c.force_login(who)
    return c


@pytest.fixture
def field():
    organiser = user("director")
    the_club = club(organiser)
    members = [user(f"p{i}") for i in range(5)]
    for m in members:
        join(the_club, m)
    session = services.session_create(
        user=organiser,
        club=the_club,
        title="Tuesday night",
        boards=0,
        opens_at=timezone.now() - timedelta(minutes=1),
        kind=ClubSession.Kind.LIVE,
        per_round=2,
    )
    return the_club, organiser, members, session


def test_a_partnership_is_asked_and_confirmed_and_a_member_is_in_one_pair(field):
    _, _, (a, b, c, *_), session = field
    ca, cb, cc = _client(a), _client(b), _client(c)
    assert ca.post(f"/sessions/{session.pk}/enter/", {"partner": str(b.pk)}).status_code == 302
    assert "asks you to be their partner" in cb.get(f"/sessions/{session.pk}/").content.decode()
    refused = cc.post(f"/sessions/{session.pk}/enter/", {"partner": str(b.pk)})
    assert refused.status_code == 400 and SessionEntry.objects.count() == 1
    assert cb.post(f"/sessions/{session.pk}/partner/", {"answer": "yes"}).status_code == 302
    entry = SessionEntry.objects.get()
    assert entry.partnered
    again = cb.post(f"/sessions/{session.pk}/enter/")
    assert again.status_code == 400 and SessionEntry.objects.count() == 1
    outsider = user("outsider")
    named = cc.post(f"/sessions/{session.pk}/enter/", {"partner": str(outsider.pk)})
    assert named.status_code == 400 and SessionEntry.objects.count() == 1
    tampered = cc.post(f"/sessions/{session.pk}/enter/", {"partner": "x' or 1=1"})
    assert tampered.status_code == 400 and SessionEntry.objects.count() == 1
    assert cc.post(f"/sessions/{session.pk}/partner/", {"answer": "yes"}).status_code == 400


def test_a_declined_partnership_leaves_the_member_alone(field):
    _, _, (a, b, *_), session = field
    _client(a).post(f"/sessions/{session.pk}/enter/", {"partner": str(b.pk)})
    _client(b).post(f"/sessions/{session.pk}/partner/", {"answer": "no"})
    entry = SessionEntry.objects.get()
    assert entry.partner is None and not entry.partnered


def _field_here(members, session) -> list[SessionEntry]:
    a, b, c, d, _ = members
    services.session_enter(user=a, session=session, partner=b)
    services.partner_answer(user=b, entry=SessionEntry.objects.get(player=a), accept=True)
    services.session_enter(user=c, session=session)
    services.session_enter(user=d, session=session)
    for who in (a, c, d):
        services.check_in(user=who, session=session, here=True)
    return list(SessionEntry.objects.order_by("pair"))


def test_only_the_clubs_organisers_direct(field):
    _, organiser, members, session = field
    _field_here(members, session)
    member = _client(members[0])
    assert member.get(f"/sessions/{session.pk}/director/").status_code == 403
    assert member.post(f"/sessions/{session.pk}/director/act/", {"do": "start"}).status_code == 403
    assert _client(user("stranger")).get(f"/sessions/{session.pk}/director/").status_code == 404
    session.refresh_from_db()
    assert session.movement is None
    director = _client(organiser)
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "nonsense"}).status_code
        == 400
    )
    assert (
        director.post(
            f"/sessions/{session.pk}/director/act/", {"do": "bots", "table": "99999"}
        ).status_code
        == 400
    )


def test_a_live_session_from_check_in_to_the_results(field):
    the_club, organiser, members, session = field
    entries = _field_here(members, session)
    director = _client(organiser)
    early = director.post(f"/sessions/{session.pk}/director/act/", {"do": "round"})
    assert early.status_code == 400 and "Start the session first." in early.content.decode()
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "start"}).status_code == 302
    )
    session.refresh_from_db()
    # Three pairs here and a bot pair: a Howell of four pairs, three rounds of two boards.
    assert session.movement["kind"] == "howell" and session.movement["bot_pair"] == 4
    assert session.boards == 6
    assert sorted(e.seat_number for e in SessionEntry.objects.all()) == [1, 2, 3]
    late = user("late")
    join(the_club, late)
    assert _client(late).post(f"/sessions/{session.pk}/enter/").status_code == 400
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "round"}).status_code == 302
    )
    tables = list(SessionTable.objects.filter(session=session))
    assert len(tables) == 4  # two tables, two boards each
    for t in tables:
        setup = PlaySetup.from_json(t.live.game.setup)
        board = session_board(session.seed, t.board)
        assert (setup.seed, setup.dealer) == (board.seed, board.dealer)
        seated = {s.seat: s.user_id for s in LiveSeat.objects.filter(table=t.live)}
        if t.ns is not None:
            assert seated.get("S") == t.ns.player_id
            if t.ns.partnered:
                assert seated.get("N") == t.ns.partner_id
    # Each player's page says where they sit; the seed never shows.
    a = _client(members[0])
    page = a.get(f"/sessions/{session.pk}/").content.decode()
    assert "Round 1: table" in page and str(session.seed) not in page
    mine = [t for t in tables if entries[0] in (t.ns, t.ew)]
    others = [t for t in tables if t not in mine]
    assert a.get(f"/play/tables/{mine[0].live_id}/").status_code == 200
    assert a.get(f"/play/tables/{others[0].live_id}/").status_code == 404
    assert a.get(f"/sessions/{session.pk}/boards/1/").status_code == 404  # not closed
    directing = director.get(f"/sessions/{session.pk}/director/").content.decode()
    assert "of 8 hands played" in directing
    # Late boards: the bots finish every table, then the next rounds.
    for number in (1, 2, 3):
        for t in SessionTable.objects.filter(session=session, round=number):
            response = director.post(
                f"/sessions/{session.pk}/director/act/", {"do": "bots", "table": str(t.pk)}
            )
            assert response.status_code == 302
        assert not SessionTable.objects.filter(session=session, finished_at__isnull=True).exists()
        if number < 3:
            director.post(f"/sessions/{session.pk}/director/act/", {"do": "round"})
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "round"}).status_code == 400
    )
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "close"}).status_code == 302
    )
    page = a.get(f"/sessions/{session.pk}/").content.decode()
    assert "Ranking" in page and "closed" in page and "Round 3: table" not in page
    traveller = a.get(f"/sessions/{session.pk}/boards/1/").content.decode()
    assert traveller.count("/play/shared/") == 2  # board 1 at both tables of round 1
    csv_text = a.get(f"/sessions/{session.pk}/results.csv").content.decode()
    ranked = [line for line in csv_text.splitlines()[1:4]]
    assert len(ranked) == 3 and "bots" not in "".join(ranked)


def test_a_partnership_plays_a_daylong_board_together_at_a_live_table(field):
    the_club, organiser, (a, b, *_), _ = field
    daylong = services.session_create(
        user=organiser,
        club=the_club,
        title="Weekend",
        boards=2,
        opens_at=timezone.now() - timedelta(minutes=1),
        closes_at=timezone.now() + timedelta(hours=1),
    )
    ca, cb = _client(a), _client(b)
    ca.post(f"/sessions/{daylong.pk}/enter/", {"partner": str(b.pk)})
    waiting = ca.post(f"/sessions/{daylong.pk}/boards/1/play/")
    assert waiting.status_code == 400 and "not confirmed" in waiting.content.decode()
    cb.post(f"/sessions/{daylong.pk}/partner/", {"answer": "yes"})
    response = cb.post(f"/sessions/{daylong.pk}/boards/1/play/")
    assert response.status_code == 302 and "/play/tables/" in response["Location"]
    live = int(response["Location"].rstrip("/").split("/")[-1])
    seated = {s.seat: s.user_id for s in LiveSeat.objects.filter(table_id=live)}
    assert seated == {"S": a.pk, "N": b.pk}
    assert ca.post(f"/sessions/{daylong.pk}/boards/1/play/")["Location"] == response["Location"]
    assert ca.get(response["Location"]).status_code == 200
    # The board is dealt once: its table cannot deal it again once it is over.
    from trainer.play.live_services import LiveRefused, live_begin, live_bots_finish

    live_bots_finish(pk=live, by=a)
    page = ca.get(response["Location"]).content.decode()
    assert "data-begin" not in page and "data-swap" not in page
    with pytest.raises(LiveRefused, match="one chosen board"):
        live_begin(pk=live, by=a)
    assert ca.post(f"/play/tables/{live}/begin/").status_code == 400


def test_a_teacher_directs_a_live_session_for_the_class():
    from tests.trainer.classes.factories import classroom, student_in, teacher_of

    room = classroom()
    teacher = teacher_of(room)
    students = [student_in(room) for _ in range(3)]
    session = services.session_create(
        user=teacher,
        classroom=room,
        title="Class night",
        boards=0,
        kind=ClubSession.Kind.LIVE,
        opens_at=timezone.now() - timedelta(minutes=1),
    )
    for s in students:
        services.session_enter(user=s, session=session)
        services.check_in(user=s, session=session, here=True)
    assert _client(students[0]).get(f"/sessions/{session.pk}/director/").status_code == 403
    director = _client(teacher)
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "start"}).status_code == 302
    )
    assert (
        director.post(f"/sessions/{session.pk}/director/act/", {"do": "round"}).status_code == 302
    )
    assert SessionTable.objects.filter(session=session).count() == 4
    assert "Round 1: table" in _client(students[1]).get(f"/sessions/{session.pk}/").content.decode()
