"""`materials`' papers: the seven printed materials (通知, 比赛规则, 规则口径确认单, 报名表, 抽签签条, 纪念品领取签收表,
签到表) and, once there are teams, the 秩序册 (with round 1's draw once it is drawn), written into the event folder
together or not at all; and the 秩序册 again when round 1 is drawn (`write_programme`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shuangsheng.knockout.teams import Team
from shuangsheng.render.materials.documents import (
    DEFAULT_LOTS,
    lots_pdf,
    notice_pdf,
    registration_pdf,
    rules_pdf,
    signin_pdf,
    signoff_pdf,
    souvenir_pdf,
)
from shuangsheng.render.materials.fonts import FontSet, choose_fonts
from shuangsheng.render.materials.programme import FirstDraw, field_size, programme_pdf, timetable_problems
from shuangsheng.storage.event import Event
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.generated import check_regenerable, write_generated
from shuangsheng.storage.names import (
    LOTS,
    MATERIALS,
    NOTICE,
    PROGRAMME,
    REGISTRATION,
    RULES,
    SIGNIN,
    SIGNOFF,
    SOUVENIR,
    TEMPLATES_DIR,
)
from shuangsheng.usecases.folder import event_digits, recorded_draws
from shuangsheng.usecases.papers import PrintOptions, edited, kept_line
from shuangsheng.vocabulary.errors import UserError


def build_all(
    folder: Path,
    event: Event,
    teams: Sequence[Team] | None,
    *,
    font: str | None = None,
    lots: int | None = None,
    force: bool = False,
    invariant: bool = False,
) -> Written:
    """Write the seven documents (and the 秩序册 once there are teams) into the event folder, replacing those we
    wrote last time; if a person changed one of the seven (or it was never ours), write none of them unless
    `force`. A 秩序册 a person changed (a logo added) is kept unless `force`, and a line says so: it stops nothing.

    `font` (--font) wins over `[print] font`; `lots` defaults to the number of teams drawn (the 候补 pairs are
    not: they are on the 报名表 and the 纪念品 sheet, never in round 1's lots).
    """
    for name in MATERIALS:
        check_regenerable(folder / name, force=force)  # all refused before any is written
    fonts = choose_fonts(font, event.print.font)
    template_dir = folder / TEMPLATES_DIR
    teams = tuple(teams or ())
    drawn = [t for t in teams if not t.reserve]
    count = lots if lots is not None else len(drawn)
    if not count:
        count = DEFAULT_LOTS
        fonts.warn(f"还没有报名名单，抽签签条先按{DEFAULT_LOTS}张打印；可用 --lots 指定张数")
    common: PrintOptions = {"fonts": fonts, "template_dir": template_dir, "invariant": invariant}
    digits = event_digits((t.id for t in teams), (), recorded_draws(folder).values())  # the event's one width
    documents = {
        NOTICE: notice_pdf(event, **common),
        RULES: rules_pdf(event, **common),
        REGISTRATION: registration_pdf(event, teams, digits=digits, **common),
        LOTS: lots_pdf(event, count, field=count if count == len(drawn) else None, **common),
        SOUVENIR: souvenir_pdf(event, teams, digits=digits, **common),
        SIGNOFF: signoff_pdf(event, **common),
        SIGNIN: signin_pdf(event, teams, digits=digits, **common),
    }
    said = _add_programme(folder, event, teams, documents, common, digits, force=force) if teams else []
    written = tuple(write_generated(folder / name, data, force=force) for name, data in documents.items())
    return Written(written, (*fonts.warnings, *said), note=fonts.description)  # the font used


def _add_programme(folder: Path, event: Event, teams: Sequence[Team], documents: dict[str, bytes],
                   common: PrintOptions, digits: int, *, force: bool) -> list[str]:
    """The 秩序册 added to `documents`, and what its timetable would print out of order, said; one a person
    changed is kept unless `force`, and a line says so."""
    if edited(folder / PROGRAMME, force=force):
        return [kept_line(PROGRAMME)]
    first = first_draw(folder)
    documents[PROGRAMME] = programme_pdf(event, teams, first=first, digits=digits, **common)
    return timetable_problems(event, field_size(teams, first))


def first_draw(folder: Path) -> FirstDraw | None:
    """Round 1 as event.db records its draw, for the 秩序册 (None before it is drawn)."""
    book = Ledger.readable(folder)
    if book is None:
        return None
    with book:
        record = book.draws().get(1)
    if record is None:
        return None
    apart = record.apart.description() if record.round.seed is not None else ""
    return FirstDraw(record.round, apart, record.field)


def write_programme(folder: Path, event: Event, teams: Sequence[Team], first: FirstDraw, *, digits: int,
                    fonts: FontSet, force: bool = False, invariant: bool = False) -> tuple[tuple[Path, ...], tuple[str, ...]]:
    """The 秩序册 printed by `materials` again once round 1 is drawn (by `draw`, with its papers): rewritten unless
    a person edited it (then kept, and a line says so), or with `force`; none is made where `materials` made none.
    It is no round paper: one that cannot be made or written now (open in a PDF reader, its template mistyped) is
    said in a line, and the draw goes on. (written, what to tell)."""
    path = folder / PROGRAMME
    if not path.exists():
        return (), ()
    if edited(path, force=force):
        return (), (kept_line(PROGRAMME, what="要印上第1轮对阵"),)
    try:
        data = programme_pdf(event, teams, first=first, digits=digits, fonts=fonts, template_dir=folder / TEMPLATES_DIR,
                             invariant=invariant)
        written = write_generated(path, data, force=force)
    except UserError as exc:
        return (), (f"{PROGRAMME} 没有重写（第1轮对阵没有印进去）：{'；'.join(map(str, exc.messages))}；"
                    "解决后再运行一次“打印材料”",)
    return (written,), tuple(timetable_problems(event, field_size(teams, first)))
