# Since when a club member holds their role: organisers watch members' live deals only when
# both held their roles before the deal was dealt.

import django.utils.timezone
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models
from django.db.migrations.state import StateApps
from django.db.models import F


def roles_since_joining(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Existing members have held their role since they joined, as far as anyone can tell."""
    membership = apps.get_model("clubs", "ClubMembership")
    membership.objects.update(role_since=F("joined_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_club_convention_own_cards"),
    ]

    operations = [
        migrations.AddField(
            model_name="clubmembership",
            name="role_since",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(roles_since_joining, migrations.RunPython.noop),
    ]
