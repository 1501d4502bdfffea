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
    from scoring.hands import MatchRecord
    from scoring.levels import Level, Levels
    from scoring.match import replay
    from scoring.rules import DEFAULT_RULES

    start_levels = Levels(Level.parse(start[0]), Level.parse(start[1]))
    return replay(MatchRecord(tuple(hands), start_levels), rules or DEFAULT_RULES)


def levels(result) -> tuple[str, str]:
    return (result.levels.a.label, result.levels.b.label)


def tied_hands():
    """Three hands that leave both sides on 3 when time is up: the match needs 加赛."""
    from scoring.hands import Hand
    from scoring.levels import Side

    return (Hand(Side.A, 75), Hand(Side.A, 80), Hand(Side.B, 75))


def cli(*args: object, code: int = 0):
    """Run `shuangsheng` in-process; assert the exit code and that nothing escaped, neither as a traceback nor
    through the last line of defence (an 错误报告)."""
    from typer.testing import CliRunner

    from cli import app

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
