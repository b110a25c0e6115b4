"""The table pauses after each hand of the learner's side (issue #20): the hand's summary — the
signal, the learner's reading, what was made, the coach's comment — stays until the learner
posts Continue; a reload shows the same pause; the hand log beside the table lists every
finished hand; a teacher looking on is told the student's name, not "(you)"; the score at the
top is the result's own (left-over bonus included); and no response names a hidden card."""

from __future__ import annotations

import html
import random
import re
from datetime import date, timedelta

import pytest
from django.test import Client

from engine.cards import DECK
from engine.game import PASS
from engine.play import (
    PlaySetup,
    PlayTable,
    coach_read,
    hand_ends,
    page_table,
    parse_actions,
    pause_at,
    paused,
)
from engine.seats import Seat, Side
from tests.trainer.classes import factories as class_factories
from tests.trainer.play.conftest import leaks, shows_seed, start, table_of
from trainer.classes import services as class_services
from trainer.play.models import Game
from trainer.play.presenters import seat_name

HX = {"HTTP_HX_REQUEST": "true"}

pytestmark = pytest.mark.django_db


def _text(body: str) -> str:
    """The page as read: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", body)).split())


def _section(body: str, marker: str) -> str:
    """The ``<section …marker…>…</section>`` of ``body`` (the first one carrying ``marker``)."""
    found = re.search(rf"<section[^>]*{marker}[^>]*>(.*?)</section>", body, flags=re.S)
    assert found is not None, f"no section with {marker}"
    return found.group(1)


def _pause_at(body: str) -> int | None:
    found = re.search(r'data-paused="(\d+)"', body)
    return int(found.group(1)) if found else None


def _hidden_at(game: Game, at: int | None) -> set:
    """The cards South could not see when the record held its first ``at`` actions (all of
    them: None)."""
    game.refresh_from_db()
    actions = parse_actions(game.actions)
    table = PlayTable.replay(PlaySetup.from_json(game.setup), actions[:at])
    view = table.view()
    if view.is_over:
        return set()
    seen = set(view.hand)
    seen |= {c for h in view.completed for _, c in h.cards}
    seen |= {c for _, c in view.current_cards}
    return set(DECK) - seen


def _no_leak(response, game: Game, what: str) -> None:
    """Nothing the page shows is hidden from South at the point it shows (the pause: the end of
    the paused hand), nor now; and not the seed."""
    body = response.content.decode()
    for hidden in (_hidden_at(game, _pause_at(body)), _hidden_at(game, None)):
        found = leaks(body, hidden) + leaks(_text(body), hidden)
        assert not found, f"{what} names hidden cards {found}"
    assert not shows_seed(body, game.setup["seed"]), f"{what} shows the seed"


def _go_on(client: Client, game: Game, body: str, **extra):
    """Post Continue from the pause ``body`` shows."""
    at = _pause_at(body)
    assert at is not None
    return client.post(f"/play/{game.pk}/act/", {"seen": at, "version": game.version}, **extra)


def _to_pause(client: Client, game: Game, rng: random.Random, *, leader: Seat, wrong=True):
    """Play (htmx posts, answering the quiz wrongly when it comes) until the table pauses on a
    hand ``leader`` led; Continue from any other pause on the way. Returns the response that
    paused and the action count before the learner's move that led to it."""
    for _ in range(200):
        game.refresh_from_db()
        assert not game.is_finished, "the deal ended without that pause"
        table = table_of(game)
        quiz = coach_read(table)
        if quiz is not None:
            option = next(k for k in quiz.option_keys if (k != quiz.answer) == wrong)
            answered = client.post(
                f"/play/{game.pk}/quiz/", {"version": game.version, "option": option}, **HX
            )
            assert answered.status_code == 200
        before = len(table.actions)
        current = table.view().current
        legal = table.legal()
        # Let partner signal: pass after partner's first card.
        signal = len(current) == 1 and current[0][0] is Seat.N and PASS in legal
        response = client.post(
            f"/play/{game.pk}/act/",
            {"version": game.version, "action": PASS if signal else rng.choice(legal)},
            **HX,
        )
        assert response.status_code == 200
        body = response.content.decode()
        at = _pause_at(body)
        if at is None:
            continue
        game.refresh_from_db()
        end = next(e for e in hand_ends(table_of(game)) if e.at == at)
        if end.leader is leader:
            return response, before
        assert _go_on(client, game, body, **HX).status_code == 200
    raise AssertionError("no pause")


# -- the pause --------------------------------------------------------------------------------


def test_after_partners_hand_the_table_pauses_on_signal_reading_and_comment(south):
    game = start(south, opponents="signal")
    response, before = _to_pause(south, game, random.Random(1), leader=Seat.N)
    body = response.content.decode()
    at = _pause_at(body)
    game.refresh_from_db()
    table = table_of(game)
    end = next(e for e in hand_ends(table) if e.at == at)
    summary = table.hand_summary(end.hand_number, end.deal_number)
    assert summary.signal is not None and summary.reading_text
    pause = _text(_section(body, "data-pause="))
    # The signal, how it reads, the learner's (wrong) reading, what was made, the comment.
    c1, c2 = summary.signal
    said = f"signal {c1.symbol} then {c2.symbol}" if c2 else f"signal {c1.symbol} and pass"
    assert f"Hand {end.hand_number} is over" in pause
    assert said in pause
    assert "Your read:" in pause and "wrong." in pause
    assert f"for {summary.points}." in pause
    assert str(summary.reading_text) in pause
    assert "What partner's signal tells you:" in pause
    assert "data-continue" in body
    # Nothing of the next hand yet: the steps stop at the paused hand's end, no card is
    # playable, and the next hand's first move is not told.
    assert body.count('data-step="') == at - before
    assert 'id="south-hand"' not in body and "data-action=" not in body
    # Partner's hand is followed by the opponents': a bot leads it, and the page does not say.
    actions = parse_actions(game.actions)
    nxt = actions[at]
    mover = PlayTable.replay(PlaySetup.from_json(game.setup), actions[:at]).to_move()
    assert nxt.card is not None and mover in (Seat.E, Seat.W)
    first_move = f"{seat_name(mover)} leads {nxt.card.symbol}"
    assert f"leads {nxt.card.symbol}" not in _text(body)
    assert f"Hand {end.hand_number + 1}, led by" not in _text(body)
    # Continue: the next hand's moves come, as steps from the pause on.
    went_on = _go_on(south, game, body, **HX)
    assert went_on.status_code == 200
    after = went_on.content.decode()
    assert _pause_at(after) != at
    assert 'data-step="' in after
    assert first_move in _text(after)


def test_after_the_learners_own_hand_the_pause_grades_the_lead(south):
    game = start(south)
    response, _ = _to_pause(south, game, random.Random(3), leader=Seat.S)
    pause = _text(_section(response.content.decode(), "data-pause="))
    assert "led by South for North–South (you)" in pause
    assert "Your lead:" in pause
    assert "What partner reads from your signal:" in pause


def test_a_reload_shows_the_same_pause_until_continue_is_posted(south):
    game = start(south)
    response, before = _to_pause(south, game, random.Random(1), leader=Seat.N)
    body = response.content.decode()
    at = _pause_at(body)
    summary = _text(_section(body, "data-pause="))
    for _ in range(2):  # a reload, twice: the same pause
        again = south.get(f"/play/{game.pk}/").content.decode()
        assert _pause_at(again) == at
        assert _text(_section(again, "data-pause=")) == summary
        assert 'id="south-hand"' not in again
    # The address a plain post leads to shows the same pause, with the moves up to it.
    stepped = south.get(f"/play/{game.pk}/?step={before}").content.decode()
    assert _pause_at(stepped) == at
    assert stepped.count('data-step="') == at - before
    # Continue (a plain post): the table goes on, and a reload no longer pauses there.
    went_on = _go_on(south, game, body)
    assert went_on.status_code == 302
    assert went_on["Location"] == f"/play/{game.pk}/?step={at}"
    later = south.get(f"/play/{game.pk}/").content.decode()
    assert _pause_at(later) != at
    game.refresh_from_db()
    if table_of(game).learner_to_move():
        assert 'id="south-hand"' in later


def test_continue_changes_no_record_and_refuses_a_malformed_position(south):
    game = start(south)
    response, _ = _to_pause(south, game, random.Random(1), leader=Seat.N)
    game.refresh_from_db()
    record, version = list(game.actions), game.version
    for bad in ("", "x", "-1", "0", "99999", str(len(record) + 1)):
        refused = south.post(f"/play/{game.pk}/act/", {"seen": bad, "version": version})
        assert refused.status_code == 400, bad
        assert _pause_at(refused.content.decode()) is not None  # still paused
    assert _go_on(south, game, response.content.decode()).status_code == 302
    game.refresh_from_db()
    assert (game.actions, game.version) == (record, version)


def test_another_user_cannot_go_on_from_a_pause(south, client_for):
    game = start(south)
    response, _ = _to_pause(south, game, random.Random(1), leader=Seat.N)
    stranger = client_for(class_factories.user())
    assert _go_on(stranger, game, response.content.decode()).status_code == 404


def test_with_the_coach_off_the_table_does_not_pause(south):
    game = start(south, coach="off")
    rng = random.Random(1)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            break
        table = table_of(game)
        response = south.post(
            f"/play/{game.pk}/act/",
            {"version": game.version, "action": rng.choice(table.legal())},
            **HX,
        )
        assert "data-pause" not in response.content.decode()


# -- the hand log -------------------------------------------------------------------------------


def test_the_hand_log_lists_every_finished_hand_newest_last(south):
    game = start(south)
    response, _ = _to_pause(south, game, random.Random(1), leader=Seat.N)
    body = response.content.decode()
    at = _pause_at(body)
    game.refresh_from_db()
    shown = PlayTable.replay(PlaySetup.from_json(game.setup), parse_actions(game.actions)[:at])
    finished = [f"1:{h.number}" for h in shown.view().completed]
    assert len(finished) >= 4
    log = re.search(r"<aside[^>]*data-hand-log[^>]*>(.*?)</aside>", body, flags=re.S).group(1)
    assert re.findall(r'data-log-line="([\d:]+)"', log) == finished
    for summary in shown.summaries():
        assert f"Hand {summary.hand_number}:" in _text(log)
    # Folded the same way for a phone.
    fold = re.search(r"<details[^>]*data-hand-log-fold[^>]*>(.*?)</details>", body, flags=re.S)
    assert re.findall(r'data-log-line="([\d:]+)"', fold.group(1)) == finished
    # Once the deal is over, every hand of it.
    rng = random.Random(2)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            break
        table = table_of(game)
        south.post(
            f"/play/{game.pk}/act/", {"version": game.version, "action": rng.choice(table.legal())}
        )
    end = south.get(f"/play/{game.pk}/").content.decode()
    log = re.search(r"<aside[^>]*data-hand-log[^>]*>(.*?)</aside>", end, flags=re.S).group(1)
    assert re.findall(r'data-log-line="([\d:]+)"', log) == [f"1:{n}" for n in range(1, 9)]


# -- who reads "you" ----------------------------------------------------------------------------


def _assigned_deal(student_name: str = "Ana"):
    room = class_factories.classroom()
    student = class_factories.student_in(room, class_factories.user("ana42"))
    student.first_name, student.last_name = student_name, "Berg"
    student.save()
    assignment = class_services.assignment_create(
        classroom=room,
        by=class_factories.teacher_of(room),
        title="Play at the table",
        due_on=date.today() + timedelta(days=7),
        play=class_services.PlaySpec(2, "parlett-2008", "classic"),
    )
    client = Client()
    client.force_login(student)
    game = start(client, assignment=str(assignment.pk))
    teacher = Client()
    teacher.force_login(class_factories.teacher_of(room))
    return client, teacher, game


def test_a_watching_teacher_reads_the_students_name_not_you(south):
    student, teacher, game = _assigned_deal()
    body = teacher.get(f"/play/{game.pk}/").content.decode()
    text = _text(body)
    assert "Watching" in text
    assert "N–S (Ana B.)" in text
    assert "(you)" not in text and "led by you" not in text
    assert re.search(r"South · \d+ cards? Ana B\.", text), text
    # The student still reads "you".
    own = _text(student.get(f"/play/{game.pk}/").content.decode())
    assert "N–S (you)" in own and "Ana B." not in own
    # After the deal: the teacher's review names the student; the share link names nobody.
    rng = random.Random(4)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            break
        table = table_of(game)
        student.post(
            f"/play/{game.pk}/act/", {"version": game.version, "action": rng.choice(table.legal())}
        )
    review = _text(teacher.get(f"/play/{game.pk}/review/").content.decode())
    assert "North–South (Ana B.)" in review and "(you)" not in review
    shared = _text(Client().get(f"/play/shared/{game.share_token}/").content.decode())
    assert "(you)" not in shared and "Ana B." not in shared and "North–South" in shared
    over = _text(teacher.get(f"/play/{game.pk}/").content.decode())
    assert "(you)" not in over and "North–South (Ana B.) left-overs" in over


# -- the score -------------------------------------------------------------------------------------


def test_the_score_at_the_top_is_the_results_left_over_bonus_included(south):
    """The score line and the result line are the same figures (``TableView.score``), and
    differ from the hand scores in a deal whose left-over bonus counts."""
    rng = random.Random(5)
    for _ in range(8):
        game = start(south)
        while True:
            game.refresh_from_db()
            if game.is_finished:
                break
            table = table_of(game)
            south.post(
                f"/play/{game.pk}/act/",
                {"version": game.version, "action": rng.choice(table.legal())},
            )
        view = table_of(game).view()
        if dict(view.hand_scores) != dict(view.outcome.final):
            break
    else:  # pragma: no cover - left-over bonuses are common
        raise AssertionError("no deal with a left-over bonus in eight")
    body = south.get(f"/play/{game.pk}/").content.decode()
    top = {
        side: int(re.search(rf'data-score="{side}">(\d+)<', body).group(1)) for side in ("NS", "EW")
    }
    result = re.search(r"data-result-score>(.*?)</h2>", body, flags=re.S).group(1)
    first, second = (int(n) for n in re.search(r"(\d+) to (\d+)", _text(result)).groups())
    # The winner's score comes first.
    ns, ew = (second, first) if "East–West win" in _text(result) else (first, second)
    assert top == {"NS": ns, "EW": ew} == dict(view.outcome.final) == dict(view.score)
    assert top != dict(view.hand_scores)
    bonus = view.finished_deals[-1].leftover_bonus
    assert top == {s: view.hand_scores[s] + bonus[s] for s in ("NS", "EW")}


def test_the_views_score_is_the_hand_scores_until_the_end_then_the_final():
    table, _ = PlayTable.start(PlaySetup(seed=11))
    rng = random.Random(0)
    while not table.is_over():
        assert table.view().score == table.view().hand_scores
        table.act(rng.choice(table.legal()))
    view = table.view()
    assert view.score == view.outcome.final
    assert view.to_json()["score"] == dict(view.outcome.final)


# -- nothing hidden ------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "fields"), [(1, {}), (2, {"opponents": "signal"})])
def test_pauses_and_continues_never_show_a_hidden_card(south, seed, fields):
    game = start(south, **fields)
    rng = random.Random(seed)
    pauses = 0
    for _ in range(300):
        game.refresh_from_db()
        if game.is_finished:
            break
        page = south.get(f"/play/{game.pk}/")
        _no_leak(page, game, "table page")
        body = page.content.decode()
        if _pause_at(body) is not None:
            pauses += 1
            _no_leak(south.get(f"/play/{game.pk}/", **HX), game, "paused partial")
            went_on = _go_on(south, game, body, **HX)
            assert went_on.status_code == 200
            _no_leak(went_on, game, "continue")
            continue
        table = table_of(game)
        response = south.post(
            f"/play/{game.pk}/act/",
            {"version": game.version, "action": rng.choice(table.legal())},
            **HX,
        )
        _no_leak(response, game, "action")
    assert game.is_finished and pauses >= 2


# -- the engine's pauses -----------------------------------------------------------------------


def test_the_engine_pauses_at_each_hand_of_the_learners_side_and_nowhere_else():
    setup = PlaySetup(seed=7, opponents="signal")
    table, steps = PlayTable.start(setup)
    assert paused(table, steps).pause is None  # hand 1 is East's
    rng = random.Random(1)
    seen_pauses = []
    while not table.is_over():
        before = len(table.actions)
        steps = table.act(rng.choice(table.legal()))
        at = paused(table, steps)
        if at.pause is None:
            continue
        end = at.pause
        assert end.side is Side.NS and end.at > before
        # The table as it stood then: the record up to the hand's end, the steps to there.
        assert at.table.actions == table.actions[: end.at]
        assert len(at.steps) == end.at - before and at.steps[-1].hand_finished
        assert at.summary == table.hand_summary(end.hand_number, end.deal_number)
        # The page's read of the same record says the same; past it, the next one or none.
        read = page_table(setup, table.actions, start=before)
        assert (read.pause, read.steps) == (end, at.steps)
        later = pause_at(table, seen=end.at)
        assert later is None or later.at > end.at
        seen_pauses.append(end.hand_number)
    assert seen_pauses and set(seen_pauses) <= {2, 4, 6, 8}
    end = pause_at(table)  # over: never on the last hand, which the result shows
    assert end is None or end.at < len(table.actions)
    assert paused(table).pause is None  # looked at again later: the result


def test_a_step_address_fits_a_learners_action_the_start_or_a_hands_end():
    setup = PlaySetup(seed=7)
    table, _ = PlayTable.start(setup)
    rng = random.Random(0)
    for _ in range(6):
        table.act(rng.choice(table.legal()))
    actions = table.actions
    ends = {e.at for e in hand_ends(table)}
    learners = {
        n for n, s in enumerate(page_table(setup, actions, start=0).steps) if s.seat is Seat.S
    }
    for n in range(len(actions)):
        fits = n == 0 or n in learners or n in ends
        assert bool(page_table(setup, actions, start=n, pausing=False).steps) == fits, n
