"""`show --export`: the venue display's views in one self-contained HTML file that any browser opens without Python
(`export`), and where it may be written: a new `.html` file, or over an earlier export of ours (with --force); never
over an input of the event (event.toml, teams.xlsx, round-N.xlsx, event.db) or any other file (reads a few bytes
of it).

An export is recognised by the generator line `shuangsheng/render/templates/show.html.j2` writes near the top of every export.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from shuangsheng.hall.board import load_board, snapshot
from shuangsheng.render.show_page import page_html
from shuangsheng.storage.files import OutputExists, write_text
from shuangsheng.storage.names import DB_NAME, EVENT_FILE, ROUND_PREFIX, ROUND_SUFFIX, TEAMS_FILE
from shuangsheng.vocabulary.errors import Issue, UserError

EXPORT_MARK = b'<meta name="generator" content="shuangsheng show --export">'
HEAD_BYTES = 4096  # the mark is in the page's head, within the first few hundred bytes
SUFFIXES = (".html", ".htm")
INPUTS = {EVENT_FILE: "活动设置", TEAMS_FILE: "报名表", DB_NAME: "活动记录"}
ROUND_FILE = re.compile(rf"{re.escape(ROUND_PREFIX)}[0-9]+{re.escape(ROUND_SUFFIX)}", re.IGNORECASE)
RULE = "--export 只写新的 .html 文件，或覆盖本程序以前导出的大屏网页（要加 --force），别的文件一概不覆盖（加 --force 也不会）"


class ExportRefused(UserError, ValueError):
    """`show --export` would write over an input or a file that is not an earlier export."""


def _input_kind(name: str) -> str | None:
    if ROUND_FILE.fullmatch(name):
        return "记分表"
    return INPUTS.get(name.lower())


def _is_export(path: Path) -> bool:
    """A regular file that begins like one of our exports (a directory, FIFO or device is never read)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False
        with path.open("rb") as fh:
            return EXPORT_MARK in fh.read(HEAD_BYTES)
    except OSError:
        return False


def check_target(target: Path, *, force: bool) -> None:
    """Raise ExportRefused (or OutputExists for an earlier export without --force) unless `target` may be written."""
    example = target.with_name("大屏.html")
    if kind := _input_kind(target.name):
        raise ExportRefused([f"{target} 是活动的{kind}（输入文件），导出不能写在它上面。{RULE}；请换一个文件名，如 {example}"])
    if target.suffix.lower() not in SUFFIXES:
        raise ExportRefused([Issue.of_file(target, f"导出的是网页，文件名应以 .html 结尾。{RULE}；如 {example}")])
    if not (target.exists() or target.is_symlink()):
        return
    if not _is_export(target):
        raise ExportRefused([f"{target} 已存在，而且不是本程序导出的大屏网页，不会被覆盖。{RULE}；请换一个文件名，如 {example}"])
    if not force:
        raise OutputExists(target)


def export(folder: Path, target: Path, *, force: bool = False) -> Path:
    """The same views in one self-contained HTML file (no server). Raises UserError for a folder with problems."""
    check_target(target, force=force)  # never over an input, nor over anything but an earlier export
    board = load_board(folder)
    snap = snapshot(board.title, board)
    return write_text(target, page_html(snap.title, snap.views, live=False), force=True)
