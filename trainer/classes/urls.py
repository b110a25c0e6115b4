"""``/classes/…``: included from :mod:`trainer.urls` under the ``classes`` namespace."""

from django.urls import path

from trainer.classes import views

app_name = "classes"

urlpatterns = [
    path("", views.class_list, name="list"),
    path("new/", views.class_create, name="create"),
    path("join/", views.class_join, name="join"),
    path("join/<str:code>/", views.join_link, name="join-link"),
    path("<int:pk>/", views.class_detail, name="detail"),
    path("<int:pk>/dashboard/", views.dashboard, name="dashboard"),
    path("<int:pk>/export.csv", views.export_csv, name="export"),
    path("<int:pk>/students/<int:user_id>/", views.student_detail, name="student"),
    path("<int:pk>/students/<int:user_id>/remove/", views.student_remove, name="student-remove"),
    path("<int:pk>/teachers/add/", views.co_teacher_add, name="co-teacher-add"),
    path("<int:pk>/archive/", views.class_archive, name="archive"),
    path("<int:pk>/restore/", views.class_restore, name="restore"),
    path("<int:pk>/join-code/", views.join_code_rotate, name="join-code-rotate"),
    path("<int:pk>/leave/", views.class_leave, name="leave"),
    path("<int:pk>/assignments/new/", views.assignment_create, name="assignment-create"),
    path("assignments/<int:pk>/", views.assignment_detail, name="assignment"),
    path("assignments/<int:pk>/next/", views.assignment_next, name="assignment-next"),
    path("assignments/<int:pk>/delete/", views.assignment_delete, name="assignment-delete"),
]
