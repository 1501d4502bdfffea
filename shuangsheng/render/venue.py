"""What the venue display (`shuangsheng show`) shows: the page data for a TV in the hall. Pure.

`build_board` takes what `shuangsheng.usecases` read and scored (the bracket chart with the team list and the
placings, and every round's score) and returns a `Board`: the registered teams, the current round's draw, the
latest results, the bracket so far and the placings. It decides nothing itself: levels, winners, 需加赛, whether
a result is final for the hall and who advances come from each table's record (`shuangsheng.table.record`) and
`shuangsheng.render.results`, the tree from `shuangsheng.knockout.bracket`; this module only picks what a TV
shows, lays the tree out in screen-sized slots and words it for the hall.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from shuangsheng.knockout.bracket import PASSED_A, Bracket, Column, Slot, SlotKind
from shuangsheng.knockout.knockout import is_final, stage_name
from shuangsheng.knockout.placings import Placings
from shuangsheng.knockout.teams import Team, in_order, number_key, shown_id, team_name
from shuangsheng.render.results import RoundResults, level_words, round_results
from shuangsheng.storage.workbook.schema import UNCHECKED
from shuangsheng.table.record import TableRecord
from shuangsheng.table.status import TableStatus

if TYPE_CHECKING:  # the folder layer reads workbooks; only its types are needed here
    from shuangsheng.render.reports import RoundScore

# The bracket view shows the latest rounds: at least two columns, more while its first column stays this short (what
# fits a 1080-line TV at 48 px) and never more columns than fit across it: three, each team's id, players and level on
# one line (four left 420 px a column at 1080p, where "✓第08组 张凤英、吴振华 10级" needs about 560). The printed 晋级图
# has the whole tree.
BRACKET_MAX_LEAVES = 6
BRACKET_MAX_COLUMNS = 3
# The bracket gets at most a third of a rotation: two rounds whose earlier one has more matches and byes than this
# would take more TV pages than that (four slots a page: 64 of a 128-team round 1 took 16 pages). Until the field is
# down to this, the chart is not shown — the draw and the results pages show every match of those rounds.
BRACKET_MOST_LEAVES = 16
# A round decided with at most this many tables, and nothing drawn after it yet, shows the round before's results on
# its page too: two results rows alone fill a quarter of the screen.
SMALL_ROUND = 2


@dataclass(frozen=True)
class TeamView:
    id: str
    name: str  # 第03组 (第003组 in a field over 99)
    players: str  # 王建国、李秀英 ('' for an id missing from the team list)
    number: str = ""  # the 组号 alone, as wide as the field's: 03 (the seat index, under its heading 组号 → 桌号)


@dataclass(frozen=True)
class TableView:
    """One table of a round: who plays, and what the score sheet says so far."""

    table: int
    a: TeamView
    b: TeamView
    third_place: bool
    status: TableStatus
    levels: tuple[str, str] | None  # (甲方, 乙方) after the last recorded hand; None before any hand
    winner: str | None  # team id, once decided or by walkover, and final for the hall (`final`)
    status_text: str  # the status in a few Chinese words for the TV: 尚未录入, 进行中, 需加赛, 第85组弃权, 未逐局核对…
    unchecked: bool = False  # decided by a lost card's 终局 cells: 未逐局核对 beside the winner
    final: bool = True  # `TableRecord.final`: scored and unchanged since, or a phone table both teams confirmed
    record: TableRecord | None = None  # the record shown

    @property
    def css(self) -> str:
        return self.status.value if self.final else "playing"

    @property
    def winner_team(self) -> TeamView | None:
        return self.a if self.winner == self.a.id else self.b if self.winner == self.b.id else None


@dataclass(frozen=True)
class Seat:
    """A line of the list by 组号 that lets a player find their table: 第07组 → 12桌 (or 轮空); `table` None for a
    bye."""

    team: TeamView
    place: str
    table: int | None = None


@dataclass(frozen=True)
class RoundView:
    number: int
    title: str  # 第2轮（半决赛）
    final: bool
    tables: tuple[TableView, ...]
    byes: tuple[TeamView, ...]
    decided: bool  # every match decided: `advancing` is complete
    advancing: tuple[TeamView, ...]  # the winners and the byes in number order (only when decided)
    waiting: tuple[int, ...]  # tables not decided yet

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every team of the round by 组号 (in number order), with its table: a player finds theirs at a glance."""
        seats = [Seat(side, f"{t.table}桌", t.table) for t in self.tables for side in (t.a, t.b)]
        seats += [Seat(b, "轮空") for b in self.byes]
        return tuple(sorted(seats, key=lambda s: number_key(s.team.id)))

    @property
    def scored(self) -> bool:
        """Anything at all recorded in this round (a hand, a walkover or a mistake to fix)."""
        return any(t.status is not TableStatus.OPEN for t in self.tables)


@dataclass(frozen=True)
class BracketNode:
    """A match or a bye of the bracket on screen. `slot` is its height in the chart, in first-column slots (a TV
    box is the same size for a match and a bye: the screen's own unit, not the printed chart's lines)."""

    key: str  # unique in the chart: '2-3' (the window's column 2, its slot 3)
    sources: tuple[str, ...]  # keys of the nodes in the column to the left its teams came from
    column: int  # 0 for the window's first column
    slot: float
    teams: tuple[TeamView, ...]  # two for a match, one for a bye
    notes: tuple[str, ...]  # per team: the level it ended on ('K级', '过A', 'A级'), '弃权', or '' while not known
    winner: str | None  # team id of the side going on (the bye's team for a bye)
    table: int | None  # None for a bye
    third_place: bool = False
    flag: str = ""  # 未逐局核对 for a match decided by a lost card's 终局 levels (shown once its winner is)


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
    updated: str = ""  # when the folder was read, HH:MM, for the page's 更新于
    # the round before a small round decided with nothing drawn after it (the semi-final's two tables, the final's
    # one): its results share that page, which would be mostly empty
    before: RoundView | None = None


def team_view(teams: Mapping[str, Team], team_id: str, digits: int) -> TeamView:
    """A team as the hall shows it, its 组号 `digits` wide (the event's width, carried by the record shown)."""
    team = teams.get(team_id)
    return TeamView(team_id, team_name(team_id, digits), "、".join(team.players) if team else "",
                    shown_id(team_id, digits))


STATUS_CN = {
    TableStatus.DECIDED: "已决出",
    TableStatus.PASSED_A: "打过A",
    TableStatus.NEEDS_PLAYOFF: "需加赛",
    TableStatus.OPEN: "尚未录入",
}


PLAYING = "进行中"


def status_text(t: TableRecord, *, final: bool = True, digits: int = 2) -> str:
    """The TV's few words on a table, in the hall's words: 尚未录入, 进行中, 需加赛, 第85组弃权, 记录核对中 (which
    cells are wrong is for the PC), 未逐局核对 for a lost card's match. A table not `final` (`TableRecord.final`:
    not scored as it stands, or a phone table still playing or not yet confirmed by both teams) is 进行中 whatever
    it holds, unless nothing is recorded at all. `digits`: how wide the field's 组号 are (`id_digits`)."""
    if not final or t.in_play:
        return STATUS_CN[TableStatus.OPEN] if t.status is TableStatus.OPEN and not t.playing else PLAYING
    if t.note:
        return UNCHECKED
    if t.status is TableStatus.WALKOVER:
        return f"{team_name(t.team(t.forfeit), digits)}弃权" if t.forfeit else "弃权"
    if t.status is TableStatus.INVALID:
        return "记录核对中"
    return STATUS_CN[t.status]


def round_view(results: RoundResults, teams: Mapping[str, Team], final: Collection[int] | None = None) -> RoundView:
    """A round as the hall sees it: `final` the tables whose result stands (None: all of them)."""
    digits = results.digits
    shown = {t.table: t.final(final is None or t.table in final) for t in results.tables}
    tables = tuple(
        TableView(
            table=t.table,
            a=team_view(teams, t.a, digits),
            b=team_view(teams, t.b, digits),
            third_place=t.third_place,
            status=t.status,
            levels=level_words(t),
            winner=t.winner if shown[t.table] else None,
            status_text=status_text(t, final=shown[t.table], digits=digits),
            unchecked=t.unchecked,
            final=shown[t.table],
            record=t,
        )
        for t in results.tables
    )
    decided = results.decided and all(shown.values())
    return RoundView(
        number=results.number,
        title=results.title,
        final=results.final,
        tables=tables,
        byes=tuple(team_view(teams, t, digits) for t in sorted(results.byes, key=number_key)),
        decided=decided,
        advancing=tuple(team_view(teams, t, digits) for t in in_order(results.advancing)) if decided else (),
        waiting=tuple(t.table for t in tables if t.winner is None),
    )


# --- the bracket so far ---


def column_title(column: Column) -> str:
    """A bracket column's short heading, to fit a TV column: 决赛, 半决赛, else 第N轮 (the stage from the round's
    size, as the knockout names it)."""
    size = sum(len(slot.entries) for slot in column.slots)
    return stage_name(size) or f"第{column.number}轮"


def _note(slot: Slot, index: int) -> str:
    """What stands after a team on the TV's bracket: its level as a level ('K级', '10级'; 过A for the winner who
    passed A, told apart from A级), 弃权, or ''. A lost card's 未逐局核对 is the node's `flag`, not a team's note."""
    entry = slot.entries[index]
    if entry.forfeited:
        return "弃权"
    if not entry.level:
        return ""
    return PASSED_A if entry.won and slot.status is TableStatus.PASSED_A else f"{entry.level}级"


def bracket_view(chart: Bracket, teams: Mapping[str, Team],
                 pending: Collection[tuple[int, int]] = ()) -> BracketView | None:
    """The rounds drawn so far, the latest of them: the last two, and earlier ones while the first column keeps within
    BRACKET_MAX_LEAVES matches and byes (at most BRACKET_MAX_COLUMNS columns). None until a second round is drawn,
    and while the round before the latest has more than BRACKET_MOST_LEAVES matches and byes (before that the draw
    and the results say it all, in fewer pages). `pending`: (round, table) not yet final, shown without a winner."""
    drawn = [c for c in chart.columns if c.drawn]
    if len(drawn) < 2 or len(drawn[-2].slots) > BRACKET_MOST_LEAVES:
        return None
    first = len(drawn) - 2
    while first > 0 and len(drawn) - first < BRACKET_MAX_COLUMNS and len(drawn[first - 1].slots) <= BRACKET_MAX_LEAVES:
        first -= 1
    window = drawn[first:]
    nodes: list[BracketNode] = []
    positions: list[list[float]] = []
    leaves = 0
    for c, column in enumerate(window):
        placed = []
        for i, slot in enumerate(column.slots):
            sources = slot.sources if c > 0 else ()
            if sources:
                position = sum(positions[c - 1][k] for k in sources) / len(sources)
            else:
                position, leaves = float(leaves), leaves + 1
            placed.append(position)
            node = _node(f"{c}-{i}", tuple(f"{c - 1}-{k}" for k in sources), c, position, slot, teams, chart.digits)
            nodes.append(replace(node, winner=None, flag="") if (column.number, node.table) in pending else node)
        positions.append(placed)
    if chart.third_place is not None and chart.third_place.round == window[-1].number:
        third = _node("third", (), len(window) - 1, float(leaves), chart.third_place, teams, chart.digits,
                      third_place=True)
        nodes.append(replace(third, winner=None, flag="") if (window[-1].number, third.table) in pending else third)
        leaves += 1
    columns = tuple((column.number, column_title(column)) for column in window)
    return BracketView(columns, tuple(sorted(nodes, key=lambda n: (n.column, n.slot))), leaves)


def _node(key: str, sources: tuple[str, ...], column: int, position: float, slot: Slot, teams: Mapping[str, Team],
          digits: int, *, third_place: bool = False) -> BracketNode:
    views = tuple(team_view(teams, e.team, digits) for e in slot.entries if e.team is not None)
    notes = tuple(_note(slot, i) for i in range(len(slot.entries))) if slot.kind is SlotKind.MATCH else ()
    table = slot.table if slot.kind is SlotKind.MATCH else None
    flag = UNCHECKED if slot.unchecked and slot.kind is SlotKind.MATCH else ""
    return BracketNode(key, sources, column, position, views, notes, slot.winner, table, third_place, flag)


# --- the whole board ---


def placings_view(placings: Placings, teams: Mapping[str, Team], digits: int) -> PlacingsView:
    def view(t: str | None) -> TeamView | None:
        return team_view(teams, t, digits) if t is not None else None

    return PlacingsView(
        placings.complete,
        view(placings.first),
        view(placings.second),
        tuple(team_view(teams, t, digits) for t in in_order(placings.third)),
        placings.notes,
    )


def build_board(chart: Bracket, scores: Sequence[RoundScore], final: Mapping[int, Collection[int]] | None = None,
                *, updated: str = "") -> Board:
    """The page data from `shuangsheng.usecases.awards.bracket`'s chart (team list, placings, the tree) and every round drawn so far,
    in order, as `shuangsheng.usecases.scoring` scored them. `final` (shuangsheng.usecases.announced): round → the tables whose result
    stands; the others show as 进行中 (None: every table stands). `updated`: when the folder was read (HH:MM)."""
    team_map = {t.id: t for t in chart.teams}
    gate = final if final is not None else {}
    digits = chart.digits  # the event's one width, as every paper prints it
    rounds = [round_view(round_results(s, team_map, digits=digits), team_map, gate.get(s.round.number) if final is not None else None)
              for s in scores]
    pending = {(r.number, t.table) for r in rounds for t in r.tables if not t.final}
    current = rounds[-1] if rounds else None
    results = next((r for r in reversed(rounds) if r.scored), None)
    placings = chart.placings
    done = placings.complete and bool(scores) and is_final(scores[-1].round) and not pending
    small = (current is not None and results is current and current.decided and len(current.tables) <= SMALL_ROUND
             and len(rounds) > 1)
    return Board(
        title=chart.title,
        teams=tuple(team_view(team_map, t.id, digits) for t in chart.teams),
        current=current,
        results=results,
        bracket=bracket_view(chart, team_map, pending),
        placings=placings_view(placings, team_map, digits) if done else None,
        updated=updated,
        before=rounds[-2] if small else None,
    )
