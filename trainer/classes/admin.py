"""Admin pages for classes and assignments."""

from django.contrib import admin

from trainer.classes.models import Assignment, AssignmentDrill, ClassMembership, Classroom


class ClassMembershipInline(admin.TabularInline[ClassMembership, Classroom]):
    model = ClassMembership
    extra = 0
    raw_id_fields = ["user"]


class AssignmentDrillInline(admin.TabularInline[AssignmentDrill, Assignment]):
    model = AssignmentDrill
    extra = 0
    readonly_fields = ["position", "kind", "seed", "params"]
    can_delete = False


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin[Classroom]):
    list_display = ["name", "join_code", "created_at", "archived_at"]
    list_filter = [("archived_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "join_code", "memberships__user__username"]
    inlines = [ClassMembershipInline]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin[Assignment]):
    list_display = ["title", "classroom", "source", "due_on", "created_at"]
    list_filter = ["source"]
    search_fields = ["title", "classroom__name"]
    raw_id_fields = ["classroom", "created_by", "drill_set"]
    inlines = [AssignmentDrillInline]
