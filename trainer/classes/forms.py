"""Forms for classes: they check the shape of input; the services check the rules."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, cast

from django import forms
from django.http import QueryDict
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.drills import KIND_TITLES, KINDS, SCORE_SKILLS, DrillKind, skill_title, skills_for
from engine.messages import Msg, Term
from engine.signals import CONVENTIONS, DEFAULT_CONVENTION, ITEMS
from trainer.classes.models import (
    JOIN_CODE_MAX_LENGTH,
    Assignment,
    Classroom,
    normalize_join_code,
)
from trainer.classes.services import MAX_PLAY_DEALS
from trainer.classes.specs import BuiltSpec
from trainer.core.game import conventions
from trainer.core.game.rules import rule_choices
from trainer.drills.models import DrillSet
from trainer.wording.render import say

#: Drills per kind × item a built assignment may ask for.
MAX_COUNT = 20
#: Score drills' combinations that are no checklist item ("fours" is both: an item).
SCORE_ONLY = tuple(s for s in SCORE_SKILLS if s not in set(map(str, ITEMS)))
#: Deals a play assignment may ask for.
MAX_DEALS = MAX_PLAY_DEALS


class ClassroomForm(forms.Form):
    name = forms.CharField(
        max_length=80,
        label=_("Class name"),
        help_text=_("What your students will see, e.g. “Tuesday beginners”."),
    )


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Join code"),
        max_length=JOIN_CODE_MAX_LENGTH + 10,
        help_text=_("Your teacher gives you this code. Dashes, spaces and capitals do not matter."),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "code-input",
            }
        ),
    )

    def clean_code(self) -> str:
        code = normalize_join_code(self.cleaned_data["code"])
        if not code:
            raise forms.ValidationError(_("Type the code your teacher gave you."))
        return code


class CoTeacherForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label=_("Username"),
        help_text=_("They need an account on this site already."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class AssignmentForm(forms.Form):
    """A title and due date, then either a curated drill set or a spec built on the spot."""

    title = forms.CharField(max_length=120, label=_("Title"))
    due_on = forms.DateField(label=_("Due date"), widget=forms.DateInput(attrs={"type": "date"}))
    source = forms.ChoiceField(
        label=_("Drills"),
        choices=Assignment.Source.choices,
        initial=Assignment.Source.BUILT,
        widget=forms.RadioSelect,
    )
    drill_set = forms.ModelChoiceField(
        queryset=DrillSet.objects.all(),
        required=False,
        label=_("Curated drill set"),
        empty_label=_("Choose a set…"),
    )
    kinds = forms.MultipleChoiceField(
        choices=[(k, lazy(say, str)(KIND_TITLES[k])) for k in KINDS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Kinds of drill"),
    )
    items = forms.MultipleChoiceField(
        choices=[(i, lazy(say, str)(Msg("term", term=Term("item", i)))) for i in ITEMS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Checklist items"),
        help_text=_("Leave all unticked for drills on any item."),
    )
    combos = forms.MultipleChoiceField(
        choices=[(c, lazy(say, str)(skill_title(DrillKind.SCORE, c))) for c in SCORE_ONLY],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Other combinations (score drills)"),
        help_text=_("Score drills can also practise these, as other drills practise an item."),
    )
    count = forms.IntegerField(
        min_value=1,
        max_value=MAX_COUNT,
        initial=2,
        required=False,
        label=_("Drills of each kind and item"),
    )
    deals = forms.IntegerField(
        min_value=1,
        max_value=MAX_DEALS,
        initial=3,
        required=False,
        label=_("Deals to play"),
    )
    convention = forms.ChoiceField(
        choices=[(c.name, c.title) for c in CONVENTIONS.values()],
        initial=DEFAULT_CONVENTION.name,
        label=_("Convention"),
    )
    rule = forms.ChoiceField(
        label=_("Scoring rule"),
        choices=rule_choices,
        initial="classic",
    )

    def __init__(
        self,
        *args: Any,
        today: date | None = None,
        classroom: Classroom | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # The shipped cards and the class's own (trainer.cards), newest version of each.
        convention = cast(forms.ChoiceField, self.fields["convention"])
        convention.choices = conventions.choices(classroom=classroom)
        self.today = today or timezone.localdate()
        self.fields["due_on"].initial = self.today + timedelta(days=7)
        self.fields["due_on"].widget.attrs["min"] = self.today.isoformat()
        drill_set = cast("forms.ModelChoiceField[DrillSet]", self.fields["drill_set"])
        sets = drill_set.queryset  # DrillSet.objects.all(), above
        if sets is not None and not sets.exists():
            drill_set.help_text = _("No curated sets have been loaded yet.")

    #: The query values a link may pre-fill the form with (the dashboard's "Set practice").
    PREFILL = ("kinds", "items", "combos")

    @classmethod
    def initial_from_query(cls, query: QueryDict) -> dict[str, Any]:
        """Initial values from a link's query (``?kinds=score&items=fours``): each value
        checked against the field's choices — unknown ones are dropped, never an error — and a
        title naming what is practised ("Practice: Four of a kind")."""
        initial: dict[str, Any] = {}
        for name in cls.PREFILL:
            field = cast(forms.MultipleChoiceField, cls.base_fields[name])
            wanted = [v for v in dict.fromkeys(query.getlist(name)) if field.valid_value(v)]
            if wanted:
                initial[name] = wanted
        if initial.get("kinds"):
            initial["title"] = practice_title(
                initial["kinds"], [*initial.get("items", []), *initial.get("combos", [])]
            )
        return initial

    def clean_due_on(self) -> date:
        due_on: date = self.cleaned_data["due_on"]
        if due_on < self.today:
            raise forms.ValidationError(_("Choose today or a later day."))
        return due_on

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns (typed as optional)
        if data.get("source") == Assignment.Source.DRILL_SET:
            if not data.get("drill_set"):
                self.add_error("drill_set", _("Choose one of the curated sets."))
        elif data.get("source") == Assignment.Source.BUILT:
            if not data.get("kinds"):
                self.add_error("kinds", _("Tick at least one kind of drill."))
            if not data.get("count"):
                self.add_error("count", _("Say how many drills of each kind and item."))
        elif data.get("source") == Assignment.Source.PLAY and not data.get("deals"):
            self.add_error("deals", _("Say how many deals to play."))
        if (
            data.get("source") == Assignment.Source.PLAY
            and data.get("convention")
            and data["convention"] not in CONVENTIONS
        ):
            self.add_error("convention", _("Deals at the table are played with a published card."))
        return data

    def play_deals(self) -> int | None:
        """The number of deals of a play assignment, else None (call after ``is_valid``)."""
        data = self.cleaned_data
        return data["deals"] if data["source"] == Assignment.Source.PLAY else None

    def spec(self) -> BuiltSpec | None:
        """The built spec, or None for a curated set (call after ``is_valid``)."""
        data = self.cleaned_data
        if data["source"] != Assignment.Source.BUILT:
            return None
        return BuiltSpec(
            kinds=tuple(k for k in KINDS if k in data["kinds"]),
            items=tuple(i for i in ITEMS if i in data["items"])
            + tuple(c for c in SCORE_ONLY if c in data["combos"]),
            count=data["count"],
            convention=data["convention"],
            rule=data["rule"],
        )


def practice_title(kinds: list[str], skills: list[str]) -> str:
    """ "Practice: Four of a kind" — the skills practised, else the kinds — cut to the title's
    length."""
    names = [_skill_name(kinds, s) for s in skills] or [say(KIND_TITLES[k]) for k in kinds]
    title = gettext("Practice: %(what)s") % {"what": say(Msg("list.comma")).join(names)}
    limit = cast(forms.CharField, AssignmentForm.base_fields["title"]).max_length or len(title)
    return title if len(title) <= limit else title[: limit - 1] + "…"


def _skill_name(kinds: list[str], skill: str) -> str:
    """A checklist item's name ("Four of a kind"), or a combination's when only score drills
    practise it ("Fours", "Straight flush")."""
    # Each kind names its own skills; the last kind in learning order speaks for the set (a
    # checklist item's name once any kind past the scoring drills practises it).
    practising = [k for k in kinds if skill in skills_for(k)]
    latest = max(practising, key=lambda k: KINDS.index(DrillKind(k)), default=None)
    if latest is None:
        return say(Msg("term", term=Term("item", skill))) if skill in ITEMS else skill
    return say(skill_title(latest, skill))
