"""Who played a live deal is kept with the deal (``LivePlayer``).

Deals stored before are filled in as far as the records allow: the seats of each table's
latest deal, and whoever recorded a lead in a live deal (seat unknown: left empty).
"""

import django.db.models.deletion
from django.conf import settings
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models
from django.db.migrations.state import StateApps


def fill_players(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("play", "Game")
    LiveSeat = apps.get_model("play", "LiveSeat")
    LivePlayer = apps.get_model("play", "LivePlayer")
    Attempt = apps.get_model("progress", "Attempt")
    players = {}  # (game, user) → seat
    seated = LiveSeat.objects.filter(user__isnull=False, table__game__isnull=False)
    for game_id, user_id, seat in seated.values_list("table__game_id", "user_id", "seat"):
        players[(game_id, user_id)] = seat
    live = set(Game.objects.filter(live=True).values_list("pk", flat=True))
    led = Attempt.objects.filter(source="play", params__startswith="play=").values_list(
        "user_id", "params"
    )
    for user_id, params in led.distinct():
        number = params.removeprefix("play=")
        if number.isdigit() and int(number) in live:
            players.setdefault((int(number), user_id), "")
    LivePlayer.objects.bulk_create(
        LivePlayer(game_id=game_id, user_id=user_id, seat=seat)
        for (game_id, user_id), seat in sorted(players.items())
    )


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0004_game_live"),
        ("progress", "0003_review_goal"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LivePlayer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.CharField(blank=True, max_length=1)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="players",
                        to="play.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="live_deals",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("game", "user"), name="live_player_once"),
                    models.CheckConstraint(
                        condition=models.Q(("seat__in", ["N", "E", "S", "W", ""])),
                        name="live_player_seat_known",
                    ),
                ],
            },
        ),
        migrations.RunPython(fill_players, migrations.RunPython.noop),
    ]
