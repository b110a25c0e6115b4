"""Deals and games played at the table: the learner South, a ``signal`` bot partner North.

A :class:`Game` row is a *record*, not a position: the setup (``engine.play.PlaySetup`` as
JSON: the seed and the settings) and the list of actions taken so far, bots' and learner's, in
order. The engine rebuilds the table from the two on every request, so no card list is ever
copied into a row. ``version`` counts the actions; a write names the version it read
(``UPDATE … WHERE version = n``), so two tabs posting at once record one action.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

#: (A name of its own: inside :class:`LiveTable`, ``settings`` is a field.)
USER_MODEL = settings.AUTH_USER_MODEL


class Game(models.Model):
    """One deal, or a whole game of up to four deals, played by ``owner`` from South."""

    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("game status", "In play")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")

    class Coach(models.TextChoices):
        ON = "on", gettext_lazy("On: advice, quiz and a line after each hand")
        ON_REQUEST = "request", gettext_lazy("On request: ask when you want it")
        OFF = "off", gettext_lazy("Off: play on your own")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_games"
    )
    #: ``PlaySetup.to_json()``: the seed and the settings. The seed reveals every hand, so no
    #: page shows it before the deal or game is over.
    setup = models.JSONField()
    #: Every action so far (``"7H"``, ``"pass"``, ``"force"``), bots' and the learner's.
    actions = models.JSONField(default=list, blank=True)
    #: The number of actions recorded: a write must name the version it read.
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    coach = models.CharField(max_length=10, choices=Coach.choices, default=Coach.ON)
    #: Hands (``"deal:hand"``) whose lead the coach's advice was asked for before the learner
    #: led, or (at a live table) whose signal a bot made, wholly or in part, for a person who
    #: had handed it their seat: those leads are not counted as the person's own answers.
    helped = models.JSONField(default=list, blank=True)
    #: The read-only review link's key, made when the deal or game is over (never before).
    share_token = models.UUIDField(null=True, blank=True, unique=True)
    #: The class assignment this deal counts towards, if any (its teacher may look on).
    assignment = models.ForeignKey(
        "classes.Assignment",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="play_games",
    )
    #: A deal of a live table: its seats are people's, so it is reached only through the
    #: table (never the solo pages or services, which would show and play South's hand for
    #: the host who owns the row).
    live = models.BooleanField(default=False)
    #: A teaching table's log, in order: each ``{"kind": "pause" | "resume" | "take_back" |
    #: "show", "at": the record's length then, …}``; a take-back keeps the moves it took
    #: (``"taken"``), a shown hand its seat and cards. Part of the record: the replay shows it.
    teaching = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished"]), name="play_game_status_known"
            ),
            models.CheckConstraint(
                condition=Q(coach__in=["on", "request", "off"]), name="play_game_coach_known"
            ),
            models.CheckConstraint(
                condition=Q(share_token__isnull=True) | Q(status="finished"),
                name="play_game_shared_only_when_finished",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "-updated_at"], name="play_game_owner_recent"),
            models.Index(fields=["assignment", "owner"], name="play_game_assignment"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} game {self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("play:table", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_game(self) -> bool:
        """A whole game (four deals or first to 100) rather than one deal."""
        return bool(self.setup.get("game"))

    def attempt_token(self, kind: str, deal_number: int, hand_number: int) -> uuid.UUID:
        """The token of the learner's lead or quiz answer in one hand of this game: one
        attempt per hand, however often it is posted."""
        name = f"concerto-play:{self.pk}:{kind}:{hand_key(deal_number, hand_number)}"
        return uuid.uuid5(uuid.NAMESPACE_URL, name)


def hand_key(deal_number: int, hand_number: int) -> str:
    """How a hand is named in ``Game.helped``: ``"1:3"`` (deal 1, hand 3)."""
    return f"{deal_number}:{hand_number}"


def hand_of_key(key: str) -> tuple[int, int]:
    """``(deal number, hand number)`` of a :func:`hand_key`."""
    deal, hand = key.split(":")
    return int(deal), int(hand)


class LiveTable(models.Model):
    """A table for two to four people (the rest bots), played live: the host opens it, sends
    the invite link, people take seats, the host begins. Each deal is a :class:`Game` record
    (setup and actions), so a live deal replays, reviews and exports like a solo one."""

    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("table status", "Waiting for players")
        PLAYING = "playing", pgettext_lazy("table status", "In play")
        FINISHED = "finished", pgettext_lazy("table status", "Deal over")

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_tables"
    )
    #: Convention, rule, opponents' bots, one deal or a game (``PlaySetup`` without the seed).
    settings = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    #: The deal being played or last played (its record holds the seed, never shown early).
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    #: Invite keys: the partner's link (any free seat) and, optionally, one for the opponents'
    #: seats only. Unguessable, revocable, and a key to nothing else.
    invite_token = models.UUIDField(default=uuid.uuid4, unique=True, null=True, blank=True)
    opponents_token = models.UUIDField(unique=True, null=True, blank=True)
    #: Bumped by every change (a seat taken, a card played): pages and sockets name the
    #: version they show.
    version = models.PositiveIntegerField(default=0)
    #: Whether the players' teachers and club organisers may watch (every hand shown to them,
    #: their names shown to the players). On for a table a teacher or organiser opens for
    #: others; off, until the host turns it on, for a table a player opens.
    watchable = models.BooleanField(default=False)
    #: The seed the next deal is dealt from when a board was chosen for the table (a club
    #: session's board); None: a fresh seed for every deal. Never shown before the deal ends.
    deal_seed = models.BigIntegerField(null=True, blank=True)
    #: A chosen board entered by hand: its hands, N, E, S, W (each 13 card codes). Never
    #: shown before the deal ends, like the seed.
    deal_hands = models.JSONField(null=True, blank=True)
    #: A teaching table's teacher: watches every hand, and alone may pause the table, take
    #: moves back to the start of the hand and show one seat's hand to everyone.
    supervisor = models.ForeignKey(
        USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="supervised_tables",
    )
    #: Paused by the teacher: no move is taken, no bot plays, until the teacher goes on.
    paused = models.BooleanField(default=False)
    #: The seat whose hand the teacher shows the table now ("" none): until the next move.
    shown_seat = models.CharField(max_length=1, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "playing", "finished"]),
                name="live_table_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} of {self.host} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("play:live", args=[self.pk])


class LiveSeat(models.Model):
    """Who sits where at a live table: a person, or nobody (a bot plays the seat)."""

    table = models.ForeignKey(LiveTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=1)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True
    )
    #: The person has handed the seat to a bot for now (and may take it back).
    away = models.BooleanField(default=False)
    #: The player would like the coach; it is on only while every person at the table
    #: would (no one is coached, or told more, against another player's wish).
    coach = models.BooleanField(default=False)
    #: When the player was last seen connected (a socket closed or expired); the other
    #: players may hand a seat to a bot once its player has been gone ``LIVE_GRACE_SECONDS``.
    last_seen = models.DateTimeField(null=True, blank=True)
    #: Who handed the seat to a bot: its player (empty) or, while the player was away, another
    #: player or the host. The seat's player takes it back the same way either way.
    away_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="live_seat_unique"),
            models.UniqueConstraint(fields=["table", "user"], name="live_seat_one_per_person"),
            models.CheckConstraint(
                condition=Q(seat__in=["N", "E", "S", "W"]), name="live_seat_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.seat}: {self.user_id or 'bot'}"


class LivePlayer(models.Model):
    """A person seated in a live deal when it was dealt (bots have no row): who played it,
    kept with the deal, since a table's seats change from one deal to the next."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_deals"
    )
    #: The seat (N, E, S or W); empty for a deal stored before seats were kept with deals,
    #: whose player is known only by a lead they recorded in it.
    seat = models.CharField(max_length=1, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="live_player_once"),
            models.CheckConstraint(
                condition=Q(seat__in=["N", "E", "S", "W", ""]), name="live_player_seat_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat or '?'}: {self.user_id}"


class LivePresence(models.Model):
    """Someone at a live table now: one open socket (a seat's or a watcher's), or a watcher's
    look at the page without one.

    Presence is never a counter: a socket's row is refreshed by a heartbeat while it is open
    and deleted when it closes, and a row whose ``expires_at`` has passed (its server was
    killed, its look is old) counts for nothing and is swept away, so a dead server's sockets
    stop counting within ``LIVE_PRESENCE_EXPIRY_SECONDS`` without anyone cleaning up after it.
    """

    class Kind(models.TextChoices):
        SEAT = "seat", "seat"
        WATCH = "watch", "watch"
        LOOK = "look", "look"

    table = models.ForeignKey(LiveTable, on_delete=models.CASCADE, related_name="presence")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    #: The socket's channel name (unique to it); for a look, ``look:<user id>``.
    socket = models.CharField(max_length=120)
    opened_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "socket"], name="live_presence_socket_once"),
            models.CheckConstraint(
                condition=Q(kind__in=["seat", "watch", "look"]), name="live_presence_kind_known"
            ),
        ]
        indexes = [
            models.Index(fields=["table", "expires_at"], name="live_presence_table"),
            models.Index(fields=["expires_at"], name="live_presence_expiry"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.kind}: {self.user_id}"
