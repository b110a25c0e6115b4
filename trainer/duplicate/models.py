"""Duplicate sessions of a club or a class: the session, the pairs entered, and each pair's
play of each board (a solo deal of :mod:`trainer.play`, dealt from the board's seed and dealer).

The session's ``seed`` deals every board, so it never leaves the server while the session is
open; each board's own seed reaches a player only through the play app, which keeps it until
the deal is over.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from engine.bots.signal import STRENGTHS, STRONG
from engine.cards import parse_cards
from engine.duplicate.session import Board, session_board
from engine.scoring import SCORING_RULES
from engine.seats import SEATS, Seat
from trainer.clubs.models import Club
from trainer.core.game import conventions
from trainer.play.models import Game


class ClubSession(models.Model):
    """A duplicate session. A daylong: each pair plays the boards whenever it likes between
    ``opens_at`` and ``closes_at``, against the same bot pair at every table. A live session:
    the pairs meet at ``opens_at``; the director starts each round (live tables by the
    movement) and closes the session at the end."""

    class Kind(models.TextChoices):
        DAYLONG = "daylong", "Daylong"
        LIVE = "live", "Live"

    #: The group the session belongs to: a club, or a class (:mod:`trainer.duplicate.groups`).
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="sessions"
    )
    classroom = models.ForeignKey(
        "classes.Classroom",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="sessions",
    )
    title = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.DAYLONG)
    seed = models.BigIntegerField()
    boards = models.PositiveSmallIntegerField()
    rule = models.CharField(max_length=20, choices=[(n, n.title()) for n in SCORING_RULES])
    convention = models.CharField(max_length=40)
    #: The strength of the session's bots: a daylong's partner North and the bot pair East-West
    #: at every table, a live session's bots in empty seats (engine.bots.signal.STRENGTHS).
    bots = models.CharField(max_length=10, choices=[(s, s) for s in STRENGTHS], default=STRONG)
    opens_at = models.DateTimeField()
    closes_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    #: A live session: the movement's kind, boards a round and the round's length (minutes).
    movement_kind = models.CharField(max_length=10, default="auto")
    per_round = models.PositiveSmallIntegerField(default=2)
    round_minutes = models.PositiveSmallIntegerField(default=20)
    #: Set when the director starts: the movement (``engine movement``'s JSON) for the pairs
    #: present, the round in play and when it began.
    movement = models.JSONField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    round_started_at = models.DateTimeField(null=True, blank=True)
    #: Boards a teacher chose (a board set's, copied when the session is created: each
    #: ``{"seed", "dealer"}``, and ``"hands"`` for one entered by hand); None: every board
    #: drawn from ``seed`` (``session_board``).
    board_list = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-opens_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(boards__gte=1, boards__lte=36), name="session_boards"
            ),
            models.CheckConstraint(
                condition=Q(closes_at__gt=models.F("opens_at")), name="session_window"
            ),
            models.CheckConstraint(condition=Q(rule__in=list(SCORING_RULES)), name="session_rule"),
            models.CheckConstraint(
                condition=Q(club__isnull=False, classroom__isnull=True)
                | Q(club__isnull=True, classroom__isnull=False),
                name="session_of_a_club_or_a_class",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def convention_title(self) -> str:
        return conventions.title(self.convention)

    def board(self, number: int) -> Board:
        """Board ``number``: the chosen one, or the one drawn from the session's seed."""
        if self.board_list is None:
            return session_board(self.seed, number)
        chosen = self.board_list[number - 1]
        hands = chosen.get("hands")
        return Board(
            number,
            int(chosen["seed"]),
            Seat.parse(chosen["dealer"]),
            None if hands is None else tuple(parse_cards(hands[str(s)]) for s in SEATS),
        )

    def is_open(self, now: datetime | None = None) -> bool:
        moment = now or timezone.now()
        return self.opens_at <= moment < self.closes_at

    def is_closed(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.closes_at


class SessionEntry(models.Model):
    """A pair in a session: a member and a partner who confirmed, or the member alone with a
    bot partner (marked as such in the ranking). A member is in one pair per session: as its
    player or as its partner. ``here``: checked in for a live session."""

    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_entries"
    )
    pair = models.PositiveIntegerField()
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="session_partnerships",
    )
    partner_confirmed = models.BooleanField(default=False)
    here = models.BooleanField(default=False)
    #: The pair's number in the movement, once the director has started a live session.
    seat_number = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pair"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="one_pair_per_member"),
            models.UniqueConstraint(fields=["session", "pair"], name="pair_numbers_unique"),
            models.UniqueConstraint(
                fields=["session", "partner"],
                condition=Q(partner__isnull=False),
                name="one_partnership_per_member",
            ),
        ]

    def __str__(self) -> str:
        return f"pair {self.pair} of session {self.session_id}"

    @property
    def partnered(self) -> bool:
        return self.partner_id is not None and self.partner_confirmed


class SessionPlay(models.Model):
    """A pair's play of one board; the points are written when its deal ends."""

    entry = models.ForeignKey(SessionEntry, on_delete=models.CASCADE, related_name="plays")
    board = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="session_play")
    #: A partnership's board is a live table (both partners seated); a member alone plays
    #: the solo table.
    live = models.OneToOneField(
        "play.LiveTable", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    ns_points = models.IntegerField(null=True, blank=True)
    ew_points = models.IntegerField(null=True, blank=True)
    ns_hand = models.IntegerField(null=True, blank=True)
    ew_hand = models.IntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["board"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "board"], name="one_play_per_board"),
        ]

    def __str__(self) -> str:
        return f"board {self.board} of entry {self.entry_id}"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None


class SessionTable(models.Model):
    """One board at one table in one round of a live session: the pairs (None: the bot pair),
    the live table that deals it, and its points once the deal ends."""

    session = models.ForeignKey(ClubSession, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    ns = models.ForeignKey(
        SessionEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    ew = models.ForeignKey(
        SessionEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    live = models.OneToOneField(
        "play.LiveTable", on_delete=models.CASCADE, related_name="session_table"
    )
    ns_points = models.IntegerField(null=True, blank=True)
    ew_points = models.IntegerField(null=True, blank=True)
    ns_hand = models.IntegerField(null=True, blank=True)
    ew_hand = models.IntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table", "board"]
        constraints = [
            models.UniqueConstraint(fields=["session", "table", "board"], name="one_table_a_board"),
        ]

    def __str__(self) -> str:
        return f"board {self.board} at table {self.table} of session {self.session_id}"
