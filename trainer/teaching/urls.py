"""``/classes/<id>/boards/…``: a class's board sets; included from :mod:`trainer.urls`."""

from django.urls import path

from trainer.core.web import converters  # noqa: F401  (registers <id:…>)
from trainer.teaching import views

app_name = "teaching"

urlpatterns = [
    path("classes/<id:pk>/boards/", views.class_boards, name="boards"),
    path("classes/<id:pk>/boards/<id:set_pk>/", views.set_page, name="set"),
    path("classes/<id:pk>/boards/<id:set_pk>/delete/", views.set_delete, name="delete"),
    path("classes/<id:pk>/sessions/<id:session_pk>/compare/", views.compare_page, name="compare"),
    path(
        "classes/<id:pk>/students/<id:user_pk>/partnerships/",
        views.student_pairs,
        name="student-pairs",
    ),
]
