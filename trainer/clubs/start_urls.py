"""*Start here*: the onboarding path for everyone, club or not, at ``/start/``.

The same views as a club's path (``trainer.clubs.urls``), with no club: progress is the
user's own answers, so a club's view of a member's path shows the same steps passed.
"""

from django.urls import path

from trainer.clubs import views
from trainer.core.web import converters  # noqa: F401  (registers <id:…>)

app_name = "start"

urlpatterns = [
    path("", views.path, name="path"),
    path("<id:number>/", views.step_detail, name="step"),
    path("<id:number>/next/", views.step_next, name="step-next"),
]
