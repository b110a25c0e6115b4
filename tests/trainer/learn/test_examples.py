import re
from html import unescape

import pytest
from django.utils.html import escape

from engine.cards import parse_cards
from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEM_TITLES,
    cheatsheet,
    decode,
    encode,
    reply_advice,
)
from trainer.learn.examples import (
    ExampleError,
    block_cards,
    explain_hand,
    parse_block,
    render_example,
)

TEACH_1994 = CONVENTIONS["teach-yourself-1994"]


def _symbols(play):
    return tuple(c.symbol if c else None for c in play)


def test_a_hand_block_reads_suit_lines_and_cards():
    block = parse_block("hand", "S: A 5 4 2\nH: K 7\ncards: 9C\nside_hand: 2")

    ctx = explain_hand(block, DEFAULT_CONVENTION)

    assert sorted(map(str, ctx["cards"])) == sorted(["AS", "5S", "4S", "2S", "KH", "7H", "9C"])
    assert ctx["side_hand"] == 2 and ctx["round"] == "strong"


def test_a_hand_with_nothing_to_signal_says_so():
    html = render_example("hand", "S: K 2\nH: 9 4", DEFAULT_CONVENTION)

    assert encode(parse_cards("KS 2S 9H 4H"), 1).item == "none"
    assert "no signal to give" in html


def test_a_hand_example_shows_the_engines_lead_and_reading():
    hand = parse_cards("AS 5S 4S 2S KH 7H")
    encoding = encode(hand, 1, DEFAULT_CONVENTION)
    reading = decode(*encoding.plays[0], 1, DEFAULT_CONVENTION)[0]

    html = render_example("hand", "S: A 5 4 2\nH: K 7\nside_hand: 1", DEFAULT_CONVENTION)

    assert "Why this lead?" in html and "<details" in html
    assert f"<code>{encoding.shape}</code>" in html
    for card in encoding.plays[0]:
        assert f'title="{card.label}"' in html
    assert reading.text.split(":")[0] in html


def test_a_signal_example_lists_every_reading_primary_first():
    readings = decode(*parse_cards("4S 8S"), 3, DEFAULT_CONVENTION)

    html = render_example("signal", "4S 8S\nside_hand: 3", DEFAULT_CONVENTION)

    assert "What does partner hold?" in html
    assert escape(readings[0].text) in html
    titles = [html.index(ITEM_TITLES[r.item]) for r in readings]
    assert titles == sorted(titles) and len(titles) > 1


def test_visible_cards_can_rule_every_reading_out():
    html = render_example("signal", "7H 7D\nside_hand: 1\nvisible: 7S", DEFAULT_CONVENTION)

    assert "every meaning of these two cards needs a card you can see" in html


def test_a_score_example_scores_under_both_rules():
    html = render_example("score", "AH 2H 3H 4H 5H\nby: NNNSS", DEFAULT_CONVENTION)

    assert ">15<" in html and ">20<" in html


def test_left_overs_show_their_bonus():
    html = render_example("score", "9S 9H 4C 4D KS KH", DEFAULT_CONVENTION)

    assert "Three pairs" in html and ">60<" in html


def test_contribution_without_seats_says_it_depends():
    html = render_example("score", "7C 7D 7H 7S KH", DEFAULT_CONVENTION)

    assert "Depends on which partner supplied which card" in html


def test_a_reply_example_shows_the_engines_advice():
    hand = parse_cards("6H 9S KD 2C 3C 8D JH")
    advice = reply_advice(hand, *parse_cards("4H 7H"), 1, DEFAULT_CONVENTION)

    html = render_example("reply", "cards: 6H 9S KD 2C 3C 8D JH\nsignal: 4H 7H", DEFAULT_CONVENTION)

    assert advice.reason.split(";")[0] in html


def test_examples_follow_the_chosen_convention():
    html_2008 = render_example("hand", "S: 9 K 4\nH: 9 Q\nD: 9 J\nC: 9 8", DEFAULT_CONVENTION)
    html_1994 = render_example("hand", "S: 9 K 4\nH: 9 Q\nD: 9 J\nC: 9 8", TEACH_1994)

    assert "Parlett 2008" in html_2008 and "Teach Yourself 1994" in html_1994
    assert html_2008 != html_1994


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        ("hand", "S: A 5 5", "duplicate"),
        ("hand", "S: A X", "not a card"),
        ("hand", "side_hand: 1", "no cards"),
        ("hand", "S: A 2\nside_hand: 7", "side_hand"),
        ("hand", "S: A 2\ncolour: red", "unknown key"),
        ("signal", "4H", "two cards"),
        ("signal", "4H 4H", "twice"),
        ("score", "AH 2H 3H", "five played cards"),
        ("score", "AH 2H 3H 4H 5H\nby: NS", "one seat letter"),
        ("reply", "cards: 4H 9S\nsignal: 4H 7H", "cannot be in your hand"),
        ("chart", "x", "unknown example kind"),
    ],
)
def test_bad_blocks_are_errors(kind, text, message):
    with pytest.raises(ExampleError, match=message):
        render_example(kind, text, DEFAULT_CONVENTION)


def test_a_block_can_name_its_convention_whatever_the_pages():
    text = "S: 5 4 2 A\nH: K 7 6\nD: Q J 3\nC: 10 9 8\nconvention: teach-yourself-1994"
    plays = encode(parse_cards("5S 4S 2S AS KH 7H 6H QD JD 3D TC 9C 8C"), 1, TEACH_1994).plays

    html = render_example("hand", text, DEFAULT_CONVENTION)

    assert "card: Teach Yourself 1994" in html and "(Teach Yourself 1994)" in html
    assert len(plays) == 3 and html.count('class="play"') == 3


def test_a_block_naming_an_unknown_convention_is_an_error():
    with pytest.raises(ExampleError, match="not a convention"):
        render_example("signal", "4S 8S\nconvention: house", DEFAULT_CONVENTION)


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_a_grid_block_is_the_cheat_sheets_grid(convention):
    sheet = cheatsheet(CONVENTIONS[convention])

    html = render_example("grid", f"convention: {convention}", DEFAULT_CONVENTION)

    text = " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())
    assert sheet.title in text
    for row in sheet.grid:
        for cell in row.cells:
            assert " ".join(cell.split()) in text


def test_a_grid_block_takes_no_cards():
    with pytest.raises(ExampleError, match="takes no cards"):
        render_example("grid", "4S 8S", DEFAULT_CONVENTION)


def test_a_1994_fours_hand_says_the_fours_are_played_out_at_once():
    text = "S: Q 9 6\nH: Q K 8\nD: Q A 7\nC: Q 4 3 2"
    encoding = encode(block_cards(parse_block("hand", text)), 1, TEACH_1994)

    html = render_example("hand", text, TEACH_1994)

    assert encoding.item == "fours" and encoding.played_out and len(encoding.plays) == 12
    assert "gives this item no signal: play it out at once" in html
    assert "later" not in html
    assert ITEM_TITLES[encoding.item] in html


def test_a_club_card_whose_title_ends_in_card_is_named_once():
    """A club's card may be titled "… card": the examples quote the title instead of adding
    their own "card" after it."""
    from engine.signals.cardfile import load_convention
    from engine.signals.conventions import register_convention, unregister_convention

    data = dict(TEACH_1994.to_json())
    data.update(name="riverside-house", title="Riverside house card")
    club = load_convention(data)
    register_convention(club)
    try:
        fours = "S: 9\nH: 9 4\nD: 9 7\nC: 9 5\nconvention: riverside-house"
        html = unescape(
            render_example("hand", fours, club)
            + render_example("grid", "", club)
            + render_example("signal", "4S 8S\nconvention: riverside-house", club)
        )
    finally:
        unregister_convention("riverside-house")
    assert "card card" not in html
    assert "card: Riverside house card" in html
    assert "The card “Riverside house card” gives this item no signal" in html
    assert "from the card “Riverside house card”" in html
