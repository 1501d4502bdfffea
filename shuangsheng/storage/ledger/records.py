"""What event.db's rows read back as (`Fingerprint`, `DrawRecord`, `ScoredRecord`), a file's fingerprint, and the
stamps every row carries (the time, the command being run). Reads a file only to fingerprint it."""

from __future__ import annotations

import datetime as dt
import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path

from shuangsheng.knockout.apart import NOTHING_APART, Apart
from shuangsheng.knockout.checkin import Field
from shuangsheng.knockout.knockout import Round


@dataclass(frozen=True)
class Fingerprint:
    sha256: str
    size: int | None  # None for a record imported from the bookkeeping before event.db


@dataclass(frozen=True)
class DrawRecord:
    """A draw as recorded: `done` once every file of it was written; `names` the players of each team then."""

    id: int
    round: Round
    names: dict[str, tuple[str, ...]]
    done: bool
    at: str
    format: dict | None = None
    apart: Apart = NOTHING_APART  # the units and seeds the draw kept apart
    field: Field | None = None  # round 1 drawn after check-in: the pairs 弃权 and the reserves who came in


@dataclass(frozen=True)
class ScoredRecord:
    """A round as last scored: the rules then, the workbook's fingerprint, each table's (status, winner)."""

    draw: int
    rules: dict
    workbook: str
    outcomes: dict[int, tuple[str, str | None]]
    at: str
    sheets: dict[int, str] = field(default_factory=dict)  # each table's sheet fingerprint as `score` read it


def fingerprint(path: Path) -> Fingerprint:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return Fingerprint(digest.hexdigest(), size)


def fingerprint_of(data: bytes) -> Fingerprint:
    return Fingerprint(hashlib.sha256(data).hexdigest(), len(data))


def now() -> str:
    """ISO 8601 with the PC's UTC offset, to the second."""
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


def command_line() -> str:
    """The command being run, as recorded beside what it did (`shuangsheng draw 比赛`)."""
    return " ".join(["shuangsheng", *sys.argv[1:]]) if sys.argv else "shuangsheng"
