from django.apps import AppConfig


class TeachingConfig(AppConfig):
    """Teaching tables: board sets a teacher chooses (found by the engine's board search) and
    dealt to the class as a duplicate session, the pair's own review and the class comparison."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.teaching"
    verbose_name = "Teaching tables"
