from django.apps import AppConfig


class ClassesConfig(AppConfig):
    """Teachers, classes and assignments."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.classes"
    verbose_name = "Classes"

    def ready(self) -> None:
        from trainer.classes.sessions import assignment_frame
        from trainer.core import sessions

        sessions.add_provider(assignment_frame)
