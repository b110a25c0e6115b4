"""What the engine's errors say, in the page's language.

An engine error made from a message (:class:`engine.errors.ConcertoError` with an id and
parameters, like Django's ``ValidationError`` with its ``code`` and ``params``) is rendered
through this app's catalog; any other error (or an engine error given plain text) reads as
its text. Views and forms that turn an engine error into a 400 or a field error say it
through :func:`reason` (a clause, after their own words: "That move is not allowed: …") or
:func:`sentence` (on its own).
"""

from __future__ import annotations

from engine.errors import ConcertoError
from engine.messages import Msg, Text, register_words
from trainer.wording.render import say

#: The page's own words around an engine error (besides the errors' sentences in the engine).
ERROR_WORDS: dict[str, str] = {
    "error.as_sentence": "%(reason)s.",
}

register_words(ERROR_WORDS)

__all__ = ["reason", "sentence"]


def reason(exc: BaseException) -> str:
    """What ``exc`` says, in the active language: ``"it is not your turn"`` in English,
    ``"あなたの番ではありません"`` on a Japanese page."""
    if isinstance(exc, ConcertoError):
        return say(exc.message)
    return str(exc)


def sentence(exc: BaseException) -> str:
    """What ``exc`` says as a sentence of its own, in the active language: a capital first
    letter and a full stop in English (``"Choose one of the options."``), the language's own
    full stop in another."""
    text = reason(exc)
    if not text.endswith((".", "。", "!", "?")):
        if isinstance(exc, ConcertoError) and exc.id is not None:
            text = say(Msg("error.as_sentence", reason=Text(text)))
        else:  # plain text is English whatever the page's language
            text += "."
    return text[:1].upper() + text[1:]
