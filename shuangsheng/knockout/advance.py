"""Who goes on: a round's results for the knockout (`advance`: the winners by table, then the byes; a `Blocker`
for each match not decided), and the sequence of rounds — what to draw next from the rounds so far
(`next_round`), or why not yet (`RoundNotDecided`). Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.knockout.apart import NOTHING_APART, Apart
from shuangsheng.knockout.draw import check_pool, draw_from_lots, draw_round
from shuangsheng.knockout.formats import AvoidSameUnit, Byes, ThirdPlace
from shuangsheng.knockout.knockout import (
    MAX_TEAMS,
    BracketError,
    DrawError,
    KnockoutError,
    LotPlan,
    MatchOutcome,
    Round,
    bye_count,
    byes_so_far,
    is_final,
    names_of,
    round_title,
)
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import Issue, Place


class RoundNotDecided(KnockoutError):
    """The next round cannot be drawn: `blockers` name each match that is not decided, and why."""

    def __init__(self, number: int, blockers: Sequence[Blocker]):
        self.number = number
        self.blockers = tuple(blockers)
        super().__init__(
            [b.issue for b in self.blockers],
            heading=f"第{number}轮还有{len(self.blockers)}场比赛没有决出胜负，不能抽下一轮：",
        )


@dataclass(frozen=True)
class Blocker:
    """A match that keeps a round from being decided: '第2桌：需加赛（双方同为9级）'."""

    round: int
    table: int
    status: TableStatus
    reason: str = ""  # why, when known: '双方同为9级'

    @property
    def message(self) -> str:
        return str(self.issue)

    @property
    def issue(self) -> Issue:
        """'第2桌：需加赛（双方同为9级）': the table's sheet is where the referee looks."""
        detail = f"（{self.reason}）" if self.reason else ""
        return Issue(Place(sheet=f"第{self.table}桌"), f"{_BLOCKING_CN[self.status]}{detail}")


@dataclass(frozen=True)
class Advancement:
    """A round's outcome for the knockout: `advancing` (winners by table, then the byes) and `losers` (by table;
    the 3rd-place match is not counted), complete once every match is decided — until then the ones known so far,
    and `blockers` says why each other match is not decided."""

    number: int
    advancing: tuple[str, ...]
    losers: tuple[str, ...]
    blockers: tuple[Blocker, ...]

    @property
    def decided(self) -> bool:
        return not self.blockers


_BLOCKING_CN = {
    TableStatus.OPEN: "尚未录入",
    TableStatus.NEEDS_PLAYOFF: "需加赛",
    TableStatus.INVALID: "记录有误",
}


def _blocker(number: int, table: int, status: TableStatus, reason: str) -> Blocker:
    return Blocker(number, table, status, reason)


def match_results(round_: Round, outcomes: Sequence[MatchOutcome]) -> dict[int, tuple[str, str] | Blocker]:
    """Per table: (winner, loser), or the Blocker saying why not. Outcomes for tables the round does not have,
    or two outcomes for one table, are a BracketError (the caller mixed up rounds)."""
    tables = {p.table: p for p in round_.pairings}
    by_table: dict[int, MatchOutcome] = {}
    problems: list[str] = []
    for o in outcomes:
        if o.table not in tables:
            problems.append(f"第{round_.number}轮没有第{o.table}桌，却有它的比赛结果")
        elif o.table in by_table:
            problems.append(f"第{round_.number}轮第{o.table}桌有两份比赛结果")
        else:
            by_table[o.table] = o
    if problems:
        raise BracketError(problems)
    results: dict[int, tuple[str, str] | Blocker] = {}
    for table, p in sorted(tables.items()):
        o = by_table.get(table, MatchOutcome(table, TableStatus.OPEN))
        if o.status.has_winner:
            if o.winner in (p.a, p.b):
                results[table] = (o.winner, p.b if o.winner == p.a else p.a)
                continue
            why = "没有胜方" if o.winner is None else f"胜方“{o.winner}”不是本桌的组"
            reason = f"{o.reason}；{why}" if o.reason else why
            results[table] = _blocker(round_.number, table, TableStatus.INVALID, reason)
        else:
            results[table] = _blocker(round_.number, table, o.status, o.reason)
    return results


def advance(round_: Round, outcomes: Sequence[MatchOutcome]) -> Advancement:
    """Who goes on from `round_`: the winners by table (a walkover counts for the side that did not forfeit), then
    the byes. While any match is open, needs a playoff or has an invalid record, a Blocker says so for each, and
    `advancing` holds the winners known so far and the byes."""
    results = match_results(round_, outcomes)
    blockers = tuple(r for r in results.values() if isinstance(r, Blocker))
    matches = [results[p.table] for p in round_.pairings if not p.third_place]
    played = [r for r in matches if not isinstance(r, Blocker)]
    winners = tuple(winner for winner, _ in played)
    return Advancement(round_.number, winners + round_.byes, tuple(loser for _, loser in played), blockers)


def check_rounds(
    rounds: Sequence[Round], outcomes_by_round: Mapping[int, Sequence[MatchOutcome]], digits: int = 2
) -> list[Advancement]:
    """Each round's advancement, once the rounds are seen to fit together (else BracketError, naming the teams
    `digits` wide: the event's width)."""
    numbers = [r.number for r in rounds]
    if numbers != list(range(1, len(rounds) + 1)):
        raise BracketError([f"轮次应从第1轮起连续编号，实际为 {'、'.join(str(n) for n in numbers)}"])
    problems: list[str] = []
    for r in rounds:
        paired = [t for p in r.pairings if not p.third_place for t in (p.a, p.b)]
        if sorted(paired + list(r.byes)) != sorted(r.pool):
            problems.append(
                f"第{r.number}轮的对阵与轮空（{names_of(r.byes, digits) or '无'}）合起来应恰好是本轮抽签名单上的各组，每组一次"
            )
    if problems:
        raise BracketError(problems)
    advancements = [advance(r, outcomes_by_round.get(r.number, ())) for r in rounds]
    for prev, adv, cur in zip(rounds, advancements, rounds[1:], strict=False):
        if is_final(prev):
            problems.append(f"第{prev.number}轮是决赛，之后不应再有第{cur.number}轮")
            continue
        if not adv.decided:
            continue
        extra = [t for t in cur.pool if t not in adv.advancing]
        absent = [t for t in adv.advancing if t not in cur.pool]
        if extra or absent:
            parts = ([f"多了{names_of(extra, digits)}"] if extra else []) + (
                [f"少了{names_of(absent, digits)}"] if absent else [])
            problems.append(
                f"第{cur.number}轮的参赛组与第{prev.number}轮的晋级组不一致：{'；'.join(parts)}"
            )
        match = next((p for p in cur.pairings if p.third_place), None)
        if match is not None and sorted((match.a, match.b)) != sorted(adv.losers):
            problems.append(
                f"第{cur.number}轮的三、四名决赛应由第{prev.number}轮的两组负者"
                f"（{names_of(adv.losers, digits)}）进行，实际为{names_of((match.a, match.b), digits)}"
            )
    if problems:
        raise BracketError(problems)
    return advancements


@dataclass(frozen=True)
class NextRound:
    """What to draw next: round `number` from `pool` (in this order) with `byes` byes, avoiding second byes
    for `previous_byes`, with `third_place_match` at the last table of a final when third_place = "playoff"."""

    number: int
    pool: tuple[str, ...]
    byes: int = 0
    previous_byes: tuple[str, ...] = ()
    third_place_match: tuple[str, str] | None = None
    apart: Apart = Apart()  # the units and seeds this draw keeps apart (none: a plain lot)

    @property
    def title(self) -> str:
        return round_title(self.number, len(self.pool))

    @property
    def lots(self) -> LotPlan:
        """What each paper lot of this round means."""
        return LotPlan(len(self.pool), (len(self.pool) - self.byes) // 2)

    def draw(self, seed: int, digits: int = 2) -> Round:
        """The round drawn by lot with `seed`; a refusal names the teams `digits` wide (the event's)."""
        return draw_round(
            self.number,
            self.pool,
            seed=seed,
            byes=self.byes,
            previous_byes=self.previous_byes,
            third_place_match=self.third_place_match,
            apart=self.apart,
            digits=digits,
        )

    def from_lots(self, lots: Mapping[str, int] | Sequence[tuple[str, int]], digits: int = 2) -> Round:
        """The round from paper lots; a refusal names the teams `digits` wide (the field's, `id_digits`)."""
        return draw_from_lots(
            self.number,
            lots,
            self.pool,
            byes=self.byes,
            previous_byes=self.previous_byes,
            third_place_match=self.third_place_match,
            digits=digits,
        )


def next_round(
    teams: Sequence[str],
    rounds: Sequence[Round],
    outcomes_by_round: Mapping[int, Sequence[MatchOutcome]],
    *,
    third_place: ThirdPlace | str = ThirdPlace.SHARED,
    byes: Byes | str = Byes.FIRST_ROUND,
    apart: Apart = NOTHING_APART,
    avoid_same_unit: AvoidSameUnit | str = AvoidSameUnit.FIRST_ROUND,
    digits: int = 2,
) -> NextRound | None:
    """The next round to draw: round 1 from `teams` (team-list order), later rounds from the previous round's
    `advancing`, with as many byes as `bye_count` gives for its size; `apart` (units and seeds) kept apart in round
1, and in every round with `avoid_same_unit` "every_round". None once the final has been drawn. Raises RoundNotDecided naming every undecided match of
    the last round, DrawError for a field outside 2…512 teams, BracketError if the rounds do not fit (naming the
    teams `digits` wide, the event's width)."""
    mode = ThirdPlace(third_place)
    teams = tuple(teams)
    if not rounds:
        problems = check_pool(teams, digits)
        if len(teams) > MAX_TEAMS:
            problems.append(f"最多支持{MAX_TEAMS}组参赛，报名表中有{len(teams)}组")
        if problems:
            raise DrawError(problems)
        return NextRound(1, teams, bye_count(len(teams), byes), apart=apart.among(teams))
    if set(rounds[0].pool) != set(teams):
        extra = [t for t in rounds[0].pool if t not in teams]
        absent = [t for t in teams if t not in rounds[0].pool]
        parts = ([f"第1轮有而报名表没有：{names_of(extra, digits)}"] if extra else []) + (
            [f"报名表有而第1轮没有：{names_of(absent, digits)}"] if absent else []
        )
        raise BracketError([f"报名表与第1轮的参赛组不一致：{'；'.join(parts)}"])
    advancements = check_rounds(rounds, outcomes_by_round, digits)
    last, adv = rounds[-1], advancements[-1]
    if is_final(last):
        return None
    if not adv.decided:
        raise RoundNotDecided(last.number, adv.blockers)
    match = None
    if len(adv.advancing) == 2 and mode is ThirdPlace.PLAYOFF and len(adv.losers) == 2:
        match = (adv.losers[0], adv.losers[1])
    size = len(adv.advancing)
    later = apart.among(adv.advancing) if AvoidSameUnit(avoid_same_unit) is AvoidSameUnit.EVERY_ROUND else NOTHING_APART
    return NextRound(last.number + 1, adv.advancing, bye_count(size, byes), byes_so_far(rounds), match, later)
