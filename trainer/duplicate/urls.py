"""``/sessions/…`` and a club's ``/clubs/<slug>/sessions/``: included from :mod:`trainer.urls`."""

from django.urls import path

from trainer.core.web import converters  # noqa: F401  (registers <id:…>)
from trainer.duplicate import views

app_name = "duplicate"

urlpatterns = [
    path("clubs/<slug:slug>/sessions/", views.club_sessions, name="club"),
    path("classes/<id:pk>/sessions/", views.class_sessions, name="class"),
    path("sessions/<id:pk>/", views.session_page, name="session"),
    path("sessions/<id:pk>/enter/", views.session_enter, name="enter"),
    path("sessions/<id:pk>/partner/", views.partner_answer, name="partner"),
    path("sessions/<id:pk>/here/", views.check_in, name="here"),
    path("sessions/<id:pk>/director/", views.director_page, name="director"),
    path("sessions/<id:pk>/director/act/", views.director_act, name="director-act"),
    path("sessions/<id:pk>/boards/<id:board>/play/", views.board_play, name="play"),
    path("sessions/<id:pk>/boards/<id:board>/", views.traveller_page, name="traveller"),
    path("sessions/<id:pk>/results.csv", views.results_csv, name="csv"),
]
