"""Top-level URLs: the trainer app at ``/``, accounts at ``/accounts/``, admin at ``/admin/``."""

from django.contrib import admin
from django.urls import include, path

from trainer.views import admin_moved

urlpatterns = [
    path("", include("trainer.urls")),
    path("accounts/", include("trainer.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/trainer/<str:model>/", admin_moved),
    path("admin/trainer/<str:model>/<path:rest>", admin_moved),
    path("admin/", admin.site.urls),
]

# A database outage is a styled 503, any other server error a styled 500 (trainer.core.errors).
handler500 = "trainer.core.errors.server_error"
# Not allowed and not found: the styled templates/403.html and templates/404.html.
handler403 = "django.views.defaults.permission_denied"
handler404 = "django.views.defaults.page_not_found"
