"""The odds of every reading, ready for ``templates/trainer/_odds_chart.html``.

:func:`odds_chart` turns a posterior (:func:`engine.signals.posterior.posterior`, as its JSON)
into the chart's context; it uses no Django. :func:`odds_for_drill` computes the odds of a read
or reply drill's signal as the reader sees it, cached by the drill's address (a drill is a pure
function of its address, so the odds never go stale)::

    {% include "trainer/_odds_chart.html" with odds=odds %}
"""

from __future__ import annotations

import functools
import hashlib
import logging
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext

from engine.cards import Card
from engine.signals import ITEM_FAMILY
from engine.signals.posterior import model_for, posterior, reading_label

__all__ = [
    "ODDS_SAMPLES",
    "cheatsheet_odds",
    "odds_chart",
    "odds_for_drill",
    "odds_for_signal",
    "percent_text",
]

logger = logging.getLogger(__name__)

#: Hands partner could hold that lead the drill's signal, per chart.
ODDS_SAMPLES = 2000
#: Bump when the posterior or the chart's context changes meaning, to drop old cache entries.
CACHE_VERSION = 2
CACHE_SECONDS = 60 * 60 * 24 * 30


def percent_text(p: float) -> str:
    """A probability as the chart prints it: ``61%``, ``<1%``, ``>99%``, ``100%``.

    >>> [percent_text(p) for p in (0.6149, 0.004, 0.996, 1.0, 0.0)]
    ['61%', '<1%', '>99%', '100%', '0%']
    """
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{round(100 * p)}%"


def _count(n: int) -> str:
    """A count with the page language's thousands separator."""
    return number_format(n, force_grouping=True)


def odds_chart(data: dict[str, Any]) -> dict[str, Any]:
    """The chart's context from a posterior's JSON (``Posterior.to_json()``).

    Rows carry the label, the percentage as text, the bar's width and the 95% interval's ends
    in percent of the bar's full width (SVG attributes: no inline style is needed).
    """
    rows = []
    for entry in data["items"]:
        p = entry["p"]
        lo, hi = entry["ci95"]
        rows.append(
            {
                "item": entry["item"],
                "shape": entry["shape"],
                "label": reading_label(entry["item"], entry["shape"]),
                "family": ITEM_FAMILY.get(entry["item"], ""),
                "p": p,
                "percent": percent_text(p),
                "width": f"{100 * p:.1f}",
                "ci_low": f"{100 * lo:.1f}",
                "ci_high": f"{100 * hi:.1f}",
                "ci_text": f"{percent_text(lo)}–{percent_text(hi)}",
                "has_interval": hi - lo >= 0.01,
            }
        )
    exact = bool(data.get("exact"))
    samples = int(data.get("samples", 0))
    how = data.get("how", "sampled")
    if not rows:
        caption = gettext("No hand partner could hold leads like this")
    elif how == "only_reading":
        caption = gettext("Only one reading fits what you can see. Partner holds:")
    elif how == "enumerated":
        caption = gettext(
            "Of all %(count)s hands partner could hold that lead like this, partner holds:"
        ) % {"count": _count(samples)}
    else:
        caption = gettext("In %(count)s deals where partner led like this, partner held:") % {
            "count": _count(samples)
        }
    model = data.get("model", "preferred")
    if model == "any":
        assumption = gettext("Partner picks any of the correct leads at random.")
    else:
        assumption = gettext("Partner leads the card's preferred play.")
    summary = ", ".join(f"{r['label']} {r['percent']}" for r in rows)
    return {
        "rows": rows,
        "caption": caption,
        "assumption": assumption,
        "summary": summary,
        "empty": not rows,
        "exact": exact,
        "how": how,
        "samples": samples,
        "effective_samples": data.get("effective_samples", samples),
        "model": model,
        "intervals": any(r["has_interval"] for r in rows),
    }


def odds_for_signal(
    signal: tuple[Card, Card | None],
    side_hand: int,
    hand_size: int,
    visible: tuple[Card, ...] = (),
    convention: str = "parlett-2008",
    *,
    seed: int = 0,
    model: str = "preferred",
    samples: int = ODDS_SAMPLES,
) -> dict[str, Any]:
    """The chart's context for a signal (no cache): for the cheat sheet's worked examples."""
    post = posterior(
        signal, side_hand, hand_size, visible, convention, samples=samples, seed=seed, model=model
    )
    return odds_chart(post.to_json())


def _cache_key(drill: Any) -> str:
    kind, seed, params = drill.address
    digest = hashlib.sha256(params.encode()).hexdigest()[:24]
    return f"odds:v{CACHE_VERSION}:{kind}:{seed}:{digest}"


def odds_for_drill(drill: Any) -> dict[str, Any] | None:
    """The odds chart's context for a read or reply drill, or ``None`` for other kinds.

    Partner's hand size is the hidden leader's (``drill.source``); the reader sees
    ``drill.visible``. The model is ``preferred`` when the drill's lead is the preferred play
    of the leader's hand, else ``any`` (partner chose another correct lead); the leader's hand
    is passed as the witness that the signal can be led. Cached by the drill's address.
    """
    from django.core.cache import cache

    if getattr(drill, "signal", None) is None or not getattr(drill, "source", ()):
        return None
    key = _cache_key(drill)
    data = None
    try:
        data = cache.get(key)
    except Exception:  # the odds are a nicety: a cache outage must not break the drill
        logger.exception("odds: cache read failed")
    if data is None:
        source = tuple(drill.source)
        model = model_for(source, drill.signal, drill.side_hand, drill.convention)
        post = posterior(
            drill.signal,
            drill.side_hand,
            len(source),
            tuple(drill.visible),
            drill.convention,
            samples=ODDS_SAMPLES,
            seed=drill.seed,
            model=model,
            witness=source,
        )
        data = post.to_json()
        try:
            cache.set(key, data, timeout=CACHE_SECONDS)
        except Exception:
            logger.exception("odds: cache write failed")
    return odds_chart(data)


#: Worked examples of docs/signals.md shown with their odds on the cheat sheet:
#: (c1, c2, side hand, leader's hand size).
CHEATSHEET_EXAMPLES: tuple[tuple[str, str, int, int], ...] = (
    ("4S", "8S", 3, 8),
    ("8S", "4S", 3, 8),
    ("4H", "7S", 1, 13),
    ("4S", "6H", 3, 8),
)


def cheatsheet_odds(convention: str) -> tuple[dict[str, Any], ...]:
    """The odds of the cheat sheet's worked examples for one convention card (nothing else
    seen, the preferred play), in the active language. Deterministic: kept in the cache and
    for the process's life."""
    return _cheatsheet_odds(convention, get_language() or "en")


@functools.lru_cache(maxsize=16)
def _cheatsheet_odds(convention: str, language: str) -> tuple[dict[str, Any], ...]:
    from django.core.cache import cache

    key = f"odds:v{CACHE_VERSION}:cheatsheet:{convention}"
    found = None
    try:
        found = cache.get(key)
    except Exception:  # the odds are a nicety: a cache outage must not break the page
        logger.exception("odds: cache read failed")
    if found is None:
        found = []
        for i, (a, b, side_hand, size) in enumerate(CHEATSHEET_EXAMPLES):
            c1, c2 = Card.parse(a), Card.parse(b)
            post = posterior(
                (c1, c2), side_hand, size, (), convention, samples=ODDS_SAMPLES, seed=i
            )
            found.append(post.to_json())
        try:
            cache.set(key, found, timeout=CACHE_SECONDS)
        except Exception:
            logger.exception("odds: cache write failed")
    out = []
    for i, ((a, b, side_hand, size), data) in enumerate(
        zip(CHEATSHEET_EXAMPLES, found, strict=True)
    ):
        c1, c2 = Card.parse(a), Card.parse(b)
        out.append(
            {
                "id": f"odds-example-{i + 1}",
                "title": gettext("%(first)s then %(second)s")
                % {"first": c1.symbol, "second": c2.symbol},
                "meta": gettext("side hand %(number)s, partner led from %(size)s cards")
                % {"number": side_hand, "size": size},
                "odds": odds_chart(data),
            }
        )
    return tuple(out)
