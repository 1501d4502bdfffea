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
