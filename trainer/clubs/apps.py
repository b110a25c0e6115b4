from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs, house rules and the onboarding path."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.clubs"
    verbose_name = "Clubs"
