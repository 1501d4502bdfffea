"""The PC's faults, not the program's: a full disk, a folder that cannot be written, event.db held by another
program, a disk that fails to read or write — as `Issue`s in plain words naming the file and what to do, for the
commands (the hall says the same to phones in its own words). Anything else is a bug and goes to the crash report.

What every message may promise: each file is written whole or not at all and every ledger write is one
transaction, so running the same command again finishes what was stopped.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
import sys
from pathlib import Path

from shuangsheng.storage.names import DB_NAME
from shuangsheng.vocabulary.errors import Issue

AGAIN = "再运行一次同样的命令，会接着做完"
FULL = f"磁盘满了，这次没有写完（已写好的文件和记录都完整保留）。请腾出磁盘空间（删掉电脑上不用的文件），{AGAIN}"
READ_ONLY = ("这个文件夹不能写入（只读的 U 盘或光盘、网上共享的只读文件夹，或没有权限）。请把整个活动文件夹复制到电脑的本地磁盘"
             f"（例如“文档”里），在那里{AGAIN}")
BUSY = ("比赛记录 event.db 正被另一个程序占用（另一个 shuangsheng 命令、serve，或打开它的数据库查看工具）。请等那个命令做完，"
        f"或关掉查看工具，然后{AGAIN}")
IO = ("读写时磁盘出错（磁盘或 U 盘有问题，或被拔出）。请确认磁盘插好，最好把整个活动文件夹复制到电脑的本地磁盘，"
      f"在那里{AGAIN}")
GONE = f"文件夹被移走、改名或不能写入。请确认活动文件夹还在原处、可以写入，{AGAIN}"

_OS = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY, errno.EACCES: READ_ONLY,
       errno.EPERM: READ_ONLY, errno.EIO: IO}
_SQLITE = {sqlite3.SQLITE_FULL: FULL, sqlite3.SQLITE_READONLY: READ_ONLY, sqlite3.SQLITE_BUSY: BUSY,
           sqlite3.SQLITE_LOCKED: BUSY, sqlite3.SQLITE_IOERR: IO, sqlite3.SQLITE_CANTOPEN: GONE}
NEARLY_FULL = 1 << 20  # bytes free: SQLite reports a write that found no room as a disk I/O error, not as FULL


def known_fault(exc: BaseException, folder: Path | None) -> Issue | None:
    """The plain-words issue for a fault of the PC's disk or folder; None for anything else (a bug)."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        detail = _SQLITE.get(code & 0xFF) if isinstance(code, int) else None
        if detail is None:
            return None
        return Issue.of_file(folder / DB_NAME if folder else DB_NAME, _full_if_no_room(detail, folder))
    if isinstance(exc, OSError) and (detail := _OS.get(exc.errno or 0)) is not None:
        where = exc.filename if exc.filename else folder
        return Issue.of_file(where, _full_if_no_room(detail, folder)) if where else Issue.plain(detail)
    return None


def _full_if_no_room(detail: str, folder: Path | None) -> str:
    """A disk error where the folder's disk has (almost) no room left: said as a full disk."""
    if detail is IO and folder is not None and free_space(folder) < NEARLY_FULL:
        return FULL
    return detail


def free_space(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder if folder.is_dir() else folder.parent).free
    except OSError:
        return sys.maxsize
