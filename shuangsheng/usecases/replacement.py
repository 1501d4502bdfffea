"""A player replaced mid-event (换人), for the desk (`POST /api/desk/replace`, shuangsheng/hall/desk_api.py) and the command
line (`shuangsheng replace`) alike: the request decided on the replacements as event.db holds them and the one made
stored, in one write transaction. The decisions are `shuangsheng.knockout.replacement`'s. Reads the event folder;
writes only event.db."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.knockout.replacement import (
    Asked,
    Replacement,
    out_as_listed,
    parse_replacement,
    replacement_problem,
)
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.usecases.folder import TournamentError, open_folder
from shuangsheng.vocabulary.errors import Issue, shown

NOT_YET = "第1轮还没有抽签：换队员请直接改报名表 teams.xlsx 里的姓名"


@dataclass(frozen=True)
class Replaced:
    """What became of a request: `status` (200 stored or found again, 400, 404, 409, 422), the replacement, or why
    not (`issue`)."""

    status: int
    made: Replacement | None = None
    issue: Issue | None = None
    digits: int = 2  # the event's 组号 width, for saying the replacement (`Replacement.said`)


def replace_player(book: Ledger, teams: Sequence[Team], body: object, *, at: str, address: str,
                   digits: int | None = None) -> Replaced:
    """`body` {"team", "out", "in", "reason", "round" (optional: the first round the new player plays, the round
    in play by default), "id", "mark" (the count of replacements the page showed)} decided and stored; a refusal names a pair `digits` wide
    (the field's, when `teams` are fewer than teams.xlsx lists)."""
    asked = parse_replacement(body)
    if isinstance(asked, Issue):
        return Replaced(422, issue=asked)
    round_ = body.get("round") if isinstance(body, dict) else None
    outcome: list[Replaced] = []

    def decide(done: tuple[Replacement, ...], last: int) -> Replacement | None:
        found = _decided(asked, teams, done, last, round_, digits)
        if isinstance(found, Replaced):
            outcome.append(found)
            return None
        made = Replacement(asked.team, found[0], asked.into, found[1], asked.reason, at, address, asked.id)
        outcome.append(Replaced(200, made))
        return made

    book.decide_replacement(decide)
    return outcome[0]


def _decided(asked: Asked, teams: Sequence[Team], done: Sequence[Replacement], last: int,
             round_: object, digits: int | None) -> Replaced | tuple[str, int]:
    """The player replaced (as listed) and the round from which, or why not."""
    again = next((made for made in done if made.id == asked.id), None)
    if again is not None:
        if (again.team, again.into, again.reason) == (asked.team, asked.into, asked.reason):
            return Replaced(200, again)
        return Replaced(409, issue=Issue.of_hand(None, "id", f"操作编号 {shown(asked.id)} 已用于另一次换人，这次没有记下；"
                                                             "请刷新页面后再操作"))
    if last == 0:
        return Replaced(409, issue=Issue.of_hand(None, "team", NOT_YET))
    if asked.mark != len(done):
        return Replaced(409, issue=Issue.of_hand(None, "mark", "另一台电脑刚记了一次换人，这次没有记下；请刷新页面看一下再操作"))
    problem = replacement_problem(asked, teams, done, digits)
    if problem is not None:
        return Replaced(problem[0], issue=problem[1])
    number = last if round_ is None else round_
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= last + 1:
        return Replaced(422, issue=Issue.of_hand(None, "round", f"换上的队员从第几轮起参赛：应为 1 到 {last + 1} 的整数，"
                                                                f"实际为 {shown(round_)}"))
    team = next(t for t in teams if t.id == asked.team)
    return out_as_listed(asked, team, done), number


def replace_in_folder(folder: Path, body: dict[str, object], *, address: str = "cli") -> Replaced:
    """`shuangsheng replace`: the event's pairs read (as drawn), the request made on the replacements as they stand."""
    state = open_folder(folder)
    if not state.rounds:
        raise TournamentError([NOT_YET])
    moment = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    with Ledger.open(folder) as book:
        done = replace_player(book, state.teams, {**body, "mark": len(book.replacements())}, at=moment,
                              address=address, digits=state.digits)
    return dataclasses.replace(done, digits=state.digits)
