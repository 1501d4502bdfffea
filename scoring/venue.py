"""What the venue display (`shuangsheng show`) shows: the page data for a TV in the hall. Pure.

`build_board` takes what `scoring.tournament` read and scored (the team list, every round's score, the placings)
and returns a `Board`: the registered teams, the current round's draw, the latest results, the bracket so far and
the placings. It decides nothing itself: levels, winners, 需加赛 and who advances come from `scoring.results`
and the knockout; this module only picks what a TV shows and words it for the hall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scoring.knockout import Placings, is_final
from scoring.results import RoundResults, TableResult, TableStatus, round_results
from scoring.teams import Team, team_name

if TYPE_CHECKING:  # the folder layer reads workbooks; only its types are needed here
    from scoring.tournament import RoundScore

BRACKET_MAX_LEAVES = 16  # the bracket view shows as many of the latest rounds as keep its first column this short
BRACKET_MAX_COLUMNS = 4  # and never more columns than fit across a TV at readable size


@dataclass(frozen=True)
class TeamView:
    id: str
    name: str  # 第03组
    players: str  # 王建国、李秀英 ('' for an id missing from the team list)


@dataclass(frozen=True)
class TableView:
    """One table of a round: who plays, and what the score sheet says so far."""

    table: int
    a: TeamView
    b: TeamView
    third_place: bool
    state: TableStatus
    levels: tuple[str, str] | None  # (甲方, 乙方) after the last recorded hand; None before any hand
    winner: str | None  # team id, once decided or by walkover
    status: str  # short Chinese wording for the TV: 尚未录入, 需加赛, 乙方弃权, 记录核对中…

    @property
    def winner_team(self) -> TeamView | None:
        return self.a if self.winner == self.a.id else self.b if self.winner == self.b.id else None


@dataclass(frozen=True)
class RoundView:
    number: int
    title: str  # 第2轮（半决赛）
    final: bool
    tables: tuple[TableView, ...]
    byes: tuple[TeamView, ...]
    decided: bool  # every match decided: `advancing` is complete
    advancing: tuple[TeamView, ...]  # the winners by table, then the byes (only when decided)
    waiting: tuple[int, ...]  # tables not decided yet

    @property
    def scored(self) -> bool:
        """Anything at all recorded in this round (a hand, a walkover or a mistake to fix)."""
        return any(t.state is not TableStatus.OPEN for t in self.tables)


@dataclass(frozen=True)
class BracketNode:
    """A match or a bye in one round of the bracket; `slot` is its height in the chart (first-column units)."""

    key: str  # unique in the chart: '2-3' (round 2, table 3), '2-bye-05'
    sources: tuple[str, ...]  # keys of the nodes in the column to the left its teams came from
    round: int
    slot: float
    teams: tuple[TeamView, ...]  # two for a match, one for a bye
    levels: tuple[str, ...] | None  # per team, once a hand is recorded
    winner: str | None  # team id of the side going on (the bye's team for a bye)
    table: int | None  # None for a bye
    third_place: bool = False


@dataclass(frozen=True)
class BracketView:
    columns: tuple[tuple[int, str], ...]  # (round number, title) left to right
    nodes: tuple[BracketNode, ...]
    slots: int  # first-column slots: the chart's height


@dataclass(frozen=True)
class PlacingsView:
    complete: bool
    first: TeamView | None
    second: TeamView | None
    third: tuple[TeamView, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    title: str
    teams: tuple[TeamView, ...]
    current: RoundView | None  # the latest round drawn
    results: RoundView | None  # the latest round with anything scored
    bracket: BracketView | None  # once a second round is drawn
    placings: PlacingsView | None  # once the event is complete


def team_view(teams: Mapping[str, Team], team_id: str) -> TeamView:
    team = teams.get(team_id)
    return TeamView(team_id, team_name(team_id), "、".join(team.players) if team else "")


STATUS_CN = {
    TableStatus.DECIDED: "已决出",
    TableStatus.PASSED_A: "打过A",
    TableStatus.NEEDS_PLAYOFF: "需加赛",
    TableStatus.OPEN: "尚未录入",
}


def table_status(t: TableResult) -> str:
    """The TV's few words on a table: 尚未录入, 需加赛, 乙方弃权, 记录核对中 (which cells are wrong is for the PC)."""
    if t.status is TableStatus.WALKOVER:
        return f"{t.forfeit.team}弃权" if t.forfeit else "弃权"
    if t.status is TableStatus.INVALID:
        return "记录核对中"
    return STATUS_CN[t.status]


def _levels(t: TableResult) -> tuple[str, str] | None:
    return (t.levels.a.label, t.levels.b.label) if t.levels is not None else None


def round_view(results: RoundResults, teams: Mapping[str, Team]) -> RoundView:
    tables = tuple(
        TableView(
            table=t.table,
            a=team_view(teams, t.a),
            b=team_view(teams, t.b),
            third_place=t.third_place,
            state=t.status,
            levels=_levels(t),
            winner=t.winner,
            status=table_status(t),
        )
        for t in results.tables
    )
    return RoundView(
        number=results.number,
        title=results.title,
        final=results.final,
        tables=tables,
        byes=tuple(team_view(teams, t) for t in results.byes),
        decided=results.decided,
        advancing=tuple(team_view(teams, t) for t in results.advancing) if results.decided else (),
        waiting=tuple(t.table for t in results.tables if t.winner is None),
    )


# --- the bracket so far ---


def column_title(r: RoundResults) -> str:
    """A bracket column's short heading: 决赛, 半决赛, else 第N轮 (the stage from the round's size, as the knockout
    names it)."""
    size = 2 * sum(not t.third_place for t in r.tables) + len(r.byes)
    return {2: "决赛", 3: "半决赛", 4: "半决赛"}.get(size, f"第{r.number}轮")


def _bracket(rounds: Sequence[RoundResults], teams: Mapping[str, Team]) -> BracketView:
    """The latest rounds as a tree: each match (or bye) sits between the two earlier matches (or byes) its teams
    came from. Rounds are drawn again by lot, so earlier columns are ordered to fit under the later ones."""
    # In each round, the table (or, for a bye, the team id) every team played at; the 3rd-place match stands apart.
    where: list[dict[str, TableResult | str]] = []
    for r in rounds:
        entry: dict[str, TableResult | str] = {}
        for t in r.tables:
            if not t.third_place:
                entry[t.a] = entry[t.b] = t
        for team in r.byes:
            entry[team] = team
        where.append(entry)

    def slots_from(index: int) -> int:
        """The chart's height when it starts at round `index`: one slot per match or bye there."""
        return len({id(node) for node in where[index].values()})

    last = len(rounds) - 1
    first = last
    while first > 0 and last - first + 1 < BRACKET_MAX_COLUMNS and slots_from(first - 1) <= BRACKET_MAX_LEAVES:
        first -= 1

    nodes: list[BracketNode] = []
    next_leaf = 0

    def key(index: int, item: TableResult | str) -> str:
        number = rounds[index].number
        return f"{number}-bye-{item}" if isinstance(item, str) else f"{number}-{item.table}"

    def place(index: int, item: TableResult | str) -> float:
        """Add the node and, first, the nodes its teams came from; return its slot."""
        nonlocal next_leaf
        ids = (item,) if isinstance(item, str) else (item.a, item.b)
        children: list[TableResult | str] = []
        if index > first:
            for team in ids:
                child = where[index - 1].get(team)
                if child is not None and all(c is not child for c in children):
                    children.append(child)
        slots = [place(index - 1, c) for c in children]
        if slots:
            slot = sum(slots) / len(slots)
        else:
            slot, next_leaf = float(next_leaf), next_leaf + 1
        views = tuple(team_view(teams, t) for t in ids)
        sources = tuple(key(index - 1, c) for c in children)
        if isinstance(item, str):
            nodes.append(BracketNode(key(index, item), sources, rounds[index].number, slot, views, None, item, None))
        else:
            nodes.append(
                BracketNode(
                    key(index, item), sources, rounds[index].number, slot, views, _levels(item), item.winner,
                    item.table, item.third_place,
                )
            )
        return slot

    latest = rounds[last]
    for t in latest.tables:
        if not t.third_place:
            place(last, t)
    for team in latest.byes:
        place(last, team)
    for t in latest.tables:  # the 3rd-place match sits below the final, in a slot of its own
        if t.third_place:
            nodes.append(
                BracketNode(
                    key(last, t), (), latest.number, float(next_leaf), (team_view(teams, t.a), team_view(teams, t.b)),
                    _levels(t), t.winner, t.table, True,
                )
            )
            next_leaf += 1
    columns = tuple((r.number, column_title(r)) for r in rounds[first:])
    ordered = sorted(nodes, key=lambda n: (n.round, n.slot))
    return BracketView(columns, tuple(ordered), next_leaf)


# --- the whole board ---


def placings_view(placings: Placings, teams: Mapping[str, Team]) -> PlacingsView:
    def view(t: str | None) -> TeamView | None:
        return team_view(teams, t) if t is not None else None

    return PlacingsView(
        placings.complete,
        view(placings.first),
        view(placings.second),
        tuple(team_view(teams, t) for t in placings.third),
        placings.notes,
    )


def build_board(title: str, teams: Sequence[Team], scores: Sequence[RoundScore], placings: Placings) -> Board:
    """The page data: `scores` are every round drawn so far, in order, as `scoring.tournament` scored them."""
    team_map = {t.id: t for t in teams}
    scored = [round_results(s, team_map) for s in scores]
    rounds = [round_view(r, team_map) for r in scored]
    current = rounds[-1] if rounds else None
    results = next((r for r in reversed(rounds) if r.scored), None)
    bracket = _bracket(scored, team_map) if len(scored) >= 2 else None
    done = placings.complete and bool(scores) and is_final(scores[-1].round)
    return Board(
        title=title,
        teams=tuple(team_view(team_map, t.id) for t in teams),
        current=current,
        results=results,
        bracket=bracket,
        placings=placings_view(placings, team_map) if done else None,
    )
