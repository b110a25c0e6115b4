"""Top-level URLs: the trainer app at ``/``, accounts at ``/accounts/``, admin at ``/admin/``."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("trainer.urls")),
    path("accounts/", include("trainer.accounts_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]

# A database outage is a styled 503, any other server error a styled 500 (trainer.errors).
handler500 = "trainer.errors.server_error"
