"""The end of the event's papers: 晋级图.pdf (`bracket`, and again with `awards`), 成绩公告.pdf, 荣誉证书.pdf,
成绩册.pdf and 成绩公告.png for the WeChat group (`awards`, once the placings are complete), written into the event
folder."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path

from shuangsheng.knockout.bracket import Bracket
from shuangsheng.render.materials.announcement import announcement_pdf, award_date_text
from shuangsheng.render.materials.bracket_chart import bracket_pdf, chart_parts, layout_note
from shuangsheng.render.materials.certificates import certificates_pdf
from shuangsheng.render.materials.fonts import choose_fonts
from shuangsheng.render.materials.picture import announcement_picture
from shuangsheng.render.materials.results_book import results_book_pdf
from shuangsheng.render.results import RoundResults
from shuangsheng.storage.event import Event
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.generated import write_generated
from shuangsheng.storage.names import ANNOUNCEMENT, BRACKET, CERTIFICATES, RESULTS_BOOK, TEMPLATES_DIR
from shuangsheng.usecases.papers import PrintOptions, edited, kept_line
from shuangsheng.usecases.papers.pictures import write_pictures


def write_bracket(folder: Path, chart: Bracket, event: Event, *, font: str | None = None, force: bool = False,
                  invariant: bool = False) -> Written:
    """晋级图.pdf in the event folder, replaced on every run unless someone edited it (then only with force)."""
    fonts = choose_fonts(font, event.print.font)
    data = bracket_pdf(chart, event, fonts=fonts, template_dir=folder / TEMPLATES_DIR, invariant=invariant)
    note = layout_note(chart_parts(chart, fonts))
    return Written((write_generated(folder / BRACKET, data, force=force),), fonts.warnings, note)


def write_awards(folder: Path, chart: Bracket, event: Event, *, day: dt.date | None = None, per_player: bool = False,
                 replaced: Mapping[str, Sequence[str]] | None = None, rounds: Sequence[RoundResults] = (),
                 font: str | None = None, force: bool = False, invariant: bool = False) -> Written:
    """成绩公告.pdf and 荣誉证书.pdf (and the chart again) once the placings are complete, 成绩公告.png for the
    WeChat group, and with `rounds` (every round's results, as scored) the 成绩册. Without `day` (`[print]
    award_date`) they carry the event's month, and a note says how to set the day."""
    fonts = choose_fonts(font, event.print.font)
    common: PrintOptions = {"fonts": fonts, "template_dir": folder / TEMPLATES_DIR, "invariant": invariant}
    documents = {
        BRACKET: bracket_pdf(chart, event, **common),
        ANNOUNCEMENT: announcement_pdf(chart, event, day=day, **common),
        CERTIFICATES: certificates_pdf(chart.placings, chart.teams, event, day=day, per_player=per_player,
                                       replaced=replaced, digits=chart.digits, **common),
    }
    kept: tuple[str, ...] = ()
    if rounds and edited(folder / RESULTS_BOOK, force=force):  # a booklet a person changed stops nothing
        kept = (kept_line(RESULTS_BOOK, again="再颁奖一次"),)
    elif rounds:
        documents[RESULTS_BOOK] = results_book_pdf(chart, rounds, event, day=day, per_player=per_player,
                                                   replaced=replaced, **common)
    paths = tuple(write_generated(folder / name, data, force=force) for name, data in documents.items())
    pictures = announcement_picture(chart, event, date=award_date_text(event, day), fonts=fonts,  # for WeChat
                                    template_dir=folder / TEMPLATES_DIR)
    paths += write_pictures(folder, ANNOUNCEMENT.removesuffix(".pdf"), pictures, force=force)
    notes = () if day is not None else (
        f"成绩公告和荣誉证书的日期印的是比赛月份“{award_date_text(event, None)}”；要印颁奖的具体日期，"
        "在 event.toml 的 [print] 中填写 award_date（如 award_date = 2026-03-15）后再运行 awards",)
    return Written(paths, (*fonts.warnings, *kept), notes=notes)
