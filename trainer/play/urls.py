"""``/play/…``: included from :mod:`trainer.urls` under the ``play`` namespace."""

from django.urls import path

from trainer.core.web import converters  # noqa: F401  (registers <id:…>)
from trainer.play import live_views, views

app_name = "play"

urlpatterns = [
    path("", views.play_home, name="home"),
    path("<id:pk>/", views.table_page, name="table"),
    path("<id:pk>/act/", views.table_act, name="act"),
    path("<id:pk>/advice/", views.coach_advice, name="advice"),
    path("<id:pk>/quiz/", views.coach_quiz, name="quiz"),
    path("<id:pk>/table.json", views.table_json, name="table-json"),
    path("<id:pk>/review/", views.review_page, name="review"),
    path("<id:pk>/record.json", views.record, name="record"),
    path("shared/<uuid:token>/", views.shared_review, name="shared"),
    path("pairs/", views.pairs_page, name="pairs"),
    # Live tables: two to four people at one table.
    path("tables/", live_views.live_list, name="live-list"),
    path("tables/new/", live_views.live_new, name="live-new"),
    path("tables/<id:pk>/", live_views.live_page, name="live"),
    path("tables/<id:pk>/table/", live_views.live_partial, name="live-partial"),
    path("tables/<id:pk>/begin/", live_views.live_begin, name="live-begin"),
    path("tables/<id:pk>/act/", live_views.live_act, name="live-act"),
    path("tables/<id:pk>/away/", live_views.live_away, name="live-away"),
    path("tables/<id:pk>/hand-over/", live_views.live_hand_over, name="live-hand-over"),
    path("tables/<id:pk>/watchers/", live_views.live_watchable, name="live-watchable"),
    path("tables/<id:pk>/revoke/", live_views.live_revoke, name="live-revoke"),
    path("tables/<id:pk>/coach/", live_views.live_coach, name="live-coach"),
    path("tables/<id:pk>/teach/", live_views.live_teach, name="live-teach"),
    path("tables/<id:pk>/record.json", live_views.live_record, name="live-record"),
    path("tables/join/<uuid:token>/", live_views.live_join, name="live-join"),
]
