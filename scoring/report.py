"""Plain-text renderings for the terminal (the CLI prints these; PDFs live in `materials/`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scoring.match import MatchResult, result_summary


def width(text: str) -> int:
    """Columns a string takes in a terminal: CJK and full-width characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns aligned by display width; the last column is left ragged."""
    widths = [max(width(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [pad(cell, widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines)


def replay_text(result: MatchResult) -> str:
    """The table `shuangsheng replay` prints: one row per hand with the levels after it and why."""
    rows = [
        [
            f"{o.hand}{'加' if o.playoff else ''}",
            o.dealer.cn,
            o.dealer_level.label,
            str(o.points),
            o.after.a.label,
            o.after.b.label,
            o.next_dealer.cn,
            o.explanation.split("：", 1)[1],
        ]
        for o in result.outcomes
    ]
    header = ["局", "庄家", "庄家级", "台下总分", "甲方", "乙方", "下局庄家", "说明"]
    start = f"起始级数：甲方 {result.start.a}，乙方 {result.start.b}"
    parts = [start, table(header, rows) if rows else "（没有记录任何一局）"]
    if result.errors:
        parts.append("错误：")
        parts.extend(f"  {e.message}" for e in result.errors)
    else:
        parts.append(f"结果：{result_summary(result)}")
    return "\n".join(parts)
