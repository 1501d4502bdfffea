"""Reading the user's files safely (regular files only, of a bounded size) and writing output files safely:
atomically, and never over an existing file unless asked.

Outputs the program makes again on every run (PDFs, checked copies) are written through `shuangsheng.storage.ledger`
(`write_generated`), which records them in event.db through `write_bytes`' `before_rename`."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.storage.names import backup_name
from shuangsheng.vocabulary.errors import Issue, UserError


class OutputExists(UserError, FileExistsError):
    """A file we would write is there already (`edited`: one we generate on every run, changed since we wrote it,
    or never ours); kept unless --force."""

    def __init__(self, path: Path, *, edited: bool = False):
        if edited:
            detail = "这个文件和本程序上次生成的不一样（可能有人改动过），为免丢失改动没有覆盖；如要重新生成，请加 --force"
        else:
            detail = "文件已存在；如要覆盖，请加 --force"
        super().__init__([Issue.of_file(path, detail)])
        self.path = path
        self.edited = edited


class CannotWrite(UserError, OSError):
    """The folder or file refused the write: no permission, or (on Windows) the file is open in Excel/WPS."""

    def __init__(self, path: Path, reason: OSError):
        detail = reason.strerror or type(reason).__name__
        if isinstance(reason, PermissionError):  # on Windows: the file is open in Excel/WPS or a PDF reader
            where = "PDF 阅读器" if Path(path).suffix.lower() == ".pdf" else "Excel/WPS"
            advice = f"请先在 {where} 中关闭该文件，再重新运行；如果没有打开它，请确认这个文件夹可以写入"
        else:
            advice = "请确认这个文件夹可以写入、磁盘还有空间"
        super().__init__([Issue.of_file(path, f"无法写入（{detail}）。{advice}")])
        self.path = path


# --- reading: one door for every file a user names or that lives in the event folder ---

KB = 1024
MB = 1024 * KB
NAME_MAX = 255  # bytes in one file or folder name (most file systems; a Chinese character takes 3)


@dataclass(frozen=True)
class Kind:
    """What a file should be: `noun` names it in messages, `limit` caps the bytes read, `usual` says how large
    such a file really is (for the "too large" message)."""

    noun: str
    limit: int
    usual: str


EVENT_SETTINGS = Kind("活动设置文件（event.toml）", 1 * MB, "活动设置只有几 KB")
MATCH_RECORD = Kind("对局记录（JSON 文件）", 1 * MB, "一场比赛的记录只有几 KB")
WORKBOOK = Kind("Excel 工作簿（.xlsx）", 20 * MB, "本赛事最大的工作簿（512 组的第1轮）约 1 MB")
LOTS_CSV = Kind("纸签文件（CSV）", 1 * MB, "512 组的纸签也只有十几 KB")
OUTPUT = Kind("本程序生成的文件", 200 * MB, "本程序生成的文件都在几 MB 以内")


class Unreadable(UserError, OSError):
    """A file that cannot be read as the `kind` expected: missing (`missing`), not a regular file, too large, or
    refused by the system. `reason` is the Chinese message without the path."""

    def __init__(self, path: Path, reason: str, *, missing: bool = False):
        super().__init__([Issue.of_file(path, reason)])
        self.path = Path(path)
        self.reason = reason
        self.missing = missing


def size_text(size: int) -> str:
    return f"{size / MB:.0f} MB" if size >= MB else f"{size // KB} KB"


def too_large(size: int, kind: Kind) -> str:
    return f"文件太大（{size_text(size)}），{kind.usual}；请检查是不是选错了文件"


_SPECIAL = (
    (stat.S_ISDIR, "这是一个文件夹"),
    (stat.S_ISFIFO, "这是一个命名管道（FIFO）"),
    (stat.S_ISCHR, "这是一个设备（如 /dev/zero）"),
    (stat.S_ISBLK, "这是一个磁盘设备"),
    (stat.S_ISSOCK, "这是一个套接字（socket）"),
)


def not_a_file(mode: int, kind: Kind) -> str:
    what = next((text for test, text in _SPECIAL if test(mode)), "这不是普通文件")
    space = " " if kind.noun[:1].isascii() else ""  # a space between Chinese and a Latin word
    return f"{what}，不是{space}{kind.noun}；请给出文件本身"


def os_reason(exc: OSError) -> str:
    """An operating-system refusal in plain Chinese."""
    if exc.errno == errno.ENAMETOOLONG:
        return _too_long(exc.filename)
    if isinstance(exc, FileNotFoundError):
        return "找不到文件"
    if isinstance(exc, PermissionError):
        return "无法读取：没有权限，或文件正被其他程序（如 Excel/WPS）锁定"
    if isinstance(exc, NotADirectoryError):
        return "路径中间有一段不是文件夹；请检查路径"
    if exc.errno == errno.ELOOP:
        return "路径里的快捷方式（符号链接）绕成了圈；请检查路径"
    return f"无法读取（{exc.strerror or type(exc).__name__}）"


def _too_long(filename: object) -> str:
    """Which limit a path broke: one name over NAME_MAX bytes, or the whole path (names nested too deep)."""
    parts = Path(os.fsdecode(filename)).parts if isinstance(filename, (str, bytes, os.PathLike)) else ()
    if parts and all(len(os.fsencode(part)) <= NAME_MAX for part in parts):
        return "路径太长：文件夹套得太深，整个路径超过了系统允许的长度；请把活动文件夹放在浅一些的位置（如 D:\\比赛）"
    return f"路径太长：一个文件或文件夹的名字最长 {NAME_MAX} 字节（一个汉字占 3 字节）；请改用短一些的名字"


def read_user_file(path: Path, kind: Kind) -> bytes:
    """The bytes of `path`, a regular file of at most `kind.limit` bytes; anything else is `Unreadable` at once.

    The file's type is checked before it is opened (opening a FIFO waits for a writer; /dev/zero never ends), the
    file is opened without waiting in case it was swapped meanwhile and checked again, and no more than the limit
    is read, whatever the file grows to."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise Unreadable(path, os_reason(exc), missing=isinstance(exc, FileNotFoundError)) from None
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable(path, not_a_file(info.st_mode, kind))
    if info.st_size > kind.limit:
        raise Unreadable(path, too_large(info.st_size, kind))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise Unreadable(path, os_reason(exc), missing=isinstance(exc, FileNotFoundError)) from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):  # swapped for something else since the first look
            raise Unreadable(path, not_a_file(info.st_mode, kind))
        try:
            data = fh.read(kind.limit + 1)
        except OSError as exc:
            raise Unreadable(path, os_reason(exc)) from None
    if len(data) > kind.limit:  # grew while being read
        raise Unreadable(path, too_large(len(data), kind))
    return data


def plain_os_error(exc: BaseException) -> str | None:
    """The message for an operating-system error that is the user's path, not a bug (a name longer than the file
    system allows), wherever it surfaced; None for anything else."""
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:
        where = f"{exc.filename}：" if exc.filename else ""
        return where + os_reason(exc)
    return None


def decode_text(data: bytes) -> str | None:
    """UTF-8 (with or without BOM), or GBK as older Windows Notepad and Excel's CSV save it; None if neither."""
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def check_writable(path: Path, *, force: bool) -> None:
    if path.exists() and not force:
        raise OutputExists(path)


def _normal_mode() -> int:
    """What a plain `open(path, "w")` would give (0o644 under the usual umask): mkstemp's 0o600 would leave the
    file unreadable to other users of a shared PC."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_bytes(path: Path, data: bytes, *, force: bool = False, before_rename: Callable[[], object] | None = None) -> Path:
    """Write via a temporary file in the same folder and an atomic rename; refuse to overwrite unless force.
    `before_rename` runs once the bytes are safely on disk, just before the rename (the ledger's record)."""
    check_writable(path, force=force)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise CannotWrite(path, exc) from None
    try:
        os.chmod(tmp, _normal_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if before_rename is not None:
            before_rename()
        os.replace(tmp, path)
    except OSError as exc:  # e.g. PermissionError: Windows refuses to replace a file open in Excel
        Path(tmp).unlink(missing_ok=True)
        raise CannotWrite(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


@dataclass(frozen=True)
class Written:
    """What a writer of outputs wrote: the files, every warning (Chinese) the CLI shows on stderr, a note on the
    files (how the bracket chart prints, which font the materials use) and notes on what to do next."""

    paths: tuple[Path, ...]
    warnings: tuple[str, ...] = ()
    note: str = ""
    notes: tuple[str, ...] = ()  # for the terminal: what the organiser may want to do next


def write_text(path: Path, text: str, *, force: bool = False) -> Path:
    return write_bytes(path, text.encode("utf-8"), force=force)


# --- what a file the program wrote looked like (the demo's record) ---


def sha256(data: bytes) -> str:
    """The fingerprint of a file's bytes (hex): what a page read, compared before the file is written over."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _digest(path: Path) -> str | None:
    """The file's SHA-256; None when it is no regular file or cannot be read (then it is not what we wrote)."""
    try:
        return sha256(read_user_file(path, OUTPUT))
    except Unreadable:
        return None


def fingerprint(path: Path) -> dict[str, object]:
    """What a file we wrote looked like: {"sha256": …, "size": …} (a later run compares the size first)."""
    return {"sha256": _digest(path), "size": path.stat().st_size}


def unchanged(path: Path, recorded: object) -> bool:
    """`path` is a regular file (not a link) still exactly as `recorded` by `fingerprint`."""
    if not isinstance(recorded, dict):
        return False
    try:
        st = path.lstat()
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size != recorded.get("size"):
        return False
    try:
        return _digest(path) == recorded.get("sha256")
    except OSError:
        return False


def keep_copy(path: Path) -> Path:
    """Copy a file the user may have filled to `备份/name.备份-YYYYMMDD-HHMMSS.ext` in its folder before it is
    replaced (`names.backup_name`; a number is added if that name is taken); returns the copy's path."""
    import datetime as dt

    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        copy = backup_name(path, stamp, n)
        if not copy.exists():
            break
    return write_bytes(copy, read_user_file(path, WORKBOOK))
