"""What the Windows Start-menu and desktop entry "双升级比赛" runs (packaging/windows/): one double-click, no command.

It runs `shuangsheng start` on the events root (a folder `双升级比赛` in the user's Documents, as Windows reports it:
OneDrive may have moved it): the organiser's console opens in the default browser. A second double-click finds
the running console (`start` asks it for a fresh one-time token) and only opens the browser again."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from shuangsheng.storage.home import events_root


def commands(root: Path) -> list[list[str]]:
    """The command line the entry runs: the console on the events root."""
    return [["start", str(root)]]


def run_command(argv: Sequence[str]) -> int:
    """One command line of the program, in this process, as typed after `shuangsheng`; its exit code."""
    from shuangsheng.cli import main as cli_main

    saved = sys.argv
    sys.argv = ["shuangsheng", *argv]
    try:
        cli_main()
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.argv = saved
    return 0


def launch(root: Path, *, run: Callable[[Sequence[str]], int] = run_command) -> int:
    """The launcher's work; its exit code. The command is passed in, so tests record what it would run."""
    (command,) = commands(root)
    return run(command)


def main() -> None:
    """The entry point of the Start-menu entry (a console window): a failure stays on screen until Enter."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    code = launch(events_root())
    if code != 0:
        with contextlib.suppress(EOFError, KeyboardInterrupt):  # no console to read from: nothing to wait for
            input("按回车键关闭此窗口")
    sys.exit(code)
