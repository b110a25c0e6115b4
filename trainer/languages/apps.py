from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LanguagesConfig(AppConfig):
    """The language a page is shown in: a signed-in user's saved choice, else the default of
    their class or club, else the browser's (Django's ``LocaleMiddleware``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.languages"
    verbose_name = _("Languages")

    def ready(self) -> None:
        from trainer.languages import signals  # noqa: F401  (connects the sign-in receiver)
