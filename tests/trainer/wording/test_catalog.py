"""The engine's id table and this app's catalog agree: every message template and term has a
Japanese translation (none untranslated or fuzzy), no entry is left over from a message the
engine no longer says, placeholders match (``msgfmt --check``), and the compiled ``.mo`` is
the ``.po``'s."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine import messages
from engine.messages import Plural, placeholders, templates, terms
from trainer.wording import catalog

pytestmark = pytest.mark.skipif(shutil.which("msgmerge") is None, reason="needs gettext")


def test_the_catalog_is_in_step_and_fully_translated():
    call_command("wording_messages", "--check")


def test_every_id_and_term_is_an_entry():
    ids = {(e.msgctxt, e.msgid) for e in catalog.entries()}
    for msg_id, template in templates().items():
        english = template.one if isinstance(template, Plural) else template
        assert not english or (catalog.CONTEXT, english) in ids, msg_id
    for kind, words in terms().items():
        for english in words.values():
            assert english.isdigit() or (f"{catalog.CONTEXT}:{kind}", english) in ids


def test_a_new_message_without_a_translation_fails_the_check():
    msg_id = "test.untranslated"
    messages.register_words({msg_id: "A sentence nobody translated, %(n)s times."})
    try:
        with pytest.raises(CommandError, match="out of step"):
            call_command("wording_messages", "--check")
    finally:
        del messages._TABLE[msg_id]


def test_an_entry_the_engine_no_longer_says_fails_the_check(tmp_path, monkeypatch):
    po = tmp_path / "django.po"
    po.write_text(
        catalog.po_path("ja").read_text(encoding="utf-8") + '\nmsgid "An orphan"\nmsgstr "孤児"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(
        "trainer.wording.management.commands.wording_messages.po_path", lambda lang: po
    )
    with pytest.raises(CommandError, match="out of step"):
        call_command("wording_messages", "--check")


def test_the_compiled_catalog_is_the_po(tmp_path):
    po = catalog.po_path("ja")
    out = tmp_path / "django.mo"
    subprocess.run(
        [shutil.which("msgfmt") or "msgfmt", "--check", "-o", str(out), str(po)], check=True
    )
    assert out.read_bytes() == po.with_suffix(".mo").read_bytes()


def test_templates_use_named_fields_the_catalog_can_reorder():
    for e in catalog.entries():
        if e.msgid_plural:
            assert placeholders(e.msgid) <= placeholders(e.msgid_plural) | {"n"}
