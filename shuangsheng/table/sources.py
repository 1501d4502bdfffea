"""A table's record from all its sources (docs/README.md): the round workbook's sheet, the phone entries (event.db) and
the 对阵 sheet's 终局 cells (a lost card). Pure: works on what `read_round` read and the entries the ledger holds.

One source filled → that one is the record. Paper and phone both → they must agree hand by hand; each difference
is a `Difference`: a problem at the sheet's cell, of the hand and field compared, with both values as shown —
unless the desk has ruled that the paper is the record (`paper_rules`: the signed card overrules the phone): then
the workbook alone is the record (its sheet, or a lost card's 终局 cells), and the phones' entries are kept, not
counted. The
phone entries count only once the match is over (decided after the end, or won by passing A): a table still playing
on the phone is open (进行中) with its current levels, unless its paper sheet is filled. A match given by its 终局 cells alone is `final_only`: decided by those
levels, and marked 未逐局核对 wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as _field

from shuangsheng.game.hands import Hand
from shuangsheng.game.levels import START
from shuangsheng.game.match import MatchResult, Status
from shuangsheng.game.rules import RuleSet
from shuangsheng.storage.workbook.problems import Cell, Problem
from shuangsheng.storage.workbook.round_reader import FinalCard, MatchSheet
from shuangsheng.storage.workbook.schema import UNCHECKED, YES_MARK
from shuangsheng.table.log import Entry, Seat, TableSetup
from shuangsheng.table.record import PaperRules
from shuangsheng.table.state import KnownStates, TableState, table_state
from shuangsheng.vocabulary.errors import Issue, Place
from shuangsheng.vocabulary.fields import FIELDS

PHONE = "扫码录分"  # where a phone hand is, in a problem: 扫码录分 第3桌 第4局


@dataclass(frozen=True)
class PhoneTable:
    """A table's phone entries as they stand: its state (replayed by the engine) and whether they count yet."""

    state: TableState

    @property
    def hands(self) -> tuple[Hand, ...]:
        return tuple(e.record for e in self.state.log.hands if e.record is not None)

    @property
    def over(self) -> bool:
        return self.state.over


def phone_table(match: MatchSheet, entries: Sequence[Entry], rules: RuleSet, number: int,
                known: KnownStates | None = None) -> PhoneTable | None:
    """The phone's record of `match` (None without a hand entered); `known`: the hall's kept states (`serve`'s TV)."""
    p = match.pairing
    state = table_state(TableSetup(number, p.table, Seat(p.a, ()), Seat(p.b, ()), rules), entries, known)
    return PhoneTable(state) if state.log.hands else None


def paper_rules(phone: PhoneTable | None) -> PaperRules | None:
    """The desk's standing ruling that the round workbook is this table's record (its sheet, or its 终局 cells), not
    the phones' entries — the one place it is read: `score_match` then scores the table without them — or None."""
    ruling = phone.state.log.paper if phone is not None else None
    if ruling is None or phone is None:
        return None
    return PaperRules(ruling.reason, ruling.time, len(phone.hands))


def final_result(card: FinalCard) -> MatchResult:
    """A lost card's match: decided by its final levels, with no hand to show."""
    return MatchResult(outcomes=(), start=START, levels=card.levels, next_dealer=None, status=Status.DECIDED,
                       winner=card.winner)


def final_note(card: FinalCard) -> str:
    """'未逐局核对（记分卡遗失）' — shown beside a final_only match everywhere."""
    return f"{UNCHECKED}（{card.reason}）"


def phone_problems(match: MatchSheet, phone: PhoneTable) -> tuple[Problem, ...]:
    """The engine's errors in the phone's hands (the rules changed after they were entered), at the phone's hand."""
    return tuple(Problem(Place(PHONE, match.sheet, None, e.hand, e.field), e.detail) for e in phone.state.result.errors)


@dataclass(frozen=True)
class Difference(Issue):
    """One hand where the paper sheet and the phone disagree, as `--verify`'s Difference
    (shuangsheng.storage.workbook.verify) is one cell where two entries disagree. The place: the sheet's cell (file,
    sheet, cell), the hand and the field compared (field None: a hand one of the two lacks). `paper` and `phone`: the
    values as shown ('85', '空', '庄家甲方，台下得分40' for a whole hand); None where that source lacks the hand. Its
    sentence (`detail`, `message`) is worded from these parts and names the phone's hand itself, so `message` adds
    no hand part: `str()` is 'round-1.xlsx 第3桌!D9：台下得分记分表为“85”，扫码录分第3局为“58”，两者不一致'."""

    paper: str | None = None
    phone: str | None = None
    detail: str = _field(init=False, default="")  # worded from the parts, never given

    def __post_init__(self) -> None:
        object.__setattr__(self, "detail", self._sentence())

    def _sentence(self) -> str:
        n = self.place.hand
        if self.paper is None:
            return f"扫码录分有第{n}局（{self.phone}），记分表没有这一局；请核对记分卡，补上这一局或在扫码录分里撤销"
        if self.phone is None:
            return f"记分表第{n}局在扫码录分里没有；请核对记分卡"
        return f"{self.place.label}记分表为“{self.paper}”，扫码录分第{n}局为“{self.phone}”，两者不一致"

    @property
    def message(self) -> str:
        return self.detail

    @property
    def in_hand(self) -> str:
        return self.detail


def differences(match: MatchSheet, phone: PhoneTable) -> tuple[Difference, ...]:
    """Every hand where the paper sheet and the phone disagree, at the sheet's cell, naming the phone's hand."""
    paper, entered = match.record.hands, phone.hands
    found: list[Difference] = []
    for n in range(1, max(len(paper), len(entered)) + 1):
        ours = paper[n - 1] if n <= len(paper) else None
        theirs = entered[n - 1] if n <= len(entered) else None
        found.extend(_hand_differences(match, n, ours, theirs))
    return tuple(found)


def _hand_differences(match: MatchSheet, n: int, ours: Hand | None, theirs: Hand | None) -> list[Difference]:
    if ours is None:
        assert theirs is not None
        return [_at(match, _row_after(match), n, None, None, _hand_text(theirs))]
    if theirs is None:
        return [_at(match, match.cell(n), n, None, _hand_text(ours), None)]
    return [_at(match, match.cell(n, name), n, name, _value(a), _value(b))
            for name in FIELDS if (a := getattr(ours, name)) != (b := getattr(theirs, name))]


def _at(match: MatchSheet, cell: Cell | None, hand: int, field: str | None, paper: str | None,
        phone: str | None) -> Difference:
    return Difference(Place(match.file, match.sheet, cell, hand, field), paper=paper, phone=phone)


def _row_after(match: MatchSheet) -> Cell | None:
    """The 局 cell of the first row after the last hand typed (where a missing hand goes)."""
    column = match.columns.get("局")
    if column is None or match.header_row is None:
        return None
    return Cell((match.rows[-1] if match.rows else match.header_row) + 1, column)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return YES_MARK if value else "空"
    if value is None:
        return "空"
    for attribute in ("label", "cn"):  # a Level's label; a Side's or an Offense's Chinese
        text = getattr(value, attribute, None)
        if isinstance(text, str):
            return text
    return str(value)


def _hand_text(hand: Hand) -> str:
    return f"庄家{hand.dealer.team}，台下得分{hand.points}"
