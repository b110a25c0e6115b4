"""How many deals each student has finished for a "play N deals" assignment, and the
figures of answers given in play (:class:`PlayFigures`).

The classes app counts a play assignment's progress from here; the play app keeps the deals.
The core knows neither: the play app installs its selector when it is ready
(``PlayConfig.ready``), the same way the clubs app gives ``core.preferences`` its house rules.
Without the play app, no deal has been played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DealLink:
    """One deal a student played for an assignment, as their teacher's list shows it."""

    url: str
    label: str
    finished: bool


@dataclass(frozen=True, slots=True)
class PlayFigures:
    """Leads and quiz answers made in play (``source="play"``), and how many were right
    (``trainer.progress.selectors.play_figures`` counts them; ``PlayFigures()`` is none)."""

    leads: int = 0
    leads_right: int = 0
    reads: int = 0
    reads_right: int = 0

    @property
    def answers(self) -> int:
        return self.leads + self.reads

    @property
    def right(self) -> int:
        return self.leads_right + self.reads_right

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answers if self.answers else None

    @property
    def lead_accuracy(self) -> float | None:
        return self.leads_right / self.leads if self.leads else None

    @property
    def read_accuracy(self) -> float | None:
        return self.reads_right / self.reads if self.reads else None


#: ``(assignment_ids) -> {(assignment_id, user_id): finished deals}``.
DealsSource = Callable[[Iterable[int]], dict[tuple[int, int], int]]
#: ``(assignment_id) -> {user_id: [DealLink, …]}``.
LinksSource = Callable[[int], dict[int, list[DealLink]]]

_deals_source: DealsSource | None = None
_links_source: LinksSource | None = None


def set_deals_source(source: DealsSource | None, links: LinksSource | None = None) -> None:
    """Install the functions that count finished deals per assignment and student, and list
    each student's deals for an assignment."""
    global _deals_source, _links_source
    _deals_source = source
    _links_source = links


def deals_played(assignment_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """``{(assignment_id, user_id): deals finished}`` for the given assignments (one query)."""
    ids = list(assignment_ids)
    if not ids or _deals_source is None:
        return {}
    return _deals_source(ids)


def deal_links(assignment_id: int) -> dict[int, list[DealLink]]:
    """``{user_id: [DealLink, …]}``: every deal played for the assignment, oldest first."""
    if _links_source is None:
        return {}
    return _links_source(assignment_id)
