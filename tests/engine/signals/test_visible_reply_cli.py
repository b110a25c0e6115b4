"""Visible pruning, reply advice, the cheat sheet and the command line."""

import io
import json

from engine.cards import card, parse_cards
from engine.cli import main
from engine.signals import (
    CONVENTIONS,
    NO_SIGNAL_TEXT,
    cheatsheet,
    cheatsheet_text,
    decode,
    reply_advice,
)


def read(c1, c2, side, visible="", conv="parlett-2008"):
    return [
        r.item
        for r in decode(
            card(c1), card(c2) if c2 else None, side, CONVENTIONS[conv], parse_cards(visible)
        )
    ]


def test_cannot_read_fours_holding_one():
    assert read("7H", "7D", 1) == ["fours"]
    assert read("7H", "7D", 1, "7S") == []
    assert "fours" not in read("7H", "7D", 1, conv="teach-yourself-1994")


def test_cannot_read_straight_flush_needing_a_visible_card():
    assert read("2D", "5D", 1)[0] == "four_sf"
    assert "four_sf" not in read("2D", "5D", 1, "3D")
    # XX.XX 5S-2S: Ace-2-4-5 or 2-3-5-6; seeing 4S leaves 2-3-5-6, seeing 3S too kills both.
    assert read("5S", "2S", 1, "4S")[0] == "four_sf"
    assert "four_sf" not in read("5S", "2S", 1, "4S 3S")


def test_pass_signals_prune_by_suit():
    assert read("4D", None, 1) == ["threes", "one_pair"]
    assert read("4D", None, 1, "4H") == ["threes"]  # a ♥♦ pair needs the ♥
    assert read("4D", None, 1, "4S") == ["one_pair"]  # a three without ♥ needs ♠ and ♣


def test_two_threes_and_full_house_pruning():
    assert "full_house" not in read("4H", "JS", 1, "4S 4C")
    assert "full_house" in read("4H", "JS", 1, "4S")


def test_no_signal_text():
    """A signal no unseen holding leads reads as nothing, in the decoder and the CLI, and the
    pages say so with the no-signal sentence."""
    assert read("7H", "7D", 1, "7S") == []
    out = io.StringIO()
    assert main(["read", "7H", "7D", "--side-hand", "1", "--visible", "7S"], stdout=out) == 0
    assert json.loads(out.getvalue()) == {"primary": "no_signal", "readings": []}
    assert NO_SIGNAL_TEXT.id == "reading.no_signal"
    assert str(NO_SIGNAL_TEXT).startswith("Not a signal in this system")


def test_reply_completes_straight_flush():
    a = reply_advice(parse_cards("6S 3S KH"), card("5S"), card("2S"), 1)
    assert a.action == "play" and [str(c) for c in a.cards] == ["3S"]


def test_reply_pass_with_nothing_to_add():
    a = reply_advice(parse_cards("6S 2D KH"), card("5S"), card("2S"), 1)
    assert a.action == "pass" and a.cards == () and a.reason


def test_reply_fourth_of_a_three_and_full_house():
    assert reply_advice(parse_cards("4C 9D"), card("4H"), None, 1).cards == (card("4C"),)
    a = reply_advice(parse_cards("JC JD 2S"), card("4H"), card("JS"), 1)
    assert a.action == "play" and set(a.cards) == {card("JC"), card("JD")}


def test_reply_after_card_and_pass_must_play():
    a = reply_advice(parse_cards("7S 8H 2D"), card("4D"), None, 1)
    assert a.action == "play" and len(a.cards) == 1
    a = reply_advice(parse_cards("7S 7H 2D"), card("4D"), None, 1)
    assert a.action == "play" and set(a.cards) == {card("7S"), card("7H")}


def test_reply_force_with_a_better_hand():
    a = reply_advice(parse_cards("9C 9D 9H 9S 2C 3D"), card("4H"), card("4S"), 1)
    assert a.action == "force" and len(a.cards) == 5


def test_reply_flush_card():
    a = reply_advice(parse_cards("2S 9S KH"), card("4S"), card("8S"), 3)
    assert a.action == "play" and a.cards == (card("2S"),)


def test_cheatsheet_reproduces_the_grid():
    sheet = cheatsheet(CONVENTIONS["parlett-2008"])
    same_rank, in_range, out = (g.cells for g in sheet.grid)
    assert same_rank[0] == "–"
    assert "four of a kind if ♥ then ♦" in same_rank[1] and "two pair" in same_rank[1]
    assert same_rank[2] == "two pair"
    assert "straight flush" in in_range[0] and "to a flush" in in_range[0]
    assert "two threes" in in_range[1] and "straight" in in_range[1]
    assert "full house (threes first)" in in_range[2] and "straight" in in_range[2]
    assert "five-card flush (up)" in out[0] and "two pair (down)" in out[0]
    assert "two threes" in out[1] and "two pair (down)" in out[1]
    assert out[2] == "full house (threes first)"
    assert len(sheet.checklist) == 15 and len(sheet.rows) == len(CONVENTIONS["parlett-2008"].rows)
    text = cheatsheet_text(CONVENTIONS["teach-yourself-1994"])
    assert "teach-yourself-1994" in text and "four_sf XX.XX" in text


def run(args, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    status = main(args, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_signal():
    status, out, _ = run(["signal", "5S", "4S", "2S", "AS", "--side-hand", "1"])
    assert status == 0
    assert json.loads(out) == {
        "item": "four_sf",
        "shape": "XX.XX",
        "plays": [["5S", "2S"], ["4S", "AS"]],
    }
    status, out, _ = run(["signal", "7S", "7D", "7H", "--side-hand", "2"])
    assert json.loads(out)["plays"] == [["7H", "pass"]]
    status, out, _ = run(["signal", "KS", "2H", "--side-hand", "2"])
    assert json.loads(out) == {"item": "none", "shape": None, "plays": []}


def test_cli_read_and_visible():
    status, out, _ = run(["read", "JD", "4D", "--side-hand", "3"])
    data = json.loads(out)
    assert status == 0 and data["primary"] == "two_pair" and data["readings"][0]["text"]
    status, out, _ = run(["read", "7H", "7D", "--side-hand", "1", "--visible", "7S"])
    assert json.loads(out) == {"primary": "no_signal", "readings": []}
    status, out, _ = run(
        ["read", "4D", "pass", "--side-hand", "1", "--convention", "teach-yourself-1994"]
    )
    assert json.loads(out)["primary"] == "threes"


def test_cli_batch_and_errors():
    status, out, err = run(["read", "--side-hand", "3"], "4S 8S\nZZ 8S\n8S 4H\n")
    lines = [json.loads(x) for x in out.splitlines()]
    assert status == 2 and [x["primary"] for x in lines] == ["four_flush", "three_straight"]
    assert err.startswith("error: line 2:")
    assert run(["signal", "2S", "--side-hand", "9"])[0] == 2
    assert run(["signal", "2S", "--side-hand", "1", "--convention", "x"])[0] == 2
    assert run(["read", "2S", "2S", "--side-hand", "1"])[0] == 2


def test_cli_cheatsheet_and_reply():
    status, out, _ = run(["cheatsheet"])
    assert status == 0 and out.startswith("Concerto signals")
    status, out, _ = run(["reply", "6S", "3S", "KH", "--signal", "5S", "2S", "--side-hand", "1"])
    assert status == 0 and json.loads(out)["cards"] == ["3S"]
