"""A table's entries (扫码录分, the table API of `serve`): an append-only log. Pure: no clock, no network, no files.

Who plays at the table is fixed by the draw (`TableSetup`). Each accepted change is an `Entry`: a hand added, the
end (时间到, rule 十六), an undo, a team's confirmation, the desk's reopening, extra minutes, a confirmation by the
desk, the desk's leave to end before time is up, the desk's ruling that the paper is the table's record (以纸质为准, or
its undoing). Nothing is ever changed or deleted; an undo is itself an entry. `fold` reads the log in order into the
hands that stand and the table's flags (ended, confirmed, locked, extra minutes, the paper's ruling): any change but a
confirmation, extra minutes, the leave to end early or the paper's ruling clears both confirmations. An entry as the
ledger stores it is `Entry.as_json`, read back by `read_entry`;
the desk's actions on a table are `desk_log`."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.game.hands import Hand, RecordError, parse_record
from shuangsheng.game.levels import Side
from shuangsheng.game.rules import DEFAULT_RULES, RuleSet
from shuangsheng.vocabulary.errors import shown
from shuangsheng.vocabulary.fields import FIELDS


@dataclass(frozen=True)
class Seat:
    team: str  # the 组号, e.g. "03"
    players: tuple[str, ...]
    shown: str = ""  # the 组号 as pages show it ('003' in a field over 99: knockout.teams.shown_id); "" → `team`


@dataclass(frozen=True)
class TableSetup:
    """What the draw fixed for one table: round, table number, both sides, and the rules in force."""

    round: int
    table: int
    a: Seat
    b: Seat
    rules: RuleSet = DEFAULT_RULES
    digits: int = 2  # how wide the event prints its 组号 (the seats' `shown`; knockout.teams.id_digits)

    def seat(self, side: Side) -> Seat:
        return self.a if side is Side.A else self.b

    def name(self, team: str) -> str:
        """第07组 (第007组 in a field over 99): a team as the pages and papers name it, this table's or another."""
        return f"第{team.rjust(self.digits, '0') if team.isdigit() else team}组"


class Action(str, enum.Enum):
    HAND = "hand"
    END = "end"
    UNDO = "undo"  # `hand` names the hand removed; None: the end undone
    CONFIRM = "confirm"
    REOPEN = "reopen"
    MINUTES = "minutes"  # the desk's extra minutes for this table (`add`, with a reason)
    AMEND = "amend"  # hand `hand` replaced by `record`; the hands after it up to `kept` stand, the rest go
    EARLY_END = "early_end"  # the desk allows this table to end before its time is up (with a reason)
    PAPER_RULES = "paper_rules"  # the desk: the round workbook is the table's record, not the phones (`lifted`: undone)


@dataclass(frozen=True)
class Stamp:
    """Where a request came from and when: `id` is the server's id for the entry (a hand, and a desk action sent
    with one, keeps the client's `id` from its body instead), `time` ISO 8601 with the PC's UTC offset, `address`
    the device's IP address."""

    id: str
    time: str
    address: str


@dataclass(frozen=True)
class Entry:
    """One accepted change, as the ledger keeps it: never updated, never deleted."""

    id: str
    action: Action
    time: str
    address: str
    hand: int | None = None  # HAND: its number; UNDO: the hand removed (None: the end)
    record: Hand | None = None  # HAND: the hand as the engine reads it (`playoff` set by the table)
    side: Side | None = None  # CONFIRM
    reason: str = ""  # REOPEN, MINUTES, EARLY_END; a desk's CONFIRM (rule 十七)
    add: int | None = None  # MINUTES: the minutes added
    kept: int | None = None  # AMEND: how many hands stand after it (the later ones the engine refused are removed)
    unend: bool = False  # AMEND: the end undone with it (a regular hand removed, or the lead at time changed)
    correction: bool = False  # REOPEN, PAPER_RULES: of a table whose next round is drawn (an 更正)
    lifted: bool = False  # PAPER_RULES: the ruling undone (the phones' record counts again)

    @property
    def by_desk(self) -> bool:
        """The desk's action (a reopening, extra minutes, the leave to end early, a confirmation for a team, 以纸质为准):
        these carry a reason."""
        return self.action in (Action.REOPEN, Action.MINUTES, Action.EARLY_END, Action.PAPER_RULES) or (
            self.action in (Action.CONFIRM, Action.AMEND) and bool(self.reason))

    def as_json(self) -> dict[str, object]:
        """The entry as the ledger stores it (`read_entry` reads it back)."""
        data: dict[str, object] = {"id": self.id, "action": self.action.value, "time": self.time,
                                   "address": self.address}
        if self.hand is not None:
            data["hand"] = self.hand
        if self.record is not None:
            data["record"] = hand_as_json(self.record)
        if self.side is not None:
            data["side"] = self.side.value
        if self.reason:
            data["reason"] = self.reason
        if self.add is not None:
            data["add"] = self.add
        if self.kept is not None:
            data["kept"] = self.kept
        if self.unend:
            data["unend"] = True
        if self.correction:
            data["correction"] = True
        if self.lifted:
            data["lifted"] = True
        return data

    def log_json(self) -> dict[str, object]:
        """A desk action as the desk's log shows it: time, action, its values, reason and address."""
        data: dict[str, object] = {"time": self.time, "action": self.action.value}
        if self.add is not None:
            data["add"] = self.add
        if self.side is not None:
            data["side"] = self.side.value
        if self.action is Action.AMEND:
            data["hand"] = self.hand
        if self.action is Action.PAPER_RULES:
            data["undo"] = self.lifted
        return data | {"reason": self.reason, "address": self.address}


def hand_as_json(hand: Hand) -> dict[str, object]:
    """A hand as an input hand of the match record (docs/match-record.md): the fields that differ from the default."""
    data: dict[str, object] = {"dealer": hand.dealer.value, "points": hand.points}
    default = Hand(hand.dealer)
    for name in FIELDS[2:]:
        value = getattr(hand, name)
        if value != getattr(default, name):
            data[name] = value.value if name == "offense" else value.label if name == "level" else value
    return data


def read_entry(data: Mapping[str, object]) -> Entry:
    """An entry as `Entry.as_json` wrote it; ValueError for anything else (a damaged ledger row)."""
    try:
        record = None
        if "record" in data:
            parsed, _ = parse_record({"hands": [data["record"]]})
            record = parsed.hands[0]
        side = Side(data["side"]) if "side" in data else None
        hand, add, kept = (_whole_or_none(data.get(key)) for key in ("hand", "add", "kept"))
        unend, correction, lifted = (data.get(key, False) for key in ("unend", "correction", "lifted"))
        if not isinstance(unend, bool) or not isinstance(correction, bool) or not isinstance(lifted, bool):
            raise ValueError((unend, correction, lifted))
        return Entry(str(data["id"]), Action(data["action"]), str(data["time"]), str(data["address"]),
                     hand=hand, record=record, side=side, reason=str(data.get("reason", "")), add=add, kept=kept,
                     unend=unend, correction=correction, lifted=lifted)
    except (KeyError, TypeError, RecordError) as exc:
        raise ValueError(f"不是录分记录：{shown(dict(data))}") from exc


def _whole_or_none(number: object) -> int | None:
    """A number field of a stored entry: a whole number or absent; ValueError for anything else."""
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise ValueError(number)
    return number


@dataclass(frozen=True)
class Log:
    """The fold of a table's entries: the hands that stand, and the table's flags."""

    hands: tuple[Entry, ...] = ()
    ended: bool = False
    confirmed: frozenset[Side] = frozenset()
    locked: bool = False
    extra_minutes: int = 0  # the desk's extra minutes for this table, all added up
    paper: Entry | None = None  # the desk's standing ruling that the paper is the record (PAPER_RULES), if any


def fold(entries: Sequence[Entry]) -> Log:
    """The log after every entry in order. Any change but a confirmation, extra minutes or the paper's ruling
    clears both confirmations."""
    log = Log()
    for entry in entries:
        log = step(log, entry)
    return log


def step(log: Log, entry: Entry) -> Log:
    """One entry on the log (built field by field: a table's phones fold its log on every request)."""
    hands, ended, confirmed, locked, extra = log.hands, log.ended, log.confirmed, log.locked, log.extra_minutes
    paper, action = log.paper, entry.action
    if action is Action.CONFIRM:
        confirmed = confirmed | {entry.side}  # type: ignore[arg-type]  # a damaged row's None folds as ever (test_entry)
        return Log(hands, ended, confirmed, len(confirmed) == 2, extra, paper)
    if action is Action.REOPEN:
        return Log(hands, ended, frozenset(), False, extra, paper)
    if action is Action.MINUTES:
        return Log(hands, ended, confirmed, locked, extra + (entry.add or 0), paper)
    if action is Action.EARLY_END:  # the record is as it was: the state reads the leave from the entries
        return log
    if action is Action.PAPER_RULES:
        return Log(hands, ended, confirmed, locked, extra, None if entry.lifted else entry)
    if action is Action.HAND:
        return Log((*hands, entry), ended, frozenset(), locked, extra, paper)
    if action is Action.END:
        return Log(hands, True, frozenset(), locked, extra, paper)
    if action is Action.AMEND:
        return _amended(log, entry)
    if entry.hand is None:  # UNDO of the end
        return Log(hands, False, frozenset(), locked, extra, paper)
    if not hands or hands[-1].hand != entry.hand:  # nothing to remove (a decision never appends this)
        return Log(hands, ended, frozenset(), locked, extra, paper)
    removed = hands[-1]
    ended = ended and removed.record is not None and removed.record.playoff
    return Log(hands[:-1], ended, frozenset(), locked, extra, paper)


def _amended(log: Log, entry: Entry) -> Log:
    """Hand `entry.hand` replaced by the entry itself; the hands after it up to `entry.kept` stand, the rest go; the
    end undone when the entry says so. (An amend of a hand not standing changes nothing: a decision never appends
    one.)"""
    k, kept = entry.hand, entry.kept
    if k is None or kept is None or not 1 <= k <= len(log.hands) or kept < k:
        return Log(log.hands, log.ended, frozenset(), log.locked, log.extra_minutes, log.paper)
    hands = (*log.hands[: k - 1], entry, *log.hands[k:kept])
    return Log(hands, log.ended and not entry.unend, frozenset(), log.locked, log.extra_minutes, log.paper)


def open_for_correction(entries: Sequence[Entry]) -> bool:
    """The desk reopened the table after its next round was drawn (a correction): it takes changes again."""
    return any(e.action is Action.REOPEN and e.correction for e in entries)


def desk_log(entries: Sequence[Entry]) -> list[dict[str, object]]:
    """The desk's actions on a table (reopenings, extra minutes, leaves to end early, desk confirmations), oldest
    first."""
    return [e.log_json() for e in entries if e.by_desk]
