"""The table's and the review's template context, built from what the engine returns.

Everything here comes from what the page shows of a table (:class:`TableShown`: South's
:class:`~engine.play.TableView`, the bots' :class:`~engine.play.Step` list, the coach, the
finished hands' summaries) and, once a deal is over, the review: never from the table itself
or its hidden state. Seats and actions are the engine's values (``Seat``, ``Action``): legality
is a comparison of actions, and a seat's letter is only a key for the templates. Steps are given
increasing delays (``d1``, ``d2``, … CSS classes) so the page shows the bots' turns one at a
time, and the learner's buttons appear only after the last of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from engine.cards import Card, sort_cards
from engine.game import FORCE, PASS, Action
from engine.messages import Msg, terms
from engine.play import (
    LEARNER,
    PARTNER,
    DealReview,
    HandEnd,
    HandSummary,
    LeadAdvice,
    ReadQuiz,
    Step,
)
from engine.seats import SEATS, Seat
from engine.signals import CONVENTIONS
from trainer.core.game.odds import odds_chart
from trainer.play.models import Game, hand_key
from trainer.play.selectors import TableShown
from trainer.play.table_view import (
    LogDeal,
    LogLine,
    Played,
    SeatHand,
    seat_name,
    solo_table,
)
from trainer.progress.models import Attempt
from trainer.wording.render import say, term

COACH_LABELS = {
    "on": pgettext_lazy("coach", "on"),
    "request": pgettext_lazy("coach", "on request"),
    "off": pgettext_lazy("coach", "off"),
}
#: The scoring rule and the opponents as the table's heading names them.
RULE_NAMES = {
    "classic": gettext_lazy("Classic scoring"),
    "contribution": gettext_lazy("Contribution scoring"),
}
OPPONENT_NAMES = {
    "greedy": gettext_lazy("Greedy opponents"),
    "signal": gettext_lazy("Signal opponents"),
}
#: The table's paces (how long each bot's move takes to show), as ``play.js`` keeps the
#: visitor's choice; ``normal`` is the stylesheet's ``--play-step``.
PACES = (
    ("slow", gettext_lazy("Slow")),
    ("normal", gettext_lazy("Normal")),
    ("fast", gettext_lazy("Fast")),
    ("instant", gettext_lazy("Instant")),
)
#: Delay classes the stylesheet defines (``d1`` … ``d60``); later steps share the last.
MAX_DELAY = 60


def seat_names() -> dict[str, str]:
    """Every seat's name by its letter (the templates' keys)."""
    return {str(s): seat_name(s) for s in SEATS}


def side_names(player: str | None = None) -> dict[str, str]:
    """Each side's name by its letters. ``player`` names the learner's side: None when the
    reader is the player ("North–South (you)"), the player's name for a teacher looking on
    ("North–South (Ana B.)"), "" when the player goes unnamed (a share link)."""
    if player is None:
        ns = gettext("North–South (you)")
    elif player:
        ns = gettext("North–South (%(name)s)") % {"name": player}
    else:
        ns = gettext("North–South")
    return {"NS": ns, "EW": gettext("East–West")}


def short_side_names(player: str | None = None) -> dict[str, str]:
    """The sides as the score line names them: "N–S (you)", "N–S (Ana B.)", "N–S"; see
    :func:`side_names` for ``player``."""
    if player is None:
        ns = gettext("N–S (you)")
    elif player:
        ns = gettext("N–S (%(name)s)") % {"name": player}
    else:
        ns = gettext("N–S")
    return {"NS": ns, "EW": gettext("E–W")}


def _term(kind: str, key: str) -> str:
    """A checklist item's or a combination's name in the active language (``kind``:
    ``item``, ``item_lower``, ``combo_lower``); an unknown key comes back as it is."""
    english = terms().get(kind, {}).get(key)
    return key if english is None else term(kind, english)


def _convention_title(name: str) -> str:
    found = CONVENTIONS.get(name)
    return found.title if found is not None else name


def _delay(n: int) -> int:
    return min(n, MAX_DELAY)


def _action_text(seat: Seat, action: Action, *, lead: bool, you: bool) -> str:
    """One action in words: ``North leads 7♥``, ``You pass`` (``you``: South as "you")."""
    if you:
        if action == PASS:
            return gettext("You pass")
        if action == FORCE:
            return gettext("You say “Play!” (force partner)")
        card = _card(action).symbol
        return (gettext("You lead %(card)s") if lead else gettext("You play %(card)s")) % {
            "card": card
        }
    who = {"seat": seat_name(seat)}
    if action == PASS:
        return gettext("%(seat)s passes") % who
    if action == FORCE:
        return gettext("%(seat)s says “Play!” (forces partner)") % who
    who["card"] = _card(action).symbol
    return (
        gettext("%(seat)s leads %(card)s") if lead else gettext("%(seat)s plays %(card)s")
    ) % who


def _card(action: Action) -> Card:
    assert action.card is not None, action
    return action.card


@dataclass
class StepCtx:
    text: str
    seat: str
    card: Card | None
    delay: int
    hand_end: str = ""


def _steps(
    steps: Sequence[Step],
    before: dict[tuple[int, int], int],
    *,
    sides: dict[str, str],
    you: bool = True,
) -> tuple[list[StepCtx], dict[tuple[int, int], int]]:
    """The steps as lines with delays, and the delay at which each hand they finished ends.
    ``before``: how many actions each hand had before the steps (a hand's first action is
    its lead); ``sides``: the sides' names; ``you``: South's actions said as "you" (the
    reader is the player)."""
    out: list[StepCtx] = []
    finished: dict[tuple[int, int], int] = {}
    counted: dict[tuple[int, int], int] = dict(before)
    for n, step in enumerate(steps, start=1):
        key = (step.deal_number, step.hand_number)
        lead = counted.get(key, -1) == 0
        counted[key] = counted[key] + 1 if key in counted else -1
        text = _action_text(step.seat, step.action, lead=lead, you=you and step.seat is LEARNER)
        end = ""
        if step.hand_finished and step.made is not None:
            made = step.made
            fields = {
                "hand": made.hand_number,
                "side": sides.get(made.side, made.side),
                "combination": _term("combo_lower", made.combination),
                "points": made.points,
                "deal": step.deal_number,
            }
            if step.deal_finished:
                end = (
                    gettext(
                        "Hand %(hand)s over: %(side)s made %(combination)s for %(points)s. "
                        "Deal %(deal)s is over."
                    )
                    % fields
                )
            else:
                end = (
                    gettext("Hand %(hand)s over: %(side)s made %(combination)s for %(points)s.")
                    % fields
                )
            finished[key] = n
        out.append(StepCtx(text, str(step.seat), step.action.card, _delay(n), end))
    return out, finished


def lead_note(advice: LeadAdvice | None) -> dict[str, Any] | None:
    if advice is None:
        return None
    c1, c2 = advice.preferred
    return {
        "advice": advice,
        "first": c1,
        "second": c2,
        "others": [p for p in advice.plays[1:]],
        "cards": sort_cards(advice.cards),
    }


def _quiz(quiz: ReadQuiz | None, game: Game, attempts: dict[str, Attempt]) -> dict[str, Any] | None:
    if quiz is None:
        return None
    answered = attempts.get(f"read:{quiz.deal_number}:{quiz.hand_number}")
    ctx: dict[str, Any] = {
        "quiz": quiz,
        "signal_first": quiz.signal[0],
        "signal_second": quiz.signal[1],
        "answered": answered,
    }
    if answered is not None:
        ctx["answer_title"] = _term("item", answered.answer)
        ctx["answer_lower"] = _term("item_lower", answered.answer)
        ctx["odds"] = odds_chart(quiz.odds.to_json())
    return ctx


def _summary_read(summary: HandSummary, attempts: dict[str, Attempt]) -> HandSummary:
    """``summary`` with the learner's answer to the coach's quiz on its hand, if given."""
    read = attempts.get(f"read:{summary.deal_number}:{summary.hand_number}")
    if read is None:
        return summary
    return replace(summary, read=read.answer, read_correct=read.correct)


def hand_ctx(
    summary: HandSummary, attempts: dict[str, Attempt], sides: dict[str, str]
) -> dict[str, Any]:
    """One finished hand as ``play/_hand.html`` says it: who led it for which side, the signal,
    how it reads, what was made, and the learner's lead or read on it, graded."""
    s = summary
    # A reading may come from several holdings: each item once.
    readings = list(dict.fromkeys(s.readings))
    read = attempts.get(f"read:{s.deal_number}:{s.hand_number}")
    lead = attempts.get(f"lead:{s.deal_number}:{s.hand_number}")
    return {
        "summary": s,
        "leader_name": seat_name(s.leader),
        "side_name": sides.get(s.side, s.side),
        "signal_first": s.signal[0] if s.signal else None,
        "signal_second": s.signal[1] if s.signal else None,
        "readings": [_term("item_lower", r) for r in readings],
        "readings_text": say(Msg("list.or")).join(_term("item_lower", r) for r in readings),
        "combination": _term("combo_lower", s.combination),
        "read": read,
        "read_title": _term("item_lower", read.answer) if read else "",
        "lead": lead,
        "by_you": s.leader == str(LEARNER),
    }


def _pause_ctx(
    pause: HandEnd, summary: HandSummary, attempts: dict[str, Attempt], sides: dict[str, str]
) -> dict[str, Any]:
    """The panel the table pauses on: the finished hand (:func:`hand_ctx`), the coach's
    comment (what the signal says, from the reader's chair) and where the record stood."""
    return {
        "at": pause.at,
        "deal_number": pause.deal_number,
        "hand_number": pause.hand_number,
        "hand": hand_ctx(summary, attempts, sides),
        "comment": summary.reading_text,
    }


def _log(
    summaries: Sequence[HandSummary],
    attempts: dict[str, Attempt],
    finished_at: dict[tuple[int, int], int],
) -> list[LogDeal]:
    """The hand log: every finished hand's line, deal by deal, newest last; a hand that ended
    in the steps shown shows its line once its last card has (``finished_at``: its step)."""
    deals: list[tuple[int, list[LogLine]]] = []
    for summary in summaries:
        if not deals or deals[-1][0] != summary.deal_number:
            deals.append((summary.deal_number, []))
        summary = _summary_read(summary, attempts)
        key = (summary.deal_number, summary.hand_number)
        deals[-1][1].append(
            LogLine(summary.hand_number, summary.text, _delay(finished_at.get(key, 0)))
        )
    return [LogDeal(number, tuple(lines)) for number, lines in deals]


def table_context(
    *,
    game: Game,
    shown: TableShown,
    owner: bool,
    attempts: Callable[[], dict[str, Attempt]],
    pause: HandEnd | None = None,
    pause_summary: HandSummary | None = None,
    player: str | None = None,
) -> dict[str, Any]:
    """The table page's context: what South sees, the steps since South's last action (each
    with its delay), South's legal actions, the coach, the hand log and, at the end, the
    result. ``attempts`` gives the game's recorded leads and reads, asked for only when shown.

    ``pause``: the finished hand the table stops on (``pause_summary`` its summary; the view is
    the table as it stood then): its summary is shown with a *Continue* button, and nothing is
    playable until the learner goes on. ``player``: the player's name, for anyone but the
    player looking on (None: the reader is the player)."""
    view, steps = shown.view, shown.steps
    paused = pause is not None and pause_summary is not None and owner
    sides = side_names(None if owner else player)
    you = owner
    in_steps = Counter((s.deal_number, s.hand_number) for s in steps)
    totals = {(view.deal_number, h.number): len(h.actions) for h in view.completed}
    totals[(view.deal_number, view.hand_number)] = len(view.current)
    before = {key: totals[key] - n for key, n in in_steps.items() if key in totals}
    step_lines, finished_at = _steps(steps, before, sides=sides, you=you)
    # The current hand's last actions came in these steps: the same delays.
    current_steps = [
        n
        for n, s in enumerate(steps, start=1)
        if (s.deal_number, s.hand_number) == (view.deal_number, view.hand_number)
        and not s.hand_finished
    ]
    offset = len(view.current) - len(current_steps)
    current = [
        Played(seat, action, _delay(current_steps[i - offset]) if i >= offset else 0)
        for i, (seat, action) in enumerate(view.current)
    ]
    completed = [
        SeatHand.of(
            hand,
            sides.get(str(hand.side), str(hand.side)),
            _delay(finished_at.get((view.deal_number, hand.number), 0)),
        )
        for hand in view.completed
    ]
    legal = set(view.legal) if owner and not paused else set()
    own_hand: list[dict[str, Any]] = [
        {"card": c, "legal": Action.play(c) in legal} for c in view.hand
    ]
    number = 0
    for entry in own_hand:
        if entry["legal"]:
            number += 1
            entry["key"] = number
    advice, quiz = (shown.advice, shown.quiz) if owner and not paused else (None, None)
    helped = hand_key(view.deal_number, view.hand_number) in game.helped
    # The hand log (every finished hand's line, newest last), with the learner's answer to
    # the quiz on a hand partner led; the pause, with the learner's lead or read.
    recorded: dict[str, Attempt] = {}
    if (
        quiz is not None
        or paused
        or view.is_over
        or any(s.leader == str(PARTNER) for s in shown.summaries)
    ):
        recorded = attempts()
    log = _log(shown.summaries, recorded, finished_at)
    lines = [line.text for deal in log for line in deal.lines]
    ready = _delay(len(steps) + 1) if steps else 0
    short_sides = short_side_names(None if owner else player)
    ctx: dict[str, Any] = {
        "game": game,
        "view": view,
        "owner": owner,
        "version": game.version,
        "table": solo_table(
            view=view,
            current=current,
            completed=completed,
            log=log,
            owner=owner,
            player=player,
            paused=paused,
        ),
        "hand": own_hand,
        "can_pass": PASS in legal,
        "can_force": FORCE in legal,
        "my_turn": bool(legal),
        "south_leads": view.leader is LEARNER,
        "partner_forced": view.forced_by is PARTNER,
        "steps": step_lines,
        "ready": ready,
        "advice_available": advice is not None,
        "advice": lead_note(advice) if helped else None,
        "quiz": _quiz(quiz, game, recorded) if quiz is not None else None,
        "stakes": shown.stakes if owner and not paused else None,
        "last_line": lines[-1] if lines else "",
        # At the end, the last hand (no pause follows it: the result does).
        "last_hand": hand_ctx(shown.summaries[-1], recorded, sides)
        if view.is_over and shown.summaries
        else None,
        "pause": (
            _pause_ctx(pause, pause_summary, recorded, sides)
            if paused and pause is not None and pause_summary is not None
            else None
        ),
        "side_names": sides,
        "short_side_names": short_sides,
        "player": player if not owner else None,
        "you": you,
        "act_url": reverse("play:act", args=[game.pk]),
        "advice_url": reverse("play:advice", args=[game.pk]),
        "quiz_url": reverse("play:quiz", args=[game.pk]),
        "to_move_name": seat_name(view.to_move) if view.to_move else "",
        "coach_label": COACH_LABELS.get(game.coach, game.coach),
        "leader_name": seat_name(view.leader),
        "rule_name": RULE_NAMES.get(view.rule.name, view.rule.name),
        "opponents_name": OPPONENT_NAMES.get(view.opponents, view.opponents),
        "convention_title": _convention_title(view.convention),
        "paces": PACES,
    }
    if view.is_over or view.finished_deals:
        ctx["review_url"] = reverse("play:review", args=[game.pk])
    if game.is_finished:
        ctx["record_url"] = reverse("play:record", args=[game.pk])
        if game.share_token:
            ctx["share_url"] = reverse("play:shared", args=[game.share_token])
    return ctx


def game_row(game: Game) -> dict[str, Any]:
    """A line of "My games"."""
    setup = game.setup
    return {
        "game": game,
        "is_game": bool(setup.get("game")),
        "convention": _convention_title(setup.get("convention", "")),
        "opponents": OPPONENT_NAMES.get(setup.get("opponents", ""), setup.get("opponents", "")),
        "rule": RULE_NAMES.get(setup.get("rule", ""), setup.get("rule", "")),
        "url": game.get_absolute_url(),
    }


@dataclass
class FrameCtx:
    index: int
    total: int
    seat: Seat | None
    action: Action | None
    held: dict[str, list[Card]]
    current: list[Played]
    completed: int
    hand_scores: dict[str, int]
    deal_number: int
    hand_number: int

    @property
    def text(self) -> str:
        if self.seat is None or self.action is None:
            return gettext("Deal %(deal)s: the cards as dealt.") % {"deal": self.deal_number}
        return _action_text(self.seat, self.action, lead=False, you=False)


def review_context(
    *,
    game: Game,
    review: DealReview,
    frame: int | None,
    shared: bool,
    attempts: dict[str, Attempt],
    player: str | None = None,
) -> dict[str, Any]:
    """The review: each finished deal hand by hand, par, points lost, differences from the
    bot, and one frame of the card-by-card replay (``frame``, counted over all deals).
    ``player`` names the learner's side for anyone but the player (see :func:`side_names`)."""
    sides = side_names(player)
    frames = [f for deal in review.deals for f in deal.frames]
    total = len(frames)
    index = 0 if frame is None else max(0, min(frame, total - 1))
    current = None
    if frames:
        f = frames[index]
        current = FrameCtx(
            index=index,
            total=total,
            seat=f.seat,
            action=f.action,
            held={str(s): sort_cards(f.held[str(s)]) for s in SEATS},
            current=[Played(s, a) for s, a in f.current],
            completed=f.completed,
            hand_scores=dict(f.hand_scores),
            deal_number=f.deal_number,
            hand_number=f.hand_number,
        )
    deals = []
    for deal in review.deals:
        hands = []
        for h in deal.hands:
            hands.append(
                {
                    **hand_ctx(h.summary, attempts, sides),
                    "review": h,
                    "held_title": _term("item_lower", h.held_item) if h.held_item else "",
                    "holding": sort_cards(h.holding),
                    "held_cards": set(h.held_cards),
                    "preferred_first": h.preferred[0] if h.preferred else None,
                    "preferred_second": h.preferred[1] if h.preferred else None,
                }
            )
        deals.append(
            {
                "deal": deal,
                "hands": hands,
                "par": [deal.par[s] for s in ("NS", "EW") if s in deal.par],
                "decisions": [
                    {
                        "decision": d,
                        "chosen": Played(LEARNER, d.chosen),
                        "bot": Played(LEARNER, d.bot),
                        "chosen_text": _choice_text(d.chosen),
                        "bot_text": _choice_text(d.bot),
                        "frame": _frame_of(frames, d.index),
                    }
                    for d in deal.decisions
                ],
                "hands_dealt": {str(s): sort_cards(deal.hands_dealt[str(s)]) for s in SEATS},
            }
        )
    url = (
        reverse("play:shared", args=[game.share_token])
        if shared and game.share_token
        else reverse("play:review", args=[game.pk])
    )
    return {
        "game": game,
        "review": review,
        "deals": deals,
        "frame": current,
        "frame_url": url,
        "prev_frame": index - 1 if index > 0 else None,
        "next_frame": index + 1 if index + 1 < total else None,
        "last_frame": total - 1,
        "shared": shared,
        "outcome": review.outcome,
        "side_names": sides,
        "seat_names": seat_names(),
        "rule_name": RULE_NAMES.get(review.rule.name, review.rule.name),
        "opponents_name": OPPONENT_NAMES.get(review.opponents, review.opponents),
        "record_url": reverse("play:record", args=[game.pk])
        if game.is_finished and not shared
        else "",
        "share_url": (
            reverse("play:shared", args=[game.share_token])
            if game.share_token and not shared
            else ""
        ),
        "table_url": game.get_absolute_url(),
        "convention_title": _convention_title(review.convention),
    }


def _choice_text(action: Action) -> str:
    """What South did or the bot would have done, after "you" / "would have"."""
    if action == PASS:
        return pgettext("the call", "passed")
    if action == FORCE:
        return pgettext("the call", "forced")
    return pgettext("the call", "played %(card)s") % {"card": _card(action).symbol}


def _frame_of(frames: list[Any], action_index: int) -> int:
    """The frame number showing the table just before the record's action ``action_index``."""
    for n, f in enumerate(frames):
        if f.index == action_index:
            return n
    return 0
