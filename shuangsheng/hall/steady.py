"""The hall's time of day: the PC's clock as read once, when serve starts, moved on by the monotonic clock.

The round clock (rule 十六) is kept as stamped rows; stamped from the PC's wall clock, a correction of that clock
while serve runs (Windows' time sync, a person setting it) would stop every table's clock for the time it went
back, or put every table at 时间到 at once when it jumped ahead. Stamped from this one, the rows keep their order
and their distances whatever the wall clock does; the time of day shown is the PC's at the start plus the time
since.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable


class SteadyClock:
    def __init__(self, wall: Callable[[], dt.datetime] = lambda: dt.datetime.now().astimezone(),
                 monotonic: Callable[[], float] = time.monotonic):
        self._monotonic = monotonic
        self._base = wall()
        self._start = monotonic()

    def now(self) -> dt.datetime:
        return self._base + dt.timedelta(seconds=self._monotonic() - self._start)

    def iso(self) -> str:
        """ISO 8601 with the PC's UTC offset, to the second: how the ledger's rows are stamped."""
        return self.now().isoformat(timespec="seconds")


STEADY = SteadyClock()  # one per process: made when the hall is first imported, as serve starts
