from django.urls import path

from trainer.cards import views
from trainer.core.web import converters  # noqa: F401  (registers <id:…>)

app_name = "cards"

urlpatterns = [
    path("", views.card_list, name="list"),
    path("new/", views.card_new, name="new"),
    path("new/check/", views.card_check_new, name="check-new"),
    path("schema.json", views.card_schema, name="schema"),
    path("<id:pk>/", views.card_detail, name="detail"),
    path("<id:pk>/check/", views.card_check, name="check"),
    path("<id:pk>/diff/", views.card_diff, name="diff"),
    path("<id:pk>/default/", views.card_default, name="default"),
    path("<id:pk>/evaluate/", views.evaluation_start, name="evaluate"),
    path("<id:pk>/evaluation/", views.evaluation_status, name="evaluation"),
]
