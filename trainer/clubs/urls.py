from django.urls import path

from trainer.clubs import views
from trainer.core.web import converters  # noqa: F401  (registers <id:…>)

app_name = "clubs"

urlpatterns = [
    path("", views.club_list, name="list"),
    path("new/", views.club_create, name="create"),
    path("join/<str:token>/", views.club_join, name="join"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/path/", views.path, name="path"),
    path("<slug:slug>/path/<id:number>/", views.step_detail, name="step"),
    path("<slug:slug>/path/<id:number>/next/", views.step_next, name="step-next"),
    path("<slug:slug>/members/", views.members, name="members"),
    path("<slug:slug>/members/<id:user_id>/promote/", views.member_promote, name="promote"),
    path("<slug:slug>/invite/rotate/", views.invite_rotate, name="invite-rotate"),
    path("<slug:slug>/rules/", views.house_rules, name="rules"),
]
