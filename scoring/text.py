"""Text measured as it shows on screen and in spreadsheets: CJK and full-width characters are two columns (pure)."""

from __future__ import annotations

import unicodedata


def width(text: str) -> int:
    """Columns a string takes in a terminal: CJK and full-width characters count two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))
