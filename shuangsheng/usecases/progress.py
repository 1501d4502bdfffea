"""Where the event stands, for the 下一步 line a command ends with when it looks back at an earlier step
(`score --round 1` after round 2 is drawn, `materials` on the day): reads the folder through `shuangsheng.usecases.tournament`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from shuangsheng.render.results import NextStep, round_results
from shuangsheng.usecases import tournament
from shuangsheng.vocabulary.errors import UserError


@dataclass(frozen=True)
class Progress:
    drawn: int  # rounds drawn so far (round-1.xlsx, round-2.xlsx, … without a gap)
    latest: NextStep | None  # what the latest round needs next (AWARDS: the event is over); None: it cannot be read
    problem: str | None = None  # why it cannot be read (the first line of the error), for the 下一步 line

    @property
    def over(self) -> bool:
        return self.latest is NextStep.AWARDS


def progress(folder: Path) -> Progress:
    """How many rounds are drawn and what the latest one needs; reads every round only when one is drawn."""
    drawn = tournament.rounds_drawn(folder)
    if not drawn:
        return Progress(0, None)
    try:
        report = tournament.score(folder)
    except UserError as exc:  # said in the 下一步 line: a command that does not read rounds would not name it
        return Progress(drawn, None, next(iter(exc.messages), None))
    return Progress(drawn, round_results(report.score, report.teams).next_step)
