"""报到 (check-in) before round 1 is drawn: who has arrived, who is 弃权, and the field round 1 is drawn from. Pure: the
marks come as rows (as the ledger keeps them, only ever added), the time of day as an argument.

A mark is one row: a team arrived (`arrive`), its arrival taken back with a reason (`undo`), a team confirmed 弃权
(`forfeit`, only from `[format] late_minutes` after `[event] start_time`), check-in closed (`close`) or opened again
with a reason (`open`). A team is 未到 (waiting), 已报到 (arrived) or 弃权 (forfeit) after its rows; check-in is open
from the first arrival until it is closed. Closing needs every pair that is not a reserve (候补) arrived or 弃权.

The field of round 1 (`round_one_field`): without any arrival, every pair that is not a reserve, as before check-in
existed; once closed, the pairs that arrived, and the reserves who arrived take the places of the 弃权 pairs in the
row order of teams.xlsx (a reserve who arrived beyond the free places does not play). While check-in is open there
is no field: round 1 waits for the close.

Every press carries the page's `"id"` and the `"mark"` it was made on, as the desk's other presses do: a team's
press the team's mark (its count of rows), a close or an opening the check-in's mark (the count of all rows). The
same id again is the press sent again (nothing added when it asked the same); an id used for anything else, or a new
press on an older mark, is a conflict (409)."""

from __future__ import annotations

import datetime as dt
import enum
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.knockout.teams import Team, canonical_id, id_digits, shown_id, team_name
from shuangsheng.table.entry import MAX_REASON_LENGTH, parse_made
from shuangsheng.vocabulary.errors import Issue, shown

DEFAULT_LATE_MINUTES = 10  # [format] late_minutes: 迟到10分钟按弃权论


class Press(str, enum.Enum):
    ARRIVE = "arrive"
    UNDO = "undo"
    FORFEIT = "forfeit"
    CLOSE = "close"
    OPEN = "open"


TEAM_PRESSES = (Press.ARRIVE, Press.UNDO, Press.FORFEIT)


class Status(str, enum.Enum):
    WAITING = "waiting"  # 未到
    ARRIVED = "arrived"  # 已报到
    FORFEIT = "forfeit"  # 弃权 (confirmed by the organiser)


STATUS_WORDS = {Status.WAITING: "未到", Status.ARRIVED: "已报到", Status.FORFEIT: "弃权"}


@dataclass(frozen=True)
class CheckinRow:
    """One mark as the ledger keeps it: what, for which team ('' for close and open), when (ISO 8601 with the PC's
    offset), from which address, the press's id and its reason ('' where none is needed)."""

    press: Press
    team: str
    at: str
    address: str = ""
    id: str = ""
    reason: str = ""

    def as_json(self) -> dict[str, object]:
        return {"action": self.press.value, "team": self.team or None, "time": self.at, "address": self.address,
                "reason": self.reason}


@dataclass(frozen=True)
class TeamCheckin:
    """One team after its rows: its status, the time of its last arrival ('' when none), its mark."""

    status: Status = Status.WAITING
    at: str = ""
    mark: int = 0


@dataclass(frozen=True)
class Checkin:
    """The check-in after its rows, in the order added."""

    rows: tuple[CheckinRow, ...] = ()

    def team(self, team: str) -> TeamCheckin:
        status, at, mark = Status.WAITING, "", 0
        for row in self.rows:
            if row.team != team:
                continue
            mark += 1
            if row.press is Press.ARRIVE:
                status, at = Status.ARRIVED, row.at
            elif row.press is Press.UNDO:
                status, at = Status.WAITING, ""
            elif row.press is Press.FORFEIT:
                status = Status.FORFEIT
        return TeamCheckin(status, at, mark)

    @property
    def started(self) -> bool:
        """Some team has arrived (check-in is used: round 1 is drawn from who came)."""
        return any(row.press is Press.ARRIVE for row in self.rows)

    @property
    def closed(self) -> bool:
        closed = False
        for row in self.rows:
            if row.press in (Press.CLOSE, Press.OPEN):
                closed = row.press is Press.CLOSE
        return closed

    @property
    def open(self) -> bool:
        """From the first arrival until the organiser closes it: round 1 is not drawn meanwhile."""
        return self.started and not self.closed

    @property
    def mark(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Field:
    """Who round 1 is drawn from: `pool` in the row order of teams.xlsx; `absent`, the pairs 弃权 at check-in;
    `reserves_in`, the reserve pairs who took their places; `reserves_left`, reserves who came but found no place."""

    pool: tuple[str, ...]
    absent: tuple[str, ...] = ()
    reserves_in: tuple[str, ...] = ()
    reserves_left: tuple[str, ...] = ()

    def as_json(self) -> dict[str, list[str]]:
        """What a draw records of its check-in (the pool is the draw's own)."""
        return {"absent": list(self.absent), "reserves_in": list(self.reserves_in)}

    @classmethod
    def from_json(cls, pool: Sequence[str], data: object) -> Field:
        found = data if isinstance(data, Mapping) else {}
        return cls(tuple(pool), tuple(found.get("absent", ())), tuple(found.get("reserves_in", ())))

    @property
    def changed(self) -> bool:
        """Check-in changed the field (a pair absent or a reserve in): the papers say so."""
        return bool(self.absent or self.reserves_in)


def round_one_field(teams: Sequence[Team], checkin: Checkin) -> Field:
    """The field round 1 is drawn from (module docstring). While check-in is open it is the field as it would be
    closed now: the caller refuses to draw then (`Checkin.open`)."""
    regular = [t.id for t in teams if not t.reserve]
    if not checkin.started:
        return Field(tuple(regular))
    states = {t.id: checkin.team(t.id).status for t in teams}
    absent = tuple(t for t in regular if states[t] is not Status.ARRIVED)
    came = [t.id for t in teams if t.reserve and states[t.id] is Status.ARRIVED]
    reserves_in = tuple(came[: len(absent)])
    playing = {t for t in regular if states[t] is Status.ARRIVED} | set(reserves_in)
    pool = tuple(t.id for t in teams if t.id in playing)
    return Field(pool, absent, reserves_in, tuple(came[len(absent):]))


# --- the time from which a pair is 弃权 ---

_CLOCK = re.compile(r"([0-9]{1,2}):([0-9]{2})")


def clock_time(text: str) -> dt.time | None:
    """'8:30' (or '08:30', '８：３０') as a time of day; None for anything else ('上午八点半', '25:00')."""
    found = _CLOCK.fullmatch(unicodedata.normalize("NFKC", text).strip())
    if found is None or int(found[1]) > 23 or int(found[2]) > 59:
        return None
    return dt.time(int(found[1]), int(found[2]))


@dataclass(frozen=True)
class LateRule:
    """`[event] start_time` and `[format] late_minutes`: a pair not there `minutes` after the start may be
    confirmed 弃权."""

    start: dt.time
    minutes: int = DEFAULT_LATE_MINUTES

    def moment(self, now: dt.datetime) -> dt.datetime:
        """The time on `now`'s day (and in its offset) from which a pair may be confirmed 弃权."""
        return dt.datetime.combine(now.date(), self.start, now.tzinfo) + dt.timedelta(minutes=self.minutes)

    def late(self, now: dt.datetime) -> bool:
        return now >= self.moment(now)

    def said(self, now: dt.datetime) -> str:
        """'8:40（开始时间 8:30 后 10 分钟）'"""
        at = self.moment(now)
        return f"{at.hour}:{at.minute:02d}（开始时间 {self.start.hour}:{self.start.minute:02d} 后 {self.minutes} 分钟）"


# --- a press decided ---


class Verdict(str, enum.Enum):
    CHANGED = "changed"  # a row to add
    SAME = "same"  # already so, or the press sent again: nothing added
    NO_REASON = "no_reason"  # 400
    UNKNOWN = "unknown"  # 404: no such team
    CONFLICT = "conflict"  # 409: does not fit the check-in as it stands
    INVALID = "invalid"  # 422: the request itself is wrong

    @property
    def http_status(self) -> int:
        return {"changed": 200, "same": 200, "no_reason": 400, "unknown": 404, "conflict": 409,
                "invalid": 422}[self.value]


@dataclass(frozen=True)
class CheckinDecision:
    """A press decided: `row` to add (CHANGED), or nothing (SAME), or the refusal (`issue`: the request's field
    and what to do, in Chinese)."""

    verdict: Verdict
    row: CheckinRow | None = None
    issue: Issue | None = None

    @property
    def errors(self) -> tuple[Issue, ...]:
        return (self.issue,) if self.issue is not None else ()


def _refuse(verdict: Verdict, field: str | None, message: str) -> CheckinDecision:
    return CheckinDecision(verdict, issue=Issue.of_hand(None, field, message))


@dataclass(frozen=True)
class Made:
    """A press as asked: what, for which team ('' for close and open), why, with the page's id and mark."""

    press: Press
    team: str
    reason: str
    id: str
    mark: int


@dataclass(frozen=True)
class Situation:
    """What a press is decided on besides the rows: the teams of teams.xlsx, the late rule, the time now, and
    whether round 1 is drawn (check-in is over then)."""

    teams: Sequence[Team]
    late: LateRule
    now: dt.datetime
    drawn: bool = False

    def find(self, team: str) -> Team | None:
        return next((t for t in self.teams if t.id == team), None)

    @property
    def digits(self) -> int:
        """How wide the 组号 are printed and shown: check-in is before round 1 is drawn, when the event's width
        (`EventFolder.digits`) is that of teams.xlsx's whole list, reserves included."""
        return id_digits(t.id for t in self.teams)

    def name(self, team: str) -> str:
        """第07组, 第007组 in a field over 99: a team as the desk's messages name it, as the papers print it."""
        return team_name(team, self.digits)


ASK_AGAIN = "请刷新页面后再按一次"


def parse_press(kind: str, body: object) -> Made | CheckinDecision:
    """A press's body: `kind` "team" ({"team", "arrived": true|false, "reason"}), "forfeit" ({"team"}), "close"
    ({}) or "open" ({"reason"}), each with "id" and "mark"; INVALID (422) for anything else."""
    made = parse_made(body)
    if isinstance(made, Issue):
        return CheckinDecision(Verdict.INVALID, issue=made)
    fields = body if isinstance(body, Mapping) else {}
    reason = fields.get("reason")
    reason = reason.strip() if isinstance(reason, str) and len(reason) <= MAX_REASON_LENGTH else ""
    if kind in ("close", "open"):
        return Made(Press(kind), "", reason, made.id, made.mark)
    team = fields.get("team")
    if not isinstance(team, str) or not team.strip():
        return _refuse(Verdict.INVALID, "team", f"应为组号（如 \"03\"），实际为 {shown(team)}；{ASK_AGAIN}")
    if kind == "forfeit":
        return Made(Press.FORFEIT, canonical_id(team), reason, made.id, made.mark)
    arrived = fields.get("arrived")
    if not isinstance(arrived, bool):
        return _refuse(Verdict.INVALID, "arrived", f"应为 true（报到）或 false（撤销报到），实际为 {shown(arrived)}")
    return Made(Press.ARRIVE if arrived else Press.UNDO, canonical_id(team), reason, made.id, made.mark)


def decide_checkin(rows: Sequence[CheckinRow], made: Made, where: Situation, *, at: str,
                   address: str) -> CheckinDecision:
    """The row to add for a press (module docstring), or why not."""
    checkin = Checkin(tuple(rows))
    again = next((row for row in rows if row.id == made.id), None)
    if again is not None:
        if (again.press, again.team, again.reason) == (made.press, made.team, made.reason):
            return CheckinDecision(Verdict.SAME)
        return _refuse(Verdict.CONFLICT, "id", f"操作编号 {shown(made.id)} 已用于 {again.at[11:16]} 的另一项报到操作，"
                                               f"这次没有记下；{ASK_AGAIN}")
    if where.drawn:
        return _refuse(Verdict.CONFLICT, "team" if made.team else None,
                       "第1轮已经抽签，报到已经结束，这次没有记下；抽签之后才发现没来的组，在它那一桌的记分表“弃权”栏记弃权")
    row = CheckinRow(made.press, made.team, at, address, made.id, made.reason)
    if made.press in TEAM_PRESSES:
        return _team_press(checkin, made, where, row)
    if made.mark != checkin.mark:
        return _refuse(Verdict.CONFLICT, "mark", f"另一台电脑刚改了报到，您这次按的没有记下；请看一下现在的报到情况，{ASK_AGAIN}")
    return _close(checkin, where, row) if made.press is Press.CLOSE else _reopen(checkin, row)


def _team_press(checkin: Checkin, made: Made, where: Situation, row: CheckinRow) -> CheckinDecision:
    team = where.find(made.team)
    if team is None:
        return _refuse(Verdict.UNKNOWN, "team", f"报名表里没有{where.name(made.team)}；请核对组号，或按姓名查找")
    now = checkin.team(team.id)
    if made.mark != now.mark:
        return _refuse(Verdict.CONFLICT, "mark", f"{where.name(team.id)}的报到刚被另一台电脑改过（现在是"
                                                 f"{STATUS_WORDS[now.status]}），您这次按的没有记下；{ASK_AGAIN}")
    if made.press is Press.UNDO and not made.reason:
        return _refuse(Verdict.NO_REASON, "reason", f"撤销报到须写明原因（{MAX_REASON_LENGTH} 字以内）")
    if checkin.closed:
        return _refuse(Verdict.CONFLICT, "team", f"报到已经结束，{where.name(team.id)}的报到没有改；"
                                                 "确实要改，请先按“重新开始报到”（写明原因）")
    if made.press is Press.FORFEIT:
        return _forfeit(team, now, where, row)
    wanted = Status.ARRIVED if made.press is Press.ARRIVE else Status.WAITING
    if now.status is wanted or (now.status is Status.FORFEIT and made.press is Press.UNDO):
        return CheckinDecision(Verdict.SAME)
    if now.status is Status.FORFEIT and not made.reason:
        return _refuse(Verdict.NO_REASON, "reason", f"{where.name(team.id)}已判弃权；弃权之后又来报到，须写明原因"
                                                    "（例如“比赛负责人同意”）")
    return CheckinDecision(Verdict.CHANGED, row)


def _forfeit(team: Team, now: TeamCheckin, where: Situation, row: CheckinRow) -> CheckinDecision:
    if team.reserve:
        return _refuse(Verdict.CONFLICT, "team", f"{where.name(team.id)}是候补组，没有来就不上场，不用判弃权")
    if now.status is Status.FORFEIT:
        return CheckinDecision(Verdict.SAME)
    if now.status is Status.ARRIVED:
        return _refuse(Verdict.CONFLICT, "team", f"{where.name(team.id)}已经报到，不能判弃权；如果是点错了，先撤销它的报到（写明原因）")
    if not where.late.late(where.now):
        return _refuse(Verdict.CONFLICT, "team", f"{where.late.said(where.now)}以后才能判弃权；现在请等候"
                                                 f"{where.name(team.id)}报到")
    return CheckinDecision(Verdict.CHANGED, row)


def _close(checkin: Checkin, where: Situation, row: CheckinRow) -> CheckinDecision:
    if checkin.closed:
        return CheckinDecision(Verdict.SAME)
    if not checkin.started:
        return _refuse(Verdict.CONFLICT, None, "还没有一组报到，没有报到可结束；不用报到的比赛直接抽签即可")
    waiting = [t.id for t in where.teams if not t.reserve and checkin.team(t.id).status is Status.WAITING]
    if waiting:
        names = "、".join(where.name(t) for t in waiting)
        then = ("请对没有到的组按“弃权”，或等他们报到" if where.late.late(where.now)
                else f"请等他们报到；{where.late.said(where.now)}以后，没有到的组可以判弃权")
        return _refuse(Verdict.CONFLICT, None, f"还有{len(waiting)}组没有报到：{names}。{then}，然后再结束报到")
    return CheckinDecision(Verdict.CHANGED, row)


def _reopen(checkin: Checkin, row: CheckinRow) -> CheckinDecision:
    if not row.reason:
        return _refuse(Verdict.NO_REASON, "reason", f"重新开始报到须写明原因（{MAX_REASON_LENGTH} 字以内）")
    if not checkin.closed:
        return CheckinDecision(Verdict.SAME)
    return CheckinDecision(Verdict.CHANGED, row)


# --- what the desk and the command line show ---


class Phase(str, enum.Enum):
    NOT_STARTED = "not_started"  # no arrival yet: round 1 would be drawn from every pair that is not a reserve
    OPEN = "open"
    CLOSED = "closed"
    DRAWN = "drawn"  # round 1 is drawn: check-in is over


def phase_of(checkin: Checkin, drawn: bool) -> Phase:
    if drawn:
        return Phase.DRAWN
    if checkin.closed:
        return Phase.CLOSED
    return Phase.OPEN if checkin.started else Phase.NOT_STARTED


def checkin_json(checkin: Checkin, where: Situation) -> dict[str, object]:
    """`GET /api/desk/checkin`: the phase, the check-in's mark, the late time, every team in the row order of
    teams.xlsx with its status and mark, the pairs still waiting, the field round 1 would be drawn from as it
    stands, and the log of marks."""
    teams = []
    digits = where.digits
    for team in where.teams:
        state = checkin.team(team.id)
        teams.append({"team": team.id, "shown": shown_id(team.id, digits), "players": list(team.players), "unit": team.unit, "reserve": team.reserve,
                      "status": state.status.value, "at": state.at or None, "mark": state.mark})
    field = round_one_field(where.teams, checkin)
    moment = where.late.moment(where.now)
    return {
        "phase": phase_of(checkin, where.drawn).value,
        "mark": checkin.mark,
        "start_time": f"{where.late.start.hour}:{where.late.start.minute:02d}",
        "late_minutes": where.late.minutes,
        "late_at": f"{moment.hour}:{moment.minute:02d}",
        "late": where.late.late(where.now),
        "teams": teams,
        "waiting": [t.id for t in where.teams if not t.reserve and checkin.team(t.id).status is Status.WAITING],
        "field": {"pool": list(field.pool), **field.as_json(), "reserves_left": list(field.reserves_left)},
        "log": [row.as_json() for row in checkin.rows],
        "now": where.now.isoformat(timespec="seconds"),
    }
