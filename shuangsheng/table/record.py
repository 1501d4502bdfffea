"""One table's record (`TableRecord`): what its sources add up to, built once by
`shuangsheng.usecases.scoring.score_match` from the paper sheet, the phone entries and the 终局 cells, and read by
every renderer — the TV, the desk, the results PDF and picture, `score --json`, the checked copy and the terminal.
Pure, data only: where a table stands is decided here (its properties), never again by a reader.

`status` is the one status (`shuangsheng.table.status.TableStatus`); `source` says where the record came from.
Whether the hall may show a result as final depends on one more fact only the use-cases know — whether `score`
recorded it as it stands (`shuangsheng.usecases.announced`) — and is decided here too (`TableRecord.final`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from shuangsheng.game.levels import Level, Levels, Side
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import Issue


class Source(str, enum.Enum):
    """Where a table's record came from: `"source"` of `score --json` (docs/README.md). Not a status: a paper
    table and a phone table may stand the same."""

    PAPER = "paper"  # the round workbook's sheet (or nothing recorded yet)
    PHONE = "phone"  # the phone entries only
    BOTH = "both"  # the sheet and the phones, compared hand by hand
    FINAL_ONLY = "final_only"  # the 对阵 sheet's 终局 cells of a lost card: no hand checked


@dataclass(frozen=True)
class Playoff:
    """A tied table's 加赛: the level both sides are on and who deals the first 加赛 hand."""

    level: Level
    first_dealer: Side
    played: int  # 加赛 hands already recorded


@dataclass(frozen=True)
class PaperRules:
    """The desk's ruling that the round workbook is this table's record, not the phones' entries (以纸质为准,
    docs/table-api.md): why and when (ISO 8601), and how many hands the phones had entered — kept in event.db, not
    counted."""

    reason: str
    time: str
    phone_hands: int

    def as_json(self) -> dict[str, object]:
        return {"reason": self.reason, "time": self.time, "phone_hands": self.phone_hands}


@dataclass(frozen=True, kw_only=True)
class TableRecord:
    """One table as all its sources say, every fact a reader shows."""

    table: int
    third_place: bool
    a: str  # team ids
    b: str
    status: TableStatus
    source: Source = Source.PAPER
    levels: Levels | None = None  # after the last recorded hand (a lost card's 终局); None without hands
    winner: str | None = None  # team id of the side going on (won at the table, or by the other's walkover)
    forfeit: Side | None = None  # the side that forfeited (walkover)
    hands: int = 0  # regular hands recorded
    playoff_hands: int = 0
    tied_at_time: bool = False  # levels equal when time was up (whether or not 加赛 has decided it since)
    playoff: Playoff | None = None  # set while 加赛 is still to be played
    problems: tuple[Issue, ...] = ()  # the reader's, the engine's and the sources' differences, each at its place
    reason: str = ""  # why there is no winner yet, or how it was won (弃权), in the words of the reports
    note: str = ""  # '未逐局核对（记分卡遗失）': decided by the 终局 cells of a lost card, no hand checked
    confirmed: bool = False  # the phone's record accepted by both teams (the table is locked)
    paper_rules: PaperRules | None = None  # the desk gave the record to the paper over the phones' entries

    @property
    def errors(self) -> tuple[Issue, ...]:
        """`problems` under the name the wording templates use (round_results.j2: `t.errors`)."""
        return self.problems

    @property
    def unchecked(self) -> bool:
        return self.source is Source.FINAL_ONLY

    @property
    def playing(self) -> bool:
        """Entered by phone and not over yet: 进行中 with its current levels."""
        return self.source is Source.PHONE and self.status is TableStatus.OPEN

    @property
    def in_play(self) -> bool:
        """Still open to change on the phones: playing, or over and not yet confirmed by both teams (a phone
        table whose hands no longer replay is a mistake to fix, not play)."""
        return self.playing or (self.source is Source.PHONE and not self.confirmed
                                and self.status is not TableStatus.INVALID)

    @property
    def settled(self) -> bool:
        """Nothing more to come from the table: a winner, and for a record the phones hold, both teams'
        confirmation (a sheet or a lost card's 终局 cells need none)."""
        return self.status.has_winner and (self.source in (Source.PAPER, Source.FINAL_ONLY) or self.confirmed)

    def final(self, scored: bool = True) -> bool:
        """Whether the hall may show this result as final: never while in play; else as `score` recorded it with
        the sheet unchanged (`scored`), or a phone table both teams confirmed."""
        if self.in_play:
            return False
        return scored or (self.source in (Source.PHONE, Source.BOTH) and self.confirmed)

    @property
    def all_hands(self) -> int:
        return self.hands + self.playoff_hands

    @property
    def winner_side(self) -> Side | None:
        if self.winner is None:
            return None
        return Side.A if self.winner == self.a else Side.B

    def team(self, side: Side) -> str:
        return self.a if side is Side.A else self.b
