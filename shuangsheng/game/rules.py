"""The rule set in force: every option of [rules] (docs/event-toml.md), and the points → levels table it implies.

This is the one place the scoring table lives; the engine and the printed rule sheet both read it from here.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from shuangsheng.game.levels import Level
from shuangsheng.vocabulary.errors import shown

HOLD_LINE = 80  # 台下方得分不够80分 → 庄家保庄 (rule 十)
STEP = 20  # 每20分一级 (rule 十)
POLICY_LINE = 40  # 落实政策: 次副牌台下方得分不满40分 (rule 十二)
PENALTY_LEVELS = 5  # 对方升5级 (rules 十三, 十四)
CARD_PENALTY = 10  # 每错一张罚10分 (rules 八, 十四)


class DealerTable(str, enum.Enum):
    CEIL = "ceil"
    FLOOR = "floor"
    PLUS_ONE = "plus_one"


class PenaltyExcess(str, enum.Enum):
    CAP = "cap"
    DEDUCT = "deduct"


class NegativePoints(str, enum.Enum):
    ALLOW = "allow"
    CLAMP = "clamp"


class TieBreak(str, enum.Enum):
    PLAYOFF = "playoff"
    DEALER = "dealer"


def must_play_items(text: str) -> list[str]:
    """The levels of `must_play` written as one text ("2,J,A", "2、J、A", "2 J A"), as typed, each unchecked."""
    return [item for item in re.split(r"[\s,，、;；/]+", text) if item]


class RulesError(ValueError):
    """Bad `[rules]` values; `problems` lists (key, Chinese message) pairs."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__("; ".join(f"{key}: {msg}" for key, msg in problems))
        self.problems = problems


@dataclass(frozen=True)
class PointsRow:
    """One row of the printed table: defenders' points low..high (inclusive)."""

    low: int
    high: int
    dealer_keeps: bool
    levels: int


# The options that take one of a fixed set of values, by their `[rules]` key.
CHOICES: dict[str, type[enum.Enum]] = {
    "dealer_table": DealerTable,
    "penalty_excess": PenaltyExcess,
    "negative_points": NegativePoints,
    "tie_break": TieBreak,
}


@dataclass(frozen=True)
class RuleSet:
    dealer_table: DealerTable = DealerTable.CEIL
    must_play: tuple[Level, ...] = (Level.TWO, Level.JACK, Level.ACE)
    penalty_excess: PenaltyExcess = PenaltyExcess.CAP
    negative_points: NegativePoints = NegativePoints.ALLOW
    tie_break: TieBreak = TieBreak.PLAYOFF
    match_minutes: int = 60
    _must_play_set: frozenset[Level] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, kind in CHOICES.items():
            object.__setattr__(self, name, kind(getattr(self, name)))
        # A is always must-play: 先打过A者为胜方, so nobody passes A except by winning a hand as dealer on A.
        levels = frozenset(self.must_play) | {Level.ACE}
        object.__setattr__(self, "must_play", tuple(sorted(levels)))
        object.__setattr__(self, "_must_play_set", levels)

    # --- the points table (rule 十) ---

    def dealer_gain(self, points: int) -> int:
        """Levels the dealer side gains when the defenders' points P are below 80."""
        assert points < HOLD_LINE
        short = HOLD_LINE - points
        if self.dealer_table is DealerTable.CEIL:
            return -(-short // STEP)
        if self.dealer_table is DealerTable.FLOOR:
            return short // STEP
        return 1 + short // STEP

    @staticmethod
    def defender_gain(points: int) -> int:
        """Levels the defenders gain when they take the deal with P ≥ 80."""
        assert points >= HOLD_LINE
        return (points - HOLD_LINE) // STEP

    def effective_points(self, points: int) -> int:
        return max(points, 0) if self.negative_points is NegativePoints.CLAMP else points

    def points_table(self, low: int = 0, high: int = 200) -> tuple[PointsRow, ...]:
        """Rows of equal outcome for P in low..high (multiples of 5); above 80 every further 20 adds a level."""
        rows: list[PointsRow] = []
        for p in range(low, high + 5, 5):
            keeps = p < HOLD_LINE
            gain = self.dealer_gain(p) if keeps else self.defender_gain(p)
            if rows and rows[-1].dealer_keeps == keeps and rows[-1].levels == gain:
                rows[-1] = PointsRow(rows[-1].low, p, keeps, gain)
            else:
                rows.append(PointsRow(p, p, keeps, gain))
        return tuple(rows)

    # --- must-play levels (rule 二) ---

    def is_must_play(self, level: Level, *, left_two: bool) -> bool:
        """2 is must-play only until the team first leaves 2."""
        if level is Level.TWO and left_two:
            return False
        return level in self._must_play_set

    def next_must_play_above(self, level: Level) -> Level:
        return min(m for m in self._must_play_set if m > level) if level < Level.ACE else Level.ACE

    def first_must_play_from(self, level: Level, *, left_two: bool) -> Level:
        return min(m for m in self._must_play_set if m >= level and self.is_must_play(m, left_two=left_two))

    # --- reading `[rules]` ---

    def as_mapping(self) -> dict[str, object]:
        """The `[rules]` table these rules are built from (`from_mapping(r.as_mapping()) == r`)."""
        values: dict[str, object] = {name: getattr(self, name).value for name in CHOICES}
        return {**values, "must_play": [level.label for level in self.must_play], "match_minutes": self.match_minutes}

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> RuleSet:
        """Build from `[rules]` (event.toml) or a record's `rules`; RulesError lists every bad key."""
        problems: list[tuple[str, str]] = []
        kwargs: dict[str, object] = {}
        for key, value in values.items():
            if key in CHOICES:
                enum_type = CHOICES[key]
                try:
                    kwargs[key] = enum_type(value)
                except ValueError:
                    allowed = "、".join(f'"{m.value}"' for m in enum_type)
                    problems.append((key, f"应为 {allowed} 之一，实际为 {shown(value)}"))
            elif key == "must_play":
                if isinstance(value, str) and value.strip():  # "2,J,A" / "2、J、A" / "2 J A": one unambiguous list
                    value = must_play_items(value)
                if not isinstance(value, (list, tuple)) or not value:
                    problems.append((key, f'应为级数列表，如 ["2", "J", "A"]，实际为 {shown(value)}'))
                    continue
                parsed = []
                for item in value:
                    try:
                        parsed.append(Level.parse(item))
                    except ValueError:
                        problems.append((key, f"“{item}”不是级数（应为 2…10、J、Q、K、A）"))
                kwargs[key] = tuple(parsed)
            elif key == "match_minutes":
                if isinstance(value, bool) or not isinstance(value, int) or not 10 <= value <= 300:
                    problems.append((key, f"应为 10–300 之间的整数（分钟），实际为 {shown(value)}"))
                else:
                    kwargs[key] = value
            else:
                known = "、".join([*CHOICES, "must_play", "match_minutes"])
                problems.append((key, f"未知的规则项（可用：{known}）"))
        if problems:
            raise RulesError(problems)
        return cls(**kwargs)  # type: ignore[arg-type]  # each value checked above against its key


DEFAULT_RULES = RuleSet()
