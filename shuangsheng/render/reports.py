"""What the use-cases hand the renderers, the hall and the command line, as records: a round scored table by
table (`MatchScore`, holding the table's one record, and `RoundScore`), the draw's report (`DrawReport`; `Redo` for `draw --redo`), `draw --check`'s
(`DrawCheck`) and score's (`ScoreReport`). Data only: built by `shuangsheng/usecases/`, read by every renderer;
nothing is decided here and no file is touched."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from shuangsheng.game.hands import Hand
from shuangsheng.game.match import MatchResult
from shuangsheng.knockout.advance import Advancement
from shuangsheng.knockout.checkin import Checkin, CheckinDecision, Field, Made, Situation, Verdict
from shuangsheng.knockout.knockout import MatchOutcome, Round
from shuangsheng.knockout.teams import Team
from shuangsheng.table.record import Source, TableRecord
from shuangsheng.vocabulary.errors import Issue

if TYPE_CHECKING:  # storage's records these hold (they live with the event folder's readers)
    from shuangsheng.storage.event import Event
    from shuangsheng.storage.qr_sheets import VoidedSheet
    from shuangsheng.storage.workbook import MatchSheet, Problem, RoundSheet
    from shuangsheng.storage.workbook.verify import Verification


@dataclass(frozen=True, kw_only=True)
class MatchScore:
    """One table scored: its sheet as read, the engine's replay, and its one record (`TableRecord`, built by
    `shuangsheng.usecases.scoring.score_match`), which is what every reader shows."""

    match: MatchSheet
    result: MatchResult | None  # None for a walkover, an open sheet or an unreadable one
    record: TableRecord
    phone_hands: tuple[Hand, ...] = ()  # the record's hands when it came from the phone only

    @property
    def outcome(self) -> MatchOutcome:
        """The knockout's view of the record: its winner, or why there is none yet."""
        r = self.record
        return MatchOutcome(r.table, r.status, r.winner, r.reason)

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self.record.problems

    @property
    def source(self) -> Source:
        return self.record.source

    @property
    def note(self) -> str:
        return self.record.note

    @property
    def unchecked(self) -> bool:
        return self.record.unchecked


@dataclass(frozen=True)
class RoundScore:
    sheet: RoundSheet
    matches: tuple[MatchScore, ...]
    advancement: Advancement

    @property
    def round(self) -> Round:
        return self.sheet.round

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(p for m in self.matches for p in m.problems)

    @property
    def outcomes(self) -> tuple[MatchOutcome, ...]:
        return tuple(m.outcome for m in self.matches)


class Papers(Protocol):
    """What the draw's papers writer reports (storage's `Written`): the files it wrote, the warnings to show."""

    @property
    def paths(self) -> tuple[Path, ...]: ...

    @property
    def warnings(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, kw_only=True)
class DrawReport:
    round: Round
    path: Path
    seed_generated: bool
    backup: Path | None
    title: str
    note: str | None
    teams: Mapping[str, Team]
    event: Event
    digits: int = 2  # how wide every 组号 is printed (`EventFolder.digits`, the event's one width)
    lots: Path | None = None  # the paper lots file the round was drawn from
    resumed: bool = False  # an unfinished draw completed with its recorded pairings, not drawn anew
    papers: Papers | None = None  # what the `papers` writer returned
    papers_problems: tuple[str, ...] = ()  # why the papers were not written (the draw stays unfinished)
    restored: tuple[Path, ...] = ()  # blank workbooks of recorded draws written again (`--force`)
    redo: Redo | None = None  # `draw --redo N`: what changed
    codes: Mapping[int, str] = field(default_factory=dict)  # each table's entry code (录分码), by table number
    notes: tuple[str, ...] = ()  # what the folder says (teams.xlsx changed after the draw, rules held)
    apart: str = ""  # which units and seeds the draw kept apart, one line ('' : none); the draw sheet prints it
    meetings: tuple[str, ...] = ()  # paper lots: each same-unit or seed-against-seed match they produced
    reserves: tuple[str, ...] = ()  # round 1: the 候补 pairs of teams.xlsx, not drawn
    field: Field | None = None  # round 1 drawn after 报到: the pairs 弃权 and the reserves who came in


@dataclass(frozen=True)
class Redo:
    """`draw --redo N`: round N kept its tables; at each of `replaced` (table, team out, team in) the entries were
    voided; `voided` rounds after N were voided; `backups` keep every workbook replaced or removed."""

    number: int
    replaced: tuple[tuple[int, str, str], ...]
    voided: tuple[int, ...]
    backups: tuple[Path, ...]
    sheets: tuple[VoidedSheet, ...] = ()  # the voided rounds' 扫码单: removed, or kept and why


@dataclass(frozen=True)
class DrawCheck:
    """`draw --check N`: round N drawn again from its recorded seed (or lots) and pool."""

    number: int
    seed: int | None
    pool: tuple[str, ...]
    source: str  # where the seed and pool came from: event.db, or the round workbook (a folder from before)
    agrees: bool
    differences: tuple[str, ...]
    apart: str = ""  # what the redraw kept apart, and from where when not from the record ('': nothing)


@dataclass(frozen=True, kw_only=True)
class ScoreReport:
    score: RoundScore
    checked: Path  # where the checked copy goes (written by `write_checked_copy`)
    teams: Mapping[str, Team]
    event: Event
    digits: int = 2  # how wide every 组号 is printed (`EventFolder.digits`, the event's one width)
    verification: Verification | None = None  # `score --verify`: the comparison with a second entry
    notes: tuple[str, ...] = ()  # what the user should know (a filled copy saved beside the round workbook)
    rules_held: bool = False  # a [rules] change would alter a scored round and was not accepted
    redo: int | None = None  # the later round drawn with other teams than this round now sends on (`draw --redo`)
    field: Field | None = None  # round 1 drawn after 报到: the pairs 弃权 and the reserves who came in


@dataclass(frozen=True)
class CheckinReport:
    """`shuangsheng checkin`: each press with what became of it, and the check-in after them."""

    done: tuple[tuple[Made, CheckinDecision], ...]
    checkin: Checkin
    where: Situation
    folder: Path

    @property
    def refused(self) -> tuple[Issue, ...]:
        """Why each press refused was (the command exits 1 when any was)."""
        return tuple(issue for _, decision in self.done
                     if decision.verdict not in (Verdict.CHANGED, Verdict.SAME) for issue in decision.errors)
