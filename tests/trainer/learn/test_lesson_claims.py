"""What the lessons *say* in words, checked against the engine.

The example blocks are worked out by the engine when a page is shown, but the sentences around
them are written by hand. Each test here pins one claim of a lesson to the engine (encoder,
decoder, relations, the game's legal actions), so a lesson that contradicts the convention card
fails the suite instead of misleading a learner.
"""

import itertools
import random
import re
from collections import Counter

import pytest
from django.conf import settings

from engine.cards import DECK, Card, parse_cards
from engine.drills import grade, make_drill, parse_answer
from engine.drills.model import DrillParams
from engine.game import FORCE, PASS, Action, DealState
from engine.scoring import Combination, leftover_bonus, score_hand
from engine.seats import Side
from engine.signals import (
    CONVENTIONS,
    DEFAULT_CONVENTION,
    ITEMS,
    Convention,
    cheatsheet,
    cheatsheet_text,
    decode,
    encode,
    reply_advice,
    signal_relations,
)
from engine.signals.checklist import card_at
from engine.signals.conventions import ITEM_FAMILY, ITEM_LINE, ITEM_TITLES, SF_SHAPES
from trainer.clubs.curriculum import STEPS
from trainer.learn.examples import Block, block_cards, block_convention, block_signal
from trainer.learn.rendering import example_blocks

C2008 = CONVENTIONS["parlett-2008"]
C1994 = CONVENTIONS["teach-yourself-1994"]
LESSONS = settings.BASE_DIR / "seeds" / "lessons"
JA_LESSONS = LESSONS / "ja"
EXAMPLE_TEMPLATES = settings.BASE_DIR / "templates" / "learn" / "examples"
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

#: Cards a leader (and partner) can hold when side hand k starts (docs/rules.md, hand sizes).
LEADER_SIZES = {1: (13, 13), 2: (9, 13), 3: (4, 12), 4: (1, 11)}
PARTNER_SIZES = {1: (13, 13), 2: (8, 12), 3: (4, 12), 4: (0, 10)}


def _lesson(name: str, folder=LESSONS) -> tuple[str, list[Block]]:
    text = (folder / name).read_text(encoding="utf-8")
    body = text.split("---", 2)[2]
    return body, example_blocks(body)


def _words(text: str) -> str:
    """Running text with its line breaks and ``**`` emphasis gone, for phrase checks."""
    return " ".join(text.replace("**", "").split())


def _ja_words(text: str) -> str:
    """Japanese running text joined as the page shows it: no space at a line break."""
    return "".join(line.strip() for line in text.replace("**", "").splitlines())


def _section(body: str, heading: str) -> tuple[str, list[Block]]:
    """The text under ``## heading`` (up to the next ``## ``) and its example blocks."""
    start = body.index(f"## {heading}")
    end = body.find("\n## ", start + 3)
    part = body[start : end if end >= 0 else None]
    return part, example_blocks(part)


def _ja_section(body: str, anchor: str) -> str:
    """The text of the Japanese section whose heading carries ``{#anchor}``."""
    start = body.index(f"{{#{anchor}}}")
    end = body.find("\n## ", start)
    return body[start : end if end >= 0 else None]


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


def test_lesson_one_contribution_pays_more_for_fours_and_straight_flushes_built_by_both():
    """RULES: contribution values, standard since Parlett's 2013 revision: more than classic
    for fours two and two (16 > 12) and a straight flush three and two (20 > 15)."""
    body, _ = _lesson("01-the-game.md")
    said = _words(body)
    assert "standard in Parlett's own rules since his 2013 revision" in said
    assert "many clubs" not in said
    fours, flush = parse_cards("7C 7D 7H 7S KH"), parse_cards("AH 2H 3H 4H 5H")
    assert score_hand(fours, "contribution", "NSNSN").points > score_hand(fours, "classic").points
    assert score_hand(flush, "contribution", "NNNSS").points > score_hand(flush, "classic").points
    ja = _ja_words(_lesson("01-the-game.md", JA_LESSONS)[0])
    assert "多くのクラブ" not in ja and "2013年の改訂" in ja


# Lesson 2: left-overs ----------------------------------------------------------------------


def test_lesson_two_equal_left_overs_are_compared_card_by_card_from_the_top():
    """Equal hand scores, equal left-over values: the best combinations' cards are compared
    high to low, card by card, and the side holding the first higher card loses."""
    body, _ = _lesson("02-scoring-and-leftovers.md")
    said = _words(body)
    assert (
        "line up the cards of each side's best combination from high to low and compare them "
        "card by card: the side holding the first higher card loses" in said
    )
    assert "higher card in its best combination loses" not in said
    ties = {Side.NS: 10, Side.EW: 10}
    # Both two pair with Kings on top: the second pair decides (EW's 9s beat NS's 5s).
    ns, ew = parse_cards("KS KH 5C 5D 2S 7H"), parse_cards("KC KD 9S 9H 3C 4D")
    assert leftover_bonus(ties, {Side.NS: ns, Side.EW: ew}) == {Side.NS: 20, Side.EW: 0}
    # Identical ranks throughout: nobody scores.
    ew_same = parse_cards("KC KD 5S 5H 3C 4D")
    assert leftover_bonus(ties, {Side.NS: ns, Side.EW: ew_same}) == {Side.NS: 0, Side.EW: 0}
    ja = _ja_words(_lesson("02-scoring-and-leftovers.md", JA_LESSONS)[0])
    assert "高い順に並べて1枚ずつ比べ、先に高いカードが出た側が手放します" in ja


# Lesson 3: the checklist --------------------------------------------------------------------


def test_lesson_three_lists_the_checklist_in_the_cards_order_and_families():
    body, _ = _lesson("03-the-leaders-checklist.md")
    part, _ = _section(body, "The list")
    named = {"threes": "three of a kind"}  # the lesson's short name for line 8
    said = {
        int(n): [named.get(w.lower(), w.lower()) for w in re.findall(r"\*\*(.+?)\.?\*\*", text)]
        for n, text in re.findall(r"^(\d+)\. (.+?)(?=^\d+\. |\Z)", part, re.M | re.S)
    }
    card: dict[int, list[str]] = {}
    for item in ITEMS:
        card.setdefault(ITEM_LINE[item], []).append(ITEM_TITLES[item].lower())
    assert said == card
    strong = _words(_section(body, "Strong and weak")[0])
    assert "Lines 1 to 6 are the strong items" in strong
    assert {i for i in ITEMS if ITEM_FAMILY[i] == "strong"} == {
        i for i in ITEMS if ITEM_LINE[i] <= 6
    }
    assert {i for i in ITEMS if ITEM_FAMILY[i] == "fours-table"} == {
        "threes",
        "two_pair",
        "one_pair",
    }


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
def test_lesson_three_a_first_lead_always_finds_line_ten_or_higher(convention):
    """A full 13-card hand holds four cards of some suit, so a first lead always finds line 10
    or higher (on both cards)."""
    body, _ = _lesson("03-the-leaders-checklist.md")
    assert "you will always find line 10 or something higher" in _words(body)
    rng = random.Random(3)
    for _ in range(2000):
        enc = encode(rng.sample(DECK, 13), 1, convention)
        assert enc.item != "none" and ITEM_LINE[enc.item] <= 10


def test_lesson_three_the_checklist_is_the_same_in_every_round():
    """ "the checklist is the same in every round": the side hand never changes the item."""
    body, _ = _lesson("03-the-leaders-checklist.md")
    assert "the checklist is the same in every round" in _words(body)
    rng = random.Random(8)
    for _ in range(500):
        hand = rng.sample(DECK, rng.randint(4, 12))
        for convention in (C2008, C1994):
            assert len({encode(hand, side, convention).item for side in (2, 3, 4)}) == 1


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
        r"one hole, down (\d) three cards with a hole between each",
        text,
    )
    assert rows["XXX"] == ("down", int(holes[1]))
    assert rows["XX.XX"] == ("down", int(holes[2]))
    assert rows["X.X.X"] == ("down", int(holes[3]))
    assert "Down 1 is up 1 turned over" in text and "bottom-heavy" not in text
    # On the 2008 card down 4 shows nothing but X.X.X.
    assert [
        r.shape for r in _sf_rows(C2008) if r.pattern.rank == "down" and r.pattern.d_min == 4
    ] == ["X.X.X"]


def _window_ends_shapes() -> set[str]:
    """Three- and four-card straight-flush shapes holding both ends of their window."""
    return {s for n in (3, 4) for s in SF_SHAPES[n] if len(s) == 5 and s[0] == s[-1] == "X"}


def test_lesson_four_says_what_down_four_shows_on_the_1994_card():
    """The 1994 card's down 4: three or four cards with one or two holes, c1 and c2 the ends
    of their window; the 2008 card's: a hole between each."""
    body, _ = _lesson("04-strong-signals.md")
    said = _words(body)
    assert (
        "On the 1994 card down 4 says more: three or four cards with one or two holes, c1 and "
        "c2 the ends of their window" in said
    )
    down_four = [r for r in _sf_rows(C1994) if r.pattern.rank == "down" and r.pattern.d_min == 4]
    assert {r.shape for r in down_four} == _window_ends_shapes()
    for row in down_four:
        assert row.positions == ((4, 0),) and _holes(row.shape) in (1, 2), row.id
    ja = _ja_words(_lesson("04-strong-signals.md", JA_LESSONS)[0])
    assert "欠けが1つか2つの3枚または4枚" in ja and "1枚おきの3枚" in ja


def test_lesson_four_a_strong_lead_in_the_strong_round_is_partners_first_reading():
    """With a strong item in the strong round, the card's lead is read first as that item
    (the 2008 card, which the lesson text describes)."""
    body, blocks = _lesson("04-strong-signals.md")
    assert (
        "with a strong item in the strong round, the lead the card gives you makes your "
        "holding partner's first reading" in _words(body)
    )
    assert "only one sensible reading" not in body
    hands = [(block_cards(b), _side(b)) for b in blocks if b.kind == "hand"]
    rng = random.Random(4)
    while len(hands) < 3000:
        side = rng.choice((1, 2))
        hands.append((rng.sample(DECK, 13 if side == 1 else rng.randint(9, 13)), side))
    for cards, side in hands:
        enc = encode(cards, side, C2008)
        if enc.item == "none" or ITEM_FAMILY[enc.item] != "strong":
            continue
        assert decode(*enc.preferred, side, C2008)[0].item == enc.item, cards


def _holes(shape: str) -> int:
    return shape.strip(".").count(".")


def test_lesson_four_fours_heart_then_diamond_is_read_only_as_fours():
    """ "lead the ♥ then the ♦ of that rank. Nothing else uses that exact pair of suits on the
    same rank" (the 2008 card)."""
    body, blocks = _lesson("04-strong-signals.md")
    part, blocks = _section(body, "Fours")
    assert "lead the ♥ then the ♦ of that rank" in _words(part)
    enc = encode(block_cards(blocks[0]), _side(blocks[0]), C2008)
    assert enc.item == "fours" and [(c1.symbol[-1], c2.symbol[-1]) for c1, c2 in enc.plays] == [
        ("♥", "♦")
    ]
    for rank in "23456789TJQKA":
        c1, c2 = Card.parse(f"{rank}H"), Card.parse(f"{rank}D")
        assert [r.item for r in decode(c1, c2, 1, C2008)] == ["fours"]
        assert [r.item for r in decode(c2, c1, 1, C2008)] == ["two_pair"]


def test_lesson_four_two_threes_and_full_house():
    """Two threes: one card of each three, same colour, either order, always possible. Full
    house: a card of the three first, then one of the pair, different colours."""
    body, _ = _lesson("04-strong-signals.md")
    said = _words(_section(body, "Two threes and full house")[0])
    assert "one card from each three, in suits of the same colour, either order" in said
    assert "With two threes you always have such a pair" in said
    assert "a card of the three first, then a card of the pair, in suits of different colours" in (
        said
    )
    rng = random.Random(6)
    seen = {"two_threes": 0, "full_house": 0}
    while min(seen.values()) < 100:
        hand = rng.sample(DECK, 13)
        enc = encode(hand, 1, C2008)
        if enc.item not in seen:
            continue
        seen[enc.item] += 1
        assert enc.plays
        counts = Counter(c.rank for c in hand)
        for c1, c2 in enc.plays:
            rel = signal_relations(c1, c2)
            if enc.item == "two_threes":
                assert rel.suit == "same_colour" and counts[c1.rank] >= 3 <= counts[c2.rank]
            else:
                assert rel.suit == "different_colour"
                assert counts[c1.rank] >= 3 and counts[c2.rank] >= 2


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
def test_lesson_four_mnemonic_holds_for_every_shape(convention):
    """Up: c1..c2 is a solid run, any extra card beyond it (up 2: two away; up 1: above).
    Down 1: the touching two, third card below. Down 2-3: d - 2 holes. Down 4: top then bottom
    of the window, X.X.X on the 2008 card, any three or four cards holding both ends of the
    window on the 1994 card (as the lesson says)."""
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
            elif d == 4:  # 2008: a hole between each; 1994: any window-ends shape
                assert (p1, p2) == (4, 0) and shape in _window_ends_shapes(), row.id
                if convention is C2008:
                    assert shape == "X.X.X", row.id
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


def test_four_straight_any_two_of_the_four_ranks_are_correct_the_closest_preferred():
    """Lesson 5: "any two of the four ranks, low then high; every such pair is correct, and the
    closest pair is preferred" (in different suits, at most three apart)."""
    body, _ = _lesson("05-weak-signals.md")
    part, blocks = _section(body, "Straights")
    said = _words(part)
    assert (
        "Four to a straight: any two of the four ranks, low then high; every such pair is "
        "correct, and the closest pair is preferred." in said
    )
    assert "as close together as you can" not in said and "as close as possible" not in said
    hand = next(b for b in blocks if "Four to a straight" in b.fields.get("caption", ""))
    for convention in (C2008, C1994):
        enc = encode(block_cards(hand), _side(hand), convention)
        assert enc.item == "four_straight"
        expected = {
            (lo, hi)
            for lo in enc.cards
            for hi in enc.cards
            if lo.suit != hi.suit
            and signal_relations(lo, hi).direction == "up"
            and 1 <= signal_relations(lo, hi).distance <= 3
        }
        assert set(enc.plays) == expected
        distances = [signal_relations(*play).distance for play in enc.plays]
        assert distances[0] == min(distances)
    ja = _ja_words(_ja_section(_lesson("05-weak-signals.md", JA_LESSONS)[0], "straights"))
    assert "どの2つでも、低→高で出せば正しいリードです。一番近い2枚が優先です。" in ja


def _straights_first() -> Convention:
    """A card with the 2008 rows but no suited strong or flush items, so that four ranks of one
    suit inside a window are four to a straight: the only way the † same-suit row can arise."""
    checklist = tuple(i for i in ITEMS if i not in ("four_sf", "three_sf", "four_flush"))
    return Convention("straights-first", "Test", "no suited items", checklist, C2008.rows)


def test_four_straight_shows_one_suit_only_when_no_pair_in_different_suits_fits():
    """Lessons 5 and 8: four to a straight is shown in different suits; one suit (†) only when
    no pair in different suits fits, and partner reads that meaning last."""
    five, _ = _lesson("05-weak-signals.md")
    eight, _ = _lesson("08-the-finer-points.md")
    assert (
        "The card shows four to a straight in one suit (†) only when no pair in different "
        "suits fits, and partner reads that meaning last." in _words(five)
    )
    assert "the card uses one suit (†) only when no pair in different suits fits" in _words(eight)
    rows = [r for r in C2008.rows if r.item == "four_straight"]
    assert [(r.pattern.suits == frozenset({"same_suit"}), r.fallback) for r in rows] == [
        (False, False),
        (True, True),
    ]
    # All four in one suit: no pair in different suits fits, so the † row gives the lead ...
    conv = _straights_first()
    enc = encode(parse_cards("4S 5S 6S 8S"), 3, conv)
    assert enc.item == "four_straight" and enc.plays
    assert all(signal_relations(*play).suit == "same_suit" for play in enc.plays)
    readings = decode(*enc.plays[0], 3, conv)
    assert readings[-1].item == "four_straight" and readings[-1].fallback
    # ... while one card of another suit is enough to keep the lead in different suits.
    enc = encode(parse_cards("4S 5S 6H 8S"), 3, conv)
    assert enc.plays and all(signal_relations(*p).suit != "same_suit" for p in enc.plays)
    for name in ("05-weak-signals.md", "08-the-finer-points.md"):
        ja = _ja_words(_lesson(name, JA_LESSONS)[0])
        assert "別々のスートで合う2枚がないとき" in ja, name


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


def test_lesson_five_flush_rows():
    """Five or more: lowest then highest, up, normally out of range; four: up in range, the
    lowest card with a higher one in range; three: down in range."""
    body, _ = _lesson("05-weak-signals.md")
    said = _words(_section(body, "Flushes")[0])
    for claim in (
        "lead the lowest of the suit, then the highest. Up, and normally out of range",
        "go up instead to a card at least five ranks above the lowest",
        "up again, but in range: the lowest card of the suit that has a higher card of the suit "
        "within four ranks, then that higher card",
        "Three of a suit: down, in range: a higher then a lower card of the suit.",
    ):
        assert claim in said, claim
    rows = {r.id: r.pattern for r in C2008.rows}
    assert (rows["five_flush"].rank, rows["five_flush"].d_min) == ("up", 5)
    assert (rows["five_flush:ace"].rank, rows["five_flush:ace"].d_min) == ("up", 5)
    assert (rows["four_flush"].rank, rows["four_flush"].d_min, rows["four_flush"].d_max) == (
        "up",
        1,
        4,
    )
    assert (rows["three_flush"].rank, rows["three_flush"].d_min, rows["three_flush"].d_max) == (
        "down",
        1,
        4,
    )
    # The 2 and the Ace, lowest and highest, are in range: up from the 2 to a card 5+ away.
    enc = encode(parse_cards("AD KD 8D 6D 2D"), 3, C2008)
    assert enc.item == "five_flush" and set(enc.rows) == {"five_flush:ace"}
    for c1, c2 in enc.plays:
        rel = signal_relations(c1, c2)
        assert c1 == Card.parse("2D") and rel.direction == "up" and rel.distance >= 5


def test_lesson_five_card_and_pass_and_two_pair_suits():
    """Threes: the ♥ of the three, else the ♦, then pass. One pair: a black card, the ♦ of a
    ♥♦ pair. Two pair: both cards of a pair, never ♥ then ♦; black before red, minor before
    major."""
    body, _ = _lesson("05-weak-signals.md")
    said = _words(body)
    assert "the ♥ if you hold it, otherwise the ♦ — and then pass" in said
    assert "choosing a black one. If the pair is exactly ♥ and ♦, lead the ♦." in said
    assert "play black before red, and with two cards of one colour the minor suit" in said

    def plays(text: str) -> list[str]:
        return [f"{a} {b or 'pass'}" for a, b in encode(parse_cards(text), 3, C2008).plays]

    assert plays("9H 9D 9S 2C 5D") == ["9H pass"]
    assert plays("9D 9S 9C 2H 5C") == ["9D pass"]
    assert plays("JH JD 4S 7C") == ["JD pass"]
    assert all(p.split()[0][1] in "SC" for p in plays("JH JS 4C 8D"))
    assert plays("KH KD 8C 8S 3D")[0] == "KD KH" and "KH KD" not in plays("KH KD 8C 8S 3D")
    assert plays("KS KH 7C 7D 2S")[0] == "KS KH"  # black before red
    assert plays("KS KC 7H 7D 2C")[0] == "KC KS"  # one colour: minor before major


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


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
def test_lesson_six_every_correct_lead_means_something(convention):
    """ "A correct lead always means something" -- on both cards, every play the encoder makes
    for a random hand reads back as its item (tests/engine/signals/test_roundtrip.py checks
    every signal: the ones that read as nothing are those no holding leads)."""
    import random

    from engine.signals import encode

    body, _ = _lesson("06-reading-partner.md")
    assert "A correct lead always means something" in _words(body)
    rng = random.Random(f"lesson-six:{convention.name}")
    for _ in range(300):
        hand = rng.sample(DECK, 13)
        side = rng.randint(1, 4)
        enc = encode(hand, side, convention)
        for c1, c2 in enc.plays:
            if enc.played_out:
                continue  # (an unsignalled item: it reads as whatever it looks like)
            assert enc.item in {r.item for r in decode(c1, c2, side, convention)}, (c1, c2)


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
    """Leaving a dead item out is a partnership's own adjustment: the card (and so the lead
    drills, which grade with the encoder) still shows the clubs."""
    body, _ = _lesson("08-the-finer-points.md")
    part, blocks = _section(body, "A combination nobody can finish")
    said = _words(part)
    assert "A partnership that adjusts may leave a dead item out" in said
    assert "The drills follow the card as written, so they still expect the clubs." in said
    hand, signal = blocks
    cards = block_cards(hand)
    table = _visible(signal)
    enc = encode(cards, _side(hand))
    assert enc.item == "three_sf" and {c.suit for c in enc.cards} == {Card.parse("2C").suit}
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


def test_lesson_eight_partner_who_plays_the_first_card_gives_no_signal():
    """The card: partner passes; if partner plays instead, no signal is given. The game lets
    partner play straight after the lead."""
    body, _ = _lesson("08-the-finer-points.md")
    assert "If partner plays instead, no signal is given" in _words(body)
    state = _deal(N="7S", S="8S")
    state.apply_action(Action.play(Card.parse("7S")))
    assert Action.play(Card.parse("8S")) in state.legal_actions()


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


def test_lesson_nine_lists_the_six_shapes_down_four_shows_on_the_1994_card():
    """9♠ then 5♠ in side hand 1: three_sf X.X.X, XX..X, X..XX and four_sf XX.XX, XXX.X,
    X.XXX on the 1994 card; only X.X.X on the 2008 card. The lesson lists exactly these, and
    each of them may be led top then bottom."""
    body, _ = _lesson("09-the-1994-card.md")
    part, _ = _section(body, "1. Down four in one suit says more")
    first = part.split("```")[0]
    said = _words(first)
    three = re.search(r"With three cards that is ((?:`[X.]+`(?:, | or )?)+)", said)
    four = re.search(r"with four, ((?:`[X.]+`(?:, | or )?)+)", said)
    listed = {
        "three_sf": set(re.findall(r"`([X.]+)`", three[1])),
        "four_sf": set(re.findall(r"`([X.]+)`", four[1])),
    }
    c1, c2 = Card.parse("9S"), Card.parse("5S")
    readings = decode(c1, c2, 1, C1994)
    shapes = {
        item: {r.shape for r in readings if r.item == item} for item in ("three_sf", "four_sf")
    }
    assert (
        shapes
        == listed
        == {
            "three_sf": {"X.X.X", "XX..X", "X..XX"},
            "four_sf": {"XX.XX", "XXX.X", "X.XXX"},
        }
    )
    assert {(r.item, r.shape) for r in decode(c1, c2, 1, C2008) if r.shape} == {
        ("three_sf", "X.X.X")
    }
    assert "Each of them may be shown top then bottom" in said
    window = range(5, 10)  # the ranks 5..9
    for shape in _window_ends_shapes():
        held = [card_at(c1.suit, v) for v, ch in zip(window, shape, strict=True) if ch == "X"]
        assert (c1, c2) in encode(held, 4, C1994).plays, shape
        assert ((c1, c2) in encode(held, 4, C2008).plays) == (shape == "X.X.X"), shape
    ja_body, _ = _lesson("09-the-1994-card.md", JA_LESSONS)
    ja = _ja_words(_ja_section(ja_body, "1-down-four-in-one-suit-says-more"))
    ja_first = ja.split("```")[0]
    assert set(re.findall(r"`([X.]+)`", ja_first)) == listed["three_sf"] | listed["four_sf"]


def _named_holdings(text: str) -> dict[str, str]:
    """``A-2-4-5 (`XX.XX`)`` in a lesson: shape → the ranks it names."""
    return {shape: ranks for ranks, shape in re.findall(r"(A(?:-\d)+)\s*[（(]`([X.]+)`[）)]", text)}


def _window_a5(shape: str) -> str:
    return "-".join(r for r, ch in zip(("A", "2", "3", "4", "5"), shape, strict=True) if ch == "X")


def test_lesson_nine_with_the_three_of_spades_in_sight_lists_every_reading_left():
    """5♠ then A♠ with ♠3 seen, 1994: four_sf XX.XX (A-2-4-5), three_sf XX..X (A-2-5) and
    X..XX (A-4-5), then three to a flush; 2008: no straight-flush reading, three to a flush
    first. The lesson names every holding ruled out and every one left."""
    body, _ = _lesson("09-the-1994-card.md")
    part, blocks = _section(body, "1. Down four in one suit says more")
    said = _words(part)
    paragraph = said[said.index("The wider meaning") : said.index("first:") + len("first:")]
    gone_text, left_text = paragraph.split("On the 1994 card")
    gone, left = _named_holdings(gone_text), _named_holdings(left_text)
    for shape, ranks in {**gone, **left}.items():
        assert ranks == _window_a5(shape), shape
    signal = Card.parse("5S"), Card.parse("AS")
    seen = (Card.parse("3S"),)
    assert next(b for b in blocks if b.kind == "signal").fields["visible"] == "3S"
    readings = decode(*signal, 1, C1994, seen)
    sf = [(r.item, r.shape) for r in readings if r.shape]
    assert sf == [("four_sf", "XX.XX"), ("three_sf", "XX..X"), ("three_sf", "X..XX")]
    assert set(left) == {shape for _, shape in sf}
    everything = {r.shape for r in decode(*signal, 1, C1994) if r.shape}
    assert set(gone) == everything - set(left) and all("3" in gone[s] for s in gone)
    assert readings[len(sf)].item == "three_flush"
    assert "three to a flush comes after them" in left_text
    old = decode(*signal, 1, C2008, seen)
    assert not any(r.shape for r in old) and old[0].item == "three_flush"
    assert "On the 2008 card no straight-flush reading is left, and three to a flush comes" in said
    ja = _ja_words(_lesson("09-the-1994-card.md", JA_LESSONS)[0])
    assert _named_holdings(ja) == {**gone, **left}


def test_lesson_nine_fours_are_played_out_at_once_on_this_lead():
    """1994: four of a kind has no signal; the leader plays it out at once, on this lead: any
    two of the four in either order (every ordered pair correct), partner passing after each,
    then the other two and a fifth card. Two cards of a rank read two pair."""
    body, _ = _lesson("09-the-1994-card.md")
    part, blocks = _section(body, "2. Four of a kind has no signal")
    said = _words(part)
    for claim in (
        "A leader holding one plays it out at once, on this lead: any card of the four, then "
        "another card of the four, partner passing after each, then the other two and a fifth "
        "card.",
        "Any two of the four, in either order, are a correct start",
        "after the second card partner reads two pair; a leader with two pair now passes",
        "A leader with four plays a third card of the rank instead of passing",
        "four 7s beside two Kings are played out as fours",
    ):
        assert claim in said, claim
    hand_1994, hand_2008, with_kings, same_rank, score = blocks
    queens = [c for c in block_cards(hand_1994) if c.rank == 12]
    assert len(queens) == 4
    enc = encode(block_cards(hand_1994), _side(hand_1994), C1994)
    assert enc.item == "fours"
    assert set(enc.plays) == set(itertools.permutations(queens, 2)) and len(enc.plays) == 12
    assert getattr(enc, "played_out", True)
    old = encode(block_cards(hand_2008), _side(hand_2008), C2008)
    assert old.item == "fours" and old.plays == ((Card.parse("QH"), Card.parse("QD")),)
    # "that is what the lead drills accept": every two of the four, in either order.
    params = DrillParams(convention=C1994.name, side_hand=1, items=("fours",))
    drill = make_drill("lead", 3, params)
    rank = Counter(c.rank for c in drill.hand).most_common(1)[0][0]
    four = [c for c in drill.hand if c.rank == rank]
    for c1, c2 in itertools.permutations(four, 2):
        answer = parse_answer(drill, {"c1": str(c1), "c2": str(c2)})
        assert grade(drill, answer).correct, (c1, c2)
    assert not grade(drill, parse_answer(drill, {"c1": str(four[0]), "c2": "pass"})).correct
    kings = encode(block_cards(with_kings), _side(with_kings), C1994)
    assert kings.item == "fours" and all(c1.rank == c2.rank == 7 for c1, c2 in kings.plays)
    # Partner reads two pair from any two cards of one rank, the ♥ then ♦ included.
    for c1, c2 in enc.plays:
        readings = decode(c1, c2, 1, C1994)
        assert readings[0].item == "two_pair" and all(r.item != "fours" for r in readings)
    assert decode(*block_signal(same_rank), _side(same_rank), C1994)[0].item == "two_pair"
    # The play-out is legal: card, pass, card, pass, third card instead of a pass, ...
    cards = block_cards(hand_1994)
    state = _deal(N=" ".join(map(str, cards)))
    kicker = next(c for c in cards if c.rank != 12)
    for card in [*enc.plays[0], *(q for q in queens if q not in enc.plays[0]), kicker]:
        assert str(state.current_player()) == "N"
        assert Action.play(card) in state.legal_actions()
        state.apply_action(Action.play(card))
        if len(state.played_hands) == 0:
            assert str(state.current_player()) == "S" and PASS in state.legal_actions()
            state.apply_action(PASS)
    played = state.played_hands[0]
    assert played.combination is Combination.FOURS
    assert "".join(map(str, played.played_by)) == "NNNNN"
    five, by = block_cards(score), score.fields["by"]
    assert score_hand(five, "classic", by).points == 12
    assert score_hand(five, "contribution", by).points == 8
    assert "fours score 12 under the classic rule but only 8 under the contribution rule" in said
    ja_body, _ = _lesson("09-the-1994-card.md", JA_LESSONS)
    ja = _ja_words(_ja_section(ja_body, "2-four-of-a-kind-has-no-signal"))
    for claim in (
        "このリードの回ですぐに",
        "ツーペアと読みます",
        "そのランクの3枚目を出します",
        "どちらの順でも正しく",
    ):
        assert claim in ja, claim


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


# Lessons 1 and 7: what the rules say about empty hands and "Play!" ---------------------------


def test_lesson_one_a_player_with_no_cards_gets_no_turn():
    """RULES: a player who holds no cards is skipped; the turn is not a pass and the partner
    plays every remaining card (the game itself: tests/engine/test_game.py)."""
    body, _ = _lesson("01-the-game.md")
    said = _words(body)
    assert (
        "A player with no cards left gets no turn (it does not count as a pass), and the "
        "partner finishes the hand." in said
    )
    ja = _ja_words(_lesson("01-the-game.md", JA_LESSONS)[0])
    assert "手札がなくなった人には番が回らず（パスとも数えません）" in ja


def test_lesson_seven_a_force_leaves_the_forcer_cards_unless_partner_runs_out():
    """RULES: the forced partner supplies every remaining card; if they hold too few, the
    forcing player supplies the rest (the game itself: tests/engine/test_game.py)."""
    body, _ = _lesson("07-replying.md")
    said = _words(body)
    assert "keep your own cards (only if partner runs out of cards do you supply the rest)" in said
    assert "keep every card you hold" not in said
    state = _deal(N="AS KS QS JS TS", S="2H")
    state.apply_action(Action.play(Card.parse("AS")))
    state.apply_action(FORCE)
    for _ in range(4):  # partner alone supplies the other four
        assert str(state.current_player()) == "N"
        state.apply_action(next(a for a in state.legal_actions() if a.is_play))
    assert "".join(map(str, state.played_hands[0].played_by)) == "NNNNN"
    ja = _ja_words(_lesson("07-replying.md", JA_LESSONS)[0])
    assert "パートナーのカードが途中でなくなったときだけ、残りをあなたが出します" in ja


# Phrases that taught what the card does not say ---------------------------------------------

#: Words of the old lessons that contradicted the card: the 1994 fours kept for a later lead
#: (the card plays them out at once, on this lead), four to a straight "never" in one suit (the
#: card allows it as a † fallback), "as close as possible" as a rule (it is a preference).
RETIRED_EN = (
    "later lead",
    "skip",
    "played out later",
    "play the fours out later",
    "partner is not told",
    "never two cards of one suit",
    "never one suit",
    "as close together as you can",
    "as close as possible",
    "only one sensible reading",
)
RETIRED_JA = (
    "飛ばし",
    "あとのリード",
    "後で自分がリードする回",
    "パートナーには伝わりません",
    "同じスートの2枚にしない",
    "同じスートにしない",
    "できるだけ近い",
    "読みを一つだけ残す",
)


@pytest.mark.parametrize(
    "path",
    [*sorted(LESSONS.glob("*.md")), *sorted(JA_LESSONS.glob("*.md"))],
    ids=lambda p: f"{p.parent.name}/{p.stem}",
)
def test_no_lesson_teaches_what_the_card_does_not_say(path):
    text = path.read_text(encoding="utf-8")
    if path.parent == JA_LESSONS:
        joined = _ja_words(text)
        assert [p for p in RETIRED_JA if p in joined] == []
    else:
        said = _words(text).lower()
        assert [p for p in RETIRED_EN if p in said] == []


@pytest.mark.parametrize("path", sorted(EXAMPLE_TEMPLATES.glob("*.html")), ids=lambda p: p.name)
def test_no_example_template_teaches_the_old_fours(path):
    said = _words(path.read_text(encoding="utf-8")).lower()
    assert [p for p in ("later lead", "skip it", "partner is not told") if p in said] == []


# The cheat sheet -------------------------------------------------------------------------------


def _sheet_line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(start))


@pytest.mark.parametrize("convention", [C2008, C1994], ids=lambda c: c.name)
def test_cheat_sheet_rows_say_what_the_card_says(convention):
    text = cheatsheet_text(convention)
    lowered = text.lower()
    for phrase in ("later lead", "skip it", "partner is not told", "as close as possible"):
        assert phrase not in lowered, phrase
    straight = _sheet_line(text, "four_straight  ")
    assert "any two of the four ranks" in straight and "closest" in straight
    assert "only when no other pair fits" in _sheet_line(text, "four_straight †")
    if convention is C1994:
        fours = _sheet_line(text, "fours ")
        assert "no signal" in fours and "at once" in fours and "two pair" in fours
    # The three-flush fallback: what it says partner reads first must be what partner reads.
    wide = _sheet_line(text, "three_flush †")
    first = decode(Card.parse("KS"), Card.parse("2S"), 3, convention)[0]
    if "reads as two pair first" in wide:
        assert first.item == "two_pair", convention.name
    else:
        assert first.item == "three_flush" and first.fallback
