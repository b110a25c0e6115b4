"""How many deals each student has finished for a "play N deals" assignment, and the
figures of answers given in play (:class:`PlayFigures`).

The classes app counts a play assignment's progress from here; the play app keeps the deals.
The core knows neither: the play app installs its selector when it is ready
(``PlayConfig.ready``), the same way the clubs app gives ``core.preferences`` its house rules.
Without the play app, no deal has been played.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from trainer.core import extensions


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


def deals_played(assignment_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """``{(assignment_id, user_id): deals finished}`` for the given assignments (one query);
    the play feature answers (``deals_played``)."""
    ids = list(assignment_ids)
    source = extensions.one("deals_played")
    if not ids or source is None:
        return {}
    result: dict[tuple[int, int], int] = source(ids)
    return result


def deal_urls(game_ids: Iterable[int]) -> dict[int, str]:
    """``{game_id: url}``: where a teacher opens each deal an answer in play was given in (the
    play feature answers: ``deal_urls``); a deal it does not know has no entry."""
    ids = set(game_ids)
    source = extensions.one("deal_urls")
    if not ids or source is None:
        return {}
    result: dict[int, str] = source(ids)
    return result


def deal_links(assignment_id: int) -> dict[int, list[DealLink]]:
    """``{user_id: [DealLink, …]}``: every deal played for the assignment, oldest first (the
    play feature answers: ``deal_links``)."""
    source = extensions.one("deal_links")
    if source is None:
        return {}
    result: dict[int, list[DealLink]] = source(assignment_id)
    return result
