from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Sign-up, usernames and the login throttle."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "trainer.accounts"
    verbose_name = "Accounts"
