from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Whole deals at the table with a bot partner, a coach and a review."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.play"
    verbose_name = "Play"
