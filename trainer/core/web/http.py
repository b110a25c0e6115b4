"""Request types for views. Django types ``request.user`` as ``User | AnonymousUser``; a view
behind ``@login_required`` only ever sees a signed-in user, and says so by taking an
``AuthenticatedHttpRequest`` (the django-stubs way). It is an annotation only: Django still
passes its own ``HttpRequest``."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from django.http import HttpRequest

if TYPE_CHECKING:  # only an annotation: importing this module needs no app registry
    from django.contrib.auth.models import User
    from django_htmx.middleware import HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is signed in: the ``request`` of a ``@login_required`` view."""

    user: User


class AuthenticatedHtmxRequest(AuthenticatedHttpRequest):
    """A signed-in request that reads ``request.htmx`` (set on every request by django-htmx's
    ``HtmxMiddleware``): the ``request`` of a ``@login_required`` view that asks it."""

    htmx: HtmxDetails


def signed_in(request: HttpRequest) -> TypeGuard[AuthenticatedHttpRequest]:
    """Whether the request's user is signed in (``request.user.is_authenticated``); a type
    checker then treats ``request`` as an :class:`AuthenticatedHttpRequest`."""
    return request.user.is_authenticated
