"""``{% rating_chart points %}``: a learner's rating history as a small server-drawn SVG line,
with the numbers beside it in a table for screen readers and anyone who prefers them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template

from trainer.ratings.selectors import Point

register = template.Library()

WIDTH, HEIGHT, PAD = 240, 64, 4


def chart_geometry(points: Sequence[Point]) -> dict[str, Any]:
    """The polyline (and the band of ± one deviation) scaled to the chart's box."""
    if not points:
        return {"line": "", "band": "", "low": 0, "high": 0}
    highs = [p.rating + p.rd for p in points]
    lows = [p.rating - p.rd for p in points]
    top, bottom = max(highs), min(lows)
    span = max(top - bottom, 1.0)
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def y(v: float) -> float:
        return round(PAD + (top - v) / span * (HEIGHT - 2 * PAD), 1)

    xs = [round(PAD + i * step, 1) for i in range(len(points))]
    line = " ".join(f"{x},{y(p.rating)}" for x, p in zip(xs, points, strict=True))
    band = " ".join(f"{x},{y(h)}" for x, h in zip(xs, highs, strict=True))
    band += " " + " ".join(
        f"{x},{y(lo)}" for x, lo in zip(reversed(xs), reversed(lows), strict=True)
    )
    return {"line": line, "band": band, "low": round(bottom), "high": round(top)}


@register.inclusion_tag("ratings/_chart.html")
def rating_chart(points: Sequence[Point], label: str) -> dict[str, Any]:
    return {
        "points": points,
        "label": label,
        "width": WIDTH,
        "height": HEIGHT,
        "last": points[-1] if points else None,
        **chart_geometry(points),
    }
