"""The engine's rules commands: ``score``, ``leftovers``, ``deal`` and ``playout``.

Each prints JSON; see :mod:`engine.cli` for batch mode and exit codes::

    $ python -m engine score AH 2H 3H 4H 5H --rule contribution --by NNNSS
    {"combination": "straight_flush", "points": 20}
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from typing import Any

from engine.bots import play_game
from engine.cards import Card, parse_cards
from engine.cli_registry import command
from engine.errors import ConcertoError
from engine.game import DealState, GameState, PlayedHand
from engine.scoring import (
    CLASSIC,
    SCORING_RULES,
    ScoringRule,
    get_rule,
    leftover_value,
    parse_by,
    score_hand,
)
from engine.seats import SIDES, Seat, Side

__all__ = ["deal_json", "game_json", "played_hand_json"]


# -- argument types: argparse shows an ArgumentTypeError's message as it is -----------------------


def _rule(text: str) -> ScoringRule:
    try:
        return get_rule(text)
    except ConcertoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed: {text!r} (a whole number)") from None


def _seat(text: str) -> Seat:
    try:
        return Seat.parse(text)
    except ConcertoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_rule(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rule",
        type=_rule,
        default=CLASSIC,
        metavar="|".join(SCORING_RULES),
        help="scoring rule (default classic)",
    )


def _add_cards(parser: argparse.ArgumentParser, count: int, what: str) -> None:
    parser.add_argument(
        "cards", nargs="*", metavar="CARD", help=f"{count} cards such as AS TD 9H ({what})"
    )
    _add_rule(parser)
    parser.add_argument(
        "--by",
        metavar="SEATS",
        help="for each card, the seat of the partner who played/holds it, e.g. NNSSN",
    )


def _add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("seed_arg", nargs="?", type=_seed, metavar="SEED", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=_seed, help="random seed (a whole number)")
    parser.add_argument("--dealer", type=_seat, default=Seat.N, help="the first dealer (default N)")


def _seed_of(ns: argparse.Namespace) -> int | None:
    seed: int | None = ns.seed if ns.seed is not None else ns.seed_arg
    return seed


def _cards_of(ns: argparse.Namespace, count: int) -> tuple[Card, ...]:
    return parse_cards(" ".join(ns.cards), count=count)


# -- JSON shapes ----------------------------------------------------------------------------------


def _cards_json(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def _sides_json(values: Mapping[Side, Any]) -> dict[str, Any]:
    return {str(side): values[side] for side in SIDES}


def played_hand_json(hand: PlayedHand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "leader": str(hand.leader),
        "side": str(hand.side),
        "actions": [[str(seat), str(action)] for seat, action in hand.actions],
        "cards": [[str(seat), str(c)] for seat, c in hand.cards],
        "combination": str(hand.combination),
        "points": hand.points,
    }


def deal_json(deal: DealState) -> dict[str, Any]:
    """A finished deal: hands dealt, the eight hands, left-overs and scores."""
    out: dict[str, Any] = {
        "dealer": str(deal.dealer),
        "hands": {str(seat): _cards_json(cards) for seat, cards in deal.hands_dealt.items()},
        "played": [played_hand_json(hand) for hand in deal.played_hands],
    }
    if deal.is_terminal():
        result = deal.result()
        out["leftovers"] = _sides_json({s: _cards_json(c) for s, c in deal.leftovers().items()})
        out["leftover_values"] = _sides_json(
            {
                side: {"combination": str(v.combination), "value": v.value}
                for side, v in result.leftovers.items()
            }
        )
        out["hand_scores"] = _sides_json(result.hand_scores)
        out["leftover_bonus"] = _sides_json(result.leftover_bonus)
        out["scores"] = _sides_json(result.scores)
    return out


def game_json(game: GameState) -> dict[str, Any]:
    """A finished game: every deal, totals, game bonus, final scores and the winner."""
    outcome = game.outcome()
    return {
        "rule": game.rule.name,
        "deals": [deal_json(deal) for deal in game.deals],
        "totals": _sides_json(outcome.totals),
        "game_bonus": _sides_json(outcome.game_bonus),
        "final": _sides_json(outcome.final),
        "winner": str(outcome.winner) if outcome.winner is not None else "draw",
    }


# -- commands -------------------------------------------------------------------------------------


@command(
    "score",
    help="Score five cards played as one hand.",
    configure=lambda p: _add_cards(p, 5, "one hand"),
    wants_stdin=lambda ns: not ns.cards,
)
def run_score(ns: argparse.Namespace) -> dict[str, Any]:
    cards = _cards_of(ns, 5)
    by = None if ns.by is None else parse_by(ns.by, len(cards))
    score = score_hand(cards, ns.rule, by)
    return {"combination": str(score.combination), "points": score.points}


@command(
    "leftovers",
    help="Value six left-over cards (best five, or three pairs) and the bonus they give.",
    configure=lambda p: _add_cards(p, 6, "a side's left-overs"),
    wants_stdin=lambda ns: not ns.cards,
)
def run_leftovers(ns: argparse.Namespace) -> dict[str, Any]:
    cards = _cards_of(ns, 6)
    by = None if ns.by is None else parse_by(ns.by, len(cards))
    value = leftover_value(cards, ns.rule, by)
    return {"combination": str(value.combination), "value": value.value, "bonus": value.bonus}


@command(
    "deal",
    help="Deal four 13-card hands from a seed (the first deal of that seed's game).",
    configure=_add_seed,
    wants_stdin=lambda ns: _seed_of(ns) is None,
)
def run_deal(ns: argparse.Namespace) -> dict[str, Any]:
    seed = _seed_of(ns)
    deal = DealState.deal(ns.dealer, random.Random(seed))
    return {
        "seed": seed,
        "dealer": str(deal.dealer),
        "hands": {str(seat): _cards_json(cards) for seat, cards in deal.hands_dealt.items()},
    }


def _configure_playout(parser: argparse.ArgumentParser) -> None:
    _add_seed(parser)
    _add_rule(parser)


@command(
    "playout",
    help="Play a whole game from a seed with four random bots.",
    configure=_configure_playout,
    wants_stdin=lambda ns: _seed_of(ns) is None,
)
def run_playout(ns: argparse.Namespace) -> dict[str, Any]:
    seed = _seed_of(ns)
    assert seed is not None
    game = play_game(seed, ns.rule, ns.dealer)
    return {"rule": game.rule.name, "seed": seed, **game_json(game)}
