"""The board search: every board holds what was asked, by a detect written here from the card's
definitions (SIGNALS.md), independent of the engine's finders; impossible and rare requests
say why; the CLI's boards deal the same cards through ``engine deal``."""

import io
import json
import random
from collections import Counter

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.cards import DECK
from engine.cli import main
from engine.game import DealState
from engine.par import solve_deal
from engine.seats import SEATS, Seat
from engine.signals import CONVENTIONS, encode, reply_advice
from engine.signals.conventions import get_convention
from engine.teaching.boards import (
    BoardQuery,
    BoardSearchError,
    board_dealer,
    find_boards,
    impossible_first,
)

CONVS = [get_convention(name) for name in CONVENTIONS]
#: The items a 13-card hand shows first often enough for a quick search.
COMMON = [
    "five_sf",
    "fours",
    "four_sf",
    "two_threes",
    "full_house",
    "three_sf",
    "five_straight",
    "five_flush",
    "two_pair",
]

WINDOWS = [set(range(lo, lo + 5)) for lo in range(1, 11)]  # ranks 1 (ace low) .. 14 (ace high)


def _values(rank) -> set[int]:
    """A rank (2..14) as window values: an ace is 1 and 14."""
    value = int(rank)
    return {1, 14} if value == 14 else {value}


def _in_window(values: list[set[int]], size: int) -> bool:
    """Whether ``size`` of the distinct ranks fit inside one window."""
    return any(sum(1 for v in values if v & w) >= size for w in WINDOWS)


def independent_first(hand, checklist) -> str:
    """The first checklist item of ``hand``, straight from the card's definitions."""
    ranks = Counter(c.rank for c in hand)
    suits: dict[int, list] = {}
    for c in hand:
        suits.setdefault(c.suit, []).append(c)
    counts = [*sorted(ranks.values(), reverse=True), 0, 0]

    def suited_window(size: int) -> bool:
        return any(_in_window([_values(c.rank) for c in cs], size) for cs in suits.values())

    distinct = [_values(r) for r in ranks]
    holds = {
        "five_sf": suited_window(5),
        "fours": counts[0] >= 4,
        "four_sf": suited_window(4),
        "two_threes": counts[1] >= 3,
        "full_house": counts[0] >= 3 and counts[1] >= 2,
        "three_sf": suited_window(3),
        "five_flush": max(len(cs) for cs in suits.values()) >= 5,
        "five_straight": _in_window(distinct, 5),
        "threes": counts[0] >= 3,
        "two_pair": counts[1] >= 2,
        "four_flush": max(len(cs) for cs in suits.values()) >= 4,
        "four_straight": _in_window(distinct, 4),
        "three_flush": max(len(cs) for cs in suits.values()) >= 3,
        "three_straight": _in_window(distinct, 3),
        "one_pair": counts[0] >= 2,
    }
    return next((str(i) for i in checklist if holds[str(i)]), "none")


def _dealt(board):
    return DealState.deal(board.dealer, random.Random(board.seed)).hands_dealt


@settings(max_examples=60, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(
    item=st.sampled_from(COMMON),
    conv=st.sampled_from(CONVS),
    seat=st.sampled_from(SEATS),
    seed=st.integers(0, 10**9),
)
def test_every_board_shows_the_item_asked_first(item, conv, seat, seed):
    search = find_boards(BoardQuery(seat=seat, first_item=item, convention=conv), 5, seed)
    assert len(search.boards) == 5
    for board in search.boards:
        hand = _dealt(board)[seat]
        assert board.dealer == board_dealer(seat) and board.dealer.after(1) == seat
        assert tuple(hand) == board.hand
        assert independent_first(hand, conv.checklist) == item
        assert board.lead in encode(hand, 1, conv).plays


def test_the_independent_detect_agrees_with_the_engine_on_random_hands():
    rng = random.Random(3)
    for size in (13, 9, 6, 4):
        for _ in range(1500):
            hand = rng.sample(DECK, size)
            for conv in CONVS:
                assert independent_first(hand, conv.checklist) == str(encode(hand, 3, conv).item)


@pytest.mark.parametrize("conv", CONVS, ids=lambda c: c.name)
def test_items_no_thirteen_cards_show_first_are_refused_and_never_seen(conv):
    impossible = {str(i) for i in conv.checklist if impossible_first(str(i), conv)}
    assert impossible == {
        "four_flush",
        "four_straight",
        "three_flush",
        "three_straight",
        "one_pair",
    }
    rng = random.Random(5)
    seen = {independent_first(rng.sample(DECK, 13), conv.checklist) for _ in range(20000)}
    assert not seen & impossible
    for item in impossible:
        with pytest.raises(BoardSearchError, match="no 13 cards show"):
            find_boards(BoardQuery(first_item=item, convention=conv), 1)


def test_twelve_different_ranks_always_hold_five_in_a_row():
    """The argument behind the impossible items: any 12 of the 13 ranks fill a window."""
    for missing in range(2, 15):
        assert _in_window([_values(r) for r in range(2, 15) if r != missing], 5)


def test_the_lead_row_asked_is_the_preferred_lead():
    conv = get_convention("parlett-2008")
    for row in ("three_sf:X.X.X", "four_sf:XX.XX", "two_threes", "five_flush"):
        for board in find_boards(BoardQuery(row=row, convention=conv), 4, 7).boards:
            enc = encode(_dealt(board)[Seat.N], 1, conv)
            assert enc.rows[0] == row and enc.preferred == board.lead


@pytest.mark.parametrize("conv", CONVS, ids=lambda c: c.name)
def test_partner_completes_the_signal(conv):
    for board in find_boards(BoardQuery(seat=Seat.E, completes=True, convention=conv), 8, 2).boards:
        hands = _dealt(board)
        partner = hands[Seat.W]
        assert board.reply and set(board.reply) <= set(partner)
        c1, c2 = board.lead
        advice = reply_advice(partner, c1, c2, 1, conv, leader_cards=11)
        assert advice.action == "play" and advice.reason.id.startswith("advice.complete")


def test_fours_to_play_out_only_where_the_card_has_no_fours_signal():
    plain = get_convention("teach-yourself-1994")
    assert "fours" in {str(i) for i in plain.unsignalled_items}
    for board in find_boards(BoardQuery(play_out=True, convention=plain), 5, 1).boards:
        hand = _dealt(board)[Seat.N]
        assert independent_first(hand, plain.checklist) == "fours"
        assert board.played_out and board.lead[0].rank == board.lead[1].rank
    with pytest.raises(BoardSearchError, match="signals every item"):
        find_boards(BoardQuery(play_out=True), 1)


def test_par_margin_is_the_seats_side_minus_the_other():
    for board in find_boards(BoardQuery(seat=Seat.W, par_margin=(8, 99)), 3, 4).boards:
        solved = solve_deal(DealState.deal(board.dealer, random.Random(board.seed)))
        side = Seat.W.side
        assert solved[side].hand_score - solved[side.other].hand_score >= 8
        assert board.par == (solved[side].hand_score, solved[side.other].hand_score)


def test_rare_requests_say_how_many_turned_up():
    with pytest.raises(BoardSearchError, match=r"only \d+ of 50 boards turned up in 300 deals"):
        find_boards(BoardQuery(first_item="five_sf"), 50, max_deals=300)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (BoardQuery(side_hand=3), "only a side's first hand"),
        (BoardQuery(first_item="flush"), "not a checklist item"),
        (BoardQuery(row="four_sf:X"), "has no row"),
        (BoardQuery(first_item="fours", row="two_pair"), "does not show"),
        (BoardQuery(par_margin=(5, 1)), "above its high end"),
    ],
)
def test_bad_requests_name_what_is_wrong(query, message):
    with pytest.raises(BoardSearchError, match=message):
        find_boards(query, 1)


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_boards_deal_the_same_cards_through_engine_deal():
    status, out, err = cli(
        "boards", "--seat", "S", "--first-item", "four_sf", "--count", "3", "--seed", "11", "--json"
    )
    assert (status, err) == (0, "")
    found = json.loads(out)
    assert found["query"]["first_item"] == "four_sf" and len(found["boards"]) == 3
    for board in found["boards"]:
        assert board["dealer"] == "E" and board["item"] == "four_sf"
        _, dealt, _ = cli("deal", "--seed", str(board["seed"]), "--dealer", board["dealer"])
        assert json.loads(dealt)["hands"]["S"] == board["hand"]
    assert (
        cli(
            "boards",
            "--seat",
            "S",
            "--first-item",
            "four_sf",
            "--count",
            "3",
            "--seed",
            "11",
            "--json",
        )[1]
        == out
    )
    assert (
        cli("boards", "--first-item", "four_sf", "--count", "3", "--seed", "12", "--json")[1] != out
    )


def test_cli_boards_refuse_with_exit_2_and_the_reason():
    status, out, err = cli("boards", "--first-item", "four_straight")
    assert status == 2 and out == "" and "no 13 cards show four to a straight first" in err
    status, _, err = cli("boards", "--par-margin", "x")
    assert status == 2 and "not a par margin" in err
    status, out, _ = cli("boards", "--first-item", "full_house", "--count", "2")
    assert status == 0 and out.count("holds full_house") == 2
