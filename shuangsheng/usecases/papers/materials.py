"""`materials`' papers: the seven printed materials (通知, 比赛规则, 规则口径确认单, 报名表, 抽签签条, 纪念品领取签收表,
签到表),
written into the event folder together or not at all."""

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
from shuangsheng.render.materials.fonts import choose_fonts
from shuangsheng.storage.event import Event
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.generated import check_regenerable, write_generated
from shuangsheng.storage.names import (
    LOTS,
    MATERIALS,
    NOTICE,
    REGISTRATION,
    RULES,
    SIGNIN,
    SIGNOFF,
    SOUVENIR,
    TEMPLATES_DIR,
)
from shuangsheng.usecases.papers import PrintOptions


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
    """Write the seven documents into the event folder, replacing those we wrote last time; if a person changed
    one (or it was never ours), write none of them unless `force`.

    `font` (--font) wins over `[print] font`; `lots` defaults to the number of teams drawn (the 候补 pairs are
    not: they are on the 报名表 and the 纪念品 sheet, never in round 1's lots).
    """
    paths = [folder / name for name in MATERIALS]
    for path in paths:
        check_regenerable(path, force=force)  # all refused before any is written
    fonts = choose_fonts(font, event.print.font)
    template_dir = folder / TEMPLATES_DIR
    teams = tuple(teams or ())
    drawn = [t for t in teams if not t.reserve]
    count = lots if lots is not None else len(drawn)
    if not count:
        count = DEFAULT_LOTS
        fonts.warn(f"还没有报名名单，抽签签条先按{DEFAULT_LOTS}张打印；可用 --lots 指定张数")
    common: PrintOptions = {"fonts": fonts, "template_dir": template_dir, "invariant": invariant}
    documents = {
        NOTICE: notice_pdf(event, **common),
        RULES: rules_pdf(event, **common),
        REGISTRATION: registration_pdf(event, teams, **common),
        LOTS: lots_pdf(event, count, field=count if count == len(drawn) else None, **common),
        SOUVENIR: souvenir_pdf(event, teams, **common),
        SIGNOFF: signoff_pdf(event, **common),
        SIGNIN: signin_pdf(event, teams, **common),
    }
    written = tuple(write_generated(folder / name, data, force=force) for name, data in documents.items())
    return Written(written, fonts.warnings, note=fonts.description)  # the font used
