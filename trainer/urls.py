"""The site's URLs: each feature app's ``urls`` at the addresses they always had."""

from django.urls import include, path

from trainer import views
from trainer.learn.views import cheatsheet_view

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("trainer.core.urls")),
    # /drills/review/ before /drills/<kind>/: review is not a drill kind.
    path("", include("trainer.progress.urls")),
    path("drills/", include("trainer.drills.urls")),
    path("classes/", include("trainer.classes.urls")),
    path("clubs/", include("trainer.clubs.urls")),
    path("start/", include("trainer.clubs.start_urls")),
    path("learn/", include("trainer.learn.urls")),
    path("cheatsheet/", cheatsheet_view, name="cheatsheet"),
]
