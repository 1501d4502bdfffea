"""One file-writing command at a time per folder: `exclusive()` holds an operating-system file lock on
`.shuangsheng.lock` (released by the system when its process dies, so a killed command blocks nobody) and names the
holder in `.shuangsheng.lock.holder` to whoever waits; and the temporary files a stopped command left, removed
(`clean_temporary`). Touches those two files and the temporary files only."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from shuangsheng.storage.ledger.records import command_line, now
from shuangsheng.storage.names import BACKUP_FOLDER, HOLDER_NAME, LOCK_NAME, TEMPORARY
from shuangsheng.vocabulary.errors import Issue, UserError

WAIT_SECONDS = 5.0


class FolderBusy(UserError, RuntimeError):
    """Another command of this program is working in the same event folder."""


@contextlib.contextmanager
def exclusive(folder: Path, *, wait: float | None = None) -> Iterator[None]:
    """Hold the folder for one file-writing command; waits up to `wait` seconds (default WAIT_SECONDS) for
    another one to finish, then raises FolderBusy naming it. The lock is the operating system's: a killed holder
    leaves nothing behind."""
    import filelock

    lock = filelock.FileLock(str(folder / LOCK_NAME), timeout=WAIT_SECONDS if wait is None else wait)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise FolderBusy([_busy_message(folder)]) from None
    holder = folder / HOLDER_NAME
    try:
        with contextlib.suppress(OSError):
            holder.write_text(f"{command_line()}\n{os.getpid()}\n{now()}\n", encoding="utf-8")
        yield
    finally:
        with contextlib.suppress(OSError):
            holder.unlink()  # a command that read nothing leaves the folder as it was (but the lock file)
        lock.release()


def _busy_message(folder: Path) -> Issue:
    try:
        command, _pid, since = (folder / HOLDER_NAME).read_text(encoding="utf-8").splitlines()[:3]
    except (OSError, ValueError):
        return Issue.of_file(folder, "另一个 shuangsheng 命令正在使用这个文件夹，请等它结束后再运行")
    return Issue.of_file(folder, f"另一个命令（{command}，{since[11:16]} 开始）正在使用这个文件夹，请等它结束后再运行")


def clean_temporary(folder: Path) -> list[str]:
    """Remove the temporary files a stopped command of this program left (call only while holding the folder)."""
    removed = []
    for place in (folder, folder / BACKUP_FOLDER):  # a copy being kept is written the same way
        with contextlib.suppress(OSError):
            for path in place.iterdir():
                if TEMPORARY.match(path.name) and path.is_file():
                    with contextlib.suppress(OSError):
                        path.unlink()
                        removed.append(path.name)
    return sorted(removed)
