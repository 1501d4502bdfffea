"""A file of the event folder opened in the PC's own program for it (the console's "用 Excel 打开", "打开"): Excel or
WPS for a workbook, the PDF reader for a PDF, Notepad for event.toml. `os.startfile` on Windows, `open` on macOS,
`xdg-open` elsewhere; it does not wait for the program. Reads nothing; starts a program.

The console is handed `open_in_system` (or, in its tests, a fake that records the path), so no test opens a window.
A failure is a record (`Opening.issue`), never an exception: the page shows it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.vocabulary.errors import Issue


@dataclass(frozen=True)
class Opening:
    """What became of opening `path`: nothing to say (`issue` None: the system was asked to open it), or why not."""

    path: Path
    issue: Issue | None = None

    @property
    def ok(self) -> bool:
        return self.issue is None


Opener = Callable[[Path], Opening]  # what the console is handed: `open_in_system`, or a test's recorder


def open_in_system(path: Path, *, platform: str | None = None,
                   startfile: Callable[[str], object] | None = None,
                   spawn: Callable[[Sequence[str]], object] | None = None) -> Opening:
    """Ask the system to open `path` with its default program (`platform`, `startfile` and `spawn` stand in for
    `sys.platform`, `os.startfile` and starting a process, for tests)."""
    path = Path(path)
    platform = sys.platform if platform is None else platform
    if not path.exists():
        return Opening(path, Issue.of_file(path.name, "找不到这个文件（可能被移走或删除了）；请点“重新读取”"))
    try:
        if platform == "win32":
            (startfile or _startfile)(str(path))
        else:
            (spawn or _spawn)(["open" if platform == "darwin" else "xdg-open", str(path)])
    except FileNotFoundError:
        return Opening(path, Issue.of_file(path.name, _no_opener(platform)))
    except OSError as exc:
        return Opening(path, Issue.of_file(path.name, f"{_no_program(path)}（{exc.strerror or type(exc).__name__}）"))
    return Opening(path)


def _startfile(path: str) -> None:
    os.startfile(path)  # type: ignore[attr-defined]  # Windows only; the other systems are not sent here


def _spawn(command: Sequence[str]) -> None:
    """Start the opener and let it go: its window is the user's; its output goes nowhere."""
    subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)


def _no_program(path: Path) -> str:
    kind = {".xlsx": " Excel 或 WPS ", ".pdf": " PDF 阅读器", ".toml": "记事本"}.get(path.suffix.lower(), "能打开它的程序")
    return f"这台电脑没能用{kind}打开这个文件；请在文件夹里双击打开它"


def _no_opener(platform: str) -> str:
    if platform == "win32":
        return "找不到这个文件；请点“重新读取”"
    return f"这台电脑上没有打开文件的命令（{'open' if platform == 'darwin' else 'xdg-open'}）；请在文件夹里双击打开它"
