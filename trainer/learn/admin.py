"""Admin pages for lessons."""

from django.contrib import admin

from trainer.learn.models import Lesson


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin[Lesson]):
    list_display = ["position", "title", "slug", "language", "step"]
    list_display_links = ["title"]
    list_filter = ["language"]
    ordering = ["position", "language"]
    search_fields = ["title", "slug", "body"]
