"""``/classes/…``: included from :mod:`trainer.urls` under the ``classes`` namespace."""

from django.urls import path

from trainer.classes import views
from trainer.core.web import converters  # noqa: F401  (registers <id:…>)

app_name = "classes"

urlpatterns = [
    path("", views.class_list, name="list"),
    path("new/", views.class_create, name="create"),
    path("join/", views.class_join, name="join"),
    path("join/<str:code>/", views.join_link, name="join-link"),
    path("<id:pk>/", views.class_detail, name="detail"),
    path("<id:pk>/dashboard/", views.dashboard, name="dashboard"),
    path("<id:pk>/export.csv", views.export_csv, name="export"),
    path("<id:pk>/students/<id:user_id>/", views.student_detail, name="student"),
    path("<id:pk>/students/<id:user_id>/remove/", views.student_remove, name="student-remove"),
    path("<id:pk>/teachers/add/", views.co_teacher_add, name="co-teacher-add"),
    path("<id:pk>/archive/", views.class_archive, name="archive"),
    path("<id:pk>/restore/", views.class_restore, name="restore"),
    path("<id:pk>/join-code/", views.join_code_rotate, name="join-code-rotate"),
    path("<id:pk>/leave/", views.class_leave, name="leave"),
    path("<id:pk>/assignments/new/", views.assignment_create, name="assignment-create"),
    path("assignments/<id:pk>/", views.assignment_detail, name="assignment"),
    path("assignments/<id:pk>/next/", views.assignment_next, name="assignment-next"),
    path("assignments/<id:pk>/delete/", views.assignment_delete, name="assignment-delete"),
]
