from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs, house rules and the onboarding path."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.clubs"
    verbose_name = "Clubs"

    def ready(self) -> None:
        from trainer.clubs.selectors import house_rules_for
        from trainer.clubs.sessions import step_frame
        from trainer.core import preferences, sessions

        preferences.set_house_rules_source(house_rules_for)
        sessions.add_provider(step_frame)
