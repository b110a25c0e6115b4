"""The deal and game state machines, OpenSpiel style.

A :class:`DealState` is one point in the play of a deal: ask it whose turn it is
(:meth:`~DealState.current_player`), what they may do (:meth:`~DealState.legal_actions`) and
apply one action (:meth:`~DealState.apply_action`). Dealing is a seeded chance step, so a deal
replays exactly from its seed and its list of actions::

    >>> import random
    >>> state = DealState.deal(Seat.N, random.Random(7))
    >>> state.current_player(), state.leader, state.hand_number
    (<Seat.E: 'E'>, <Seat.E: 'E'>, 1)
    >>> PASS in state.legal_actions()      # the leader must play the first card
    False

Hidden information leaves only through :meth:`DealState.observation`, which shows one seat its
own cards and what the table shows everybody. A :class:`GameState` strings deals together until
four are played or a side reaches 100.
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.cards import DECK, Card, parse_cards, shuffled_deck, sort_cards
from engine.errors import IllegalPlayError, InvalidCardsError, InvalidNotationError
from engine.messages import Msg, Text
from engine.scoring import (
    CLASSIC,
    Combination,
    LeftoverValue,
    ScoringRule,
    get_rule,
    leftover_bonus,
    leftover_value,
    score_hand,
)
from engine.seats import SEATS, SIDES, Seat, Side

__all__ = [
    "BONUS_PER_UNPLAYED_DEAL",
    "CARDS_PER_HAND",
    "DEALS_PER_GAME",
    "FORCE",
    "GAME_BONUS",
    "GAME_TARGET",
    "HANDS_PER_DEAL",
    "PASS",
    "Action",
    "ActionKind",
    "DealResult",
    "DealState",
    "GameOutcome",
    "GameState",
    "Observation",
    "PlayedHand",
    "game_outcome",
    "is_game_over",
]

HANDS_PER_DEAL = 8
CARDS_PER_HAND = 5
DEALS_PER_GAME = 4
GAME_TARGET = 100
GAME_BONUS = 100
BONUS_PER_UNPLAYED_DEAL = 100


class ActionKind(enum.Enum):
    PLAY = "play"
    PASS = "pass"  # noqa: S105 (an action, not a password)
    FORCE = "force"


@dataclass(frozen=True, slots=True)
class Action:
    """One turn: play a card, ``pass``, or ``force`` (say "Play!" to the partner).

    >>> Action.parse("as"), Action.parse("Pass")
    (Action.parse('AS'), Action.parse('pass'))
    >>> str(Action.play(Card.parse("TD")))
    'TD'
    """

    kind: ActionKind
    card: Card | None = None

    def __post_init__(self) -> None:
        if (self.kind is ActionKind.PLAY) != (self.card is not None):
            raise InvalidNotationError("a play action needs a card, pass and force take none")

    @staticmethod
    def play(card: Card | str) -> Action:
        return Action(ActionKind.PLAY, card if isinstance(card, Card) else Card.parse(card))

    @staticmethod
    def parse(text: str | Action) -> Action:
        """Read ``AS`` (any card notation), ``pass`` or ``force`` (also ``play!``)."""
        if isinstance(text, Action):
            return text
        if isinstance(text, str):
            written = _WRITTEN.get(text)  # (a record's actions are written this way)
            if written is not None:
                return written
            key = text.strip().lower()
            if key == "pass":
                return PASS
            if key in ("force", "play!"):
                return FORCE
            try:
                return Action.play(text)
            except InvalidNotationError:
                pass
        raise InvalidNotationError(Msg("error.action.not_an_action", text=Text(repr(text))))

    @property
    def id(self) -> int:
        """OpenSpiel-style integer: the card index 0..51, 52 for pass, 53 for force."""
        if self.card is not None:
            return self.card.index
        return 52 if self.kind is ActionKind.PASS else 53

    @staticmethod
    def from_id(action_id: int) -> Action:
        if 0 <= action_id < 52:
            return Action(ActionKind.PLAY, DECK[action_id])
        if action_id in (52, 53):
            return PASS if action_id == 52 else FORCE
        raise InvalidNotationError(f"not an action id: {action_id!r}")

    @property
    def is_play(self) -> bool:
        return self.kind is ActionKind.PLAY

    def __str__(self) -> str:
        return str(self.card) if self.card is not None else self.kind.value

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


PASS = Action(ActionKind.PASS)
FORCE = Action(ActionKind.FORCE)
#: Every action by the text ``str()`` writes for it, read back without parsing.
_WRITTEN: dict[str, Action] = {str(a): a for a in (*map(Action.play, DECK), PASS, FORCE)}


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A completed hand, face up in front of its leader for the rest of the deal.

    ``leader`` is the seat whose turn it was to lead (the lead rotates regardless); if that
    player held no cards, the first entry of ``actions`` shows the partner leading instead.
    """

    number: int
    leader: Seat
    side: Side
    actions: tuple[tuple[Seat, Action], ...]
    cards: tuple[tuple[Seat, Card], ...]
    combination: Combination
    points: int

    @property
    def played_by(self) -> tuple[Seat, ...]:
        """Who played each card, in play order."""
        return tuple(seat for seat, _ in self.cards)

    @property
    def card_list(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.cards)


@dataclass(frozen=True)
class DealResult:
    """The scores of a finished deal, per side."""

    hand_scores: Mapping[Side, int]
    leftovers: Mapping[Side, LeftoverValue]
    leftover_bonus: Mapping[Side, int]
    scores: Mapping[Side, int]


@dataclass(frozen=True)
class Observation:
    """What one seat may know: its own cards and everything face up, never hidden cards.

    ``legal_actions`` is empty unless ``seat`` is the player to act.
    """

    seat: Seat
    dealer: Seat
    rule: ScoringRule
    hand_number: int
    leader: Seat
    side_of_hand: Side
    side_hand: int
    current_player: Seat | None
    own_cards: tuple[Card, ...]
    played_hands: tuple[PlayedHand, ...]
    current_actions: tuple[tuple[Seat, Action], ...]
    current_cards: tuple[tuple[Seat, Card], ...]
    card_counts: Mapping[Seat, int]
    hand_scores: Mapping[Side, int]
    totals: Mapping[Side, int]
    forced_by: Seat | None
    passes_in_row: int
    is_terminal: bool
    legal_actions: tuple[Action, ...] = field(default=())


def _zero_sides() -> dict[Side, int]:
    return {Side.NS: 0, Side.EW: 0}


class DealState:
    """One deal of eight hands, from the lead of hand 1 to the left-overs.

    Build it from a dealer and four 13-card hands, or deal from a random source with
    :meth:`deal`. The player left of the dealer leads hand 1 and the lead rotates left.
    """

    def __init__(
        self,
        dealer: Seat | str,
        hands: Mapping[Seat, Iterable[Card | str]] | Mapping[str, Iterable[Card | str]],
        rule: ScoringRule | str = CLASSIC,
    ) -> None:
        self.dealer = Seat.parse(dealer)
        self.rule = get_rule(rule)
        dealt: dict[Seat, tuple[Card, ...]] = {}
        for key, cards in hands.items():
            seat = Seat.parse(key)
            try:
                dealt[seat] = parse_cards(cards, count=13)
            except InvalidCardsError as exc:
                raise InvalidCardsError(f"hand {seat}: {exc}") from None
        if set(dealt) != set(SEATS):
            raise InvalidCardsError("a deal needs a hand for each of N, E, S and W")
        every = [c for seat in SEATS for c in dealt[seat]]
        if len(set(every)) != 52:
            seen: set[Card] = set()
            for c in every:
                if c in seen:
                    raise InvalidCardsError(f"duplicate card: {c} is dealt twice")
                seen.add(c)
        self.hands_dealt: Mapping[Seat, tuple[Card, ...]] = MappingProxyType(
            {seat: tuple(sort_cards(dealt[seat])) for seat in SEATS}
        )
        self._held: dict[Seat, set[Card]] = {seat: set(dealt[seat]) for seat in SEATS}
        self._played: list[PlayedHand] = []
        self._actions: list[tuple[Seat, Action]] = []
        self._cards: list[tuple[Seat, Card]] = []
        self._passes = 0
        self._forced_by: Seat | None = None
        self._turn: Seat = self.dealer.left
        #: The deal's result, worked out once it is over (nothing changes a finished deal).
        self._result: DealResult | None = None

    @classmethod
    def deal(
        cls, dealer: Seat | str, rng: random.Random, rule: ScoringRule | str = CLASSIC
    ) -> DealState:
        """The chance step: shuffle with ``rng`` and deal 13 cards each, one at a time,
        starting with the player left of the dealer."""
        dealer = Seat.parse(dealer)
        deck = shuffled_deck(rng)
        hands = {dealer.after(k + 1): deck[k::4] for k in range(4)}
        return cls(dealer, hands, rule)

    # -- where we are ------------------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        """The hand being played, 1..8 (stays 8 once the deal is over)."""
        return min(len(self._played) + 1, HANDS_PER_DEAL)

    @property
    def leader(self) -> Seat:
        """Whose turn it is to lead the current hand (left of the dealer for hand 1)."""
        return self.dealer.after(self.hand_number)

    @property
    def side_of_hand(self) -> Side:
        """The side playing the current hand (the leader's)."""
        return self.leader.side

    @property
    def side_hand(self) -> int:
        """Which of its four hands the playing side is on, 1..4."""
        return (self.hand_number + 1) // 2

    @property
    def played_hands(self) -> tuple[PlayedHand, ...]:
        return tuple(self._played)

    @property
    def current_actions(self) -> tuple[tuple[Seat, Action], ...]:
        return tuple(self._actions)

    @property
    def current_cards(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(self._cards)

    @property
    def forced_by(self) -> Seat | None:
        """The player who said force in the current hand, if any."""
        return self._forced_by

    @property
    def passes_in_row(self) -> int:
        """Consecutive passes since the last card played in the current hand (0..2)."""
        return self._passes

    def held(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` still holds, in display order (hidden from the other seats)."""
        return tuple(sort_cards(self._held[seat]))

    def card_counts(self) -> dict[Seat, int]:
        return {seat: len(self._held[seat]) for seat in SEATS}

    def hand_scores(self) -> dict[Side, int]:
        """Points scored so far by each side's completed hands."""
        scores = _zero_sides()
        for hand in self._played:
            scores[hand.side] += hand.points
        return scores

    def is_terminal(self) -> bool:
        return len(self._played) == HANDS_PER_DEAL

    def current_player(self) -> Seat | None:
        """The seat to act, or None when the deal is over. Empty-handed players are skipped."""
        if self.is_terminal():
            return None
        if self._forced_by is not None:
            forced = self._forced_by.partner
            return forced if self._held[forced] else self._forced_by
        turn = self._turn
        return turn if self._held[turn] else turn.partner

    def _pass_refusal(self, player: Seat) -> Msg | None:
        """Why ``player`` may not pass (nor force) now, or None if they may."""
        if self._forced_by is not None:
            return Msg(
                "error.play.forced",
                seat=Text(str(self._forced_by)),
                partner=Text(str(self._forced_by.partner)),
            )
        if not self._actions:
            return Msg("error.play.first_card")
        if self._passes >= 2:
            return Msg("error.play.two_passes")
        if not self._held[player.partner]:
            return Msg("error.play.partner_empty", partner=Text(str(player.partner)))
        return None

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take: their cards in display order, then
        ``pass`` and ``force`` when allowed. Empty when the deal is over."""
        player = self.current_player()
        if player is None:
            return []
        actions = [Action(ActionKind.PLAY, c) for c in sort_cards(self._held[player])]
        if self._pass_refusal(player) is None:
            actions += [PASS, FORCE]
        return actions

    # -- moving ------------------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Apply the current player's action; :class:`IllegalPlayError` says why it is illegal."""
        if not isinstance(action, Action):
            raise TypeError(f"apply_action takes an Action, not {action!r}; use Action.parse")
        player = self.current_player()
        if player is None:
            raise IllegalPlayError(Msg("error.play.all_hands_played"))
        if action.card is not None:
            card = action.card
            if card not in self._held[player]:
                raise IllegalPlayError(
                    Msg("error.play.not_in_hand", seat=Text(str(player)), card=Text(str(card)))
                )
            self._held[player].remove(card)
            self._actions.append((player, action))
            self._cards.append((player, card))
            self._passes = 0
            if len(self._cards) == CARDS_PER_HAND:
                self._finish_hand()
            elif self._forced_by is None:
                self._turn = player.partner
            return
        reason = self._pass_refusal(player)
        if reason is not None:
            msg_id = (
                "error.play.cannot_pass"
                if action.kind is ActionKind.PASS
                else "error.play.cannot_force"
            )
            raise IllegalPlayError(Msg(msg_id, seat=Text(str(player)), reason=reason))
        self._actions.append((player, action))
        if action.kind is ActionKind.PASS:
            self._passes += 1
            self._turn = player.partner
        else:
            self._forced_by = player

    def _finish_hand(self) -> None:
        leader = self.leader
        seats = [seat for seat, _ in self._cards]
        score = score_hand([c for _, c in self._cards], self.rule, by=seats)
        self._played.append(
            PlayedHand(
                number=len(self._played) + 1,
                leader=leader,
                side=leader.side,
                actions=tuple(self._actions),
                cards=tuple(self._cards),
                combination=score.combination,
                points=score.points,
            )
        )
        self._actions = []
        self._cards = []
        self._passes = 0
        self._forced_by = None
        self._turn = self.leader  # the next hand's leader (unchanged after hand 8)

    def clone(self) -> DealState:
        """An independent copy (cards are shared immutable values)."""
        other = copy.copy(self)
        other._held = {seat: set(cards) for seat, cards in self._held.items()}
        other._played = list(self._played)
        other._actions = list(self._actions)
        other._cards = list(self._cards)
        return other

    # -- the end -----------------------------------------------------------------------------

    def _require_terminal(self, refusal: str) -> None:
        """Refuse (with the message id ``refusal``) unless the deal is over."""
        if not self.is_terminal():
            raise IllegalPlayError(Msg(refusal))

    def leftovers(self) -> dict[Side, tuple[Card, ...]]:
        """Each side's six unplayed cards (display order), once the deal is over."""
        self._require_terminal("error.play.leftovers_not_yet")
        return {
            side: tuple(sort_cards(c for seat in side.seats for c in self._held[seat]))
            for side in SIDES
        }

    def leftover_holders(self) -> dict[Side, tuple[Seat, ...]]:
        """Who holds each card of :meth:`leftovers`, in the same order."""
        self._require_terminal("error.play.leftovers_not_yet")
        owner = {c: seat for seat in SEATS for c in self._held[seat]}
        return {side: tuple(owner[c] for c in cards) for side, cards in self.leftovers().items()}

    def result(self) -> DealResult:
        """Hand scores, left-over values and bonus, and each side's score for the deal."""
        self._require_terminal("error.play.results_not_yet")
        if self._result is None:
            self._result = self._work_out_result()
        return self._result

    def _work_out_result(self) -> DealResult:
        hand_scores = self.hand_scores()
        leftovers = self.leftovers()
        holders = self.leftover_holders()
        values = {side: leftover_value(leftovers[side], self.rule, holders[side]) for side in SIDES}
        bonus = leftover_bonus(hand_scores, leftovers, self.rule, holders)
        scores = {side: hand_scores[side] + bonus[side] for side in SIDES}
        return DealResult(
            MappingProxyType(hand_scores),
            MappingProxyType(values),
            MappingProxyType(bonus),
            MappingProxyType(scores),
        )

    def observation(
        self, seat: Seat | str, totals: Mapping[Side, int] | None = None
    ) -> Observation:
        """What ``seat`` sees: own cards, completed hands, the current hand, card counts."""
        seat = Seat.parse(seat)
        player = self.current_player()
        return Observation(
            seat=seat,
            dealer=self.dealer,
            rule=self.rule,
            hand_number=self.hand_number,
            leader=self.leader,
            side_of_hand=self.side_of_hand,
            side_hand=self.side_hand,
            current_player=player,
            own_cards=self.held(seat),
            played_hands=self.played_hands,
            current_actions=self.current_actions,
            current_cards=self.current_cards,
            card_counts=MappingProxyType(self.card_counts()),
            hand_scores=MappingProxyType(self.hand_scores()),
            totals=MappingProxyType(dict(totals) if totals is not None else _zero_sides()),
            forced_by=self._forced_by,
            passes_in_row=self._passes,
            is_terminal=self.is_terminal(),
            legal_actions=tuple(self.legal_actions()) if player is seat else (),
        )

    def __repr__(self) -> str:
        return (
            f"<DealState dealer={self.dealer} hand={self.hand_number} "
            f"to_act={self.current_player()} rule={self.rule.name}>"
        )


# ------------------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class GameOutcome:
    """Totals after the last deal, the game bonus, final scores and the winner (None: draw)."""

    totals: Mapping[Side, int]
    game_bonus: Mapping[Side, int]
    final: Mapping[Side, int]
    winner: Side | None
    deals_played: int


def is_game_over(totals: Mapping[Side, int], deals_played: int) -> bool:
    """Four deals played, or a side at 100 or more after a deal."""
    return deals_played >= DEALS_PER_GAME or any(totals[s] >= GAME_TARGET for s in SIDES)


def game_outcome(totals: Mapping[Side, int], deals_played: int) -> GameOutcome:
    """Apply the game bonus: exactly one side at 100+ adds 100, plus 100 per deal not played.

    >>> game_outcome({Side.NS: 104, Side.EW: 61}, 2).final[Side.NS]
    404
    """
    reached = [s for s in SIDES if totals[s] >= GAME_TARGET]
    bonus = _zero_sides()
    if len(reached) == 1:
        unplayed = max(DEALS_PER_GAME - deals_played, 0)
        bonus[reached[0]] = GAME_BONUS + BONUS_PER_UNPLAYED_DEAL * unplayed
    final = {s: totals[s] + bonus[s] for s in SIDES}
    if final[Side.NS] == final[Side.EW]:
        winner = None
    else:
        winner = Side.NS if final[Side.NS] > final[Side.EW] else Side.EW
    return GameOutcome(
        MappingProxyType(dict(totals)),
        MappingProxyType(bonus),
        MappingProxyType(final),
        winner,
        deals_played,
    )


class GameState:
    """A whole game: deals until four are played or a side reaches 100 after a deal.

    The deal passes left each time; every deal is a chance step drawn from the game's random
    source, so a game replays from its seed and actions.

    >>> game = GameState.new(seed=1)
    >>> game.deal.dealer, game.deal_number
    (<Seat.N: 'N'>, 1)
    """

    def __init__(
        self,
        rng: random.Random,
        rule: ScoringRule | str = CLASSIC,
        first_dealer: Seat | str = Seat.N,
        first_hands: Mapping[Seat, Iterable[Card]] | None = None,
    ) -> None:
        self.rule = get_rule(rule)
        self.first_dealer = Seat.parse(first_dealer)
        self._rng = rng
        first = (
            DealState.deal(self.first_dealer, rng, self.rule)
            if first_hands is None
            else DealState(self.first_dealer, first_hands, self.rule)
        )
        self.deals: list[DealState] = [first]
        self.results: list[DealResult] = []
        self.totals: dict[Side, int] = _zero_sides()

    @classmethod
    def new(
        cls,
        seed: int | random.Random | None = None,
        rule: ScoringRule | str = CLASSIC,
        first_dealer: Seat | str = Seat.N,
        first_hands: Mapping[Seat, Iterable[Card]] | None = None,
    ) -> GameState:
        """A new game from a seed (or an injected random source); ``first_hands``: the first
        deal's cards, chosen (a board entered by hand), instead of dealt from the seed."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        return cls(rng, rule, first_dealer, first_hands)

    @property
    def deal(self) -> DealState:
        """The deal being played (the last one once the game is over)."""
        return self.deals[-1]

    @property
    def deal_number(self) -> int:
        return len(self.deals)

    def is_terminal(self) -> bool:
        return self.deal.is_terminal() and is_game_over(self.totals, len(self.results))

    def current_player(self) -> Seat | None:
        return self.deal.current_player()

    def legal_actions(self) -> list[Action]:
        return self.deal.legal_actions()

    def apply_action(self, action: Action) -> None:
        """Apply an action; a finished deal is scored and the next one dealt automatically."""
        if self.is_terminal():
            raise IllegalPlayError(Msg("error.play.game_over"))
        self.deal.apply_action(action)
        if self.deal.is_terminal():
            result = self.deal.result()
            self.results.append(result)
            for side in SIDES:
                self.totals[side] += result.scores[side]
            if not is_game_over(self.totals, len(self.results)):
                dealer = self.deal.dealer.left
                self.deals.append(DealState.deal(dealer, self._rng, self.rule))

    def observation(self, seat: Seat | str) -> Observation:
        """The current deal as ``seat`` sees it, with the game totals before this deal."""
        before = _zero_sides()
        for result in self.results[: len(self.deals) - 1]:
            for side in SIDES:
                before[side] += result.scores[side]
        return self.deal.observation(seat, totals=before)

    def outcome(self) -> GameOutcome:
        """Totals, game bonus, final scores and winner; only once the game is over."""
        if not self.is_terminal():
            raise IllegalPlayError(Msg("error.play.game_not_over_yet"))
        return game_outcome(self.totals, len(self.results))

    def clone(self) -> GameState:
        """An independent copy: its deals, scores and random source (for the deals still to
        come) change apart from this one's."""
        other = copy.copy(self)
        other._rng = copy.copy(self._rng)
        other.deals = [deal.clone() for deal in self.deals]
        other.results = list(self.results)
        other.totals = dict(self.totals)
        return other

    def __repr__(self) -> str:
        return (
            f"<GameState deal={self.deal_number} totals=NS {self.totals[Side.NS]} "
            f"EW {self.totals[Side.EW]} rule={self.rule.name}>"
        )
