"""Typed errors raised by the engine, and the words they say.

Every error subclasses :class:`ValueError`, so callers at the edge (forms, the CLI) can catch
one type and show the message, which always names the offending input.

Like Django's ``ValidationError`` (a ``code`` and ``params``, rendered at the edge), an error
made from an :class:`engine.messages.Msg` carries the message's id and parameters
(:attr:`ConcertoError.id`, :attr:`ConcertoError.params`), so the trainer can say it in the
page's language; ``str(error)`` is the English sentence either way, which is what the command
line prints. The English templates of those ids are :data:`MESSAGES`, part of the engine's
message table (:func:`engine.messages.templates`), so the trainer's catalog translates them.
An error given plain text has no id and reads the same in every language.

This module is the engine's lowest: :mod:`engine.cards` raises its errors and
:mod:`engine.messages` (over the cards) adds :data:`MESSAGES` to its table, so it imports
neither. A message is a ``str`` (its English), which is all an error needs to be made from one;
the id and parameters are read off it as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "MESSAGES",
    "ConcertoError",
    "IllegalPlayError",
    "InvalidCardsError",
    "InvalidNotationError",
    "UnknownConventionError",
    "WrongTypeError",
]


class ConcertoError(ValueError):
    """Base class of every error the engine raises on bad input.

    Made from a message, it keeps the message's id and parameters; its ``str`` is the
    message's English:

    >>> from engine.messages import Msg, Text
    >>> err = IllegalPlayError(Msg("error.play.not_in_hand", seat=Text("S"), card=Text("2H")))
    >>> str(err), err.id, sorted(err.params)
    ('S cannot play 2H: it is not in their hand', 'error.play.not_in_hand', ['card', 'seat'])
    >>> IllegalPlayError("free text").id is None
    True
    """

    def __init__(self, message: str, /) -> None:
        super().__init__(message)
        #: What the error says: a :class:`~engine.messages.Msg` (a ``str`` with an id and
        #: parameters), or plain text (English, the same in every language).
        self.message: str = message

    @property
    def id(self) -> str | None:
        """The message id (``"error.play.first_card"``); None for an error given plain text."""
        found: Any = getattr(self.message, "id", None)
        return found if isinstance(found, str) else None

    @property
    def params(self) -> Mapping[str, object]:
        """The message's parameters (:data:`engine.messages.Param` values; empty for plain
        text)."""
        found: Any = getattr(self.message, "params", None)
        return found if isinstance(found, Mapping) else {}


class InvalidNotationError(ConcertoError):
    """A string that is not a card, seat, side or other notation the engine reads.

    >>> raise InvalidNotationError("not a card: 'XS'")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidNotationError: not a card: 'XS'
    """


class InvalidCardsError(ConcertoError):
    """Well-formed cards that do not make a valid set here (duplicates, wrong count)."""


class IllegalPlayError(ConcertoError):
    """A syntactically valid action that the rules do not allow in the current position."""


class WrongTypeError(ConcertoError, TypeError):
    """A value of the wrong type given to an engine function: a card string where a
    :class:`~engine.cards.Card` is expected, a convention's name where a
    :class:`~engine.signals.Convention` is. Strings are parsed at the edges (the CLI, forms);
    inside, the engine takes value types. Also a :class:`TypeError`.

    >>> raise WrongTypeError("encode() takes cards, not the string '5S 4S'")
    Traceback (most recent call last):
    ...
    engine.errors.WrongTypeError: encode() takes cards, not the string '5S 4S'
    """


class UnknownConventionError(InvalidNotationError):
    """A convention name the engine does not know (the message lists the known ones)."""


#: The English of every error message id, in the table's ``%(name)s`` form. Like the other
#: sentences of the table, each is one template (here a clause: the trainer and the command
#: line put it after their own words, "That move is not allowed: …", "error: …").
MESSAGES: dict[str, str] = {
    # Scoring rules (engine.scoring).
    "error.rule.unknown": "unknown scoring rule: %(name)s (choose %(choices)s)",
    # Actions and the rules of play (engine.game).
    "error.action.not_an_action": "not an action: %(text)s (a card such as AS, pass or force)",
    "error.play.all_hands_played": "the deal is over: all eight hands have been played",
    "error.play.not_in_hand": "%(seat)s cannot play %(card)s: it is not in their hand",
    "error.play.cannot_pass": "%(seat)s cannot pass: %(reason)s",
    "error.play.cannot_force": "%(seat)s cannot force: %(reason)s",
    "error.play.forced": "%(seat)s forced %(partner)s to play the rest of the hand",
    "error.play.first_card": "the first card of a hand must be played",
    "error.play.two_passes": "the two previous turns were both passes",
    "error.play.partner_empty": "partner %(partner)s holds no cards",
    "error.play.leftovers_not_yet": "left-overs exist only once all eight hands have been played",
    "error.play.results_not_yet": "deal results exist only once all eight hands have been played",
    "error.play.game_over": "the game is over",
    "error.play.game_not_over_yet": "the game is not over yet",
    # The table (engine.play).
    "error.play.deal_over": "the deal is over",
    "error.play.not_your_turn": "it is not your turn",
    "error.play.not_allowed_now": "%(action)s is not allowed now",
    "error.play.record_action": "action %(number)s (%(action)s): %(reason)s",
    "error.play.no_deal_yet": "no deal %(deal)s yet",
    "error.play.hand_not_finished": "hand %(hand)s of deal %(deal)s is not finished",
    "error.play.deal_number_not_over": "deal %(deal)s is not over",
    "error.play.deal_not_over": "the deal is not over",
    "error.play.game_not_over": "the game is not over",
    "error.quiz.no_signal": "there is no signal of partner's to read now",
    "error.quiz.not_an_option": "not one of the quiz's options: %(answer)s",
    "error.review.not_over": "the deal is not over yet: its review opens once it is",
    # Boards that teach something (engine.teaching.boards).
    "error.boards.side_hand": (
        "only a side's first hand can be chosen in advance, not side hand %(side_hand)s: "
        "what a leader holds later depends on the play"
    ),
    "error.boards.count": "ask for 1 to %(most)s boards, not %(count)s",
    "error.boards.unknown_item": "not a checklist item: %(item)s",
    "error.boards.unknown_row": "the card %(card)s has no row %(row)s",
    "error.boards.row_item": "row %(row)s does not show %(item)s",
    "error.boards.no_play_out": "the card %(card)s signals every item: nothing is played out",
    "error.boards.play_out_completes": (
        "four of a kind played out has no signal for partner to complete"
    ),
    "error.boards.par_range": "the par margin's low end %(low)s is above its high end %(high)s",
    "error.boards.impossible": (
        "no 13 cards show %(item)s first: every 13 cards hold three of a rank, two pairs or "
        "five ranks in a row, and four of one suit, which come earlier on the checklist"
    ),
    "error.boards.too_rare": (
        "only %(found)s of %(count)s boards turned up in %(deals)s deals: ask for fewer, "
        "or for something more common"
    ),
    # A deal's setup and record (engine.play.setup, engine.play.record).
    "error.setup.not_an_object": "a setup is a JSON object, not %(value)s",
    "error.setup.unknown_field": "unknown setup field: %(field)s",
    "error.setup.no_seed": "a setup needs a seed",
    "error.setup.not_text": "%(field)s must be text, not %(value)s",
    "error.setup.seed_not_number": "seed must be a whole number, not %(value)s",
    "error.setup.seed_range": "seed must be 0 to 2**63 - 1, not %(value)s",
    "error.setup.convention_not_text": "a convention is named by text, not %(value)s",
    "error.setup.unknown_opponents": "unknown opponents: %(value)s (choose %(choices)s)",
    "error.setup.unknown_partner": "unknown partner: %(value)s (choose %(choices)s)",
    "error.setup.unknown_opponents_strength": (
        "unknown strength of the opponents: %(value)s (choose %(choices)s)"
    ),
    "error.setup.game_not_bool": "game must be true or false, not %(value)s",
    # Duplicate sessions (engine.duplicate).
    "error.movement.kind": "unknown movement %(kind)s (choose %(choices)s)",
    "error.movement.fill": "unknown way to fill an odd field: %(fill)s (choose %(choices)s)",
    "error.movement.pairs": "a session needs %(least)s to %(most)s pairs, not %(pairs)s",
    "error.movement.rounds_howell": (
        "a Howell of %(pairs)s pairs has %(full)s rounds: %(rounds)s rounds do not fit"
    ),
    "error.movement.rounds_mitchell": (
        "a Mitchell of %(pairs)s pairs has %(full)s rounds: %(rounds)s rounds do not fit"
    ),
    "error.movement.boards_range": "a session has 1 to %(most)s boards, not %(boards)s",
    "error.movement.boards_split": (
        "%(boards)s boards do not split evenly into %(rounds)s rounds: "
        "choose %(lower)s or %(higher)s, or other rounds"
    ),
    "error.setup.unknown_dealer": "the dealer is a seat (N, E, S or W), not %(value)s",
    "error.setup.hands": "a board's hands give N, E, S and W 13 different cards each: %(reason)s",
    "error.record.not_an_object": "a record is a JSON object, not %(type)s",
    "error.record.incomplete": "a record needs its setup and its actions",
    "error.record.actions_not_text": "a record's actions are a list of text (7H, pass, force)",
    "error.record.deal_not_over": "the record exists once the deal is over",
    "error.record.game_not_over": "the record exists once the game is over",
    "error.record.differs": "the record's %(field)s differ from its replay",
    # Drills that cannot be built (engine.drills.build).
    "error.drill.seed": "a drill seed is a whole number from 0, not %(seed)s",
    "error.drill.retired": (
        "drill %(seed)s was made by version %(version)s of the drill generator, which has been "
        "retired; its position is no longer built"
    ),
    "error.drill.no_item": "the card %(convention)s has no drill “%(kind)s” for %(items)s",
    "error.drill.no_fit": "no drill “%(kind)s” fits these settings",
    "error.drill.no_fit_size": (
        "no drill “%(kind)s” fits these settings: the leader of side hand %(side_hand)s holds "
        "%(low)s to %(high)s cards, not %(size)s"
    ),
    # Answers to drills (engine.drills).
    "error.answer.choose_option": "choose one of the options",
    "error.answer.not_an_option": "not one of this drill's options: %(answer)s",
    "error.answer.lead_two_cards": "a lead needs a first card and a second card or pass",
    "error.answer.not_in_hand": "%(card)s is not in your hand",
    "error.answer.played_twice": "%(card)s cannot be played twice",
}
