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
import json
import logging
from typing import Any

from django.db import DatabaseError
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext

from engine.cards import Card
from engine.signals import ITEM_FAMILY, Convention, get_convention
from engine.signals.posterior import model_for, posterior, reading_label

__all__ = [
    "CHEATSHEET_EXAMPLES",
    "ODDS_SAMPLES",
    "cheatsheet_odds",
    "cheatsheet_stats_key",
    "compute_cheatsheet_stats",
    "odds_chart",
    "odds_for_drill",
    "odds_for_signal",
    "percent_text",
    "store_cheatsheet_stats",
    "stored_cheatsheet_stats",
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


# The odds are a nicety: a cache that is down (logged once per outage, and skipped for a
# while after each failure) or that fails otherwise must not break the drill or the page.
def _cache_get(cache: Any, key: str) -> Any:
    from trainer.core.infra import outage

    if not outage.cache.usable():
        return None
    try:
        found = cache.get(key)
    except outage.CACHE_ERRORS as exc:
        outage.cache_failed(exc, "the odds")
        return None
    except Exception:
        logger.exception("odds: cache read failed")
        return None
    outage.cache.answered()
    return found


def _cache_set(cache: Any, key: str, value: Any) -> None:
    from trainer.core.infra import outage

    if not outage.cache.usable():
        return
    try:
        cache.set(key, value, timeout=CACHE_SECONDS)
    except outage.CACHE_ERRORS as exc:
        outage.cache_failed(exc, "the odds")
    except Exception:
        logger.exception("odds: cache write failed")
    else:
        outage.cache.answered()


def _cache_key(drill: Any) -> str:
    address = drill.address
    digest = hashlib.sha256(address.key.encode()).hexdigest()[:24]
    return f"odds:v{CACHE_VERSION}:{address.kind}:{address.seed}:{digest}"


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
    data = _cache_get(cache, key)
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
        _cache_set(cache, key, data)
    return odds_chart(data)


# ---------------------------------------------------------------------------------------------
# The cheat sheet's worked examples: statistics computed once per card version, never in a
# request.
#
# ``manage.py cheatsheet_stats`` (run after ``migrate`` by ``make run`` and deployments)
# computes the odds of every worked example for each convention card and stores them in the
# database cache's table (``django_cache``, made by the migrations), under a key naming the
# card and a digest of its checklist and rows: a changed card has a new key, so it gets new
# statistics when the command runs again, and the old ones are never shown for it. The page
# reads the stored figures only; when they are missing it shows the card without them.

#: Worked examples of docs/signals.md shown with their odds on the cheat sheet:
#: (c1, c2, side hand, leader's hand size).
CHEATSHEET_EXAMPLES: tuple[tuple[str, str, int, int], ...] = (
    ("4S", "8S", 3, 8),
    ("8S", "4S", 3, 8),
    ("4H", "7S", 1, 13),
    ("4S", "6H", 3, 8),
)
#: Bump when the stored statistics change meaning (the posterior, what is stored).
STATS_VERSION = 1
#: The database cache's table: the statistics are stored there whatever ``CACHES`` says (a
#: Redis cache may evict, a local-memory one is per process).
STATS_TABLE = "django_cache"
#: The statistics' keys sort after the default cache's (``:1:…``): when the default cache,
#: sharing the table, culls entries it removes the lowest keys first.
STATS_PREFIX = "~cheatsheet-stats"

_stats_store: Any = None
#: The pages' contexts built from stored statistics, by (key, language).
_built: dict[tuple[str, str], tuple[dict[str, Any], ...]] = {}
_warned: set[str] = set()


def stats_store() -> Any:
    """The database cache over ``STATS_TABLE`` where the statistics live (entries never
    expire; this instance never culls)."""
    global _stats_store
    if _stats_store is None:
        from django.core.cache.backends.db import DatabaseCache

        _stats_store = DatabaseCache(
            STATS_TABLE,
            {
                "KEY_PREFIX": STATS_PREFIX,
                "TIMEOUT": None,
                "OPTIONS": {"MAX_ENTRIES": 10**9, "CULL_FREQUENCY": 3},
            },
        )
    return _stats_store


def ensure_stats_table() -> bool:
    """Create :data:`STATS_TABLE` when the database lacks it (``createcachetable`` makes it only
    when a database cache is configured, not when the shared cache is Redis). True if made."""
    from django.core.management.commands.createcachetable import Command as CreateCacheTable
    from django.db import connection

    if STATS_TABLE in connection.introspection.table_names():
        return False
    maker = CreateCacheTable()
    maker.verbosity = 0
    maker.create_table(connection.alias, STATS_TABLE, dry_run=False)
    return True


def _digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=64)
def _card_digest(convention: Convention) -> str:
    """A digest of what the statistics depend on in a card: its checklist and its rows."""
    return _digest(
        {
            "checklist": [str(item) for item in convention.checklist],
            "rows": [row.to_json() for row in convention.rows],
        }
    )


def cheatsheet_stats_key(convention: Convention | str) -> str:
    """The statistics' key for a card: its name, a digest of its checklist and rows, and of
    the examples (``v1:parlett-2008:<card>:<examples>``)."""
    conv = get_convention(convention) if isinstance(convention, str) else convention
    examples = _digest([list(e) for e in CHEATSHEET_EXAMPLES] + [ODDS_SAMPLES])
    return f"v{STATS_VERSION}:{conv.name}:{_card_digest(conv)}:{examples[:8]}"


def compute_cheatsheet_stats(convention: Convention | str) -> list[dict[str, Any]]:
    """The odds of every worked example for a card (nothing else seen, the preferred play):
    one posterior's JSON each. Seconds of CPU: for ``manage.py cheatsheet_stats``, not for a
    request."""
    out = []
    for i, (a, b, side_hand, size) in enumerate(CHEATSHEET_EXAMPLES):
        c1, c2 = Card.parse(a), Card.parse(b)
        post = posterior((c1, c2), side_hand, size, (), convention, samples=ODDS_SAMPLES, seed=i)
        out.append(post.to_json())
    return out


def store_cheatsheet_stats(convention: Convention | str, *, force: bool = False) -> bool:
    """Compute and store a card's statistics unless they are stored already (or ``force``).
    Returns whether they were computed."""
    conv = get_convention(convention) if isinstance(convention, str) else convention
    key = cheatsheet_stats_key(conv)
    store = stats_store()
    if not force and store.get(key) is not None:
        return False
    store.set(key, compute_cheatsheet_stats(conv), timeout=None)
    _built.clear()
    return True


def stored_cheatsheet_stats(convention: Convention | str) -> list[dict[str, Any]] | None:
    """The stored statistics of a card (its current version), or ``None``."""
    found = stats_store().get(cheatsheet_stats_key(convention))
    return found if isinstance(found, list) and len(found) == len(CHEATSHEET_EXAMPLES) else None


def cheatsheet_odds(convention: Convention | str) -> tuple[dict[str, Any], ...]:
    """The odds charts of the cheat sheet's worked examples for a card, in the active language,
    from the statistics ``manage.py cheatsheet_stats`` stored: ``()`` when they are missing
    (or the database cannot be read), and the page then shows the card without them. Never
    computes a posterior."""
    try:
        conv = get_convention(convention) if isinstance(convention, str) else convention
        key = cheatsheet_stats_key(conv)
    except ValueError:
        return ()
    language = get_language() or "en"
    built = _built.get((key, language))
    if built is not None:
        return built
    try:
        found = stored_cheatsheet_stats(conv)
    except DatabaseError as exc:  # the database is down: the page shows the card alone
        logger.warning("odds: cheat-sheet statistics unreadable (%s)", exc)
        return ()
    except Exception:  # the odds are a nicety: nothing about them may break the page
        logger.exception("odds: cheat-sheet statistics unreadable")
        return ()
    if found is None:
        if key not in _warned:
            _warned.add(key)
            logger.warning(
                "odds: no cheat-sheet statistics for %s (%s): run manage.py cheatsheet_stats",
                conv.name,
                key,
            )
        return ()
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
    built = tuple(out)
    if len(_built) > 64:
        _built.clear()
    _built[(key, language)] = built
    return built
