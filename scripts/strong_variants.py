"""How the strong partner's reply was chosen: its variants, paired on the same boards.

Each variant is the ``strong`` partner (:mod:`engine.bots.odds_reading`) with another way of
choosing its reply from the same kept hands of the leader's (the reading is the same):

- ``shown`` — the candidates are the replier's part of the best completion of each kept hand's
  *shown* cards (the holding the lead stands for) and its own; each is worth the most points
  the leader could then complete from those shown cards (the first ``strong`` partner);
- ``joint`` — the same over each kept hand's whole drawn hand;
- ``full`` — the candidates of ``joint``, each worth what the hand makes when it is played out
  (:func:`~engine.bots.odds_reading.play_out`: the leader's best fill after each of the
  replier's cards);
- ``strong`` — the bot as it plays: played out, and the candidates are one or two cards of each
  completion's, in every order (the replier never plays three in a row while the leader holds
  a card), and each of the replier's cards alone;
- ``no-single`` — the strong partner before that: no single card is a candidate unless it is
  one of a completion's.

The other variants are the ``strong`` bot with one of its other choices changed (both partners
are strong bots, so the replier's model of the leads changes with the leads):

- ``odds-0.2``, ``odds-0.3``, ``odds-0.5`` — the leader weighs its signal against its own best
  five taking partner to complete the signal with these odds (``completion_odds``; the bot's 0
  plays its own five whenever they make more than the signal's cards with its others);
- ``three-sf`` — three to a straight flush is signalled, not played as the leader's own five
  (no longer one of :data:`~engine.bots.signal.DRAW_ITEMS`); ``three-sf-straight`` — four to
  a straight too; ``all-draws`` — every draw; ``odds-0.3-three-sf`` and
  ``odds-0.3-three-sf-straight`` — with ``odds-0.3``;
- ``empty-pass`` — wherever the plan is empty (replying with nothing does as well as any card,
  or no drawn hand led the signal), a pass (the bot replies as the standard partner does
  there);
- ``kept-40``, ``kept-60`` — up to 300 or 450 draws of the leader's hand, stopping at 40 or 60
  kept (the bot: 150 and 20);
- ``full-house-not-over-fives`` — the leader holding three of a kind or two pairs shows its
  five-card flush or straight, not those (:data:`~engine.bots.signal.FULL_HOUSE_OVER` without
  them); ``full-house-over-four-sf`` — shows those over four to a straight flush too.
- ``hand-points`` — the strong partner before it played its side's last hand for the deal:
  its reply there is worth the hand's points alone, and it completes the hand alone as the
  standard partner does; ``reply-for-deal`` — the reply weighed with the left-over bonus
  (:func:`~engine.bots.deal_end.deal_worth`), the fill as before; ``fill-for-deal`` — the fill
  by :func:`~engine.bots.deal_end.last_fill`, the reply worth the hand's points.

Every variant plays the tournament's boards (``--seed 1``: the ladder's deals) against
``greedy``; the script prints each one's points per deal with a 95% interval, its speed, and
its difference from the first variant on the same deals (paired, with a 95% interval)::

    .venv/bin/python scripts/strong_variants.py --start 300 --deals 1000 --jobs 2 \\
        --rule contribution --variants joint full strong
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.tournament as tournament
from engine.bots import Bot, odds_reading
from engine.bots import signal as signal_bot
from engine.bots.base import can_pass, my_cards_in_hand
from engine.bots.hands import points5, side_keep
from engine.bots.odds_reading import Holding, Position, best_completion, play_out
from engine.cards import Card
from engine.game import PASS, Action, Observation
from engine.seats import Seat
from engine.tournament import PairSpec, TournamentSpec, play_boards

Option = tuple[Card, ...]


def _most_points(
    table: Sequence[tuple[Seat, Card]], cards: Sequence[Card], owner: Seat, position: Position
) -> int:
    need = 5 - len(table)
    base = [c for _, c in table]
    seats = [s for s, _ in table] + [owner] * need
    made = (points5(base + list(fill), seats, position.rule) for fill in combinations(cards, need))
    return max(made, default=0)


def _plan(
    position: Position,
    kept: Sequence[Holding],
    *,
    whole: bool,
    played_out: bool,
) -> Option:
    """The reply of the variant: candidates from the best completions, the most points on
    average over the kept hands (ties: fewer cards, then the least useful)."""
    leader = position.leader
    table = tuple((leader, c) for c in position.signal)
    # The first strong partner kept the shown cards in the encoder's order (ties between equal
    # completions follow it); whole hands are drawn in random order, so they are sorted.
    holdings = Counter(
        tuple(sorted(rest, key=lambda c: c.index)) if whole else tuple(rest)
        for rest in (
            [c for c in (hand if whole else shown or hand) if c not in position.signal]
            for hand, shown in kept
        )
    )
    if not holdings:
        return ()
    own = list(position.own)
    keep = side_keep(own, position.side_hand)
    options: set[Option] = {()}
    for rest in holdings:
        pool = [*((leader, c) for c in rest), *((position.seat, c) for c in own)]
        plan = best_completion(table, pool, position.seat, position.rule, keep)
        if plan is not None:
            options.add(tuple(c for s, c in plan if s is position.seat))

    def worth(option: Option) -> int:
        if played_out:
            return sum(play_out(table, option, r, own, position) * n for r, n in holdings.items())
        base = (*table, *((position.seat, c) for c in option))
        return sum(_most_points(base, r, leader, position) * n for r, n in holdings.items())

    return max(
        sorted(options, key=lambda o: [c.index for c in o]),
        key=lambda o: (worth(o), -len(o), -sum(keep.get(c, 0) for c in o)),
    )


PlanFunction = Callable[[Position, Sequence[Holding]], Option]
VARIANTS: dict[str, PlanFunction] = {
    "shown": lambda p, k: _plan(p, k, whole=False, played_out=False),
    "joint": lambda p, k: _plan(p, k, whole=True, played_out=False),
    "full": lambda p, k: _plan(p, k, whole=True, played_out=True),
    "strong": odds_reading.odds_plan,
    "no-single": partial(odds_reading.odds_plan, every_single=False),
}


# The variants patch names where the engine looks them up: imports there, not exports, hence
# the `attr-defined` ignores below.
_AS_IT_PLAYS = (
    signal_bot.DRAW_ITEMS,
    tournament.make_bot,  # type: ignore[attr-defined]
    signal_bot.SignalBot._reply,
    signal_bot.SignalBot._last_fill,
)
_AS_IT_READS = (signal_bot.FULL_HOUSE_OVER, signal_bot.kept_holdings)  # type: ignore[attr-defined]


def _completion_odds(odds: float) -> Callable[[], None]:
    def change() -> None:
        def make(name: str, **kwargs: Any) -> Bot:
            bot = _AS_IT_PLAYS[1](name, **kwargs)
            if isinstance(bot, signal_bot.SignalBot):
                bot.completion_odds = odds
            return bot

        tournament.make_bot = make  # type: ignore[attr-defined]

    return change


def _signalled(*items: str) -> Callable[[], None]:
    def change() -> None:
        signal_bot.DRAW_ITEMS = _AS_IT_PLAYS[0] - set(items)

    return change


def _draws(draws: int, enough: int) -> Callable[[], None]:
    def change() -> None:
        signal_bot.kept_holdings = partial(_AS_IT_READS[1], draws=draws, enough=enough)  # type: ignore[attr-defined]

    return change


def _full_house_over(remove: Sequence[str] = (), add: Sequence[str] = ()) -> Callable[[], None]:
    def change() -> None:
        signal_bot.FULL_HOUSE_OVER = (_AS_IT_READS[0] - set(remove)) | set(add)

    return change


def _together(*changes: Callable[[], None]) -> Callable[[], None]:
    def change() -> None:
        for each in changes:
            each()

    return change


def _empty_pass() -> None:
    def reply(self: signal_bot.SignalBot, obs: Observation, legal: Sequence[Action]) -> Action:
        acts = obs.current_actions
        given = signal_bot.given_signal(obs)
        if (
            given is not None
            and given[1] is not None
            and len(acts) >= 2
            and acts[1][0] is obs.seat
            and not self._partner_finishing(obs)
            and can_pass(legal)
        ):
            position = self._position(obs, (given[0], given[1]), my_cards_in_hand(obs))
            if not self._odds(position).plan:
                return PASS
        return _AS_IT_PLAYS[2](self, obs, legal)

    signal_bot.SignalBot._reply = reply  # type: ignore[method-assign]


def _no_last_fill() -> None:
    signal_bot.SignalBot._last_fill = lambda self, obs: None  # type: ignore[method-assign]


def _hand_points_reply() -> None:
    signal_bot.odds_plan = partial(odds_reading.odds_plan, for_the_deal=False)  # type: ignore[attr-defined]


#: The bot's other choices changed (each on the ``strong`` reply).
CHANGES: dict[str, Callable[[], None]] = {
    "odds-0.2": _completion_odds(0.2),
    "odds-0.3": _completion_odds(0.3),
    "odds-0.5": _completion_odds(0.5),
    "three-sf": _signalled("three_sf"),
    "all-draws": _signalled(*signal_bot.DRAW_ITEMS),
    "three-sf-straight": _signalled("three_sf", "four_straight"),
    "odds-0.3-three-sf": _together(_completion_odds(0.3), _signalled("three_sf")),
    "odds-0.3-three-sf-straight": _together(
        _completion_odds(0.3), _signalled("three_sf", "four_straight")
    ),
    "empty-pass": _empty_pass,
    "hand-points": _together(_hand_points_reply, _no_last_fill),
    "reply-for-deal": _no_last_fill,
    "fill-for-deal": _hand_points_reply,
    "kept-40": _draws(300, 40),
    "kept-60": _draws(450, 60),
    "full-house-not-over-fives": _full_house_over(remove=("five_flush", "five_straight")),
    "full-house-over-four-sf": _full_house_over(add=("four_sf",)),
}


def _chunk(args: tuple[str, TournamentSpec, int, int]) -> tuple[list[float], float]:
    variant, spec, start, stop = args
    # Each variant starts from the bot as it plays (a worker plays chunk after chunk).
    bot = signal_bot.SignalBot
    signal_bot.DRAW_ITEMS, tournament.make_bot, bot._reply, bot._last_fill = _AS_IT_PLAYS  # type: ignore[attr-defined,method-assign]
    signal_bot.FULL_HOUSE_OVER, signal_bot.kept_holdings = _AS_IT_READS  # type: ignore[attr-defined]
    signal_bot.odds_plan = VARIANTS.get(variant, odds_reading.odds_plan)  # type: ignore[attr-defined,assignment]
    CHANGES.get(variant, lambda: None)()
    # Fresh bots: their memo tables must not hold another variant's replies.
    tournament._LOCAL.bots = None
    began = time.process_time()
    boards = play_boards(spec, start, stop)
    spent = time.process_time() - began
    return [(b.tallies["A"].score - b.tallies["B"].score) / 2 for b in boards], spent


def _interval(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variants", nargs="+", choices=[*VARIANTS, *CHANGES], default=list(VARIANTS)
    )
    parser.add_argument("--start", type=int, default=0, help="first board")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", default="classic")
    parser.add_argument("--convention", default="parlett-2008")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=25)
    ns = parser.parse_args(argv)
    boards = ns.start + ns.deals
    spec = TournamentSpec(
        PairSpec("strong", ns.convention), PairSpec("greedy"), boards, ns.seed, ns.rule
    )
    steps = [(a, min(boards, a + ns.chunk)) for a in range(ns.start, boards, ns.chunk)]
    results: dict[str, list[float]] = {}
    with ProcessPoolExecutor(ns.jobs) as pool:
        for variant in ns.variants:
            parts = list(pool.map(_chunk, [(variant, spec, a, b) for a, b in steps]))
            results[variant] = [x for part, _ in parts for x in part]
            cpu = sum(spent for _, spent in parts)
            mean, half = _interval(results[variant])
            print(
                f"{ns.rule} {ns.convention} boards {ns.start}..{boards - 1} {variant}: "
                f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f}), "
                f"{ns.deals / cpu:.1f} deals per CPU second",
                flush=True,
            )
    first = ns.variants[0]
    for variant in ns.variants[1:]:
        diff = [a - b for a, b in zip(results[variant], results[first], strict=True)]
        mean, half = _interval(diff)
        print(f"{variant} - {first}: {mean:+.2f} ± {half:.2f} (paired)")


if __name__ == "__main__":
    main()
