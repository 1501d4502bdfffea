"""秩序册 (the programme booklet handed out before play): a cover, 目录, the 竞赛规程 (the notice and the rules in
force, as their own documents lay them out), the officials, the entry list by 组号 and by 单位, the timetable, the
first round's draw once it is drawn (as the draw sheet lays it out) and the 签到表. Takes the event, the team list
and round 1's draw (when drawn) and returns PDF bytes; the parts and their wording come from `programme.j2`."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.knockout.checkin import Field, clock_time
from shuangsheng.knockout.knockout import Round, next_size, round_title, rounds_needed
from shuangsheng.knockout.teams import Team, number_key, shown_id
from shuangsheng.render.materials.booklet import OFFICIALS, Part, booklet_pdf, officials_part, plan, title_of
from shuangsheng.render.materials.conventions import event_width
from shuangsheng.render.materials.documents import notice_pieces, rules_pieces, signin_pieces
from shuangsheng.render.materials.draw_sheet import draw_sheet_blocks
from shuangsheng.render.materials.flow import Flow, Piece, sizes, together
from shuangsheng.render.materials.fonts import Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import Cell
from shuangsheng.render.materials.wording import render
from shuangsheng.storage.event import Event

RESERVES = "候补组（有组弃权时按此顺序补入）："
BY_UNIT = "按单位："
CHECKIN = "报到（在签到表上签名）"
AWARDS = "颁奖"
AFTER_FINAL = "决赛结束后"
FALLBACK_START = dt.time(8, 30)
TWO_UP = 24  # an entry list longer than this (and without units) is set two pairs to a row


@dataclass(frozen=True)
class FirstDraw:
    """Round 1 as drawn, for the 秩序册: the round, what the draw kept apart (one line, '' none) and check-in's
    field (the pairs 弃权 and the reserves who came in)."""

    round: Round
    apart: str = ""
    field: Field | None = None


def programme_pdf(event: Event, teams: Sequence[Team], *, first: FirstDraw | None = None, digits: int | None = None,
                  fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False) -> bytes:
    """秩序册 of `teams` (teams.xlsx's list, reserves included), with round 1's draw when `first` is given; its 组号
    `digits` wide (the event's width, `EventFolder.digits`; without it as wide as `teams` make them)."""
    flow = Flow(fonts or choose_fonts(event.print.font), sizes(event))
    team_map = {t.id: t for t in teams}
    width = event_width(teams, digits)
    makers = {
        "竞赛规程": lambda args: Part(title_of(args, "竞赛规程"), [*notice_pieces(flow, event, template_dir),
                                                             flow.page_break(), *rules_pieces(flow, event, template_dir)]),
        OFFICIALS: lambda args: officials_part(flow, event.officials, args),
        "参赛名单": lambda args: Part(title_of(args, "参赛名单"), entry_pieces(flow, teams, width)),
        "竞赛日程": lambda args: Part(title_of(args, "竞赛日程"), timetable_pieces(flow, event, teams, first)),
        "第一轮对阵": lambda args: None if first is None else Part(title_of(args, "第1轮对阵"), flow.markup(
            draw_sheet_blocks(event, first.round, team_map, digits=width, flow=flow, template_dir=template_dir,
                              apart=first.apart, field=first.field)), headed=False),
        "签到表": lambda args: Part(title_of(args, "签到表"), signin_pieces(flow, event, teams, template_dir, width),
                                 headed=False),
    }
    extra = {"match_minutes": event.rules.match_minutes, "round_gap": event.round_gap_minutes}
    cover, parts = plan(flow, render("programme.j2", event, template_dir, extra), makers)
    return booklet_pdf(flow, cover, parts, invariant=invariant)


def entry_pieces(flow: Flow, teams: Sequence[Team], digits: int) -> list[Piece]:
    """The entry list: every pair by 组号 (with 单位 where the list has units; a long list without them two pairs
    to a row), the reserves apart in their order, and where there are units, the pairs again by 单位."""
    units = any(t.unit for t in teams)
    regular = sorted((t for t in teams if not t.reserve), key=lambda t: number_key(t.id))
    reserves = [t for t in teams if t.reserve]
    header: list[Cell | str] = ["组号", "队员1", "队员2", *(["单位"] if units else [])]
    widths = [0.14, 0.24, 0.24, 0.38] if units else [0.2, 0.4, 0.4]

    def row(team: Team) -> list[Cell | str]:
        who = f"第{team.id}组"
        return [Cell(shown_id(team.id, digits), f"{who}的组号"),
                *(Cell(p, f"{who}队员“{p}”") for p in team.players),
                *([Cell(team.unit, f"{who}的单位")] if units else [])]

    if not units and len(regular) > TWO_UP:  # a long list without units: two pairs a row, half the pages
        pairs = [[*row(a), *(row(b) if b else ["", "", ""])] for a, b in
                 itertools.zip_longest(regular[::2], regular[1::2])]
        pieces = flow.table([header * 2, *pairs], [0.1, 0.2, 0.2] * 2)
    else:
        pieces = flow.table([header, *map(row, regular)], widths)
    if reserves:
        pieces += [flow.space(10), *together([*flow.paragraph(RESERVES), *flow.table([header, *map(row, reserves)],
                                                                                    widths)])]
    if units:
        by_unit = sorted(regular, key=lambda t: (t.unit == "", t.unit, number_key(t.id)))
        rows: list[list[Cell | str]] = [["单位", "组号", "队员"]]
        rows += [[Cell(t.unit or "（未填单位）", f"第{t.id}组的单位"), Cell(shown_id(t.id, digits)),
                  Cell("、".join(t.players), f"第{t.id}组的队员")] for t in by_unit]
        heading = flow.paragraph(BY_UNIT)
        heading[-1].keep = True
        pieces += [flow.space(14), *heading, *flow.table(rows, [0.38, 0.14, 0.48])]
    return pieces


def timetable(event: Event, size: int) -> list[tuple[str, str]]:
    """(time, what) of the day: 报到 at checkin_time (when set), each round from start_time, `match_minutes` long
    and `round_gap_minutes` apart (as many rounds as a field of `size` needs), and the prize-giving."""
    rows = [(event.checkin_time, CHECKIN)] if event.checkin_time else []
    rows += [(f"{_clock(start)}–{_clock(end)}", title) for start, end, title in _rounds(event, size)]
    rows.append((event.awards_time or AFTER_FINAL, AWARDS))
    return rows


def _rounds(event: Event, size: int) -> list[tuple[dt.datetime, dt.datetime, str]]:
    """(start, end, title) of each round a field of `size` plays, on the timetable."""
    start = dt.datetime.combine(dt.date(2000, 1, 1), clock_time(event.start_time) or FALLBACK_START)
    length = dt.timedelta(minutes=event.rules.match_minutes)
    gap = dt.timedelta(minutes=event.round_gap_minutes)
    out, pool = [], size
    for number in range(1, rounds_needed(size, event.byes) + 1):
        out.append((start, start + length, round_title(number, pool)))
        pool = next_size(pool, event.byes)
        start += length + gap
    return out


def timetable_problems(event: Event, size: int) -> list[str]:
    """What the timetable would print out of order, said to the organiser: 报到 after the start, the rounds past
    midnight, the prize-giving before the last round ends (as the timetable counts it)."""
    said = []
    checkin, start, awards = (clock_time(t) for t in (event.checkin_time, event.start_time, event.awards_time))
    if checkin is not None and start is not None and checkin > start:
        said.append(f"秩序册的竞赛日程：报到时间 {event.checkin_time}（event.toml 的 checkin_time）晚于开始时间 "
                    f"{event.start_time}；请改好后再打印一次材料")
    rounds = _rounds(event, size)
    if rounds and rounds[-1][1].date() > rounds[0][0].date():
        said.append(f"秩序册的竞赛日程：按每场 {event.rules.match_minutes} 分钟、两轮之间休息 {event.round_gap_minutes} 分钟，"
                    f"{rounds[-1][2]}要排到午夜以后；请检查 [rules] match_minutes 和 [event] round_gap_minutes")
    elif awards is not None and rounds and awards < rounds[-1][1].time():
        said.append(f"秩序册的竞赛日程：颁奖时间 {event.awards_time}（event.toml 的 awards_time）早于日程上"
                    f"{rounds[-1][2]}结束的时间 {_clock(rounds[-1][1])}；请改 awards_time（留空则印“决赛结束后”）"
                    "或 round_gap_minutes 后再打印一次材料")
    return said


def field_size(teams: Sequence[Team], first: FirstDraw | None) -> int:
    """How many pairs play round 1: those drawn, or before the draw every pair that is no reserve."""
    return len(first.round.pool) if first is not None else sum(1 for t in teams if not t.reserve)


def _clock(moment: dt.datetime) -> str:
    return f"{moment.hour}:{moment.minute:02d}"


def timetable_pieces(flow: Flow, event: Event, teams: Sequence[Team], first: FirstDraw | None) -> list[Piece]:
    rows: list[list[Cell | str]] = [["时间", "内容"]]
    rows += [[Cell(when), Cell(what, align=Align.LEFT)] for when, what in timetable(event, field_size(teams, first))]
    return [*flow.table(rows, [0.36, 0.64], row_height=30), flow.space(10)]
