"""The cheat sheet page's own words (besides the engine's cheat-sheet data), as message ids
rendered with ``{% words %}`` and translated in this app's catalog."""

from __future__ import annotations

from engine.messages import register_words

PAGE_WORDS: dict[str, str] = {
    "sheet.page_title": "Cheat sheet: %(title)s",
    "sheet.heading": "Concerto signals",
    "sheet.intro": "Lead c1, partner passes, then play c2 — or pass, which makes partner play.",
    # The convention's description, then the intro: two sentences (a space between them in
    # English, none in Japanese).
    "sheet.intro_line": "%(description)s %(intro)s",
    "sheet.picker": "Convention card",
    "sheet.show": "Show",
    "sheet.print_help": "Print it on one A4 page with your browser's Print command.",
    "sheet.grid_title": "Reading the two cards",
    "sheet.ranks_header": "Ranks",
    "sheet.card_and_pass": "Card and pass:",
    "sheet.reading_order": "Reading order:",
    "sheet.round": "%(round)s round (%(first)s–%(last)s): %(families)s",
    "sheet.round.strong": "strong",
    "sheet.round.weak": "weak",
    "sheet.order_sep": "; ",
    "sheet.order_rest": (
        "checklist order within each, † last. Drop readings that need a card you can see: "
        "the first left is partner's primary meaning; the others stay possible."
    ),
    "sheet.updown": "Up/down:",
    "sheet.updown_text": "c2 higher/lower than c1.",
    "sheet.in_range_label": "In range:",
    "sheet.in_range_text": "1–4 ranks apart (both fit one straight);",
    "sheet.out_of_range_label": "out of range:",
    "sheet.out_of_range_text": ("5 or more. An Ace counts low when that brings the pair in range."),
    "sheet.rounds_label": "Rounds:",
    "sheet.rounds_text": "side hands 1–2 strong, 3–4 weak. † fallback play, read last.",
    "sheet.checklist_title": "Leader's checklist",
    "sheet.checklist_note": (
        "Show the first item your cards hold (one with no signal is played out at once)."
    ),
    "sheet.after_pass_label": "After card and pass",
    "sheet.after_pass_text": (
        "(lead, pass, pass) partner must play a card, neither pass nor “Play!”: the fourth "
        "of the rank, else a pair, else the least useful card."
    ),
    "sheet.rows_title": "Which cards to lead",
    "sheet.col.holding": "Holding",
    "sheet.col.suits": "Suits",
    "sheet.col.ranks": "Ranks",
    "sheet.col.cards": "Cards, c1 then c2",
    "sheet.note": "(%(note)s)",
    "sheet.odds_title": "Worked examples: what could partner hold?",
    "sheet.foot": "Concerto Trainer · generated from the engine's %(title)s card.",
}

register_words(PAGE_WORDS)
