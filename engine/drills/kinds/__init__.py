"""The drill kinds, one class each, found through :func:`spec_for` (registered on import)."""

from engine.drills.kinds import (  # noqa: F401  (register)
    checklist,
    last_hand,
    lead,
    read,
    reply,
    score,
)
from engine.drills.kinds.base import REGISTRY, AnswerKey, KindSpec, Topic, spec_for

__all__ = ["REGISTRY", "AnswerKey", "KindSpec", "Topic", "spec_for"]
