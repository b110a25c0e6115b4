from django.apps import AppConfig


class DrillsConfig(AppConfig):
    """Drill pages and answering; curated drill sets; practice sets played as sessions."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.drills"
    verbose_name = "Drills"
