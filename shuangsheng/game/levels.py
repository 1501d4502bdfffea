"""Levels 2…A and the two sides of a match."""

from __future__ import annotations

import enum
from dataclasses import dataclass

LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


class Level(enum.IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        return LABELS[self - 2]

    def __str__(self) -> str:
        return self.label

    @classmethod
    def parse(cls, text: object) -> Level:
        """'2'…'10', 'J', 'Q', 'K', 'A' (case and full-width forms accepted); ValueError otherwise."""
        if isinstance(text, bool):
            raise ValueError(text)
        if isinstance(text, int):
            text = str(text)
        if not isinstance(text, str):
            raise ValueError(text)
        cleaned = to_halfwidth(text).strip().upper().removesuffix("级").strip()
        if cleaned in LABELS:
            return cls(LABELS.index(cleaned) + 2)
        raise ValueError(text)


class Side(enum.Enum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A

    @property
    def cn(self) -> str:
        """甲 or 乙."""
        return "甲" if self is Side.A else "乙"

    @property
    def team(self) -> str:
        """甲方 or 乙方."""
        return self.cn + "方"

    @classmethod
    def parse(cls, text: object) -> Side:
        """'A'/'B', '甲'/'乙', '甲方'/'乙方'; ValueError otherwise."""
        if not isinstance(text, str):
            raise ValueError(text)
        cleaned = to_halfwidth(text).strip().upper()
        for side in cls:
            if cleaned in (side.value, side.cn, side.team):
                return side
        raise ValueError(text)


@dataclass(frozen=True)
class Levels:
    """The two sides' levels at one moment."""

    a: Level
    b: Level

    def __getitem__(self, side: Side) -> Level:
        return self.a if side is Side.A else self.b

    def with_level(self, side: Side, level: Level) -> Levels:
        return Levels(level, self.b) if side is Side.A else Levels(self.a, level)

    @property
    def tied(self) -> bool:
        return self.a == self.b

    @property
    def leader(self) -> Side | None:
        if self.a == self.b:
            return None
        return Side.A if self.a > self.b else Side.B

    def as_json(self) -> dict[str, str]:
        return {"A": self.a.label, "B": self.b.label}


START = Levels(Level.TWO, Level.TWO)


_HALFWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def to_halfwidth(text: str) -> str:
    """Full-width ASCII forms (０-９, Ａ-Ｚ, ｘ, full-width space) to their plain forms."""
    return text.translate(_HALFWIDTH)
