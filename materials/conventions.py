"""What the day's paper shares (the draw's papers in `materials.paper`, the round's in `materials.results`): how
a template names a team, and `Papers`, what a command wrote. Below both, so neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from scoring.teams import Team, team_label, team_name


def players_of(teams: Mapping[str, Team], team_id: str | None) -> str:
    """'王建国、李秀英'; '' for no team or one missing from the list."""
    team = teams.get(team_id) if team_id is not None else None
    return "、".join(team.players) if team else ""


def team_context(teams: Mapping[str, Team]) -> dict[str, object]:
    """What a template of the day's paper may call to name a team: team_id, players, team_label."""
    return {
        "team_id": team_name,
        "players": lambda t: players_of(teams, t),
        "team_label": lambda t: team_label(teams, t),
    }


@dataclass(frozen=True)
class Papers:
    """What was written, and every warning (Chinese) the CLI should show on stderr."""

    paths: tuple[Path, ...]
    warnings: tuple[str, ...]
