"""Wording that organisers may edit: jinja2 templates for the printed materials and the default event.toml.

An event folder may hold its own `templates/` with files of the same names; those win.
"""

from pathlib import Path

TEMPLATE_DIR = Path(__file__).parent


def read(name: str) -> str:
    return (TEMPLATE_DIR / name).read_text(encoding="utf-8")
