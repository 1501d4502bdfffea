"""Whether the TVs' sound is on, as they say it on their polls of `/board.json` (docs/table-api.md, 大屏的提示音).

A browser plays the TV's chime only after someone has tapped its page (开启提示音), so the desk is told which TVs
cannot sound: each poll carries `?sound=on` or `?sound=off` and the page's own `screen` id (one per page opened; the
address of the request when there is none). `Screens.report` counts the screens heard from in the last
`HEARD_SECONDS`, by the sound they said last. Standard library only; kept in memory (a restarted `serve` hears them
again within a poll), nothing read or written.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence

HEARD_SECONDS = 30.0  # a TV not heard from for this long (closed, switched off) is not counted
MAX_SCREENS = 64  # the screens remembered at most: a page reloaded again and again must not grow the table
MAX_ID = 40


class Screens:
    """The TVs' sound as they said it last. Safe from many threads at once. `clock`: monotonic seconds (tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._heard: dict[str, tuple[bool, float]] = {}
        self._lock = threading.Lock()

    def heard(self, query: Mapping[str, Sequence[str]], address: str) -> None:
        """One poll's query (`urllib.parse.parse_qs`): its `sound` (`on` or `off`; anything else, or none, is not a
        report: an older TV page, or `show`'s export) from the screen `screen` (else the address)."""
        sound = (query.get("sound") or [""])[0]
        if sound not in ("on", "off"):
            return
        screen = (query.get("screen") or [""])[0][:MAX_ID] or address
        now = self._clock()
        with self._lock:
            self._heard[screen] = (sound == "on", now)
            if len(self._heard) > MAX_SCREENS:  # the one heard from longest ago goes
                del self._heard[min(self._heard, key=lambda s: self._heard[s][1])]

    def report(self) -> dict[str, int]:
        """`{"on": n, "off": m}`: the screens heard from in the last HEARD_SECONDS, by their sound."""
        now = self._clock()
        with self._lock:
            recent = [on for on, at in self._heard.values() if now - at <= HEARD_SECONDS]
        return {"on": sum(recent), "off": len(recent) - sum(recent)}
