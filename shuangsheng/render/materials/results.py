"""What `score` prints: 第N轮成绩 (round results) and, for each table tied when time was up, its 加赛单.

The round results are drawn by `shuangsheng.render.materials.flow`; the playoff slip shares the score card's hand rows
(`shuangsheng.render.materials.paper`). What both modules share is in `shuangsheng.render.materials.conventions`.
"""

from __future__ import annotations

from pathlib import Path

from shuangsheng.render.materials.conventions import team_context
from shuangsheng.render.materials.flow import flow_pdf, sizes
from shuangsheng.render.materials.fonts import FontSet, choose_fonts
from shuangsheng.render.materials.wording import Block, render
from shuangsheng.render.results import RoundResults, level_words
from shuangsheng.storage.event import Event
from shuangsheng.vocabulary.errors import SHOWN_PROBLEMS


def round_results_pdf(
    event: Event,
    results: RoundResults,
    *,
    workbook: str,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """第N轮成绩: per table the levels, winner and status; every error by its cell; byes and who advances in
    number order; what happens next in words for the players (no commands or paths: `score` says those in the
    terminal)."""
    fonts = fonts or choose_fonts(event.print.font)
    return flow_pdf(round_results_blocks(event, results, workbook=workbook, template_dir=template_dir), fonts,
                    sizes(event), title=f"{event.title} 第{results.number}轮成绩", running=f"{results.title}　成绩",
                    invariant=invariant)


def round_results_blocks(event: Event, results: RoundResults, *, workbook: str,
                         template_dir: Path | None = None, booklet: bool = False) -> list[Block]:
    """第N轮成绩's wording rendered (its PDF, and the 成绩册's rounds: `booklet`, without the line saying what to do
    next)."""
    extra = {
        "booklet": booklet,
        **team_context(results.teams, results.digits),
        "results": results,
        "levels": level_words,
        "errors": [e for t in results.tables for e in t.problems[:SHOWN_PROBLEMS]],
        "errors_left": sum(max(0, len(t.problems) - SHOWN_PROBLEMS) for t in results.tables),
        "workbook": workbook,
    }
    return render("round_results.j2", event, template_dir, extra)
