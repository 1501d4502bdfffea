"""`draw`'s papers: the 对阵表 (draw sheet) and the 计分卡 (score cards) of a round just drawn, written beside its
workbook (第N轮对阵表.pdf, 第N轮计分卡.pdf); with round 1, the 秩序册 again with the draw in it (unless edited)."""

from __future__ import annotations

from pathlib import Path

from shuangsheng.render.materials.draw_sheet import draw_sheet_pdf
from shuangsheng.render.materials.fonts import choose_fonts
from shuangsheng.render.materials.paper import score_cards_pdf
from shuangsheng.render.reports import DrawReport
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.generated import write_generated
from shuangsheng.storage.names import TEMPLATES_DIR, draw_sheet_name, score_cards_name
from shuangsheng.table.codes import format_code
from shuangsheng.usecases.papers import PrintOptions


def write_draw_papers(report: DrawReport, *, font: str | None = None, force: bool = False,
                      invariant: bool = False) -> Written:
    """The draw sheet and the score cards (one per table, then a blank one) of a freshly drawn round, next to
    its workbook."""
    folder, event, round_, teams = report.path.parent, report.event, report.round, report.teams
    fonts = choose_fonts(font, event.print.font)
    common: PrintOptions = {"fonts": fonts, "template_dir": folder / TEMPLATES_DIR, "invariant": invariant}
    paths: tuple[Path, ...] = (
        write_generated(folder / draw_sheet_name(round_.number),
               draw_sheet_pdf(event, round_, teams, digits=report.digits, apart=report.apart, field=report.field,
                              **common), force=force),
        write_generated(folder / score_cards_name(round_.number), score_cards_pdf(
            event, round_, teams, digits=report.digits, codes={t: format_code(c) for t, c in report.codes.items()}, **common), force=force),
    )
    told: tuple[str, ...] = ()
    if round_.number == 1 and not report.redo:  # the 秩序册 with the first draw in it; no round paper, so an
        # edited one is kept even with `force` (`draw --force`, `rebuild`): `materials --force` prints it again
        from shuangsheng.render.materials.programme import FirstDraw  # loaded for round 1 only
        from shuangsheng.usecases.papers.materials import write_programme

        more, told = write_programme(folder, event, tuple(teams.values()),
                                     FirstDraw(round_, report.apart, report.field), digits=report.digits,
                                     fonts=fonts, invariant=invariant)
        paths += more
    return Written(paths, (*fonts.warnings, *told))
