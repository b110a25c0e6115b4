from django.apps import AppConfig


class LearnConfig(AppConfig):
    """Lessons and the cheat sheet."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.learn"
    verbose_name = "Lessons"
