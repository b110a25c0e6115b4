"""The signal bot: a partner that follows a convention card (``docs/signals.md``).

- **Leading**, it shows the first checklist item its cards hold with the encoder's preferred
  play (:func:`~engine.signals.encode`; the same checklist serves the strong round, side hands
  1-2, and the weak round, 3-4, so a hand without a strong item shows its weak item at once —
  the "bad distribution" case). When its own best five makes more than the hand it could make
  around the signal's cards, or the item is a draw partner seldom completes (three to a
  straight flush, three or four to a straight, three to a flush), it leads those five instead,
  with the encoder's play *for those five* (see :meth:`SignalBot.lead_plan`), so the signal
  still says what it is building. It then completes the hand from its own cards, best
  combination first and its least useful cards as kickers. When partner jumps in after the
  first card (a big hand of partner's own), it passes and lets partner finish.
- **Replying**, it reads the signal with the decoder, pruned by every card it can see, and does
  what the reply guide says (:func:`~engine.signals.reply_advice`, told how many cards the
  leader holds so that "after card and pass partner must play" holds): complete or pass. One
  deliberate change: the guide says "Play!" whenever partner's own five beats the promise; this
  bot first completes the leader's hand when it can, and forces only when it cannot. The
  ``standard`` partner also plays where the guide passes, and where it says "Play!" when a card
  is worth more on average (see *Strength*).
- **After the reply** it passes while the leader builds, adds a card that makes more at once
  without lowering what the hand can still become, and plays a fifth card that makes the most
  the hand could be.
- **Kickers** are its least useful cards (fewest partners of rank, suit and straight range),
  keeping its best cards for its own later leads; in its side's last hand, when what it keeps
  becomes left-overs, the kickers are its most dangerous cards instead, so that the side's
  left-overs stay weak.

**Strength** (:data:`STRENGTHS`): a bot is built from parts (:class:`Parts`), one for each
decision the strengths make differently, and each strength is one set of them (:data:`PARTS`).
The ``standard`` partner leads for full houses (:func:`full_house_lead`). When the first item
of its cards is a draw or a five-card flush or straight (:data:`FULL_HOUSE_OVER`) and it holds
three of a kind or two pairs, it shows those instead (the encoder's play for the three, else
for its two lowest pairs): partner adds a pair to the three, or a card of the pair's rank, and
full houses (8 points) are what the par solver's best hands are mostly made of. Replying, it
plays where the guide would pass: after two pairs shown by their higher pair with no third of
that rank, a card of the rank most likely to be the leader's other pair
(:func:`hidden_pair_guess`, which also replaces "Play!" when its expected points beat partner's
own five); where its cards complete fewer than half the holdings the signal allows, the best of
them anyway (:func:`long_shot`). Measured against ``greedy`` on 2,500 duplicate deals per block,
it gains 1.0 to 1.9 points per deal over the ``beginner`` partner, which leads the card's first
item (or its best five) and replies exactly as the reply guide says (docs/bot-ladder.md, "How
the standard partner was tuned"). The ``strong`` partner leads as the standard one and replies
to a two-card signal by the odds of the hands partner could have led it from
(:func:`read_by_odds`, :func:`reply_by_odds`; ``partner_leads`` says whether partner leads as
this bot does or, being a person, by the card), falling back on the standard reply where no card
of its own adds points on average. In its side's last hand it plays for the deal, not for the
hand's points alone (:func:`deal_fill`, :mod:`engine.bots.deal_end`): its reply, and the cards
with which it completes the hand itself, are weighed with the six cards the side keeps, which
cost ten times their value when the side loses the hand scores. All three follow the card: every
lead is a correct lead of an item the leader holds.

It sees only its :class:`~engine.game.Observation`, and plays with any
:class:`~engine.signals.Convention`.

>>> import random
>>> from engine.game import DealState
>>> state = DealState.deal("N", random.Random(1))
>>> obs = state.observation(state.current_player())
>>> bot = SignalBot()
>>> action = bot.choose(obs, obs.legal_actions)
>>> encode(obs.own_cards, 1).plays[0][0] is action.card
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from math import comb
from typing import NamedTuple, TypeVar

from engine.bots.base import acting_leader, can_pass, my_cards_in_hand, play
from engine.bots.deal_end import Stakes, last_fill
from engine.bots.greedy import partner_move
from engine.bots.hands import best_fill, points5, reach, side_keep
from engine.bots.odds_reading import Holding, Position, kept_holdings, odds_plan
from engine.cards import Card
from engine.game import FORCE, PASS, Action, ActionKind, Observation
from engine.scoring import CLASSIC, Combination, ScoringRule, best_five
from engine.seats import Seat
from engine.signals import Advice, Convention, Encoding, encode, get_convention, reply_advice
from engine.signals.checklist import hand_mask
from engine.signals.decoder import decode, primary_reading
from engine.signals.encoder import Play
from engine.signals.reply import PROMISE

__all__ = [
    "BEGINNER",
    "DRAW_ITEMS",
    "FULL_HOUSE_OVER",
    "JUMP_IN_POINTS",
    "PARTNER_LEADS",
    "PARTS",
    "STANDARD",
    "STRENGTHS",
    "STRONG",
    "FillPart",
    "Guess",
    "LeadPart",
    "Parts",
    "ReadingPart",
    "ReplyPart",
    "Signal",
    "SignalBot",
    "deal_fill",
    "first_item",
    "full_house_lead",
    "given_signal",
    "hand_fill",
    "hidden_pair_guess",
    "long_shot",
    "read_by_card",
    "read_by_odds",
    "reply_by_guide",
    "reply_by_odds",
]

#: A given signal: ``(c1, c2)``, ``c2`` None for "c1 and pass".
Signal = tuple[Card, Card | None]

_CACHE_LIMIT = 50_000
#: Positions whose odds reply is kept: each is asked again only within its hand.
_ODDS_CACHE_LIMIT = 2_000


class _Odds(NamedTuple):
    """The odds reading of a signal and the reply it plans."""

    item: str | None
    plan: tuple[Card, ...]


_K = TypeVar("_K")
_V = TypeVar("_V")


def _remember(table: dict[_K, _V], key: _K, value: _V, limit: int = _CACHE_LIMIT) -> _V:
    """Keep ``value`` under ``key`` in a memo table, emptied first when it holds ``limit``."""
    if len(table) > limit:
        table.clear()
    table[key] = value
    return value


#: Items the leader does not signal from its whole hand: draws to a straight flush, straight
#: or flush that partner completes too seldom. The leader plays its own best five instead,
#: showing them by the encoder (measured against ``greedy`` on 2,500 duplicate deals: about
#: +0.75 points per deal; docs/bot-ladder.md, "The round before").
DRAW_ITEMS = frozenset({"three_sf", "four_straight", "three_flush", "three_straight"})
#: The partner's strengths: ``beginner`` signals the first item of what it holds (or its best
#: five, see :data:`DRAW_ITEMS`); ``standard`` also leads for full houses.
BEGINNER = "beginner"
STANDARD = "standard"
#: ``strong``: the standard partner's leads, and replies to two-card signals by the odds of the
#: hands partner could have led them from (:mod:`engine.bots.odds_reading`).
STRONG = "strong"
STRENGTHS = (BEGINNER, STANDARD, STRONG)
#: Whose leads a ``strong`` partner reads: ``bot``, a partner leading as it does itself (the
#: standard partner's leads); ``card``, a person leading by the card (any of the encoder's
#: accepted plays of the first item of the hand, as the lead drills and the coach teach).
PARTNER_LEADS = ("bot", "card")
#: Items the ``standard`` partner does not show when it holds three of a kind or two pairs: it
#: shows those instead, for partner to make a full house of them. (Showing them over four to a
#: straight flush too measured 0.6 to 0.8 points per deal worse.)
FULL_HOUSE_OVER = frozenset(
    {
        "three_sf",
        "five_flush",
        "five_straight",
        "four_flush",
        "four_straight",
        "three_flush",
        "three_straight",
    }
)
#: Before the signal, partner plays at once instead of passing when the led card and four of
#: its own make this much: fours or a straight flush, the card's "big hand" (docs/signals.md).
JUMP_IN_POINTS = 12


def given_signal(obs: Observation) -> Signal | None:
    """The leader's signal in the current hand, once given: c1, partner's pass, then c2 or a
    pass. None before it is complete, or when partner played instead of passing c1."""
    acts = obs.current_actions
    if len(acts) < 3:
        return None
    (lead, a1), (_, a2), (who, a3) = acts[0], acts[1], acts[2]
    if a1.card is None or a2.kind is not ActionKind.PASS or who is not lead:
        return None
    if a3.kind is ActionKind.PASS:
        return (a1.card, None)
    if a3.card is not None:
        return (a1.card, a3.card)
    return None


def _with_played(shown: tuple[Card, ...], plan: Play) -> tuple[Card, ...]:
    """``shown`` with each played card in it: the encoder's holding may name another card of
    the played card's rank (a pair's other twin), which the lead did not play."""
    if not shown:
        return shown
    out = list(shown)
    for card in plan:
        if card is None or card in out:
            continue
        twins = [i for i, c in enumerate(out) if c.rank == card.rank and c not in plan]
        if twins:
            out[twins[0]] = card
    return tuple(out)


def _stakes(obs: Observation) -> Stakes | None:
    """In the side's last hand, the hand scores of the seat's side and of the other (public);
    None before it."""
    if obs.side_hand != 4:
        return None
    side = obs.seat.side
    return Stakes(obs.hand_scores[side], obs.hand_scores[side.other])


class SignalBot:
    """Leads by the convention's encoder, replies by its reply guide (see the module)."""

    name = "signal"

    def __init__(
        self,
        convention: Convention | str | None = None,
        *,
        completion_odds: float = 0.0,
        strength: str = STANDARD,
        partner_leads: str = "bot",
        parts: Parts | None = None,
    ) -> None:
        """``completion_odds``: how likely the leader takes partner to complete a signal
        when it weighs signalling against playing its own best five (0: signal only with
        cards of its own best hand, which measured best against ``greedy``). ``strength``:
        one of :data:`STRENGTHS`. ``partner_leads``: one of :data:`PARTNER_LEADS` (read by
        :func:`read_by_odds` and :func:`reply_by_odds` only). ``parts``: what the bot is built
        from, in place of the strength's (:data:`PARTS`)."""
        if strength not in STRENGTHS:
            raise ValueError(f"unknown strength: {strength!r} (choose {', '.join(STRENGTHS)})")
        if partner_leads not in PARTNER_LEADS:
            raise ValueError(
                f"unknown partner_leads: {partner_leads!r} (choose {', '.join(PARTNER_LEADS)})"
            )
        self.partner_leads = partner_leads
        self.convention = get_convention(convention) if convention is not None else None
        self.completion_odds = completion_odds
        self.strength = strength
        self.parts = PARTS[strength] if parts is None else parts
        self.name = self.parts.name
        self._encodings: dict[tuple[int, int], Encoding] = {}
        self._advice: dict[tuple[object, ...], Advice] = {}
        self._plans: dict[tuple[int, int, str], tuple[Play, tuple[Card, ...]]] = {}
        self._odds_plans: dict[str, _Odds] = {}

    def _conv(self) -> Convention:
        return self.convention if self.convention is not None else get_convention("parlett-2008")

    def encoding(self, cards: Sequence[Card], side_hand: int) -> Encoding:
        """The encoder's answer for ``cards`` (memoised: the lead and the second card of a
        signal ask about the same cards)."""
        key = (hand_mask(cards), side_hand)
        found = self._encodings.get(key)
        if found is None:
            found = _remember(self._encodings, key, encode(tuple(cards), side_hand, self._conv()))
        return found

    def advice(
        self,
        hand: Sequence[Card],
        signal: Signal,
        side_hand: int,
        visible: Sequence[Card],
        leader_cards: int,
    ) -> Advice:
        """The reply guide's advice (memoised per position)."""
        key = (hand_mask(hand), signal, side_hand, hand_mask(visible), leader_cards)
        found = self._advice.get(key)
        if found is None:
            advice = reply_advice(
                tuple(hand),
                signal[0],
                signal[1],
                side_hand,
                self._conv(),
                tuple(visible),
                leader_cards=leader_cards,
            )
            found = _remember(self._advice, key, advice)
        return found

    def lead_plan(self, cards: Sequence[Card], side_hand: int, rule: ScoringRule) -> Play:
        """The first two cards of a hand led from ``cards`` (second None: "c1 and pass").

        The encoder's preferred play, unless the leader's own best five already makes more than
        what the signal is expected to bring (the promised combination when partner completes
        it, with odds ``completion_odds``, else the leader's best hand with the signal cards),
        or the hand's item is a draw partner seldom completes (:data:`DRAW_ITEMS`) and the
        leader's own five make something: then it shows those five (the encoder's play for them
        alone) and plays them out, so partner reads what the leader is making and can still add
        to it.
        """
        return self._lead_choice(cards, side_hand, rule)[0]

    def shown_cards(
        self, cards: Sequence[Card], side_hand: int, rule: ScoringRule
    ) -> tuple[Card, ...]:
        """The cards whose item the lead from ``cards`` shows (the encoder's cards for the
        holding its play signals, the played cards among them): what partner should read, when
        the bot leads a part of its hand rather than its first item. Empty when the lead shows
        nothing (its first card is then simply the first of its best hand)."""
        return self._lead_choice(cards, side_hand, rule)[1]

    def _lead_choice(
        self, cards: Sequence[Card], side_hand: int, rule: ScoringRule
    ) -> tuple[Play, tuple[Card, ...]]:
        key = (hand_mask(cards), side_hand, rule.name)
        found = self._plans.get(key)
        if found is not None:
            return found
        found = self._decide_lead(cards, side_hand, rule)
        assert found is not None
        return _remember(self._plans, key, found)

    def _decide_lead(
        self,
        cards: Sequence[Card],
        side_hand: int,
        rule: ScoringRule,
        want: tuple[Card, Card] | None = None,
    ) -> tuple[Play, tuple[Card, ...]] | None:
        """:meth:`lead_plan` and :meth:`shown_cards` of ``cards``. Given ``want``, None as soon
        as the lead cannot be that two-card signal, sparing the work a sampler of partner's
        hands does not need (the answer is otherwise the same; its hands are drawn at random, so
        the whole hand's encoding is not kept in the memo table)."""
        enc = (
            self.encoding(cards, side_hand)
            if want is None
            else encode(tuple(cards), side_hand, self._conv())
        )
        plan: Play
        shown: tuple[Card, ...] = enc.cards
        full = self.parts.lead(self, cards, side_hand, enc)
        if full is not None:
            plan, shown = full
        elif not enc.plays:
            if want is not None:
                return None  # the lead is a card and a pass
            solo = best_fill((), cards, Seat.N, rule)
            plan, shown = (solo.cards[0], None), ()
        else:
            plan = enc.plays[0]
            solo = best_fill((), cards, Seat.N, rule)
            if want is not None and plan != want and not set(want) <= set(solo.cards):
                return None  # a switch to the own five would lead two of those five
            # The leader's own five replace the signal when they make something and the item is
            # a draw, or when they beat what the signal's cards are expected to bring (nothing
            # beats it when they make nothing, so the second fill is asked only then).
            switch = solo.points > 0 and enc.item in DRAW_ITEMS
            if solo.points > 0 and not switch:
                signal_cards = [c for c in plan if c is not None]
                rest = [c for c in cards if c not in signal_cards]
                on_table = [(Seat.N, c) for c in signal_cards]
                fallback = best_fill(on_table, rest, Seat.N, rule).points
                promised = CLASSIC.values[PROMISE[enc.item]] if enc.item in PROMISE else 0
                odds = self.completion_odds
                switch = solo.points > fallback and (
                    solo.points >= odds * promised + (1 - odds) * fallback
                )
            if switch:
                five = self.encoding(solo.cards, side_hand)
                if five.plays:
                    plan, shown = five.plays[0], five.cards
                else:
                    plan, shown = (solo.cards[0], solo.cards[1]), ()
        if want is not None and plan != want:
            return None
        return plan, _with_played(shown, plan)

    def _own_lead(
        self, cards: Sequence[Card], side_hand: int, rule: ScoringRule, signal: tuple[Card, Card]
    ) -> tuple[Card, ...] | None:
        """:data:`~engine.bots.odds_reading.LeadModel` of a partner leading as this bot does."""
        found = self._decide_lead(cards, side_hand, rule, signal)
        return None if found is None else found[1]

    def _card_lead(
        self, cards: Sequence[Card], side_hand: int, rule: ScoringRule, signal: tuple[Card, Card]
    ) -> tuple[Card, ...] | None:
        """:data:`~engine.bots.odds_reading.LeadModel` of a person leading by the card: any of
        the encoder's accepted plays of the hand's first item."""
        enc = encode(tuple(cards), side_hand, self._conv())
        return _with_played(enc.cards, signal) if signal in enc.plays else None

    def _position(
        self, obs: Observation, signal: tuple[Card, Card], mine: Sequence[Card]
    ) -> Position:
        leader = obs.current_actions[0][0]
        return Position(
            signal=signal,
            own=tuple(sorted((*obs.own_cards, *mine), key=lambda c: c.index)),
            seat=obs.seat,
            leader=leader,
            seen=tuple(c for hand in obs.played_hands for _, c in hand.cards),
            size=obs.card_counts[leader] + sum(1 for s, _ in obs.current_cards if s is leader),
            side_hand=obs.side_hand,
            rule=obs.rule,
            stakes=_stakes(obs),
        )

    def _odds(self, position: Position) -> _Odds:
        """For ``position``, the odds reading (the item most of the kept hands' leads show;
        ties: the card's reading order; None when no hand was kept) and the cards of its reply
        (memoised per position: every turn of the hand asks again)."""
        key = position.seed()
        found = self._odds_plans.get(key)
        if found is None:
            kept = self._kept(position)
            reply = _Odds(self._likeliest_item(position, kept), odds_plan(position, kept))
            found = _remember(self._odds_plans, key, reply, _ODDS_CACHE_LIMIT)
        return found

    def _kept(self, position: Position) -> list[Holding]:
        """The leader's hands the odds reading weighs (:func:`kept_holdings`, by the lead
        model of :attr:`partner_leads`)."""
        lead = self._own_lead if self.partner_leads == "bot" else self._card_lead
        return kept_holdings(lead, position)

    def _likeliest_item(self, position: Position, kept: Sequence[Holding]) -> str | None:
        items = Counter(
            self.encoding(shown or hand, position.side_hand).item for hand, shown in kept
        )
        if not items:
            return None
        c1, c2 = position.signal
        order = [r.item for r in decode(c1, c2, position.side_hand, self._conv())]
        return max(
            items,
            key=lambda i: (items[i], -order.index(i) if i in order else -len(order)),
        )

    def reading(self, obs: Observation) -> str | None:
        """The item this bot reads in partner's signal just completed (``obs``: its turn right
        after the signal), by its reading part; None when nothing reads."""
        signal = given_signal(obs)
        return None if signal is None else self.parts.reading(self, obs, signal)

    def _keep(self, obs: Observation) -> dict[Card, int]:
        return side_keep(obs.own_cards, obs.side_hand)

    def _fill(self, obs: Observation) -> Action:
        last = self._last_fill(obs)
        if last is not None:
            return play(last[0])
        fill = best_fill(obs.current_cards, obs.own_cards, obs.seat, obs.rule, self._keep(obs))
        return play(fill.cards[0])

    def _last_fill(self, obs: Observation) -> tuple[Card, ...] | None:
        """The cards the fill part completes the hand with; None: the hand's best fill."""
        return self.parts.fill(self, obs)

    # -- the turns -------------------------------------------------------------------------------

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        obs = observation
        if obs.forced_by is obs.seat.partner:
            return self._fill(obs)
        if acting_leader(obs) is obs.seat:
            return self._lead(obs, legal_actions)
        return self._reply(obs, legal_actions)

    def _lead(self, obs: Observation, legal: Sequence[Action]) -> Action:
        acts = obs.current_actions
        me = obs.seat
        if not acts:
            return play(self.lead_plan(obs.own_cards, obs.side_hand, obs.rule)[0])
        if len(acts) == 2 and acts[1][1].kind is ActionKind.PASS:
            c1 = acts[0][1].card
            assert c1 is not None
            first, second = self.lead_plan((*obs.own_cards, c1), obs.side_hand, obs.rule)
            if first is c1:
                if second is None:
                    return PASS if can_pass(legal) else self._fill(obs)
                return play(second)
            return self._fill(obs)
        if len(acts) == 2 and acts[1][1].is_play and acts[1][0] is me.partner and can_pass(legal):
            # Partner played at once on c1: a big hand of partner's own. Let partner finish.
            return PASS
        if self._partner_finishing(obs) and can_pass(legal):
            return PASS
        return self._fill(obs)

    @staticmethod
    def _partner_finishing(obs: Observation) -> bool:
        acts = obs.current_actions
        return len(acts) >= 2 and acts[1][1].is_play and acts[1][0] is obs.seat.partner

    def _reply(self, obs: Observation, legal: Sequence[Action]) -> Action:
        acts = obs.current_actions
        me = obs.seat
        rule: ScoringRule = obs.rule
        mine = my_cards_in_hand(obs)
        if len(acts) == 1:
            # Before the signal: pass, unless c1 and four of mine make a big hand now.
            fill = best_fill(obs.current_cards, obs.own_cards, me, rule, self._keep(obs))
            if fill.points >= JUMP_IN_POINTS and len(fill.cards) == 4 and can_pass(legal):
                return play(fill.cards[0])
            return PASS if can_pass(legal) else self._fill(obs)
        if self._partner_finishing(obs) and acts[1][0] is me:
            return self._fill(obs)
        signal = given_signal(obs)
        if signal is not None and acts[1][0] is me:
            own = self.parts.reply(self, obs, legal, signal, mine)
            if own is not None:
                return own
        if signal is not None:
            leader = acts[0][0]
            after = [c for s, c in obs.current_cards[2:] if s is leader]
            seen = [c for hand in obs.played_hands for _, c in hand.cards]
            advice = self.advice(
                (*obs.own_cards, *mine),
                signal,
                obs.side_hand,
                seen,
                obs.card_counts[leader] + len(after),
            )
            if advice.action == "play":
                rest = [c for c in advice.cards if c not in mine]
                if all(c in advice.cards for c in mine) and rest:
                    return play(rest[0])
            elif advice.action == "force" and not mine:
                alt = self._completion(obs, signal, seen, leader)
                if alt is not None:
                    return alt
                guess = self._guess(self.parts.on_force, obs, signal, seen, advice)
                if guess is not None:
                    return play(guess)
                if FORCE in legal:
                    return FORCE
            elif advice.action == "pass" and not mine and len(acts) == 3 and can_pass(legal):
                guess = self._guess(self.parts.on_pass, obs, signal, seen, advice)
                return PASS if guess is None else play(guess)
        return self._help(obs, legal)

    def _guess(
        self,
        guesses: Sequence[Guess],
        obs: Observation,
        signal: Signal,
        seen: Sequence[Card],
        advice: Advice,
    ) -> Card | None:
        """The card of the first of ``guesses`` that plays one; None when none does."""
        for guess in guesses:
            card = guess(self, obs, signal, seen, advice)
            if card is not None:
                return card
        return None

    def _completion(
        self, obs: Observation, signal: Signal, seen: Sequence[Card], leader: Seat
    ) -> Action | None:
        """The guide's completing card, asked without the force test: the guide says "Play!"
        whenever partner's own five beats the promise, even when partner could complete the
        leader's hand; this bot completes first and forces only when it cannot."""
        c1, c2 = signal
        if c2 is None:
            return None
        related = [
            c
            for c in obs.own_cards
            if c.suit is c1.suit
            or c.suit is c2.suit
            or min(abs(c.rank - c1.rank), abs(c.rank - c2.rank)) <= 4
        ]
        related.sort(
            key=lambda c: (c.rank not in (c1.rank, c2.rank), c.suit is not c1.suit, c.index)
        )
        advice = self.advice(related[:4], signal, obs.side_hand, seen, obs.card_counts[leader])
        if advice.action == "play":
            return play(advice.cards[0])
        return None

    def _help(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """After the reply: pass while the leader builds, complete the hand with a fifth card
        that makes everything it could still be, play when a pass is not allowed."""
        table = obs.current_cards
        if len(table) == 4:
            cards = [c for _, c in table]
            seats = [s for s, _ in table]
            target = reach(cards)
            for c in sorted(obs.own_cards, key=lambda c: c.index):
                if points5([*cards, c], [*seats, obs.seat], obs.rule) >= target:
                    return play(c)
        if can_pass(legal):
            if len(table) < 4:
                move = partner_move(obs, legal)
                if move.is_play:
                    return move
            return PASS
        return partner_move(obs, legal)


# -- the parts -----------------------------------------------------------------------------------
# A part makes one decision the strengths make differently; the bot makes the rest the same way
# at every strength. Each takes the bot first, for its convention and memo tables.

#: A lead other than the first item of ``cards`` (``enc``: their encoding) for the side's hand
#: ``side_hand``: the play and the cards it shows; None leads the first item.
LeadPart = Callable[
    [SignalBot, Sequence[Card], int, Encoding], tuple[Play, tuple[Card, ...]] | None
]
#: The item read in partner's completed ``signal``; None when nothing reads.
ReadingPart = Callable[[SignalBot, Observation, Signal], str | None]
#: Partner's own reply to ``signal`` (``mine``: its cards in the hand so far); None replies by
#: the reply guide.
ReplyPart = Callable[
    [SignalBot, Observation, Sequence[Action], Signal, tuple[Card, ...]], Action | None
]
#: A card played instead of the guide's pass or "Play!" (``seen``: the finished hands' cards,
#: ``advice``: the guide's); None leaves the guide's action.
Guess = Callable[[SignalBot, Observation, Signal, Sequence[Card], Advice], Card | None]
#: The cards that complete the hand when it is this seat's to complete; None: the hand's best
#: fill.
FillPart = Callable[[SignalBot, Observation], tuple[Card, ...] | None]


def first_item(
    bot: SignalBot, cards: Sequence[Card], side_hand: int, enc: Encoding
) -> tuple[Play, tuple[Card, ...]] | None:
    """No other lead: the first item (or the leader's own five, at every strength)."""
    return None


def full_house_lead(
    bot: SignalBot, cards: Sequence[Card], side_hand: int, enc: Encoding
) -> tuple[Play, tuple[Card, ...]] | None:
    """Over the items of :data:`FULL_HOUSE_OVER`, the encoder's play for a three of the
    leader's (the lowest), else for its two lowest pairs, with the cards it shows; None without
    either."""
    if enc.item not in FULL_HOUSE_OVER:
        return None
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(cards, key=lambda c: c.index):
        by_rank.setdefault(c.rank, []).append(c)
    threes = [g for g in by_rank.values() if len(g) >= 3]
    pairs = sorted((g for g in by_rank.values() if len(g) == 2), key=lambda g: g[0].rank)
    if threes:
        shown = min(threes, key=lambda g: g[0].rank)[:3]
    elif len(pairs) >= 2:
        shown = pairs[0] + pairs[1]
    else:
        return None
    found = bot.encoding(shown, side_hand)
    return (found.plays[0], found.cards) if found.plays else None


def read_by_card(bot: SignalBot, obs: Observation, signal: Signal) -> str | None:
    """The decoder's first reading, pruned by the reader's cards and the finished hands'."""
    seen = [c for hand in obs.played_hands for _, c in hand.cards]
    first = primary_reading(
        signal[0], signal[1], obs.side_hand, bot._conv(), (*obs.own_cards, *seen)
    )
    return first.item if first is not None else None


def read_by_odds(bot: SignalBot, obs: Observation, signal: Signal) -> str | None:
    """For a two-card signal, the item most of the hands partner could have led it from show
    (:meth:`SignalBot._odds`; ties: the card's reading order); else, and when no hand was kept,
    :func:`read_by_card`."""
    c1, c2 = signal
    if c2 is not None:
        item = bot._odds(bot._position(obs, (c1, c2), my_cards_in_hand(obs))).item
        if item is not None:
            return item
    return read_by_card(bot, obs, signal)


def reply_by_guide(
    bot: SignalBot,
    obs: Observation,
    legal: Sequence[Action],
    signal: Signal,
    mine: tuple[Card, ...],
) -> Action | None:
    """No reply of its own: the reply guide's."""
    return None


def reply_by_odds(
    bot: SignalBot,
    obs: Observation,
    legal: Sequence[Action],
    signal: Signal,
    mine: tuple[Card, ...],
) -> Action | None:
    """To a two-card signal, the cards of the odds plan (:func:`odds_plan`, weighed by the
    hands partner could have led it from) one at a time, then a pass; None (the guide's reply)
    to a card and a pass, or when no card of its own adds points on average."""
    c1, c2 = signal
    if c2 is None:
        return None
    plan = bot._odds(bot._position(obs, (c1, c2), mine)).plan
    if not plan:
        return None
    todo = [c for c in plan if c in obs.own_cards]
    if todo:
        return play(todo[0])
    return PASS if can_pass(legal) else bot._fill(obs)


def hidden_pair_guess(
    bot: SignalBot, obs: Observation, signal: Signal, seen: Sequence[Card], advice: Advice
) -> Card | None:
    """After two pairs shown by a pair (the card's preferred play shows the higher pair),
    when partner holds no third of that rank: a card of the rank most likely to be the leader's
    other pair.

    The other pair is of a lower rank (the encoder shows the higher one), and partner's odds
    for each rank are those of the leader holding two of its unseen cards: ``C(u, 2)`` for
    ``u`` unseen cards of the rank, over all lower ranks. A hit makes a full house; a miss
    leaves the leader's two pairs with partner's card as the fifth, which is what a pass gets
    too: so the card goes instead of a pass whatever the odds (waiting for odds of 0.15, 0.3 or
    0.5 measured no better), and instead of "Play!" only when its expected points beat
    partner's own five. A leader who shows the lower pair (the card allows either) makes every
    guess miss, at the cost of the card spent.
    """
    c1, c2 = signal
    if c2 is None or c1.rank != c2.rank:
        return None
    reading = primary_reading(c1, c2, obs.side_hand, bot._conv(), (*obs.own_cards, *seen))
    if reading is None or reading.item != "two_pair":
        return None
    known = Counter(c.rank for c in (*obs.own_cards, *seen, c1, c2))
    own = Counter(c.rank for c in obs.own_cards)
    ways = {r: comb(4 - known[r], 2) for r in range(2, c1.rank)}
    total = sum(ways.values())
    candidates = [r for r in ways if own[r] and ways[r]]
    if not total or not candidates:
        return None
    best = max(candidates, key=lambda r: (ways[r], -own[r], -r))
    odds = ways[best] / total
    values = CLASSIC.values
    gain = odds * values[Combination.FULL_HOUSE] + (1 - odds) * values[Combination.TWO_PAIR]
    if advice.action == "force" and gain <= values[best_five(obs.own_cards)[0]]:
        return None
    keep = bot._keep(obs)
    return min((c for c in obs.own_cards if c.rank == best), key=lambda c: keep.get(c, 0))


def long_shot(
    bot: SignalBot, obs: Observation, signal: Signal, seen: Sequence[Card], advice: Advice
) -> Card | None:
    """When the guide passes because partner's best cards complete too few of the holdings the
    signal allows (fewer than :data:`~engine.signals.reply.COMPLETE_THRESHOLD`), the first of
    those cards anyway (:attr:`~engine.signals.reply.Advice.too_few`): a pass leaves the
    leader's draw to the leader alone, who seldom completes it (waiting for a quarter of the
    holdings measured no better)."""
    return advice.too_few[0] if advice.too_few else None


def hand_fill(bot: SignalBot, obs: Observation) -> tuple[Card, ...] | None:
    """No fill of its own: the hand's best fill."""
    return None


def deal_fill(bot: SignalBot, obs: Observation) -> tuple[Card, ...] | None:
    """In the side's last hand, the hand completed for the deal
    (:func:`~engine.bots.deal_end.last_fill`): the cards it plays and the six the side keeps
    weighed together. None before that hand, or when its cards cannot complete the hand."""
    stakes = _stakes(obs)
    if stakes is None:
        return None
    return last_fill(
        obs.current_cards,
        obs.own_cards,
        obs.seat,
        obs.card_counts[obs.seat.partner],
        [c for hand in obs.played_hands for _, c in hand.cards],
        stakes,
        obs.rule,
    )


@dataclass(frozen=True)
class Parts:
    """What a signal bot is built from: one part per decision the strengths make differently.
    A variant is a copy with a part replaced (:func:`dataclasses.replace`)."""

    #: The bot's name (the tournament's and the play tables').
    name: str
    #: Leading: what it shows instead of its first item.
    lead: LeadPart
    #: The item it reads in partner's signal.
    reading: ReadingPart
    #: Replying to partner's signal, before the reply guide.
    reply: ReplyPart
    #: Tried in turn where the guide says "Play!" and partner's cards cannot complete the hand.
    on_force: tuple[Guess, ...]
    #: Tried in turn where the guide passes.
    on_pass: tuple[Guess, ...]
    #: Completing a hand itself.
    fill: FillPart


_STANDARD_PARTS = Parts(
    name="signal",
    lead=full_house_lead,
    reading=read_by_card,
    reply=reply_by_guide,
    on_force=(hidden_pair_guess,),
    on_pass=(hidden_pair_guess, long_shot),
    fill=hand_fill,
)
#: Each strength's parts: ``beginner`` follows the card and the reply guide alone, ``standard``
#: adds the full-house leads and the guesses, ``strong`` reads, replies and fills by the odds.
PARTS: dict[str, Parts] = {
    BEGINNER: Parts(
        name=BEGINNER,
        lead=first_item,
        reading=read_by_card,
        reply=reply_by_guide,
        on_force=(),
        on_pass=(),
        fill=hand_fill,
    ),
    STANDARD: _STANDARD_PARTS,
    STRONG: replace(
        _STANDARD_PARTS, name=STRONG, reading=read_by_odds, reply=reply_by_odds, fill=deal_fill
    ),
}
