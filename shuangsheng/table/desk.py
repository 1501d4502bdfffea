"""The desk (裁判台, docs/table-api.md): where the round stands, table by table, as `GET /api/desk` gives it. Pure.

Each table is rendered from its one record (`shuangsheng.table.record.TableRecord`, built by
`shuangsheng.usecases.scoring.score_match` from the round workbook's sheet as last read and the phone entries read
live from event.db on every request), its phone state (`shuangsheng.table.state.TableState`: the log, who
confirmed, the extra minutes, the mark), the round clock (`shuangsheng.table.clock.Clock`) and `now`. Nothing is
decided here that the record says.

A table's state is the desk's rendering of its record (code → label, `DESK_LABELS`), not a second status:
- `invalid` 有误 — the record has errors (the sheet's, paper and phone disagreeing, a phone log that no longer
  replays), or a row of its phone entries cannot be read;
- `final_only` 终局录入 — the record is a lost card's 终局 cells;
- `needs_playoff` 需加赛 — tied when time was up, 加赛 to play (on the phone or on the sheet);
- `paper` 纸质录入 — the sheet holds the record (or a 弃权); `not_started` 未开始 — nothing recorded yet;
- `playing` 第k局进行中 (k = hands + 1) — the phone's match is not over;
- `to_confirm` 待确认 — the phone's match is over, not both teams have confirmed; `confirmed` 已确认 — both have.
`quiet`: a table playing or not started while the clock runs, with no entry for more than QUIET_SECONDS (counted
from its last entry, or from the clock's start or resumption when that is later). `next`: once every table is
decided (已确认, 纸质录入 with a result, 终局录入), what the organiser does next as a record (`DeskNext`: score the
round, then draw the next one or see the placings; once `score` recorded the outcomes the tables hold now, the draw
or the placings); each front end words it: the pages as a sentence and a button, the terminal as a command line
(`shuangsheng.render.report.desk_next_text`).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.game.levels import Side
from shuangsheng.table.clock import Clock, parse_time
from shuangsheng.table.log import Entry, desk_log
from shuangsheng.table.record import Source, TableRecord
from shuangsheng.table.state import TableState
from shuangsheng.table.status import TableStatus

QUIET_SECONDS = 15 * 60

# The desk's words for a record, by the code `GET /api/desk` gives (in the order docs/table-api.md lists them).
DESK_LABELS = {
    "not_started": "未开始",
    "playing": "第k局进行中",
    "to_confirm": "待确认",
    "confirmed": "已确认",
    "needs_playoff": "需加赛",
    "invalid": "有误",
    "paper": "纸质录入",
    "final_only": "终局录入",
}


def desk_state(record: TableRecord, *, damaged: bool = False) -> str:
    """The desk's code for a table's record (a key of DESK_LABELS)."""
    if damaged or record.status is TableStatus.INVALID:
        return "invalid"
    if record.source is Source.FINAL_ONLY:
        return "final_only"
    if record.status is TableStatus.NEEDS_PLAYOFF:
        return "needs_playoff"
    if record.source is Source.PAPER:
        recorded = record.levels is not None or record.status is TableStatus.WALKOVER
        return "paper" if recorded else "not_started"
    if record.status is TableStatus.OPEN:
        return "playing"
    return "confirmed" if record.confirmed else "to_confirm"


def label(state: str, hands: int) -> str:
    """The state in the desk's words: 第k局进行中 names the hand being played."""
    return DESK_LABELS[state].replace("第k局", f"第{hands + 1}局")


@dataclass(frozen=True)
class DeskTable:
    """One table of the round at the desk: its one record, its phone state and entries."""

    phone: TableState
    entries: tuple[Entry, ...]
    record: TableRecord
    damaged: str = ""  # a row of its phone entries cannot be read (the entries are then taken as none): why

    @property
    def number(self) -> int:
        return self.record.table

    @property
    def state(self) -> str:
        return desk_state(self.record, damaged=bool(self.damaged))

    @property
    def decided(self) -> bool:
        """Nothing more to come from this table (`TableRecord.settled`): confirmed, on paper with a result, or by
        its 终局 cells."""
        return not self.damaged and self.record.settled

    @property
    def hands(self) -> int:
        return self.record.all_hands

    @property
    def last_entry(self) -> str | None:
        """The time of the table's own last entry (a phone's; the desk's actions are not the table playing)."""
        times = [e.time for e in self.entries if not e.by_desk]
        return times[-1] if times else None

    def levels(self) -> dict[str, str] | None:
        return self.record.levels.as_json() if self.record.levels is not None else None

    def winner(self) -> str | None:
        side = self.record.winner_side
        return side.value if side is not None else None


def seconds_between(earlier: str, now: dt.datetime) -> int:
    return max(0, int((now - parse_time(earlier)).total_seconds()))


def quiet(table: DeskTable, state: str, clock: Clock | None, now: dt.datetime) -> bool:
    if clock is None or not clock.running or state not in ("playing", "not_started"):
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
        "table": table.number, "state": state, "label": label(state, table.hands), "hands": table.hands,
        "last_entry": last, "idle_s": seconds_between(last, now) if last else None,
        "quiet": quiet(table, state, clock, now), "extra_minutes": log.extra_minutes,
        "early_end": table.phone.early_end, "mark": table.phone.mark,
        "problem": table.damaged or None,
        "left_s": clock.left_s(log.extra_minutes) if clock is not None else None,
    }
    for side in Side:
        seat = setup.seat(side)
        data[side.value] = {"team": seat.team, "shown": seat.shown or seat.team, "players": list(seat.players)}
    return data | {
        "levels": table.levels(), "winner": table.winner(),
        "confirmed": {side.value: side in log.confirmed for side in Side},
        "log": desk_log(table.entries),
        "paper_rules": table.phone.paper_rules,
    }


def counts(tables: Sequence[DeskTable]) -> dict[str, int]:
    found = {"total": len(tables)} | dict.fromkeys(DESK_LABELS, 0)
    for table in tables:
        found[table.state] += 1
    return found


class NextAction(str, enum.Enum):
    """What the organiser does next once every table of the round is decided (docs/table-api.md, `next`)."""

    SCORE = "score"  # score the round (the phones' hands written into the checked copy)
    DRAW = "draw"  # draw the next round
    AWARDS = "awards"  # the final is scored: the placings, the announcement and the certificates


@dataclass(frozen=True)
class DeskNext:
    """The desk's `next`: `action` for round `round` (the round at the desk: the one to score, or the one after
    which to draw or see the placings) and, after scoring, what comes then (`then`)."""

    action: NextAction
    round: int
    then: NextAction | None = None

    @property
    def text(self) -> str:
        """The sentence the pages show: what to do, in words, never a command."""
        if self.action is NextAction.SCORE:
            after = "查看最终名次" if self.then is NextAction.AWARDS else "抽下一轮"
            return f"第{self.round}轮各桌结果都已确认：请计分（扫码录分的各局写入检查副本），然后{after}"
        if self.action is NextAction.DRAW:
            return f"第{self.round}轮已经计分：请抽下一轮"
        return f"决赛（第{self.round}轮）已经计分：请查看最终名次，打印成绩公告和荣誉证书"

    def as_json(self) -> dict[str, object]:
        return {"action": self.action.value, "round": self.round,
                "then": self.then.value if self.then is not None else None, "text": self.text}


Outcomes = Mapping[int, tuple[str, str | None]]  # table → (status, winner) as `score` last recorded them


def next_step(round_: Round) -> DeskNext | None:
    """Once every table is decided: score the round, then draw the next one (or the placings after the final);
    once `score` recorded the outcomes every table holds now, the draw (or the placings)."""
    tables = round_.tables
    if not tables or not all(t.decided for t in tables):
        return None
    after = NextAction.AWARDS if round_.final else NextAction.DRAW
    scored = round_.scored
    if scored is not None and all(scored.get(t.number) == (t.record.status.value, t.record.winner) for t in tables):
        return DeskNext(after, round_.number)
    return DeskNext(NextAction.SCORE, round_.number, then=after)


@dataclass(frozen=True)
class Round:
    """The round at the desk: number, title (第2轮（半决赛）), whether it is the final, its tables in order, and
    each table's outcome as `score` last recorded it for this draw (None: never scored)."""

    number: int
    title: str
    final: bool
    tables: tuple[DeskTable, ...]
    scored: Outcomes | None = None


def desk_json(round_: Round | None, clock: Clock | None, now: dt.datetime, *,
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
        "next": step.as_json() if round_ is not None and (step := next_step(round_)) is not None else None,
        "tables": [table_json(t, clock, now) for t in tables],
    }
