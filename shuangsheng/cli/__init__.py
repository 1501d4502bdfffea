"""The `shuangsheng` command line (the console script `shuangsheng.cli:main`; `python -m shuangsheng` runs it too):
thin commands that parse, make one library call and print, grouped by the day (`event`: init, materials, demo,
replay; `checkin`: checkin; `replace`: replace; `rounds`: draw, score, awards, bracket, rebuild; `venue`: show, serve) on the one Typer `app` of `shared`.
`main` runs it: standard output that goes quiet once its reader has gone, usage mistakes in Chinese (exit 2), and
the last line of defence around everything. Heavy imports stay inside the commands."""

from __future__ import annotations

import gc
import sys
from typing import Any, TextIO

import typer

from shuangsheng.cli import checkin, event, replace, rounds, venue  # noqa: F401  (each registers its commands on `app`)
from shuangsheng.cli.shared import app, crash
from shuangsheng.cli_help import usage_message


class QuietPipe:
    """Standard output that goes quiet once its reader has gone (`shuangsheng draw 比赛 | head -3`): the command
    still finishes its work, only the rest of its text is dropped — a closed pager is no crash."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._silence()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._silence()

    def _silence(self) -> None:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)  # the interpreter's own last flush goes nowhere, quietly
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


# A command builds many small objects (cells, lines of text, pieces of pages) and few reference cycles: Python's
# collector, run every 700 new objects by default, spent about 6 % of `demo --teams 256` walking a heap it could not
# shrink (ten full passes over the fonts and workbooks held). Every 10,000 it does once (peak memory +6 MB).
FIRST_GENERATION = 10_000


def main() -> None:
    gc.set_threshold(FIRST_GENERATION)
    if hasattr(sys.stdout, "reconfigure") and hasattr(sys.stderr, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stderr.reconfigure(encoding="utf-8")
    sys.stdout = QuietPipe(sys.stdout)
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # the command line itself is wrong (click's UsageError and ours: exit 2)
        typer.echo(usage_message(exc), err=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(1)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:
        try:
            crash(exc, ["shuangsheng", *sys.argv[1:]])
        except typer.Exit as done:
            sys.exit(done.exit_code)
    sys.exit(code if isinstance(code, int) else 0)
