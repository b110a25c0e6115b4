from django.urls import include, path

from trainer import drill_views, progress_views, views
from trainer.learn.views import cheatsheet_view

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("drills/", drill_views.drill_menu, name="drill-menu"),
    path("drills/review/", drill_views.review, name="review"),
    path("drills/custom/", drill_views.drill_custom, name="drill-custom"),
    path("drills/<str:kind>/", drill_views.drill_next, name="drill-next"),
    path("drills/<str:kind>/<int:seed>/", drill_views.drill_detail, name="drill-detail"),
    path("progress/", progress_views.progress, name="progress"),
    path("settings/", progress_views.settings_view, name="settings"),
    path("classes/", include("trainer.classes.urls")),
    path("clubs/", include("trainer.clubs.urls")),
    path("learn/", include("trainer.learn.urls")),
    path("cheatsheet/", cheatsheet_view, name="cheatsheet"),
]
