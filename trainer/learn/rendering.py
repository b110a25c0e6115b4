"""Lesson Markdown to safe HTML, with the engine's example blocks expanded.

Raw HTML in a lesson is escaped, not passed through (the ``html_block`` and inline ``html``
handlers are removed), and links may only use ``http(s)``, ``mailto`` or site-relative
addresses. Fenced blocks whose info word is an example kind (```` ```hand ````, ``signal``,
``score``, ``reply``) are replaced by the HTML of :func:`trainer.learn.examples.render_example`.

A heading may end with ``{#anchor}`` to set its id (``## 形 {#straight-flush-shapes}``):
translated lessons keep the English lesson's section anchors that feedback and "practise
this" links point at. Headings without one get the ``toc`` extension's slug of their text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from urllib.parse import urlsplit

import markdown
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from engine.signals import Convention
from trainer.core.game.suits import SYMBOL_CLASS
from trainer.learn.examples import KINDS, Block, ExampleError, parse_block, render_example

_FENCE = re.compile(
    r"^```[ ]*(?P<kind>" + "|".join(KINDS) + r")[ ]*\n(?P<body>.*?)^```[ ]*$",
    re.MULTILINE | re.DOTALL,
)
_SAFE_SCHEMES = frozenset({"http", "https", "mailto", ""})


def example_blocks(text: str) -> list[Block]:
    """The example blocks of a lesson's Markdown, in order."""
    return [parse_block(m["kind"], m["body"]) for m in _FENCE.finditer(text)]


class _Examples(Preprocessor):
    def __init__(self, md: markdown.Markdown, convention: Convention, strict: bool) -> None:
        super().__init__(md)
        self.convention = convention
        self.strict = strict

    def _expand(self, match: re.Match[str]) -> str:
        try:
            html = render_example(match["kind"], match["body"], self.convention)
        except ExampleError as exc:
            if self.strict:
                raise
            # The reason is the lesson's own notation (for whoever wrote it): shown as code.
            html = format_html(
                '<div class="example example-error" role="note">{} <code>{}</code></div>',
                gettext("This example cannot be shown:"),
                str(exc),
            )
        return "\n\n" + self.md.htmlStash.store(html) + "\n\n"

    def run(self, lines: list[str]) -> list[str]:
        return _FENCE.sub(self._expand, "\n".join(lines) + "\n").split("\n")


class _LinkGuard(Treeprocessor):
    """Drop link and image addresses with a scheme other than http(s) and mailto."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if (
                    value is not None
                    and urlsplit(value.strip()).scheme.lower() not in _SAFE_SCHEMES
                ):
                    del element.attrib[attribute]


class _TableWrap(Treeprocessor):
    """Put each table in a scrolling region, so a wide one never widens a phone's page."""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for index, child in enumerate(list(parent)):
                if child.tag == "table":
                    wrap = etree.Element(
                        "div",
                        {
                            "class": "table-wrap",
                            "tabindex": "0",
                            "role": "region",
                            "aria-label": pgettext("lesson example", "Table"),
                        },
                    )
                    parent.remove(child)
                    wrap.append(child)
                    parent.insert(index, wrap)


_SUITS = re.compile("([♠♥♦♣])")


def _suit_spans(text: str) -> tuple[str, list[etree.Element]]:
    """``text`` up to its first suit symbol, and a span per symbol (its tail the text after)."""
    pieces = _SUITS.split(text)
    spans = []
    for i in range(1, len(pieces), 2):
        span = etree.Element("span", {"class": f"suit-symbol {SYMBOL_CLASS[pieces[i]]}"})
        span.text, span.tail = pieces[i], pieces[i + 1]
        spans.append(span)
    return pieces[0], spans


class _SuitColours(Treeprocessor):
    """Wrap suit symbols in running text, as the ``suits`` template filter does."""

    def run(self, root: etree.Element) -> None:
        for element in list(root.iter()):
            if element.tag == "span":
                continue
            for child in reversed(list(element)):
                if child.tail and _SUITS.search(child.tail):
                    child.tail, spans = _suit_spans(child.tail)
                    at = list(element).index(child) + 1
                    for offset, span in enumerate(spans):
                        element.insert(at + offset, span)
            if element.text and _SUITS.search(element.text):
                element.text, spans = _suit_spans(element.text)
                for offset, span in enumerate(spans):
                    element.insert(offset, span)


_ANCHOR = re.compile(r"\s*\{#(\w[\w-]*)\}\s*$")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


class _HeadingIds(Treeprocessor):
    """``## Title {#anchor}`` → ``<h2 id="anchor">Title</h2>`` (before ``toc`` names it)."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if element.tag not in _HEADINGS:
                continue
            children = list(element)
            holder = children[-1] if children else None
            text = (holder.tail if holder is not None else element.text) or ""
            match = _ANCHOR.search(text)
            if match is None:
                continue
            if holder is not None:
                holder.tail = text[: match.start()]
            else:
                element.text = text[: match.start()]
            element.set("id", match[1])


#: Kana, kanji and the full-width punctuation and forms written with them.
_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
#: A line break between two of them, or between one and a digit (``2人``, ``第1回``).
_CJK_BREAK = re.compile(
    f"(?<=[{_CJK}])[ \t]*\n[ \t]*(?=[{_CJK}0-9])|(?<=[0-9])[ \t]*\n[ \t]*(?=[{_CJK}])"
)


class _CjkLineBreaks(Treeprocessor):
    """Join source lines broken between two Japanese (or Chinese) characters: a browser shows
    such a line break as a space, which those languages do not put between words."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if element.text and "\n" in element.text and element.tag not in ("pre", "code"):
                element.text = _CJK_BREAK.sub("", element.text)
            if element.tail and "\n" in element.tail:
                element.tail = _CJK_BREAK.sub("", element.tail)


class _Lesson(Extension):
    def __init__(self, convention: Convention, strict: bool) -> None:
        super().__init__()
        self.convention = convention
        self.strict = strict

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        # Before fenced_code (25), so example fences are never shown as code.
        md.preprocessors.register(_Examples(md, self.convention, self.strict), "examples", 28)
        md.treeprocessors.register(_LinkGuard(md), "link_guard", 1)
        md.treeprocessors.register(_TableWrap(md), "table_wrap", 0)
        md.treeprocessors.register(_SuitColours(md), "suit_colours", 2)
        # Before toc (5), which keeps an id a heading already has.
        md.treeprocessors.register(_HeadingIds(md), "heading_ids", 6)
        md.treeprocessors.register(_CjkLineBreaks(md), "cjk_line_breaks", 3)


def render_markdown(text: str, convention: Convention, *, strict: bool = False) -> SafeString:
    """Lesson Markdown as HTML. ``strict`` raises :class:`ExampleError` for a bad example
    (the seed loader uses it); otherwise the page shows a short notice in its place."""
    md = markdown.Markdown(
        extensions=[
            "fenced_code",
            "tables",
            "sane_lists",
            "smarty",
            "toc",
            _Lesson(convention, strict),
        ],
        output_format="html",
    )
    return mark_safe(md.convert(text))  # noqa: S308 - raw HTML is escaped by the extension
