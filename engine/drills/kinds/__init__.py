"""The drill kinds, one class each, found through :func:`spec_for` (registered on import)."""

from engine.drills.kinds import checklist, lead, read, reply, score  # noqa: F401  (register)
from engine.drills.kinds.base import REGISTRY, AnswerKey, KindSpec, Topic, spec_for

__all__ = ["REGISTRY", "AnswerKey", "KindSpec", "Topic", "spec_for"]
