from django.apps import AppConfig


class LearnConfig(AppConfig):
    """Lessons and the cheat sheet."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.learn"
    verbose_name = "Lessons"

    def ready(self) -> None:
        from trainer.core import teaching
        from trainer.learn.teaching import lessons_for, links_for

        teaching.set_source(links_for)
        teaching.set_lesson_source(lessons_for)
