"""Small shared helpers for the tests (plain functions): the command line, file fingerprints, rule vectors,
replaying hands. Event folders are built by tests/events.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


DATA = ROOT / "tests" / "data"


def load_vectors() -> list[dict]:
    """The rule vectors kept in tests/data (see tests/data/README.md)."""
    return json.loads((DATA / "rule-vectors.json").read_text(encoding="utf-8"))


def run(start: tuple[str, str], *hands, rules=None):
    """Replay `hands` from start levels given as labels, e.g. run(("5", "3"), Hand(Side.A, 75))."""
    from shuangsheng.game.hands import MatchRecord
    from shuangsheng.game.levels import Level, Levels
    from shuangsheng.game.match import replay
    from shuangsheng.game.rules import DEFAULT_RULES

    start_levels = Levels(Level.parse(start[0]), Level.parse(start[1]))
    return replay(MatchRecord(tuple(hands), start_levels), rules or DEFAULT_RULES)


def levels(result) -> tuple[str, str]:
    return (result.levels.a.label, result.levels.b.label)


def tied_hands():
    """Three hands that leave both sides on 3 when time is up: the match needs 加赛."""
    from shuangsheng.game.hands import Hand
    from shuangsheng.game.levels import Side

    return (Hand(Side.A, 75), Hand(Side.A, 80), Hand(Side.B, 75))


def cli(*args: object, code: int = 0):
    """Run `shuangsheng` in-process; assert the exit code and that nothing escaped, neither as a traceback nor
    through the last line of defence (an 错误报告)."""
    from typer.testing import CliRunner

    from shuangsheng.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output and "错误报告" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digests(folder: Path) -> dict[str, str]:
    """Every file below `folder` by its path relative to it, with its SHA-256: compare two to see that nothing
    was written, changed or removed."""
    return {p.relative_to(folder).as_posix(): sha(p) for p in sorted(folder.rglob("*")) if p.is_file()}


_PRESSES = __import__("itertools").count(1)


def page_body(path: str, body: object, marks) -> object:
    """`body` of a POST as the pages send it (docs/table-api.md, 重发): every press with a new `"id"` and the `"mark"`
    of the state it was made on — for the table API the table's (`marks("table", code)`), for a desk press on a table
    that table's (`marks("desk", n)`), for the clock the desk's `clock_mark` (`marks("clock", None)`). A body that
    already has them, or is not a JSON object, or goes elsewhere, is sent as it is."""
    import re

    if not isinstance(body, dict):
        return body
    found = re.fullmatch(r"/api/t/([^/]+)/(?:hands|end|undo|amend|confirm)", path)
    desk = re.fullmatch(r"/api/desk/t/(\d+)/(?:minutes|reopen|confirm|early_end|paper_rules)", path)
    if found:
        where = ("table", found.group(1))
    elif desk:
        where = ("desk", int(desk.group(1)))
    elif path == "/api/desk/clock":
        where = ("clock", None)
    else:
        return body
    body = {"id": f"press-{next(_PRESSES)}", **body}
    if "mark" not in body:
        body["mark"] = marks(*where)
    return body


def on(entries, body: dict) -> dict:
    """`body` made on the table's `entries` as they stand (what a page that has just read the table sends): their
    count as the mark, and a new id for the press unless the body has one."""
    return {"id": f"press-{next(_PRESSES)}", **body, "mark": len(entries)}


def meanwhile(*steps):
    """A `meanwhile` hook for the table or desk API (shuangsheng.hall.api_common.Meanwhile): each `(moment, act)` in
    turn, `act()` run the first time its moment comes after the step before it — another process acting at that very
    moment of a request, or SQLite raising there. Moments after the last step pass."""
    left = list(steps)

    def hook(moment: str) -> None:
        if left and left[0][0] == moment:
            left.pop(0)[1]()

    return hook


def tiny_disk(tmp_path: Path, size: str = "3m") -> Path:
    """A small tmpfs (skipped where this machine cannot mount one: not root, or no tmpfs): a disk that fills up.
    Unmount it with `subprocess.run(["umount", "-l", str(mount)])`."""
    import subprocess

    import pytest

    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    return mount
