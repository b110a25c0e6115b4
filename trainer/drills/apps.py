from django.apps import AppConfig


class DrillsConfig(AppConfig):
    """Drill pages and answering; curated drill sets; practice sets played as sessions."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.drills"
    verbose_name = "Drills"

    def ready(self) -> None:
        from trainer.core import sessions
        from trainer.drills.sessions import practice_frame

        sessions.add_provider(practice_frame)
