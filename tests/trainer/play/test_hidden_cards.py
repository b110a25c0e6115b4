"""The non-negotiable: no card South cannot see, and not the seed, in any response before the
end. Whole deals are played through the views (plain posts and htmx, the coach's advice and
quiz, the JSON view), and every response is checked against the cards hidden at that moment."""

from __future__ import annotations

import random
import re

import pytest

from engine.cards import DECK
from engine.play import PlaySetup, PlayTable, coach_lead, coach_read, parse_actions
from tests.trainer.play.conftest import hidden_cards, leaks, shows_seed, start, table_of
from trainer.play.models import Game

HX = {"HTTP_HX_REQUEST": "true"}


def _text(body: str) -> str:
    """The page as read: tags dropped (a suit symbol is wrapped in a span for its colour)."""
    return re.sub(r"<[^>]+>", "", body)


def _hidden_at(game: Game, at: int) -> set:
    """The cards South could not see once the record held its first ``at`` actions (where the
    table paused, at the end of a hand). When that hand ended a deal of a game, the next deal
    is dealt: the hand's cards, played in the open, are the ended deal's, not hidden ones."""
    game.refresh_from_db()
    table = PlayTable.replay(PlaySetup.from_json(game.setup), parse_actions(game.actions)[:at])
    view = table.view()
    seen = set(view.hand)
    seen |= {c for h in view.completed for _, c in h.cards}
    seen |= {c for _, c in view.current_cards}
    if table.deal_number > 1 and not view.completed and not view.current:
        seen |= set(table.deals[-2].played_hands[-1].card_list)
    return set(DECK) - seen


def _check(response, game: Game, hidden: set, what: str, public: frozenset = frozenset()) -> None:
    """``public``: cards of a deal that ended in the steps shown (played in the open)."""
    body = response.content.decode()
    paused = re.search(r'data-paused="(\d+)"', body)
    if paused:
        # The table paused at the end of a hand shows the table as it stood then: checked
        # against the cards hidden then (within a deal, more than are hidden now).
        hidden = _hidden_at(game, int(paused.group(1)))
    hidden = hidden - public
    found = leaks(body, hidden) + leaks(_text(body), hidden)
    assert not found, f"{what} names hidden cards {found}"
    assert not shows_seed(body, game.setup["seed"]), f"{what} shows the seed"


def _play_out(client, game: Game, rng: random.Random, *, htmx: bool, json: bool = True) -> int:
    """Play the deal (or game) to its end with random legal actions; check every response.
    Returns the number of responses checked. ``json``: also check the table's JSON (a game's
    JSON lists earlier deals' hands, which are public: they are other deals' cards)."""
    checked = 0
    url = f"/play/{game.pk}/"
    for _ in range(900):
        game.refresh_from_db()
        if game.is_finished:
            return checked
        hidden = hidden_cards(game)
        assert hidden, "before the end some card is always hidden"
        pages = [(client.get(url), "table page"), (client.get(url, **HX), "table partial")]
        if json:
            pages.append((client.get(url + "table.json"), "table JSON"))
        for response, what in pages:
            assert response.status_code == 200, what
            _check(response, game, hidden, what)
            checked += 1
        assert client.get(url + "record.json").status_code == 404
        if not game.is_game:
            assert client.get(url + "review/").status_code == 404
        table = table_of(game)
        extra = HX if htmx else {}
        if coach_lead(table) is not None and rng.random() < 0.5:
            response = client.post(url + "advice/", {"version": game.version}, **extra)
            assert response.status_code == 200
            _check(response, game, hidden, "coach advice")
            checked += 1
        quiz = coach_read(table)
        if quiz is not None:
            option = rng.choice(quiz.option_keys)
            response = client.post(
                url + "quiz/", {"version": game.version, "option": option}, **extra
            )
            assert response.status_code == 200
            _check(response, game, hidden, "coach quiz answer")
            checked += 1
        action = rng.choice(table.legal())
        # The steps this action sets off may finish a deal: the cards they show from it are
        # that deal's, played in the open, not the next deal's hidden ones.
        deal_before = table.deal_number
        shown_before = {
            s.action.card
            for s in table_of(game).act(action)
            if s.deal_number == deal_before and s.action.card is not None
        }
        response = client.post(url + "act/", {"version": game.version, "action": action}, **extra)
        if htmx:
            assert response.status_code == 200
            game.refresh_from_db()
            public = frozenset()
            if table_of(game).deal_number != deal_before:
                public = frozenset(shown_before)
            _check(response, game, hidden_cards(game), "action (htmx)", public)
        else:
            assert response.status_code == 302
            followed = client.get(response["Location"])
            game.refresh_from_db()
            _check(followed, game, hidden_cards(game), "table after a plain post")
        checked += 1
    raise AssertionError("the deal did not end")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("seed", "htmx", "fields"),
    [
        (1, False, {}),
        (2, True, {"opponents": "signal"}),
        (3, True, {"rule": "contribution", "coach": "request"}),
        (4, False, {"convention": "teach-yourself-1994", "opponents": "signal"}),
        (5, True, {"partner": "strong", "opponents": "signal"}),
        (6, False, {"partner": "strong", "rule": "contribution"}),
    ],
)
def test_whole_deals_never_show_a_hidden_card_or_the_seed(south, seed, htmx, fields):
    game = start(south, **fields)
    checked = _play_out(south, game, random.Random(seed), htmx=htmx)
    assert checked > 20
    game.refresh_from_db()
    assert game.is_finished
    # Once over, the record and the review open, and the record carries the seed.
    record = south.get(f"/play/{game.pk}/record.json")
    assert record.status_code == 200
    assert record.json()["setup"]["seed"] == game.setup["seed"]
    assert south.get(f"/play/{game.pk}/review/").status_code == 200


def test_the_leak_check_finds_a_hidden_card():
    """The checker itself: a card named any of the three ways is found."""
    from engine.cards import Card

    hidden = {Card.parse("7H"), Card.parse("TS")}
    assert leaks('<button data-action="7H">', hidden) == ["7H"]
    assert leaks("the 10 of spades", hidden) == ["10 of spades"]
    assert leaks("North plays 7♥", hidden) == ["7♥"]
    assert leaks("North plays 17 of hearts? no: 8♥", hidden) == []
    with pytest.raises(AssertionError):  # (names of cards would find nothing)
        leaks('<button data-action="7H">', {"7H"})


@pytest.mark.django_db
def test_a_whole_game_never_shows_a_hidden_card_or_the_seed(south):
    """Four deals (or first to 100): each deal's hidden cards stay hidden in the pages, the
    review of the deals already over opens between deals, the record only at the end."""
    game = start(south, length="game", opponents="signal")
    checked = _play_out(south, game, random.Random(9), htmx=True, json=False)
    assert checked > 40
    game.refresh_from_db()
    table = table_of(game)
    assert table.finished_deals() >= 2
    assert south.get(f"/play/{game.pk}/record.json").status_code == 200
