"""Text as it shows on screen and in spreadsheets (CJK and full-width characters are two columns), and paths as
typed in a command (pure)."""

from __future__ import annotations

import functools
import unicodedata


@functools.cache
def _columns(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def width(text: str) -> int:
    """Columns a string takes in a terminal: CJK and full-width characters count two."""
    if text.isascii():
        return len(text)
    return sum(map(_columns, text))  # the checked copy measures every explanation: each character asked once


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def typed_path(path: object) -> str:
    """A file or folder as the user would type it in a command: in quotes when it holds a space."""
    text = str(path)
    return f'"{text}"' if any(ch.isspace() for ch in text) else text


def command_line(command: str, *args: object) -> str:
    """`shuangsheng draw 活动 --seed 5` as the user would type it: each argument holding a space in quotes."""
    return " ".join(["shuangsheng", command, *(typed_path(arg) for arg in args)])
