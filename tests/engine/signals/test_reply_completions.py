"""The reply's "X of N holdings" sentences: the counts, recounted by brute force over the
holdings the signal allows, two-card completions included (♥7 completes one of two holdings,
♥J the other: partner holding both completes every one, and the sentence says so)."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.drills import DrillParams, answer_key, make_drill
from engine.messages import Msg
from engine.signals.decoder import decode, primary_reading
from engine.signals.reply import Holding, signal_holdings


def _fills(cards: tuple, way: tuple[int, ...]) -> bool:
    """Independent of the reply module: the cards fill the way's slots one to a slot."""
    if len(cards) != len(way):
        return False
    slots = list(way)

    def place(i: int, free: list[int]) -> bool:
        if i == len(cards):
            return True
        return any(
            cards[i].bit & free[j] and place(i + 1, free[:j] + free[j + 1 :])
            for j in range(len(free))
        )

    return place(0, slots)


def _completed_by(cards: tuple, holdings: list[Holding]) -> int:
    """How many holdings some of ``cards`` complete."""
    return sum(
        1
        for h in holdings
        if any(_fills(part, way) for way in h for part in combinations(cards, len(way)))
    )


def _holdings_of(drill) -> list[Holding]:
    c1, c2 = drill.signal
    seen = 0
    for c in drill.visible:  # (partner's own hand and the completed hands)
        seen |= c.bit
    reading = primary_reading(c1, c2, drill.side_hand, drill.convention, drill.visible)
    shapes = {
        r.shape
        for r in decode(c1, c2, drill.side_hand, drill.convention, drill.visible)
        if r.item == reading.item
    }
    return signal_holdings(reading.item, shapes, c1, c2, drill.convention, seen)


def _explanation(drill) -> Msg:
    found = answer_key(drill).explanation
    assert isinstance(found, Msg)
    return found


@pytest.mark.parametrize(
    ("seed", "side_hand", "convention", "rule", "cards"),
    [
        (5154064, 1, "teach-yourself-1994", "classic", ("7♥", "J♥")),
        (5143003, 2, "parlett-2008", "classic", ("3♥", "7♥")),
    ],
)
def test_two_cards_that_together_complete_every_holding_are_named(
    seed, side_hand, convention, rule, cards
):
    drill = make_drill(
        "reply", seed, DrillParams(convention=convention, rule=rule, side_hand=side_hand)
    )
    text = str(_explanation(drill))
    assert f"{cards[0]} completes it in 1 of the 2 holdings" in text
    assert f"and with {cards[1]} as well, in every one of them" in text


SOME = ("advice.complete.some", "advice.complete.some.with_every", "advice.complete.some.with_more")


@pytest.mark.parametrize("conv", ["parlett-2008", "teach-yourself-1994"])
@pytest.mark.parametrize("rule", ["classic", "contribution"])
@pytest.mark.parametrize(
    "seeds", [range(150), pytest.param(range(150, 1650), marks=pytest.mark.slow)]
)
def test_every_holdings_count_is_recounted_with_two_card_completions(conv, rule, seeds):
    """Each "X of N" the reply explanation says: N the holdings, X those the named cards
    complete, and "with … as well, in Y" the most that one more of partner's cards completes
    with them; a plain "X of N" only when no card added to them completes more."""
    claims = 0
    for seed in seeds:
        drill = make_drill("reply", seed, DrillParams(convention=conv, rule=rule))
        msg = _explanation(drill)
        if msg.id not in SOME:
            continue
        claims += 1
        holdings = _holdings_of(drill)
        n, top = int(msg.params["n"]), int(msg.params["top"])
        assert n == len(holdings), (seed, msg)
        shown = tuple(msg.params["cards"].cards)
        assert _completed_by(shown, holdings) == top, (seed, msg)
        extended = max(
            (_completed_by((*shown, c), holdings) for c in drill.hand if c not in shown),
            default=top,
        )
        if msg.id == "advice.complete.some":
            assert extended == top, (seed, msg, extended)
        else:
            together = (*shown, *msg.params["more"].cards)
            both = _completed_by(together, holdings)
            assert both == extended > top, (seed, msg, both, extended)
            if msg.id == "advice.complete.some.with_every":
                assert both == n, (seed, msg)
            else:
                assert both == int(msg.params["both"]) < n, (seed, msg)
    assert claims >= max(1, len(seeds) // 150), claims  # (the sentences are checked)
