"""报到 (check-in): the marks read and a press decided and stored in one write transaction of event.db, for the desk
(`GET`/`POST /api/desk/checkin…`, shuangsheng/hall/desk_checkin.py) and the command line (`shuangsheng checkin`)
alike; and the field round 1 is drawn from (`field_for_draw`). The decisions are
`shuangsheng.knockout.checkin`'s. Reads event.toml and teams.xlsx; writes only event.db."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from shuangsheng.knockout.checkin import (
    Checkin,
    CheckinDecision,
    Field,
    Made,
    Press,
    Situation,
    decide_checkin,
    parse_press,
    round_one_field,
)
from shuangsheng.knockout.teams import Team
from shuangsheng.render.reports import CheckinReport
from shuangsheng.storage import event as event_file
from shuangsheng.storage import workbook
from shuangsheng.storage.event import Event
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import TEAMS_FILE
from shuangsheng.usecases.folder import TournamentError
from shuangsheng.vocabulary.errors import Issue
from shuangsheng.vocabulary.text import command_line

CLI_ADDRESS = "cli"  # the address a mark made on the command line is kept with


def situation(teams: Sequence[Team], event: Event, now: dt.datetime, *, drawn: bool = False) -> Situation:
    return Situation(tuple(teams), event.late_rule, now, drawn)


def read_checkin(book: Ledger, teams: Sequence[Team], event: Event, now: dt.datetime) -> tuple[Checkin, Situation]:
    """The check-in as it stands in `book`, and what a press on it would be decided on."""
    return Checkin(book.checkin_rows()), situation(teams, event, now, drawn=book.last_round() > 0)


def press(book: Ledger, made: Made, where: Situation, *, address: str) -> CheckinDecision:
    """One press decided on the marks as they stand (read in the write transaction, with whether round 1 is drawn
    by then) and its row added, committed before it returns."""
    at = where.now.isoformat(timespec="seconds")
    return book.decide_checkin(lambda rows, drawn: decide_checkin(rows, made, replace(where, drawn=drawn), at=at,
                                                                  address=address))


def field_for_draw(folder: Path, book: Ledger, teams: Sequence[Team]) -> tuple[Field | None, int]:
    """Round 1's field from the check-in, and the check-in's mark read (`draw` checks it again in the transaction
    that records the draw): None when no pair has arrived (round 1 is drawn as before check-in existed). Refused
    while check-in is open."""
    checkin = Checkin(book.checkin_rows())
    if not checkin.started:
        return None, checkin.mark
    if checkin.open:
        raise TournamentError([f"{folder}：报到还没有结束，第1轮要等报到结束后再抽签"], hint=(
            f"没到的组在迟到时间之后判弃权（或等他们来），然后在裁判台按“结束报到”，或运行 "
            f"{command_line('checkin', folder)} --close；再运行 {command_line('draw', folder)}"))
    return round_one_field(teams, checkin), checkin.mark


# --- the command line: shuangsheng checkin DIR [--arrived …] [--undo … --reason …] [--absent …] [--close] ---


@dataclass(frozen=True)
class CheckinOrder:
    """What `shuangsheng checkin` was asked, done in this order: check-in opened again (with `reason`), arrivals,
    arrivals taken back (with `reason`), 弃权, closing."""

    arrived: tuple[str, ...] = ()
    undo: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    close: bool = False
    reopen: bool = False
    reason: str = ""

    def presses(self) -> list[tuple[str, dict[str, object]]]:
        """Each press as the desk would send it (kind, body without its id and mark)."""
        found: list[tuple[str, dict[str, object]]] = [("open", {"reason": self.reason})] if self.reopen else []
        found += [("team", {"team": t, "arrived": True, "reason": self.reason}) for t in self.arrived]
        found += [("team", {"team": t, "arrived": False, "reason": self.reason}) for t in self.undo]
        found += [("forfeit", {"team": t}) for t in self.absent]
        if self.close:
            found.append(("close", {}))
        return found


def run_checkin(folder: Path, order: CheckinOrder, *, now: dt.datetime | None = None) -> CheckinReport:
    """`shuangsheng checkin`: every press of `order` made on the check-in as it stands, one after another, each
    decided as the desk's are (a refused one names why; the others are kept); then the check-in as it stands."""
    event, teams = _event_and_teams(folder)
    moment = now or dt.datetime.now().astimezone()
    done = []
    with Ledger.open(folder) as book:
        for kind, body in order.presses():
            checkin, where = read_checkin(book, teams, event, moment)
            made = parse_press(kind, {**body, "id": secrets.token_hex(8), "mark": 0})
            if isinstance(made, CheckinDecision):  # the command line checked what it passes: not expected
                raise TournamentError(list(made.errors))
            made = replace(made, mark=_mark_of(checkin, made))
            done.append((made, press(book, made, where, address=CLI_ADDRESS)))
        checkin, where = read_checkin(book, teams, event, moment)
    return CheckinReport(tuple(done), checkin, where, folder)


def _mark_of(checkin: Checkin, made: Made) -> int:
    """The mark a press from the command line is made on: the check-in as it stands (it is read just before)."""
    return checkin.mark if made.press in (Press.CLOSE, Press.OPEN) else checkin.team(made.team).mark


def _event_and_teams(folder: Path) -> tuple[Event, tuple[Team, ...]]:
    try:
        event = event_file.load(folder)
    except event_file.EventError as exc:
        raise TournamentError(exc.issues) from None
    try:
        teams = workbook.read_teams(folder / TEAMS_FILE)
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None
    except FileNotFoundError:
        raise TournamentError([Issue.of_file(folder / TEAMS_FILE, f"找不到报名表，请先运行 {command_line('init', folder)} "
                                                                  "并填写报名表")]) from None
    return event, teams


