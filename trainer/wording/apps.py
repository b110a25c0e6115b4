from django.apps import AppConfig


class WordingConfig(AppConfig):
    """Renders what the engine says (message ids and parameters) in the page's language, from
    this app's own catalog (``locale/<lang>/LC_MESSAGES/django.po``, refreshed by
    ``manage.py wording_messages``)."""

    name = "trainer.wording"
    verbose_name = "Wording"

    def ready(self) -> None:
        from trainer.wording import errors, page  # noqa: F401  (register the page words)
