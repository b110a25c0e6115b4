from django.urls import path

from trainer.progress import views

urlpatterns = [
    path("drills/review/", views.review, name="review"),
    path("progress/", views.progress, name="progress"),
    path("settings/", views.settings_view, name="settings"),
    path("settings/goal/", views.review_goal_update, name="review-goal"),
]
