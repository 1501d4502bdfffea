"""One file-writing command at a time in an event folder, for every front end: `held` holds the folder's lock
(`shuangsheng.storage.ledger.lock.exclusive`), then opens or builds event.db and removes the program's stale
temporary files (`shuangsheng.usecases.folder.prepare`). The command line waits briefly and names the holder;
the console waits as long as the organiser lets it, saying who holds the folder meanwhile (`waiting`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from shuangsheng.storage.ledger.lock import FolderBusy, exclusive
from shuangsheng.vocabulary.errors import Issue, UserError


@contextlib.contextmanager
def held(folder: Path, *, patience: float | None = None,
         waiting: Callable[[str], None] | None = None) -> Iterator[list[str]]:
    """Hold `folder` for one command; yields the notes the user should hear (event.db built again, …). A folder
    that is not there yet is not held. `patience`: seconds to wait for another command (None: the lock's own
    short wait, then FolderBusy naming it); while waiting longer, `waiting` is told who holds the folder."""
    from shuangsheng.usecases.folder import prepare

    if not folder.is_dir():
        yield []
        return
    with contextlib.ExitStack() as stack:
        _take(stack, folder, patience, waiting)
        try:
            notes = prepare(folder)
        except OSError as exc:  # a folder that cannot be written to at all
            raise unwritable(folder, exc) from None
        yield notes


def _take(stack: contextlib.ExitStack, folder: Path, patience: float | None,
          waiting: Callable[[str], None] | None) -> None:
    try:
        if patience is None:
            stack.enter_context(exclusive(folder))
            return
        deadline = time.monotonic() + patience
        while True:
            try:
                stack.enter_context(exclusive(folder, wait=min(1.0, max(0.0, deadline - time.monotonic()))))
                return
            except FolderBusy as busy:
                if time.monotonic() >= deadline:
                    raise
                if waiting is not None:
                    waiting(busy.messages[0])
    except OSError as exc:
        raise unwritable(folder, exc) from None


def unwritable(folder: Path, exc: OSError) -> UserError:
    return UserError([Issue.of_file(folder, f"无法写入（{exc.strerror or exc}）。请确认这个文件夹可以写入、磁盘还有空间")])
