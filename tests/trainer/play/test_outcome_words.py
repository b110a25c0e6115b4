"""The result in words names the winning side with its own score first, on the review and at
the table, whoever won."""

from __future__ import annotations

import random
import re

import pytest

from tests.trainer import factories
from tests.trainer.play.conftest import start, table_of
from trainer.play.models import Game

pytestmark = pytest.mark.django_db


def _finish(client, game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return game
        action = rng.choice(table_of(game).legal())
        response = client.post(f"/play/{game.pk}/act/", {"action": action, "version": game.version})
        assert response.status_code == 302


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("seed", range(6))
def test_the_winner_is_named_with_the_higher_score_first(client, seed):
    client.force_login(factories.user(f"out{seed}"))
    game = _finish(client, start(client, seed=str(seed)), seed)
    outcome = table_of(game).outcome()
    ns, ew = outcome.final["NS"], outcome.final["EW"]

    review = _text(client.get(f"/play/{game.pk}/review/").content.decode())
    html = client.get(f"/play/{game.pk}/").content.decode()
    if "data-pause" in html:  # the last hand's pause comes first: go on to the result
        client.post(f"/play/{game.pk}/continue/", {"version": game.version})
        html = client.get(f"/play/{game.pk}/").content.decode()
    score = re.search(r"data-result-score>(.*?)</h2>", html, re.S)
    assert score, "no result at the table"
    table = _text(score.group(1))

    high, low = max(ns, ew), min(ns, ew)
    if ns == ew:
        assert f"A draw: {ns} to {ew}" in review
        return
    winner = "North–South" if ns > ew else "East–West"
    assert f"{winner} won : {high} to {low}." in review
    assert re.search(rf"win: {high} to {low}", table), table[:2000]
