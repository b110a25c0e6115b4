"""Checking a card before a club plays it, and what changed between two versions of a card.

:func:`check_card` reports (as JSON values) whether a card is valid (every problem, each naming
its row or item), the signals it makes ambiguous (two items of one family group read from one
signal in one round, with the odds of each from :func:`~engine.signals.posterior.posterior`),
and a seeded round trip: every play the encoder makes for random hands must read back as the
hand's item. :func:`diff_cards` lists the rows added, removed and changed between two cards.

>>> from engine.signals.conventions import get_convention
>>> report = check_card(get_convention("parlett-2008"), hands=200)
>>> report["valid"], report["roundtrip"]["failures"], [a["items"] for a in report["ambiguities"]]
(True, [], [['threes', 'one_pair']])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.cards import DECK, Card
from engine.messages import Cards, Msg, Plural, Text, register_words
from engine.signals.card import ITEM_FAMILY, Convention, Row, canonical_json
from engine.signals.cardfile import CardError, InvalidCardError, card_errors, load_convention
from engine.signals.conventions import CONVENTIONS, known_conventions
from engine.signals.decoder import decode, readings_table
from engine.signals.encoder import encode, pattern_matches
from engine.signals.posterior import posterior
from engine.signals.relations import signal_relations
from engine.signals.signal import Signal

__all__ = ["ROUNDS", "check_card", "diff_cards"]

#: The rounds a signal is read in: name, side hands, and the situation the odds are taken in
#: (side hand, the leader's cards, nothing else in sight).
ROUNDS: tuple[tuple[str, tuple[int, ...], int, int], ...] = (
    ("strong", (1, 2), 1, 13),
    ("weak", (3, 4), 3, 9),
)
#: What the check says besides the card file's errors (English; the trainer's catalog
#: translates them).
register_words(
    {
        "card.error.name_taken": (
            "name %(name)s is a shipped card's (version %(shipped)s) and this card "
            "(version %(version)s) differs from it: give it a name of its own"
        ),
        "card.check_failed": "%(source)s: not a valid card (%(counts)s): %(first)s",
        "card.check_failed.errors": Plural("%(n)s error", "%(n)s errors"),
        "card.check_failed.failures": Plural(
            "%(n)s error, %(failures)s round-trip failures",
            "%(n)s errors, %(failures)s round-trip failures",
        ),
        "card.check_failed.roundtrip": "a play does not read back as its item",
        "card.error.no_play": (
            "no row gives a play for some holdings, so the item is neither signalled nor "
            "played out (for example %(cards)s)"
        ),
    }
)
#: The most failures a round trip lists (``failed`` counts them all).
MAX_FAILURES = 20


def check_card(
    card: Convention | str | Path | Mapping[str, Any],
    *,
    hands: int = 2000,
    seed: int = 0,
    samples: int = 300,
) -> dict[str, Any]:
    """The check of a card (a :class:`Convention`, a file, JSON text or parsed JSON).

    Returns ``{"valid", "name", "version", "errors", "ambiguities", "roundtrip"}``; an invalid
    card has no ambiguities and no round trip (``None``). ``hands`` random hands (from ``seed``)
    make the round trip; ``samples`` hands of partner's make each ambiguity's odds.
    """
    conv: Convention | None = None
    if isinstance(card, Convention):
        errors = card_errors(card.to_json())
        conv = card if not errors else None
    else:
        try:
            conv, errors = load_convention(card), []
        except InvalidCardError as exc:
            errors = list(exc.errors)
    if conv is None:
        return {
            "valid": False,
            "name": None,
            "version": None,
            "errors": [e.to_json() for e in errors],
            "ambiguities": [],
            "roundtrip": None,
        }
    played = _own_name(conv)
    roundtrip, unplayed = _roundtrip(played, hands, seed)
    errors = errors + _name_taken(conv) + unplayed
    return {
        "valid": not errors and not roundtrip["failed"],
        "name": conv.name,
        "version": conv.version,
        "errors": [e.to_json() for e in errors],
        "ambiguities": ambiguities(played, samples=samples),
        "roundtrip": roundtrip,
    }


def _name_taken(conv: Convention) -> list[CardError]:
    """A card that takes a shipped card's name with other content: every other command
    refuses it (:func:`~engine.signals.conventions.register_convention`), so the check does."""
    shipped = CONVENTIONS.get(conv.name)
    if shipped is None or shipped == conv:
        return []
    return [
        CardError(
            "name_taken",
            Msg(
                "card.error.name_taken",
                name=Text(f"'{conv.name}'"),
                shipped=Text(shipped.version),
                version=Text(conv.version),
            ),
            field="name",
        )
    ]


def _own_name(conv: Convention) -> Convention:
    """``conv``, renamed ``name@version`` unless it is the card registered under its name.

    Some of the engine's memo tables are keyed by a card's name (the encoder's plays, the
    reply guide's holdings): a club's edited copy of a card, checked in a process that has
    played the original, must not be served the original's entries.
    """
    if known_conventions().get(conv.name) == conv:
        return conv
    return replace(conv, name=f"{conv.name}@{conv.version}")


# ---------------------------------------------------------------------------------------------
# Ambiguities.


def _pattern_class(c1: Card, c2: Card | None) -> tuple[str, str, int]:
    """The relation class of a signal: (rank relation, suit relation, distance); a card and
    pass is ``("pass", c1's suit letter, 0)``."""
    if c2 is None:
        return ("pass", c1.suit.char, 0)
    rel = signal_relations(c1, c2)
    assert rel.suit is not None and rel.distance is not None
    return (rel.direction or "same", rel.suit, rel.distance)


def _patterns_json(classes: set[tuple[str, str, int]]) -> list[dict[str, Any]]:
    """Relation classes as patterns: distances merged into ranges, pass suits into a list."""
    out: list[dict[str, Any]] = []
    passes = sorted((k[1] for k in classes if k[0] == "pass"), key="SHDC".index)
    if passes:
        out.append({"rank": "pass", "c1_suits": passes})
    spans: dict[tuple[str, str], list[int]] = {}
    for rank, suits, d in classes:
        if rank != "pass":
            spans.setdefault((rank, suits), []).append(d)
    for (rank, suits), ds in sorted(spans.items()):
        ranges: list[list[int]] = []
        for d in sorted(ds):
            if ranges and d == ranges[-1][1] + 1:
                ranges[-1][1] = d
            else:
                ranges.append([d, d])
        out.extend({"rank": rank, "suits": suits, "distance": r} for r in ranges)
    return out


def _signal_json(c1: Card, c2: Card | None) -> list[str]:
    return [str(c1), "pass" if c2 is None else str(c2)]


def _typical(signal: tuple[Card, Card | None]) -> tuple[int, int, int, int]:
    """Sort key of an example signal: middle ranks first (no Ace edge effects)."""
    c1, c2 = signal
    return (abs(c1.rank - 9), abs((c2.rank if c2 else 9) - 7), c1.index, c2.index if c2 else 52)


def ambiguities(conv: Convention, *, samples: int = 300) -> list[dict[str, Any]]:
    """The signals with readings of two or more items from one family group in one round
    (fallback readings aside: they come last by design), one entry per family and items.

    Each entry: ``family``, ``items``, ``patterns`` (the relation classes of those signals:
    rank relation, suit relation and a range of distances; or card and pass with c1's suits),
    ``signals`` (how many concrete signals), ``example`` (one of them, middle ranks),
    ``readings`` (each item's shapes and the rows reading it in the example) and ``rounds``
    (per round: the side hands, the example's primary reading, and the ``odds`` of each item
    from :func:`~engine.signals.posterior.posterior` in the situation of :data:`ROUNDS`).
    """
    tables = readings_table(conv)
    found: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    for round_index, (round_name, _, _, _) in enumerate(ROUNDS):
        table = tables[round_index]
        for c1 in DECK:
            for c2 in (*DECK, None):
                if c1 is c2:
                    continue
                entries = table[c1.index * 53 + (52 if c2 is None else c2.index)]
                groups: dict[str, list[str]] = {}
                for reading, _ in entries:
                    if reading.fallback:
                        continue
                    group = groups.setdefault(ITEM_FAMILY[reading.item], [])
                    if reading.item not in group:
                        group.append(str(reading.item))
                for family, group in groups.items():
                    if len(group) < 2:
                        continue
                    entry = found.setdefault(
                        (family, tuple(group)), {"signals": set(), "classes": set(), "rounds": []}
                    )
                    entry["signals"].add((c1, c2))
                    entry["classes"].add(_pattern_class(c1, c2))
                    if round_name not in entry["rounds"]:
                        entry["rounds"].append(round_name)
    out: list[dict[str, Any]] = []
    for (family, items), entry in found.items():
        c1, c2 = min(entry["signals"], key=_typical)
        readings = [r for r in decode(c1, c2, 1, conv) if not r.fallback]
        out.append(
            {
                "family": family,
                "items": list(items),
                "patterns": _patterns_json(entry["classes"]),
                "signals": len(entry["signals"]),
                "example": _signal_json(c1, c2),
                "readings": [_reading_json(conv, item, c1, c2, readings) for item in items],
                "rounds": [
                    _round_json(conv, name, items, c1, c2, samples)
                    for name, *_ in ROUNDS
                    if name in entry["rounds"]
                ],
            }
        )
    out.sort(key=lambda a: (-a["signals"], a["family"], a["items"]))
    return out


def _reading_json(
    conv: Convention, item: str, c1: Card, c2: Card | None, readings: list[Any]
) -> dict[str, Any]:
    shapes = [r.shape for r in readings if r.item == item and r.shape is not None]
    rows = [
        row.id
        for row in conv.rows_for(item)
        if pattern_matches(row.pattern, c1, c2) and (row.shape is None or row.shape in shapes)
    ]
    return {"item": item, "shapes": shapes, "rows": rows}


def _round_json(
    conv: Convention, name: str, items: tuple[str, ...], c1: Card, c2: Card | None, samples: int
) -> dict[str, Any]:
    _, side_hands, side_hand, hand_size = next(r for r in ROUNDS if r[0] == name)
    readings = decode(c1, c2, side_hand, conv)
    odds = _odds(conv, c1, c2, side_hand, hand_size, samples)
    found = {item: 0.0 for item in items}
    for item, p in odds[1]:
        if item in found:
            found[item] += p
    return {
        "round": name,
        "side_hands": list(side_hands),
        "primary": str(readings[0].item) if readings else None,
        "odds": {
            "side_hand": side_hand,
            "hand_size": hand_size,
            "model": "preferred",
            "samples": odds[0],
            "items": {item: round(p, 3) for item, p in found.items()} if odds[0] else None,
        },
    }


@lru_cache(maxsize=256)
def _odds(
    conv: Convention, c1: Card, c2: Card | None, side_hand: int, hand_size: int, samples: int
) -> tuple[int, tuple[tuple[str, float], ...]]:
    """(hands found leading the signal, (item, odds) of each reading) — memoised per card
    version and situation."""
    result = posterior(
        Signal(c1, c2),
        side_hand,
        hand_size,
        (),
        conv,
        samples=samples,
        seed=0,
        max_attempts=8 * samples,
    )
    return result.samples, tuple((str(o.item), o.p) for o in result.items)


# ---------------------------------------------------------------------------------------------
# The round trip.


def _random_hand(rng: random.Random) -> list[Card]:
    """A random hand of 2..13 cards; every other one drawn mostly from a narrow band of
    ranks in one, two or four suits, so straight flushes, fours and full houses turn up."""
    size = rng.randint(2, 13)
    if rng.random() < 0.5:
        return rng.sample(DECK, size)
    suits = set(rng.sample(range(4), rng.choice((1, 2, 4))))
    lo = rng.randint(1, 10)
    ranks = {14 if r == 1 else r for r in range(lo, lo + rng.randint(5, 7)) if r <= 14}
    pool = [c for c in DECK if c.suit in suits and c.rank in ranks]
    hand = rng.sample(pool, min(size, len(pool)))
    rest = [c for c in DECK if c not in hand]
    return hand + rng.sample(rest, size - len(hand))


def _roundtrip(conv: Convention, hands: int, seed: int) -> tuple[dict[str, Any], list[CardError]]:
    rng = random.Random(f"card-check:{seed}")
    shape_of = {row.id: row.shape for row in conv.rows}
    used: set[str] = set()
    failures: list[dict[str, Any]] = []
    failed = 0
    unplayed: dict[str, list[Card]] = {}
    shown: dict[str, int] = {}
    for i in range(hands):
        hand = _random_hand(rng)
        side = 1 + i % 4
        enc = encode(hand, side, conv)
        shown[enc.item] = shown.get(enc.item, 0) + 1
        if enc.played_out or enc.item == "none":
            continue
        if not enc.plays:
            failed += 1
            unplayed.setdefault(enc.item, hand)
            if len(failures) < MAX_FAILURES:
                failures.append(_failure("no_play", hand, side, enc.item, enc.shape))
            continue
        for (c1, c2), row_id in zip(enc.plays, enc.rows, strict=True):
            used.add(row_id)
            shape = shape_of.get(row_id)
            readings = decode(c1, c2, side, conv)
            if any(r.item == enc.item and r.shape == shape for r in readings):
                continue
            failed += 1
            if len(failures) < MAX_FAILURES:
                failure = _failure("not_read", hand, side, enc.item, shape)
                failure.update(
                    play=_signal_json(c1, c2),
                    row=row_id,
                    readings=[{"item": r.item, "shape": r.shape} for r in readings],
                )
                failures.append(failure)
    errors = [
        CardError(
            "no_play",
            Msg(
                "card.at.item",
                item=Text(f"'{item}'"),
                error=Msg("card.error.no_play", cards=Cards(tuple(sorted(hand)))),
            ),
            item=str(item),
            field="rows",
        )
        for item, hand in unplayed.items()
    ]
    report = {
        "hands": hands,
        "seed": seed,
        "failed": failed,
        "failures": failures,
        "items": {str(item): shown[item] for item in (*conv.checklist, "none") if item in shown},
        "unused_rows": [row.id for row in conv.rows if row.id not in used],
    }
    return report, errors


def _failure(
    reason: str, hand: list[Card], side: int, item: str, shape: str | None
) -> dict[str, Any]:
    return {
        "reason": reason,
        "hand": [str(c) for c in sorted(hand)],
        "side_hand": side,
        "item": item,
        "shape": shape,
    }


# ---------------------------------------------------------------------------------------------
# Differences.


def _flat(row: Row) -> dict[str, Any]:
    data = row.to_json()
    out = {k: v for k, v in data.items() if k not in ("pattern", "params")}
    out.update({f"pattern.{k}": v for k, v in data["pattern"].items()})
    out.update({f"params.{k}": v for k, v in data["params"].items()})
    return out


def diff_cards(a: Convention, b: Convention) -> dict[str, Any]:
    """What changed from card ``a`` to card ``b``: the card's own fields, the checklist, and
    the rows added, removed and changed (with each changed field, ``pattern.*`` and
    ``params.*`` one by one), and the order of the rows both have when it changed.

    >>> from engine.signals.conventions import CONVENTIONS
    >>> d = diff_cards(CONVENTIONS["parlett-2008"], CONVENTIONS["teach-yourself-1994"])
    >>> [r["id"] for r in d["rows"]["removed"]], d["same"]
    (['fours', 'two_pair:out_of_range', 'two_pair:out_of_range_colour'], False)
    """
    card: dict[str, Any] = {}
    for key in ("name", "title", "description", "no_signal_text"):
        if getattr(a, key) != getattr(b, key):
            card[key] = {"a": getattr(a, key), "b": getattr(b, key)}
    rows_a = {row.id: row for row in a.rows}
    rows_b = {row.id: row for row in b.rows}
    changed = []
    for rid, row in rows_a.items():
        other = rows_b.get(rid)
        if other is None:
            continue
        fa, fb = _flat(row), _flat(other)
        fields = {
            k: {"a": fa.get(k), "b": fb.get(k)}
            for k in dict.fromkeys([*fa, *fb])
            if canonical_json(fa.get(k)) != canonical_json(fb.get(k))
        }
        if fields:
            changed.append({"id": rid, "item": str(row.item), "fields": fields})
    common_a = [rid for rid in rows_a if rid in rows_b]
    common_b = [rid for rid in rows_b if rid in rows_a]
    checklist = (
        {"a": [str(i) for i in a.checklist], "b": [str(i) for i in b.checklist]}
        if a.checklist != b.checklist
        else None
    )
    rows = {
        "added": [row.to_json() for rid, row in rows_b.items() if rid not in rows_a],
        "removed": [row.to_json() for rid, row in rows_a.items() if rid not in rows_b],
        "changed": changed,
        "order": {"a": common_a, "b": common_b} if common_a != common_b else None,
    }
    return {
        "a": {"name": a.name, "version": a.version},
        "b": {"name": b.name, "version": b.version},
        "same": a == b,
        "card": card,
        "checklist": checklist,
        "rows": rows,
    }
