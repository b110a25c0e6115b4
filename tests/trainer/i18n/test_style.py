"""The Japanese style of docs/i18n.md, checked where a rule can be read off the text: the
catalogs and the lessons.

- no half-width space next to Japanese (a number and its counter, a placeholder and the word
  after it, bold in a lesson);
- Japanese punctuation after Japanese text (no ``.`` ``,`` ``:`` ``(`` after Japanese);
- one colon at most in a sentence (a label's), never clauses chained with colons;
- sentences addressed to the reader end in です/ます;
- a wrong answer is 「不正解です」, never 「惜しい」;
- the Django strings the project re-translates (``trainer/accounts/django_words.py``) are still
  Django's, character for character.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import django
import pytest

from tests.trainer.i18n.catalogs import ROOT, catalogs, entries

J = "\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff01-\uff5e"
LESSONS = ROOT / "seeds/lessons/ja"
#: A half-width space between Japanese and a number, a placeholder or a Latin letter (either
#: order). A space before or after an HTML tag separates elements and is not counted.
SPACE = re.compile(rf"[{J}] (?=[%\w])|(?:%\(\w+\)[sd]|[A-Za-z0-9]) (?=[{J}])")
ASCII_PUNCTUATION = re.compile(rf"[{J}][.,:(!?]|\([{J}]")
POLITE = ("ます", "ました", "です", "でした", "ません", "ませんでした", "ましょう", "ください",
          "でしょう", "ますか", "ですか")  # fmt: skip
#: Terse notes of the cheat sheet (a table's shorthand, not a sentence to the reader).
TERSE = {"c2 higher/lower than c1."}


def _texts() -> list[tuple[str, str]]:
    out = []
    for path in catalogs("ja"):
        for entry in entries(path):
            if entry.context == "date format" or entry.msgid in TERSE:
                continue
            out += [(entry.msgid, text) for text in entry.msgstrs]
    return out


def _visible(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def test_no_half_width_space_next_to_japanese_in_the_catalogs():
    hits = [f"{msgid[:40]!r}: {text!r}" for msgid, text in _texts() if SPACE.search(text)]
    assert hits == [], "\n".join(hits)


def test_japanese_text_takes_japanese_punctuation():
    """After Japanese text, 。、（）：！？ — a symbol being explained may be quoted: 「.」."""
    hits = [
        f"{msgid[:40]!r}: {text!r}"
        for msgid, text in _texts()
        if ASCII_PUNCTUATION.search(re.sub(r"「[^」]{1,3}」", "「」", _visible(text)))
    ]
    assert hits == [], "\n".join(hits)


def test_no_sentence_chains_clauses_with_colons():
    hits = [
        f"{msgid[:40]!r}: {text!r}"
        for msgid, text in _texts()
        if any(s.count("：") > 1 for s in re.split("[。！？]", _visible(text)))
    ]
    assert hits == [], "\n".join(hits)


def plain_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that end in a plain form (る, た, だ, ない …), not です/ます.
    A closing bracket before the stop ends a note in brackets, which may be terse."""
    found = []
    for sentence in re.split(r"(?<=[。！？])", _visible(text)):
        if not sentence.endswith(("。", "？", "！")) or sentence[:-1].endswith(("）", "」")):
            continue
        words = sentence[:-1]
        if re.search(r"(る|た|だ|ない|い|う)$", words) and not words.endswith(POLITE):
            found.append(sentence)
    return found


def test_sentences_to_the_reader_end_in_desu_masu():
    hits = [
        f"{msgid[:40]!r}: {sentence!r}"
        for msgid, text in _texts()
        for sentence in plain_sentences(text)
    ]
    assert hits == [], "\n".join(hits)


def test_the_politeness_check_finds_plain_sentences():
    assert plain_sentences("パートナーはスリーカードを持っている。4枚目を加えよう。") == [
        "パートナーはスリーカードを持っている。",
        "4枚目を加えよう。",
    ]
    polite = "パートナーは何を持っていますか？6点を得ました。（同じストレートに入る）。"
    assert plain_sentences(polite) == []


def test_a_wrong_answer_is_called_wrong_not_nearly():
    texts = dict(_texts())
    assert not [t for t in texts.values() if "惜しい" in t]
    assert texts["Not quite — the answer is %(expected)s."].startswith("不正解です。")


def _lesson_prose(path: Path) -> list[str]:
    """The lesson's prose lines (front matter's title and summary, captions, text): not the
    example blocks' card lines, not code spans."""
    lines = []
    fence = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```"):
            fence = not fence
            continue
        if fence and not line.startswith("caption:"):
            continue
        lines.append(re.sub(r"`[^`]*`", "`x`", line))
    return lines


@pytest.mark.parametrize("path", sorted(LESSONS.glob("*.md")), ids=lambda p: p.name)
def test_lessons_set_no_space_next_to_japanese(path):
    bold = re.compile(rf"[{J}] \*|\* [{J}]")
    hits = [
        line.strip()[:80]
        for line in _lesson_prose(path)
        if not line.lstrip().startswith(("- ", "* ", "|"))
        and (SPACE.search(line.replace("**", "")) or bold.search(line))
    ]
    assert hits == [], "\n".join(hits)


def test_the_django_words_the_site_retranslates_are_still_djangos():
    """Each msgid of trainer/accounts/django_words.py is in Django's own catalogs: a Django
    upgrade that rewords one makes the site's translation of it dead, and this fails."""
    source = (ROOT / "trainer/accounts/django_words.py").read_text(encoding="utf-8")
    ours = {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
    }
    django_root = Path(django.__file__).parent
    theirs = set()
    for path in (
        django_root / "conf/locale/ja/LC_MESSAGES/django.po",
        django_root / "contrib/auth/locale/ja/LC_MESSAGES/django.po",
    ):
        theirs |= {e.msgid for e in entries(path)}
    assert ours and ours <= theirs, sorted(ours - theirs)
