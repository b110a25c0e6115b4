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
  is worth;
- ``leader`` — the leader chooses what to show with every card in view: at each hand it leads,
  it tries its correct leads (the standard partner's lead, and the encoder's play for up to two
  holdings of every checklist item it holds), plays the deal out from each with the standard
  partner on its side and the table's bots on the other, and leads the one that scores best
  for its side; partner is the standard partner, reading the signal only;
- ``sampled`` — the same search without the hidden cards (not a ceiling: a leader that could
  play): each lead is played out in ``--worlds`` deals whose unseen cards are dealt at random
  to the other three seats (as many as each holds), and the best average wins.

- ``strong`` — not a ceiling but the ``strong`` partner (:mod:`engine.bots.odds_reading`),
  which replies to a two-card signal by the odds of the hands the standard partner would have
  led it from: its row is ``python -m engine tournament --ns strong``'s on the same boards;
- ``told`` — the ``strong`` partner told the leader's whole hand when the signal is complete:
  its reply is planned against that one hand instead of the hands it draws (the reading and
  the play-out are the strong partner's). The most that better odds could give this reply.

Everything else is the standard partner's. The readers see hidden cards, so they are
measurements, never partners. The script prints points per deal against ``greedy`` with a 95%
interval and, beside ``open``'s row from the ladder (``--open``, points per deal), the share of
the greedy→open gap each closes::

    .venv/bin/python scripts/reading_ceiling.py --deals 2000 --jobs 2 --rule classic \\
        --convention parlett-2008 --open 26.43

``--readings`` instead compares three ways of reading the standard partner's signals on the
same boards, each against the item the lead shows: the decoder's first reading; the most likely
reading of :func:`engine.signals.posterior.posterior` (``--samples`` hands, model
``preferred``: the card's lead for the whole hand); and the most likely reading *of this
partner* (``policy``: ``--samples`` hands drawn from the cards the reader cannot see, each
holding the signal's two cards, kept when the standard partner itself would lead the signal
from them, tallied by the item its lead shows: the ``strong`` partner's reading, with every
draw kept instead of stopping at :data:`engine.bots.odds_reading.ENOUGH_KEPT`)::

    .venv/bin/python scripts/reading_ceiling.py --readings --deals 150

The ``signal`` row is the tournament's own figure on the same boards (checked: the script fails
if it differs from ``python -m engine tournament``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import Bot, GreedyBot
from engine.bots.base import can_pass, play
from engine.bots.hands import best_fill, keep_values
from engine.bots.odds_reading import Holding, Plan, Position, best_completion, kept_holdings
from engine.bots.signal import STRONG, SignalBot, given_signal
from engine.cards import Card
from engine.game import PASS, Action, DealState, Observation
from engine.seats import SEATS, Seat, Side
from engine.signals import encode, get_convention
from engine.signals.checklist import find_instances, hand_mask
from engine.signals.decoder import decode
from engine.signals.encoder import Play
from engine.signals.posterior import posterior
from engine.tournament import PairSpec, TournamentSpec, board_seed, run_tournament

VARIANTS = ("signal", "shown", "all", "leader", "sampled", "strong", "told")
#: Holdings of each checklist item the ``leader`` variant tries.
TRIED_PER_ITEM = 2


def best_hand(
    table: Sequence[tuple[Seat, Card]], pool: Sequence[tuple[Seat, Card]], obs: Observation
) -> Plan | None:
    """The cards of ``pool`` completing the hand on ``table`` to the most points (ties: the
    fewest of the replier's cards, then its least useful), or None when nothing scores."""
    return best_completion(table, pool, obs.seat, obs.rule, keep_values(obs.own_cards))


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

    def _follow(self, hand: int, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """This seat's next card of the hand's plan, else a pass; None without a plan, or when
        the plan has no card left for it and a pass is not allowed."""
        plan = self.plans[hand]
        if plan is None:
            return None
        todo = [c for s, c in plan if s is self.seat and c in obs.own_cards]
        if todo:
            return play(todo[0])
        return PASS if can_pass(legal) else None

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        acts = obs.current_actions
        hand = len(obs.played_hands)
        ours = bool(acts) and acts[0][0] is self.seat.partner
        signal = given_signal(obs) if len(acts) == 3 else None
        signalled = hand in self.plans or signal is not None
        if ours and signalled and (self.variant == "all" or acts[1][0] is self.seat):
            if hand not in self.plans:
                self.plans[hand] = best_hand(obs.current_cards, self._pool(obs), obs)
            move = self._follow(hand, obs, legal)
            if move is not None:
                return move
            if self.plans[hand] is not None:
                fill = best_fill(obs.current_cards, obs.own_cards, obs.seat, obs.rule)
                return play(fill.cards[0])
        if self.variant == "all" and acts and acts[0][0] is self.seat and hand in self.plans:
            move = self._follow(hand, obs, legal)
            if move is not None:
                return move
        return self.bot.choose(obs, legal)


def sampled_worlds(state: DealState, seat: Seat, count: int) -> list[DealState]:
    """``count`` deals as ``seat`` sees ``state``: the same own cards and actions, the cards it
    cannot see dealt at random to the other seats (as many as each holds), the same random
    deals every time for the same position."""
    actions = [a for hand in state.played_hands for a in hand.actions]
    actions += state.current_actions
    played: dict[Seat, list[Card]] = {s: [] for s in SEATS}
    for who, action in actions:
        if action.card is not None:
            played[who].append(action.card)
    others = [s for s in SEATS if s is not seat]
    pool = sorted((c for s in others for c in state.held(s)), key=lambda c: c.index)
    rng = random.Random(f"{seat}:{len(actions)}:{hand_mask(state.held(seat))}")
    worlds = []
    for _ in range(count):
        rng.shuffle(pool)
        hands: dict[Seat, tuple[Card, ...]] = {seat: state.hands_dealt[seat]}
        start = 0
        for s in others:
            size = len(state.held(s))
            hands[s] = (*pool[start : start + size], *played[s])
            start += size
        world = DealState(state.dealer, hands, state.rule)
        for _, action in actions:
            world.apply_action(action)
        worlds.append(world)
    return worlds


class RolloutLeader:
    """The standard partner, but choosing its leads by playing deals out: the deal itself
    (``leader``, every card in view) or ``worlds`` deals sampled from what it sees
    (``sampled``)."""

    legal_partner = False

    def __init__(
        self, bot: SignalBot, seat: Seat, state: DealState, bots: dict[Seat, Bot], worlds: int
    ) -> None:
        assert bot.convention is not None
        self.bot, self.seat, self.state, self.bots = bot, seat, state, bots
        self.worlds = worlds
        self.chosen: dict[int, Play] = {}
        self.name = "rollout-leader"

    def candidates(self, obs: Observation) -> list[Play]:
        """Correct leads of holdings the leader has: the standard partner's, then the
        encoder's play for up to :data:`TRIED_PER_ITEM` holdings of every item."""
        own = obs.own_cards
        out = [self.bot.lead_plan(own, obs.side_hand, obs.rule)]
        assert self.bot.convention is not None
        for item in self.bot.convention.checklist:
            _, instances = find_instances(hand_mask(own), (item,))
            for inst in instances[:TRIED_PER_ITEM]:
                enc = self.bot.encoding(inst.cards, obs.side_hand)
                if enc.plays and enc.plays[0] not in out:
                    out.append(enc.plays[0])
        return out

    def rollout(self, start: DealState, lead: Play) -> int:
        """The leader's side's score minus the other side's, the deal played out from ``lead``
        by the standard partner on this side and the table's bots on the other."""
        sim = start.clone()
        c1, c2 = lead
        hand = len(sim.played_hands)
        sim.apply_action(play(c1))
        while not sim.is_terminal():
            who = sim.current_player()
            assert who is not None
            obs = sim.observation(who)
            acts = obs.current_actions
            if (
                len(sim.played_hands) == hand
                and who is self.seat
                and len(acts) == 2
                and (acts[1][1] == PASS)
            ):
                sim.apply_action(play(c2) if c2 is not None else PASS)
                continue
            chooser = self.bot if who.side is self.seat.side else self.bots[who]
            sim.apply_action(chooser.choose(obs, obs.legal_actions))
        result = sim.result()
        mine = self.seat.side
        other = Side.EW if mine is Side.NS else Side.NS
        return result.scores[mine] - result.scores[other]

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        acts = obs.current_actions
        hand = len(obs.played_hands)
        if not acts:
            options = self.candidates(obs)
            best = options[0]
            if len(options) > 1:
                starts = (
                    sampled_worlds(self.state, self.seat, self.worlds)
                    if self.worlds
                    else [self.state]
                )
                best = max(options, key=lambda lead: sum(self.rollout(w, lead) for w in starts))
            self.chosen[hand] = best
            return play(best[0])
        if hand in self.chosen and len(acts) == 2 and acts[0][0] is self.seat:
            c2 = self.chosen[hand][1]
            if acts[1][1] == PASS:
                if c2 is not None:
                    return play(c2)
                if can_pass(legal):
                    return PASS
        return self.bot.choose(obs, legal)


class ToldStrong(SignalBot):
    """The ``strong`` partner told the leader's whole hand at the signal (``told``)."""

    legal_partner = False

    def __init__(self, convention: str, state: DealState) -> None:
        super().__init__(convention, strength=STRONG)
        self.state = state
        self.name = "told"

    def _kept(self, position: Position) -> list[Holding]:
        # The leader's hand when it led: what it holds now and what it has put on the table.
        # (A bot of one deal: the memo of its replies, by position, holds this deal's only.)
        held = (
            *self.state.held(position.leader),
            *(c for s, c in self.state.current_cards if s is position.leader),
        )
        shown = self._own_lead(held, position.side_hand, position.rule, position.signal)
        return [(held, shown or ())]


def _play_boards(args: tuple[str, str, str, int, int, int, int]) -> list[float]:
    variant, rule, convention, seed, start, stop, worlds = args
    bot = SignalBot(convention)
    strong = SignalBot(convention, strength=STRONG)
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
                elif variant == "strong":
                    bots[seat] = strong
                elif variant == "told":
                    bots[seat] = ToldStrong(convention, state)
                elif variant in ("leader", "sampled"):
                    count = worlds if variant == "sampled" else 0
                    bots[seat] = RolloutLeader(bot, seat, state, bots, count)
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


def compare_readings(
    deals: int, rule: str, convention: str, seed: int, samples: int
) -> dict[str, int]:
    """Over the standard partner's complete two-card signals on the first ``deals`` boards
    (table 1, against ``greedy``): how many there were, how many left more than one item to
    read, and how often the first reading and the posterior's most likely reading were the
    item the lead shows (what partner sees: own cards and the completed hands)."""
    bot = SignalBot(convention)
    conv = get_convention(convention)
    counts = {
        "signals": 0,
        "several_items": 0,
        "first_right": 0,
        "posterior_right": 0,
        "policy_right": 0,
        "policy_kept": 0,
    }
    sampler = SignalBot(convention)  # its memo tables apart from the playing bot's
    for board in range(deals):
        state = DealState.deal(Seat.N, random.Random(board_seed(seed, board)), rule)
        bots: dict[Seat, Bot] = {s: bot if s.side is Side.NS else GreedyBot() for s in SEATS}
        while not state.is_terminal():
            who = state.current_player()
            assert who is not None
            obs = state.observation(who)
            acts = obs.current_actions
            signal = given_signal(obs) if len(acts) == 3 else None
            if who.side is Side.NS and signal is not None and signal[1] is not None:
                leader = acts[0][0]
                if leader is who.partner:
                    at_lead = (
                        *state.held(leader),
                        *(c for s, c in obs.current_cards if s is leader),
                    )
                    shown = bot.shown_cards(at_lead, obs.side_hand, obs.rule)
                    item = encode(shown or at_lead, obs.side_hand, conv).item
                    seen = [c for hand in obs.played_hands for _, c in hand.cards]
                    visible = (*obs.own_cards, *seen)
                    readings = decode(signal[0], signal[1], obs.side_hand, conv, visible)
                    items = list(dict.fromkeys(r.item for r in readings))
                    post = posterior(
                        signal, obs.side_hand, len(at_lead), visible, conv, samples, board
                    )
                    counts["signals"] += 1
                    counts["several_items"] += len(items) > 1
                    counts["first_right"] += bool(items) and items[0] == item
                    counts["posterior_right"] += bool(post.items) and post.items[0].item == item
                    policy, kept = _policy_reading(
                        sampler,
                        (signal[0], signal[1]),
                        obs,
                        len(at_lead),
                        random.Random(board_seed(seed, board) ^ counts["signals"]),
                        samples,
                    )
                    counts["policy_right"] += policy == item
                    counts["policy_kept"] += kept
            state.apply_action(bots[who].choose(obs, obs.legal_actions))
    return counts


def _policy_reading(
    bot: SignalBot,
    signal: tuple[Card, Card],
    obs: Observation,
    size: int,
    rng: random.Random,
    samples: int,
) -> tuple[str | None, int]:
    """The item the standard partner's lead of ``signal`` most often shows over ``samples``
    hands of ``size`` cards holding the signal's two and drawn from the cards the reader cannot
    see, counting only hands from which it would lead the signal; and how many were kept."""
    position = Position(
        signal=signal,
        own=tuple(obs.own_cards),
        seat=obs.seat,
        leader=obs.seat.partner,
        seen=tuple(c for h in obs.played_hands for _, c in h.cards),
        size=size,
        side_hand=obs.side_hand,
        rule=obs.rule,
    )
    kept = kept_holdings(bot._own_lead, position, rng, samples, enough=None)
    conv = bot._conv()
    tally = Counter(encode(shown or hand, obs.side_hand, conv).item for hand, shown in kept)
    return (tally.most_common(1)[0][0] if tally else None), len(kept)


def measure(
    variant: str, deals: int, rule: str, convention: str, seed: int, jobs: int, worlds: int = 4
) -> tuple[float, float]:
    """Points per deal against ``greedy`` and the half-width of its 95% interval."""
    chunk = max(1, deals // (jobs * 8))
    tasks = [
        (variant, rule, convention, seed, start, min(deals, start + chunk), worlds)
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
    p.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS[:3]))
    p.add_argument("--worlds", type=int, default=4, help="deals sampled per lead (sampled)")
    p.add_argument(
        "--readings", action="store_true", help="compare the first, posterior and policy readings"
    )
    p.add_argument("--samples", type=int, default=300, help="posterior hands (--readings)")
    ns = p.parse_args(argv)
    if ns.readings:
        counts = compare_readings(ns.deals, ns.rule, ns.convention, ns.seed, ns.samples)
        n = counts["signals"]
        print(
            f"{n} signals, {counts['several_items']} with more than one item to read; "
            f"first reading right {counts['first_right'] / n:.1%}, "
            f"posterior's most likely right {counts['posterior_right'] / n:.1%}, "
            f"this partner's most likely right {counts['policy_right'] / n:.1%} "
            f"({counts['policy_kept'] / n:.0f} of {ns.samples} hands kept a signal)"
        )
        return 0
    print("| Rule | Card | Reader | Deals | Against greedy (95% CI) | Share of the gap |")
    print("|---|---|---|---|---|---|")
    for variant in ns.variants:
        mean, half = measure(variant, ns.deals, ns.rule, ns.convention, ns.seed, ns.jobs, ns.worlds)
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
