"""The round clock (docs/table-api.md, rule 十六: each match has `[rules] match_minutes`): started, paused and resumed from the
desk. Pure: the clock is a function of its rows (as the ledger keeps them, only ever added) and `now`, which the
caller passes (the server's own wall clock), never read here.

A row is `start` or `stop` with its time (ISO 8601 with the PC's UTC offset). `stop` pauses, `start` resumes; a
`start` while running or a `stop` while stopped changes nothing (the desk's decision adds no such row, and the
fold ignores one all the same). A row keeps the desk's id for the press that made it (`"id"` of the request; "" in
rows made before presses carried one): the same id again is that press again (a retry after a lost answer) and adds
nothing; the same id with the other action is refused; a new press carries the clock's mark it was made on (the
count of the round's rows), and one made on an older mark is refused (`stale`), as a table's requests are. Elapsed = the sum of the running intervals: each start → the stop after it, the
last start → now. A table's time is the round's minutes plus that table's extra minutes; `left_s` is never
negative, and a clock never started is `None` (`null` in JSON).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Sequence
from dataclasses import dataclass


class ClockAction(str, enum.Enum):
    START = "start"
    STOP = "stop"


@dataclass(frozen=True)
class ClockRow:
    """One row of the clock's log: what the desk did, when (ISO 8601 with offset) and from which address."""

    action: ClockAction
    at: str
    address: str = ""
    id: str = ""  # the desk's id for the press ("" when it sent none)


@dataclass(frozen=True)
class ClockDecision:
    """The desk's clock action decided: `row` to add (None: nothing changes), or `reused`, the row that already holds
    the request's id for the other action, or `stale`, a new press made on an older mark (both refused, 409)."""

    row: ClockRow | None = None
    reused: ClockRow | None = None
    stale: bool = False


@dataclass(frozen=True)
class Clock:
    """The round clock at `now`: started at `started_at` (the first start), `elapsed_s` seconds run so far;
    `resumed_at` the start of the last running interval (the first start, or the latest resumption)."""

    minutes: int
    started_at: str
    elapsed_s: int
    running: bool
    resumed_at: str = ""

    def left_s(self, extra_minutes: int = 0) -> int:
        """Seconds left of `minutes + extra_minutes`, never below 0."""
        return max(0, (self.minutes + extra_minutes) * 60 - self.elapsed_s)

    def time_up(self, extra_minutes: int = 0) -> bool:
        return self.left_s(extra_minutes) == 0

    def as_json(self) -> dict[str, object]:
        """The round's clock as `/board.json` and `GET /api/desk` give it (no extra minutes)."""
        return {"minutes": self.minutes, "started_at": self.started_at, "left_s": self.left_s(),
                "running": self.running}

    def table_json(self, extra_minutes: int) -> dict[str, object]:
        """One table's clock as `GET /api/t/<code>` gives it: its own time left, with its extra minutes."""
        left = self.left_s(extra_minutes)
        return {"minutes": self.minutes, "extra_minutes": extra_minutes, "started_at": self.started_at,
                "left_s": left, "running": self.running, "time_up": left == 0}


def parse_time(text: str) -> dt.datetime:
    """An ISO 8601 time with its offset (a time without one is taken as UTC, so two rows always compare)."""
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def running_after(rows: Sequence[ClockRow]) -> bool:
    """Whether the clock runs after these rows."""
    running = False
    for row in rows:
        running = row.action is ClockAction.START
    return running


def clock_at(rows: Sequence[ClockRow], now: dt.datetime, minutes: int) -> Clock | None:
    """The clock after `rows` (in the order added) at `now`; None until the first start. A time going backwards
    (the PC's clock set back) never adds negative time."""
    started_at: str | None = None
    resumed_at = ""
    since: dt.datetime | None = None  # the start of the running interval, None while paused
    elapsed = 0.0
    for row in rows:
        if row.action is ClockAction.START and since is None:
            started_at = started_at or row.at
            resumed_at, since = row.at, parse_time(row.at)
        elif row.action is ClockAction.STOP and since is not None:
            elapsed += max(0.0, (parse_time(row.at) - since).total_seconds())
            since = None
    if started_at is None:
        return None
    if since is not None:
        elapsed += max(0.0, (now - since).total_seconds())
    return Clock(minutes, started_at, int(elapsed), since is not None, resumed_at)


def decide_clock(rows: Sequence[ClockRow], action: ClockAction, *, at: str, address: str, request: str,
                 mark: int) -> ClockDecision:
    """The row to add for the desk's `action` with the request's id (`request`) made on the clock's `mark` (the count
    of `rows` the page showed): nothing when a row holds that id for the same action (the press made again) or the
    clock already is so (start while running, stop while stopped or never started); `reused` when a row holds that
    id for the other action; `stale` when the rows have changed since the page's mark."""
    for row in rows:
        if row.id == request:
            return ClockDecision() if row.action is action else ClockDecision(reused=row)
    if mark != len(rows):
        return ClockDecision(stale=True)
    if (action is ClockAction.START) == running_after(rows):
        return ClockDecision()
    return ClockDecision(ClockRow(action, at, address, request))
