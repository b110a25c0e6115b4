"""Latin letters on a Japanese page: the English a Japanese reader should not meet.

:func:`latin_runs` finds every run of Latin letters in a page's visible text (text nodes and
the attributes a reader meets: ``title``, ``aria-label``, ``alt``, ``placeholder``), after
taking out what is Latin on purpose in every language:

- card notation: ``A♠``, ``10♥``, card codes ``AS`` / ``TD``, rank runs ``A-2-3-4-5``, the
  ranks on card faces (``<span class="rank">``), shapes ``XX.XX``;
- proper names: the site's and the conventions' (:data:`NAMES`), and the people, clubs,
  classes and sets a test made (``allowed``);
- keyboard keys (``<kbd>``, and ``Enter``, ``P``, ``F`` in the key hints), technical names
  (``CSV``, ``JSON``, ``UTF-8``, ``A4``) and the cheat sheet's ``c1`` / ``c2``;
- anything inside ``<code>``, ``<kbd>``, ``<script>``, ``<style>`` or marked as another
  language (``lang="en"``: the glossary's English column, the switcher's "English");
- the tooltip of an element marked ``data-file-id``: a card file's own id beside its name.

Whatever is left is English on a Japanese page.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: Proper names, brands and technical words that are written in Latin letters in Japanese too.
NAMES = (
    "Concerto Trainer",
    "Concerto",
    "Parlett 2008",
    "Teach Yourself 1994",
    "Teach Yourself Card Games",  # Parlett's 1994 book
    "Parlett",
    "CSV",
    "JSON",
    "UTF-8",
    "NUL",
    "Cookie",
    "A4",
    "Enter",
    "Esc",
    "Glicko-2",
)

_SUIT = "♠♥♦♣"
_RANK = r"(?:10|[2-9TJQKA])"
#: Latin on purpose: cards, card codes, rank runs, shapes, c1/c2, keys in the key hints.
_NOTATION = re.compile(
    "|".join(
        (
            rf"{_RANK}[{_SUIT}]",  # A♠ 10♥
            rf"[{_SUIT}]{_RANK}",  # ♠A (flagged by the notation check, not here)
            rf"(?<![A-Za-z]){_RANK}[SHDC](?![A-Za-z])",  # AS TD 7H: card codes
            rf"(?<![A-Za-z0-9]){_RANK}(?:\s*[-–]\s*{_RANK})+(?![A-Za-z0-9])",  # A-2-3-4-5
            r"(?<![A-Za-z])[X.]*X[X.]*(?![A-Za-z])",  # shapes XX.XX, XXX
            r"(?<![A-Za-z])c[12](?![A-Za-z0-9])",  # the cheat sheet's c1, c2
            rf"(?<=「){_RANK}(?=」)",  # a rank letter being explained: 「T」
            r"(?<![A-Za-z])[PF](?=\s*で)",  # key hints: 「P でパス」
            r"https?://\S+",
        )
    )
)
_LATIN = re.compile(r"[A-Za-z]+(?:['’\-][A-Za-z]+)*")


class PageText(HTMLParser):
    """A page's text as a reader meets it: the text of each block (a paragraph, a list item,
    a table cell: inline elements such as a card's rank and suit joined), and the attributes
    read out or shown; without what is Latin on purpose (code, keys, scripts, another
    language's text)."""

    ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
    SKIP_TAGS = frozenset({"script", "style", "template", "code", "kbd", "pre", "svg"})
    INLINE = frozenset(
        {"a", "abbr", "b", "bdi", "bdo", "cite", "data", "dfn", "em", "i", "label", "mark", "q",
         "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"}
    )  # fmt: skip
    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}
    )  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._text: list[str] = []
        self._stack: list[tuple[str, bool]] = []

    def _skipping(self) -> bool:
        return any(skipped for _tag, skipped in self._stack)

    def _skipped(self, tag: str, attrs: dict[str, str | None]) -> bool:
        lang = attrs.get("lang")
        return (
            tag in self.SKIP_TAGS
            or (tag != "html" and lang is not None and not lang.startswith("ja"))
            or attrs.get("translate") == "no"
        )

    def _flush(self) -> None:
        text = " ".join("".join(self._text).split())
        if text:
            self.parts.append(text)
        self._text = []

    def _attributes(self, attrs) -> None:
        # ``data-file-id``: the element's title is a card file's own id (a row's
        # ``five_sf:XXXXX``), shown as a tooltip beside its name in words.
        file_id = any(n == "data-file-id" for n, _ in attrs)
        self.parts += [
            " ".join(v.split())
            for n, v in attrs
            if n in self.ATTRIBUTES and v and not (file_id and n == "title")
        ]

    def handle_starttag(self, tag, attrs):
        if tag not in self.INLINE:
            self._flush()
        skipped = self._skipped(tag, dict(attrs))
        if not skipped and not self._skipping():
            self._attributes(attrs)
        if tag not in self.VOID:
            self._stack.append((tag, skipped))

    def handle_startendtag(self, tag, attrs):
        if tag not in self.INLINE:
            self._flush()
        if not self._skipping():
            self._attributes(attrs)

    def handle_endtag(self, tag):
        if tag not in self.INLINE:
            self._flush()
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if not self._skipping():
            self._text.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def page_text(html: str) -> list[str]:
    parser = PageText()
    parser.feed(html)
    parser.close()
    return parser.parts


def latin_in(text: str, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The runs of Latin letters in ``text`` once names and notation are taken out."""
    for name in sorted(set(NAMES) | set(allowed), key=len, reverse=True):
        if name:
            text = re.sub(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z])", " ", text)
    text = _NOTATION.sub(" ", text)
    return _LATIN.findall(text)


def latin_runs(html: str, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Each piece of the page's text holding Latin letters, with the letters found:
    ``"'Straight' in 'クラシック得点 Straight 5'"``."""
    hits = []
    for text in page_text(html):
        found = latin_in(text, allowed)
        if found:
            hits.append(f"{' '.join(found)!r} in {text[:100]!r}")
    return hits
