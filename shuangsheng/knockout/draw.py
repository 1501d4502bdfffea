"""Drawing one round of the knockout: by seed (`draw_round`) or from paper lots (`draw_from_lots`), with its byes
and, in the final round, the 3rd-place match; every problem with the pool, the byes or the lots named. Pure: the
seed is passed in (`shuangsheng.knockout.knockout.new_seed` makes one)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from shuangsheng.knockout.apart import NOTHING_APART, Apart, bye_order, repair
from shuangsheng.knockout.knockout import MIN_TEAMS, DrawError, LotPlan, LotsError, Pairing, Round, bye_count, names_of
from shuangsheng.knockout.teams import team_name


def _check_number(number: object) -> list[str]:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        return [f"轮次应为从 1 开始的整数，实际为 {number!r}"]
    return []


def check_pool(pool: tuple[str, ...], digits: int = 2) -> list[str]:
    """What is wrong with a round's pool, its teams named `digits` wide (the event's, `EventFolder.digits`)."""
    problems: list[str] = []
    if len(pool) < MIN_TEAMS:
        problems.append(f"一轮至少需要{MIN_TEAMS}组才能抽签，实际只有{len(pool)}组")
    if any(not isinstance(t, str) or not t.strip() for t in pool):
        problems.append("抽签名单中有空的组号")
    for team, count in Counter(pool).items():
        if count > 1:
            problems.append(f"{team_name(team, digits)}在抽签名单中出现了{count}次")
    return problems


def _check_third_place_match(pool: tuple[str, ...], match: tuple[str, str] | None, digits: int) -> list[str]:
    if match is None:
        return []
    problems: list[str] = []
    if len(pool) != 2:
        problems.append(f"三、四名决赛只能与决赛同轮进行，而本轮有{len(pool)}组")
    if len(match) != 2 or match[0] == match[1]:
        problems.append("三、四名决赛应在两个不同的组之间进行")
    for team in match:
        if team in pool:
            problems.append(f"{team_name(team, digits)}在决赛中，不能同时参加三、四名决赛")
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
    apart: Apart = NOTHING_APART,
    digits: int = 2,
) -> Round:
    """Draw round `number` from `pool` by lot with `random.Random(seed)`; the same inputs give the same draw.

    `byes` is how many teams go straight on (default `bye_count(len(pool))`, i.e. "first_round"). The pool is
    shuffled once. The byes go to the last teams in the shuffled order among those with the fewest byes in
    `previous_byes` (so nobody gets a second bye while a team without one is in the pool); the rest pair in
    shuffled order, 甲方 first, at tables 1…n. `third_place_match` (losers of the semi-final, 甲方 first) is
    added as the last table of a final; it is not drawn by lot. With `apart` (units and seeds), the seeds take
    the byes next after the fewest-byes rule, and the pairs are repaired so that units and seeds meet as little as
    the numbers allow (`shuangsheng.knockout.apart`), with the same `random.Random(seed)`; without, the draw is the
    plain shuffle. A refusal names the teams `digits` wide (the event's).
    """
    pool = tuple(pool)
    problems = (_check_number(number) + check_pool(pool, digits)
                + _check_third_place_match(pool, third_place_match, digits))
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.append(f"抽签种子应为整数，实际为 {seed!r}")
    count = bye_count(len(pool)) if byes is None else byes
    if not problems:
        problems += _check_byes(pool, count)
    if problems:
        raise DrawError(problems)
    order = list(pool)
    rng = random.Random(seed)
    rng.shuffle(order)
    # among equal counts (and seeds) the later in the shuffled order comes first
    chosen = bye_order(order, Counter(previous_byes), apart)[:count]
    playing = [t for t in order if t not in chosen]
    pairs = repair([(playing[2 * i], playing[2 * i + 1]) for i in range(len(playing) // 2)], apart.among(playing), rng)
    pairings = [Pairing(i, a, b) for i, (a, b) in enumerate(pairs, start=1)]
    return Round(number, pool, _with_third_place(pairings, third_place_match), tuple(chosen), seed)


def draw_from_lots(
    number: int,
    lots: Mapping[str, int] | Sequence[tuple[str, int]],
    pool: Sequence[str],
    *,
    byes: int | None = None,
    previous_byes: Collection[str] = (),
    third_place_match: tuple[str, str] | None = None,
    digits: int = 2,
) -> Round:
    """A round from paper lots drawn in the room: `lots` gives each team's lot number (组号 → 签号).

    Lots 1–2 play at table 1, 3–4 at table 2, …; the lower lot is 甲方. The `byes` highest lots (default as in
    `draw_round`) are the byes, which may not fall to a team that already had more byes than a team that plays.
    Raises `LotsError` listing every problem (naming teams `digits` wide: the field's, `id_digits`).
    `third_place_match` as in `draw_round`.
    """
    pool = tuple(pool)
    problems = (_check_number(number) + check_pool(pool, digits)
                + _check_third_place_match(pool, third_place_match, digits))
    count = bye_count(len(pool)) if byes is None else byes
    if not problems:
        problems += _check_byes(pool, count)
    entries: list[tuple[str, object]] = [*lots.items()] if isinstance(lots, Mapping) else [(t, lot) for t, lot in lots]
    holders, lot_problems = _lot_holders(entries, pool, digits)
    problems += lot_problems
    plan = LotPlan(len(pool), (len(pool) - count) // 2)
    problems += _repeated_byes(plan, holders, previous_byes, digits)
    if problems:
        raise LotsError(problems, heading=f"第{number}轮的签号有误：")
    by_lot = {lot: teams[0] for lot, teams in holders.items()}
    pairings = [Pairing(k, by_lot[2 * k - 1], by_lot[2 * k]) for k in range(1, plan.matches + 1)]
    recorded = tuple(sorted(((by_lot[lot], lot) for lot in by_lot), key=lambda e: e[1]))
    byes_drawn = tuple(by_lot[lot] for lot in plan.bye_lots)
    return Round(number, pool, _with_third_place(pairings, third_place_match), byes_drawn, None, recorded)


def _lot_holders(entries: Sequence[tuple[str, object]], pool: tuple[str, ...],
                 digits: int) -> tuple[dict[int, list[str]], list[str]]:
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
        problem = _lot_problem(team_name(team, digits), given.get(team, []), n)
        if problem:
            problems.append(problem)
        else:
            holders.setdefault(given[team][0], []).append(team)  # type: ignore[arg-type]  # an int: _lot_problem checked it
    problems += [f"签号 {lot} 重复：{names_of(holders[lot], digits)}" for lot in sorted(holders) if len(holders[lot]) > 1]
    gaps = [lot for lot in range(1, n + 1) if lot not in holders]
    if gaps and n >= MIN_TEAMS:
        shown = "、".join(str(x) for x in gaps)
        problems.append(f"缺少签号 {shown}：本轮共{n}组，签号 1–{n} 应各用一次")
    return holders, problems


def _lot_problem(name: str, team_lots: list[object], n: int) -> str | None:
    """What is wrong with the lot numbers given for one team (named `name`: 第03组), if anything."""
    if not team_lots:
        return f"{name}没有签号"
    if len(team_lots) > 1:
        shown = "、".join(str(x) for x in team_lots)
        return f"{name}填了{len(team_lots)}个签号（{shown}），每组只能有一个签号"
    lot = team_lots[0]
    if isinstance(lot, bool) or not isinstance(lot, int) or lot < 1:
        return f"{name}的签号应为正整数，实际为“{lot}”"
    if lot > n:
        return f"{name}的签号 {lot} 超出范围：本轮共{n}组，签号应为 1–{n}"
    return None


def _repeated_byes(plan: LotPlan, holders: Mapping[int, list[str]], previous_byes: Collection[str],
                   digits: int) -> list[str]:
    """A bye lot drawn by a team that had more byes than some team that plays."""
    had = Counter(previous_byes)
    playing = [t for lot in range(1, 2 * plan.matches + 1) if len(holders.get(lot, ())) == 1 for t in holders[lot]]
    fewest = min((had[t] for t in playing), default=0)
    return [
        f"签号 {lot}（轮空）抽到的{team_name(team, digits)}已经轮空过，本轮还有没轮空过的组，不能让它再次轮空，请重新抽签"
        for lot in plan.bye_lots
        if len(holders.get(lot, ())) == 1 and had[team := holders[lot][0]] > fewest
    ]
