from django.contrib import admin

from trainer.play.models import Game, LivePlayer


class LivePlayerInline(admin.TabularInline[LivePlayer, Game]):
    """Who sat in a live deal (none for a solo one)."""

    model = LivePlayer
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    """Deals and games as records: who, when, how far. The setup holds the seed, so the
    record is for staff only, like every admin page."""

    list_display = ("id", "owner", "status", "coach", "version", "assignment", "updated_at")
    list_filter = ("status", "coach")
    search_fields = ("owner__username",)
    raw_id_fields = ("owner", "assignment")
    readonly_fields = ("setup", "actions", "version", "share_token", "created_at", "finished_at")
    inlines = (LivePlayerInline,)
