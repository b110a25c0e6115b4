"""What the lessons *say* in words, checked against the engine.

The example blocks are worked out by the engine when a page is shown, but the sentences around
them are written by hand. Each test here pins one claim of a lesson to the engine (encoder,
decoder, relations, the game's legal actions), so a lesson that contradicts the convention card
fails the suite instead of misleading a learner.
"""

import random
import re

import pytest
from django.conf import settings

from engine.cards import DECK, Card, parse_cards
from engine.game import FORCE, PASS, Action, DealState
from engine.scoring import Combination, score_hand
from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    cheatsheet,
    decode,
    encode,
    reply_advice,
    signal_relations,
)
from engine.signals.checklist import card_at
from engine.signals.conventions import ITEM_FAMILY
from trainer.clubs.curriculum import STEPS
from trainer.learn.examples import Block, block_cards, block_convention, block_signal
from trainer.learn.rendering import example_blocks

C2008 = CONVENTIONS["parlett-2008"]
C1994 = CONVENTIONS["teach-yourself-1994"]
LESSONS = settings.BASE_DIR / "seeds" / "lessons"
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

#: Cards a leader (and partner) can hold when side hand k starts (docs/rules.md, hand sizes).
LEADER_SIZES = {1: (13, 13), 2: (9, 13), 3: (4, 12), 4: (1, 11)}
PARTNER_SIZES = {1: (13, 13), 2: (8, 12), 3: (4, 12), 4: (0, 10)}


def _lesson(name: str) -> tuple[str, list[Block]]:
    text = (LESSONS / name).read_text(encoding="utf-8")
    body = text.split("---", 2)[2]
    return body, example_blocks(body)


def _section(body: str, heading: str) -> tuple[str, list[Block]]:
    """The text under ``## heading`` (up to the next ``## ``) and its example blocks."""
    start = body.index(f"## {heading}")
    end = body.find("\n## ", start + 3)
    part = body[start : end if end >= 0 else None]
    return part, example_blocks(part)


def _side(block: Block) -> int:
    return int(block.fields.get("side_hand", "1"))


def _visible(block: Block) -> tuple[Card, ...]:
    return block_cards(block, key="visible") if block.fields.get("visible") else ()


def _deal(**held: str) -> DealState:
    """A deal (dealer W, so N leads hand 1) giving each named seat these cards, the rest filled
    in from the pack."""
    hands = {seat: list(parse_cards(cards.split())) for seat, cards in held.items()}
    rest = [c for c in DECK if all(c not in h for h in hands.values())]
    for seat in "NESW":
        hand = hands.setdefault(seat, [])
        while len(hand) < 13:
            hand.append(rest.pop())
    return DealState("W", hands)


def _symbol_card(text: str) -> Card:
    """``♥J`` or ``♥10`` as a card."""
    return Card.parse(text[1:].replace("10", "T") + SUITS[text[0]])


# Every lesson ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.md")), ids=lambda p: p.stem)
def test_example_hands_fit_their_side_hand(path):
    """A leader's hand (or partner's, in a reply) has a size that can occur in that side hand."""
    _, blocks = _lesson(path.name)
    for block in blocks:
        if block.kind not in ("hand", "reply"):
            continue
        sizes = LEADER_SIZES if block.kind == "hand" else PARTNER_SIZES
        low, high = sizes[_side(block)]
        assert low <= len(block_cards(block)) <= high, (path.stem, block)


def test_lessons_outside_the_path_keep_the_path_at_seven_steps():
    steps = {}
    for path in LESSONS.glob("*.md"):
        front = path.read_text(encoding="utf-8").split("---", 2)[1]
        slug = re.search(r"^slug: (\S+)", front, re.M)[1]
        step = re.search(r"^step: (\d+)", front, re.M)
        steps[slug] = int(step[1]) if step else None
    assert {s.lesson: s.number for s in STEPS} == {k: v for k, v in steps.items() if v}
    assert steps["the-finer-points"] is None and steps["the-1994-card"] is None


# Lesson 1: the hand that is played out -----------------------------------------------------


def test_lesson_one_plays_the_lead_the_encoder_gives_and_the_hand_replays_legally():
    body, blocks = _lesson("01-the-game.md")
    hand = next(b for b in blocks if b.kind == "hand")
    north = block_cards(hand)
    rows = re.findall(r"^\|\s*(\d)\s*\|(.*?)\|(.*?)\|\s*$", body, re.M)
    actions = []
    for _, n, s in rows:
        seat, text = ("N", n) if n.strip() else ("S", s)
        card = re.search(r"[♠♥♦♣](?:10|[2-9JQKA])", text)
        actions.append((seat, _symbol_card(card[0]) if card else None))
    assert [seat for seat, _ in actions] == ["N", "S", "N", "S", "N", "S"]

    lead = (actions[0][1], actions[2][1])
    assert actions[1][1] is None  # partner passes after the first card
    said = " ".join(body.split())
    assert "three hearts to a straight flush, the third card below these two" in said
    first = decode(*lead, 1)[0]
    assert (first.item, first.shape) in (("three_sf", "X.XX"), ("three_sf", "X..XX"))
    for convention in CONVENTIONS.values():
        assert lead == encode(north, 1, convention).plays[0], convention.name

    south = " ".join(str(c) for seat, c in actions if seat == "S" and c)
    state = _deal(N=" ".join(map(str, north)), S=south)
    for seat, card in actions:
        assert str(state.current_player()) == seat
        state.apply_action(PASS if card is None else Action.play(card))
    played = state.played_hands[0]
    score = blocks[blocks.index(hand) + 1]  # the five cards of that hand, shown after the table
    assert played.card_list == block_cards(score)
    assert "".join(map(str, played.played_by)) == score.fields["by"]
    assert played.combination is Combination.STRAIGHT_FLUSH


# Lesson 4: the straight-flush shapes and their pattern --------------------------------------


def _sf_rows(convention):
    return [r for r in convention.rows if r.positions]


def test_lesson_four_lists_each_shapes_direction_and_distance():
    body, _ = _lesson("04-strong-signals.md")
    part, _ = _section(body, "Straight-flush shapes")
    claims = {}
    for bullet in re.findall(r"^- \*\*(.+?)(?=^- |\n\n)", part, re.M | re.S):
        said = re.search(r"(Up|Down), (\w+) apart", bullet)
        if not said:
            continue
        shapes = re.findall(r"`([X.]+)`", bullet) or ["XXXXX"]
        for shape in shapes:
            claims[shape] = (said[1].lower(), WORDS[said[2]])
    rows = {r.shape: (r.pattern.rank, r.pattern.d_min) for r in _sf_rows(C2008)}
    assert claims == rows


def test_lesson_four_mnemonic_is_stated_with_the_cards_distances():
    body, _ = _lesson("04-strong-signals.md")
    text = " ".join(body.split())
    rows = {r.shape: (r.pattern.rank, r.pattern.d_min) for r in _sf_rows(C2008)}
    runs = re.search(r"up (\d) is five in a row, up (\d) four in a row", text)
    assert rows["XXXXX"] == ("up", int(runs[1])) and rows["XXXX"] == ("up", int(runs[2]))
    holes = re.search(
        r"Down (\d) is three in a row with no hole, down (\d) two and two around "
        r"one hole, down (\d) three cards with two holes",
        text,
    )
    assert rows["XXX"] == ("down", int(holes[1]))
    assert rows["XX.XX"] == ("down", int(holes[2]))
    assert rows["X.X.X"] == ("down", int(holes[3]))
    assert "Down 1 is up 1 turned over" in text and "bottom-heavy" not in text


def _holes(shape: str) -> int:
    return shape.strip(".").count(".")


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
def test_lesson_four_mnemonic_holds_for_every_shape(convention):
    """Up: c1..c2 is a solid run, any extra card beyond it (up 2: two away; up 1: above).
    Down 1: the touching two, third card below. Down 2-4: d - 2 holes (1994: down 4 may also be
    four cards with one hole, as the lesson says)."""
    for row in _sf_rows(convention):
        shape, d = row.shape, row.pattern.d_min
        for p1, p2 in row.positions:
            lo, hi = sorted((p1, p2))
            if row.pattern.rank == "up":
                assert p1 < p2 and set(shape[lo : hi + 1]) == {"X"}, row.id
                outside = [i for i, ch in enumerate(shape) if ch == "X" and not lo <= i <= hi]
                assert len(outside) == {4: 0, 3: 0, 2: 1, 1: 1}[d], row.id
                if d == 2:
                    assert all(min(abs(i - lo), abs(i - hi)) == 2 for i in outside), row.id
                if d == 1:
                    assert all(i > hi for i in outside), row.id
            elif d == 1:
                assert p2 == p1 - 1 and shape.index("X") < p2, row.id
            elif convention is C1994 and d == 4 and shape.count("X") == 4:
                assert _holes(shape) == 1, row.id
            else:
                assert _holes(shape) == d - 2, row.id
                assert p1 > p2, row.id


# Lesson 5: the three-flush fallback and the four-straight traps -----------------------------


def test_lesson_five_out_of_range_down_in_one_suit_can_be_a_three_flush():
    body, _ = _lesson("05-weak-signals.md")
    _part, blocks = _section(body, "Two pair")
    assert "never means a flush" not in body
    hand = blocks[-1]
    enc = encode(block_cards(hand), _side(hand))
    c1, c2 = enc.plays[0]
    rel = signal_relations(c1, c2)
    assert enc.item == "three_flush"
    assert rel.suit == "same_suit" and rel.direction == "down" and rel.out_of_range
    readings = decode(c1, c2, _side(hand))
    assert readings[0].item == "two_pair"
    assert readings[-1].item == "three_flush" and readings[-1].fallback


def test_lesson_five_four_straight_traps():
    body, _ = _lesson("05-weak-signals.md")
    _part, blocks = _section(body, "Straights")
    hand = next(
        b
        for b in blocks
        if b.kind == "hand" and "Four to a straight" in b.fields.get("caption", "")
    )
    enc = encode(block_cards(hand), _side(hand))
    assert enc.item == "four_straight"
    for c1, c2 in enc.plays:
        rel = signal_relations(c1, c2)
        assert rel.distance != 4 and rel.suit != "same_suit"
    traps = [b for b in blocks if b.kind == "signal"][-2:]
    four_apart, one_suit = (block_signal(b) for b in traps)
    assert signal_relations(*four_apart).distance == 4
    assert decode(*four_apart, _side(traps[0]))[0].item == "five_straight"
    assert signal_relations(*one_suit).suit == "same_suit"
    assert decode(*one_suit, _side(traps[1]))[0].item == "four_flush"
    assert decode(*one_suit, 1)[0].item in ("four_sf", "three_sf", "five_sf")


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
def test_no_regular_four_straight_lead_is_four_apart_or_in_one_suit(convention):
    rng = random.Random(5)
    seen = 0
    while seen < 300:
        hand = rng.sample(DECK, rng.randint(4, 9))
        enc = encode(hand, 3, convention)
        if enc.item != "four_straight":
            continue
        seen += 1
        for c1, c2 in enc.plays:
            rel = signal_relations(c1, c2)
            assert rel.distance <= 3 and rel.direction == "up"
            if rel.suit == "same_suit":  # only the † row, when nothing else fits
                assert all(
                    r.fallback for r in decode(c1, c2, 3, convention) if r.item == "four_straight"
                )


@pytest.mark.parametrize(
    ("title", "row_id"),
    [
        ("Five-card straight", "five_straight"),
        ("Four to a straight", "four_straight"),
        ("Three to a straight", "three_straight"),
    ],
)
def test_lesson_five_straight_distances(title, row_id):
    body, _ = _lesson("05-weak-signals.md")
    said = re.search(rf"\*\*{title}:\*\*.*?(Up|Down), (\w+)(?: to (\w+))? apart", body, re.S)
    row = next(r for r in C2008.rows if r.id == row_id)
    low = WORDS[said[2]]
    high = WORDS[said[3]] if said[3] else low
    assert (said[1].lower(), low, high) == (row.pattern.rank, row.pattern.d_min, row.pattern.d_max)


# Lesson 6: distances and the reading order --------------------------------------------------


def test_lesson_six_distance_claim_matches_its_examples():
    body, _ = _lesson("06-reading-partner.md")
    part, blocks = _section(body, "When a signal has two meanings")
    said = re.search(r"of one suit, (up|down) and (\w+) apart,\s+fit (.+?) \*and\* (.+?)\.", part)
    for block in blocks:
        c1, c2 = block_signal(block)
        rel = signal_relations(c1, c2)
        assert (rel.direction, rel.distance, rel.suit) == (said[1], WORDS[said[2]], "same_suit")
    strong, weak = (decode(*block_signal(b), _side(b)) for b in blocks)
    assert strong[0].item == "five_sf" and said[3] == "five to a straight flush"
    assert weak[0].item == "four_flush" and said[4] == "four to a flush"


def test_lesson_six_grid_is_generated_not_copied():
    body, blocks = _lesson("06-reading-partner.md")
    assert any(b.kind == "grid" for b in blocks)
    assert "| **Same rank**" not in body


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
@pytest.mark.parametrize("side_hand", [1, 3])
def test_readings_follow_the_order_the_lessons_and_cheat_sheet_state(convention, side_hand):
    order = cheatsheet(convention).reading_order[0 if side_hand <= 2 else 1]
    rank = {f: i for i, f in enumerate(order.families)}
    items = list(convention.checklist)
    for c1 in DECK[::3]:
        for c2 in (*DECK[1::4], None):
            if c1 == c2:
                continue
            readings = decode(c1, c2, side_hand, convention)
            keys = [(r.fallback, rank[ITEM_FAMILY[r.item]], items.index(r.item)) for r in readings]
            assert keys == sorted(keys), (c1, c2)


# Lesson 7: partner may play at once; after a card and a pass, partner must play -------------


def test_lesson_seven_partner_may_play_instead_of_passing_and_the_leader_lets_them():
    body, _ = _lesson("07-replying.md")
    part, blocks = _section(body, "Before the signal: you need not pass")
    block = next(b for b in blocks if b.kind == "score")
    cards, by = block_cards(block), block.fields["by"]
    assert by == "NSSSS"
    state = _deal(N=str(cards[0]), S=" ".join(map(str, cards[1:])))
    state.apply_action(Action.play(cards[0]))
    for card in cards[1:]:
        if str(state.current_player()) == "N":
            assert PASS in state.legal_actions()
            state.apply_action(PASS)
        assert Action.play(card) in state.legal_actions()
        state.apply_action(Action.play(card))
    played = state.played_hands[0]
    assert played.card_list == cards
    assert played.combination in (Combination.STRAIGHT_FLUSH, Combination.FOURS)
    words = " ".join(part.split())
    assert "straight flush" in words and "four of a kind" in words


def test_after_a_card_and_a_pass_partner_may_neither_pass_nor_force():
    body, blocks = _lesson("07-replying.md")
    part, _ = _section(body, "After a card and a pass: you must play")
    assert "neither pass nor force" in " ".join(part.split())
    state = _deal(N="7H")
    state.apply_action(Action.play(Card.parse("7H")))
    state.apply_action(PASS)
    state.apply_action(PASS)
    actions = state.legal_actions()
    assert PASS not in actions and FORCE not in actions and actions
    assert cheatsheet(DEFAULT_CONVENTION).card_and_pass_reply == ("play",)
    for block in blocks:
        if block.kind == "reply" and block_signal(block)[1] is None:
            c1, c2 = block_signal(block)
            assert reply_advice(block_cards(block), c1, c2, _side(block)).action == "play"


# Lesson 8: the table --------------------------------------------------------------------------


def test_lesson_eight_dead_item_and_the_next_signal():
    body, _ = _lesson("08-the-finer-points.md")
    _part, blocks = _section(body, "A combination nobody can finish")
    hand, signal = blocks
    cards = block_cards(hand)
    table = _visible(signal)
    enc = encode(cards, _side(hand))
    assert enc.item == "three_sf"
    ranks = sorted({c.rank for c in enc.cards})
    suit = enc.cards[0].suit
    for low in range(max(2, ranks[-1] - 4), min(ranks[0], 10) + 1):
        missing = [v for v in range(low, low + 5) if v not in ranks]
        assert any(card_at(suit, v) in table for v in missing), f"window from {low} is open"
    rest = [c for c in cards if c not in enc.cards]
    following = encode(rest, _side(hand))
    assert block_signal(signal) in following.plays
    assert decode(*block_signal(signal), _side(signal), visible=table)[0].item == following.item


def test_lesson_eight_the_table_removes_the_misleading_reading():
    body, _ = _lesson("08-the-finer-points.md")
    _part, blocks = _section(body, "The table tells partner for you")
    hand, bare, seen = blocks
    enc = encode(block_cards(hand), _side(hand))
    assert enc.item == "four_flush" and enc.plays[0] == block_signal(bare) == block_signal(seen)
    assert decode(*block_signal(bare), _side(bare))[0].item == "four_sf"
    assert decode(*block_signal(seen), _side(seen), visible=_visible(seen))[0].item == enc.item


# Lesson 9: the 1994 card ---------------------------------------------------------------------


def test_lesson_nine_down_four_shows_a_holed_four_only_on_the_1994_card():
    body, _ = _lesson("09-the-1994-card.md")
    _part, blocks = _section(body, "1. Down four in one suit says more")
    hand_2008, hand_1994, read_1994, read_2008 = blocks
    for block, convention in (
        (hand_2008, C2008),
        (hand_1994, C1994),
        (read_1994, C1994),
        (read_2008, C2008),
    ):
        assert block_convention(block, DEFAULT_CONVENTION) is convention
    old = encode(block_cards(hand_2008), 1, C2008).plays
    new = encode(block_cards(hand_1994), 1, C1994).plays
    extra = [p for p in new if p not in old]
    assert set(old) < set(new) and extra
    for c1, c2 in extra:
        rel = signal_relations(c1, c2)
        assert (rel.suit, rel.direction, rel.distance) == ("same_suit", "down", 4)
    signal = block_signal(read_1994)
    assert signal in extra
    assert decode(*signal, 1, C1994, _visible(read_1994))[0].item == "four_sf"
    assert decode(*signal, 1, C2008, _visible(read_2008))[0].item == "three_flush"


def test_lesson_nine_fours_have_no_signal_and_the_next_item_is_shown():
    body, _ = _lesson("09-the-1994-card.md")
    part, blocks = _section(body, "2. Four of a kind has no signal")
    hand_1994, _hand_2008, with_kings, same_rank, score = blocks
    cards = block_cards(hand_1994)
    assert encode(cards, 1, C2008).item == "fours"
    enc = encode(cards, 1, C1994)
    fours_rank = encode(cards, 1, C2008).cards[0].rank
    assert enc.item != "fours" and enc.plays, "the 1994 leader shows the next item"
    assert all(c is None or c.rank != fours_rank for play in enc.plays for c in play)
    assert "fours" in getattr(enc, "unsignalled", ("fours",))
    for c1 in DECK:
        for c2 in DECK:
            if c1 != c2 and c1.rank == c2.rank:
                assert all(r.item != "fours" for r in decode(c1, c2, 1, C1994))
    kings = encode(block_cards(with_kings), _side(with_kings), C1994)
    assert kings.item == "full_house" and "four 7s beside two Kings are a full house" in " ".join(
        part.split()
    )
    assert all({c1.rank, c2.rank} == {7, 13} for c1, c2 in kings.plays)
    assert decode(*block_signal(same_rank), _side(same_rank), C1994)[0].item == "two_pair"
    five, by = block_cards(score), score.fields["by"]
    assert score_hand(five, "classic", by).points == 12
    assert score_hand(five, "contribution", by).points == 8
    assert "12 under the classic rule but only 8 under the" in " ".join(part.split())


def test_lesson_nine_two_pair_has_no_out_of_range_alternative():
    body, _ = _lesson("09-the-1994-card.md")
    _part, blocks = _section(body, "3. Two pair: show a pair, then pass")
    hand, signal = blocks
    enc = encode(block_cards(hand), _side(hand), C1994)
    assert enc.item == "two_pair"
    assert all(c1.rank == c2.rank for c1, c2 in enc.plays)
    assert any(c1.rank != c2.rank for c1, c2 in encode(block_cards(hand), _side(hand), C2008).plays)
    readings = decode(*block_signal(signal), _side(signal), C1994)
    assert [r.item for r in readings] == ["three_flush"] and readings[0].fallback
