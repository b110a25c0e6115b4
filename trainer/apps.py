from django.apps import AppConfig


class TrainerConfig(AppConfig):
    """The site over the feature apps: the home page, the demo data (a ``manage.py seed`` kind), the
    static files, and the migrations from before the app split (docs/architecture.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer"
    verbose_name = "Concerto Trainer"
