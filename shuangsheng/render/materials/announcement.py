"""成绩公告, the results announcement of the end of the event: the prizes and every round's results.

`announcement_pdf` takes the `Bracket` of `shuangsheng.knockout.bracket` and the event and returns PDF bytes;
nothing here decides a result. Wording comes from `shuangsheng/render/templates/announcement.j2` (an event folder's
own `templates/` wins). Also the date the announcement and the certificates carry (`award_date_text`)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from shuangsheng.knockout.bracket import UNCHECKED_MARK, Bracket, Entry, Slot, SlotKind, level_word
from shuangsheng.knockout.teams import Team, shown_id, team_name
from shuangsheng.render.materials.conventions import in_order, players_of, prize_rows, team_members
from shuangsheng.render.materials.flow import Flow, Piece, sizes, together
from shuangsheng.render.materials.fonts import FontSet, choose_fonts
from shuangsheng.render.materials.page import Cell
from shuangsheng.render.materials.wording import MaterialsError, cn_date, render
from shuangsheng.storage.event import Event
from shuangsheng.table.status import TableStatus

ANNOUNCE_PRIZES = "获奖名单"  # the inserts `@获奖名单` and `@各轮成绩`
ANNOUNCE_ROUNDS = "各轮成绩"


def announcement_pdf(
    chart: Bracket, event: Event, *, day: dt.date | None, fonts: FontSet | None = None,
    template_dir: Path | None = None, invariant: bool = False,
) -> bytes:
    """成绩公告: the prizes with team numbers and players, then every round's results; organiser and date (`day`,
    else the event's month)."""
    if not chart.placings.complete:
        raise MaterialsError(["比赛尚未结束，名次还不完整，不能打印成绩公告"])
    flow = Flow(fonts or choose_fonts(event.print.font), sizes(event))
    teams = {t.id: t for t in chart.teams}
    digits = chart.digits  # 组号 as wide as the event's (`EventFolder.digits`)

    def rounds() -> list[Piece]:
        pieces: list[Piece] = []
        for column in chart.columns:
            rows: list[list[Cell | str]] = [["桌号", "甲方", "乙方", "级数", "胜者"]]
            matches = sorted((s for s in column.slots if s.kind is SlotKind.MATCH), key=lambda s: s.table or 0)
            if chart.third_place is not None and chart.third_place.round == column.number:
                matches.append(chart.third_place)
            for slot in matches:
                a, b = slot.entries
                levels = "弃权" if a.forfeited or b.forfeited else "：".join(_level(slot, e) for e in (a, b))
                table = f"{slot.table}（三四名）" if slot is chart.third_place else str(slot.table)
                rows.append([table, _team_cell(teams, a.team, digits), _team_cell(teams, b.team, digits), levels,
                             _winner(slot, digits)])
            byes = [s.entries[0].team for s in column.slots if s.kind is SlotKind.BYE]
            heading = flow.paragraph(column.title)  # kept with its table, and named on the pages it continues to
            heading[-1].keep = True
            heading[0].section = column.title
            block = [*heading, *flow.table(rows, [0.09, 0.28, 0.28, 0.15, 0.2])]  # 级数 holds 过A：10, 胜者 （加赛1局）
            if byes:
                note = flow.note("轮空（直接晋级）：" + "、".join(team_name(t, digits) for t in in_order(t for t in byes if t)))
                note[0].follows = True  # closes the table: never alone at the top of a page
                block += note
            pieces += [*together(block), flow.space(flow.sizes.body * 0.6)]
        return pieces

    context = {"date": award_date_text(event, day), "field": chart.field, "rounds": len(chart.columns)}
    wording = render("announcement.j2", event, template_dir, context)
    pieces = flow.markup(wording, {ANNOUNCE_PRIZES: lambda _: prize_pieces(flow, chart), ANNOUNCE_ROUNDS: lambda _: rounds()})
    return flow.pdf(pieces, title=f"{event.title}成绩公告", invariant=invariant)


def prize_pieces(flow: Flow, chart: Bracket) -> list[Piece]:
    """The prizes with team numbers and players (the announcement's, and the 成绩册's 获奖名单)."""
    teams = {t.id: t for t in chart.teams}
    digits = chart.digits
    rows: list[list[Cell | str]] = [["奖项", "组号", "队员"]]
    none = "（不设）" if not chart.placings.third else "（空缺）"  # a 2-team field has no 三等奖 at all
    for prize, team_id in prize_rows(chart.placings):
        rows.append([prize, shown_id(team_id, digits) if team_id else "",
                     Cell(players_of(teams, team_id) or none, team_members(team_id, digits))])
    notes = [piece for n in chart.placings.notes for piece in flow.note(n)]
    return [*flow.table(rows, [0.2, 0.16, 0.64]), *notes, flow.space(8)]


def _level(slot: Slot, entry: Entry) -> str:
    """An entry's level at the end of its match, 过A and A级 told apart ('' while not played)."""
    if entry.level is None:
        return ""
    return level_word(entry.level, passed_a=entry.won and slot.status is TableStatus.PASSED_A)


def _winner(slot: Slot, digits: int) -> str:
    """The 胜者 cell: the winner, marked 未逐局核对 for a lost card's match, with the 加赛 hands that decided it as
    第N轮成绩 says them (（加赛3局）)."""
    if not slot.winner:
        return ""
    winner = team_name(slot.winner, digits)
    if slot.unchecked:
        return f"{winner}{UNCHECKED_MARK}"
    return f"{winner}\n（加赛{slot.playoff_hands}局）" if slot.playoff_hands else winner


def _team_cell(teams: dict[str, Team], team_id: str | None, digits: int) -> Cell:
    if team_id is None:
        return Cell("")
    players = players_of(teams, team_id)
    name = team_name(team_id, digits)
    return Cell(f"{name}\n{players}" if players else name, team_members(team_id, digits))


EVENT_MONTH = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月")


def award_date_text(event: Event, day: dt.date | None) -> str:
    """The date the announcement and the certificates carry: `[print] award_date`, else the event's month (from
    `date` in event.toml, '2026年3月中旬' → '2026年3月'; else the notice's month)."""
    if day is not None:
        return cn_date(day)
    found = EVENT_MONTH.search(event.date)
    if found:
        return f"{int(found[1])}年{int(found[2])}月"
    return f"{event.notice_date.year}年{event.notice_date.month}月"
