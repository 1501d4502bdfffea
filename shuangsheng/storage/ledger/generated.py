"""Outputs the program makes again on every run (PDFs, phone pictures, checked copies): replaced freely while they
are what the program last wrote there, kept once a person edited them (`OutputExists`) unless forced; each one's
fingerprint recorded in event.db just before the rename that puts it in place (`write_generated`); one no longer
wanted deleted when unedited (`discard_generated`). Writes those outputs and event.db."""

from __future__ import annotations

import enum
from pathlib import Path

from shuangsheng.storage.files import CannotWrite, OutputExists, write_bytes
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.records import fingerprint_of


def _ledger(folder: Path) -> Ledger:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotWrite(folder, exc) from None
    return Ledger.open(folder)


def check_regenerable(path: Path, *, force: bool) -> None:
    """An output we generate again on every run may be replaced while it is what we last wrote there; once a
    person has edited it (or it was never ours) it is kept unless `force`."""
    if force or not path.exists():
        return
    with _ledger(path.parent) as book:
        if not book.is_ours(path):
            raise OutputExists(path, edited=True)


def is_generated(path: Path) -> bool:
    """`path` is an output we regenerate (a PDF, a checked copy), exactly as we last wrote it (event.db says)."""
    book = Ledger.existing(path.parent)
    if book is None:
        return False
    with book:
        return book.is_ours(path)


def write_generated(path: Path, data: bytes, *, force: bool) -> Path:
    """An output made again on every run: replaced while it is what we last wrote, kept (OutputExists) once a
    person edited it, unless `force`. Its fingerprint is recorded in event.db just before it lands, so a write
    stopped half-way is never taken for a person's edit."""
    with _ledger(path.parent) as book:
        if not force and path.exists() and not book.is_ours(path):
            raise OutputExists(path, edited=True)
        print_ = fingerprint_of(data)
        return write_bytes(path, data, force=True, before_rename=lambda: book.record_file(path, print_))


class Removal(enum.Enum):
    """What became of an output of ours that is no longer wanted (`discard_generated`)."""

    REMOVED = "removed"  # deleted, and forgotten in event.db
    ABSENT = "absent"  # not there
    EDITED = "edited"  # not as we last wrote it (a person edited it, or it was never ours): kept
    REFUSED = "refused"  # ours, but the system would not delete it (open in a PDF reader on Windows): kept


def discard_generated(path: Path, book: Ledger | None = None) -> Removal:
    """Delete an output of ours that is no longer wanted when it is exactly as we wrote it, and record that it is
    gone (in `book`, the folder's event.db already open, or opened here); a file a person edited (or never ours), or
    one that cannot be deleted now, is kept."""
    if book is None:
        with _ledger(path.parent) as opened:
            return discard_generated(path, opened)
    if not path.exists():
        return Removal.ABSENT
    if not book.is_ours(path):
        return Removal.EDITED
    try:
        path.unlink()
    except OSError:
        return Removal.REFUSED
    book.forget_file(path)
    return Removal.REMOVED


def remove_generated(path: Path) -> bool:
    """Delete an output of ours that is no longer made (a picture's part beyond the parts drawn now) when it is
    exactly as we wrote it, and record that it is gone; a file a person edited (or never ours) is kept: False."""
    return discard_generated(path) is Removal.REMOVED
