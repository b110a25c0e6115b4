"""Engine errors carry a message id and parameters (as Django's ``ValidationError`` carries a
code and params), their ``str`` stays the English sentence, every id the engine raises is in
the message table with the fields its template names, and the command line prints English."""

from __future__ import annotations

import ast
import io
import json
import random
from pathlib import Path

import pytest

from engine.cli import main
from engine.drills import DrillParams, InvalidAnswerError, make_drill, parse_answer
from engine.errors import MESSAGES, ConcertoError, IllegalPlayError
from engine.game import PASS, DealState
from engine.messages import Msg, Text, placeholders, templates
from engine.play import IllegalPlay, PlaySetup, PlayTable, actions_json
from engine.seats import Seat

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_an_illegal_move_carries_its_reason_as_data_and_says_it_in_english():
    deal = DealState.deal(Seat.N, random.Random(7))
    with pytest.raises(IllegalPlayError) as caught:
        deal.apply_action(PASS)  # East must lead a card
    err = caught.value
    assert str(err) == "E cannot pass: the first card of a hand must be played"
    assert err.id == "error.play.cannot_pass"
    assert err.params["seat"] == Text("E")
    assert isinstance(err.params["reason"], Msg)
    assert err.params["reason"].id == "error.play.first_card"


def test_the_table_keeps_the_engines_reason_when_it_refuses_the_learner():
    table, _ = PlayTable.start(PlaySetup(seed=7))  # South leads hand 2
    with pytest.raises(IllegalPlay) as caught:
        table.act(PASS)
    assert caught.value.id == "error.play.cannot_pass"
    assert str(caught.value) == "S cannot pass: the first card of a hand must be played"


def test_a_wrong_answer_to_a_drill_carries_its_message():
    drill = make_drill("read", 69, DrillParams())
    with pytest.raises(InvalidAnswerError) as caught:
        parse_answer(drill, {})
    assert caught.value.id == "error.answer.choose_option"
    assert str(caught.value) == "choose one of the options"


def test_an_error_given_plain_text_has_no_id():
    err = ConcertoError("something odd")
    assert (str(err), err.id, dict(err.params)) == ("something odd", None, {})


def _error_ids() -> tuple[set[str], list[tuple[str, set[str], str]]]:
    """Every ``"error.…"`` string in the engine's code, and each ``Msg("error.…", …)`` call
    with the keywords it passes."""
    ids: set[str] = set()
    calls: list[tuple[str, set[str], str]] = []
    for path in ENGINE.rglob("*.py"):
        if path.name == "errors.py" and path.parent == ENGINE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("error.")
            ):
                ids.add(node.value)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).startswith("error.")
            ):
                keywords = {k.arg for k in node.keywords if k.arg}
                calls.append((node.args[0].value, keywords, f"{path.name}:{node.lineno}"))
    return ids, calls


def test_every_error_the_engine_raises_is_in_the_table_with_its_fields():
    """A typo in an id would raise ``KeyError`` instead of the error, and only when the error
    happens: checked here for every raise site at once."""
    ids, calls = _error_ids()
    assert ids - set(templates()) == set()
    for msg_id, keywords, where in calls:
        template = templates()[msg_id]
        assert isinstance(template, str), msg_id
        assert keywords == placeholders(template), where


def test_every_error_sentence_is_said_somewhere():
    ids, _ = _error_ids()
    assert set(MESSAGES) - ids == set()


def _run(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    status = main(list(argv), stdin=io.StringIO(""), stdout=io.StringIO(), stderr=err)
    return status, err.getvalue()


@pytest.mark.parametrize("lang", [[], ["--lang", "ja"]])
def test_the_command_line_prints_errors_in_english(lang, tmp_path):
    """The reason is data for the trainer; the command line prints its English, whatever
    ``--lang`` (which chooses the language of the JSON output's sentences)."""
    status, err = _run(*lang, "drill", "read", "69", "--answer", "bogus")
    assert (status, err) == (2, "error: not one of this drill's options: 'bogus'\n")
    table, _ = PlayTable.start(PlaySetup(seed=7))
    record = tmp_path / "record.json"
    record.write_text(
        json.dumps(
            {"setup": table.setup.to_json(), "actions": [*actions_json(table.actions), "pass"]}
        )
    )
    status, err = _run(*lang, "replay", str(record))
    assert status == 2
    number = len(table.actions) + 1
    assert err == (
        f"error: record: action {number} ('pass'): S cannot pass: the first card of a hand "
        "must be played\n"
    )
