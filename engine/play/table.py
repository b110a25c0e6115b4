"""The table: the learner South, a ``signal`` bot North, two bots East-West.

:class:`PlayTable` wraps a :class:`~engine.game.GameState` (one deal, or a game) and the bots.
It is rebuilt from a setup and the action list on every request (:meth:`PlayTable.replay`
applies the recorded actions without asking the bots again, so it is cheap), then the learner
acts (:meth:`PlayTable.act`) and the bots play until South's next turn::

    >>> table, steps = PlayTable.start(PlaySetup(seed=7))
    >>> table.learner_to_move(), steps[0].seat
    (True, <Seat.E: 'E'>)
    >>> again = PlayTable.replay(PlaySetup(seed=7), table.actions)
    >>> again.view() == table.view()
    True

A table takes and returns the engine's value types: :class:`~engine.game.Action` (``act``,
``apply``, ``legal``, ``actions``), :class:`~engine.seats.Seat` and the setup's
:class:`~engine.scoring.ScoringRule`. Text is read at the edges: a form (``Action.parse``),
a stored record (:func:`engine.play.record.parse_actions`).

What leaves a table for the learner (:class:`Step`, :class:`~engine.play.view.TableView`) is
built from South's observation and finished hands only; see ``docs/play.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.bots import GreedyBot, SignalBot
from engine.bots.base import Bot
from engine.bots.signal import STANDARD
from engine.cards import Card
from engine.drills import DrillKind
from engine.errors import ConcertoError, WrongTypeError
from engine.game import Action, DealState, GameState
from engine.messages import Msg, Param, Term, Text
from engine.play.grading import PlayAttempt, key_of, lead_drill, lead_key
from engine.play.setup import LEARNER, PARTNER, IllegalPlay, PlaySetup, reason
from engine.play.summary import HandSummary, signal_of, summarise
from engine.play.view import DealScore, Outcome, ShownHand, TableView
from engine.scoring import ScoringRule
from engine.seats import SEATS, SIDES, Seat, Side

__all__ = ["PlayTable", "Step"]

_GREEDY = GreedyBot()
#: One signal bot per convention, strength and model of partner's leads for the whole process:
#: its memo tables (encodings, reply advice, lead plans, reading odds) depend only on the cards
#: it is asked about, so tables share them.
_SIGNAL_BOTS: dict[tuple[str, str, str], SignalBot] = {}


def signal_bot(convention: str, strength: str = STANDARD, partner_leads: str = "bot") -> SignalBot:
    """The process's signal bot. ``partner_leads``: ``card`` when its partner is a person (a
    ``strong`` partner then reads the card's leads, as the lead drills teach them)."""
    key = (convention, strength, partner_leads)
    bot = _SIGNAL_BOTS.get(key)
    if bot is None:
        bot = _SIGNAL_BOTS[key] = SignalBot(
            convention, strength=strength, partner_leads=partner_leads
        )
    return bot


@dataclass(frozen=True, slots=True)
class Step:
    """One action, as everybody at the table saw it.

    ``seat`` took ``action`` (a card, pass or force); ``hand_number`` the hand it was part of.
    When it ended a hand, ``hand_finished`` is set and ``made`` sums the hand up; when it ended
    a deal, ``deal_finished`` too.
    """

    deal_number: int
    hand_number: int
    seat: Seat
    action: Action
    hand_finished: bool = False
    made: HandSummary | None = None
    deal_finished: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "deal_number": self.deal_number,
            "hand_number": self.hand_number,
            "seat": str(self.seat),
            "action": str(self.action),
            "hand_finished": self.hand_finished,
            "made": self.made.to_json() if self.made is not None else None,
            "deal_finished": self.deal_finished,
        }


def _sides(values: Mapping[Side, Any]) -> Mapping[str, Any]:
    return MappingProxyType({str(side): values[side] for side in SIDES})


class PlayTable:
    """A deal or a game in progress, South's seat held by the learner.

    Build it with :meth:`start` (a new table, bots played up to South's first turn) or
    :meth:`replay` (a recorded action list). Holds the whole state, so only what
    :meth:`view`, :meth:`act` and :meth:`legal` return may be shown to the learner.
    """

    def __init__(
        self,
        setup: PlaySetup,
        humans: frozenset[Seat] = frozenset({LEARNER}),
        *,
        away: frozenset[Seat] = frozenset(),
        bot_signals: Iterable[tuple[int, int]] = (),
    ) -> None:
        self.setup = setup
        self._game = GameState.new(setup.seed, setup.rule, setup.dealer, setup.first_hands())
        self._actions: list[Action] = []
        #: Every seat's cards when each hand started, by (deal number, hand number).
        self._starts: dict[tuple[int, int], Mapping[Seat, tuple[Card, ...]]] = {}
        #: The seats people play (South alone at a solo table; up to four at a live table).
        #: A seat handed to a bot leaves this set; the record does not change, since bots are
        #: only asked when they move.
        self.humans = frozenset(humans)
        #: The seats of people who have handed them to a bot for now (a live table).
        self.away = frozenset(away) - self.humans
        #: Hands ``(deal number, hand number)`` whose signal a bot made, wholly or in part, for
        #: a person's seat: given for the record (a live game's ``helped`` hands), and added to
        #: as the bots lead for the seats in :attr:`away`.
        self.bot_signals = set(bot_signals)
        self._bots: dict[Seat, Bot] = {}
        for seat in (Seat.E, Seat.W):
            if setup.opponents == "signal":
                self._bots[seat] = signal_bot(setup.opponents_convention, setup.opponents_strength)
            else:
                self._bots[seat] = _GREEDY

    def copy(self) -> PlayTable:
        """An independent copy: acting on it leaves this table as it is (and is cheaper than
        replaying the record)."""
        other = PlayTable.__new__(PlayTable)
        other.setup = self.setup
        other.humans = self.humans
        other.away = self.away
        other.bot_signals = set(self.bot_signals)
        other._game = self._game.clone()
        other._actions = list(self._actions)
        other._starts = dict(self._starts)
        other._bots = dict(self._bots)
        return other

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        setup: PlaySetup,
        humans: frozenset[Seat] = frozenset({LEARNER}),
        *,
        away: frozenset[Seat] = frozenset(),
    ) -> tuple[PlayTable, list[Step]]:
        """A new table; the bots play until a person's first turn. Returns the table and their
        steps. ``away``: the seats of people who have handed them to a bot."""
        table = cls(setup, humans, away=away)
        return table, table.advance()

    @classmethod
    def replay(
        cls,
        setup: PlaySetup,
        actions: Sequence[Action],
        humans: frozenset[Seat] = frozenset({LEARNER}),
        *,
        away: frozenset[Seat] = frozenset(),
        bot_signals: Iterable[tuple[int, int]] = (),
    ) -> PlayTable:
        """The table after ``actions`` (bots' and learner's, in order), checking each is legal
        when taken. The bots are not asked again: the record says what they did. ``away`` and
        ``bot_signals``: see the attributes (who made the signals the record holds). Raises
        :class:`IllegalPlay` naming the first action that does not fit (a record's text is
        read first, by :func:`engine.play.record.parse_actions`)."""
        table = cls(setup, humans, away=away, bot_signals=bot_signals)
        for number, action in enumerate(actions, start=1):
            try:
                table.apply(action)
            except IllegalPlay as exc:
                raise IllegalPlay(
                    Msg(
                        "error.play.record_action",
                        number=number,
                        action=Text(repr(str(action))),
                        reason=reason(exc),
                    )
                ) from None
        return table

    def apply(self, action: Action, *, summarise: bool = False) -> Step:
        """Apply the next action of the record, whoever is to act (a bot or South), without
        asking the bots: for replaying records. The learner's way in is :meth:`act`. The step
        carries the hand's summary (``made``) only when ``summarise`` asks for it."""
        return self._apply(_action(action, "apply"), summarise=summarise)

    # -- where we are --------------------------------------------------------------------------

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action so far, bots' and learner's, in order: with the setup, the record."""
        return tuple(self._actions)

    @property
    def state(self) -> GameState:
        """The game state (one deal, or a game). Holds hidden cards: for the engine's use."""
        return self._game

    @property
    def deal(self) -> DealState:
        """The deal being played (the last one once everything is over). Holds hidden cards:
        for the engine's use, never for the learner's eyes."""
        return self._game.deals[0] if not self.setup.game else self._game.deal

    @property
    def deal_number(self) -> int:
        return 1 if not self.setup.game else self._game.deal_number

    @property
    def deals(self) -> tuple[DealState, ...]:
        """Every deal dealt so far (one for a single deal)."""
        return (self._game.deals[0],) if not self.setup.game else tuple(self._game.deals)

    def is_over(self) -> bool:
        """The deal is over (a single deal) or the game is (a game)."""
        if not self.setup.game:
            return self._game.deals[0].is_terminal()
        return self._game.is_terminal()

    def finished_deals(self) -> int:
        """How many deals are over."""
        return sum(1 for d in self.deals if d.is_terminal())

    def to_move(self) -> Seat | None:
        return None if self.is_over() else self.deal.current_player()

    def learner_to_move(self, seat: Seat = LEARNER) -> bool:
        return self.to_move() is seat

    def legal(self, seat: Seat = LEARNER) -> list[Action]:
        """``seat``'s legal actions (cards in display order, then ``PASS`` and ``FORCE`` when
        allowed); empty unless it is that seat's turn."""
        if not self.learner_to_move(seat):
            return []
        return self.deal.legal_actions()

    def start_holding(self, deal_number: int, hand_number: int) -> Mapping[Seat, tuple[Card, ...]]:
        """Every seat's cards when a hand started (hidden cards: for the engine only)."""
        return self._starts[(deal_number, hand_number)]

    # -- moving --------------------------------------------------------------------------------

    def _over(self) -> IllegalPlay:
        return IllegalPlay(
            Msg("error.play.game_over" if self.setup.game else "error.play.deal_over")
        )

    def _apply(self, action: Action, *, summarise: bool = True) -> Step:
        if self.is_over():
            raise self._over()
        deal = self.deal
        deal_number = self.deal_number
        hand_number = deal.hand_number
        seat = deal.current_player()
        assert seat is not None
        if not deal.current_actions and (deal_number, hand_number) not in self._starts:
            self._starts[(deal_number, hand_number)] = MappingProxyType(
                {s: deal.held(s) for s in SEATS}
            )
        played = len(deal.played_hands)
        try:
            self._game.apply_action(action)
        except ConcertoError as exc:
            raise IllegalPlay(exc.message) from None
        self._actions.append(action)
        finished = len(deal.played_hands) > played
        made = self.hand_summary(hand_number, deal_number) if finished and summarise else None
        return Step(
            deal_number=deal_number,
            hand_number=hand_number,
            seat=seat,
            action=action,
            hand_finished=finished,
            made=made,
            deal_finished=deal.is_terminal(),
        )

    def act(self, action: Action, seat: Seat = LEARNER) -> list[Step]:
        """``seat`` (South at a solo table) takes ``action`` (a card, ``PASS`` or ``FORCE``);
        then the bots play until a person's next turn or the end. Returns the seat's step and
        every bot step, in order. Raises :class:`IllegalPlay` (nothing changes) unless the
        action is legal for that seat now, with the engine's reason.
        """
        action = _action(action, "act")
        if self.is_over():
            raise self._over()
        if seat not in self.humans or not self.learner_to_move(seat):
            raise IllegalPlay(Msg("error.play.not_your_turn"))
        if action not in self.deal.legal_actions():
            try:
                self.deal.clone().apply_action(action)
            except ConcertoError as exc:
                raise IllegalPlay(exc.message) from None
            raise IllegalPlay(  # pragma: no cover
                Msg("error.play.not_allowed_now", action=_quoted(action))
            )
        return [self._apply(action), *self.advance()]

    def advance(self) -> list[Step]:
        """Let the bots play until it is a person's turn or everything is over."""
        steps: list[Step] = []
        while not self.is_over():
            seat = self.deal.current_player()
            assert seat is not None
            if seat in self.humans:
                break
            obs = self.deal.observation(seat)
            bot = self.bot_for(seat)
            acts = self.deal.current_actions
            if seat in self.away and (not acts or acts[0][0] is seat) and len(acts) < 3:
                self.bot_signals.add((self.deal_number, self.deal.hand_number))
            steps.append(self._apply(bot.choose(obs, obs.legal_actions)))
        return steps

    def bot_for(self, seat: Seat) -> Bot:
        """The bot that plays ``seat`` now. North and South's signal bots read partner's signal
        as its maker leads: by the card when a person made it (seated, or away but having
        played it before handing the seat over), as a bot leads when a bot made any of it. A
        person who hands a seat over, or takes one back, in the middle of a hand does not change
        how the signal already given is read."""
        if seat not in (PARTNER, LEARNER):
            return self._bots[seat]
        partner = seat.partner
        acts = self.deal.current_actions
        if acts and acts[0][0] is partner:
            by_person = (partner in self.humans or partner in self.away) and (
                self.deal_number,
                self.deal.hand_number,
            ) not in self.bot_signals
        else:
            by_person = partner in self.humans
        return signal_bot(self.setup.convention, self.setup.partner, "card" if by_person else "bot")

    # -- what the learner sees -----------------------------------------------------------------

    def convention_of(self, seat: Seat) -> str | None:
        """The convention card ``seat``'s pair signals by (None: a ``greedy`` pair)."""
        if seat.side is Side.NS:
            return self.setup.convention
        return self.setup.opponents_convention if self.setup.opponents == "signal" else None

    def hand_summary(
        self,
        hand_number: int,
        deal_number: int | None = None,
        *,
        read: str | None = None,
        read_correct: bool | None = None,
    ) -> HandSummary:
        """The summary of a finished hand (default: of the deal being played)."""
        deal_number = self.deal_number if deal_number is None else deal_number
        if not 1 <= deal_number <= len(self.deals):
            raise IllegalPlay(Msg("error.play.no_deal_yet", deal=deal_number))
        deal = self.deals[deal_number - 1]
        if not 1 <= hand_number <= len(deal.played_hands):
            raise IllegalPlay(
                Msg("error.play.hand_not_finished", hand=hand_number, deal=deal_number)
            )
        hand = deal.played_hands[hand_number - 1]
        seen = [c for h in deal.played_hands[: hand_number - 1] for c in h.card_list]
        return summarise(
            hand,
            deal_number=deal_number,
            convention=self.convention_of(hand.actions[0][0]),
            south_cards=self._starts[(deal_number, hand_number)][LEARNER],
            seen_before=seen,
            read=read,
            read_correct=read_correct,
        )

    def summaries(self) -> list[HandSummary]:
        """Every finished hand so far, deal by deal."""
        return [
            self.hand_summary(hand.number, number)
            for number, deal in enumerate(self.deals, start=1)
            for hand in deal.played_hands
        ]

    def deal_score(self, deal_number: int) -> DealScore:
        """The scores of a finished deal (public once it is over)."""
        deal = self.deals[deal_number - 1]
        if not deal.is_terminal():
            raise IllegalPlay(Msg("error.play.deal_number_not_over", deal=deal_number))
        result = deal.result()
        return DealScore(
            deal_number=deal_number,
            dealer=str(deal.dealer),
            hands=MappingProxyType({str(s): deal.hands_dealt[s] for s in SEATS}),
            leftovers=_sides(deal.leftovers()),
            leftover_combinations=_sides(
                {s: str(v.combination) for s, v in result.leftovers.items()}
            ),
            leftover_values=_sides({s: v.value for s, v in result.leftovers.items()}),
            hand_scores=_sides(result.hand_scores),
            leftover_bonus=_sides(result.leftover_bonus),
            scores=_sides(result.scores),
        )

    def outcome(self) -> Outcome:
        """The result, once everything is over (a single deal has no game bonus)."""
        if not self.is_over():
            raise IllegalPlay(
                Msg("error.play.game_not_over" if self.setup.game else "error.play.deal_not_over")
            )
        if self.setup.game:
            out = self._game.outcome()
            return Outcome(
                totals=_sides(out.totals),
                game_bonus=_sides(out.game_bonus),
                final=_sides(out.final),
                winner=str(out.winner) if out.winner is not None else None,
                deals_played=out.deals_played,
            )
        scores = self._game.deals[0].result().scores
        winner = None
        if scores[Side.NS] != scores[Side.EW]:
            winner = str(Side.NS if scores[Side.NS] > scores[Side.EW] else Side.EW)
        return Outcome(
            totals=_sides(scores),
            game_bonus=_sides({Side.NS: 0, Side.EW: 0}),
            final=_sides(scores),
            winner=winner,
            deals_played=1,
        )

    def view(self, seat: Seat = LEARNER) -> TableView:
        """What ``seat`` (South at a solo table) may see now, built from that seat's
        observation and finished deals only."""
        deal = self.deal
        totals = {Side.NS: 0, Side.EW: 0}
        for earlier in self.deals[: self.deal_number - 1]:
            for side, points in earlier.result().scores.items():
                totals[side] += points
        obs = deal.observation(seat, totals)
        over = self.is_over()
        return TableView(
            game=self.setup.game,
            deal_number=self.deal_number,
            dealer=obs.dealer,
            rule=obs.rule,
            convention=self.setup.convention,
            opponents=self.setup.opponents,
            hand_number=obs.hand_number,
            side_hand=obs.side_hand,
            leader=obs.leader,
            side_of_hand=obs.side_of_hand,
            to_move=None if over else obs.current_player,
            hand=obs.own_cards,
            counts=MappingProxyType({str(s): obs.card_counts[s] for s in SEATS}),
            completed=tuple(ShownHand.of(h) for h in obs.played_hands),
            current=obs.current_actions,
            current_cards=obs.current_cards,
            forced_by=obs.forced_by,
            hand_scores=_sides(obs.hand_scores),
            totals=_sides(obs.totals),
            finished_deals=tuple(
                self.deal_score(n) for n, d in enumerate(self.deals, start=1) if d.is_terminal()
            ),
            legal=() if over or seat not in self.humans else obs.legal_actions,
            is_over=over,
            outcome=self.outcome() if over else None,
            seat=seat,
        )

    def hands_now(self) -> Mapping[Seat, tuple[Card, ...]]:
        """Every seat's cards now: the all-hands view of an authorised watcher (a teacher at a
        live table), never a player's."""
        return MappingProxyType({s: self.deal.held(s) for s in SEATS})

    # -- grading -------------------------------------------------------------------------------

    def _hands(self) -> Iterator[tuple[int, int, Sequence[tuple[Seat, Action]]]]:
        """Every hand so far, finished or being played: (deal number, hand number, actions)."""
        for number, deal in enumerate(self.deals, start=1):
            for hand in deal.played_hands:
                yield number, hand.number, hand.actions
            if not deal.is_terminal():
                yield number, deal.hand_number, deal.current_actions

    def attempts(self, seat: Seat = LEARNER) -> list[PlayAttempt]:
        """``seat``'s leads so far (South's at a solo table), each graded by the lead drill's
        answer key: every hand the seat led with a signal (c1, partner's pass, c2 or pass). A
        lead partner did not pass after (partner played at once, or held no cards) gives no
        signal and no attempt."""
        out: list[PlayAttempt] = []
        for number, hand_number, actions in self._hands():
            if not actions or actions[0][0] is not seat:
                continue
            signal = signal_of(actions)
            if signal is None:
                continue
            held = self._starts[(number, hand_number)][seat]
            attempt = grade_lead(
                held,
                signal,
                side_hand=(hand_number + 1) // 2,
                convention=self.convention_of(seat) or self.setup.convention,
                rule=self.setup.rule,
                deal_number=number,
                hand_number=hand_number,
            )
            if attempt is not None:
                out.append(attempt)
        return out


def grade_lead(
    held: Sequence[Card],
    signal: tuple[Card, Card | None],
    *,
    side_hand: int,
    convention: str,
    rule: ScoringRule,
    deal_number: int,
    hand_number: int,
) -> PlayAttempt | None:
    """A lead of ``signal`` from ``held`` put to the lead drill's answer key (None when the
    cards hold nothing to signal)."""
    drill = lead_drill(held, side_hand, convention, rule)
    try:
        key = key_of(drill)
    except (ConcertoError, IndexError):
        return None
    answer = lead_key(*signal)
    return PlayAttempt(
        kind=DrillKind.LEAD,
        skill=drill.skill,
        correct=answer in key.accepted,
        answer=answer,
        hand_number=hand_number,
        deal_number=deal_number,
        side_hand=side_hand,
        convention=convention,
        expected=key.preferred,
    )


def _quoted(action: Action) -> Param:
    """An action named in a sentence: ``'7H'``, ``'pass'`` (the call in the reader's words)."""
    if action.card is not None:
        return Msg("play.action.quoted", action=Text(str(action)))
    return Msg("play.action.quoted", action=Term("action", str(action)))


def _action(value: object, func: str) -> Action:
    """``value`` if it is an :class:`Action`; text is read at the edge (``Action.parse``)."""
    if isinstance(value, Action):
        return value
    raise WrongTypeError(
        f"PlayTable.{func}() takes an Action (read text with Action.parse), "
        f"not {type(value).__name__} {value!r}"
    )
