from django.urls import path

from trainer.learn import views

app_name = "learn"

urlpatterns = [
    path("", views.lesson_list, name="list"),
    path("<slug:slug>/", views.lesson_detail, name="lesson"),
]
