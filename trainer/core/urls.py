from django.urls import path

from trainer.core.web import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
]
