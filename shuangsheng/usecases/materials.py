"""`materials`: the seven printed materials written into the event folder (`shuangsheng.usecases.papers.materials`),
from event.toml and the team list as it stands — a list with mistakes prints blank forms and says what to fix."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.render.results import Progress
from shuangsheng.storage.event import load
from shuangsheng.storage.files import Written
from shuangsheng.storage.names import TEAMS_FILE
from shuangsheng.storage.workbook import WorkbookError, holds_no_teams, read_teams
from shuangsheng.usecases.holding import held
from shuangsheng.usecases.papers.materials import build_all
from shuangsheng.usecases.progress import progress
from shuangsheng.vocabulary.errors import Issue


@dataclass(frozen=True, kw_only=True)
class MaterialsMade:
    written: Written
    teams: int  # teams listed (0: none yet, or the list cannot be read)
    blank: bool  # the list holds nobody yet: the forms were printed blank
    team_problems: tuple[Issue, ...]  # the list's mistakes (the forms were printed blank): exit 1
    progress: Progress  # where the event stands (materials may be printed again on the day)


def make_materials(folder: Path, *, font: str | None = None, lots: int | None = None, force: bool = False,
                   patience: float | None = None, waiting: Callable[[str], None] | None = None) -> MaterialsMade:
    """Write the materials; raises UserError when event.toml cannot be read or a PDF cannot be written.
    `patience` and `waiting`: how long to wait for another command holding the folder, and who is told who."""
    event = load(folder)
    teams_file = folder / TEAMS_FILE
    teams = None
    problems: tuple[Issue, ...] = ()
    blank = False
    if teams_file.exists():
        try:
            teams = read_teams(teams_file)
        except WorkbookError as exc:  # nobody listed yet is no error; a list with mistakes is
            blank = holds_no_teams(teams_file)
            problems = () if blank else exc.issues
    with held(folder, patience=patience, waiting=waiting):
        built = build_all(folder, event, teams, font=font, lots=lots, force=force)
    return MaterialsMade(written=built, teams=len(teams or ()), blank=blank, team_problems=problems,
                         progress=progress(folder))
