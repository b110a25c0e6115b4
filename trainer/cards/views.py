"""Clubs' cards: the list, the editor with its live check, "what is it worth" and its progress.

Only the organisers of the club that owns a card (the teachers of the class) see it: for
anyone else it does not exist (404). Bad input — a post the editor's form cannot read, a base
card that is not shipped, a card the checker refuses — is a 400 with the reason, and nothing
is written.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from engine.cards import Card
from engine.signals import CONVENTIONS, Convention
from trainer.cards import selectors, services
from trainer.cards.forms import CardForm, VersionPairForm
from trainer.cards.models import CardVersion, ClubCard
from trainer.cards.selectors import Owner
from trainer.cards.wording import error_views
from trainer.core.web.htmx import wants_partial
from trainer.core.web.http import AuthenticatedHttpRequest

PAGE = "cards/card_edit.html"


def _card(request: AuthenticatedHttpRequest, pk: int) -> ClubCard:
    card = selectors.card_get(user=request.user, pk=pk)
    if card is None:
        raise Http404("No such card.")
    return card


def _owner(request: AuthenticatedHttpRequest) -> Owner:
    """The club or class in the address (``?club=<slug>`` or ``?class=<id>``), if the visitor
    organises or teaches it."""
    owner = selectors.owner_get(
        user=request.user,
        club=request.GET.get("club", ""),
        classroom=request.GET.get("class", ""),
    )
    if owner is None:
        raise Http404("No such club or class among those you organise or teach.")
    return owner


def _version(card: ClubCard, request: HttpRequest) -> CardVersion:
    """The version named by ``?version=<number>`` (or the posted one), else the newest."""
    raw = request.POST.get("version") or request.GET.get("version") or ""
    if not raw:
        return selectors.newest_version(card)
    if not raw.isdigit() or len(raw) > 9:
        raise Http404("No such version.")
    found = card.versions.filter(number=int(raw)).first()
    if found is None:
        raise Http404("No such version.")
    return found


def _bad(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "400.html", {"reason": reason}, status=400)


def _example(entry: dict[str, Any]) -> dict[str, Any]:
    c1, c2 = entry["example"]
    return {"c1": Card.parse(c1), "c2": None if c2 == "pass" else Card.parse(c2)}


def _check_context(conv: Convention, base: Convention) -> dict[str, Any]:
    check = selectors.check_view(conv, base)
    for entry in check["ambiguities"]:
        entry["example_cards"] = _example(entry)
    titles = selectors.titles_of(conv, base)
    return {"check": check, "base": base, "check_errors": error_views(check["errors"], titles)}


def _page(
    request: HttpRequest,
    *,
    owner: Owner,
    form: CardForm,
    base: Convention,
    card: ClubCard | None = None,
    checked: Convention | None = None,
    save_errors: list[str] | None = None,
    evaluation_errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The editor page: the form, beside it the check of ``checked`` (default: the card being
    edited), and for a saved card its versions and "what is it worth" (with
    ``evaluation_errors``, why a start was refused)."""
    ctx: dict[str, Any] = {
        "owner": owner,
        "form": form,
        "card": card,
        "save_errors": save_errors or [],
        **_check_context(checked or form.card, base),
    }
    ctx["sections"] = form.sections(selectors.changed_items(ctx["check"]))
    if save_errors and checked is None:  # the engine cannot read the edit: its errors only
        ctx["errors_only"] = [{"text": m} for m in save_errors]
    if card is not None:
        version = selectors.newest_version(card)
        ctx.update(
            {
                "version": version,
                "versions": selectors.versions_of(card),
                "is_default": owner.club is not None and owner.club.convention == version.name,
                "evaluation": selectors.evaluation_view(selectors.evaluation_of(version)),
                "evaluation_errors": evaluation_errors or [],
                "check_url": reverse("cards:check", args=[card.pk]),
                "action": reverse("cards:detail", args=[card.pk]),
            }
        )
    else:
        query = f"?{owner.query}&from={base.name}"
        ctx["check_url"] = reverse("cards:check-new") + query
        ctx["action"] = reverse("cards:new") + query
    return render(request, PAGE, ctx, status=status)


def _edited(form: CardForm, name: str) -> Convention | None:
    """The card the posted form describes, if the engine can read it (else ``None``: the check
    panel then lists why)."""
    from engine.signals.cardfile import InvalidCardError, load_convention

    try:
        return load_convention(form.card_json(name))
    except InvalidCardError:
        return None


def _unreadable(form: CardForm) -> str:
    fields = ", ".join(sorted(form.errors))
    return gettext("These edits cannot be read (%(fields)s): reload the page and try again.") % {
        "fields": fields
    }


# ---------------------------------------------------------------------------------------------
# The list and a new card


@login_required
@require_GET
def card_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The cards of every club the visitor organises and class they teach, and where to
    start a new one."""
    owners = [
        {
            "owner": owner,
            "cards": [
                {"card": c, "version": selectors.newest_version(c)}
                for c in selectors.cards_of(owner)
            ],
        }
        for owner in selectors.owners_for(user=request.user)
    ]
    return render(
        request,
        "cards/card_list.html",
        {"owners": owners, "shipped": list(CONVENTIONS.values())},
    )


@login_required
@require_GET
def card_schema(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The card file's JSON Schema, the one the engine's checker reads (for the editor and for
    clubs that write their card files by hand)."""
    from engine.signals.cardfile import card_schema as schema

    return JsonResponse(schema(), content_type="application/schema+json")


def _base(request: HttpRequest) -> Convention | None:
    """The shipped card in the address (``?from=parlett-2008``)."""
    return CONVENTIONS.get(request.GET.get("from", ""))


@login_required
@require_http_methods(["GET", "POST"])
def card_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/cards/new/?from=parlett-2008&club=<slug>`` (or ``&class=<id>``): a copy of a shipped
    card to edit; saving it makes the club's (class's) card."""
    owner = _owner(request)
    base = _base(request)
    if base is None:
        return _bad(request, gettext("Start from one of the published cards."))
    if request.method == "GET":
        form = CardForm(card=base, base=base)
        form.fields["title"].initial = gettext("%(owner)s's card") % {"owner": owner.name}
        return _page(request, owner=owner, form=form, base=base)
    form = CardForm(request.POST, card=base, base=base)
    if not form.is_valid():
        return _bad(request, _unreadable(form))
    try:
        version = services.card_create(
            actor=request.user,
            owner=owner,
            derived_from=base.name,
            data=form.card_json("club-new"),
        )
    except ValidationError as exc:
        return _page(
            request,
            owner=owner,
            form=form,
            base=base,
            checked=_edited(form, "club-new"),
            save_errors=exc.messages,
            status=400,
        )
    messages.success(request, gettext("Card saved. Run “What is it worth” to see its value."))
    return redirect("cards:detail", pk=version.card_id)


# ---------------------------------------------------------------------------------------------
# A card: edit, check, versions


@login_required
@require_http_methods(["GET", "POST"])
def card_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The card's editor; a POST saves the edit as a new version (an invalid card: 400 with the
    checker's reasons, nothing saved)."""
    card = _card(request, pk)
    owner, base = selectors.owner_of(card), selectors.base_card(card)
    current = selectors.version_card(selectors.newest_version(card))
    if request.method == "GET":
        return _page(
            request, owner=owner, form=CardForm(card=current, base=base), base=base, card=card
        )
    form = CardForm(request.POST, card=current, base=base)
    if not form.is_valid():
        return _bad(request, _unreadable(form))
    try:
        saved = services.card_save(actor=request.user, card=card, data=form.card_json(current.name))
    except ValidationError as exc:
        return _page(
            request,
            owner=owner,
            form=form,
            base=base,
            card=card,
            checked=_edited(form, current.name),
            save_errors=exc.messages,
            status=400,
        )
    messages.success(request, gettext("Saved as version %(number)s.") % {"number": saved.number})
    return redirect("cards:detail", pk=card.pk)


def _check_response(
    request: HttpRequest,
    *,
    owner: Owner,
    form: CardForm,
    base: Convention,
    name: str,
    card: ClubCard | None,
) -> HttpResponse:
    if not form.is_valid():
        if wants_partial(request):
            return render(
                request,
                f"{PAGE}#check",
                {"unreadable": _unreadable(form), "base": base},
                status=400,
            )
        return _bad(request, _unreadable(form))
    edited = _edited(form, name)
    if wants_partial(request):
        if edited is None:
            from engine.signals.cardcheck import check_card

            report = check_card(form.card_json(name))
            errors = error_views(report["errors"], form.row_titles())
            return render(request, f"{PAGE}#check", {"errors_only": errors, "base": base})
        return render(request, f"{PAGE}#check", _check_context(edited, base))
    return _page(request, owner=owner, form=form, base=base, card=card, checked=edited)


@vary_on_headers("HX-Request")
@login_required
@require_POST
def card_check(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The live check of an edit (nothing is saved): errors, ambiguities with their odds, and
    the rows that differ from the base card. htmx gets the check panel, a plain post the page."""
    card = _card(request, pk)
    owner, base = selectors.owner_of(card), selectors.base_card(card)
    current = selectors.version_card(selectors.newest_version(card))
    form = CardForm(request.POST, card=current, base=base)
    return _check_response(request, owner=owner, form=form, base=base, name=current.name, card=card)


@vary_on_headers("HX-Request")
@login_required
@require_POST
def card_check_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The live check of a card not saved yet (``?club=…&from=…``)."""
    owner = _owner(request)
    base = _base(request)
    if base is None:
        return _bad(request, gettext("Start from one of the published cards."))
    form = CardForm(request.POST, card=base, base=base)
    return _check_response(request, owner=owner, form=form, base=base, name="club-new", card=None)


@login_required
@require_POST
def card_default(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Make the card's newest version the club's house card (members' drills default to it)."""
    card = _card(request, pk)
    version = _version(card, request)
    try:
        services.default_set(actor=request.user, version=version)
    except ValidationError as exc:
        return _bad(request, " ".join(exc.messages))
    messages.success(
        request,
        gettext("Members' drills now default to %(title)s, version %(number)s.")
        % {"title": card.title, "number": version.number},
    )
    return redirect("cards:detail", pk=card.pk)


# ---------------------------------------------------------------------------------------------
# What is it worth


def _evaluation_panel(
    request: HttpRequest,
    card: ClubCard,
    version: CardVersion,
    *,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        f"{PAGE}#evaluation",
        {
            "card": card,
            "version": version,
            "base": selectors.base_card(card),
            "evaluation": selectors.evaluation_view(selectors.evaluation_of(version)),
            "evaluation_errors": errors or [],
        },
        status=status,
    )


@vary_on_headers("HX-Request")
@login_required
@require_POST
def evaluation_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Start "what is it worth" for a version in the background; htmx gets the progress panel.
    A start refused (a bad card, a limit reached) is a 400 with the reason in the panel: htmx
    gets the panel, a plain post the editor page."""
    card = _card(request, pk)
    version = _version(card, request)
    try:
        services.evaluation_start(actor=request.user, version=version)
    except ValidationError as exc:
        if wants_partial(request):
            return _evaluation_panel(request, card, version, errors=exc.messages, status=400)
        owner, base = selectors.owner_of(card), selectors.base_card(card)
        current = selectors.version_card(selectors.newest_version(card))
        form = CardForm(card=current, base=base)
        return _page(
            request,
            owner=owner,
            form=form,
            base=base,
            card=card,
            evaluation_errors=exc.messages,
            status=400,
        )
    if wants_partial(request):
        return _evaluation_panel(request, card, version)
    return redirect("cards:detail", pk=card.pk)


@vary_on_headers("HX-Request")
@login_required
@require_GET
def evaluation_status(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The progress (or the figures) of a version's evaluation: the panel htmx polls."""
    card = _card(request, pk)
    version = _version(card, request)
    if not wants_partial(request):
        return redirect("cards:detail", pk=card.pk)
    return _evaluation_panel(request, card, version)


# ---------------------------------------------------------------------------------------------
# What changed between two versions


@login_required
@require_GET
def card_diff(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """``/cards/<id>/diff/?a=<number>&b=<number>``: what changed from version ``a`` to version
    ``b`` of the card, item by item (by default the newest version and the one before). The
    same people as the editor see it; a version the card does not have is a 404."""
    card = _card(request, pk)
    versions = list(selectors.versions_of(card))
    newest = versions[0].number
    older = versions[1].number if len(versions) > 1 else newest
    asked = "a" in request.GET or "b" in request.GET
    form = VersionPairForm(request.GET if asked else None, versions=versions)
    if asked and not form.is_valid():
        return _bad(request, gettext("Choose two versions of this card."))
    a = form.cleaned_data["a"] if form.is_bound else older
    b = form.cleaned_data["b"] if form.is_bound else newest
    pair = selectors.version_pair(card, a, b)
    if pair is None:
        raise Http404("No such version.")
    if not form.is_bound:
        form = VersionPairForm(initial={"a": a, "b": b}, versions=versions)
    return render(
        request,
        "cards/card_diff.html",
        {
            "card": card,
            "owner": selectors.owner_of(card),
            "base": selectors.base_card(card),
            "form": form,
            "a": pair[0],
            "b": pair[1],
            "diff": selectors.versions_diff(*pair),
            "versions": versions,
        },
    )
