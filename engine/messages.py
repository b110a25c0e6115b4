"""Messages: what the engine says, as data the trainer can put into any language.

A :class:`Msg` is a message id plus typed parameters (cards, ranks, suits, checklist items,
combinations, shapes, numbers, nested messages and lists). Every sentence is one template with
named placeholders in Python's ``%(name)s`` form, the same form gettext catalogs use, so a
translation may put the fields in any order; a sentence about a count has a singular and a
plural form (:class:`Plural`). Nothing is assembled by gluing sentence pieces together.

A :class:`Msg` is also a ``str``: its value is the English rendering, so the CLI, the tests
and any caller that wants text keep working unchanged, and ``msg.id`` / ``msg.params`` say
what it was made of for a renderer in another language (``trainer.wording``).

>>> from engine.cards import card
>>> m = Msg("drill.checklist.explanation", item=Term("item", "fours"), shape=Text(""),
...         cards=Cards((card("7S"), card("7H"), card("7D"), card("7C"))))
>>> str(m)
'Four of a kind: 7♠ 7♥ 7♦ 7♣. Nothing earlier on the checklist is in this hand.'
>>> m.id, sorted(m.params)
('drill.checklist.explanation', ['cards', 'item', 'shape'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, Union

from engine.cards import Card, rank_name
from engine.errors import MESSAGES as ERROR_MESSAGES

__all__ = [
    "COMBO_TITLES",
    "CONTEXT",
    "ENGLISH",
    "TERM_KINDS",
    "Cards",
    "Join",
    "Msg",
    "Param",
    "Plural",
    "Term",
    "Text",
    "Translator",
    "card_label",
    "english",
    "iter_params",
    "placeholders",
    "reading_id",
    "register",
    "register_terms",
    "register_words",
    "render",
    "templates",
    "term_english",
    "terms",
]


@dataclass(frozen=True, slots=True)
class Plural:
    """A sentence with a singular and a plural form, chosen by the number in ``count``."""

    one: str
    other: str
    count: str = "n"


@dataclass(frozen=True, slots=True)
class Text:
    """Words shown as they are in every language: a shape (``XX.XX``), a proper name."""

    value: str


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards in running text: ``10♠ J♠`` (every language writes cards the same way)."""

    cards: tuple[Card, ...]
    #: ``then``: cards played in turn (``7♥ then 8♥``) rather than a set.
    then: bool = False


#: The kinds of term and, for each, the English words by key.
TERM_KINDS = (
    "item",
    "item_lower",
    "combo",
    "combo_lower",
    "suit",
    "rank",
    "ranks",
    "seat",
    "seat_short",
    "side",
    "action",
)


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the game's vocabulary: ``Term("item", "four_sf")``, ``Term("suit", "spades")``,
    ``Term("rank", "11")``, ``Term("ranks", "11")`` (the plural), ``Term("seat", "N")``.
    ``item_lower`` and ``combo_lower`` are the names inside a sentence (English lower case);
    ``seat_short`` and ``side`` the short labels of a table (English ``N``, ``N–S``);
    ``action`` a call (``pass``, ``force``)."""

    kind: str
    key: str

    def __post_init__(self) -> None:
        if self.kind not in TERM_KINDS:
            raise ValueError(f"unknown term kind: {self.kind!r}")
        term_english(self.kind, self.key)  # raises KeyError for an unknown key


@dataclass(frozen=True, slots=True)
class Join:
    """A list of values joined by a separator message (``list.comma``, ``list.or`` …)."""

    parts: tuple[Param, ...]
    sep: str = "list.comma"


Param = Union[int, Text, Cards, Term, Join, "Msg"]


class Msg(str):
    """A message: an id from :func:`templates` and its parameters; its ``str`` is English.

    >>> Msg("points", n=1), Msg("points", n=3)
    ('1 point', '3 points')
    """

    id: str
    params: Mapping[str, Param]

    def __new__(cls, msg_id: str, /, **params: Param) -> Msg:
        obj = super().__new__(cls, english(msg_id, params))
        obj.id = msg_id
        obj.params = params
        return obj

    def __reduce__(self) -> tuple[Callable[..., Msg], tuple[Any, ...]]:
        return (_rebuild, (self.id, dict(self.params)))

    def __repr__(self) -> str:
        return str.__repr__(self)


def _rebuild(msg_id: str, params: dict[str, Param]) -> Msg:
    return Msg(msg_id, **params)


# ---------------------------------------------------------------------------------------------
# The id table. Keys are message ids; values English templates with named placeholders.

_STATIC: dict[str, str | Plural] = {
    # Joining lists and short fragments.
    "list.comma": ", ",
    "list.or": " or ",
    "list.and": " and ",
    "list.or_sentence": " Or: ",
    "list.semicolon": "; ",
    "list.dot": " · ",
    "list.space": " ",
    "list.slash": " / ",
    "list.dash": "-",
    "list.sentence": " ",
    "lines": "%(lines)s",
    "term": "%(term)s",
    "points": Plural("%(n)s point", "%(n)s points"),
    "with_shape": "%(title)s (%(shape)s)",
    # Play in words.
    "play.then": "%(c1)s then %(c2)s",
    "play.and_pass": "%(c1)s and pass",
    "play.action.quoted": "'%(action)s'",
    "side_hand.1": "1st",
    "side_hand.2": "2nd",
    "side_hand.3": "3rd",
    "side_hand.4": "4th",
    "signal.two_cards": "Partner led %(c1)s, you passed, partner played %(c2)s.",
    "signal.card_and_pass": "Partner led %(c1)s, you passed, and partner passed too.",
    # Options.
    "option.pass": "Pass",
    "option.force": "Force partner: “Play!”",
    "option.play": "Play %(cards)s",
    "reply.pass": "Pass",
    "reply.force": "Say “Play!”: partner completes the hand alone",
    "reply.play": "Play %(cards)s",
    # Kinds.
    "kind.score.title": "Score the cards",
    "kind.score.description": (
        "Value a finished hand, or a side's six left-overs, under either scoring rule."
    ),
    "kind.checklist.title": "Spot the checklist item",
    "kind.checklist.description": (
        "Quick-fire: find the first item of the leader's checklist in a hand."
    ),
    "kind.lead.title": "Lead a signal",
    "kind.lead.description": (
        "You hold the cards and the lead: choose the two-card signal that tells "
        "partner what you are building."
    ),
    "kind.read.title": "Read partner's signal",
    "kind.read.description": (
        "Partner has led two cards (or one and a pass): say what partner is telling you."
    ),
    "kind.reply.title": "Reply to partner",
    "kind.reply.description": (
        "Partner has signalled and you hold these cards: play to the combination, "
        "pass, or force partner to play."
    ),
    # Score drills.
    "drill.score.prompt.leftovers": (
        "These are a side's six left-overs. What bonus do they give the other side?"
    ),
    "drill.score.prompt.hand": "This hand has just been completed. What does it score?",
    "drill.score.leftovers": (
        "The best left-over combination is %(combo)s (%(cards)s), worth %(value)s: "
        "the other side scores %(multiplier)s × %(value)s = %(points)s."
    ),
    "drill.score.hand": Plural(
        "%(combo)s: %(cards)s. %(n)s point under the %(rule)s rule.",
        "%(combo)s: %(cards)s. %(n)s points under the %(rule)s rule.",
    ),
    "rule.classic": "classic",
    "rule.contribution": "contribution",
    "drill.score.split.four": ("%(seats)s of the four cards (most from one partner: %(most)s)."),
    "drill.score.split.five": ("%(seats)s of the five cards (most from one partner: %(most)s)."),
    "drill.score.seat_count": "%(seat)s %(n)s",
    "sentences": "%(first)s %(second)s",
    # The verdict on an answer (the CLI's feedback line).
    "verdict.right": "Right.",
    "verdict.right_best": "Right. The best answer is %(expected)s.",
    "verdict.wrong": "Not quite — the answer is %(expected)s.",
    "verdict.wrong_best": "Not quite — the best answer is %(expected)s.",
    # Checklist drills.
    "drill.checklist.prompt": "Which checklist item does this hand hold first?",
    "drill.checklist.explanation": (
        "%(item)s%(shape)s: %(cards)s. Nothing earlier on the checklist is in this hand."
    ),
    "shape.in_brackets": " (%(shape)s)",
    # Lead drills.
    "drill.lead.prompt": ("You are on lead to your side's %(nth)s hand. Which signal do you lead?"),
    "drill.lead.play_out": (
        "Your first item is %(item)s: %(cards)s. Your card, %(convention)s, gives it no "
        "signal, so play it out at once: lead any card of it, then another (partner passes after "
        "each), then the other two and a fifth card. Lead %(play)s, or any two of the four "
        "in either order."
    ),
    "drill.lead.first_item": (
        "Your first signalled item is %(item)s%(shape)s: %(cards)s. Lead %(play)s."
    ),
    "drill.lead.first_item.pass": (
        "Your first signalled item is %(item)s%(shape)s: %(cards)s. Lead %(c1)s and pass."
    ),
    "drill.lead.every": "Every correct lead (the first is best): %(plays)s.",
    "drill.lead.heard": "Partner reads your lead %(play)s first as: %(reading)s",
    "drill.lead.heard_nothing": "no signal at all.",
    # Read drills.
    "drill.read.prompt": "Side hand %(side_hand)s. %(signal)s What does partner hold?",
    "drill.read.later": "It could also mean (a later reading): %(readings)s",
    "drill.read.ruled_out": "Ruled out by the cards you can see: %(items)s.",
    "drill.read.hand_size": (
        "Ruled out by partner's %(n)s cards: no hand of that size, from the cards you cannot "
        "see, shows %(items)s with this lead."
    ),
    "drill.read.explanation": "The first reading is %(item)s: %(readings)s",
    "drill.partner_held": "Partner held these cards",
    "drill.read.partner_held_other": (
        "Partner held these cards: %(item)s, which this signal also shows — the "
        "first reading is still the one to make"
    ),
    # Reply drills.
    "drill.reply.prompt": "Side hand %(side_hand)s. %(signal)s What do you do?",
    "drill.reply.equally": "Equally right: %(options)s.",
    # Reply advice (engine.signals.reply).
    "advice.no_cards": "You hold no cards: the leader completes the hand.",
    "advice.force": (
        "You alone hold %(own)s (%(cards)s), better than the %(promised)s partner's signal "
        "promises: say “Play!” so partner completes this hand alone, and keep your cards "
        "for a hand you lead."
    ),
    "advice.complete.one": "Partner shows %(item)s; %(cards)s completes it.",
    "advice.complete.every": Plural(
        "Partner shows %(item)s; %(cards)s completes it in every one of the %(n)s holding "
        "the signal allows.",
        "Partner shows %(item)s; %(cards)s completes it in every one of the %(n)s holdings "
        "the signal allows.",
    ),
    "advice.complete.some": Plural(
        "Partner shows %(item)s; %(cards)s completes it in %(top)s of the %(n)s holding "
        "the signal allows.",
        "Partner shows %(item)s; %(cards)s completes it in %(top)s of the %(n)s holdings "
        "the signal allows.",
    ),
    "advice.complete.some.with_every": Plural(
        "Partner shows %(item)s; %(cards)s completes it in %(top)s of the %(n)s holding "
        "the signal allows, and with %(more)s as well, in every one of them.",
        "Partner shows %(item)s; %(cards)s completes it in %(top)s of the %(n)s holdings "
        "the signal allows, and with %(more)s as well, in every one of them.",
    ),
    "advice.complete.some.with_more": Plural(
        "Partner shows %(item)s; %(cards)s completes it in %(top)s of the %(n)s holding "
        "the signal allows, and with %(more)s as well, in %(both)s of them.",
        "Partner shows %(item)s; %(cards)s completes it in %(top)s of the %(n)s holdings "
        "the signal allows, and with %(more)s as well, in %(both)s of them.",
    ),
    "advice.too_few": Plural(
        "Partner shows %(item)s. Your %(cards)s would complete only %(top)s of the %(n)s "
        "holding the signal allows: pass and let partner build it.",
        "Partner shows %(item)s. Your %(cards)s would complete only %(top)s of the %(n)s "
        "holdings the signal allows: pass and let partner build it.",
    ),
    "advice.add_rank": "You must play after a card and pass: add your %(rank)s to partner's.",
    "advice.own_pair": "You must play: a pair of your own, the %(ranks)s.",
    "advice.least_useful": "You must play: the %(card)s is the card least useful later.",
    "advice.nothing_to_add": (
        "Partner shows %(item)s and you have nothing to add: pass and let the leader "
        "complete the hand."
    ),
    "advice.nothing_to_add.no_signal": (
        "Partner shows no signal and you have nothing to add: pass and let the leader "
        "complete the hand."
    ),
    "card.label": "%(rank)s of %(suit)s",
    # Readings (engine.signals.decoder).
    "reading.no_signal": "Not a signal in this system: partner shows nothing you can build on.",
    "reading.holding": "%(ranks)s",
    # Play: the summary of a hand (engine.play.summary).
    "play.summary.no_signal": "Hand %(hand)s: %(leader)s led without a signal and %(made)s.",
    "play.summary.signal": "Hand %(hand)s: %(leader)s signalled %(play)s (%(heard)s); %(made)s.",
    "play.summary.signal_read": (
        "Hand %(hand)s: %(leader)s signalled %(play)s (%(heard)s), you read %(read)s "
        "(%(verdict)s); %(made)s."
    ),
    "play.summary.made": "made %(combo)s for %(points)s",
    "play.summary.off_card": "no signal on the card",
    "play.summary.right": "right",
    "play.summary.wrong": "wrong",
}


#: The fixed sentences and the errors' (``engine.errors.MESSAGES``).
_TABLE: dict[str, str | Plural] = {**_STATIC, **ERROR_MESSAGES}


def templates() -> dict[str, str | Plural]:
    """Every message id and its English template: the fixed sentences above, and what the
    modules that speak register on import (the reading of every row of every shipped
    convention card, the cheat sheet's words). Import :mod:`engine.drills` first for all."""
    return _TABLE


def register(msg_id: str, template: str) -> str:
    """Add a convention row's sentence (a ``str.format`` template such as ``"… {suit} …"``) to
    the table under ``msg_id``; returns the template in the table's ``%(suit)s`` form."""
    converted = _percent(template)
    _TABLE.setdefault(msg_id, converted)
    return converted


def register_words(words: Mapping[str, str | Plural]) -> None:
    """Add sentences already in the table's form (``%(name)s``) under their ids."""
    for msg_id, template in words.items():
        _TABLE.setdefault(msg_id, template)


def reading_id(convention: str, row_id: str) -> str:
    """The message id of a convention row's reading."""
    return f"reading.{convention}.{row_id}"


def _percent(template: str) -> str:
    """A ``str.format`` template (``{suit}``) in the ``%(suit)s`` form of the table."""
    return re.sub(r"\{(\w+)\}", r"%(\1)s", template.replace("%", "%%"))


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def placeholders(template: str) -> set[str]:
    """The field names a template uses: ``{"card"}`` for ``"Play %(card)s"``."""
    return set(_PLACEHOLDER.findall(template))


# ---------------------------------------------------------------------------------------------
# Terms: the game's words, by kind and key, in English.


#: The combinations' names (score drills, left-overs, reply advice).
COMBO_TITLES: dict[str, str] = {
    "nothing": "Nothing",
    "one_pair": "One pair",
    "two_pair": "Two pair",
    "threes": "Threes",
    "straight": "Straight",
    "flush": "Flush",
    "full_house": "Full house",
    "fours": "Fours",
    "straight_flush": "Straight flush",
    "three_pairs": "Three pairs (left-overs)",
}

_TERMS: dict[str, dict[str, str]] = {
    "combo": dict(COMBO_TITLES),
    "combo_lower": {k: v.lower() for k, v in COMBO_TITLES.items()},
    "suit": {"spades": "spades", "hearts": "hearts", "diamonds": "diamonds", "clubs": "clubs"},
    "rank": {str(v): rank_name(v) for v in range(2, 15)},
    "ranks": {str(v): rank_name(v, plural=True) for v in range(2, 15)},
    "seat": {"N": "North", "E": "East", "S": "South", "W": "West"},
    # A seat and a side as a table's short labels write them (``N 7♥``, ``N–S 12``).
    "seat_short": {"N": "N", "E": "E", "S": "S", "W": "W"},
    "side": {"NS": "N–S", "EW": "E–W"},
    # The calls besides a card, as a record writes them (``pass``, ``force``).
    "action": {"pass": "pass", "force": "force"},
}


def terms() -> dict[str, dict[str, str]]:
    """Every term's English words: ``terms()["item"]["four_sf"] == "Four to a straight flush"``
    (checklist items and combinations are registered by the modules that define them)."""
    return _TERMS


def register_terms(kind: str, words: Mapping[str, str]) -> None:
    """Add the English words of a kind of term; the ``_lower`` kind (inside a sentence) too."""
    _TERMS[kind] = {str(k): v for k, v in words.items()}
    if kind + "_lower" in TERM_KINDS:
        _TERMS[kind + "_lower"] = {str(k): v.lower() for k, v in words.items()}


def term_english(kind: str, key: str) -> str:
    return terms()[kind][key]


# ---------------------------------------------------------------------------------------------
# Rendering in English.


#: The gettext context of every message template; a term's is ``engine:<kind>``.
CONTEXT = "engine"


class Translator(Protocol):
    """What :func:`render` needs of a catalog: Python's ``gettext.GNUTranslations`` has it,
    and so does a wrapper around Django's ``pgettext`` / ``npgettext``."""

    def pgettext(self, context: str, message: str) -> str: ...

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str: ...


class _English:
    """The identity catalog: every template as written."""

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return msgid1 if n == 1 else msgid2


ENGLISH: Translator = _English()


def english(msg_id: str, params: Mapping[str, Param]) -> str:
    """The English sentence of ``msg_id`` with ``params`` (KeyError for an unknown id)."""
    return _render(msg_id, params, ENGLISH)


def render(value: Param | str, translator: Translator = ENGLISH) -> str:
    """``value`` in the words of ``translator``'s catalog: each template looked up in the
    context :data:`CONTEXT` (a count's sentence with ``npgettext``), each term in
    ``engine:<kind>``; cards, shapes and numbers are written the same in every language. Text
    that is not a message comes back as it is; a message whose id is not in the table (a
    sentence of a convention card that is not shipped) in its English."""
    if isinstance(value, Msg):
        if value.id not in _TABLE:
            return str.__str__(value)
        return _render(value.id, value.params, translator)
    if isinstance(value, str):
        return value
    return _param(value, translator)


def _render(msg_id: str, params: Mapping[str, Param], translator: Translator) -> str:
    template = _TABLE[msg_id]
    fields = {name: _param(value, translator) for name, value in params.items()}
    if isinstance(template, Plural):
        count = params[template.count]
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"{msg_id}: the count {template.count!r} must be a number")
        text = translator.npgettext(CONTEXT, template.one, template.other, count)
    else:
        text = translator.pgettext(CONTEXT, template) if template else ""
    return text % fields


def _term(kind: str, key: str, translator: Translator) -> str:
    words = term_english(kind, key)
    return words if words.isdigit() else translator.pgettext(f"{CONTEXT}:{kind}", words)


def _param(value: Param, translator: Translator) -> str:
    if isinstance(value, Msg):
        if translator is ENGLISH:
            return str.__str__(value)
        return render(value, translator)
    if isinstance(value, bool):
        raise TypeError("a message parameter cannot be a bool")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Text):
        return value.value
    if isinstance(value, Cards):
        if value.then and len(value.cards) > 1:
            out = value.cards[0].symbol
            for c in value.cards[1:]:
                out = _render("play.then", {"c1": Text(out), "c2": Text(c.symbol)}, translator)
            return out
        return " ".join(c.symbol for c in value.cards)
    if isinstance(value, Term):
        return _term(value.kind, value.key, translator)
    if isinstance(value, Join):
        sep = _render(value.sep, {}, translator)
        return sep.join(_param(p, translator) for p in value.parts)
    raise TypeError(f"not a message parameter: {value!r}")


def iter_params(msg: Msg) -> Iterator[Param]:
    """Every parameter of ``msg``, nested messages and list parts included (depth first)."""

    def walk(value: Param) -> Iterator[Param]:
        yield value
        if isinstance(value, Msg):
            for v in value.params.values():
                yield from walk(v)
        elif isinstance(value, Join):
            for p in value.parts:
                yield from walk(p)

    for v in msg.params.values():
        yield from walk(v)


def card_label(c: Card) -> Msg:
    """A card in words: ``Jack of spades``."""
    return Msg("card.label", rank=Term("rank", str(c.rank)), suit=Term("suit", c.suit.name.lower()))
