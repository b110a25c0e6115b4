"""Reading a learner's answer and grading it with the engine."""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import Card, sort_cards
from engine.drills.build import score_points
from engine.drills.model import SCORE_TITLES, Answer, Drill, Grade, InvalidAnswerError
from engine.drills.words import advice_option, play_words, reading_option
from engine.signals import (
    ITEM_TITLES,
    decode,
    detect,
    encode,
    reply_advice,
)


def parse_answer(drill: Drill, data: Mapping[str, str]) -> Answer:
    """Read a submitted answer, checking it fits the drill.

    Lead drills take ``c1`` and ``c2`` (a card or ``pass``), both from the hand; the others take
    ``option``, one of the drill's option keys. Raises :class:`InvalidAnswerError` naming the
    problem, or :class:`InvalidNotationError` for an unknown card.
    """
    if drill.kind == "lead":
        raw1, raw2 = (data.get("c1") or "").strip(), (data.get("c2") or "").strip()
        if not raw1 or not raw2:
            raise InvalidAnswerError("a lead needs a first card and a second card or pass")
        c1 = Card.parse(raw1)
        c2 = None if raw2.lower() == "pass" else Card.parse(raw2)
        for c in (c1, c2):
            if c is not None and c not in drill.hand:
                raise InvalidAnswerError(f"{c.symbol} is not in your hand")
        if c1 == c2:
            raise InvalidAnswerError(f"{c1.symbol} cannot be played twice")
        return Answer(play=(c1, c2))
    raw = (data.get("option") or "").strip()
    if not raw:
        raise InvalidAnswerError("choose one of the options")
    if raw not in {o.key for o in drill.options}:
        raise InvalidAnswerError(f"not one of this drill's options: {raw!r}")
    return Answer(option=raw)


def grade(drill: Drill, answer: Answer) -> Grade:
    """Ask the engine for the right answer and compare. The explanation says why."""
    if drill.kind == "lead":
        return _grade_lead(drill, answer)
    option = answer.option
    convention = drill.convention
    if drill.kind == "read":
        assert drill.signal is not None
        readings = decode(drill.signal[0], drill.signal[1], drill.side_hand, convention,
                          drill.visible)
        right = reading_option(readings[0].item, readings[0].shape)
        others = tuple(f"It could also mean: {r.text}" for r in readings[1:])
        return Grade(option == right.key, right.label, readings[0].text, others)
    if drill.kind == "checklist":
        found = detect(drill.hand, convention)
        shape = f" ({found.shape})" if found.shape else ""
        return Grade(
            option == found.item, ITEM_TITLES[found.item],
            f"{ITEM_TITLES[found.item]}{shape}: "
            f"{' '.join(c.symbol for c in sort_cards(found.cards))}.",
        )
    if drill.kind == "score":
        combination, points = score_points(drill.cards, drill.params.rule, drill.by)
        name = SCORE_TITLES.get(combination, combination)
        if len(drill.cards) == 6:
            text = f"The best left-over combination is {name.lower()}: a bonus of {points}."
        else:
            text = f"{name}: {points} points under the {drill.params.rule} rule."
        return Grade(option == str(points), str(points), text)
    assert drill.kind == "reply" and drill.signal is not None
    advice = reply_advice(drill.hand, drill.signal[0], drill.signal[1], drill.side_hand,
                          convention, drill.visible)
    right = advice_option(advice.action, advice.cards)
    return Grade(option == right.key, right.label, advice.reason)


def _grade_lead(drill: Drill, answer: Answer) -> Grade:
    assert answer.play is not None
    convention = drill.convention
    enc = encode(drill.hand, drill.side_hand, convention)
    c1, c2 = answer.play
    readings = decode(c1, c2, drill.side_hand, convention)
    heard = readings[0].text if readings else "no signal at all."
    if not enc.plays:
        return Grade(False, "no signal", "This hand holds nothing to signal.")
    title = ITEM_TITLES[enc.item]
    shape = f" ({enc.shape})" if enc.shape else ""
    details = [f"Partner reads your lead {play_words((c1, c2))} as: {heard}"]
    if len(enc.plays) > 1:
        details.append("Every correct lead: " + ", ".join(play_words(p) for p in enc.plays) + ".")
    return Grade(
        correct=(c1, c2) in enc.plays,
        expected=play_words(enc.plays[0]),
        explanation=f"Your first checklist item is {title.lower()}{shape}: "
                    f"{' '.join(c.symbol for c in sort_cards(enc.cards))}. "
                    f"Lead {play_words(enc.plays[0])}.",
        details=tuple(details),
    )
