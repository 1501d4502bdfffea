"""What the day's paper shares (the draw's papers in `shuangsheng.render.materials.paper`, the round's in
`shuangsheng.render.materials.results`, the end of the event's in `bracket_chart`, `announcement` and
`certificates`, and the phone pictures): how a template names a team, whose names a font warning speaks of, and
the rows of the prizes. Below them all, so none imports another for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shuangsheng.knockout.placings import Placings
from shuangsheng.knockout.teams import Team, id_digits, in_order, team_label, team_name


def players_of(teams: Mapping[str, Team], team_id: str | None) -> str:
    """'王建国、李秀英'; '' for no team or one missing from the list."""
    team = teams.get(team_id) if team_id is not None else None
    return "、".join(team.players) if team else ""


def prize_rows(placings: Placings) -> list[tuple[str, str | None]]:
    """(prize, team id or None while unknown): 一等奖, 二等奖, then each 三等奖."""
    rows: list[tuple[str, str | None]] = [("一等奖", placings.first), ("二等奖", placings.second)]
    rows += [("三等奖", t) for t in in_order(placings.third)] or [("三等奖", None)]
    return rows


def team_context(teams: Mapping[str, Team], digits: int) -> dict[str, object]:
    """What a template of the day's paper may call to name a team: team_id, players, team_label; and in_order,
    a list of team ids in number order. A 组号 is `digits` wide: the event's width (`EventFolder.digits`, three
    digits in a field over 99), carried by the record the paper prints."""
    return {
        "team_id": lambda t: team_name(t, digits),
        "players": lambda t: players_of(teams, t),
        "team_label": lambda t: team_label(teams, t, digits),
        "in_order": in_order,
    }


def event_width(teams: Iterable[Team], digits: int | None) -> int:
    """How wide a paper given a list of teams prints their 组号: `digits`, the event's width (`EventFolder.digits`,
    passed by every use-case), else as wide as `teams` make them (a paper made on its own from a whole team list)."""
    return id_digits(t.id for t in teams) if digits is None else digits


def team_members(team_id: str | None, digits: int = 2) -> str | None:
    """'第03组的队员' ('第003组的队员' with three `digits`): whose names a text is, for a font's warning about a
    character it cannot print."""
    return f"{team_name(team_id, digits)}的队员" if team_id else None
