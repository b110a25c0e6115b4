"""How much could a better reader of the signals gain? Ceilings for the standard partner.

The standard partner (``signal``) plays duplicate deals against ``greedy`` (the tournament's
boards: ``--seed 1`` gives the ladder's deals), and so do two readers that are told more than
any reader can know, with the same leader:

- ``shown`` — the partner replying to a signal is told the cards the signal stands for (the
  leader's :meth:`~engine.bots.signal.SignalBot.shown_cards`: the holding of the item the lead
  shows, e.g. both pairs of a two-pair lead) and plays the best completion of the hand from
  those and its own cards: a perfect reading of the signal, better than any odds can give;
- ``all`` — after the signal both partners see each other's cards for the rest of the hand and
  play its best five together: what the rest of the leader's hand, which no signal describes,
  is worth.

Everything else is the standard partner's. The readers see hidden cards, so they are
measurements, never partners. The script prints points per deal against ``greedy`` with a 95%
interval and, beside ``open``'s row from the ladder (``--open``, points per deal), the share of
the greedy→open gap each closes::

    .venv/bin/python scripts/reading_ceiling.py --deals 2000 --jobs 2 --rule classic \\
        --convention parlett-2008 --open 26.43

The ``signal`` row is the tournament's own figure on the same boards (checked: the script fails
if it differs from ``python -m engine tournament``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import Bot, GreedyBot
from engine.bots.base import can_pass, play
from engine.bots.hands import best_fill, keep_values, points5
from engine.bots.signal import SignalBot, given_signal
from engine.cards import Card
from engine.game import PASS, Action, DealState, Observation
from engine.seats import SEATS, Seat, Side
from engine.tournament import PairSpec, TournamentSpec, board_seed, run_tournament

VARIANTS = ("signal", "shown", "all")
#: One planned hand: who plays which card.
Plan = tuple[tuple[Seat, Card], ...]


def best_hand(
    table: Sequence[tuple[Seat, Card]], pool: Sequence[tuple[Seat, Card]], obs: Observation
) -> Plan | None:
    """The cards of ``pool`` completing the hand on ``table`` to the most points (ties: the
    fewest of the replier's cards, then its least useful), or None when nothing scores."""
    need = 5 - len(table)
    keep = keep_values(obs.own_cards)
    best: tuple[tuple[int, int, int], Plan] | None = None
    for combo in combinations(pool, need):
        cards = [c for _, c in table] + [c for _, c in combo]
        seats = [s for s, _ in table] + [s for s, _ in combo]
        mine = [c for s, c in combo if s is obs.seat]
        score = (points5(cards, seats, obs.rule), -len(mine), -sum(keep.get(c, 0) for c in mine))
        if best is None or score > best[0]:
            best = (score, combo)
    return best[1] if best is not None and best[0][0] > 0 else None


class CeilingReader:
    """The standard partner, told more after partner's signal (see the module)."""

    legal_partner = False

    def __init__(
        self,
        bot: SignalBot,
        seat: Seat,
        variant: str,
        partner_held: Callable[[], Sequence[Card]],
    ) -> None:
        self.bot, self.seat, self.variant = bot, seat, variant
        self.partner_held = partner_held
        self.plans: dict[int, Plan | None] = {}
        self.name = f"{variant}-reader"

    def _pool(self, obs: Observation) -> list[tuple[Seat, Card]]:
        leader = obs.current_actions[0][0]
        on_table = {c for _, c in obs.current_cards}
        mine = [(obs.seat, c) for c in obs.own_cards]
        if self.variant == "all":
            return mine + [(leader, c) for c in self.partner_held()]
        # The leader's hand when it led: what it holds now and what it has put on the table.
        at_lead = (*self.partner_held(), *(c for s, c in obs.current_cards if s is leader))
        shown = self.bot.shown_cards(at_lead, obs.side_hand, obs.rule)
        return [(leader, c) for c in shown if c not in on_table] + mine

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        acts = obs.current_actions
        hand = len(obs.played_hands)
        ours = bool(acts) and acts[0][0] is self.seat.partner
        signalled = hand in self.plans or (len(acts) == 3 and given_signal(obs) is not None)
        if ours and signalled and (self.variant == "all" or acts[1][0] is self.seat):
            if hand not in self.plans:
                self.plans[hand] = best_hand(obs.current_cards, self._pool(obs), obs)
            plan = self.plans[hand]
            if plan is not None:
                todo = [c for s, c in plan if s is self.seat and c in obs.own_cards]
                if todo:
                    return play(todo[0])
                if can_pass(legal):
                    return PASS
                fill = best_fill(obs.current_cards, obs.own_cards, obs.seat, obs.rule)
                return play(fill.cards[0])
        if self.variant == "all" and acts and acts[0][0] is self.seat and hand in self.plans:
            plan = self.plans[hand]
            if plan is not None:
                todo = [c for s, c in plan if s is self.seat and c in obs.own_cards]
                if todo:
                    return play(todo[0])
                if can_pass(legal):
                    return PASS
        return self.bot.choose(obs, legal)


def _play_boards(args: tuple[str, str, str, int, int, int]) -> list[float]:
    variant, rule, convention, seed, start, stop = args
    bot = SignalBot(convention)
    diffs = []
    for board in range(start, stop):
        totals = {"A": 0, "B": 0}
        for table in (1, 2):
            state = DealState.deal(Seat.N, random.Random(board_seed(seed, board)), rule)
            pair_of = {Side.NS: "A", Side.EW: "B"} if table == 1 else {Side.NS: "B", Side.EW: "A"}
            bots: dict[Seat, Bot] = {}
            for seat in SEATS:
                if pair_of[seat.side] == "B":
                    bots[seat] = GreedyBot()
                elif variant == "signal":
                    bots[seat] = bot
                else:
                    bots[seat] = CeilingReader(
                        bot, seat, variant, partial(state.held, seat.partner)
                    )
            if variant == "all":
                # Both partners share one plan per hand: whoever makes it first.
                a, b = (bots[s] for s in SEATS if pair_of[s.side] == "A")
                assert isinstance(a, CeilingReader) and isinstance(b, CeilingReader)
                b.plans = a.plans
            while not state.is_terminal():
                who = state.current_player()
                assert who is not None
                obs = state.observation(who)
                state.apply_action(bots[who].choose(obs, obs.legal_actions))
            result = state.result()
            for side in (Side.NS, Side.EW):
                totals[pair_of[side]] += result.scores[side]
        diffs.append((totals["A"] - totals["B"]) / 2)
    return diffs


def measure(
    variant: str, deals: int, rule: str, convention: str, seed: int, jobs: int
) -> tuple[float, float]:
    """Points per deal against ``greedy`` and the half-width of its 95% interval."""
    chunk = max(1, deals // (jobs * 8))
    tasks = [
        (variant, rule, convention, seed, start, min(deals, start + chunk))
        for start in range(0, deals, chunk)
    ]
    with ProcessPoolExecutor(jobs) as pool:
        diffs = [d for part in pool.map(_play_boards, tasks) for d in part]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(diffs))


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rule", default="classic", choices=["classic", "contribution"])
    p.add_argument("--convention", default="parlett-2008")
    p.add_argument("--open", type=float, help="open's points per deal against greedy")
    p.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    ns = p.parse_args(argv)
    print("| Rule | Card | Reader | Deals | Against greedy (95% CI) | Share of the gap |")
    print("|---|---|---|---|---|---|")
    for variant in ns.variants:
        mean, half = measure(variant, ns.deals, ns.rule, ns.convention, ns.seed, ns.jobs)
        if variant == "signal":
            spec = TournamentSpec(
                PairSpec("signal", ns.convention), PairSpec("greedy"), ns.deals, ns.seed, ns.rule
            )
            expected = run_tournament(spec, jobs=ns.jobs).diff
            if abs(expected - mean) > 1e-4:  # the tournament rounds to 4 places
                print(f"the signal row {mean} differs from the tournament's {expected}")
                return 1
        share = f"{mean / ns.open:.1%}" if ns.open else "–"
        print(
            f"| {ns.rule} | {ns.convention} | {variant} | {ns.deals} | {mean:+.2f} "
            f"({mean - half:+.2f} to {mean + half:+.2f}) | {share} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
