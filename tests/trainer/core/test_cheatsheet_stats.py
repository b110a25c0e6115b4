"""The cheat sheet's worked-example odds: computed by ``manage.py cheatsheet_stats`` once per
card version and stored; a request only reads them, and shows the card without them when they
are missing."""

import dataclasses
import io

import pytest
from django.core.management import CommandError, call_command

from engine.signals import get_convention
from trainer.core.game import odds as odds_module
from trainer.core.game.odds import (
    CHEATSHEET_EXAMPLES,
    cheatsheet_odds,
    cheatsheet_stats_key,
    stored_cheatsheet_stats,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memo():
    odds_module._built.clear()
    odds_module._warned.clear()
    yield
    odds_module._built.clear()
    odds_module._warned.clear()


def no_posterior(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a request computed a posterior")

    monkeypatch.setattr(odds_module, "posterior", refuse)


def command(*args):
    out = io.StringIO()
    call_command("cheatsheet_stats", *args, stdout=out)
    return out.getvalue()


def test_the_request_path_only_reads_stored_statistics(client, monkeypatch):
    out = command("--convention", "parlett-2008")
    assert "parlett-2008: computed" in out
    no_posterior(monkeypatch)
    html = client.get("/cheatsheet/").content.decode()
    assert "Worked examples: what could partner hold?" in html
    assert html.count('class="odds-chart"') == len(CHEATSHEET_EXAMPLES)
    assert 'id="odds-example-1-caption"' in html
    assert "In 2,000 deals where partner led like this, partner held:" in html
    assert ">Four to a flush<" in html  # ♠4 then ♠8 in the weak round
    # Again, from the process's memo of built charts: still no posterior.
    again = client.get("/cheatsheet/").content.decode()
    assert again.count('class="odds-chart"') == len(CHEATSHEET_EXAMPLES)


def test_missing_statistics_render_the_card_without_them(client, monkeypatch, caplog):
    no_posterior(monkeypatch)
    response = client.get("/cheatsheet/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="odds-chart"' not in html
    assert "Worked examples: what could partner hold?" not in html
    assert "<table" in html  # the card itself is there
    assert "run manage.py cheatsheet_stats" in caplog.text
    assert cheatsheet_odds("parlett-2008") == ()


def test_the_command_stores_once_per_card_version():
    assert stored_cheatsheet_stats("teach-yourself-1994") is None
    with pytest.raises(CommandError, match="no cheat-sheet statistics for teach-yourself-1994"):
        command("--convention", "teach-yourself-1994", "--check")
    assert "teach-yourself-1994: computed" in command("--convention", "teach-yourself-1994")
    stored = stored_cheatsheet_stats("teach-yourself-1994")
    assert stored is not None and len(stored) == len(CHEATSHEET_EXAMPLES)
    assert stored[0]["signal"] == ["4S", "8S"] and stored[0]["samples"] == 2000
    assert "already stored" in command("--convention", "teach-yourself-1994")
    assert "stored (v1:teach-yourself-1994:" in command(
        "--convention", "teach-yourself-1994", "--check"
    )
    assert "computed" in command("--convention", "teach-yourself-1994", "--force")
    with pytest.raises(CommandError, match="bridge"):
        command("--convention", "bridge")


def test_a_changed_card_gets_new_statistics():
    card = get_convention("parlett-2008")
    changed = dataclasses.replace(card, rows=card.rows[:-1])
    reworded = dataclasses.replace(card, title=card.title + "!")
    assert cheatsheet_stats_key(changed) != cheatsheet_stats_key(card)
    assert cheatsheet_stats_key(changed).startswith("v1:parlett-2008:")
    # The statistics depend on the checklist and the rows, not on the card's words.
    assert cheatsheet_stats_key(reworded) == cheatsheet_stats_key(card)
    odds_module.stats_store().set(
        cheatsheet_stats_key(card), [{"items": []}] * len(CHEATSHEET_EXAMPLES), timeout=None
    )
    assert stored_cheatsheet_stats(card) is not None
    assert stored_cheatsheet_stats(changed) is None


def test_the_command_makes_its_table_when_no_database_cache_is_configured():
    """With the shared cache in Redis, ``createcachetable`` makes no table: the statistics'
    table is made by the command itself (as ``deploy/serve.sh`` runs it)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {odds_module.STATS_TABLE}")
    assert odds_module.STATS_TABLE not in connection.introspection.table_names()

    assert odds_module.ensure_stats_table() is True
    assert odds_module.ensure_stats_table() is False
    assert odds_module.STATS_TABLE in connection.introspection.table_names()
