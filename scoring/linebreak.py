"""Chinese line breaking (禁则), one rule for the terminal's help and the printed pages (pure).

Greedy: as much as fits, then the break moves back until it puts no closing mark at a line start, no opening mark
at a line end, and does not split an ASCII word, number, file name or option (event.toml, 2026, --force).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Never begin a line: Chinese and ASCII closing marks, small kana, and the rest of reportlab's ALL_CANNOT_START
# (written out here so that this module stays pure).
NO_LINE_START = frozenset(
    "，。、；：！？）》」』】〕〉”’…—·%‰℃,.;:!?)]}"
    "!\"'),.:;?]°‐―‰′″℃、。々」』】〕ぁぃぅぇぉっゃゅょゎ゛゜ゝゞァィゥェォッャュョヮヵヶ・ーヽヾ％）］￠"
)
NO_LINE_END = frozenset("（《「『【〔〈“‘([{")  # never end a line


def _ascii_word(ch: str) -> bool:
    return "!" <= ch <= "~"


def can_break(before: str, after: str) -> bool:
    """May a line end after `before` and the next begin with `after`?"""
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    return not (_ascii_word(before) and _ascii_word(after))


def _fits(advance: Sequence[float], start: int, limit: float) -> int:
    """The end of the longest run from `start` within `limit` (at least one character)."""
    used, end = 0.0, start
    while end < len(advance) and used + advance[end] <= limit:
        used += advance[end]
        end += 1
    return max(end, start + 1)  # a character wider than the line still gets a line of its own


def break_lines(text: str, advance: Callable[[str], float], widths: Sequence[float]) -> list[str]:
    """`text` as lines: `advance(ch)` is a character's width, `widths` the lines' widths (first line, then the
    rest). A space where a line breaks is dropped at the start of the next line; nothing else is lost."""
    chars = [ch for ch in text if ch != "\r"]
    sizes = [advance(ch) for ch in chars]
    lines: list[str] = []
    start = 0
    while start < len(chars):
        end = _fits(sizes, start, widths[min(len(lines), len(widths) - 1)])
        if end >= len(chars):
            lines.append("".join(chars[start:]))
            break
        cut = end
        while cut > start + 1 and not can_break(chars[cut - 1], chars[cut]):
            cut -= 1
        if cut == start + 1 and not can_break(chars[cut - 1], chars[cut]):
            cut = end  # nowhere better: break where the line is full
        lines.append("".join(chars[start:cut]))
        start = cut
        while start < len(chars) and chars[start] == " ":
            start += 1
    return lines
