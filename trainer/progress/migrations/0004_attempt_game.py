"""An answer in play names its deal by a foreign key (``Attempt.game``) instead of the
``seed=<game>`` and ``params="play=<game>"`` it carried: existing rows move over, their seed and
params cleared (an answer whose deal is gone keeps no link, as before)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db.models import F


def link_games(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Attempt = apps.get_model("progress", "Attempt")
    Game = apps.get_model("play", "Game")
    in_play = Attempt.objects.filter(source="play", params__startswith="play=")
    in_play.filter(seed__in=Game.objects.values("pk")).update(game_id=F("seed"))
    in_play.update(seed=0, params="")


def unlink_games(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Attempt = apps.get_model("progress", "Attempt")
    for attempt in Attempt.objects.filter(source="play", game__isnull=False):
        attempt.seed = attempt.game_id
        attempt.params = f"play={attempt.game_id}"
        attempt.save(update_fields=["seed", "params"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0008_livepresence_watchable"),
        ("progress", "0003_review_goal"),
    ]

    operations = [
        migrations.AddField(
            model_name="attempt",
            name="game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="attempts",
                to="play.game",
            ),
        ),
        migrations.RunPython(link_games, unlink_games),
    ]
