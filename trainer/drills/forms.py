"""The drill page's answer form: the signed showing, and the answer's fields, which the drill's
kind reads (an ``option``, or a lead's cards ``c1`` and ``c2``).

A kind may take an answer in two steps without JavaScript (a lead: the first card alone is a
step, shown back with the second choice to make; ``c1`` and ``c2`` together are the answer):
the kind's :meth:`~engine.drills.KindSpec.first_step` says which a post is.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from django import forms
from django.core import signing
from django.utils.translation import gettext

from engine.cards import Card
from engine.drills import Answer, CardNotInHandError, Drill, spec_for
from engine.errors import ConcertoError
from trainer.progress.services import Showing
from trainer.wording.errors import sentence

_SHOWING_SALT = "trainer.drill-showing"


def showing_sign(drill: Drill) -> str:
    """A fresh signed showing of ``drill``: which drill, when it was shown, a new token."""
    return signing.dumps(
        {
            "t": uuid.uuid4().hex,
            "at": int(time.time() * 1000),
            "k": drill.kind,
            "s": drill.seed,
            "p": drill.params.key(),
        },
        salt=_SHOWING_SALT,
        compress=True,
    )


class AnswerForm(forms.Form):
    """An answer posted to ``drill``. Valid when the showing is this drill's and the answer
    fits it; then :attr:`answer` is set, or for the first of two steps only :attr:`first`."""

    showing = forms.CharField(required=False)
    option = forms.CharField(required=False, strip=False)
    c1 = forms.CharField(required=False)
    c2 = forms.CharField(required=False)

    def __init__(self, data: Any, *, drill: Drill) -> None:
        super().__init__(data)
        self.drill = drill
        self.answer: Answer | None = None
        self.first: Card | None = None

    def clean_showing(self) -> Showing:
        try:
            data = signing.loads(self.cleaned_data["showing"], salt=_SHOWING_SALT)
            token = uuid.UUID(data["t"])
            at = int(data["at"])
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            raise forms.ValidationError(
                gettext("This answer form is damaged. Reload the drill and try again.")
            ) from None
        drill = self.drill
        if (data.get("k"), data.get("s"), data.get("p")) != (
            drill.kind,
            drill.seed,
            drill.params.key(),
        ):
            raise forms.ValidationError(gettext("This answer belongs to a different drill."))
        return Showing(token, at)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean returns (typed as optional)
        if self.errors:
            return cleaned
        spec = spec_for(self.drill.kind)
        try:
            self.first = spec.first_step(self.drill, self.data)
            if self.first is None:
                self.answer = spec.parse(self.drill, self.data)
        except CardNotInHandError as exc:
            raise forms.ValidationError(
                gettext("%(card)s is not in your hand.") % {"card": exc.card.symbol}
            ) from exc
        except ConcertoError as exc:
            raise forms.ValidationError(sentence(exc)) from exc
        return cleaned

    @property
    def raw_showing(self) -> str:
        """The signed showing as posted, carried to the next step of the same showing."""
        return str(self.data.get("showing", ""))

    def first_error(self) -> str:
        """The message to show: a damaged showing first, then what is wrong with the answer."""
        for name in ("showing", "__all__"):
            if name in self.errors:
                return str(self.errors[name][0])
        return next(str(errs[0]) for errs in self.errors.values())
