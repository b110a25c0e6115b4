"""``/play/…``: included from :mod:`trainer.urls` under the ``play`` namespace."""

from django.urls import path

from trainer.core import converters  # noqa: F401  (registers <id:…>)
from trainer.play import views

app_name = "play"

urlpatterns = [
    path("", views.play_home, name="home"),
    path("<id:pk>/", views.table_page, name="table"),
    path("<id:pk>/act/", views.table_act, name="act"),
    path("<id:pk>/advice/", views.coach_advice, name="advice"),
    path("<id:pk>/quiz/", views.coach_quiz, name="quiz"),
    path("<id:pk>/table.json", views.table_json, name="table-json"),
    path("<id:pk>/review/", views.review_page, name="review"),
    path("<id:pk>/record.json", views.record, name="record"),
    path("shared/<uuid:token>/", views.shared_review, name="shared"),
]
