"""The knockout: drawing rounds by lot, byes, advancement and the final placings. Pure.

Types are fixed here first so the workbook module and the CLI can build on them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """One match of a round: 甲方 (side A) and 乙方 (side B) team ids at a table (1…n)."""

    table: int
    a: str
    b: str
    third_place: bool = False  # the 3rd-place match of the final round (third_place = "playoff")


@dataclass(frozen=True)
class Round:
    """A drawn round. `pool` is the ordered list of team ids the draw was made from; with `seed` it reproduces
    the draw. A draw from paper lots has `seed` None and `lots` maps team id → lot number."""

    number: int
    pool: tuple[str, ...]
    pairings: tuple[Pairing, ...]
    bye: str | None
    seed: int | None
    lots: tuple[tuple[str, int], ...] = ()


class MatchState(str, enum.Enum):
    DECIDED = "decided"
    WALKOVER = "walkover"
    OPEN = "open"  # nothing recorded yet
    NEEDS_PLAYOFF = "needs_playoff"
    INVALID = "invalid"


@dataclass(frozen=True)
class MatchOutcome:
    """What a round's match came to, as the knockout needs it (from the engine's result or a walkover)."""

    table: int
    state: MatchState
    winner: str | None = None  # team id when decided or walkover
    reason: str = ""  # Chinese: why it is not decided (errors, 需加赛, 未录入)
