"""The pair's own review as pages show it (``engine.play.pair_review``): each hand a side led,
and a pair's summary over its deals. Computed once per finished record (the Django cache, by
game and record length): a finished deal never changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext, pgettext

from engine.game import FORCE, PASS, Action
from engine.play.pair_review import PairHand, PairSummary, pair_hands, pair_summary
from engine.seats import Seat, Side
from trainer.play.models import Game
from trainer.play.presenters import _term
from trainer.play.selectors import actions_of, setup_of
from trainer.play.table_view import seat_name

__all__ = ["PairRow", "Partnership", "pair_rows", "pair_sides", "partnerships", "summary_of"]

#: How long a reviewed record is kept (it never changes once the deal is over).
KEEP_SECONDS = 24 * 3600


@dataclass(frozen=True)
class PairRow:
    """One hand of the pair's review, said in the page's language."""

    hand: PairHand
    leader: str
    signal: str
    held: str
    answer: str
    read: str
    strong: str


def answer_text(actions: tuple[Action, ...]) -> str:
    """An answer to a signal: the cards played, a pass or a force."""
    if not actions:
        return "—"
    if actions[0] == PASS:
        return pgettext("the call", "passed")
    if actions[0] == FORCE:
        return pgettext("the call", "forced")
    cards = " ".join(a.card.symbol for a in actions if a.card is not None)
    return pgettext("the call", "played %(card)s") % {"card": cards}


def _row(h: PairHand) -> PairRow:
    if h.signal is None:
        signal = gettext("no signal")
    elif h.signal[1] is None:
        signal = gettext("%(c1)s and pass") % {"c1": h.signal[0].symbol}
    else:
        signal = gettext("%(c1)s then %(c2)s") % {
            "c1": h.signal[0].symbol,
            "c2": h.signal[1].symbol,
        }
    held = _term("item", h.held_item) if h.held_item else "—"
    if h.held_item and h.signal is not None and not h.by_the_card:
        held = gettext("%(item)s (a lead the card does not give)") % {"item": held}
    reads = {
        "passed": gettext("nothing (a pass)"),
        "added": gettext("nothing it completes"),
        "forced": gettext("its own hand (a force)"),
        "other": "—",
    }
    read = _term("item", h.read) if h.read else reads[h.how]
    return PairRow(
        hand=h,
        leader=seat_name(h.leader),
        signal=signal,
        held=held,
        answer=answer_text(h.reply),
        read=read,
        strong=answer_text((h.strong,)) if h.strong is not None else "—",
    )


def pair_sides(game: Game) -> tuple[Side, ...]:
    """The sides people played: North–South at the solo table; at a live table, every side
    with a person seated when the deal was dealt."""
    if not game.live:
        return (Side.NS,)
    seats = set(game.players.values_list("seat", flat=True))
    return tuple(side for side in (Side.NS, Side.EW) if {str(s) for s in side.seats} & seats)


def _hands(game: Game, side: Side) -> tuple[PairHand, ...]:
    key = f"pair-review:{game.pk}:{game.version}:{side}"
    found = cache.get(key)
    if found is None:
        found = pair_hands(setup_of(game), actions_of(game), side)
        cache.set(key, found, KEEP_SECONDS)
    return found  # type: ignore[no-any-return]


def pair_rows(game: Game) -> list[tuple[str, list[PairRow]]]:
    """Each side people played (by name), with a row per hand it led (the deal is over)."""
    names = {Side.NS: gettext("North–South"), Side.EW: gettext("East–West")}
    return [(names[side], [_row(h) for h in _hands(game, side)]) for side in pair_sides(game)]


def summary_of(games: list[tuple[Game, Side]], convention: str) -> tuple[PairSummary, Any]:
    """A pair's summary over its finished deals (each game with the side the pair played),
    and for each costly hand the game it was in."""
    hands: list[PairHand] = []
    where: dict[int, Game] = {}
    for game, side in games:
        for h in _hands(game, side):
            hands.append(h)
            where[id(h)] = game
    summary = pair_summary(hands, convention)
    return summary, [(h, where[id(h)]) for h in summary.costly]


#: The most recent finished deals a pair's summary covers.
SUMMARY_DEALS = 40


@dataclass(frozen=True)
class Partnership:
    """A player's partnership over its finished deals: the partner (None: the bot partner),
    how many deals, the summary, and the costly hands with their games."""

    partner: str | None
    deals: int
    summary: PairSummary
    costly: list[tuple[PairHand, Game]]


def partnerships(user: Any) -> list[Partnership]:
    """``user``'s partnerships over their most recent finished deals: with the bot partner at
    the solo table, and with each person they sat beside at a live table."""
    from trainer.play.models import LivePlayer

    solo = Game.objects.filter(owner=user, live=False, status=Game.Status.FINISHED).order_by(
        "-finished_at"
    )[:SUMMARY_DEALS]
    groups: dict[str | None, list[tuple[Game, Side]]] = {}
    for game in solo:
        groups.setdefault(None, []).append((game, Side.NS))
    seated = (
        LivePlayer.objects.filter(user=user, game__status=Game.Status.FINISHED)
        .exclude(seat="")
        .select_related("game")
        .order_by("-game__finished_at")[:SUMMARY_DEALS]
    )
    for row in seated:
        seat = next(s for s in Seat if str(s) == row.seat)
        beside = (
            LivePlayer.objects.filter(game=row.game, seat=str(seat.partner))
            .select_related("user")
            .first()
        )
        name = beside.user.get_username() if beside is not None else None
        groups.setdefault(name, []).append((row.game, seat.side))
    out = []
    for partner, games in groups.items():
        convention = setup_of(games[0][0]).convention
        summary, costly = summary_of(games, convention)
        out.append(Partnership(partner, len(games), summary, costly))
    out.sort(key=lambda p: -p.deals)
    return out
