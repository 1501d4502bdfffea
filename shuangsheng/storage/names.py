"""The name of every file the program reads or writes in an event folder, in one place: the inputs (event.toml,
teams.xlsx, the event's own templates), the round workbooks with their checked copies, backups and stray copies,
the ledger's files (event.db, its lock, the old bookkeeping), the printed papers and phone pictures of each
command, and the patterns of what shows a round was drawn, of what the program generates and of its temporary
files. `round_number` and `qr_sheet_round` read a name; `round_files`, `rounds_drawn` and `copies_beside` look at
the folder's listing; nothing here reads or writes what a file holds. (The crash report's name stays in
`shuangsheng.storage.crash`, which imports the standard library only.)"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

# --- the inputs ---

EVENT_FILE = "event.toml"
TEAMS_FILE = "teams.xlsx"
TEMPLATES_DIR = "templates"  # the event's own wording templates: a file there wins over the program's


# --- the round workbooks ---

ROUND_PREFIX, ROUND_SUFFIX = "round-", ".xlsx"


def round_file(number: int) -> str:
    """The name of round `number`'s workbook: round-1.xlsx (its checked copy and backups add to the stem)."""
    return f"{ROUND_PREFIX}{number}{ROUND_SUFFIX}"


def round_number(name: str) -> int | None:
    """12 for round-12.xlsx; None for any other name (round-1-checked.xlsx, a backup, round-x.xlsx)."""
    if not (name.startswith(ROUND_PREFIX) and name.endswith(ROUND_SUFFIX)):
        return None
    digits = name[len(ROUND_PREFIX):-len(ROUND_SUFFIX)]
    return int(digits) if digits.isascii() and digits.isdigit() else None


def round_files(folder: Path) -> list[Path]:
    """Every round workbook in the folder by its name (round-N.xlsx), in round order, gaps included."""
    found = [p for p in folder.glob(f"{ROUND_PREFIX}*{ROUND_SUFFIX}") if round_number(p.name) is not None]
    return sorted(found, key=lambda p: round_number(p.name) or 0)


def round_path(folder: Path, number: int) -> Path:
    return folder / round_file(number)


def rounds_drawn(folder: Path) -> int:
    """How many round workbooks there are, from round-1.xlsx on without a gap."""
    number = 0
    while round_path(folder, number + 1).exists():
        number += 1
    return number


def checked_path(path: Path) -> Path:
    """round-1.xlsx → round-1-checked.xlsx, next to it."""
    path = Path(path)
    return path.with_name(f"{path.stem}-checked{path.suffix}")


BACKUP_FOLDER = "备份"  # beside the files of an event: the copies kept before a file is replaced, out of the way


def backup_name(path: Path, stamp: str, n: int = 1) -> Path:
    """`备份/name.备份-YYYYMMDD-HHMMSS.ext` in the folder of `path`: a copy of it kept before it is replaced (`-n`
    added for the `n`th of the same second). In a folder of their own, so that the event's folder shows the files
    to open, not every earlier version of them (the console saves teams.xlsx at each team typed)."""
    return path.parent / BACKUP_FOLDER / f"{path.stem}.备份-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}"


COPY_SUFFIXES = (".xlsx", ".xls", ".xlsm", ".et")


def copies_beside(folder: Path, number: int, *, besides: Sequence[Path] = ()) -> list[str]:
    """Files that look like round-N.xlsx saved again under another name (`round-1 (1).xlsx`, `round-1 - 副本.xlsx`,
    `round-1.xls`, `round-1.xlsx.xlsx`): not the checked copy, not a backup, not one of `besides` (a copy given to
    --verify is the second entry, not a stray)."""
    own = f"round-{number}.xlsx"
    pattern = re.compile(rf"^round-{number}(?!\d)(?!-checked)(?!\.备份-)", re.IGNORECASE)
    skip = {Path(b).name for b in besides}
    found = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if (pattern.match(name) and name != own and name not in skip and path.is_file()
                and name.lower().endswith(COPY_SUFFIXES)):
            found.append(name)
    return found


# --- the ledger's files (shuangsheng/storage/ledger/) ---

DB_NAME = "event.db"
SIDE_FILES = ("-wal", "-journal", "-shm")  # SQLite's files beside event.db (its write-ahead log, journal, index)
LOCK_NAME = ".shuangsheng.lock"
HOLDER_NAME = ".shuangsheng.lock.holder"  # who holds the lock: written by the holder, read by whoever waits
LEGACY_RECORD = ".shuangsheng-generated.json"  # the bookkeeping before event.db: imported once, then removed
# What shows that a round was drawn in a folder: its workbook (and checked copy, backups) or its printed papers
DRAWN_SIGNS = ("round-[0-9]*.xlsx", "第[0-9]*轮*.pdf")
# What the program generates beside the inputs (taken as ours when event.db is built from a folder's files)
GENERATED_PATTERNS = ("*.pdf", "*.png", "round-*-checked.xlsx")  # what the program generates: PDFs, phone pictures, checked copies


def set_aside_name(path: Path, stamp: str, n: int = 1) -> Path:
    """`event.损坏-YYYYMMDD-HHMMSS.db` beside a damaged or lost event.db, where it is set aside (`-n` added for the
    `n`th of the same second)."""
    return path.with_name(f"{path.stem}.损坏-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}")


# --- the printed materials (`materials`) ---

NOTICE = "通知.pdf"
RULES = "比赛规则.pdf"
REGISTRATION = "报名表.pdf"
LOTS = "抽签签条.pdf"
SOUVENIR = "纪念品领取签收表.pdf"
SIGNOFF = "规则口径确认单.pdf"
SIGNIN = "签到表.pdf"
MATERIALS = (NOTICE, RULES, REGISTRATION, LOTS, SOUVENIR, SIGNOFF, SIGNIN)
PROGRAMME = "秩序册.pdf"  # from `materials` once there are teams; again when round 1 is drawn (unless edited)
RESULTS_BOOK = "成绩册.pdf"  # from `awards` once the event is complete


# --- each round's papers (`draw`, `score`) and its 扫码单 (`serve --lan`) ---


def draw_sheet_name(number: int) -> str:
    return f"第{number}轮对阵表.pdf"


def score_cards_name(number: int) -> str:
    return f"第{number}轮计分卡.pdf"


def results_name(number: int) -> str:
    return f"第{number}轮成绩.pdf"


def playoff_slip_name(number: int, table: int) -> str:
    return f"第{number}轮第{table}桌加赛单.pdf"


_QR_SHEET = re.compile(r"第([1-9][0-9]*)轮扫码单\.pdf")


def qr_sheet_name(number: int) -> str:
    return f"第{number}轮扫码单.pdf"


def qr_sheet_round(name: str) -> int | None:
    """The round of a 扫码单's file name ('第3轮扫码单.pdf' → 3), None for any other name."""
    found = _QR_SHEET.fullmatch(name)
    return int(found.group(1)) if found else None


def round_papers(folder: Path, number: int) -> list[Path]:
    """Every file the program makes for round `number` besides its workbook, as found in `folder`: the 对阵表, the
    计分卡, the 扫码单, the 加赛单, the 第N轮成绩 (PDF and pictures) and the checked copy (a voided round's are
    stale: their codes no longer work, their results no longer count)."""
    fixed = [draw_sheet_name(number), score_cards_name(number), qr_sheet_name(number), results_name(number)]
    slips = sorted(p.name for p in folder.glob(f"第{number}轮第*桌加赛单.pdf"))
    stem = results_name(number).removesuffix(".pdf")
    pictures = sorted(p.name for p in folder.glob(f"{stem}*.png") if re.fullmatch(rf"{stem}(-[0-9]+)?\.png", p.name))
    checked = checked_path(round_path(folder, number)).name
    return [folder / name for name in (*fixed, *slips, *pictures, checked) if (folder / name).exists()]


# --- the end of the event (`bracket`, `awards`) and the phone pictures ---

BRACKET = "晋级图.pdf"
ANNOUNCEMENT = "成绩公告.pdf"
CERTIFICATES = "荣誉证书.pdf"


def picture_name(stem: str, part: int) -> str:
    """'第1轮成绩.png', then '第1轮成绩-2.png', … for the parts of a very tall picture (the phone pictures of
    `score` and `awards`: stem 第N轮成绩 and 成绩公告)."""
    return f"{stem}.png" if part == 1 else f"{stem}-{part}.png"


# --- the program's other files ---

DEMO_RECORD = ".shuangsheng-demo"  # where demos before event.db kept what they wrote (read once, then removed)

# files.write_bytes writes `.{name}.{random}.tmp` beside the target, then renames it into place
TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")
