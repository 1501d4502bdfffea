"""Writing output files safely: atomically, and never over an existing file unless asked."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputExists(FileExistsError):
    def __init__(self, path: Path):
        super().__init__(f"{path}：文件已存在；如要覆盖，请加 --force")
        self.path = path


def check_writable(path: Path, *, force: bool) -> None:
    if path.exists() and not force:
        raise OutputExists(path)


def write_bytes(path: Path, data: bytes, *, force: bool = False) -> Path:
    """Write via a temporary file in the same folder and an atomic rename; refuse to overwrite unless force."""
    check_writable(path, force=force)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str, *, force: bool = False) -> Path:
    return write_bytes(path, text.encode("utf-8"), force=force)
