"""A live table's deals are marked (``Game.live``): only their table shows them.

Deals stored before the mark are found as well as the records allow: each table's latest
deal, and every deal in which someone other than its owner (the host) has a lead recorded.
"""

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models
from django.db.migrations.state import StateApps


def mark_live_deals(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("play", "Game")
    LiveTable = apps.get_model("play", "LiveTable")
    Attempt = apps.get_model("progress", "Attempt")
    live = set(LiveTable.objects.exclude(game=None).values_list("game_id", flat=True))
    owners = dict(Game.objects.values_list("pk", "owner_id"))
    led = Attempt.objects.filter(source="play", params__startswith="play=").values_list(
        "user_id", "params"
    )
    for user_id, params in led.distinct():
        number = params.removeprefix("play=")
        if number.isdigit() and owners.get(int(number), user_id) != user_id:
            live.add(int(number))
    Game.objects.filter(pk__in=live).update(live=True)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0003_liveseat_coach"),
        ("progress", "0003_review_goal"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="live",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_live_deals, migrations.RunPython.noop),
    ]
