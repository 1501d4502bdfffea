"""The bracket chart (晋级图) as data: every round a column, every match placed between the two earlier matches
(or byes) its teams came from. Pure: built from the knockout's rounds and outcomes (and the levels the engine
found); the PDF (`shuangsheng/render/materials/bracket_chart.py`) and the venue display render the same `Bracket`, so neither decides
anything about the knockout itself.

Geometry is in abstract *lines* (one team's line of text). The first column is stacked top to bottom: a match
takes 2 lines, a bye 1, with `GAP` lines between neighbours; `Bracket.height` is the total. Every later slot is
centred (`Slot.y`) on the mean centre of the slots its teams came from (`Slot.sources`, indices into the previous
column), so lines can be drawn from each source to it. The order of the first column follows from the last drawn
round backwards, which is what makes every match sit between its sources although every round is drawn anew.

Rounds not drawn yet are columns of blank slots (`Slot.kind` PENDING) that pair the previous column's slots in
order; their shape follows `[format] byes`. A drawn match not yet decided has its teams and no winner; levels
appear once the engine has them. The 3rd-place match (third_place = "playoff") is kept apart
(`Bracket.third_place`): it does not fit the tree.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from shuangsheng.game.levels import Levels, Side
from shuangsheng.knockout.knockout import MatchOutcome, Pairing, Round, bye_count, round_title
from shuangsheng.knockout.placings import Placings, placings
from shuangsheng.knockout.teams import Team, id_digits
from shuangsheng.storage.event import Byes, ThirdPlace
from shuangsheng.table.status import TableStatus

GAP = 0.5  # lines between two neighbouring slots of the first column


class SlotKind(str, enum.Enum):
    MATCH = "match"  # two teams at a table
    BYE = "bye"  # one team going straight on
    PENDING = "pending"  # a round not drawn yet: teams unknown


@dataclass(frozen=True)
class Entry:
    """One team's line in a slot: `team` None while unknown; `level` its level at the end of the match (None
    while not played, for a bye or a walkover); `won` once the slot is decided; `forfeited` for a walkover."""

    team: str | None
    level: str | None = None
    won: bool = False
    forfeited: bool = False


@dataclass(frozen=True, kw_only=True)
class Slot:
    """A match, a bye or a blank of one column. `entries` has two lines for a match (甲方 first), one for a bye,
    and two (or one) empty lines while PENDING. `sources` index the previous column's slots the entries came from
    (same order). `status` is the match's status (None for a bye or a blank); `y` its centre in lines."""

    kind: SlotKind
    round: int
    table: int | None
    entries: tuple[Entry, ...]
    sources: tuple[int, ...]
    y: float
    status: TableStatus | None = None
    unchecked: bool = False  # decided by a lost card's 终局 levels: marked 未逐局核对 beside its winner
    playoff_hands: int = 0  # the 加赛 hands that decided it (its record's, once it has a winner), said with the winner

    @property
    def winner(self) -> str | None:
        """The team that goes on: the winner of a decided match, the team of a bye."""
        if self.kind is SlotKind.BYE:
            return self.entries[0].team
        return next((e.team for e in self.entries if e.won), None)

    @property
    def height(self) -> int:
        """Lines the slot takes: 2 for a match, 1 for a bye."""
        return len(self.entries)


@dataclass(frozen=True)
class Column:
    """One round: `title` like '第2轮（半决赛）'; `drawn` False for a round still to be drawn."""

    number: int
    title: str
    drawn: bool
    slots: tuple[Slot, ...]


@dataclass(frozen=True)
class Bracket:
    """The whole chart. `teams` gives names for the ids; `placings` the prizes so far."""

    title: str
    columns: tuple[Column, ...]
    third_place: Slot | None
    placings: Placings
    teams: tuple[Team, ...]
    height: float
    digits: int = 2  # how wide every 组号 on it is printed and shown: the event's one width (`id_digits`)

    def team(self, team_id: str | None) -> Team | None:
        return next((t for t in self.teams if t.id == team_id), None)

    @property
    def field(self) -> int:
        """Teams in the event."""
        return len(self.teams)


# --- how a line reads, for every renderer ---


UNCHECKED_MARK = " 未逐局核对"
PASSED_A = "过A"  # the winner who passed A; a team at A that did not is at A级


def level_word(label: str, *, passed_a: bool) -> str:
    """A level in a pair of levels ('10：过A', 'K：A级'): 过A for the winner who passed A, A级 for a team at A
    that did not, so that the two are told apart wherever levels stand bare; any other level as it is."""
    if passed_a:
        return PASSED_A
    return f"{label}级" if label == "A" else label


def entry_note(slot: Slot, entry: Entry) -> str:
    """What stands after a team's name: its level ('K级'), '过A' for the winner who passed A (another team may
    have reached A without passing it: 'A级'), '弃权', '轮空', or '' while not known."""
    if slot.kind is SlotKind.BYE:
        return "轮空"
    if entry.forfeited:
        return "弃权"
    if entry.won and slot.status is TableStatus.PASSED_A:
        return PASSED_A
    if entry.level is not None:
        return f"{entry.level}级{UNCHECKED_MARK if slot.unchecked and entry.won else ''}"
    if slot.status is TableStatus.NEEDS_PLAYOFF:
        return "需加赛"
    return ""


# --- building ---


def _slot_of(round_: Round, pairing: Pairing, outcome: MatchOutcome | None, levels: Levels | None,
             unchecked: bool = False, playoff_hands: int = 0) -> Slot:
    status = outcome.status if outcome is not None else TableStatus.OPEN
    winner = outcome.winner if outcome is not None and status.has_winner else None
    forfeit = None
    if status is TableStatus.WALKOVER and winner is not None:
        forfeit = pairing.b if winner == pairing.a else pairing.a
    entries = []
    for side, team in ((Side.A, pairing.a), (Side.B, pairing.b)):
        level = levels[side].label if levels is not None and status is not TableStatus.WALKOVER else None
        entries.append(Entry(team, level, won=winner == team, forfeited=forfeit == team))
    return Slot(kind=SlotKind.MATCH, round=round_.number, table=pairing.table, entries=tuple(entries), sources=(),
                y=0.0, status=status, unchecked=unchecked and winner is not None,
                playoff_hands=playoff_hands if winner is not None else 0)


def _drawn_slots(
    round_: Round, outcomes: Sequence[MatchOutcome], levels: Mapping[int, Levels], unchecked: Collection[int] = (),
    playoff_hands: Mapping[int, int] | None = None,
) -> tuple[list[Slot], Slot | None]:
    by_table = {o.table: o for o in outcomes}
    playoffs = playoff_hands or {}
    slots, third = [], None
    for p in round_.pairings:
        slot = _slot_of(round_, p, by_table.get(p.table), levels.get(p.table), p.table in unchecked,
                        playoffs.get(p.table, 0))
        if p.third_place:
            third = slot
        else:
            slots.append(slot)
    for team in round_.byes:
        slots.append(Slot(kind=SlotKind.BYE, round=round_.number, table=None, entries=(Entry(team),), sources=(),
                          y=0.0))
    return slots, third


def _order(columns: list[list[Slot]]) -> list[list[Slot]]:
    """Reorder every drawn column so each slot's sources are its previous column's slots in order, and set
    `sources`. Works back from the last column, which keeps its own order (tables, then byes)."""
    ordered = [columns[-1]]
    for previous in reversed(columns[:-1]):
        came_from: dict[str | None, Slot] = {s.winner: s for s in previous if s.winner is not None}
        later, new_order, used = ordered[0], list[Slot](), set[int]()
        linked = []
        for slot in later:
            sources = []
            for entry in slot.entries:
                source = came_from.get(entry.team)
                if source is not None and id(source) not in used:
                    used.add(id(source))
                    sources.append(len(new_order))
                    new_order.append(source)
            linked.append(replace(slot, sources=tuple(sources)))
        # slots whose winner is not known yet (their round still open) keep their place at the end
        new_order += [s for s in previous if id(s) not in used]
        ordered[0] = linked
        ordered.insert(0, new_order)
    return ordered


def _pending(previous: Sequence[Slot], number: int, mode: Byes) -> list[Slot]:
    """The blank slots of a round not drawn yet, pairing the previous column's slots in order (byes last)."""
    size = len(previous)
    byes = bye_count(size, mode)
    matches = (size - byes) // 2
    slots = [
        Slot(kind=SlotKind.PENDING, round=number, table=k + 1, entries=(Entry(None), Entry(None)),
             sources=(2 * k, 2 * k + 1), y=0.0)
        for k in range(matches)
    ]
    slots += [Slot(kind=SlotKind.PENDING, round=number, table=None, entries=(Entry(None),), sources=(2 * matches + k,),
                   y=0.0) for k in range(byes)]
    return slots


def _place(columns: list[list[Slot]]) -> tuple[list[list[Slot]], float]:
    """Give every slot its centre `y` in lines: the first column stacked, the rest centred on their sources."""
    y, first = 0.0, []
    for slot in columns[0]:
        first.append(replace(slot, y=y + slot.height / 2))
        y += slot.height + GAP
    placed = [first]
    for column in columns[1:]:
        prev = placed[-1]
        placed.append(
            [replace(s, y=sum(prev[i].y for i in s.sources) / len(s.sources)) if s.sources else s for s in column]
        )
    return placed, max(y - GAP, 0.0)


def build(
    rounds: Sequence[Round],
    outcomes: Mapping[int, Sequence[MatchOutcome]],
    teams: Sequence[Team],
    *,
    levels: Mapping[tuple[int, int], Levels] | None = None,
    unchecked: Collection[tuple[int, int]] = (),
    playoff_hands: Mapping[tuple[int, int], int] | None = None,
    title: str = "",
    third_place: ThirdPlace | str = ThirdPlace.SHARED,
    byes: Byes | str = Byes.FIRST_ROUND,
    digits: int | None = None,
) -> Bracket:
    """The chart of the event so far. `rounds` and `outcomes` as for `knockout.placings` (which raises
    BracketError if they do not fit); `levels[(round, table)]` are the levels a match ended at; `teams` is the
    team list (round 1's pool before anything is drawn); `unchecked` the (round, table) of matches decided by a lost
    card's 终局 levels (marked 未逐局核对); `playoff_hands[(round, table)]` the 加赛 hands that decided a match, as
    its record counted them (every paper that lists the match says them). `digits`: how wide its 组号 are printed, the event's width
    (`EventFolder.digits`); without it, as wide as `teams`, the whole field, make them."""
    mode = Byes(byes)
    levels = levels or {}
    width = id_digits(t.id for t in teams) if digits is None else digits
    result = placings(rounds, outcomes, third_place=third_place, byes=mode, digits=width)
    drawn: list[list[Slot]] = []
    third = None
    for r in rounds:
        table_levels = {table: lv for (number, table), lv in levels.items() if number == r.number}
        lost_cards = {table for number, table in unchecked if number == r.number}
        playoffs = {table: n for (number, table), n in (playoff_hands or {}).items() if number == r.number}
        slots, third_slot = _drawn_slots(r, outcomes.get(r.number, ()), table_levels, lost_cards, playoffs)
        drawn.append(slots)
        third = third_slot or third
    columns = _order(drawn) if drawn else []
    sizes = [len(r.pool) for r in rounds]
    if not columns:  # nothing drawn: round 1 from the whole team list, teams unknown per slot
        size = len(teams)
        count = bye_count(size, mode)
        first = [Slot(kind=SlotKind.PENDING, round=1, table=k + 1, entries=(Entry(None), Entry(None)), sources=(), y=0.0)
                 for k in range((size - count) // 2)]
        first += [Slot(kind=SlotKind.PENDING, round=1, table=None, entries=(Entry(None),), sources=(), y=0.0)
                  for _ in range(count)]
        columns, sizes = [first], [size]
    while len(columns[-1]) >= 2:
        sizes.append(len(columns[-1]))
        columns.append(_pending(columns[-1], len(columns) + 1, mode))
    placed, height = _place(columns)
    built = tuple(
        Column(i + 1, round_title(i + 1, sizes[i]), i < len(rounds), tuple(col)) for i, col in enumerate(placed)
    )
    if third is not None:
        final = built[-1].slots[0]
        third = replace(third, y=final.y + 3 + GAP)
    return Bracket(title, built, third, result, tuple(teams), height, width)


# --- a chart too wide for its paper, in parts ---


def split(bracket: Bracket, at: int) -> tuple[tuple[Bracket, ...], Bracket]:
    """The chart in parts, cut at column `at` (1-based, 1 ≤ at < the number of columns): one part for each slot of
    that column, holding the columns up to it with only the slots that lead to that one (it is the part's last
    column; no 3rd-place match), and the rest: the columns from `at` on, that column's slots stacked as its first.
    Each part is a `Bracket` of its own, laid out anew; the slots are the chart's own (levels, winners)."""
    columns = bracket.columns
    if not 1 <= at < len(columns):
        raise ValueError(f"cannot cut a chart of {len(columns)} columns at {at}")
    parts = tuple(_part(bracket, columns[:at], root) for root in range(len(columns[at - 1].slots)))
    rest = [[replace(s, sources=()) for s in columns[at - 1].slots], *([*c.slots] for c in columns[at:])]
    placed, height = _place(rest)
    built = tuple(replace(c, slots=tuple(s)) for c, s in zip(columns[at - 1:], placed, strict=True))
    third = bracket.third_place
    if third is not None:
        third = replace(third, y=built[-1].slots[0].y + 3 + GAP)
    return parts, replace(bracket, columns=built, third_place=third, height=height)


def _part(bracket: Bracket, columns: Sequence[Column], root: int) -> Bracket:
    """The columns `columns` with only the slots that lead to slot `root` of the last, sources renumbered."""
    picks = [[root]]
    for column in reversed(columns[1:]):
        picks.insert(0, sorted(i for k in picks[0] for i in column.slots[k].sources))
    chosen: list[list[Slot]] = []
    for i, (column, picked) in enumerate(zip(columns, picks, strict=True)):
        where = {k: n for n, k in enumerate(picks[i - 1])} if i else {}
        chosen.append([replace(column.slots[k], sources=tuple(where[s] for s in column.slots[k].sources) if i else ())
                       for k in picked])
    placed, height = _place(chosen)
    built = tuple(replace(c, slots=tuple(s)) for c, s in zip(columns, placed, strict=True))
    return replace(bracket, columns=built, third_place=None, height=height)
