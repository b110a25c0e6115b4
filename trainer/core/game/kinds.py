"""Each drill kind's own template: ``templates/trainer/drills/kinds/<kind>.html``.

A kind's rules — building, reading and checking an answer, grading, its level, what teaches it
— are its class in the engine (:mod:`engine.drills.kinds`, found with ``spec_for``). What the
site shows that is the kind's own lives in its template, as named partials, which pages
include by the name this module gives (no view or template branches on a kind's name)::

    kind_template("lead", "answer")   # 'trainer/drills/kinds/lead.html#answer'

- ``name``: the kind as a noun before a drill's number ("Lead drill 4711"), in the page's
  language;
- ``answer``: the answer part of the drill form, before and after the answer is graded.

See ``docs/drill-kinds.md``.
"""

from __future__ import annotations

from engine.drills import KINDS, spec_for

#: The partials every kind's template defines.
PARTS = ("name", "answer")


def kind_template(kind: str, part: str) -> str:
    """The partial ``part`` (one of :data:`PARTS`) of drill kind ``kind``'s template.
    Raises :class:`~engine.errors.InvalidNotationError` for a kind the engine does not know."""
    if part not in PARTS:
        raise ValueError(f"a drill kind's template has no part {part!r}")
    return f"trainer/drills/kinds/{spec_for(kind).kind}.html#{part}"


def name_template(kind: str) -> str | None:
    """The ``name`` partial of ``kind``, or None for a kind the engine does not know (an old
    row's kind is then shown as stored)."""
    return kind_template(kind, "name") if kind in KINDS else None
