from django.apps import AppConfig


class CardsConfig(AppConfig):
    """A club's (or a class's) own convention card: derived from a shipped one, edited and
    checked live, versioned, and evaluated by duplicate tournaments on the task queue."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.cards"
    verbose_name = "Convention cards"
