from django.contrib import admin

from trainer.languages.models import ClassroomLanguage, LanguagePreference


@admin.register(LanguagePreference)
class LanguagePreferenceAdmin(admin.ModelAdmin[LanguagePreference]):
    list_display = ("user", "language", "updated_at")
    list_filter = ("language",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(ClassroomLanguage)
class ClassroomLanguageAdmin(admin.ModelAdmin[ClassroomLanguage]):
    list_display = ("classroom", "language", "updated_at")
    list_filter = ("language",)
    raw_id_fields = ("classroom",)
