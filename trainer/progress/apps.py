from django.apps import AppConfig


class ProgressConfig(AppConfig):
    """Attempts, skill schedules, the progress, review and settings pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.progress"
    verbose_name = "Progress"
