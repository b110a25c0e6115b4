"""Matchpoints: each table's result on a board compared with every other table that played it.

A board's result at a table is North-South's points minus East-West's under the session's rule.
North-South earn 2 matchpoints for each other result on the board theirs beats and 1 for each
tie; East-West earn the board's top (``2 * (played - 1)``) minus North-South's. A board played
fewer times than the session's most-played board (``expected`` times) is scaled up by Neuberg's
formula, ``(mp + 1) * expected / played - 1``, so every board weighs the same. A pair's
percentage is its matchpoints over the tops of the boards it played.

The worked example of the Nationwide Pairs' scoring notes (eleven results on one board):

>>> matchpoints([1430, 690, 680, 680, 680, 660, 660, 650, -100, -100, -200])
[20, 18, 14, 14, 14, 9, 9, 6, 3, 3, 0]
>>> neuberg(0, played=1, expected=5)   # a board played once scores an average: 4 of a top of 8
4.0

:class:`Scorer` keeps a session's matchpoints as results arrive: each result re-scores only its
own board, so a field of hundreds of pairs is ranked again after every result in a moment.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["Result", "Scorer", "Standing", "matchpoints", "neuberg"]


def matchpoints(scores: Sequence[int]) -> list[int]:
    """North-South's matchpoints for each of a board's ``scores``: 2 per score beaten, 1 per
    tie (the score itself not counted)."""
    ordered = sorted(scores)
    return [
        2 * bisect.bisect_left(ordered, s)
        + bisect.bisect_right(ordered, s)
        - bisect.bisect_left(ordered, s)
        - 1
        for s in scores
    ]


def neuberg(mp: float, *, played: int, expected: int) -> float:
    """``mp`` on a board played ``played`` times, scaled to a board played ``expected``
    times (top ``2 * (expected - 1)``)."""
    if played >= expected:
        return float(mp)
    return (mp + 1) * expected / played - 1


@dataclass(frozen=True)
class Result:
    """One table's result on one board."""

    board: int
    ns: int
    ew: int
    ns_points: int
    ew_points: int

    @property
    def score(self) -> int:
        """North-South's result: their points minus East-West's."""
        return self.ns_points - self.ew_points


class Standing(NamedTuple):
    """A pair's place in the ranking. ``rank`` is shared by equal percentages."""

    rank: int
    pair: int
    mp: float
    top: float
    percent: float
    boards: int
    direction: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank,
            "pair": self.pair,
            "mp": self.mp,
            "top": self.top,
            "percent": self.percent,
            "boards": self.boards,
        }
        if self.direction is not None:
            out["direction"] = self.direction
        return out


class Scorer:
    """A session's matchpoints as its results arrive (:meth:`add`), ranked on demand
    (:meth:`ranking`). ``directions`` (a Mitchell's, ``{pair: "NS" | "EW"}``) ranks each
    direction on its own.

    For each pair it keeps ``sum((mp + 1) / played)`` over its boards (North-South's ``mp``
    or East-West's): with the session's ``expected`` (the most times any board was played)
    its Neuberg total is ``expected * that - boards``, so a new result re-scores one board.
    """

    def __init__(self, directions: Mapping[int, str] | None = None) -> None:
        self.directions = dict(directions or {})
        self._results: dict[int, list[Result]] = {}
        #: North-South's matchpoints (unscaled) of each result, in the order of ``_results``.
        self._mps: dict[int, list[int]] = {}
        self._share: dict[int, float] = {}
        self._boards: dict[int, int] = {}
        self._seen: set[tuple[int, int]] = set()
        self._expected = 0

    @classmethod
    def of(cls, results: Iterable[Result], directions: Mapping[int, str] | None = None) -> Scorer:
        scorer = cls(directions)
        for result in results:
            scorer.add(result)
        return scorer

    def add(self, result: Result) -> None:
        """Count ``result``. A pair's second result on a board is a ``ValueError``.

        One pass over the board's earlier results: each gains 2 matchpoints if it beats the
        new one and 1 if it ties, the board's ``played`` grows by one, and each pair's sum
        changes by the difference."""
        for pair in (result.ns, result.ew):
            if (pair, result.board) in self._seen:
                raise ValueError(f"pair {pair} already has a result on board {result.board}")
        if result.ns == result.ew:
            raise ValueError(f"pair {result.ns} cannot play itself on board {result.board}")
        board, score = result.board, result.score
        rows = self._results.setdefault(board, [])
        mps = self._mps.setdefault(board, [])
        played = len(rows)
        share = self._share
        below = ties = 0
        if played:
            top = 2 * (played - 1)
            for index, (r, mp) in enumerate(zip(rows, mps, strict=True)):
                other = r.score
                gain = 2 if other > score else 1 if other == score else 0
                if other < score:
                    below += 1
                elif gain == 1:
                    ties += 1
                new = mp + gain
                mps[index] = new
                share[r.ns] += (new + 1) / (played + 1) - (mp + 1) / played
                share[r.ew] += (2 * played - new + 1) / (played + 1) - (top - mp + 1) / played
        mp = 2 * below + ties
        rows.append(result)
        mps.append(mp)
        share[result.ns] = share.get(result.ns, 0.0) + (mp + 1) / (played + 1)
        share[result.ew] = share.get(result.ew, 0.0) + (2 * played - mp + 1) / (played + 1)
        for pair in (result.ns, result.ew):
            self._seen.add((pair, board))
            self._boards[pair] = self._boards.get(pair, 0) + 1
        self._expected = max(self._expected, played + 1)

    @property
    def expected(self) -> int:
        """The most times any board was played (each board is scaled to it)."""
        return self._expected

    def traveller(self, board: int) -> list[tuple[Result, float, float]]:
        """Board ``board``'s results in the order they came, each with North-South's and
        East-West's matchpoints (Neuberg-scaled), rounded to hundredths."""
        results = self._results.get(board, [])
        played, top = len(results), 2 * (self._expected - 1)
        out = []
        for r, mp in zip(results, self._mps.get(board, []), strict=True):
            ns = round(neuberg(mp, played=played, expected=self._expected), 2)
            out.append((r, ns, round(top - ns, 2)))
        return out

    def ranking(self) -> list[Standing]:
        """Every pair, best percentage first (within each direction for a Mitchell; North-South
        first), ties sharing a rank and listed by pair number. Pairs numbered 0 or less are
        scored but not ranked: a daylong's bot pair, one stand-in per human pair (-1 for the
        bots that meet pair 1…), since every human pair meets the same bots."""
        expected, top_board = self._expected, 2 * (self._expected - 1)
        share, directions = self._share, self.directions
        groups: dict[str, list[tuple[float, int, float, int, int]]] = {}
        for pair, boards in self._boards.items():
            if pair <= 0:
                continue
            mp = round(expected * share[pair] - boards, 2)
            top = top_board * boards
            percent = round(100.0 * mp / top, 2) if top else 50.0
            groups.setdefault(directions.get(pair, ""), []).append(
                (-percent, pair, mp, top, boards)
            )
        out: list[Standing] = []
        for group in sorted(groups, key=lambda d: (d != "NS", d)):
            members = sorted(groups[group])
            rank, last = 0, None
            for index, (negative, pair, mp, top, boards) in enumerate(members, start=1):
                if negative != last:
                    rank, last = index, negative
                out.append(
                    Standing(rank, pair, mp, float(top), -negative or 0.0, boards, group or None)
                )
        return out
