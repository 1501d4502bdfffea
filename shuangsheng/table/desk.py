"""The desk (裁判台, docs/table-api.md): where the round stands, table by table, as `GET /api/desk` gives it. Pure.

Built from the round's draw (its pairings and the players' names), each table's phone entries replayed
(`shuangsheng.table.state.TableState`, read live from event.db on every request), what the round workbook says of each table
(`shuangsheng.render.venue.TableView`: the venue display's cached reading of the folder — status, source, levels), the round
clock (`shuangsheng.table.clock.Clock`) and `now`.

A table's state, in the SPEC's words (code → label):
- `invalid` 有误 — the sheet has errors, paper and phone disagree, or the phone's log no longer replays;
- `final_only` 终局录入 — only the 终局 cells of a lost card;
- `paper` 纸质录入 — the sheet holds the record (or a 弃权): the phone has no hand, or its match is not over (as
  `score` takes it, shuangsheng.table.sources);
- `needs_playoff` 需加赛 — tied when time was up, 加赛 to play (on the phone or on the sheet);
- `not_started` 未开始 — no hand yet; `playing` 第k局进行中 (k = hands + 1);
- `to_confirm` 待确认 — the phone's match is over, not both teams have confirmed; `confirmed` 已确认 — both have.
`quiet`: a table playing or not started while the clock runs, with no entry for more than QUIET_SECONDS (counted
from its last entry, or from the clock's start or resumption when that is later). `next`: once every table is
decided (已确认, 纸质录入 with a result, 终局录入), the commands to run next.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.game.levels import Side
from shuangsheng.render.venue import TableView
from shuangsheng.table.clock import Clock, parse_time
from shuangsheng.table.log import Entry, desk_log
from shuangsheng.table.state import EntryStatus, TableState
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.text import command_line

QUIET_SECONDS = 15 * 60


class DeskState(str, enum.Enum):
    NOT_STARTED = "not_started"
    PLAYING = "playing"
    TO_CONFIRM = "to_confirm"
    CONFIRMED = "confirmed"
    NEEDS_PLAYOFF = "needs_playoff"
    INVALID = "invalid"
    PAPER = "paper"
    FINAL_ONLY = "final_only"


LABELS = {
    DeskState.NOT_STARTED: "未开始",
    DeskState.TO_CONFIRM: "待确认",
    DeskState.CONFIRMED: "已确认",
    DeskState.NEEDS_PLAYOFF: "需加赛",
    DeskState.INVALID: "有误",
    DeskState.PAPER: "纸质录入",
    DeskState.FINAL_ONLY: "终局录入",
}


def label(state: DeskState, hands: int) -> str:
    """The state in the SPEC's words: 第k局进行中 names the hand being played."""
    return f"第{hands + 1}局进行中" if state is DeskState.PLAYING else LABELS[state]


@dataclass(frozen=True)
class DeskTable:
    """One table of the round at the desk: its phone state, and the sheet's view when the workbook was read."""

    phone: TableState
    entries: tuple[Entry, ...]
    sheet: TableView | None = None
    damaged: str = ""  # a row of its phone entries cannot be read (the entries are then taken as none): why

    @property
    def number(self) -> int:
        return self.phone.setup.table

    @property
    def on_paper(self) -> bool:
        """The sheet holds the record (or a 弃权): what `score` takes (shuangsheng.table.sources) when the phone has no hand,
        or when its match is not over (a phone given up mid-match, the card typed instead)."""
        sheet = self.sheet
        if sheet is None or sheet.source != "paper":
            return False
        return sheet.status is TableStatus.WALKOVER or sheet.levels is not None

    @property
    def by_phone(self) -> bool:
        """The phone's hands are what the desk shows (its levels, hands, winner): it has some, and the sheet is not
        the record."""
        return bool(self.phone.log.hands) and not self.on_paper

    @property
    def state(self) -> DeskState:
        sheet, phone = self.sheet, self.phone
        if self.damaged or (sheet is not None and sheet.status is TableStatus.INVALID) or phone.status is EntryStatus.INVALID:
            return DeskState.INVALID
        if sheet is not None and sheet.source == "final_only":
            return DeskState.FINAL_ONLY
        if sheet is not None and self.on_paper:
            return DeskState.NEEDS_PLAYOFF if sheet.status is TableStatus.NEEDS_PLAYOFF else DeskState.PAPER
        if not phone.log.hands:
            return DeskState.NOT_STARTED
        if phone.status is EntryStatus.NEEDS_PLAYOFF:
            return DeskState.NEEDS_PLAYOFF
        if phone.status is EntryStatus.PLAYING:
            return DeskState.PLAYING
        return DeskState.CONFIRMED if phone.log.locked else DeskState.TO_CONFIRM

    @property
    def decided(self) -> bool:
        """Nothing more to come from this table: confirmed, on paper with a result, or by its 终局 cells."""
        state = self.state
        if state is DeskState.PAPER:
            return self.sheet is not None and self.sheet.status.has_winner
        return state in (DeskState.CONFIRMED, DeskState.FINAL_ONLY)

    @property
    def hands(self) -> int:
        if self.by_phone or self.sheet is None:
            return len(self.phone.log.hands)
        return self.sheet.hands

    @property
    def last_entry(self) -> str | None:
        """The time of the table's own last entry (a phone's; the desk's actions are not the table playing)."""
        times = [e.time for e in self.entries if not e.by_desk]
        return times[-1] if times else None

    def levels(self) -> dict[str, str] | None:
        if self.by_phone:
            return self.phone.levels.as_json()
        if self.sheet is not None and self.sheet.levels is not None and self.state is not DeskState.NOT_STARTED:
            return {"A": self.sheet.levels[0], "B": self.sheet.levels[1]}
        return None

    def winner(self) -> str | None:
        if self.by_phone:
            return self.phone.winner.value if self.phone.winner else None
        sheet = self.sheet
        if sheet is None or sheet.sheet_winner is None:
            return None
        return Side.A.value if sheet.sheet_winner == sheet.a.id else Side.B.value


def seconds_between(earlier: str, now: dt.datetime) -> int:
    return max(0, int((now - parse_time(earlier)).total_seconds()))


def quiet(table: DeskTable, state: DeskState, clock: Clock | None, now: dt.datetime) -> bool:
    if clock is None or not clock.running or state not in (DeskState.PLAYING, DeskState.NOT_STARTED):
        return False
    since = [parse_time(clock.resumed_at or clock.started_at)]
    if table.last_entry is not None:
        since.append(parse_time(table.last_entry))
    return (now - max(since)).total_seconds() > QUIET_SECONDS


def table_json(table: DeskTable, clock: Clock | None, now: dt.datetime) -> dict[str, object]:
    """One table as `GET /api/desk` lists it (docs/table-api.md, the desk)."""
    state, setup, log = table.state, table.phone.setup, table.phone.log
    last = table.last_entry
    data: dict[str, object] = {
        "table": table.number, "state": state.value, "label": label(state, table.hands), "hands": table.hands,
        "last_entry": last, "idle_s": seconds_between(last, now) if last else None,
        "quiet": quiet(table, state, clock, now), "extra_minutes": log.extra_minutes, "mark": table.phone.mark,
        "problem": table.damaged or None,
        "left_s": clock.left_s(log.extra_minutes) if clock is not None else None,
    }
    for side in Side:
        seat = setup.seat(side)
        data[side.value] = {"team": seat.team, "players": list(seat.players)}
    return data | {
        "levels": table.levels(), "winner": table.winner(),
        "confirmed": {side.value: side in log.confirmed for side in Side},
        "log": desk_log(table.entries),
    }


def counts(tables: Sequence[DeskTable]) -> dict[str, int]:
    found = {"total": len(tables)} | {state.value: 0 for state in DeskState}
    for table in tables:
        found[table.state.value] += 1
    return found


def next_step(tables: Sequence[DeskTable], number: int, final: bool, folder: Path) -> str | None:
    """Once every table is decided: score the round, then draw the next one (or the awards after the final)."""
    if not tables or not all(t.decided for t in tables):
        return None
    score = command_line("score", folder, "--round", number)
    after = (f"运行 {command_line('awards', folder)} 查看最终名次" if final
             else f"运行 {command_line('draw', folder)} 抽下一轮")
    return f"第{number}轮各桌结果都已确认：运行 {score} 计分（扫码录分的各局写入检查副本），然后{after}"


@dataclass(frozen=True)
class Round:
    """The round at the desk: number, title (第2轮（半决赛）), whether it is the final, and its tables in order."""

    number: int
    title: str
    final: bool
    tables: tuple[DeskTable, ...]


def desk_json(round_: Round | None, clock: Clock | None, now: dt.datetime, folder: Path, *,
              clock_mark: int = 0) -> dict[str, object]:
    """`GET /api/desk`: the round, the time, the clock (and its mark: the count of the round's clock rows, what a
    clock press is made on), the counts, what to do next and every table."""
    tables = round_.tables if round_ is not None else ()
    return {
        "round": round_.number if round_ is not None else None,
        "title": round_.title if round_ is not None else "",
        "now": now.isoformat(timespec="seconds"),
        "clock": clock.as_json() if clock is not None else None,
        "clock_mark": clock_mark,
        "counts": counts(tables),
        "next": next_step(tables, round_.number, round_.final, folder) if round_ is not None else None,
        "tables": [table_json(t, clock, now) for t in tables],
    }


def sheet_views(views: Sequence[TableView] | None) -> Mapping[int, TableView]:
    return {v.table: v for v in views or ()}
