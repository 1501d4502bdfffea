"""Teams (参赛组): a 组号 and two players. Pure validation; reading teams.xlsx is `scoring.workbook`'s job."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Team:
    id: str  # the 组号 as text, e.g. "03"
    players: tuple[str, str]
    phone: str = ""
    note: str = ""

    @property
    def label(self) -> str:
        """第03组（张三、李四）"""
        return f"{team_name(self.id)}（{'、'.join(self.players)}）"


def canonical_id(text: str) -> str:
    """A 组号 written one way everywhere: digits get at least two ('9' → '09', '009' → '09', '12' and '123' stay);
    any other text is kept as it is."""
    return f"{int(text):02d}" if text.isascii() and text.isdigit() else text


def team_name(team_id: str) -> str:
    """'03' → '第03组'; '9' → '第09组'."""
    return f"第{canonical_id(team_id)}组"


def team_label(teams: Mapping[str, Team], team_id: str | None) -> str:
    """第03组（张三、李四）; just 第03组 for an id not in `teams`; （待定） for none yet."""
    if team_id is None:
        return "（待定）"
    team = teams.get(team_id)
    return team.label if team else team_name(team_id)


@dataclass(frozen=True)
class TeamRow:
    """One row as typed, with where it came from (e.g. '报名表!A5' → row 5) for error messages."""

    row: int
    id: str
    player1: str
    player2: str
    phone: str = ""
    note: str = ""


@dataclass(frozen=True)
class TeamProblem:
    row: int
    column: str  # '组号', '队员1', '队员2', …
    message: str


def clean_name(text: str) -> str:
    """Trim and fold inner runs of spaces (full-width too): '  张 三 ' → '张 三'."""
    return " ".join(text.replace("\u3000", " ").split())


def same_person(name: str) -> str:
    """The key two spellings of one name share: '张 一' (padded to line up with three-character names) is '张一'."""
    return "".join(name.split())


def validate_teams(rows: Sequence[TeamRow]) -> tuple[tuple[Team, ...], tuple[TeamProblem, ...]]:
    """Teams in row order, and every problem with its row: ids unique, two different players, no player twice."""
    problems: list[TeamProblem] = []
    teams: list[Team] = []
    id_rows: dict[str, int] = {}
    player_rows: dict[str, tuple[int, str]] = {}
    for r in rows:
        tid = canonical_id(clean_name(r.id))
        p1, p2 = clean_name(r.player1), clean_name(r.player2)
        ok = True
        if not tid:
            problems.append(TeamProblem(r.row, "组号", "组号不能为空"))
            ok = False
        elif tid in id_rows:
            problems.append(TeamProblem(r.row, "组号", f"组号“{tid}”与第{id_rows[tid]}行重复"))
            ok = False
        else:
            id_rows[tid] = r.row
        for column, name in (("队员1", p1), ("队员2", p2)):
            if not name:
                problems.append(TeamProblem(r.row, column, "每组应有两名队员，此处为空"))
                ok = False
        if p1 and same_person(p1) == same_person(p2):
            problems.append(TeamProblem(r.row, "队员2", f"两名队员是同一人“{p1}”"))
            ok = False
        for column, name in (("队员1", p1), ("队员2", p2)):
            if not name or (column == "队员2" and same_person(name) == same_person(p1)):
                continue
            if same_person(name) in player_rows:
                other_row, other_team = player_rows[same_person(name)]
                problems.append(
                    TeamProblem(r.row, column, f"队员“{name}”已在第{other_row}行（{team_name(other_team)}）报名，每人只能参加一组")
                )
                ok = False
            else:
                player_rows[same_person(name)] = (r.row, tid)
        if ok:
            teams.append(Team(tid, (p1, p2), clean_name(r.phone), r.note.strip()))
    return tuple(teams), tuple(problems)
