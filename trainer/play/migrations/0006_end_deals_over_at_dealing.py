"""Tables whose deal the bots played to its end as it was dealt (every person seated had
handed their seat to a bot) were left "in play", with the deal finished but without the key
of its shared review: the host could not deal again. Those deals end as any other does."""

import uuid

from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations
from django.db.migrations.state import StateApps


def end_deals(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("play", "Game")
    LiveTable = apps.get_model("play", "LiveTable")
    for game in Game.objects.filter(live=True, status="finished", share_token__isnull=True):
        game.share_token = uuid.uuid4()
        game.finished_at = game.finished_at or game.updated_at
        game.save(update_fields=["share_token", "finished_at"])
    LiveTable.objects.filter(status="playing", game__status="finished").update(status="finished")


class Migration(migrations.Migration):
    dependencies = [("play", "0005_liveplayer")]

    operations = [migrations.RunPython(end_deals, migrations.RunPython.noop)]
