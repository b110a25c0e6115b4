"""The engine's errors in the page's language: every error sentence has its Japanese, and
``trainer.wording.errors`` says an error (a clause or a sentence) in the active language."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from engine.errors import MESSAGES, ConcertoError
from engine.game import PASS, DealState
from engine.messages import Msg, Text, placeholders
from engine.seats import Seat
from tests.trainer.wording.helpers import english_words
from trainer.wording.errors import reason, sentence

#: Words a Japanese error keeps as they are: what the reader types or the file holds (the
#: actions ``pass`` and ``force``, a card such as ``AS``, the record's JSON field names).
NOTATION = {"AS", "pass", "force", "JSON", "setup", "actions", "seed", "game", "true", "false"}


def _illegal_pass() -> ConcertoError:
    deal = DealState.deal(Seat.N, random.Random(7))
    with pytest.raises(ConcertoError) as caught:
        deal.apply_action(PASS)
    return caught.value


@pytest.mark.parametrize("msg_id", sorted(MESSAGES))
def test_every_error_sentence_reads_in_japanese(msg_id):
    msg = Msg(msg_id, **{name: Text("7H") for name in placeholders(MESSAGES[msg_id])})
    with translation.override("ja"):
        japanese = reason(ConcertoError(msg))
    assert japanese != str(msg)
    assert not re.search(r"%\(|%s", japanese), japanese
    assert japanese.count("7H") == str(msg).count("7H"), japanese  # every field is filled
    assert set(english_words(japanese)) <= NOTATION, japanese


def test_an_error_is_said_in_the_pages_language():
    err = _illegal_pass()
    with translation.override("en"):
        assert reason(err) == str(err) == "E cannot pass: the first card of a hand must be played"
        assert sentence(err) == "E cannot pass: the first card of a hand must be played."
    with translation.override("ja"):
        # The seat is named (東, not E), the two clauses are two sentences.
        assert reason(err) == "東はパスできません。各回の最初はカードを出さなければなりません"
        assert sentence(err) == "東はパスできません。各回の最初はカードを出さなければなりません。"


def test_an_error_without_a_message_reads_as_its_text():
    for err in (ConcertoError("odd input: 'x'"), ValueError("odd input: 'x'")):
        with translation.override("ja"):
            assert reason(err) == "odd input: 'x'"
            assert sentence(err) == "Odd input: 'x'."
