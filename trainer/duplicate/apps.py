from django.apps import AppConfig


class DuplicateConfig(AppConfig):
    """Club nights: duplicate sessions (daylongs), their boards, results and travellers."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.duplicate"
    verbose_name = "Duplicate sessions"

    def ready(self) -> None:
        from trainer.duplicate import signals  # noqa: F401  (a finished board's result)
