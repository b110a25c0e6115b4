# Attempt.params widened (a drill address longer than 255 characters was stored silently on
# SQLite and crashed PostgreSQL), and the database cache's table created, so the zero-setup
# shared cache (CACHES default: DatabaseCache) exists wherever migrations ran, test databases
# included. `manage.py createcachetable` does the same and is safe to repeat.

from django.core.management import call_command
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models
from django.db.migrations.state import StateApps


def create_cache_table(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):

    dependencies = [
        ("trainer", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="attempt",
            name="params",
            field=models.CharField(blank=True, default="", max_length=1024),
        ),
        migrations.RunPython(create_cache_table, migrations.RunPython.noop, elidable=True),
    ]
