"""Where the event stands, for the 下一步 line a command ends with when it looks back at an earlier step
(`score --round 1` after round 2 is drawn, `materials` on the day): reads the folder as `score` does (`shuangsheng.usecases.score`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shuangsheng.render.results import Progress, round_results
from shuangsheng.storage.names import rounds_drawn
from shuangsheng.storage.workbook import RoundSheet
from shuangsheng.usecases.score import score
from shuangsheng.vocabulary.errors import UserError


def progress(folder: Path, known: Sequence[RoundSheet] = ()) -> Progress:
    """How many rounds are drawn and what the latest one needs; reads every round only when one is drawn (`known`:
    the rounds the command has read already, not parsed again while their files are as they were)."""
    drawn = rounds_drawn(folder)
    if not drawn:
        return Progress(0, None)
    try:
        report = score(folder, known=known)
    except UserError as exc:  # said in the 下一步 line: a command that does not read rounds would not name it
        return Progress(drawn, None, next(iter(exc.messages), None))
    return Progress(drawn, round_results(report.score, report.teams, digits=report.digits).next_step)
