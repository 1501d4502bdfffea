"""Small shared helpers for the tests (plain functions, importable as `tests.helpers` or `helpers`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """../shared beside the checkout (CI lays a copy there); SHUANGSHENG_SHARED overrides."""
    env = os.environ.get("SHUANGSHENG_SHARED")
    return Path(env) if env else ROOT.parent / "shared"


def load_vectors() -> list[dict]:
    path = shared_dir() / "vectors" / "rules.json"
    return json.loads(path.read_text(encoding="utf-8"))


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
