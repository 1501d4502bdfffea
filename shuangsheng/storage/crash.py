"""The last line of defence's report: what an unexpected failure was, saved to a file instead of the terminal.

Writes one new text file (never over an existing one): in the event folder the command was working on when there
is one, otherwise in the system's temporary folder. Standard library only, so it works whatever else is broken.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path

REPORT_PREFIX = "shuangsheng-错误报告-"
PACKAGES = ("shuangsheng", "typer", "openpyxl", "XlsxWriter", "python-calamine", "reportlab", "jinja2", "defusedxml")


def _versions() -> list[str]:
    from importlib import metadata

    lines = [f"Python {sys.version.split()[0]} ({sys.executable})", f"{platform.platform()}"]
    for name in PACKAGES:
        try:
            lines.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            lines.append(f"{name} (not installed)")
    return lines


def report_text(exc: BaseException, command: Sequence[str]) -> str:
    """The full report: when, the command, where it ran, the versions, and the traceback."""
    parts = [
        "shuangsheng error report",
        f"time: {dt.datetime.now().isoformat(timespec='seconds')}",
        f"command: {' '.join(command)}",
        f"argv: {sys.argv!r}",
        f"working folder: {os.getcwd()}",
        "versions:",
        *(f"  {line}" for line in _versions()),
        "",
        "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
    ]
    return "\n".join(parts)


def save_report(exc: BaseException, command: Sequence[str], folder: Path | None = None) -> Path | None:
    """Save the report in `folder` (when it is an existing folder) or else the temporary folder; the path written,
    or None when neither could be written."""
    from shuangsheng.storage.files import write_text
    from shuangsheng.vocabulary.errors import UserError

    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    name = f"{REPORT_PREFIX}{stamp}-{os.getpid()}.txt"
    try:
        text = report_text(exc, command)
    except Exception:
        text = f"shuangsheng error report\ncommand: {' '.join(command)}\n{type(exc).__name__}"
    places = [Path(tempfile.gettempdir())]
    if folder is not None and Path(folder).is_dir():
        places.insert(0, Path(folder))
    for place in places:
        try:
            return write_text(place / name, text)
        except (UserError, OSError):
            continue
    return None


def message(report: Path | None, exc: BaseException) -> list[str]:
    """The short Chinese lines the terminal shows instead of a traceback."""
    lines = ["程序出现了意外错误（不是您填写的问题），本次操作已停止。已经写好的文件和记录都完整保留（每个文件要么是"
             "写完的新文件，要么还是原来的）；您填写的文件没有被改动。"]
    if report is not None:
        lines.append(f"完整的错误报告（含出错经过和版本信息）已保存在：{report}")
        lines.append("请把这个文件发给维护本程序的人。")
    else:
        lines.append(f"错误报告无法保存（文件夹不可写）；错误类型：{type(exc).__name__}")
    return lines
