"""Example blocks in lessons, explained by the engine.

A lesson embeds an example as a fenced block whose info word names its kind; each line is
``key: value`` and a bare line is the block's main value::

    ```hand
    S: A 5 4 2
    H: K 7
    side_hand: 1
    ```

- ``hand`` — a leader's hand (suit lines ``S: A 5 4 2`` or ``cards: AS 5S``; ``side_hand``
  1–4, default 1): the engine finds the first checklist item, the preferred lead and every
  other correct lead (encode), and what partner reads from that lead (decode).
- ``signal`` — ``4H 4C`` or ``7D pass`` (``side_hand``; ``visible``: cards the reader sees):
  every reading of the signal, primary first.
- ``score`` — five played cards (``by: NNSSN`` optional) or six left-overs: the combination and
  its value under each scoring rule.
- ``reply`` — partner's hand and the leader's ``signal``: what to do (reply advice).

The page shows the engine's answer inside a ``<details>`` disclosure, so a lesson never states a
computed answer of its own that could disagree with the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from engine.cards import Card, Suit, parse_cards, sort_cards
from engine.errors import ConcertoError
from engine.scoring import SCORING_RULES, leftover_value, score_hand
from engine.signals import (
    ITEM_TITLES,
    NO_SIGNAL_TEXT,
    Convention,
    decode,
    encode,
    reply_advice,
    signal_relations,
)

KINDS = ("hand", "signal", "score", "reply")
_SUIT_KEYS = frozenset({"s", "h", "d", "c", "♠", "♥", "♦", "♣"})
_KEYS = {
    "hand": {"cards", "side_hand", "caption"} | _SUIT_KEYS,
    "signal": {"signal", "side_hand", "visible", "caption"},
    "score": {"cards", "by", "caption"} | _SUIT_KEYS,
    "reply": {"cards", "signal", "side_hand", "caption"} | _SUIT_KEYS,
}


class ExampleError(ValueError):
    """An example block that cannot be read: unknown key, bad card, wrong number of cards."""


@dataclass(frozen=True, slots=True)
class Block:
    kind: str
    fields: dict[str, str]
    main: str


def parse_block(kind: str, text: str) -> Block:
    if kind not in KINDS:
        raise ExampleError(f"unknown example kind: {kind!r} (known: {', '.join(KINDS)})")
    fields: dict[str, str] = {}
    main: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip() and " " not in key.strip():
            fields[key.strip().lower()] = value.strip()
        else:
            main.append(line)
    unknown = sorted(set(fields) - _KEYS[kind])
    if unknown:
        raise ExampleError(f"{kind} example: unknown key {unknown[0]!r}")
    return Block(kind, fields, " ".join(main))


def _suit_line_cards(suit_text: str, ranks: str) -> list[str]:
    suit = Suit.parse(suit_text)
    return [f"{r}{suit.char}" for r in ranks.replace(",", " ").split()]


def block_cards(block: Block, *, key: str = "cards") -> tuple[Card, ...]:
    """The cards a block names under ``key`` (and, for ``cards``, its suit lines)."""
    texts: list[str] = []
    if block.fields.get(key):
        texts += block.fields[key].replace(",", " ").split()
    for name, value in block.fields.items():
        try:
            Suit.parse(name)
        except ConcertoError:
            continue
        texts += _suit_line_cards(name, value)
    if key == "cards" and block.main and block.kind in ("hand", "score"):
        texts += block.main.replace(",", " ").split()
    try:
        return tuple(parse_cards(texts))
    except ConcertoError as exc:
        raise ExampleError(f"{block.kind} example: {exc}") from exc


def _sideblock_cards(block: Block) -> int:
    raw = block.fields.get("side_hand", "1")
    if raw not in ("1", "2", "3", "4"):
        raise ExampleError(f"{block.kind} example: side_hand must be 1 to 4, not {raw!r}")
    return int(raw)


def block_signal(block: Block, text: str | None = None) -> tuple[Card, Card | None]:
    """The signal a block names: ``text``, else its ``signal`` field, else its main line."""
    text = text if text is not None else (block.fields.get("signal") or block.main)
    words = text.replace(",", " ").replace("then", " ").split()
    if len(words) != 2:
        raise ExampleError(f"{block.kind} example: a signal is two cards, or a card and 'pass'")
    try:
        c1 = Card.parse(words[0])
        c2 = None if words[1].lower() == "pass" else Card.parse(words[1])
    except ConcertoError as exc:
        raise ExampleError(f"{block.kind} example: {exc}") from exc
    if c1 == c2:
        raise ExampleError(f"{block.kind} example: {c1} cannot be played twice")
    return c1, c2


def _round(side_hand: int) -> str:
    return "strong" if side_hand <= 2 else "weak"


def _readings(c1: Card, c2: Card | None, side_hand: int, convention: Convention,
              visible: tuple[Card, ...] = ()) -> dict[str, Any]:
    readings = decode(c1, c2, side_hand, convention, visible)
    ruled_out = bool(visible) and not readings and bool(decode(c1, c2, side_hand, convention))
    return {
        "ruled_out": ruled_out,
        "readings": [
            {"title": ITEM_TITLES[r.item], "shape": r.shape, "text": r.text,
             "fallback": r.fallback}
            for r in readings
        ],
        "no_signal": NO_SIGNAL_TEXT,
        "relations": signal_relations(c1, c2).describe(),
    }


def explain_hand(block: Block, convention: Convention) -> dict[str, Any]:
    hand = block_cards(block)
    if not hand:
        raise ExampleError("hand example: no cards")
    side_hand = _sideblock_cards(block)
    enc = encode(hand, side_hand, convention)
    ctx: dict[str, Any] = {
        "cards": sort_cards(hand), "side_hand": side_hand, "round": _round(side_hand),
        "item": enc.item, "item_title": ITEM_TITLES[enc.item], "shape": enc.shape,
        "item_cards": sort_cards(enc.cards), "play": enc.preferred,
        "others": list(enc.plays[1:]),
    }
    if enc.preferred is not None:
        ctx.update(_readings(*enc.preferred, side_hand, convention))
    return ctx


def explain_signal(block: Block, convention: Convention) -> dict[str, Any]:
    c1, c2 = block_signal(block, block.fields.get("signal") or block.main)
    side_hand = _sideblock_cards(block)
    visible = block_cards(block, key="visible") if block.fields.get("visible") else ()
    return {
        "signal": (c1, c2), "side_hand": side_hand, "round": _round(side_hand),
        "visible": sort_cards(visible),
        **_readings(c1, c2, side_hand, convention, visible),
    }


def explain_score(block: Block, convention: Convention) -> dict[str, Any]:
    cards = block_cards(block)
    if len(cards) not in (5, 6):
        raise ExampleError(f"score example: five played cards or six left-overs, not {len(cards)}")
    by_text = block.fields.get("by", "").replace(" ", "")
    if by_text and len(by_text) != len(cards):
        raise ExampleError("score example: 'by' needs one seat letter per card")
    rules = []
    for name, rule in SCORING_RULES.items():
        try:
            if len(cards) == 6:
                value = leftover_value(cards, rule, by_text or None)
                rules.append({"rule": name, "combination": value.combination.label,
                              "value": value.value, "bonus": value.bonus})
            else:
                result = score_hand(cards, rule, by_text or None)
                rules.append({"rule": name, "combination": result.combination.label,
                              "value": result.points})
        except ConcertoError:
            rules.append({"rule": name, "combination": None, "value": None})
    seats = list(by_text) if by_text else [None] * len(cards)
    return {"cards": list(zip(cards, seats, strict=True)), "leftovers": len(cards) == 6,
            "rules": rules}


def explain_reply(block: Block, convention: Convention) -> dict[str, Any]:
    hand = block_cards(block)
    c1, c2 = block_signal(block, block.fields.get("signal", ""))
    if c1 in hand or c2 in hand:
        raise ExampleError("reply example: the signal's cards cannot be in your hand")
    side_hand = _sideblock_cards(block)
    advice = reply_advice(hand, c1, c2, side_hand, convention)
    return {
        "cards": sort_cards(hand), "signal": (c1, c2), "side_hand": side_hand,
        "round": _round(side_hand), "action": advice.action, "advice_cards": advice.cards,
        "reason": advice.reason,
        **_readings(c1, c2, side_hand, convention, hand),
    }


_EXPLAIN: dict[str, Callable[[Block, Convention], dict[str, Any]]] = {
    "hand": explain_hand, "signal": explain_signal, "score": explain_score,
    "reply": explain_reply,
}


def render_example(kind: str, text: str, convention: Convention) -> SafeString:
    """The HTML of one example block (raises :class:`ExampleError` for a bad block)."""
    block = parse_block(kind, text)
    ctx = _EXPLAIN[kind](block, convention)
    ctx.update({"caption": block.fields.get("caption", ""), "convention": convention})
    return SafeString(render_to_string(f"learn/examples/{kind}.html", ctx))
