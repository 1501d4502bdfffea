"""What a scored round shows, table by table: the data behind the printed 第N轮成绩 and the venue display, and where
the event stands (`Progress`, for the 下一步 line). Pure.

`round_results` only gathers what the scoring already decided — each table's one record
(`shuangsheng.table.record.TableRecord`: levels, winner, status, every problem at its cell), the byes, who
advances — into a frozen record; nothing is recomputed here, and no text is laid out. Renderers (the round
results PDF, the playoff slip, the TV page) turn these records into words.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shuangsheng.knockout.bracket import level_word
from shuangsheng.knockout.checkin import Field
from shuangsheng.knockout.knockout import is_final, round_title
from shuangsheng.knockout.teams import Team
from shuangsheng.table.record import TableRecord
from shuangsheng.table.status import TableStatus

if TYPE_CHECKING:  # only their types are needed here
    from shuangsheng.render.reports import RoundScore
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
class RoundResults:
    number: int
    title: str  # '第2轮（半决赛）'
    final: bool
    tables: tuple[TableRecord, ...]  # each table's one record, as scored
    byes: tuple[str, ...]
    advancing: tuple[str, ...]  # complete once `decided`; else the winners known so far and the byes
    decided: bool
    blockers: tuple[str, ...]  # why the next round cannot be drawn yet
    next_step: NextStep
    teams: Mapping[str, Team]
    digits: int = 2  # how wide every 组号 is printed and shown: the event's one width (`EventFolder.digits`)
    verification: Verification | None = None  # score --verify: the comparison with a second entry
    field: Field | None = None  # round 1 drawn after 报到: the pairs 弃权 and the reserves who came in

    def tables_with(self, status: TableStatus) -> tuple[TableRecord, ...]:
        return tuple(t for t in self.tables if t.status is status)


def round_results(score: RoundScore, teams: Mapping[str, Team], verification: Verification | None = None,
                  field: Field | None = None, *, digits: int) -> RoundResults:
    """The round as scored (and, with `verification`, as compared with a second entry; with `field`, round 1's
    check-in), ready to render; its 组号 `digits` wide (the event's width, `EventFolder.digits`)."""
    r = score.round
    tables = tuple(m.record for m in score.matches)
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
        digits=digits,
        verification=verification,
        field=field if field is not None and field.changed else None,
    )


def level_words(t: TableRecord) -> tuple[str, str] | None:
    """Both sides' levels as printed and shown ('10', '过A'; 'A级' for A not passed), or None while there are none."""
    if t.levels is None:
        return None
    passed = t.status is TableStatus.PASSED_A
    return (level_word(t.levels.a.label, passed_a=passed and t.winner == t.a),
            level_word(t.levels.b.label, passed_a=passed and t.winner == t.b))
