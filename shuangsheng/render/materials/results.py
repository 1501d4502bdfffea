"""What `score` prints: 第N轮成绩 (round results) and, for each table tied when time was up, its 加赛单.

The round results are drawn by `shuangsheng.render.materials.flow`; the playoff slip shares the score card's hand rows
(`shuangsheng.render.materials.paper`). What both modules share is in `shuangsheng.render.materials.conventions`.
"""

from __future__ import annotations

from pathlib import Path

from shuangsheng.render.materials.conventions import team_context
from shuangsheng.render.materials.flow import flow_pdf, sizes
from shuangsheng.render.materials.fonts import FontSet, choose_fonts
from shuangsheng.render.materials.paper import playoff_slip_pdf
from shuangsheng.render.materials.picture import round_picture, write_pictures
from shuangsheng.render.materials.wording import render
from shuangsheng.render.reports import ScoreReport
from shuangsheng.render.results import RoundResults, round_results
from shuangsheng.storage.event import Event
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.generated import write_generated
from shuangsheng.table.status import TableStatus
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
    extra = {
        **team_context(results.teams),
        "results": results,
        "errors": [e for t in results.tables for e in t.errors[:SHOWN_PROBLEMS]],
        "errors_left": sum(max(0, len(t.errors) - SHOWN_PROBLEMS) for t in results.tables),
        "workbook": workbook,
    }
    return flow_pdf(render("round_results.j2", event, template_dir, extra), fonts, sizes(event),
                    title=f"{event.title} 第{results.number}轮成绩", running=f"{results.title}　成绩",
                    invariant=invariant)


# --- files in the event folder ---------------------------------------------------------------------------------


def results_name(number: int) -> str:
    return f"第{number}轮成绩.pdf"


def playoff_slip_name(number: int, table: int) -> str:
    return f"第{number}轮第{table}桌加赛单.pdf"


def write_score_papers(report: ScoreReport, *, font: str | None = None, force: bool = False,
                       invariant: bool = False) -> Written:
    """The round results and a playoff slip for each table that still needs 加赛, next to the round workbook."""
    folder, event = report.checked.parent, report.event
    results = round_results(report.score, report.teams, report.verification)
    fonts = choose_fonts(font, event.print.font)
    common = {"fonts": fonts, "template_dir": folder / "templates", "invariant": invariant}
    workbook = report.score.sheet.path.name
    paths = [write_generated(folder / results_name(results.number),
                             round_results_pdf(event, results, workbook=workbook, **common),
                             force=force)]
    tied = results.tables_with(TableStatus.NEEDS_PLAYOFF)
    if tied:
        for table in tied:
            data = playoff_slip_pdf(event, results, table, workbook=workbook, **common)
            paths.append(write_generated(folder / playoff_slip_name(results.number, table.table), data, force=force))
    paths += write_pictures(folder, results_name(results.number).removesuffix(".pdf"),  # 第N轮成绩.png for WeChat
                            round_picture(event, results, fonts=fonts, template_dir=folder / "templates"), force=force)
    return Written(tuple(paths), fonts.warnings)
