"""The odds chart: its context, the template drawn with a real posterior, the drill cache."""

import re
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string

from engine.cards import DECK, card, parse_cards
from engine.drills import DrillAddress
from engine.signals.posterior import posterior
from trainer.core.game import odds as odds_module
from trainer.core.game.odds import odds_chart, odds_for_drill, odds_for_signal, percent_text


def render(odds, **extra):
    return render_to_string("trainer/_odds_chart.html", {"odds": odds, **extra})


def test_chart_draws_a_real_posterior():
    post = posterior((card("4S"), card("8S")), 3, 8, samples=400, seed=2)
    assert len(post.items) >= 2
    odds = odds_chart(post.to_json())
    html = render(odds, odds_id="odds-test")

    assert "In 400 deals where partner led like this, partner held:" in html
    assert 'aria-labelledby="odds-test-caption"' in html and 'id="odds-test-caption"' in html
    # One row per reading, most likely first, each with its words, percentage and bar.
    labels = re.findall(r'<th scope="row" class="odds-label">([^<]+)</th>', html)
    assert labels == [o.label for o in post.items]
    widths = [float(w) for w in re.findall(r'class="odds-bar" x="0" y="1" width="([\d.]+)"', html)]
    assert widths == pytest.approx([100 * o.p for o in post.items], abs=0.051)
    for o in post.items:
        assert f">{percent_text(o.p)}<" in html or f">{percent_text(o.p)}<span" in html
    # Content-Security-Policy: nothing inline.
    assert "style=" not in html and "<script" not in html and "<style" not in html
    assert "Partner leads the card&#x27;s preferred play." in html


def test_chart_for_an_exact_single_reading_and_for_model_any():
    odds = odds_for_signal((card("6H"), card("6D")), 1, 13, model="any")
    html = render(odds)
    assert "Only one reading fits what you can see. Partner holds:" in html
    assert ">Four of a kind<" in html and ">100%<" in html
    assert "Partner picks any of the correct leads at random." in html
    assert "odds-ci" not in html  # no interval to draw for a certainty


def test_chart_for_an_empty_posterior():
    post = posterior((card("QC"), None), 1, 13, samples=10)
    html = render(odds_chart(post.to_json()))
    assert "No hand partner could hold leads like this" in html
    assert "odds-table" not in html


def test_chart_renders_nothing_without_odds():
    assert render(None).strip() == ""


def test_chart_for_an_enumerated_world():
    seen = tuple(c for c in DECK if c not in parse_cards("4S 8S 5S 6S 7S 9S KS AS 5H 6D 7C 2H"))
    odds = odds_for_signal((card("4S"), card("8S")), 3, 6, seen)
    assert odds["exact"] and odds["how"] == "enumerated"
    assert odds["caption"].startswith("Of all ") and "hands partner could hold" in odds["caption"]
    assert abs(sum(r["p"] for r in odds["rows"]) - 1) < 1e-9


@pytest.mark.django_db
def test_odds_for_drill_is_cached_by_address(monkeypatch):
    cache.clear()
    leader = parse_cards("2D 3D 4D 5D KS QH 9C 8C 7H JS TD 6S 2C")
    drill = SimpleNamespace(
        kind="read",
        seed=5,
        address=DrillAddress.parse("read/5?v=2"),
        signal=(card("2D"), card("5D")),
        source=leader,
        side_hand=1,
        visible=(),
        convention="parlett-2008",
    )
    calls = []
    real = odds_module.posterior

    def counting(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(odds_module, "posterior", counting)
    first = odds_for_drill(drill)
    again = odds_for_drill(drill)
    assert first == again and len(calls) == 1
    assert calls[0]["model"] == "preferred" and calls[0]["samples"] == 2000
    assert calls[0]["witness"] == leader
    assert first["rows"][0]["label"] == "Four to a straight flush (XXXX)"
    # A lead that is not the hand's preferred play is explained by the "any" model.
    other = SimpleNamespace(
        **{
            **vars(drill),
            "address": DrillAddress.parse("read/6?v=2"),
            "signal": (card("3D"), card("5D")),
        }
    )
    odds_for_drill(other)
    assert calls[-1]["model"] == "any"


def test_odds_for_drill_skips_drills_without_a_signal():
    assert odds_for_drill(SimpleNamespace(signal=None, source=())) is None


@pytest.mark.django_db
def test_cheatsheet_shows_the_odds_of_its_worked_examples(client):
    # Stored by ``manage.py cheatsheet_stats`` (tests/trainer/core/test_cheatsheet_stats.py):
    # the page only reads them.
    odds_module._built.clear()
    odds_module.store_cheatsheet_stats("parlett-2008")
    html = client.get("/cheatsheet/").content.decode()
    assert "Worked examples: what could partner hold?" in html
    assert html.count('class="odds-chart"') == len(odds_module.CHEATSHEET_EXAMPLES)
    assert 'id="odds-example-1-caption"' in html
    assert ">Four to a flush<" in html  # ♠4 then ♠8 in the weak round


def test_docstring_examples_hold():
    import doctest

    result = doctest.testmod(odds_module)
    assert result.failed == 0 and result.attempted > 0
