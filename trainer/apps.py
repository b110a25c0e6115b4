from django.apps import AppConfig


class TrainerConfig(AppConfig):
    """The Concerto Trainer web app: pages, drills, progress and accounts."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer"
    verbose_name = "Concerto Trainer"
