"""The play pages: starting, each action, each illegal action, the coach, the review, the
record, and who may see a deal."""

from __future__ import annotations

import random
import re

import pytest

from engine.cards import DECK
from engine.game import FORCE, PASS, Action
from engine.play import (
    PlaySetup,
    actions_json,
    coach_lead,
    coach_read,
    parse_actions,
    record_json,
    replay_record,
)
from engine.scoring import CONTRIBUTION
from engine.seats import Seat
from tests.trainer import factories
from tests.trainer.play.conftest import START, start, table_of
from trainer.core import preferences
from trainer.play.models import Game
from trainer.progress.models import SOURCE_PLAY, Attempt, SkillState

HX = {"HTTP_HX_REQUEST": "true"}

pytestmark = pytest.mark.django_db


def _act(client, game: Game, action: str, version: int | None = None, **extra):
    game.refresh_from_db()
    return client.post(
        f"/play/{game.pk}/act/",
        {"action": action, "version": game.version if version is None else version},
        **extra,
    )


def _finish(client, game: Game, seed: int = 0) -> Game:
    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return game
        assert _act(client, game, rng.choice(table_of(game).legal())).status_code == 302


def _until(client, game: Game, predicate, seed: int = 0) -> bool:
    """Play random legal actions until ``predicate(table)`` holds; False if the deal ends."""
    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return False
        table = table_of(game)
        if predicate(table):
            return True
        assert _act(client, game, rng.choice(table.legal())).status_code == 302


# -- the start page -----------------------------------------------------------------------------


def test_the_play_page_needs_an_account(client):
    response = client.get("/play/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_start_form_carries_its_hook_and_the_visitors_defaults(south):
    session = south.session
    session[preferences.SESSION_KEY] = {"convention": "teach-yourself-1994", "rule": "contribution"}
    session.save()
    body = south.get("/play/").content.decode()
    assert "data-start" in body
    assert '<option value="teach-yourself-1994" selected>' in body
    assert '<option value="contribution" selected>' in body


def test_starting_a_deal_stores_seed_settings_and_actions_only(south, player):
    game = start(south, opponents="signal", rule="contribution")
    assert game.owner == player
    setup = PlaySetup.from_json(game.setup)
    assert (setup.opponents, setup.rule, setup.game) == ("signal", CONTRIBUTION, False)
    assert game.version == 0
    assert game.status == Game.Status.PLAYING
    assert game.share_token is None
    # The bots played up to South's first turn; the row holds action strings, no card lists.
    table = table_of(game)
    assert table.learner_to_move()
    assert game.actions == actions_json(table.actions)
    assert set(game.setup) == {
        "seed",
        "rule",
        "convention",
        "opponents",
        "opponents_convention",
        "game",
    }


def test_the_start_redirect_shows_the_bots_first_moves_as_steps(south):
    game = start(south)
    body = south.get(f"/play/{game.pk}/?step=0").content.decode()
    assert body.count('data-step="') == len(game.actions)
    assert 'class="play-step d1"' in body


def test_a_bad_start_form_is_refused_and_starts_nothing(south):
    response = south.post("/play/", {"convention": "nope", "rule": "classic", "opponents": "x"})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_the_partner_is_the_strength_chosen(south):
    """North plays at the chosen strength: the setup says so (the standard partner, the
    default, is not written), the table seats that bot, and an unknown strength is refused
    with nothing started."""
    standard = start(south)
    assert "partner" not in standard.setup
    assert table_of(standard).bot_for(Seat.N).strength == "standard"
    beginner = start(south, partner="beginner")
    assert beginner.setup["partner"] == "beginner"
    assert PlaySetup.from_json(beginner.setup).partner == "beginner"
    assert table_of(beginner).bot_for(Seat.N).strength == "beginner"
    strong = start(south, partner="strong")
    assert strong.setup["partner"] == "strong"
    north = table_of(strong).bot_for(Seat.N)
    # Its partner is the learner: it reads South's leads as the card teaches them.
    assert (north.strength, north.partner_leads) == ("strong", "card")
    before = Game.objects.count()
    response = south.post("/play/", {**START, "partner": "expert"})
    assert response.status_code == 400 and Game.objects.count() == before
    assert "partner" in response.content.decode().lower()


def test_a_game_of_four_deals_can_be_started(south):
    game = start(south, length="game")
    assert game.is_game
    assert "Game · deal 1" in south.get(f"/play/{game.pk}/").content.decode()


def test_my_games_lists_the_learners_deals_to_resume(south, client_for):
    mine = start(south)
    other = start(client_for(factories.user()))
    body = south.get("/play/").content.decode()
    assert f'href="/play/{mine.pk}/"' in body
    assert f'href="/play/{other.pk}/"' not in body
    assert "Resume" in body


# -- the table ----------------------------------------------------------------------------------


def test_the_table_offers_exactly_the_legal_actions_as_buttons(south):
    game = start(south)
    body = south.get(f"/play/{game.pk}/").content.decode()
    legal = table_of(game).legal()
    for card in DECK:
        assert (f'data-action="{card}"' in body) == (Action.play(card) in legal)
    assert ('data-action="pass"' in body) == (PASS in legal)
    assert ('data-action="force"' in body) == (FORCE in legal)


def test_pass_and_force_buttons_appear_when_the_engine_allows_them(south):
    game = start(south)
    assert _until(south, game, lambda t: PASS in t.legal())
    body = south.get(f"/play/{game.pk}/").content.decode()
    assert 'data-action="pass"' in body
    assert 'data-action="force"' in body


def test_playing_a_card_records_it_and_the_bots_reply(south):
    game = start(south)
    before = list(game.actions)
    card = table_of(game).legal()[0]
    response = _act(south, game, card)
    assert response.status_code == 302
    assert response["Location"] == f"/play/{game.pk}/?step={len(before)}"
    game.refresh_from_db()
    assert game.version == 1
    assert game.actions[: len(before) + 1] == [*before, str(card)]
    assert table_of(game).learner_to_move() or game.is_finished
    # The redirect shows South's card and the bots' replies as steps.
    body = south.get(response["Location"]).content.decode()
    assert body.count('data-step="') == len(game.actions) - len(before)


def test_an_htmx_action_answers_with_the_table_area_and_its_steps(south):
    game = start(south)
    response = _act(south, game, table_of(game).legal()[0], **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="table-area"')
    assert "<html" not in body
    assert response["HX-Push-Url"] == f"/play/{game.pk}/"
    assert 'data-step="1"' in body


@pytest.mark.parametrize("kind", ["pass", "force"])
def test_pass_and_force_are_played_when_legal(south, kind):
    game = start(south)
    assert _until(south, game, lambda t: Action.parse(kind) in t.legal())
    version = game.version
    assert _act(south, game, kind).status_code == 302
    game.refresh_from_db()
    assert game.version == version + 1
    assert kind in game.actions


def _unchanged(game: Game, actions: list[str], version: int) -> None:
    game.refresh_from_db()
    assert (game.actions, game.version) == (actions, version)


def test_a_card_south_does_not_hold_is_refused_and_changes_nothing(south):
    game = start(south)
    view = table_of(game).view()
    other = next(c for c in DECK if c not in view.hand)
    actions, version = list(game.actions), game.version
    response = _act(south, game, str(other))
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    _unchanged(game, actions, version)


def test_pass_on_the_leaders_first_turn_is_refused(south):
    game = start(south)
    assert _until(south, game, lambda t: t.view().leader is Seat.S and not t.view().current)
    actions, version = list(game.actions), game.version
    for illegal in ("pass", "force"):
        assert _act(south, game, illegal).status_code == 400
    _unchanged(game, actions, version)


@pytest.mark.parametrize("action", ["", "ZZ", "7X", "11H", "play", "x" * 9])
def test_malformed_actions_are_refused(south, action):
    game = start(south)
    actions, version = list(game.actions), game.version
    assert _act(south, game, action).status_code == 400
    _unchanged(game, actions, version)


@pytest.mark.parametrize("version", ["", "-1", "abc", "99", "9" * 30])
def test_a_missing_or_wrong_version_is_refused(south, version):
    game = start(south)
    actions, v = list(game.actions), game.version
    response = south.post(
        f"/play/{game.pk}/act/", {"action": table_of(game).legal()[0], "version": version}
    )
    assert response.status_code == 400
    _unchanged(game, actions, v)


def test_a_replayed_post_is_refused_and_changes_nothing(south):
    game = start(south)
    card = table_of(game).legal()[0]
    assert _act(south, game, card, version=0).status_code == 302
    game.refresh_from_db()
    actions, version = list(game.actions), game.version
    response = _act(south, game, card, version=0)
    assert response.status_code == 400
    assert "out of date" in response.content.decode()
    _unchanged(game, actions, version)


def test_two_tabs_posting_at_once_record_one_action(south):
    """Both tabs show version 0; the second post, whatever card it names, is refused."""
    game = start(south)
    first, second = table_of(game).legal()[:2]
    assert _act(south, game, first, version=0).status_code == 302
    game.refresh_from_db()
    after_first = list(game.actions)
    assert _act(south, game, second, version=0).status_code == 400
    _unchanged(game, after_first, 1)


def test_a_stale_version_check_at_write_time_refuses_a_racing_write(south, player):
    """The conditional UPDATE itself: a row moved on after it was read refuses the write."""
    from trainer.play import services

    game = start(south)
    card = table_of(game).legal()[0]
    real = Game.objects.filter

    def racing_filter(*args, **kwargs):
        if "version" in kwargs:  # another request has written in between
            Game.objects.filter(pk=game.pk).update(version=5)
        return real(*args, **kwargs)

    import unittest.mock

    with (
        unittest.mock.patch.object(Game.objects, "filter", side_effect=racing_filter),
        pytest.raises(services.PlayRefused),
    ):
        services.game_act(game_id=game.pk, user=player, action=card, version=0)
    game.refresh_from_db()
    assert game.actions == actions_json(table_of(game).actions)


def test_a_finished_deal_refuses_more_actions(south):
    game = _finish(south, start(south))
    actions, version = list(game.actions), game.version
    assert _act(south, game, "pass").status_code == 400
    _unchanged(game, actions, version)


def test_get_is_not_an_action(south):
    game = start(south)
    assert south.get(f"/play/{game.pk}/act/").status_code == 405


def test_a_step_address_that_fits_no_learner_action_shows_the_plain_table(south):
    game = start(south)
    for step in ("1", "999", "x", "-3"):
        response = south.get(f"/play/{game.pk}/?step={step}")
        assert response.status_code == 200
        assert 'data-step="' not in response.content.decode()


# -- the end ------------------------------------------------------------------------------------


def test_a_finished_deal_links_its_record_review_and_share(south):
    game = _finish(south, start(south))
    assert game.status == Game.Status.FINISHED
    assert game.share_token is not None
    assert game.finished_at is not None
    body = south.get(f"/play/{game.pk}/").content.decode()
    assert f'data-record-url="/play/{game.pk}/record.json"' in body
    assert "data-review-link" in body


def test_the_record_replays_to_the_same_scores(south):
    game = _finish(south, start(south))
    data = south.get(f"/play/{game.pk}/record.json").json()
    assert data == record_json(PlaySetup.from_json(game.setup), parse_actions(game.actions))
    assert data["actions"] == game.actions
    assert replay_record(data) == data


def test_the_record_and_review_do_not_exist_before_the_end(south):
    game = start(south)
    assert south.get(f"/play/{game.pk}/record.json").status_code == 404
    assert south.get(f"/play/{game.pk}/review/").status_code == 404


def test_the_review_shows_par_hands_differences_and_steps_card_by_card(south):
    game = _finish(south, start(south))
    body = south.get(f"/play/{game.pk}/review/").content.decode()
    assert body.count("data-review-hand=") == 8
    assert 'data-par="NS"' in body and 'data-par="EW"' in body
    assert 'data-frame="0"' in body
    assert "data-decision" in body or "Every choice of yours" in body
    step = south.get(
        f"/play/{game.pk}/review/?frame=5", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="review-frame"
    )
    text = step.content.decode()
    assert text.lstrip().startswith('<section id="review-frame"')
    assert 'data-frame="5"' in text
    # Out-of-range and malformed frames fall back to the nearest frame / the first.
    assert 'data-frame="0"' in south.get(f"/play/{game.pk}/review/?frame=x").content.decode()


def test_the_share_link_shows_the_review_read_only_to_anyone(south, client):
    game = _finish(south, start(south))
    response = client.get(f"/play/shared/{game.share_token}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "read only" in body
    assert "data-record-url" not in body
    assert 'action="/play/' not in body
    # The share link opens nothing else.
    assert client.get(f"/play/{game.pk}/").status_code == 302  # to the login page
    assert client.get("/play/shared/00000000-0000-0000-0000-000000000000/").status_code == 404


# -- who may see a deal ------------------------------------------------------------------------


def test_another_user_gets_404_everywhere(south, client_for):
    game = start(south)
    stranger = client_for(factories.user())
    url = f"/play/{game.pk}/"
    for path in ("", "table.json", "review/", "record.json"):
        assert stranger.get(url + path).status_code == 404
    for path in ("act/", "advice/", "quiz/"):
        assert (
            stranger.post(url + path, {"action": "pass", "version": 0, "option": "x"}).status_code
            == 404
        )
    game.refresh_from_db()
    assert game.version == 0


def test_an_unknown_game_is_404(south):
    assert south.get("/play/999999/").status_code == 404
    assert south.get(f"/play/{2**63}/").status_code == 404


# -- the coach ------------------------------------------------------------------------------------


def _south_to_lead(table) -> bool:
    return coach_lead(table) is not None and not table.view().current


def test_the_coach_advice_is_the_encoders_lead_and_that_lead_does_not_count(south, player):
    game = start(south)
    assert _until(south, game, _south_to_lead)
    body = south.get(f"/play/{game.pk}/").content.decode()
    assert "data-coach-advice" in body
    advice = coach_lead(table_of(game))
    response = south.post(f"/play/{game.pk}/advice/", {"version": game.version})
    assert response.status_code == 200
    text = response.content.decode()
    assert "data-advice" in text
    assert advice.title.lower() in text
    game.refresh_from_db()
    assert f"1:{table_of(game).view().hand_number}" in game.helped
    # Lead exactly as advised: no lead attempt is recorded for this hand.
    c1, c2 = advice.preferred
    _act(south, game, str(c1))
    game.refresh_from_db()
    table = table_of(game)
    if (
        table.learner_to_move()
        and table.view().current
        and table.view().current[-1] == ("N", "pass")
    ):
        _act(south, game, "pass" if c2 is None else str(c2))
    assert not Attempt.objects.filter(user=player, kind="lead").exists()


def test_advice_is_refused_when_south_is_not_leading(south):
    game = start(south)
    assert _until(south, game, lambda t: coach_lead(t) is None and t.learner_to_move())
    response = south.post(f"/play/{game.pk}/advice/", {"version": game.version})
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.helped == []


def test_the_coach_off_shows_no_coach_and_refuses_its_requests(south):
    game = start(south, coach="off")
    assert _until(south, game, _south_to_lead)
    assert "data-coach" not in south.get(f"/play/{game.pk}/").content.decode()
    assert south.post(f"/play/{game.pk}/advice/", {"version": game.version}).status_code == 400


def test_every_lead_south_makes_counts_as_an_attempt_in_play(south, player):
    game = start(south)
    _finish(south, game, seed=3)
    table = table_of(game)
    graded = [a for a in table.attempts() if a.kind == "lead"]
    stored = Attempt.objects.filter(user=player, kind="lead")
    assert graded, "the deal gives South no graded lead: choose another seed"
    assert stored.count() == len(graded)
    assert all(a.source == SOURCE_PLAY for a in stored)
    assert {(a.skill, a.correct, a.answer) for a in stored} == {
        (g.skill, g.correct, g.answer) for g in graded
    }
    # The seed stays out of the attempts (the progress pages show them).
    assert not stored.filter(seed=game.setup["seed"]).exists()
    state = SkillState.objects.get(user=player, kind="lead", skill=graded[0].skill)
    assert state.attempts >= 1


def _quiz_ready(table) -> bool:
    return coach_read(table) is not None


def _start_with_quiz(south):
    for seed in range(8):
        game = start(south)
        if _until(south, game, _quiz_ready, seed=seed):
            return game
    raise AssertionError("no quiz came up in eight deals")


def test_the_quiz_appears_after_partners_signal_and_records_one_read(south, player):
    game = _start_with_quiz(south)
    body = south.get(f"/play/{game.pk}/").content.decode()
    assert "data-quiz" in body and "What does partner hold?" in body
    quiz = coach_read(table_of(game))
    assert "odds-chart" not in body  # the odds come with the answer, not before
    response = south.post(
        f"/play/{game.pk}/quiz/", {"version": game.version, "option": quiz.answer}
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "data-quiz-result" in text and "odds-chart" in text
    read = Attempt.objects.get(user=player, kind="read")
    assert (read.correct, read.skill, read.source) == (True, quiz.answer, SOURCE_PLAY)
    # A second answer to the same quiz keeps the first.
    wrong = next(k for k in quiz.option_keys if k != quiz.answer)
    again = south.post(f"/play/{game.pk}/quiz/", {"version": game.version, "option": wrong})
    assert again.status_code == 200
    assert Attempt.objects.filter(user=player, kind="read").count() == 1
    assert Attempt.objects.get(user=player, kind="read").correct is True


def test_a_quiz_answer_that_is_no_option_is_refused(south, player):
    game = _start_with_quiz(south)
    response = south.post(f"/play/{game.pk}/quiz/", {"version": game.version, "option": "nonsense"})
    assert response.status_code == 400
    assert not Attempt.objects.filter(user=player).exclude(kind="lead").exists()


def test_a_quiz_answer_when_there_is_no_quiz_is_refused(south, player):
    game = start(south)
    assert coach_read(table_of(game)) is None
    response = south.post(f"/play/{game.pk}/quiz/", {"version": game.version, "option": "pair"})
    assert response.status_code == 400
    assert not Attempt.objects.filter(user=player).exists()


def test_after_each_hand_the_coach_says_what_was_signalled_read_and_made(south):
    game = start(south)
    body = south.get(f"/play/{game.pk}/").content.decode()
    assert "data-coach-line" in body
    assert "made" in body


def test_a_game_in_play_reviews_the_deals_already_over(south):
    game = start(south, length="game")
    assert south.get(f"/play/{game.pk}/review/").status_code == 404
    assert _until(south, game, lambda t: t.finished_deals() >= 1)
    game.refresh_from_db()
    assert not game.is_finished
    response = south.get(f"/play/{game.pk}/review/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Deal 1" in body and "Deal 2" not in body
    assert "data-record-url" not in body  # the record, with the seed, waits for the end
    assert south.get(f"/play/{game.pk}/record.json").status_code == 404
    # The table may pause on a hand of the deal just over: go on until it shows the next deal.
    body = south.get(f"/play/{game.pk}/").content.decode()
    while "data-continue" in body:
        at = re.search(r'data-pause="(\d+)"', body).group(1)
        assert south.post(f"/play/{game.pk}/act/", {"seen": at}).status_code == 302
        body = south.get(f"/play/{game.pk}/").content.decode()
    assert "data-review-link" in body


@pytest.mark.parametrize("raw", ["x", "-1", "0", str(2**64), "9" * 24])
def test_a_malformed_assignment_number_starts_a_plain_deal(south, raw):
    assert south.get(f"/play/?assignment={raw}").status_code == 200
    game = start(south, assignment=raw)
    assert game.assignment is None


def test_an_overlong_assignment_field_is_refused(south):
    response = south.post("/play/", {**START, "assignment": "9" * 40})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_the_start_form_offers_the_strong_partner_first_and_chosen(south):
    body = south.get("/play/").content.decode()
    strong = body.index('value="strong"')
    assert strong < body.index('value="standard"') < body.index('value="beginner"')
    assert "checked" in body[strong : body.index(">", strong)]
