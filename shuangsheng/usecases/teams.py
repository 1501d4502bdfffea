"""The console's 报名 page: teams.xlsx as a table with its problems at their cells, and a team added or corrected
(`shuangsheng.storage.workbook.teams_edit`), each edit made while holding the event folder as every file-writing
command does (a command running meanwhile is waited for, then named). Reads and writes teams.xlsx (and its dated
copy) only."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from shuangsheng.storage.ledger.lock import exclusive
from shuangsheng.storage.names import TEAMS_FILE
from shuangsheng.storage.workbook import teams_edit
from shuangsheng.storage.workbook.teams_edit import TeamEdit, TeamTable


def team_table(folder: Path) -> TeamTable:
    """teams.xlsx of the event in `folder` as the page shows it (`teams_edit.read_team_table`)."""
    return teams_edit.read_team_table(folder / TEAMS_FILE)


def add_team(folder: Path, row: Mapping[str, str], fingerprint: str, *, wait: float | None = None) -> TeamEdit:
    """A new team at the end of teams.xlsx (`teams_edit.add_team`), holding the folder (`wait`: seconds to wait for a
    command holding it, then `FolderBusy` naming it)."""
    with exclusive(folder, wait=wait):
        return teams_edit.add_team(folder / TEAMS_FILE, row, fingerprint)


def correct_team(folder: Path, team_id: str, row: Mapping[str, str], fingerprint: str, *,
                 wait: float | None = None) -> TeamEdit:
    """The team `team_id` of teams.xlsx corrected (`teams_edit.correct_team`), holding the folder as `add_team` does."""
    with exclusive(folder, wait=wait):
        return teams_edit.correct_team(folder / TEAMS_FILE, team_id, row, fingerprint)
