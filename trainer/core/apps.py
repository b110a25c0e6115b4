from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Layout, preferences, card rendering, middleware and links: depends on no feature."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.core"
    verbose_name = "Core"

    def ready(self) -> None:
        from trainer.core.game import conventions

        conventions.install_resolver()
