"""One line per finished hand: what was signalled, how it reads, what was made.

Everything here is public once the hand is over, read from the learner's seat: the signal is
the leader's first card, partner's pass, then the leader's second card or pass; its readings are
pruned only by cards South could see when the signal was given (for South's own leads, by the
completed hands alone, since South's other cards are the leader's). Nothing names a card that
is still held.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.drills.words import play_words
from engine.game import Action, ActionKind, PlayedHand
from engine.messages import COMBO_TITLES, Msg, Param, Term, Text
from engine.seats import Seat
from engine.signals import ITEM_TITLES, decode, get_convention

__all__ = ["HandSummary", "Signal", "signal_of", "summarise"]

#: A signal: ``(c1, c2)``, or ``(c1, None)`` for "c1 and pass".
Signal = tuple[Card, Card | None]


def signal_of(actions: Sequence[tuple[Seat, Action]]) -> Signal | None:
    """The leader's signal among a hand's first actions: c1, partner's pass, then c2 or a pass.

    None before the third action, or when partner played (or forced, or held no cards) instead
    of passing c1, or the leader forced after it.
    """
    if len(actions) < 3:
        return None
    (lead, a1), (other, a2), (who, a3) = actions[0], actions[1], actions[2]
    if a1.card is None or other is not lead.partner or a2.kind is not ActionKind.PASS:
        return None
    if who is not lead:
        return None
    if a3.kind is ActionKind.PASS:
        return (a1.card, None)
    if a3.card is not None:
        return (a1.card, a3.card)
    return None


def signal_json(signal: Signal | None) -> list[str] | None:
    if signal is None:
        return None
    c1, c2 = signal
    return [str(c1), "pass" if c2 is None else str(c2)]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand as the learner may know it.

    ``leader`` is the seat that played the first card; ``convention`` the card its pair plays
    (None for a ``greedy`` pair, whose leads are no signals, and then ``readings`` is empty).
    ``readings`` are the signal's item ids, primary first, pruned by what South saw; ``read`` is
    the learner's answer to the coach's quiz on this hand, when given, and ``read_correct``
    whether the read answer key accepted it.
    """

    deal_number: int
    hand_number: int
    leader: str
    side: str
    side_hand: int
    signal: Signal | None
    convention: str | None
    readings: tuple[str, ...]
    reading_text: str
    cards: tuple[tuple[str, Card], ...]
    combination: str
    points: int
    read: str | None = None
    read_correct: bool | None = None

    @property
    def primary(self) -> str | None:
        """The first reading's item id (None: no signal, or not a signalling pair)."""
        return self.readings[0] if self.readings else None

    @property
    def text(self) -> Msg:
        """The coach's one line: signal, reading, what was made."""
        combo = Term("combo_lower", self.combination) if self.combination in COMBO_TITLES else None
        made = Msg(
            "play.summary.made",
            combo=combo if combo is not None else Text(self.combination.replace("_", " ")),
            points=self.points,
        )
        leader = Term("seat", self.leader)
        if self.signal is None or self.convention is None:
            return Msg("play.summary.no_signal", hand=self.hand_number, leader=leader, made=made)
        c1, c2 = self.signal
        shown = play_words((c1, c2))
        heard: Param = (
            Term("item_lower", self.primary) if self.primary else Msg("play.summary.off_card")
        )
        if self.read is None:
            return Msg(
                "play.summary.signal",
                hand=self.hand_number,
                leader=leader,
                play=shown,
                heard=heard,
                made=made,
            )
        read: Param = Term("item_lower", self.read) if self.read in ITEM_TITLES else Text(self.read)
        return Msg(
            "play.summary.signal_read",
            hand=self.hand_number,
            leader=leader,
            play=shown,
            heard=heard,
            read=read,
            verdict=Msg("play.summary.right" if self.read_correct else "play.summary.wrong"),
            made=made,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "hand_number": self.hand_number,
            "leader": self.leader,
            "side": self.side,
            "side_hand": self.side_hand,
            "signal": signal_json(self.signal),
            "convention": self.convention,
            "readings": list(self.readings),
            "reading_text": self.reading_text,
            "cards": [[seat, str(c)] for seat, c in self.cards],
            "combination": self.combination,
            "points": self.points,
            "read": self.read,
            "read_correct": self.read_correct,
            "text": self.text,
        }


def summarise(
    hand: PlayedHand,
    *,
    deal_number: int,
    convention: str | None,
    south_cards: Sequence[Card],
    seen_before: Sequence[Card],
    read: str | None = None,
    read_correct: bool | None = None,
) -> HandSummary:
    """Summarise a finished hand. ``south_cards``: South's cards when the hand started;
    ``seen_before``: every card of the deal's earlier hands; ``convention``: the leading pair's
    card (None: the pair does not signal)."""
    lead = hand.actions[0][0]
    signal = signal_of(hand.actions)
    readings: tuple[str, ...] = ()
    text = ""
    if signal is not None and convention is not None:
        c1, c2 = signal
        if lead is Seat.S:
            visible: tuple[Card, ...] = tuple(seen_before)
        else:
            visible = (*south_cards, *seen_before)
        found = decode(c1, c2, (hand.number + 1) // 2, get_convention(convention), visible)
        readings = tuple(str(r.item) for r in found)
        text = found[0].text if found else ""
    return HandSummary(
        deal_number=deal_number,
        hand_number=hand.number,
        leader=str(lead),
        side=str(hand.side),
        side_hand=(hand.number + 1) // 2,
        signal=signal,
        convention=convention,
        readings=readings,
        reading_text=text,
        cards=tuple((str(seat), c) for seat, c in hand.cards),
        combination=str(hand.combination),
        points=hand.points,
        read=read,
        read_correct=read_correct,
    )
