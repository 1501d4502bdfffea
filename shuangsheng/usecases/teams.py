"""The console's 报名 page: teams.xlsx as a table with its problems at their cells, and a team added or corrected
(`shuangsheng.storage.workbook.teams_edit`), each edit made while holding the event folder as every file-writing
command does (`shuangsheng.usecases.holding.held`). Reads and writes teams.xlsx (and its dated copy) only."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from shuangsheng.storage.names import TEAMS_FILE
from shuangsheng.storage.workbook import teams_edit
from shuangsheng.storage.workbook.teams_edit import TeamEdit, TeamTable
from shuangsheng.usecases.holding import held


def team_table(folder: Path) -> TeamTable:
    """teams.xlsx of the event in `folder` as the page shows it (`teams_edit.read_team_table`)."""
    return teams_edit.read_team_table(folder / TEAMS_FILE)


def add_team(folder: Path, row: Mapping[str, str], fingerprint: str, *, patience: float | None = None,
             waiting: Callable[[str], None] | None = None) -> TeamEdit:
    """A new team at the end of teams.xlsx (`teams_edit.add_team`), holding the folder as every front end does
    (`usecases.holding.held`: `patience` seconds for a command holding it, `waiting` told who holds it meanwhile,
    then `FolderBusy` naming it)."""
    with held(folder, patience=patience, waiting=waiting):
        return teams_edit.add_team(folder / TEAMS_FILE, row, fingerprint)


def correct_team(folder: Path, team_id: str, row: Mapping[str, str], fingerprint: str, *,
                 patience: float | None = None, waiting: Callable[[str], None] | None = None) -> TeamEdit:
    """The team `team_id` of teams.xlsx corrected (`teams_edit.correct_team`), holding the folder as `add_team` does."""
    with held(folder, patience=patience, waiting=waiting):
        return teams_edit.correct_team(folder / TEAMS_FILE, team_id, row, fingerprint)
