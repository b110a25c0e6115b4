"""The site's URLs: each feature app's ``urls`` at the addresses they always had."""

from django.urls import include, path

from trainer import views
from trainer.languages import views as languages_views
from trainer.learn.views import cheatsheet_view, glossary_view

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("trainer.core.urls")),
    # /drills/review/ before /drills/<kind>/: review is not a drill kind.
    path("", include("trainer.progress.urls")),
    path("drills/", include("trainer.drills.urls")),
    path("classes/", include("trainer.classes.urls")),
    # A class's default language: set by its teachers from the class page (trainer.languages);
    # after the classes' URLs, whose converters it uses.
    path(
        "classes/<id:pk>/language/",
        languages_views.classroom_language,
        name="classroom-language",
    ),
    path("", include("trainer.duplicate.urls")),
    path("", include("trainer.teaching.urls")),
    path("clubs/", include("trainer.clubs.urls")),
    path("cards/", include("trainer.cards.urls")),
    path("start/", include("trainer.clubs.start_urls")),
    path("learn/", include("trainer.learn.urls")),
    path("play/", include("trainer.play.urls")),
    path("cheatsheet/", cheatsheet_view, name="cheatsheet"),
    path("glossary/", glossary_view, name="glossary"),
]
