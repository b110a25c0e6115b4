"""When a watcher last read a live deal without a socket (the players are told)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0006_end_deals_over_at_dealing'),
    ]

    operations = [
        migrations.AddField(
            model_name='livetable',
            name='watched_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
