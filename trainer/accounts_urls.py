"""Account pages beyond ``django.contrib.auth.urls`` (login, logout, password reset)."""

from django.urls import path

from trainer import accounts_views

urlpatterns = [
    path("signup/", accounts_views.signup, name="signup"),
]
