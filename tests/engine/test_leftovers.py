import pytest

from engine.cards import parse_cards
from engine.errors import InvalidCardsError
from engine.scoring import CONTRIBUTION, Combination, leftover_bonus, leftover_value
from engine.seats import Side

NS, EW = Side.NS, Side.EW


def bonus(ns_score, ew_score, ns_cards, ew_cards, rule="classic", by=None):
    return leftover_bonus(
        {NS: ns_score, EW: ew_score},
        {NS: parse_cards(ns_cards), EW: parse_cards(ew_cards)},
        rule,
        by,
    )


def test_worked_check_straight_among_left_overs():
    value = leftover_value(parse_cards("JS 6S 7H 5H 9C 8D"))
    assert (value.combination, value.value, value.bonus) == (Combination.STRAIGHT, 5, 50)


def test_worked_check_three_pairs():
    value = leftover_value(parse_cards("9S 9H 4C 4D KS KH"))
    assert (value.combination, value.value, value.bonus) == (Combination.THREE_PAIRS, 6, 60)


def test_three_pairs_needs_three_ranks_paired():
    value = leftover_value(parse_cards("9S 9H 4C 4D KS QH"))
    assert value.combination is Combination.TWO_PAIR and value.value == 2


def test_best_five_beats_three_pairs_when_higher():
    assert leftover_value(parse_cards("9S 9H 9C 4D 4S KH")).combination is Combination.FULL_HOUSE


def test_left_overs_need_six_cards():
    with pytest.raises(InvalidCardsError, match="expected 6 cards"):
        leftover_value(parse_cards("9S 9H 9C 4D 4S"))


def test_contribution_credits_each_left_over_card_to_its_holder():
    cards = parse_cards("7C 7D 7H 7S KH 2C")
    assert leftover_value(cards, CONTRIBUTION, by="NNSSNS").value == 16
    assert leftover_value(cards, CONTRIBUTION, by="NNNNSS").value == 8
    assert leftover_value(cards).value == 12


def test_contribution_left_overs_pick_the_best_split_straight_flush():
    # 2-6 of hearts is 5-0 (10); 3-7 of hearts is 3-2 (20).
    cards = parse_cards("2H 3H 4H 5H 6H 7H")
    assert leftover_value(cards, CONTRIBUTION, by="NNNSSS").value == 20


def test_higher_hand_score_adds_ten_times_the_other_sides_left_overs():
    result = bonus(20, 12, "9S 9H 4C 4D KS KH", "JS 6S 7H 5H 9C 8D")
    assert result == {NS: 50, EW: 0}


def test_the_winner_is_never_charged_for_its_own_left_overs():
    result = bonus(5, 12, "9S 9H 4C 4D KS KH", "2S 4H 6C 8D TS QH")
    assert result == {NS: 0, EW: 60}


def test_tie_higher_left_over_value_loses():
    result = bonus(10, 10, "9S 9H 4C 4D KS KH", "JS 6S 7H 5H 9C 8D")
    assert result == {NS: 0, EW: 60}


def test_tie_one_side_worth_nothing_scores_the_other_value():
    result = bonus(10, 10, "2S 4H 6C 8D TS QH", "9S 9H 3C 5D 7S JH")
    assert result == {NS: 10, EW: 0}


def test_tie_both_worth_nothing_nobody_scores():
    result = bonus(10, 10, "2S 4H 6C 8D TS QH", "3S 5H 7C 9D JS KH")
    assert result == {NS: 0, EW: 0}


def test_tie_equal_values_the_side_with_the_higher_forming_card_loses():
    result = bonus(10, 10, "KS KH 2C 4D 6S 8H", "9S 9H 3C 5D 7S AH")
    assert result == {NS: 0, EW: 10}


def test_tie_equal_values_kickers_do_not_count():
    # Both hold a pair of kings; EW's ace is a kicker, not part of the combination.
    result = bonus(10, 10, "KS KH 2C 4D 6S 8H", "KD KC AS QH 3D 7C")
    assert result == {NS: 0, EW: 0}


def test_tie_equal_straights_ace_counts_low_in_a_to_five():
    # A-2-3-4-5 is lower than 2-3-4-5-6: the six-high side loses though the other holds an ace.
    result = bonus(10, 10, "AS 2H 3C 4D 5S 9H", "2S 3H 4C 5D 6S JH")
    assert result == {NS: 50, EW: 0}


def test_tie_three_pairs_compare_all_six_cards():
    result = bonus(10, 10, "KS KH 9C 9D 4S 4H", "KD KC 9S 9H 5S 5H")
    assert result == {NS: 60, EW: 0}


def test_tie_equal_forming_ranks_nobody_scores():
    result = bonus(10, 10, "AS 2H 3C 4D 5S 9H", "AH 2S 3D 4C 5H 9C")
    assert result == {NS: 0, EW: 0}


def test_leftover_bonus_under_contribution_uses_holders():
    result = bonus(
        30,
        12,
        "2S 3S 4S 5S 6S 8D",
        "7C 7D 7H 7S KH 2C",
        CONTRIBUTION,
        by={NS: "NNNNNN", EW: "EWEWEE"},
    )
    assert result == {NS: 160, EW: 0}
