"""Who a draw keeps apart: the teams of one 单位, and the 种子 (issue 33 item 3). Pure; the randomness is the
draw's own `random.Random(seed)`, passed in.

There are no fixed halves (every round is drawn again by lot among the winners), so "apart" means: in a draw that
applies it (round 1; every round with `[format] avoid_same_unit = "every_round"`),

1. the byes go first to the teams with the fewest byes so far (as in every draw), then to the seeds, 1 before 2
   before …, then by lot — so in round 1 the seeds are the first to go straight on;
2. the teams that play are paired with the fewest same-unit matches possible for the numbers (proved in `repair`),
   then with as few seed-against-seed matches as `repair`'s swaps reach (the fewest possible whenever the units do
   not stand in the way, also proved there).

What the lot then is: the shuffle of `draw_round` gives a pairing uniform over all pairings (and tables and sides);
one that already has no avoidable meeting is kept as it is — so among the draws needing no repair the lot is exactly
uniform — and any other is repaired by swaps, each chosen uniformly among the swaps that improve it. The result is
therefore "uniform over shuffles, then repaired": every pairing with the fewest meetings can come out, but not each
with exactly the same chance. The same seed and pool always give the same draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.knockout.teams import Team, team_name

Pair = tuple[str, str]


@dataclass(frozen=True)
class Apart:
    """Each team's 单位 and 种子 as a draw applies them (a team not named has neither; a blank unit is none)."""

    units: tuple[tuple[str, str], ...] = ()  # (team, unit), sorted
    seeds: tuple[tuple[str, int], ...] = ()  # (team, seed), sorted

    @classmethod
    def of(cls, teams: Iterable[Team]) -> Apart:
        teams = tuple(teams)
        return cls(tuple(sorted((t.id, t.unit) for t in teams if t.unit)),
                   tuple(sorted((t.id, t.seed) for t in teams if t.seed is not None)))

    @classmethod
    def from_json(cls, data: object) -> Apart:
        """From `as_json`'s value (None or anything else: nothing kept apart)."""
        if not isinstance(data, dict):
            return cls()
        units, seeds = data.get("units", {}), data.get("seeds", {})
        return cls(tuple(sorted((str(t), str(u)) for t, u in units.items() if u)),
                   tuple(sorted((str(t), int(s)) for t, s in seeds.items())))

    def as_json(self) -> dict[str, dict[str, str] | dict[str, int]]:
        return {"units": dict(self.units), "seeds": dict(self.seeds)}

    def among(self, pool: Iterable[str]) -> Apart:
        """Only the teams of `pool`."""
        members = set(pool)
        return Apart(tuple(e for e in self.units if e[0] in members), tuple(e for e in self.seeds if e[0] in members))

    def __bool__(self) -> bool:
        return bool(self.units or self.seeds)

    @property
    def unit_of(self) -> dict[str, str]:
        return dict(self.units)

    @property
    def seed_of(self) -> dict[str, int]:
        return dict(self.seeds)

    def description(self) -> str:
        """The draw sheet's line saying what was applied: '抽签时同单位的组尽量不相遇、种子尽量不相遇（种子优先轮空）'."""
        kept = (["同单位的组尽量不相遇"] if self.units else []) + (["种子尽量不相遇（种子优先轮空）"] if self.seeds else [])
        return "抽签时" + "、".join(kept) if kept else ""


NOTHING_APART = Apart()  # a plain lot


def bye_order(order: Sequence[str], had: Mapping[str, int], apart: Apart) -> list[str]:
    """The teams in the order they take byes: fewest byes so far first; then the seeds by number; then the later
    in the shuffled `order` first (without seeds, exactly the order `draw_round` has always used)."""
    seeds = apart.seed_of
    later_first = list(reversed(order))
    rank = {t: i for i, t in enumerate(later_first)}
    return sorted(later_first, key=lambda t: (had.get(t, 0), t not in seeds, seeds.get(t, 0), rank[t]))


def _cost(pair: Pair, units: Mapping[str, str], seeds: Mapping[str, int]) -> tuple[int, int]:
    a, b = pair
    same = int(a in units and units.get(b) == units[a])
    return same, int(a in seeds and b in seeds)


def repair(pairs: Sequence[Pair], apart: Apart, rng: random.Random) -> list[Pair]:
    """`pairs` (at tables 1…k) with their avoidable meetings removed by swaps: while some pair meets a team of its
    own unit or is two seeds, one of the swaps {a-b, c-d} → {a-c, b-d} or {a-d, b-c} that lowers (same-unit
    matches, seed matches) of the two pairs — in that order — is made, chosen uniformly with `rng` among all such
    swaps of that pair, the pairs taken in table order, pass after pass until a pass makes none. Each swap lowers
    the totals (same-unit, seed) in that order, each 0…m/2 for m teams, so this ends within (m/2 + 1)² swaps.

    **Same-unit matches reach the minimum.** For m teams of which L are in the largest unit, no pairing has fewer
    than max(0, L − m/2) same-unit matches: at most m − L of the L pair with another unit, and the rest,
    L − (m − L) = 2L − m, pair among themselves: (2L − m)/2 = L − m/2 matches. When no swap is left for a same-unit pair a-b of unit U: a pair
    c-d with neither in U would give one (a-c and b-d are not same-unit, and c-d lost nothing or a same-unit match),
    so every other pair holds a team of U; and as U's pairs hold two each, every team outside U (m − L_U of them)
    faces one of U, leaving L_U − m/2 same-unit matches, all within U. That is ≥ 1, so L_U > m/2: U is the largest
    unit, and the count is the minimum.

    **Seed matches** (s seeds among the m) cannot be fewer than max(0, s − m/2) by the same count; when no unit
    stands in the way (no two teams of one unit, or units not given), a seed pair a-b with no swap left means every
    other pair holds a seed (an unseeded pair c-d would give one), so exactly s − m/2 remain: the minimum. Where the
    units forbid the swaps, seed matches are reduced as far as the swaps go (not proved minimal)."""
    units, seeds = apart.unit_of, apart.seed_of
    out = list(pairs)
    if not apart:
        return out
    costs = [_cost(p, units, seeds) for p in out]
    improved = True
    while improved:  # passes over the pairs until one makes no swap
        improved = False
        for i in range(len(out)):
            if costs[i] == (0, 0) or not (options := _swaps(out, costs, i, units, seeds)):
                continue
            j, first, second = options[rng.randrange(len(options))]
            out[i], out[j] = first, second
            costs[i], costs[j] = _cost(first, units, seeds), _cost(second, units, seeds)
            improved = True
    return out


def _swaps(out: Sequence[Pair], costs: Sequence[tuple[int, int]], i: int, units: Mapping[str, str],
           seeds: Mapping[str, int]) -> list[tuple[int, Pair, Pair]]:
    """Every swap of pair `i` with another that lowers their (same-unit, seed) total: (the other, new i, new j)."""
    a, b = out[i]
    found = []
    for j, (c, d) in enumerate(out):
        if j == i:
            continue
        before = (costs[i][0] + costs[j][0], costs[i][1] + costs[j][1])
        for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
            x, y = _cost(first, units, seeds), _cost(second, units, seeds)
            if (x[0] + y[0], x[1] + y[1]) < before:
                found.append((j, first, second))
    return found


def fewest_same_unit(teams: Sequence[str], apart: Apart) -> int:
    """max(0, L − m/2): the fewest same-unit matches any pairing of the `teams` (m, an even number) can have, L
    the size of the largest unit among them (see `repair`)."""
    counts = Counter(u for t in teams if (u := apart.unit_of.get(t)))
    largest = max(counts.values(), default=0)
    return max(0, largest - len(teams) // 2)


def meetings(pairs: Iterable[Pair], apart: Apart, digits: int = 2) -> list[str]:
    """Each same-unit or seed-against-seed match among `pairs` (at tables 1…), said: '第3桌：第01组与第07组同为
    “化学系”'; '第4桌：1号种子第01组与2号种子第05组相遇' (组号 `digits` wide: the field's, `id_digits`)."""
    units, seeds = apart.unit_of, apart.seed_of
    said = []
    for table, (a, b) in enumerate(pairs, start=1):
        na, nb = team_name(a, digits), team_name(b, digits)
        if a in units and units.get(b) == units[a]:
            said.append(f"第{table}桌：{na}与{nb}同为“{units[a]}”")
        if a in seeds and b in seeds:
            said.append(f"第{table}桌：{seeds[a]}号种子{na}与{seeds[b]}号种子{nb}相遇")
    return said
