"""Boards that teach something: deals found by what one seat's dealt cards hold.

A teacher asks for boards where a seat leads its side's first hand holding a chosen checklist
item (or leads a chosen row of the card, or has partner holding the cards that complete it, or
has four of a kind to play out, or a chosen par margin), and deals them at the class's tables.
The seat leads the deal's first hand, so the board's dealer is the seat on its right and the
seat's 13 dealt cards are exactly the cards it leads from: every claim about a board is a claim
about cards dealt, never about how the table will play.

Only a side's *first* hand can be promised: what a leader holds at side hands 2–4 depends on
the play. Each board is ``{"seed", "dealer", …}`` with ``seed`` the deal's seed as
``python -m engine deal --seed SEED --dealer DEALER`` deals it. Candidate seeds come from the
search seed and a counter through SHA-256, so the search is deterministic while one board's
seed says nothing about the next.

>>> search = find_boards(BoardQuery(first_item="four_sf"), count=2, seed=1)
>>> [b.item for b in search.boards], search.boards[0].dealer
(['four_sf', 'four_sf'], <Seat.W: 'W'>)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.errors import ConcertoError
from engine.game import DealState
from engine.messages import Msg, Term, Text
from engine.par import solve_deal
from engine.scoring import CLASSIC, ScoringRule
from engine.seats import Seat
from engine.signals import DEFAULT_CONVENTION, Convention, encode, reply_advice

__all__ = [
    "DEFAULT_MAX_DEALS",
    "Board",
    "BoardQuery",
    "BoardSearch",
    "BoardSearchError",
    "board_dealer",
    "board_seed",
    "completes",
    "deal_board",
    "find_boards",
    "impossible_first",
]

#: How many deals a search looks through before it says the request is too rare.
DEFAULT_MAX_DEALS = 100_000
#: The most boards one search returns.
MAX_COUNT = 200

#: With 13 cards a hand holds a rank three times, two pairs, or 12 different ranks (and so five
#: in a row); and always four of one suit. An item the card puts after all of these is never the
#: first of a 13-card hand.
_THIRTEEN_ALWAYS = ("fours", "two_threes", "full_house", "threes", "two_pair", "five_straight")


class BoardSearchError(ConcertoError):
    """A request no board can meet, or one too rare to meet in the deals searched."""


@dataclass(frozen=True)
class BoardQuery:
    """What the boards must hold. ``par_margin`` is (low, high), inclusive: the seat's side's
    par hand score minus the other side's."""

    seat: Seat = Seat.N
    side_hand: int = 1
    first_item: str | None = None
    row: str | None = None
    completes: bool = False
    play_out: bool = False
    par_margin: tuple[int, int] | None = None
    convention: Convention = DEFAULT_CONVENTION
    rule: ScoringRule = CLASSIC


@dataclass(frozen=True)
class Board:
    """One board found: where to deal it and what it holds for the seat."""

    seed: int
    dealer: Seat
    seat: Seat
    hand: tuple[Card, ...]
    item: str
    shape: str | None
    lead: tuple[Card, Card | None]
    row: str
    played_out: bool
    reply: tuple[Card, ...] | None
    par: tuple[int, int] | None

    def as_json(self) -> dict[str, Any]:
        c1, c2 = self.lead
        out: dict[str, Any] = {
            "seed": self.seed,
            "dealer": str(self.dealer),
            "seat": str(self.seat),
            "side_hand": 1,
            "hand": [str(c) for c in self.hand],
            "item": self.item,
            "shape": self.shape,
            "lead": [str(c1), "pass" if c2 is None else str(c2)],
            "row": self.row,
            "played_out": self.played_out,
        }
        if self.reply is not None:
            out["reply"] = [str(c) for c in self.reply]
        if self.par is not None:
            out["par"] = {"side": self.par[0], "other": self.par[1]}
        return out


@dataclass(frozen=True)
class BoardSearch:
    boards: tuple[Board, ...]
    deals_searched: int


def board_dealer(seat: Seat) -> Seat:
    """The dealer that gives ``seat`` the deal's first lead (the seat on its right)."""
    return seat.after(3)


def board_seed(seed: int, index: int) -> int:
    """The ``index``-th candidate deal seed of a search seeded ``seed`` (62 bits)."""
    digest = hashlib.sha256(f"concerto-boards:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def deal_board(seed: int, dealer: Seat) -> DealState:
    """The deal ``engine deal --seed SEED --dealer DEALER`` deals."""
    return DealState.deal(dealer, random.Random(seed))


def impossible_first(item: str, convention: Convention) -> bool:
    """Whether ``item`` can never be the first checklist item of 13 cards under ``convention``."""
    order = [str(i) for i in convention.checklist]
    if item == "none":
        return True
    if item not in order:
        return True
    at = order.index(item)
    always = [order.index(i) for i in _THIRTEEN_ALWAYS if i in order]
    return (len(always) == len(_THIRTEEN_ALWAYS) and at > max(always)) or (
        "four_flush" in order and at > order.index("four_flush")
    )


def completes(
    leader: tuple[Card, ...], partner: tuple[Card, ...], board_lead: Any, convention: Convention
) -> tuple[Card, ...] | None:
    """The cards partner plays to complete the leader's signal, when the card's reply advice
    is to complete it (None when partner would pass or just add a card)."""
    c1, c2 = board_lead
    if c2 is None:
        return None
    advice = reply_advice(partner, c1, c2, 1, convention, leader_cards=len(leader) - 2)
    if advice.action != "play" or advice.odds is None:
        return None
    return tuple(advice.cards)


def _check(query: BoardQuery, count: int) -> None:
    conv = query.convention
    if query.side_hand != 1:
        raise BoardSearchError(Msg("error.boards.side_hand", side_hand=query.side_hand))
    if not 1 <= count <= MAX_COUNT:
        raise BoardSearchError(Msg("error.boards.count", count=count, most=MAX_COUNT))
    if query.first_item is not None and query.first_item not in {str(i) for i in conv.checklist}:
        raise BoardSearchError(Msg("error.boards.unknown_item", item=Text(query.first_item)))
    if query.row is not None:
        row = next((r for r in conv.rows if r.id == query.row), None)
        if row is None:
            raise BoardSearchError(
                Msg("error.boards.unknown_row", row=Text(query.row), card=Text(conv.name))
            )
        if query.first_item is not None and str(row.item) != query.first_item:
            raise BoardSearchError(
                Msg(
                    "error.boards.row_item",
                    row=Text(query.row),
                    item=Term("item_lower", query.first_item),
                )
            )
    if query.play_out and not conv.unsignalled_items:
        raise BoardSearchError(Msg("error.boards.no_play_out", card=Text(conv.name)))
    if query.play_out and query.completes:
        raise BoardSearchError(Msg("error.boards.play_out_completes"))
    if query.par_margin is not None and query.par_margin[0] > query.par_margin[1]:
        low, high = query.par_margin
        raise BoardSearchError(Msg("error.boards.par_range", low=low, high=high))
    item = query.first_item
    if item is None and query.row is not None:
        item = str(next(r for r in conv.rows if r.id == query.row).item)
    if item is not None and impossible_first(item, conv):
        raise BoardSearchError(Msg("error.boards.impossible", item=Term("item_lower", item)))


def _match(query: BoardQuery, seed: int) -> Board | None:
    """The board dealt from ``seed`` when it holds what ``query`` asks; cheapest tests first."""
    dealer = board_dealer(query.seat)
    deal = deal_board(seed, dealer)
    hand = deal.hands_dealt[query.seat]
    enc = encode(hand, 1, query.convention)
    item = str(enc.item)
    if query.first_item is not None and item != query.first_item:
        return None
    if enc.preferred is None or (query.play_out and not enc.played_out):
        return None
    row = enc.rows[0]
    if query.row is not None and row != query.row:
        return None
    c1, c2 = enc.preferred
    lead: tuple[Card, Card | None] = (c1, None if c2 is None else c2)
    reply = None
    if query.completes:
        partner = deal.hands_dealt[query.seat.partner]
        reply = completes(hand, partner, lead, query.convention)
        if reply is None:
            return None
    par = None
    if query.par_margin is not None:
        low, high = query.par_margin
        solved = solve_deal(DealState(dealer, dict(deal.hands_dealt), query.rule))
        side = query.seat.side
        par = (solved[side].hand_score, solved[side.other].hand_score)
        if not low <= par[0] - par[1] <= high:
            return None
    return Board(
        seed,
        dealer,
        query.seat,
        tuple(hand),
        item,
        enc.shape,
        lead,
        row,
        enc.played_out,
        reply,
        par,
    )


def _candidates(seed: int, limit: int) -> Iterator[int]:
    for index in range(limit):
        yield board_seed(seed, index)


def find_boards(
    query: BoardQuery, count: int = 10, seed: int = 0, max_deals: int = DEFAULT_MAX_DEALS
) -> BoardSearch:
    """The first ``count`` boards (in the search's order) that hold what ``query`` asks.

    Raises :class:`BoardSearchError` when the request cannot be met (naming why), or when
    fewer than ``count`` boards turn up in ``max_deals`` deals (saying how many did).
    """
    _check(query, count)
    found: list[Board] = []
    searched = 0
    for candidate in _candidates(seed, max_deals):
        searched += 1
        board = _match(query, candidate)
        if board is not None:
            found.append(board)
            if len(found) == count:
                return BoardSearch(tuple(found), searched)
    raise BoardSearchError(
        Msg("error.boards.too_rare", found=len(found), count=count, deals=searched)
    )
