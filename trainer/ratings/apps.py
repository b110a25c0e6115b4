from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Glicko-2 ratings of drill families and of learners (per drill kind), learned from first
    answers, and the choice of drills near a learner's level."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.ratings"
    verbose_name = "Ratings"
