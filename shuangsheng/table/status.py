"""How one table stands: the single status every layer uses (knockout, results, venue, report, templates, JSON). Pure.

The engine's `match.Status` is the outcome of a sequence of hands; a table's status adds what the workbook says
before any hand counts — a walkover (弃权), errors to fix, nothing recorded yet. `table_status` is the only place
the two meet.
"""

from __future__ import annotations

import enum

from shuangsheng.game.match import MatchResult, Status


class TableStatus(str, enum.Enum):
    """How one table stands. The values are those of `score --json` (docs/README.md)."""

    DECIDED = "decided"  # higher level when time was up, or after a 加赛 hand
    PASSED_A = "passed_a"  # won outright by passing A
    WALKOVER = "walkover"  # one side forfeited (弃权)
    NEEDS_PLAYOFF = "needs_playoff"  # tied when time was up: 加赛 still to play
    INVALID = "invalid"  # errors to fix, each at its cell
    OPEN = "open"  # nothing recorded yet

    @property
    def has_winner(self) -> bool:
        """A side goes on: won at the table or by the other side's walkover."""
        return self in (TableStatus.DECIDED, TableStatus.PASSED_A, TableStatus.WALKOVER)


_PLAYED = {Status.DECIDED: TableStatus.DECIDED, Status.PASSED_A: TableStatus.PASSED_A,
           Status.NEEDS_PLAYOFF: TableStatus.NEEDS_PLAYOFF}


def table_status(result: MatchResult | None, *, walkover: bool = False, errors: bool = False) -> TableStatus:
    """A table's status from the engine's `result` (None when no hand was replayed) and the workbook's facts: a
    walkover stands whatever else the sheet holds; then any error (the reader's, `errors`, or the engine's);
    then nothing recorded; else the engine's outcome of the hands."""
    if walkover:
        return TableStatus.WALKOVER
    if errors or (result is not None and result.errors):
        return TableStatus.INVALID
    if result is None or result.status is None:
        return TableStatus.OPEN
    return _PLAYED[result.status]
