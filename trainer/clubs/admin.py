"""Admin pages for clubs."""

from django.contrib import admin

from trainer.clubs.models import Club, ClubMembership


class ClubMembershipInline(admin.TabularInline[ClubMembership, Club]):
    model = ClubMembership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "convention", "rule", "created_at"]
    list_filter = ["convention", "rule"]
    search_fields = ["name", "slug", "memberships__user__username"]
    readonly_fields = ["invite_token"]
    inlines = [ClubMembershipInline]
