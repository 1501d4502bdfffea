"""`score`'s papers: 第N轮成绩 (the round results), a 加赛单 for each table tied when time was up, and 第N轮成绩.png
for the WeChat group, written beside the round workbook."""

from __future__ import annotations

from pathlib import Path

from shuangsheng.render.materials.fonts import choose_fonts
from shuangsheng.render.materials.paper import playoff_slip_pdf
from shuangsheng.render.materials.picture import round_picture
from shuangsheng.render.materials.results import round_results_pdf
from shuangsheng.render.reports import ScoreReport
from shuangsheng.render.results import RoundResults, round_results
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.generated import write_generated
from shuangsheng.storage.names import TEMPLATES_DIR, playoff_slip_name, results_name
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.papers import PrintOptions
from shuangsheng.usecases.papers.pictures import write_pictures


def write_score_papers(report: ScoreReport, *, font: str | None = None, force: bool = False,
                       invariant: bool = False) -> Written:
    """The round results and a playoff slip for each table that still needs 加赛, next to the round workbook."""
    folder, event = report.checked.parent, report.event
    results = round_results(report.score, report.teams, report.verification, report.field, digits=report.digits)
    fonts = choose_fonts(font, event.print.font)
    common: PrintOptions = {"fonts": fonts, "template_dir": folder / TEMPLATES_DIR, "invariant": invariant}
    workbook = report.score.sheet.path.name
    paths = [write_generated(folder / results_name(results.number),
                             round_results_pdf(event, results, workbook=workbook, **common),
                             force=force)]
    paths += _slips(report, results, common, force=force)
    paths += write_pictures(folder, results_name(results.number).removesuffix(".pdf"),  # 第N轮成绩.png for WeChat
                            round_picture(event, results, fonts=fonts, template_dir=folder / TEMPLATES_DIR), force=force)
    return Written(tuple(paths), fonts.warnings)


def write_playoff_slips(report: ScoreReport, *, font: str | None = None, force: bool = False,
                        invariant: bool = False) -> Written:
    """Only the playoff slips of the round (the demo, when time is up: its results are printed once decided)."""
    folder, event = report.checked.parent, report.event
    results = round_results(report.score, report.teams, report.verification, report.field, digits=report.digits)
    fonts = choose_fonts(font, event.print.font)
    common: PrintOptions = {"fonts": fonts, "template_dir": folder / TEMPLATES_DIR, "invariant": invariant}
    return Written(tuple(_slips(report, results, common, force=force)), fonts.warnings)


def _slips(report: ScoreReport, results: RoundResults, common: PrintOptions, *, force: bool) -> list[Path]:
    folder, workbook = report.checked.parent, report.score.sheet.path.name
    paths = []
    for table in results.tables_with(TableStatus.NEEDS_PLAYOFF):
        data = playoff_slip_pdf(report.event, results, table, workbook=workbook, **common)
        paths.append(write_generated(folder / playoff_slip_name(results.number, table.table), data, force=force))
    return paths
