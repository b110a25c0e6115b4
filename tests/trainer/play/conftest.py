"""Helpers for the play app's tests: start deals through the views and play them out."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest
from django.test import Client

from engine.cards import DECK, Card
from engine.play import PlaySetup, PlayTable, parse_actions
from tests.trainer import factories
from trainer.play.models import Game

START = {
    "convention": "parlett-2008",
    "rule": "classic",
    "opponents": "greedy",
    "length": "deal",
    "coach": "on",
}


@pytest.fixture(autouse=True)
def _nothing_kept_for_reading():
    """Each test starts with the live tables' read caches empty: a test database hands out
    table and game ids again, and a test must not lean on another's tables."""
    from trainer.play import live_selectors, tables

    live_selectors._READ_ROWS.clear()
    tables.clear()


@pytest.fixture(autouse=True)
def _seeds(monkeypatch):
    """Deals dealt in a known order, so every test meets the same deals each run."""
    from trainer.play import views

    seeds = itertools.count(1000)
    monkeypatch.setattr(views, "new_seed", lambda: next(seeds))


@pytest.fixture
def player(db):
    return factories.user("south")


@pytest.fixture
def client_for():
    def make(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def south(player, client_for) -> Client:
    return client_for(player)


def start(client: Client, **fields: str) -> Game:
    """Start a deal through the start form; returns its row."""
    before = set(Game.objects.values_list("pk", flat=True))
    response = client.post("/play/", {**START, **fields})
    assert response.status_code == 302, response.content[:500]
    (pk,) = set(Game.objects.values_list("pk", flat=True)) - before
    return Game.objects.get(pk=pk)


#: The last table each game's record was replayed to (``table_of`` is called after every move
#: of a whole deal): a longer record of the same setup only applies its new actions. The engine
#: is deterministic, so this is the table a full replay gives.
_REPLAYED: dict[int, PlayTable] = {}


def table_of(game: Game) -> PlayTable:
    """The table of ``game``'s record as stored now (a table of its own, to act on freely)."""
    game.refresh_from_db()
    setup, actions = PlaySetup.from_json(game.setup), parse_actions(game.actions)
    last = _REPLAYED.get(game.pk)
    if last is not None and last.setup == setup and actions[: len(last.actions)] == last.actions:
        table = last.copy()
        for action in actions[len(last.actions) :]:
            table.apply(action)
    else:
        table = PlayTable.replay(setup, actions)
    _REPLAYED[game.pk] = table.copy()
    return table


def hidden_cards(game: Game) -> set:
    """The cards South cannot see now: not in South's hand, not played (shown face up)."""
    view = table_of(game).view()
    if view.is_over:
        return set()
    seen = set(view.hand)
    seen |= {c for h in view.completed for _, c in h.cards}
    seen |= {c for _, c in view.current_cards}
    return set(DECK) - seen


def shows_seed(body: str, seed: int) -> bool:
    """Whether the text shows ``seed`` as a number of its own (not inside a token or another
    number: a CSRF token may hold any run of digits)."""
    return re.search(rf"(?<![0-9A-Za-z]){seed}(?![0-9A-Za-z])", body) is not None


def _forms(text: Callable[[Card], str]) -> dict[str, Card]:
    return {text(c).lower(): c for c in DECK}


def _either(forms: dict[str, Card]) -> str:
    return "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))


_CODES, _LABELS, _SYMBOLS = _forms(str), _forms(lambda c: c.label), _forms(lambda c: c.symbol)
_NAMED = (
    (re.compile(rf"(?<=[\"'>])(?:{_either(_CODES)})(?=[\"'<])", re.IGNORECASE), _CODES),
    (re.compile(rf"\b(?:{_either(_LABELS)})\b", re.IGNORECASE), _LABELS),
    (re.compile(rf"(?<![0-9A-Za-z])(?:{_either(_SYMBOLS)})"), _SYMBOLS),
)


def named(text: str) -> set[Card]:
    """Every card ``text`` might name, in any of the forms ``leaks`` looks for (a superset of
    what it finds: any case, any delimiter), in three passes over the text."""
    return {forms[m[0].lower()] for pattern, forms in _NAMED for m in pattern.finditer(text)}


def leaks(body: str, cards: set) -> list[str]:
    """Every hidden card the text names: as ``"7H"`` (an attribute, JSON), as its label
    (``7 of hearts``) or as its symbol in running text (``7♥``). Only the cards a first look
    (:func:`named`) finds are read for one by one."""
    assert all(isinstance(c, Card) for c in cards), "leaks reads for cards, not their names"
    found = []
    for c in named(body) & set(cards):
        if f'"{c}"' in body or f"'{c}'" in body or f">{c}<" in body:
            found.append(str(c))
        elif re.search(rf"\b{re.escape(c.label)}\b", body, flags=re.IGNORECASE):
            found.append(c.label)
        elif re.search(rf"(?<![0-9A-Za-z]){re.escape(c.symbol)}", body):
            found.append(c.symbol)
    return found
