"""Admin pages for the trainer's models."""

from django.contrib import admin

from trainer.models import (
    Assignment,
    AssignmentDrill,
    ClassMembership,
    Classroom,
    Club,
    ClubMembership,
    Lesson,
)


# ---- Classes -------------------------------------------------------------------------------
class ClassMembershipInline(admin.TabularInline):
    model = ClassMembership
    extra = 0
    raw_id_fields = ["user"]


class AssignmentDrillInline(admin.TabularInline):
    model = AssignmentDrill
    extra = 0
    readonly_fields = ["position", "kind", "seed", "params"]
    can_delete = False


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ["name", "join_code", "created_at", "archived_at"]
    list_filter = [("archived_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "join_code", "memberships__user__username"]
    inlines = [ClassMembershipInline]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ["title", "classroom", "source", "due_on", "created_at"]
    list_filter = ["source"]
    search_fields = ["title", "classroom__name"]
    raw_id_fields = ["classroom", "created_by", "drill_set"]
    inlines = [AssignmentDrillInline]


# ---- Clubs and lessons ---------------------------------------------------------------------
class ClubMembershipInline(admin.TabularInline):
    model = ClubMembership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "convention", "rule", "created_at"]
    list_filter = ["convention", "rule"]
    search_fields = ["name", "slug", "memberships__user__username"]
    readonly_fields = ["invite_token"]
    inlines = [ClubMembershipInline]


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    list_display = ["position", "title", "slug", "step"]
    list_display_links = ["title"]
    ordering = ["position"]
    search_fields = ["title", "slug", "body"]
