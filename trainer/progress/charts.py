"""Server-drawn SVG charts (no JavaScript, readable by screen readers through a table)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import pgettext

from trainer.progress.selectors import DayPoint


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str
    accuracy: int
    attempts: int


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: int
    bottom: int
    points: list[ChartPoint]
    gridlines: list[tuple[float, str]]

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def accuracy_chart(days: list[DayPoint], width: int = 640, height: int = 220) -> LineChart:
    """Daily accuracy as a line from 0% to 100%, one point per day with answers."""
    left, right, top, bottom = 44, 12, 12, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    n = len(days)
    points = []
    for i, d in enumerate(days):
        x = left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)
        y = top + plot_h * (1 - d.accuracy)
        points.append(
            ChartPoint(
                x,
                y,
                date_format(d.day, pgettext("date format", "d M")),
                round(100 * d.accuracy),
                d.attempts,
            )
        )
    grid = [(top + plot_h * (1 - f), f"{round(100 * f)}%") for f in (0, 0.25, 0.5, 0.75, 1)]
    return LineChart(width, height, left, height - bottom, points, grid)
