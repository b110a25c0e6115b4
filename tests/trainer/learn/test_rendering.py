import pytest

from engine.signals import DEFAULT_CONVENTION
from trainer.learn.examples import ExampleError
from trainer.learn.rendering import render_markdown


def _html(text: str) -> str:
    return str(render_markdown(text, DEFAULT_CONVENTION))


def test_markdown_becomes_html():
    html = _html("## Title\n\nSome *words* and a [link](/learn/).")

    assert '<h2 id="title">Title</h2>' in html  # headings are anchors drill feedback links to
    assert "<em>words</em>" in html
    assert '<a href="/learn/">link</a>' in html


def test_raw_html_is_escaped():
    html = _html('<script>alert(1)</script>\n\nText with <b onclick="x">bold</b>.')

    assert "<script" not in html and "<b " not in html
    assert "&lt;script&gt;" in html


def test_unsafe_link_addresses_are_dropped():
    html = _html("[a](javascript:alert(1)) [b](data:text/html,x) [c](https://example.org/)")

    assert "javascript:" not in html and "data:" not in html
    assert 'href="https://example.org/"' in html


def test_tables_scroll_on_their_own():
    html = _html("| a | b |\n|---|---|\n| 1 | 2 |\n")

    assert (
        '<div aria-label="Table" class="table-wrap" role="region" tabindex="0"><table>' in html
        or 'class="table-wrap"' in html
    )
    assert html.index("table-wrap") < html.index("<table>")


def test_example_fences_become_examples_and_other_fences_stay_code():
    html = _html("```hand\nS: A K Q J 10\n```\n\n```python\nprint(1)\n```\n")

    assert 'class="example example-hand"' in html
    assert "<pre><code" in html and "print(1)" in html
    assert "```" not in html


def test_a_bad_example_shows_a_notice_or_raises_when_strict():
    text = "```hand\nS: A Z\n```\n"

    assert "This example cannot be shown" in _html(text)
    with pytest.raises(ExampleError):
        render_markdown(text, DEFAULT_CONVENTION, strict=True)


def test_suit_symbols_in_the_text_take_their_colour():
    html = _html("Lead the ♥ then the ♦, *not ♠*.\n\n| a |\n|---|\n| ♣7 |\n")

    assert '<span class="suit-symbol suit-hearts">♥</span> then the ' in html
    assert '<span class="suit-symbol suit-diamonds">♦</span>, <em>not ' in html
    assert '<em>not <span class="suit-symbol suit-spades">♠</span></em>' in html
    assert '<td><span class="suit-symbol suit-clubs">♣</span>7</td>' in html
