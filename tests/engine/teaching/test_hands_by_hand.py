"""A board entered by hand: a setup's ``hands`` deal the first deal exactly, are checked (13
different cards a seat, 52 in all), travel in the record and replay with ``engine replay``."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine.cli import main
from engine.game import DealState
from engine.play import PlaySetup, PlayTable, record_json
from engine.play.setup import InvalidSetupError
from engine.play.table import signal_bot
from engine.seats import SEATS, Seat


def _hands(seed: int = 4):
    dealt = DealState.deal(Seat.E, random.Random(seed)).hands_dealt
    return tuple(dealt[s] for s in SEATS)


def test_the_hands_given_are_the_first_deal_and_the_seed_deals_the_rest_of_a_game():
    hands = _hands()
    setup = PlaySetup(seed=1, hands=hands, dealer=Seat.E, game=True)
    table, _ = PlayTable.start(setup)
    assert tuple(table.deals[0].hands_dealt[s] for s in SEATS) == hands
    plain, _ = PlayTable.start(PlaySetup(seed=1, dealer=Seat.E, game=True))
    assert plain.deals[0].hands_dealt != table.deals[0].hands_dealt


@pytest.mark.parametrize(
    "hands",
    [
        lambda h: h[:3],
        lambda h: (h[0][:12], *h[1:]),
        lambda h: (h[1], *h[1:]),
    ],
)
def test_hands_that_are_not_a_deal_are_refused(hands):
    with pytest.raises(InvalidSetupError, match="13 different cards each"):
        PlaySetup(seed=1, hands=hands(_hands()))


def test_a_record_with_hands_replays_on_the_command_line(tmp_path):
    setup = PlaySetup(seed=7, hands=_hands(9), dealer=Seat.E)
    assert PlaySetup.from_json(setup.to_json()) == setup
    table, _ = PlayTable.start(setup)
    bot = signal_bot(setup.convention)
    while not table.is_over():
        obs = table.deal.observation(table.deal.current_player())
        table.act(bot.choose(obs, obs.legal_actions))
    record = record_json(setup, table.actions)
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status = main(["replay", str(path)], stdin=io.StringIO(""), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    replayed = json.loads(out.getvalue())
    assert replayed["deals"][0]["hands"]["S"] == [str(c) for c in setup.hands[2]]
    with pytest.raises(InvalidSetupError, match="one list for each seat"):
        PlaySetup.from_json({**setup.to_json(), "hands": {"N": []}})
