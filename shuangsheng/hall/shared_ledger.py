"""The hall's one way to event.db: one shared connection lent to one request at a time (`SharedLedger`), and one
retry policy for both APIs (`Patience`, `patiently`): a request is tried again while another program holds
event.db's lock, the ledger given back between tries, and again when a redraw landed under it (`DrawReplaced`)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.hall.api_common import BUSY_WAIT, Reply, ServedFile, busy
from shuangsheng.storage.ledger.connection import LOCK_WAIT, Ledger
from shuangsheng.storage.ledger.lost import LedgerLost
from shuangsheng.storage.ledger.queries import DrawReplaced

BUSY_TRY = 0.1  # seconds a request holding the ledger waits for another process's lock on event.db, then gives it back
REDRAWN_TRIES = 3  # a request whose table was redrawn under it is handled again, at most this many times in all


@dataclass(frozen=True)
class Patience:
    """How long a request keeps trying: `wait` seconds in all while another program holds event.db's lock (a
    `draw`, a `score`, a database viewer), a try every `pause` seconds, the ledger given back in between so that the
    other requests are answered meanwhile (what is committed can be read during another's write); and `redraws`
    tries in all when a redraw lands between a request's look at the draw and its write."""

    wait: float = BUSY_WAIT
    pause: float = BUSY_TRY
    redraws: int = REDRAWN_TRIES


PATIENCE = Patience()  # serve's


def patiently(attempt: Callable[[bool], Reply], patience: Patience, *, held: Reply, redrawn: Reply,
              monotonic: Callable[[], float] = time.monotonic) -> Reply:
    """`attempt(moved)` (`moved`: a redraw landed under an earlier try), tried again as `patience` says; `held` when
    the lock is still held at the end of the wait, `redrawn` after the last redraw: both 503, nothing stored (the
    page sends the same press again). Any other failure is the caller's to say."""
    deadline = monotonic() + patience.wait
    moved = 0
    while True:
        try:
            return attempt(moved > 0)
        except DrawReplaced:  # a redraw landed meanwhile: the table is looked up again at once
            moved += 1
            if moved >= patience.redraws:
                return redrawn
            continue
        except sqlite3.OperationalError as exc:
            if not busy(exc):
                raise
        if monotonic() >= deadline:
            return held
        time.sleep(patience.pause)


class SharedLedger:
    """event.db's one connection for the hall's requests (the table API's and the desk's), lent to one request at a
    time: the decisions are made one after the other, each on what the one before it committed. Two phones of a
    table posting hand n at once are decided in turn (the second finds the first's hand: SAME, without a write
    transaction), one connection keeps its pages cached instead of re-reading what another wrote, and a hall of
    request threads waits on one lock instead of trading Python's GIL at every SQLite call (bench/run.py --only
    load measures it). Kept open between requests; closed, and so checkpointed, when the hall stops (`close`).
    Always on the event.db serve opened (`served`): deleted, emptied or replaced, every request is refused
    (`LedgerLost`), and the connection is kept as it is, never opened on another file."""

    def __init__(self, folder: Path, served: ServedFile | None = None):
        self.folder = folder
        self.served = served or ServedFile(folder)
        self._turn = threading.Lock()  # held by the request the ledger is lent to
        self._book: Ledger | None = None
        self._closed = False

    def _drop(self, *, for_good: bool = False) -> None:
        """Close the connection; `for_good` (the hall stops): its checkpoint waits for the other connections'
        readers and writers as any ledger's does, not only the moment a request waits."""
        if self._book is not None:
            if for_good:
                self._book.wait_for_locks(LOCK_WAIT)
            self._book.close()
        self._book = None

    @contextlib.contextmanager
    def lend(self) -> Iterator[Ledger | None]:
        """The open ledger for one request, once the request before has given it back; None while the folder has
        no readable event.db. Raises LedgerLost, lending nothing, while event.db is not the file serve opened."""
        with self._turn:
            self.served.check(self._book)  # the file still there and whole, and not an older copy written over it
            if self._book is None:
                self._book = self.served.open()
                if self._book is not None:  # a request waiting for another process gives the ledger back meanwhile
                    self._book.wait_for_locks(BUSY_TRY)
            if self._book is None:
                yield None
                return
            try:
                yield self._book
            except LedgerLost:
                raise  # rolled back, nothing stored; the connection kept while event.db is not its file
            except sqlite3.OperationalError as exc:
                if not busy(exc) or self._book.in_transaction:  # kept while another process holds event.db
                    self._drop()
                raise
            except BaseException:
                self._drop()  # whatever it was doing is rolled back; a fresh connection next time
                raise
            finally:
                if self._closed:
                    self._drop(for_good=True)

    def close(self, *, wait: float = 0.0) -> None:
        """Close (and checkpoint) the ledger, waiting up to `wait` seconds for the request it is lent to: that request
        closes it as it gives it back, and `serve`'s request threads end with the process."""
        self._closed = True
        if self._turn.acquire(timeout=wait):
            try:
                self._drop(for_good=True)
            finally:
                self._turn.release()
