"""The knockout: drawing rounds by lot, byes, advancement and the final placings. Pure.

Types are fixed here first so the workbook module and the CLI can build on them.

The shape, for any field of 2…128 teams: each round is drawn from the teams still in (round 1: the team list in
its order; later: the previous round's winners by table, then its byes). How many byes a round has follows from
its size and `[format] byes` (`bye_count`):
- "first_round" (default): with N teams, N not a power of two and B the largest power of two below N, the round
  has N − B matches and 2B − N byes, so the next round has B teams and no round after it has a bye; a field of 4
  or more always reaches two semi-finals.
- "each_round": an odd count gives one team the bye, nobody getting a second bye while a team without one is in
  the pool; a semi-final of three teams (one match and a bye) then has a single loser, who is 3rd, and under
  "shared" the second 三等奖 stays vacant (空缺) unless the organiser decides otherwise.
With paper lots, 签号 1–2, 3–4, … play each other and the 签号 above twice the number of matches are the byes.
The round drawn from two teams is the final; the one before it (three or four teams) is the semi-final. With
third_place = "playoff" and two semi-final losers, the final round also holds the 3rd-place match at table 2 (the
loser at the lower semi-final table is 甲方).
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.game.levels import Side
from shuangsheng.knockout.formats import Byes, ThirdPlace
from shuangsheng.knockout.teams import team_name
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import Issue, Place, UserError


@dataclass(frozen=True)
class Pairing:
    """One match of a round: 甲方 (side A) and 乙方 (side B) team ids at a table (1…n)."""

    table: int
    a: str
    b: str
    third_place: bool = False  # the 3rd-place match of the final round (third_place = "playoff")

    def team(self, side: Side) -> str:
        return self.a if side is Side.A else self.b


@dataclass(frozen=True)
class Round:
    """A drawn round. `pool` is the ordered list of team ids the draw was made from; with `seed` it reproduces
    the draw. `byes` are the teams that go straight on (in draw order: by lot number for paper lots). A draw from
    paper lots has `seed` None and `lots` maps team id → lot number."""

    number: int
    pool: tuple[str, ...]
    pairings: tuple[Pairing, ...]
    byes: tuple[str, ...]
    seed: int | None
    lots: tuple[tuple[str, int], ...] = ()

    @property
    def lot_plan(self) -> LotPlan:
        """What the lot numbers of this round meant (for a draw from paper lots)."""
        return LotPlan(len(self.pool), (len(self.pool) - len(self.byes)) // 2)


@dataclass(frozen=True)
class MatchOutcome:
    """What a round's match came to, as the knockout needs it: the table's status and, when it has a winner, the
    winner's team id."""

    table: int
    status: TableStatus
    winner: str | None = None  # team id when `status.has_winner`
    reason: str = ""  # Chinese: why there is no winner yet (errors, 需加赛), or who forfeited


# --- errors ---


class KnockoutError(UserError, ValueError):
    """Something about the knockout cannot go on: every problem, each an `Issue` (a sentence that names no file:
    the knockout knows teams, rounds and tables), under an optional heading."""

    def __init__(self, problems: Sequence[Issue | str], *, heading: str | None = None):
        super().__init__(problems, heading=heading)

    @property
    def problems(self) -> tuple[str, ...]:
        """What each problem says."""
        return tuple(issue.detail for issue in self.issues)


class DrawError(KnockoutError):
    """A round cannot be drawn from this pool (too few teams, repeated ids, a misplaced 3rd-place match)."""


class LotsError(DrawError):
    """Paper lots typed by the organiser do not make a draw: unknown 组号, missing or repeated lots, gaps…"""


class BracketError(KnockoutError):
    """The rounds given do not fit together (numbering, pools that are not the previous round's winners)."""


class RoundNotDecided(KnockoutError):
    """The next round cannot be drawn: `blockers` name each match that is not decided, and why."""

    def __init__(self, number: int, blockers: Sequence[Blocker]):
        self.number = number
        self.blockers = tuple(blockers)
        super().__init__(
            [b.issue for b in self.blockers],
            heading=f"第{number}轮还有{len(self.blockers)}场比赛没有决出胜负，不能抽下一轮：",
        )


# --- names and sizes ---

MIN_TEAMS = 2
MAX_TEAMS = 128


def _names(teams: Iterable[str]) -> str:
    return "、".join(team_name(t) for t in teams)


def bye_count(size: int, byes: Byes | str = Byes.FIRST_ROUND) -> int:
    """How many teams of a round of `size` get a bye: "first_round" 2B − size (B the largest power of two
    below size; 0 for a power of two), "each_round" 1 for an odd size."""
    if Byes(byes) is Byes.EACH_ROUND:
        return size % 2
    if size < 2 or size & (size - 1) == 0:
        return 0
    below = 1 << (size.bit_length() - 1)
    return 2 * below - size


def next_size(size: int, byes: Byes | str = Byes.FIRST_ROUND) -> int:
    """How many teams go on from a round of `size`: the winners and the byes."""
    count = bye_count(size, byes)
    return count + (size - count) // 2


def rounds_needed(size: int, byes: Byes | str = Byes.FIRST_ROUND) -> int:
    """Rounds from a pool of `size` teams to the final inclusive: 2 → 1, 3–4 → 2, 5–8 → 3, …"""
    count = 0
    while size >= 2:
        size = next_size(size, byes)
        count += 1
    return count


@dataclass(frozen=True)
class LotPlan:
    """What the paper lots of a round of `size` mean: 签号 1–2, 3–4, … up to `2 * matches` play each other (the
    lower lot is 甲方, at table 1, 2, …); the 签号 above, `matches * 2 + 1 … size`, are the byes."""

    size: int
    matches: int

    @property
    def bye_lots(self) -> range:
        return range(2 * self.matches + 1, self.size + 1)

    @property
    def text(self) -> str:
        """'签号1与2、3与4……11与12对阵；签号13–20轮空（直接进入下一轮）' — for the lots sheet and the draw."""
        pairs = [f"{2 * k - 1}与{2 * k}" for k in range(1, self.matches + 1)]
        shown = "、".join(pairs) if len(pairs) <= 3 else f"{'、'.join(pairs[:2])}……{pairs[-1]}"
        text = f"签号{shown}对阵（依次为第1、2……桌）" if len(pairs) > 1 else f"签号{shown}对阵"
        lots = self.bye_lots
        if len(lots) == 1:
            text += f"；签号{lots[0]}轮空（直接进入下一轮）"
        elif lots:
            text += f"；签号{lots[0]}–{lots[-1]}轮空（直接进入下一轮）"
        return text


def lot_plan(size: int, byes: Byes | str = Byes.FIRST_ROUND) -> LotPlan:
    return LotPlan(size, (size - bye_count(size, byes)) // 2)


def stage_name(size: int) -> str:
    """'决赛' for a round drawn from two teams, '半决赛' from three or four, else ''."""
    if size == 2:
        return "决赛"
    if size in (3, 4):
        return "半决赛"
    return ""


def round_title(number: int, size: int) -> str:
    """'第3轮（决赛）', '第2轮（半决赛）', '第1轮' — from the round number and its pool size."""
    stage = stage_name(size)
    return f"第{number}轮（{stage}）" if stage else f"第{number}轮"


def is_final(round_: Round) -> bool:
    """The final is the round drawn from exactly two teams (it may also hold the 3rd-place match)."""
    return len(round_.pool) == 2


def byes_so_far(rounds: Sequence[Round]) -> tuple[str, ...]:
    """Every bye given so far, in round order (a team appears once per bye)."""
    return tuple(team for r in rounds for team in r.byes)


def new_seed() -> int:
    """A fresh draw seed from the OS: 6 to 9 digits, short enough to read out and copy by hand."""
    return 100_000 + secrets.randbelow(999_999_999 - 100_000 + 1)


# --- drawing a round ---


def _check_number(number: object) -> list[str]:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        return [f"轮次应为从 1 开始的整数，实际为 {number!r}"]
    return []


def _check_pool(pool: tuple[str, ...]) -> list[str]:
    problems: list[str] = []
    if len(pool) < MIN_TEAMS:
        problems.append(f"一轮至少需要{MIN_TEAMS}组才能抽签，实际只有{len(pool)}组")
    if any(not isinstance(t, str) or not t.strip() for t in pool):
        problems.append("抽签名单中有空的组号")
    for team, count in Counter(pool).items():
        if count > 1:
            problems.append(f"{team_name(team)}在抽签名单中出现了{count}次")
    return problems


def _check_third_place_match(pool: tuple[str, ...], match: tuple[str, str] | None) -> list[str]:
    if match is None:
        return []
    problems: list[str] = []
    if len(pool) != 2:
        problems.append(f"三、四名决赛只能与决赛同轮进行，而本轮有{len(pool)}组")
    if len(match) != 2 or match[0] == match[1]:
        problems.append("三、四名决赛应在两个不同的组之间进行")
    for team in match:
        if team in pool:
            problems.append(f"{team_name(team)}在决赛中，不能同时参加三、四名决赛")
    return problems


def _with_third_place(pairings: list[Pairing], match: tuple[str, str] | None) -> tuple[Pairing, ...]:
    if match is not None:
        pairings.append(Pairing(len(pairings) + 1, match[0], match[1], third_place=True))
    return tuple(pairings)


def _check_byes(pool: tuple[str, ...], byes: object) -> list[str]:
    if isinstance(byes, bool) or not isinstance(byes, int) or not 0 <= byes <= len(pool) - 2 or (len(pool) - byes) % 2:
        return [f"本轮{len(pool)}组，不能有{byes!r}组轮空（轮空后剩下的组数应为不少于2的双数）"]
    return []


def draw_round(
    number: int,
    pool: Sequence[str],
    *,
    seed: int,
    byes: int | None = None,
    previous_byes: Collection[str] = (),
    third_place_match: tuple[str, str] | None = None,
) -> Round:
    """Draw round `number` from `pool` by lot with `random.Random(seed)`; the same inputs give the same draw.

    `byes` is how many teams go straight on (default `bye_count(len(pool))`, i.e. "first_round"). The pool is
    shuffled once. The byes go to the last teams in the shuffled order among those with the fewest byes in
    `previous_byes` (so nobody gets a second bye while a team without one is in the pool); the rest pair in
    shuffled order, 甲方 first, at tables 1…n. `third_place_match` (losers of the semi-final, 甲方 first) is
    added as the last table of a final; it is not drawn by lot.
    """
    pool = tuple(pool)
    problems = _check_number(number) + _check_pool(pool) + _check_third_place_match(pool, third_place_match)
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.append(f"抽签种子应为整数，实际为 {seed!r}")
    count = bye_count(len(pool)) if byes is None else byes
    if not problems:
        problems += _check_byes(pool, count)
    if problems:
        raise DrawError(problems)
    order = list(pool)
    random.Random(seed).shuffle(order)
    had = Counter(previous_byes)
    # stable: among equal counts the later in the shuffled order comes first
    chosen = sorted(reversed(order), key=lambda t: had[t])[:count]
    playing = [t for t in order if t not in chosen]
    pairings = [Pairing(i + 1, playing[2 * i], playing[2 * i + 1]) for i in range(len(playing) // 2)]
    return Round(number, pool, _with_third_place(pairings, third_place_match), tuple(chosen), seed)


def draw_from_lots(
    number: int,
    lots: Mapping[str, int] | Sequence[tuple[str, int]],
    pool: Sequence[str],
    *,
    byes: int | None = None,
    previous_byes: Collection[str] = (),
    third_place_match: tuple[str, str] | None = None,
) -> Round:
    """A round from paper lots drawn in the room: `lots` gives each team's lot number (组号 → 签号).

    Lots 1–2 play at table 1, 3–4 at table 2, …; the lower lot is 甲方. The `byes` highest lots (default as in
    `draw_round`) are the byes, which may not fall to a team that already had more byes than a team that plays.
    Raises `LotsError` listing every problem. `third_place_match` as in `draw_round`.
    """
    pool = tuple(pool)
    problems = _check_number(number) + _check_pool(pool) + _check_third_place_match(pool, third_place_match)
    count = bye_count(len(pool)) if byes is None else byes
    if not problems:
        problems += _check_byes(pool, count)
    entries = list(lots.items()) if isinstance(lots, Mapping) else [tuple(e) for e in lots]
    holders, lot_problems = _lot_holders(entries, pool)
    problems += lot_problems
    plan = LotPlan(len(pool), (len(pool) - count) // 2)
    problems += _repeated_byes(plan, holders, previous_byes)
    if problems:
        raise LotsError(problems, heading=f"第{number}轮的签号有误：")
    by_lot = {lot: teams[0] for lot, teams in holders.items()}
    pairings = [Pairing(k, by_lot[2 * k - 1], by_lot[2 * k]) for k in range(1, plan.matches + 1)]
    recorded = tuple(sorted(((by_lot[lot], lot) for lot in by_lot), key=lambda e: e[1]))
    byes_drawn = tuple(by_lot[lot] for lot in plan.bye_lots)
    return Round(number, pool, _with_third_place(pairings, third_place_match), byes_drawn, None, recorded)


def _lot_holders(entries: Sequence[tuple[str, object]], pool: tuple[str, ...]) -> tuple[dict[int, list[str]], list[str]]:
    """Which teams hold each lot number, and every problem with the lots as typed (unknown teams, missing,
    several or bad lots, a lot held twice, lots left out)."""
    members = set(pool)
    given: dict[str, list[object]] = {}
    for team, lot in entries:
        given.setdefault(team, []).append(lot)
    problems = [f"组号“{team}”不是本轮参赛的组" for team in given if team not in members]
    n = len(pool)
    holders: dict[int, list[str]] = {}
    for team in pool:
        problem = _lot_problem(team, given.get(team, []), n)
        if problem:
            problems.append(problem)
        else:
            holders.setdefault(given[team][0], []).append(team)  # type: ignore[arg-type]
    problems += [f"签号 {lot} 重复：{_names(holders[lot])}" for lot in sorted(holders) if len(holders[lot]) > 1]
    gaps = [lot for lot in range(1, n + 1) if lot not in holders]
    if gaps and n >= MIN_TEAMS:
        shown = "、".join(str(x) for x in gaps)
        problems.append(f"缺少签号 {shown}：本轮共{n}组，签号 1–{n} 应各用一次")
    return holders, problems


def _lot_problem(team: str, team_lots: list[object], n: int) -> str | None:
    """What is wrong with the lot numbers given for one team, if anything."""
    if not team_lots:
        return f"{team_name(team)}没有签号"
    if len(team_lots) > 1:
        shown = "、".join(str(x) for x in team_lots)
        return f"{team_name(team)}填了{len(team_lots)}个签号（{shown}），每组只能有一个签号"
    lot = team_lots[0]
    if isinstance(lot, bool) or not isinstance(lot, int) or lot < 1:
        return f"{team_name(team)}的签号应为正整数，实际为“{lot}”"
    if lot > n:
        return f"{team_name(team)}的签号 {lot} 超出范围：本轮共{n}组，签号应为 1–{n}"
    return None


def _repeated_byes(plan: LotPlan, holders: Mapping[int, list[str]], previous_byes: Collection[str]) -> list[str]:
    """A bye lot drawn by a team that had more byes than some team that plays."""
    had = Counter(previous_byes)
    playing = [t for lot in range(1, 2 * plan.matches + 1) if len(holders.get(lot, ())) == 1 for t in holders[lot]]
    fewest = min((had[t] for t in playing), default=0)
    return [
        f"签号 {lot}（轮空）抽到的{team_name(team)}已经轮空过，本轮还有没轮空过的组，不能让它再次轮空，请重新抽签"
        for lot in plan.bye_lots
        if len(holders.get(lot, ())) == 1 and had[team := holders[lot][0]] > fewest
    ]


# --- results of a round ---


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


def _results(round_: Round, outcomes: Sequence[MatchOutcome]) -> dict[int, tuple[str, str] | Blocker]:
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
    results = _results(round_, outcomes)
    blockers = tuple(r for r in results.values() if isinstance(r, Blocker))
    matches = [results[p.table] for p in round_.pairings if not p.third_place]
    played = [r for r in matches if not isinstance(r, Blocker)]
    winners = tuple(winner for winner, _ in played)
    return Advancement(round_.number, winners + round_.byes, tuple(loser for _, loser in played), blockers)


# --- the sequence of rounds ---


def _check_rounds(
    rounds: Sequence[Round], outcomes_by_round: Mapping[int, Sequence[MatchOutcome]]
) -> list[Advancement]:
    numbers = [r.number for r in rounds]
    if numbers != list(range(1, len(rounds) + 1)):
        raise BracketError([f"轮次应从第1轮起连续编号，实际为 {'、'.join(str(n) for n in numbers)}"])
    problems: list[str] = []
    for r in rounds:
        paired = [t for p in r.pairings if not p.third_place for t in (p.a, p.b)]
        if sorted(paired + list(r.byes)) != sorted(r.pool):
            problems.append(
                f"第{r.number}轮的对阵与轮空（{_names(r.byes) or '无'}）合起来应恰好是本轮抽签名单上的各组，每组一次"
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
            parts = ([f"多了{_names(extra)}"] if extra else []) + ([f"少了{_names(absent)}"] if absent else [])
            problems.append(
                f"第{cur.number}轮的参赛组与第{prev.number}轮的晋级组不一致：{'；'.join(parts)}"
            )
        match = next((p for p in cur.pairings if p.third_place), None)
        if match is not None and sorted((match.a, match.b)) != sorted(adv.losers):
            problems.append(
                f"第{cur.number}轮的三、四名决赛应由第{prev.number}轮的两组负者"
                f"（{_names(adv.losers)}）进行，实际为{_names((match.a, match.b))}"
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

    @property
    def title(self) -> str:
        return round_title(self.number, len(self.pool))

    @property
    def lots(self) -> LotPlan:
        """What each paper lot of this round means."""
        return LotPlan(len(self.pool), (len(self.pool) - self.byes) // 2)

    def draw(self, seed: int) -> Round:
        return draw_round(
            self.number,
            self.pool,
            seed=seed,
            byes=self.byes,
            previous_byes=self.previous_byes,
            third_place_match=self.third_place_match,
        )

    def from_lots(self, lots: Mapping[str, int] | Sequence[tuple[str, int]]) -> Round:
        return draw_from_lots(
            self.number,
            lots,
            self.pool,
            byes=self.byes,
            previous_byes=self.previous_byes,
            third_place_match=self.third_place_match,
        )


def next_round(
    teams: Sequence[str],
    rounds: Sequence[Round],
    outcomes_by_round: Mapping[int, Sequence[MatchOutcome]],
    *,
    third_place: ThirdPlace | str = ThirdPlace.SHARED,
    byes: Byes | str = Byes.FIRST_ROUND,
) -> NextRound | None:
    """The next round to draw: round 1 from `teams` (team-list order), later rounds from the previous round's
    `advancing`, with as many byes as `bye_count` gives for its size. None once the final has been drawn. Raises RoundNotDecided naming every undecided match of
    the last round, DrawError for a field outside 2…128 teams, BracketError if the rounds do not fit."""
    mode = ThirdPlace(third_place)
    teams = tuple(teams)
    if not rounds:
        problems = _check_pool(teams)
        if len(teams) > MAX_TEAMS:
            problems.append(f"最多支持{MAX_TEAMS}组参赛，报名表中有{len(teams)}组")
        if problems:
            raise DrawError(problems)
        return NextRound(1, teams, bye_count(len(teams), byes))
    if set(rounds[0].pool) != set(teams):
        extra = [t for t in rounds[0].pool if t not in teams]
        absent = [t for t in teams if t not in rounds[0].pool]
        parts = ([f"第1轮有而报名表没有：{_names(extra)}"] if extra else []) + (
            [f"报名表有而第1轮没有：{_names(absent)}"] if absent else []
        )
        raise BracketError([f"报名表与第1轮的参赛组不一致：{'；'.join(parts)}"])
    advancements = _check_rounds(rounds, outcomes_by_round)
    last, adv = rounds[-1], advancements[-1]
    if is_final(last):
        return None
    if not adv.decided:
        raise RoundNotDecided(last.number, adv.blockers)
    match = None
    if len(adv.advancing) == 2 and mode is ThirdPlace.PLAYOFF and len(adv.losers) == 2:
        match = (adv.losers[0], adv.losers[1])
    size = len(adv.advancing)
    return NextRound(last.number + 1, adv.advancing, bye_count(size, byes), byes_so_far(rounds), match)


# --- placings ---


@dataclass(frozen=True)
class Placings:
    """The prizes: 一等奖 `first`, 二等奖 `second`, 三等奖 `third` (two when shared, one with a playoff or when
    the semi-final had a bye). `missing` names every match or draw still to come; `notes` explain the awards."""

    complete: bool
    first: str | None = None
    second: str | None = None
    third: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def prize_note(
    round_: Round, third_place: ThirdPlace | str = ThirdPlace.SHARED, loser: str | None = None
) -> str | None:
    """What a round means for the prizes when it is not the usual shape: a 2-team field (no 三等奖) or a
    semi-final with a bye (only one semi-final loser). `loser` is that match's loser once known."""
    mode = ThirdPlace(third_place)
    if round_.number == 1 and is_final(round_):
        return "只有2组参赛，第1轮即为决赛：胜者获一等奖，负者获二等奖，不设三等奖。"
    if len(round_.pool) != 3 or len(round_.byes) != 1:
        return None
    match = next(p for p in round_.pairings if not p.third_place)
    who = team_name(loser) if loser else f"{team_name(match.a)}与{team_name(match.b)}之间的负者"
    head = (
        f"半决赛（第{round_.number}轮）只有3组：{team_name(round_.byes[0])}轮空，直接进入决赛（获一等奖或二等奖）；"
        f"只有一场半决赛，{who}获三等奖。"
    )
    if mode is ThirdPlace.PLAYOFF:
        return head + "只有一组半决赛负者，不进行三、四名决赛。"
    return head + "另一个三等奖名额空缺（没有第二场半决赛），如需另行颁发，由组委会决定。"


def placings(
    rounds: Sequence[Round],
    outcomes_by_round: Mapping[int, Sequence[MatchOutcome]],
    *,
    third_place: ThirdPlace | str = ThirdPlace.SHARED,
    byes: Byes | str = Byes.FIRST_ROUND,
) -> Placings:
    """The placings so far: final winner 1st, loser 2nd; 3rd the semi-final losers ("shared", named as soon as
    their match is decided, before the final) or the winner of the 3rd-place match ("playoff"). Incomplete while
    anything is undecided or undrawn, each listed in `missing` (rounds still to draw counted with `byes`).
    Raises BracketError if the rounds do not fit together."""
    mode = ThirdPlace(third_place)
    if not rounds:
        return Placings(False, missing=("第1轮尚未抽签",))
    _check_rounds(rounds, outcomes_by_round)
    results = [_results(r, outcomes_by_round.get(r.number, ())) for r in rounds]
    missing = _missing(rounds, results, byes)
    last = rounds[-1]
    first = second = None
    if is_final(last):
        final_pairing = next(p for p in last.pairings if not p.third_place)
        final = results[-1][final_pairing.table]
        if not isinstance(final, Blocker):
            first, second = final
    third, third_missing, third_notes = _third(rounds, results, mode)
    missing += third_missing
    notes = [*_semi_notes(rounds, results, mode), *third_notes]
    return Placings(not missing, first, second, third, tuple(missing), tuple(notes))


def _missing(rounds: Sequence[Round], results: Sequence[dict[int, tuple[str, str] | Blocker]],
             byes: Byes | str) -> list[str]:
    """Every match not decided yet, then every round still to draw."""
    missing = [f"第{r.number}轮{b.message}" for r, res in zip(rounds, results, strict=True)
               for b in res.values() if isinstance(b, Blocker)]
    last = rounds[-1]
    if not is_final(last):
        size, number = len(last.pairings) + len(last.byes), last.number + 1
        while size >= 2:
            missing.append(f"{round_title(number, size)}尚未抽签")
            size, number = next_size(size, byes), number + 1
    return missing


def _third(rounds: Sequence[Round], results: Sequence[dict[int, tuple[str, str] | Blocker]],
           mode: ThirdPlace) -> tuple[tuple[str, ...], list[str], list[str]]:
    """The 三等奖 so far, what keeps it open, and notes: (third, missing, notes)."""
    last = rounds[-1]
    final_drawn = is_final(last)
    semi_index = next((i for i, r in enumerate(rounds) if len(r.pool) in (3, 4)), None)
    if semi_index is None:
        note = prize_note(rounds[0], mode)
        return (), [], [note] if note is not None else []
    semi_matches = [p for p in rounds[semi_index].pairings if not p.third_place]
    outcomes = [results[semi_index][p.table] for p in semi_matches]
    semi_losers = tuple(o[1] for o in outcomes if not isinstance(o, Blocker))
    match = next((p for p in last.pairings if p.third_place), None) if final_drawn else None
    if len(semi_matches) == 2 and mode is ThirdPlace.PLAYOFF:
        if final_drawn and match is None:
            return (), [f"第{last.number}轮（决赛）没有三、四名决赛，无法确定三等奖（third_place = \"playoff\"）"], []
        if match is not None and not isinstance(res := results[-1][match.table], Blocker):
            return (res[0],), [], []
        return (), [], []
    notes = [] if match is None else [
        f"第{last.number}轮有三、四名决赛，但 third_place = \"shared\"：两组半决赛负者并列三等奖。"]
    return semi_losers, [], notes


def _semi_notes(
    rounds: Sequence[Round], results: Sequence[dict[int, tuple[str, str] | Blocker]], mode: ThirdPlace
) -> tuple[str, ...]:
    for r, res in zip(rounds, results, strict=True):
        if len(r.pool) == 3:
            match = next(p for p in r.pairings if not p.third_place)
            outcome = res[match.table]
            loser = None if isinstance(outcome, Blocker) else outcome[1]
            note = prize_note(r, mode, loser)
            return (note,) if note else ()
    return ()


def placings_as_json(p: Placings) -> dict[str, object]:
    """docs/README.md (--json): {"complete": true, "first": "03", "second": "08", "third": ["05", "11"]}; "missing" is added
    while unfinished and "notes" whenever the awards need explaining."""
    data: dict[str, object] = {"complete": p.complete, "first": p.first, "second": p.second, "third": list(p.third)}
    if not p.complete:
        data["missing"] = list(p.missing)
    if p.notes:
        data["notes"] = list(p.notes)
    return data
