"""Engine messages: ids with typed parameters, one English template per sentence, rendered
the same as the finished sentences the engine used to build (drills, readings, advice, the
cheat sheet), and a value every caller can still use as text."""

from __future__ import annotations

import pickle
import re

import pytest

from engine import drills
from engine.cards import card
from engine.messages import (
    Cards,
    Join,
    Msg,
    Plural,
    Term,
    Text,
    iter_params,
    placeholders,
    templates,
    terms,
)
from engine.signals import CONVENTIONS, cheatsheet, decode, reply_advice

KINDS = [str(k) for k in drills.KINDS]
SETTINGS = [(c, r) for c in sorted(CONVENTIONS) for r in ("classic", "contribution")]
UNFILLED = re.compile(r"%\(|\{\w*\}")


def _messages(value: object):
    """Every message in ``value`` (a message, a tuple of them, an option), nested ones too."""
    if isinstance(value, Msg):
        yield value
        for p in iter_params(value):
            if isinstance(p, Msg):
                yield p
    elif isinstance(value, tuple | list):
        for v in value:
            yield from _messages(v)


def drill_texts(drill: drills.Drill) -> list[object]:
    key = drills.answer_key(drill)
    out: list[object] = [
        drill.prompt,
        key.explanation,
        *key.details,
        key.expected,
        key.reveal_label,
    ]
    out += [o.label for o in drill.options]
    for k in key.accepted:
        out.append(drills.answer_words(drill.kind, k))
    for option in drill.options:
        out += list(drills.grade(drill, drills.Answer.parse(option.key, drill.kind)).details)
    if drill.kind == "lead":
        c1, c2 = key.accepted[0].split()
        answer = drills.parse_answer(drill, {"c1": c1, "c2": c2})
        out += list(drills.grade(drill, answer).details)
    return out


def test_a_message_is_its_english_sentence_and_its_data():
    m = Msg("play.then", c1=Cards((card("7H"),)), c2=Cards((card("8H"),)))
    assert m == "7♥ then 8♥" and isinstance(m, str)
    assert m.id == "play.then" and m.params["c1"] == Cards((card("7H"),))


def test_plural_forms_are_chosen_by_the_count():
    assert Msg("points", n=1) == "1 point"
    assert Msg("points", n=0) == "0 points" and Msg("points", n=2) == "2 points"
    assert isinstance(templates()["points"], Plural)


def test_lists_nested_messages_and_terms_render_in_english():
    items = Join((Term("item_lower", "fours"), Term("item_lower", "two_pair")))
    assert Msg("drill.read.ruled_out", items=items) == (
        "Ruled out by the cards you can see: four of a kind, two pair."
    )
    assert Msg("reply.play", cards=Cards((card("7H"), card("8H"), card("9H")), then=True)) == (
        "Play 7♥ then 8♥ then 9♥"
    )
    assert Msg("term", term=Term("ranks", "11")) == "Jacks"
    assert Msg("with_shape", title=Term("item", "four_sf"), shape=Text("XX.XX")) == (
        "Four to a straight flush (XX.XX)"
    )


def test_a_message_survives_pickling_with_its_data():
    m = Msg(
        "drill.read.prompt",
        side_hand=2,
        signal=Msg("signal.card_and_pass", c1=Cards((card("7H"),))),
    )
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.id == m.id and back.params == m.params


def test_unknown_ids_terms_and_parameters_are_refused():
    with pytest.raises(KeyError):
        Msg("no.such.message")
    with pytest.raises(KeyError):
        Term("item", "five_of_a_kind")
    with pytest.raises(ValueError, match="unknown term kind"):
        Term("colour", "red")
    with pytest.raises(TypeError):
        Msg("points", n=True)  # a bool is not a number to print
    with pytest.raises(KeyError):
        Msg("points")  # the count is missing


def test_every_template_is_one_sentence_with_named_fields_only():
    """No positional ``%s`` or ``{}`` fields: a translation must be able to reorder them."""
    for msg_id, template in templates().items():
        forms = (template.one, template.other) if isinstance(template, Plural) else (template,)
        for text in forms:
            stripped = re.sub(r"%\(\w+\)s|%%", "", text)
            assert "%" not in stripped and "{" not in stripped, (msg_id, text)
        if isinstance(template, Plural):
            assert template.count in placeholders(template.other), msg_id


def test_terms_cover_items_combinations_suits_ranks_and_seats():
    t = terms()
    assert t["item"]["four_sf"] == "Four to a straight flush"
    assert t["combo"]["three_pairs"] == "Three pairs (left-overs)"
    assert set(t["suit"]) == {"spades", "hearts", "diamonds", "clubs"}
    assert t["rank"]["14"] == "Ace" and t["ranks"]["10"] == "10s"


@pytest.mark.parametrize(("convention", "rule"), SETTINGS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_drill_speaks_in_messages(kind, convention, rule):
    """Prompts, options, explanations, details, expected answers and reveal labels of random
    drills are messages whose ids are in the table, every field filled."""
    for seed in range(25):
        d = drills.make_drill(
            kind, 1000 + seed, drills.DrillParams(convention=convention, rule=rule)
        )
        for text in drill_texts(d):
            if text == "" or (isinstance(text, str) and text.isdigit()):
                continue  # an empty label, or a score drill's number of points
            found = list(_messages(text))
            assert found, (kind, seed, text)
            for m in found:
                assert m.id in templates()
                assert not UNFILLED.search(m), (m.id, m)


def test_every_reading_and_advice_is_a_message():
    for name, convention in CONVENTIONS.items():
        for c1, c2 in [("4S", "8S"), ("7H", None), ("KC", "TD"), ("2H", "5H"), ("JD", "3D")]:
            second = card(c2) if c2 else None
            for r in decode(card(c1), second, 1, convention):
                assert (
                    isinstance(r.text, Msg)
                    and r.text.id == f"reading.{name}.{r.text.id.split('.', 2)[2]}"
                )
            advice = reply_advice(
                [card("5H"), card("6H"), card("9C")], card(c1), second, 1, convention
            )
            assert isinstance(advice.reason, Msg)


def test_the_cheat_sheet_is_messages_rendering_the_same_words():
    for convention in CONVENTIONS.values():
        sheet = cheatsheet(convention)
        assert all(isinstance(c, Msg) for c in sheet.columns)
        assert all(isinstance(cell, Msg) or cell == "–" for g in sheet.grid for cell in g.cells)
        assert all(
            isinstance(r.cards, Msg) and isinstance(r.rank_relation, Msg) for r in sheet.rows
        )
    sheet = cheatsheet(CONVENTIONS["parlett-2008"])
    assert sheet.grid[0].cells[2] == "two pair"
    assert sheet.rows[0].suit_relation == "same suit"


def _cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    import io

    from engine.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_the_cli_prints_english_and_with_lang_ja_japanese():
    import json

    status, out, _ = _cli("drill", "reply", "12", "--answer", "pass")
    english = json.loads(out)
    status_ja, out_ja, err = _cli("--lang", "ja", "drill", "reply", "12", "--answer", "pass")
    japanese = json.loads(out_ja)
    assert (status, status_ja, err) == (0, 0, "")
    assert english["prompt"].startswith("Side hand ")
    assert japanese["prompt"].startswith("自陣の回")
    for field in ("prompt", "explanation", "expected"):
        assert not re.search(r"[A-Za-z]{3,}", japanese[field]), japanese[field]
    assert japanese["grade"]["feedback"].startswith(("正解です", "不正解です"))
    assert japanese["accepted"] == english["accepted"]  # keys are never translated
    _, batch, _ = _cli("--lang", "ja", "drill", stdin="reply 12\nread 3\n")
    assert [json.loads(line)["prompt"][:4] for line in batch.splitlines()] == ["自陣の回"] * 2


def test_the_cli_refuses_a_language_without_a_catalog():
    status, out, err = _cli("--lang", "xx", "drill", "reply", "12")
    assert (status, out) == (2, "")
    assert "no catalog of the engine's sentences for language 'xx'" in err


def _broken_card(tmp_path):
    import json

    from engine.signals import CONVENTIONS

    data = CONVENTIONS["parlett-2008"].to_json()
    data["name"] = "our-card"
    fours = next(r for r in data["rows"] if r["id"] == "fours")
    fours["pattern"]["distance"] = [5, 2]
    path = tmp_path / "card.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_convention_check_speaks_the_language_asked_for(tmp_path):
    import json

    path = str(_broken_card(tmp_path))
    status, out, err = _cli("convention", "check", path)
    assert status == 2
    (error,) = json.loads(out)["errors"]
    assert error["message"] == (
        "row 'fours': the distance must run from a lower number to a higher one (0 to 12), "
        "not 5 to 2"
    )
    assert err.startswith(f"error: {path}: not a valid card (1 error): row 'fours'")
    status, out, err = _cli("--lang", "ja", "convention", "check", path)
    assert status == 2
    (error,) = json.loads(out)["errors"]
    assert error["code"] == "bad_pattern" and error["row"] == "fours"  # data stays data
    assert error["message"].startswith("行'fours'：間隔は")
    # The error line is English whatever --lang (for scripts and logs); the report is not.
    assert err.startswith(f"error: {path}: not a valid card (1 error): row 'fours'")
    words = re.findall(r"[A-Za-z]{3,}", error["message"])
    assert set(words) <= {"fours"}, words


def test_convention_check_of_a_file_that_is_not_json_speaks_japanese(tmp_path):
    import json

    path = tmp_path / "card.json"
    path.write_text("{ not json", encoding="utf-8")
    status, out, err = _cli("--lang", "ja", "convention", "check", str(path))
    assert status == 2
    (error,) = json.loads(out)["errors"]
    assert error["message"].startswith("JSONではありません") and "None" not in out + err
