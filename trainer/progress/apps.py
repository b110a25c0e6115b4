from django.apps import AppConfig


class ProgressConfig(AppConfig):
    """Attempts, skill schedules, the progress, review and settings pages."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.progress"
    verbose_name = "Progress"

    def ready(self) -> None:
        from trainer.core import sessions
        from trainer.progress.sessions import review_frame

        sessions.add_provider(review_frame)
