"""The language switcher's target: Django's ``set_language``, which also saves the choice of a
signed-in user (so it follows them to another browser)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from trainer.classes.models import Classroom
from trainer.core.web.http import AuthenticatedHttpRequest
from trainer.languages.selectors import SESSION_KEY
from trainer.languages.services import classroom_language_set, language_save


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Set the language cookie (Django's view: validates the code and the ``next`` address)
    and, for a signed-in user, save the choice when the code is one of ``LANGUAGES``."""
    response = django_set_language(request)
    if request.user.is_authenticated:
        language = request.POST.get("language", "")
        if language_save(user=request.user, language=language):
            request.session[SESSION_KEY] = language
    return response


@login_required
@require_POST
def classroom_language(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A teacher sets the class's default language (the class page's form)."""
    classroom = get_object_or_404(Classroom, pk=pk, memberships__user_id=request.user.pk)
    try:
        classroom_language_set(
            actor=request.user, classroom=classroom, language=request.POST.get("language", "")
        )
    except ValidationError as exc:
        return HttpResponseBadRequest(" ".join(exc.messages))
    messages.success(
        request,
        gettext("Students of this class who have not chosen a language now see this one."),
    )
    return redirect("classes:detail", pk=classroom.pk)
