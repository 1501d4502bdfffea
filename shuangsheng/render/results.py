"""What a scored round shows, table by table: the data behind the printed 第N轮成绩 and the venue display, and where
the event stands (`Progress`, for the 下一步 line). Pure.

`round_results` only gathers what the engine, the workbook reader and the knockout already decided (levels,
winner, status, every problem at its cell, the byes, who advances) into frozen records; nothing is recomputed
here, and no text is laid out. Renderers (the round results PDF, the playoff slip, the TV page) turn these
records into words.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shuangsheng.game.levels import Level, Levels, Side
from shuangsheng.knockout.knockout import is_final, round_title
from shuangsheng.knockout.teams import Team
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import Issue

if TYPE_CHECKING:  # only their types are needed here
    from shuangsheng.render.reports import MatchScore, RoundScore
    from shuangsheng.storage.workbook.verify import Verification


class NextStep(str, enum.Enum):
    """What the organiser does next with this round."""

    ENTER = "enter"  # some tables have no record yet
    FIX = "fix"  # errors to fix in the workbook
    PLAYOFF = "playoff"  # tied tables play 加赛 hands
    DRAW = "draw"  # every match decided: draw the next round
    AWARDS = "awards"  # the final is decided: the placings


@dataclass(frozen=True)
class Progress:
    drawn: int  # rounds drawn so far (round-1.xlsx, round-2.xlsx, … without a gap)
    latest: NextStep | None  # what the latest round needs next (AWARDS: the event is over); None: it cannot be read
    problem: str | None = None  # why it cannot be read (the first line of the error), for the 下一步 line

    @property
    def over(self) -> bool:
        return self.latest is NextStep.AWARDS


@dataclass(frozen=True)
class Playoff:
    """A tied table's 加赛: the level both sides are on and who deals the first 加赛 hand."""

    level: Level
    first_dealer: Side
    played: int  # 加赛 hands already recorded


@dataclass(frozen=True)
class TableResult:
    table: int
    third_place: bool
    a: str
    b: str
    status: TableStatus
    levels: Levels | None  # after the last recorded hand; None without hands
    winner: str | None
    forfeit: Side | None  # the side that forfeited (walkover)
    hands: int  # regular hands recorded
    playoff_hands: int
    tied_at_time: bool  # levels equal when time was up (whether or not 加赛 has decided it since)
    playoff: Playoff | None  # set while 加赛 is still to be played
    errors: tuple[Issue, ...]  # the reader's and the engine's, each at its cell
    note: str = ""  # '未逐局核对（记分卡遗失）': decided by the 终局 cells of a lost card, no hand checked
    source: str = "paper"  # "paper", "phone", "both" or "final_only" (docs/README.md)
    confirmed: bool = False  # a phone table both teams accepted (locked)

    @property
    def playing(self) -> bool:
        """Entered by phone and not over yet: 进行中 with its current levels."""
        return self.source == "phone" and self.status is TableStatus.OPEN

    def team(self, side: Side) -> str:
        return self.a if side is Side.A else self.b


@dataclass(frozen=True)
class RoundResults:
    number: int
    title: str  # '第2轮（半决赛）'
    final: bool
    tables: tuple[TableResult, ...]
    byes: tuple[str, ...]
    advancing: tuple[str, ...]  # complete once `decided`; else the winners known so far and the byes
    decided: bool
    blockers: tuple[str, ...]  # why the next round cannot be drawn yet
    next_step: NextStep
    teams: Mapping[str, Team]
    verification: Verification | None = None  # score --verify: the comparison with a second entry

    def tables_with(self, status: TableStatus) -> tuple[TableResult, ...]:
        return tuple(t for t in self.tables if t.status is status)


def table_result(m: MatchScore) -> TableResult:
    p = m.match.pairing
    result = m.result
    outcomes = result.outcomes if result is not None else ()
    status = m.outcome.status
    playoff = None
    if status is TableStatus.NEEDS_PLAYOFF:
        assert result is not None and result.next_dealer is not None
        playoff = Playoff(result.levels.a, result.next_dealer, sum(o.playoff for o in outcomes))
    return TableResult(
        table=p.table,
        third_place=p.third_place,
        a=p.a,
        b=p.b,
        status=status,
        levels=result.levels if result is not None and (outcomes or m.unchecked) else None,
        winner=m.outcome.winner,
        forfeit=m.match.walkover,
        hands=sum(not o.playoff for o in outcomes),
        playoff_hands=sum(o.playoff for o in outcomes),
        tied_at_time=bool(result is not None and result.time_up is not None and result.time_up.tied),
        playoff=playoff,
        errors=tuple(m.problems),
        note=m.note,
        source=m.source.value,
        confirmed=m.confirmed,
    )


def round_results(score: RoundScore, teams: Mapping[str, Team],
                  verification: Verification | None = None) -> RoundResults:
    """The round as scored (and, with `verification`, as compared with a second entry), ready to render."""
    r = score.round
    tables = tuple(table_result(m) for m in score.matches)
    adv = score.advancement
    statuses = {t.status for t in tables}
    if TableStatus.INVALID in statuses or (verification is not None and not verification.agree):
        step = NextStep.FIX
    elif TableStatus.OPEN in statuses:
        step = NextStep.ENTER
    elif TableStatus.NEEDS_PLAYOFF in statuses:
        step = NextStep.PLAYOFF
    elif is_final(r):
        step = NextStep.AWARDS
    else:
        step = NextStep.DRAW
    return RoundResults(
        number=r.number,
        title=round_title(r.number, len(r.pool)),
        final=is_final(r),
        tables=tables,
        byes=r.byes,
        advancing=adv.advancing,
        decided=adv.decided,
        blockers=tuple(b.message for b in adv.blockers),
        next_step=step,
        teams=dict(teams),
        verification=verification,
    )
