from django.apps import AppConfig


class ClassesConfig(AppConfig):
    """Teachers, classes and assignments."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.classes"
    verbose_name = "Classes"
