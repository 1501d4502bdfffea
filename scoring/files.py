"""Writing output files safely: atomically, and never over an existing file unless asked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from scoring.errors import UserError


class OutputExists(UserError, FileExistsError):
    """A file we would write is there already (`edited`: one we generate on every run, changed since we wrote it,
    or never ours); kept unless --force."""

    def __init__(self, path: Path, *, edited: bool = False):
        if edited:
            message = f"{path}：这个文件和本程序上次生成的不一样（可能有人改动过），为免丢失改动没有覆盖；如要重新生成，请加 --force"
        else:
            message = f"{path}：文件已存在；如要覆盖，请加 --force"
        super().__init__(message)
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
        super().__init__(f"{path}：无法写入（{detail}）。{advice}")
        self.path = path


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


def write_bytes(path: Path, data: bytes, *, force: bool = False) -> Path:
    """Write via a temporary file in the same folder and an atomic rename; refuse to overwrite unless force."""
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
        os.replace(tmp, path)
    except OSError as exc:  # e.g. PermissionError: Windows refuses to replace a file open in Excel
        Path(tmp).unlink(missing_ok=True)
        raise CannotWrite(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str, *, force: bool = False) -> Path:
    return write_bytes(path, text.encode("utf-8"), force=force)


# --- outputs the program regenerates (checked copies): replaced freely unless somebody changed them ---

LEDGER = ".shuangsheng-generated.json"


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _ledger(folder: Path) -> dict[str, str]:
    import json

    try:
        data = json.loads((folder / LEDGER).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def check_regenerable(path: Path, *, force: bool) -> None:
    """An output we generate again on every run may be replaced while it is exactly what we last wrote; once a
    person has edited it (or it was never ours) it is kept unless `force`."""
    if force or not path.exists():
        return
    if _ledger(path.parent).get(path.name) != _digest(path):
        raise OutputExists(path, edited=True)


def record_generated(path: Path) -> None:
    import json

    ledger = _ledger(path.parent)
    ledger[path.name] = _digest(path)
    write_text(path.parent / LEDGER, json.dumps(ledger, ensure_ascii=False, indent=1, sort_keys=True), force=True)


def write_generated(path: Path, data: bytes, *, force: bool) -> Path:
    """An output made again on every run (PDFs): replaced while it is exactly what we last wrote, kept
    (OutputExists) once a person edited it, unless `force`."""
    check_regenerable(path, force=force)
    write_bytes(path, data, force=True)
    record_generated(path)
    return path


def keep_copy(path: Path) -> Path:
    """Copy a file the user may have filled to `name.备份-YYYYMMDD-HHMMSS.ext` beside it before it is replaced
    (a number is added if that name is taken); returns the copy's path."""
    import datetime as dt

    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        copy = path.with_name(f"{path.stem}.备份-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not copy.exists():
            break
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CannotWrite(path, exc) from None
    return write_bytes(copy, data)
