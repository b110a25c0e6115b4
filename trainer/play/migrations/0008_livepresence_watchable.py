# Presence from heartbeats instead of counters; watching only where the host allows it; who
# handed a seat to a bot.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models
from django.db.migrations.state import StateApps


def open_to_watch(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """A table whose host has no seat was opened by a teacher or organiser for others to play
    and to watch: it stays watchable."""
    table = apps.get_model("play", "LiveTable")
    seat = apps.get_model("play", "LiveSeat")
    hosts_seated = seat.objects.filter(table_id=models.OuterRef("pk"), user_id=models.OuterRef("host_id"))
    table.objects.exclude(models.Exists(hosts_seated)).update(watchable=True)


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0007_livetable_watched_at'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveField(
            model_name='liveseat',
            name='connections',
        ),
        migrations.RemoveField(
            model_name='livetable',
            name='watched_at',
        ),
        migrations.RemoveField(
            model_name='livetable',
            name='watchers',
        ),
        migrations.AddField(
            model_name='liveseat',
            name='away_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='livetable',
            name='watchable',
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name='LivePresence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('seat', 'seat'), ('watch', 'watch'), ('look', 'look')], max_length=5)),
                ('socket', models.CharField(max_length=120)),
                ('opened_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('expires_at', models.DateTimeField()),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presence', to='play.livetable')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['table', 'expires_at'], name='live_presence_table'), models.Index(fields=['expires_at'], name='live_presence_expiry')],
                'constraints': [models.UniqueConstraint(fields=('table', 'socket'), name='live_presence_socket_once'), models.CheckConstraint(condition=models.Q(('kind__in', ['seat', 'watch', 'look'])), name='live_presence_kind_known')],
            },
        ),
        migrations.RunPython(open_to_watch, migrations.RunPython.noop),
    ]
