"""Top-level URLs: the trainer app at ``/``, accounts at ``/accounts/``, admin at ``/admin/``,
the language switcher's target at ``/i18n/setlang/`` (no language prefix: addresses are the
same in every language)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from trainer.languages.forms import LocalisedPasswordResetForm
from trainer.languages.views import set_language
from trainer.views import admin_moved

urlpatterns = [
    path("", include("trainer.urls")),
    path("accounts/", include("trainer.accounts.urls")),
    # Django's reset view with a form that writes the e-mail in the user's language.
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=LocalisedPasswordResetForm),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/trainer/<str:model>/", admin_moved),
    path("admin/trainer/<str:model>/<path:rest>", admin_moved),
    path("admin/", admin.site.urls),
    # Django's set_language, which also saves a signed-in user's choice; then Django's own.
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
]

# A database outage is a styled 503, any other server error a styled 500 (trainer.core.web.errors).
handler500 = "trainer.core.web.errors.server_error"
# Not allowed and not found: the styled templates/403.html and templates/404.html.
handler403 = "django.views.defaults.permission_denied"
handler404 = "django.views.defaults.page_not_found"
