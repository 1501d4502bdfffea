"""An event.db that cannot be used (`LedgerError`), and the lost ledger: event.db gone, emptied, not an SQLite file
or (in `serve`) replaced in a folder where rounds were drawn (`LedgerLost`, `Loss`), told from outside SQLite
(`file_loss`), with the words of its refusal; and a damaged event.db set aside under another name (`set_aside`).
Looks at event.db and the files that show a round was drawn; renames only in `set_aside`."""

from __future__ import annotations

import datetime as dt
import enum
import os
import re
import stat
from pathlib import Path

from shuangsheng.storage.names import DB_NAME, DRAWN_SIGNS, LEGACY_RECORD, SIDE_FILES, set_aside_name
from shuangsheng.vocabulary.errors import Issue, UserError
from shuangsheng.vocabulary.text import command_line as typed_command

SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


class LedgerError(UserError, ValueError):
    """event.db cannot be used (damaged, from a newer version of the program, or not writable)."""


class Loss(enum.Enum):
    """How event.db was lost (the words after its name in the refusal)."""

    MISSING = "不见了"
    EMPTY = "是空的（0 字节）"
    BLANK = "里面没有本比赛的任何记录"  # an SQLite file of no schema version: never one of ours
    DAMAGED = "已损坏（不是能读取的比赛记录）"
    REPLACED = "被换成了另一个文件"  # `serve`: not the file it opened (another one put in its place)


class LedgerLost(LedgerError):
    """event.db is lost (`Loss`) in a folder where rounds were drawn (`drawn`: the files that show it), or, for
    `serve` (`serving`), is no longer the file it opened: refused, naming what was lost and what to do."""

    def __init__(self, folder: Path, loss: Loss, drawn: tuple[str, ...] = (), *, serving: bool = False,
                 logs: tuple[str, ...] = ()):
        self.folder, self.loss, self.drawn, self.serving = folder, loss, drawn, serving
        text = lost_text(folder, loss, drawn, serving=serving)
        if logs:  # the lost event.db's own logs: read into a copy put back, they would spoil it
            text += (f"。旁边遗留的 {'、'.join(DB_NAME + extra for extra in logs)} 是丢失的 event.db 的日志，"
                     "留着会写坏放回的副本，已改名保留（名字以 event.损坏- 开头）")
        super().__init__([Issue.of_file(folder / DB_NAME, text)])


LOST = ("比赛记录丢失了：各轮计分卡上印的录分码、手机录入的各局、每一轮抽签的记录都只在这个文件里，"
        "程序不会不声不响地另建一个。")


def lost_text(folder: Path, loss: Loss, drawn: tuple[str, ...] = (), *, serving: bool = False) -> str:
    """The refusal of a lost ledger, without the file's name: what was lost, and the ways on."""
    serve = typed_command("serve", folder)
    if loss is Loss.REPLACED:
        return (f"{loss.value}（serve 运行时）。serve 不会改用换上的文件，从现在起不再接受录入（手机上会看到提示）："
                f"请关掉 serve（Ctrl+C）再重新启动 {serve}；换上的文件里没有的各局，以双方签字的纸质计分卡为准录入记分表")
    if serving:
        return (f"{loss.value}（serve 运行时）。{LOST}serve 从现在起不再接受录入（手机上会看到提示），也不会改用别的文件："
                f"请关掉 serve（Ctrl+C），再按重新启动 {serve} 时的提示处理")
    shown = f"（有 {'、'.join(drawn[:3])}{' 等' if len(drawn) > 3 else ''}）" if drawn else ""
    return (f"{loss.value}，而这个活动已经抽过签{shown}。{LOST}"
            "请把 event.db 的副本放回这个文件夹（从备份，或从之前复制的活动文件夹里拷回），再运行原来的命令；"
            f"没有副本时运行 {typed_command('rebuild', folder)}：按文件夹里的文件重建记录，为当前一轮各桌换新的录分码、"
            "重新生成计分卡（旧的录分码作废；手机录入的各局无法找回，以双方签字的纸质计分卡为准，录入记分表）")


FileId = tuple[int, int]  # (st_dev, st_ino): which file a path names


def file_id(path: Path) -> FileId | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def file_loss(path: Path, expected: FileId | None = None) -> Loss | None:
    """What is wrong with `path` as a ledger, seen from outside SQLite: not there, another file than `expected` (the
    one a connection opened), emptied, or not an SQLite file; None when it may be one (SQLite tells the rest)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return Loss.MISSING
    except OSError:
        return None  # cannot be looked at now (permissions): opening it says why
    if expected is not None and (st.st_dev, st.st_ino) != expected:
        return Loss.REPLACED
    if not stat.S_ISREG(st.st_mode):
        return Loss.DAMAGED
    if st.st_size == 0:
        return Loss.EMPTY
    try:
        with open(path, "rb") as fh:
            header = fh.read(len(SQLITE_HEADER))
    except OSError:
        return None
    return None if header == SQLITE_HEADER else Loss.DAMAGED


def drawn_signs(folder: Path) -> tuple[str, ...]:
    """The files that show a round was drawn in `folder` (round workbooks first, then checked copies, backups and
    printed papers), by name."""
    try:
        names = {p.name for pattern in DRAWN_SIGNS for p in folder.glob(pattern)}
    except OSError:
        return ()
    return tuple(sorted(names, key=lambda n: (re.fullmatch(r"round-\d+\.xlsx", n) is None, len(n), n)))


def drawn_here(folder: Path) -> tuple[str, ...]:
    """`drawn_signs`, unless the folder is from before event.db (its JSON bookkeeping is there): a folder that has
    them cannot be given a new event.db without a word. Empty for an old folder, or one where nothing was drawn."""
    return () if (folder / LEGACY_RECORD).exists() else drawn_signs(folder)


def lost_ledger(folder: Path) -> LedgerLost | None:
    """The refusal for `folder` when its event.db is missing, emptied or not an SQLite file while rounds were drawn
    there (and it is no old folder); None otherwise. (A file only SQLite finds damaged is refused on opening.)"""
    loss = file_loss(folder / DB_NAME)
    if loss is None:
        return None
    drawn = drawn_here(folder)
    if not drawn:
        return None
    return LedgerLost(folder, loss, drawn, logs=orphan_logs(folder / DB_NAME) if loss is Loss.MISSING else ())


def orphan_logs(path: Path) -> tuple[str, ...]:
    """The write-ahead log or journal a missing event.db left behind (serve killed before it checkpointed), set
    aside under another name: SQLite would read them into whatever event.db is put there next (a copy from a
    backup), and spoil it. Their endings ('-wal', '-journal'), or () when there were none."""
    logs = tuple(extra for extra in ("-wal", "-journal") if os.path.lexists(str(path) + extra))
    if logs:
        set_aside(path)
    return logs


def set_aside(path: Path) -> Path | None:
    """A damaged or lost event.db renamed `event.损坏-YYYYMMDD-HHMMSS.db`, with its write-ahead log and journal under
    that name beside it (they hold its last commits: kept for whoever wants to look into them), its shared-memory
    index removed. None when event.db was not there (a log left behind is set aside all the same: SQLite would read
    it into the new event.db)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        aside = set_aside_name(path, stamp, n)
        if not any(Path(str(aside) + extra).exists() for extra in ("", *SIDE_FILES)):
            break
    present = [extra for extra in ("", "-wal", "-journal") if os.path.lexists(str(path) + extra)]
    try:
        for extra in present:
            os.replace(str(path) + extra, str(aside) + extra)
        Path(str(path) + "-shm").unlink(missing_ok=True)
    except OSError as exc:
        raise LedgerError([Issue.of_file(path, f"无法改名保留（{exc.strerror or exc}）；请把它移走后再运行")]) from None
    return aside if "" in present else None
