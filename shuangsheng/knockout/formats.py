"""The knockout's format options (`[format]` in event.toml): how 三等奖 is decided and where byes fall. Pure.

Their own module so that the knockout, which plays by them, and the event file, which reads them, both stand on
it and neither on the other.
"""

from __future__ import annotations

import enum


class ThirdPlace(str, enum.Enum):
    """Both semi-final losers share 三等奖, or they play for it."""

    SHARED = "shared"
    PLAYOFF = "playoff"


class Byes(str, enum.Enum):
    """Where byes fall: all in round 1, so round 2 starts at a power of two (default), or one in every round
    with an odd number of teams."""

    FIRST_ROUND = "first_round"
    EACH_ROUND = "each_round"


class AvoidSameUnit(str, enum.Enum):
    """Which draws keep units (and seeds) apart: round 1's only (default), or every round's."""

    FIRST_ROUND = "round1"
    EVERY_ROUND = "every_round"
