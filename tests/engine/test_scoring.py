import itertools
import random
from collections import Counter

import pytest

from engine.cards import DECK, parse_cards
from engine.errors import InvalidCardsError, InvalidNotationError
from engine.scoring import (
    CLASSIC,
    CONTRIBUTION,
    FIVE_CARD_COMBINATIONS,
    SCORING_RULES,
    Combination,
    best_five,
    category_index,
    evaluate,
    forming_cards,
    get_rule,
    score_hand,
    tie_ranks,
)

EXPECTED_COUNTS = {
    Combination.STRAIGHT_FLUSH: 40,
    Combination.FOURS: 624,
    Combination.FULL_HOUSE: 3_744,
    Combination.FLUSH: 5_108,
    Combination.STRAIGHT: 10_200,
    Combination.THREES: 54_912,
    Combination.TWO_PAIR: 123_552,
    Combination.ONE_PAIR: 1_098_240,
    Combination.NOTHING: 1_302_540,
}


def test_exhaustive_counts_over_all_five_card_hands():
    counts = Counter(itertools.starmap(category_index, itertools.combinations(range(52), 5)))
    found = {FIVE_CARD_COMBINATIONS[code]: n for code, n in counts.items()}
    assert found == EXPECTED_COUNTS
    assert sum(found.values()) == 2_598_960


def test_combination_ids_and_strength_order():
    assert [c.value for c in FIVE_CARD_COMBINATIONS] == [
        "nothing",
        "one_pair",
        "two_pair",
        "threes",
        "straight",
        "flush",
        "full_house",
        "fours",
        "straight_flush",
    ]
    assert sorted(Combination, reverse=True)[0] is Combination.STRAIGHT_FLUSH
    assert Combination.FLUSH < Combination.THREE_PAIRS < Combination.FULL_HOUSE
    assert Combination.parse("full house") is Combination.FULL_HOUSE


@pytest.mark.parametrize(
    ("cards", "combination"),
    [
        ("AH 2H 3H 4H 5H", Combination.STRAIGHT_FLUSH),
        ("TS JS QS KS AS", Combination.STRAIGHT_FLUSH),
        ("AS 2H 3C 4D 5S", Combination.STRAIGHT),
        ("TS JH QC KD AS", Combination.STRAIGHT),
        ("QS KH AC 2D 3S", Combination.NOTHING),  # no wrap-around
        ("2S 4S 6S 8S TS", Combination.FLUSH),
        ("7C 7D 7H 7S KH", Combination.FOURS),
        ("7C 7D 7H KS KH", Combination.FULL_HOUSE),
        ("7C 7D 7H KS 2H", Combination.THREES),
        ("7C 7D KH KS 2H", Combination.TWO_PAIR),
        ("7C 7D KH QS 2H", Combination.ONE_PAIR),
        ("7C 8D KH QS 2H", Combination.NOTHING),
    ],
)
def test_evaluate(cards, combination):
    assert evaluate(parse_cards(cards)) is combination


def test_evaluate_rejects_wrong_counts_and_duplicates():
    with pytest.raises(InvalidCardsError, match="expected 5 cards"):
        evaluate(parse_cards("AS KS"))
    with pytest.raises(InvalidCardsError, match="duplicate"):
        evaluate(parse_cards("AS AS KS QS JS", unique=False))


def test_classic_values():
    assert [CLASSIC.values[c] for c in FIVE_CARD_COMBINATIONS] == [0, 1, 2, 3, 5, 6, 8, 12, 15]
    assert CLASSIC.values[Combination.THREE_PAIRS] == 6


def test_rules_are_values_looked_up_by_name():
    assert SCORING_RULES == {"classic": CLASSIC, "contribution": CONTRIBUTION}
    assert get_rule("Contribution") is CONTRIBUTION
    with pytest.raises(InvalidNotationError, match="unknown scoring rule: 'bridge'"):
        get_rule("bridge")


def test_worked_check_straight_flush_three_from_north_two_from_south():
    cards = parse_cards("AH 2H 3H 4H 5H")
    assert score_hand(cards, CLASSIC, by="NNNSS").points == 15
    assert score_hand(cards, CONTRIBUTION, by="NNNSS").points == 20


def test_worked_check_fours_all_from_one_partner():
    cards = parse_cards("7C 7D 7H 7S KH")
    assert score_hand(cards, CLASSIC, by="NNNNN").points == 12
    assert score_hand(cards, CONTRIBUTION, by="NNNNN").points == 8


@pytest.mark.parametrize(("by", "points"), [("NNNNS", 8), ("NNNSS", 12), ("NNSSN", 16)])
def test_contribution_fours_split_ignores_the_kicker(by, points):
    # the kicker (KH) is the fifth card: NNSSN is a 2-2 split of the sevens.
    assert score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION, by=by).points == points


@pytest.mark.parametrize(("by", "points"), [("EEEEE", 10), ("EWEEE", 15), ("WWEEE", 20)])
def test_contribution_straight_flush_split(by, points):
    assert score_hand(parse_cards("9D TD JD QD KD"), CONTRIBUTION, by=by).points == points


def test_contribution_needs_by_only_for_fours_and_straight_flush():
    assert score_hand(parse_cards("2S 4S 6S 8S TS"), CONTRIBUTION).points == 6
    with pytest.raises(InvalidCardsError, match="which partner played each card"):
        score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION)


def test_by_accepts_seats_and_rejects_other_sides_and_lengths():
    from engine.seats import Seat

    assert score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION, by=[Seat.N] * 5).points == 8
    with pytest.raises(InvalidCardsError, match="mixes seats of both sides"):
        score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION, by="NNNNE")
    with pytest.raises(InvalidCardsError, match="expected 5 seats"):
        score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION, by="NNN")
    with pytest.raises(InvalidNotationError, match="by: not a seat"):
        score_hand(parse_cards("7C 7D 7H 7S KH"), CONTRIBUTION, by="NNNNX")


def test_forming_cards_leave_kickers_out():
    five = parse_cards("9S 9H 2C 5D KS")
    assert forming_cards(Combination.ONE_PAIR, five) == parse_cards("9S 9H")
    assert forming_cards(Combination.FOURS, parse_cards("7C 7D 7H 7S KH")) == parse_cards(
        "7C 7D 7H 7S"
    )


def test_ace_is_low_inside_a_to_five():
    assert tie_ranks(Combination.STRAIGHT, parse_cards("AS 2H 3C 4D 5S")) == (5, 4, 3, 2, 1)
    assert tie_ranks(Combination.FLUSH, parse_cards("AS 2S 3S 4S 9S"))[0] == 14


def _brute_best(cards):
    return max(evaluate(five) for five in itertools.combinations(cards, 5))


def test_best_five_matches_brute_force_on_random_hands():
    rng = random.Random(11)
    for size in (5, 6, 7, 9, 13):
        for _ in range(150):
            cards = rng.sample(DECK, size)
            combination, five = best_five(cards)
            assert combination is _brute_best(cards)
            assert len(set(five)) == 5 and set(five) <= set(cards)
            assert evaluate(five) is combination


def test_best_five_prefers_higher_ranks():
    combination, five = best_five(parse_cards("2S 3S 4S 5S 6S 7S 8H 9H"))
    assert combination is Combination.STRAIGHT_FLUSH
    assert max(c.rank for c in five) == 7
    assert best_five(parse_cards("KS KH 2C 2D 9S 9H QC"))[1][:4] == parse_cards("KS KH 9S 9H")


def test_fast_path_agrees_with_evaluate():
    rng = random.Random(5)
    for _ in range(2000):
        five = rng.sample(DECK, 5)
        assert FIVE_CARD_COMBINATIONS[category_index(*(c.index for c in five))] is evaluate(five)


def _reference_category(five):
    """The combination of five cards from first principles, independent of the tables."""
    counts = sorted(Counter(c.rank for c in five).values(), reverse=True)
    ranks = {c.rank for c in five}
    straight = len(ranks) == 5 and (max(ranks) - min(ranks) == 4 or ranks == {14, 2, 3, 4, 5})
    flush = len({c.suit for c in five}) == 1
    if straight and flush:
        return Combination.STRAIGHT_FLUSH
    if counts[0] == 4:
        return Combination.FOURS
    if counts[:2] == [3, 2]:
        return Combination.FULL_HOUSE
    if flush:
        return Combination.FLUSH
    if straight:
        return Combination.STRAIGHT
    if counts[0] == 3:
        return Combination.THREES
    if counts[:2] == [2, 2]:
        return Combination.TWO_PAIR
    return Combination.ONE_PAIR if counts[0] == 2 else Combination.NOTHING


def test_fast_path_is_right_in_every_card_order():
    rng = random.Random(8)
    hands = [rng.sample(DECK, 5) for _ in range(1500)]
    # Every flush and straight flush, and hands of every shape, in all 120 orders.
    hands += [
        list(five)
        for suit in range(4)
        for five in itertools.combinations(DECK[13 * suit : 13 * suit + 13], 5)
        if rng.random() < 0.2
    ]
    hands += [parse_cards(h) for h in ("7C 7D 7H 7S KH", "9S 9H 9D 4C 4S", "AH 2C 3D 4S 5H")]
    for five in hands:
        expected = _reference_category(five)
        for order in itertools.permutations(five):
            got = category_index(*(c.index for c in order))
            assert FIVE_CARD_COMBINATIONS[got] is expected, order
