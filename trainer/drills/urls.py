from django.urls import path

from trainer.drills import views

urlpatterns = [
    path("", views.drill_menu, name="drill-menu"),
    path("custom/", views.drill_custom, name="drill-custom"),
    path("practise/<str:token>/", views.practise, name="drill-practise"),
    path("practise/<str:token>/next/", views.practise_next, name="drill-practise-next"),
    path("<str:kind>/", views.drill_next, name="drill-next"),
    path("<str:kind>/<int:seed>/", views.drill_detail, name="drill-detail"),
]
