"""The knockout's records and sizes: a round (`Round`, its `Pairing`s and byes), what a match came to
(`MatchOutcome`), the knockout's errors, and how many byes, rounds and lots a field has, each round's name. Pure.
Drawing a round is `shuangsheng.knockout.draw`, who goes on and what to draw next `shuangsheng.knockout.advance`,
the final placings `shuangsheng.knockout.placings`.

The shape, for any field of 2…512 teams: each round is drawn from the teams still in (round 1: the team list in
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

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shuangsheng.game.levels import Side
from shuangsheng.knockout.formats import Byes
from shuangsheng.knockout.teams import team_name
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import Issue, UserError


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


# --- names and sizes ---

MIN_TEAMS = 2
MAX_TEAMS = 512


def names_of(teams: Iterable[str], digits: int = 2) -> str:
    """'第03组、第07组', each 组号 `digits` wide (the field's, `id_digits`)."""
    return "、".join(team_name(t, digits) for t in teams)


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
