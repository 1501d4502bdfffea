"""A table as it stands, as GET /api/t/<code> shows it (`table_state`): the setup, the fold of its log, and its
levels, dealers and explanations from replaying the standing hands with the same engine as everywhere
(`shuangsheng.game.hands.parse_record`, `shuangsheng.game.match.replay`). Pure: no clock, no network, no files, and
nothing kept between calls; the hall keeps each table's last state for its polls and its decisions in its own
`KnownStates` (`table_state(..., known)`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import START, Levels, Side
from shuangsheng.game.match import MatchResult, Status, replay, result_as_json
from shuangsheng.game.rules import RuleSet
from shuangsheng.table.log import Action, Entry, Log, Seat, TableSetup, fold, hand_as_json
from shuangsheng.table.status import TableStatus, table_status
from shuangsheng.vocabulary.errors import issues_json

# `status` of GET /api/t/<code>: the table's status in the phones' words — a table still being played is `open`
# for the knockout and "playing" for its phones (docs/table-api.md); the other statuses keep their values.
PHONE_STATUS = {TableStatus.OPEN: "playing"}


@dataclass(frozen=True)
class TableState:
    """A table as it stands: the setup, the fold of its log, and the engine's replay of the standing hands."""

    setup: TableSetup
    log: Log
    result: MatchResult
    entries: tuple[Entry, ...] = field(default=(), compare=False, repr=False)  # the log folded (undone hands too)

    @property
    def status(self) -> TableStatus:
        """The phones' hands as the one status: invalid when they no longer replay (the rules were changed after
        they were entered), passed_a at once, open (being played) until the end, then as the engine says."""
        if self.result.errors:
            return TableStatus.INVALID
        if self.result.status is Status.PASSED_A:
            return TableStatus.PASSED_A
        if not self.log.ended:
            return TableStatus.OPEN
        return table_status(self.result)

    @property
    def over(self) -> bool:
        """Decided after the end (or by its 加赛), or won by passing A: no hand may follow."""
        return self.status in (TableStatus.DECIDED, TableStatus.PASSED_A)

    @property
    def winner(self) -> Side | None:
        return self.result.winner if self.over else None

    @property
    def next_hand(self) -> int:
        return len(self.log.hands) + 1

    @property
    def levels(self) -> Levels:
        return self.result.levels

    @property
    def reopened(self) -> dict[str, str] | None:
        """The desk's reopening the phones are to act on — `{"reason", "time"}` (HH:MM) — while no team has confirmed
        since; None otherwise."""
        for e in reversed(self.entries):
            if e.action is Action.CONFIRM:
                return None
            if e.action is Action.REOPEN:
                return {"reason": e.reason, "time": e.time[11:16]}
        return None

    @property
    def early_end(self) -> dict[str, str] | None:
        """The desk's leave for this table to end before its time is up — `{"reason", "time"}` (HH:MM) of the latest
        — or None: `/end` is then accepted while the round clock still has time left for it."""
        for e in reversed(self.entries):
            if e.action is Action.EARLY_END:
                return {"reason": e.reason, "time": e.time[11:16]}
        return None

    @property
    def paper_rules(self) -> dict[str, str] | None:
        """The desk's standing ruling that the paper is this table's record — `{"reason", "time"}` (HH:MM) — or
        None: the phones' record counts."""
        ruling = self.log.paper
        return {"reason": ruling.reason, "time": ruling.time[11:16]} if ruling is not None else None

    @property
    def mark(self) -> int:
        """The count of the table's entries: what a page sends back as the state it made its request on."""
        return len(self.entries)

    def as_json(self) -> dict[str, object]:
        """GET /api/t/<code>; "errors" only when the standing hands no longer replay. A new dict each time (over
        values made once per state: a table's phones are answered the same state again and again)."""
        return dict(self._json)

    @functools.cached_property
    def json_bytes(self) -> bytes:
        """`as_json()` as UTF-8 JSON (`json.dumps`, ensure_ascii off), made once per state: the same state is answered
        to a table's phones again and again. UnicodeEncodeError for text UTF-8 cannot carry (a lone surrogate)."""
        return json.dumps(self._json, ensure_ascii=False).encode("utf-8")

    @functools.cached_property
    def _json(self) -> dict[str, object]:
        setup = self.setup
        shown_result = result_as_json(replace(self.result, errors=()))
        data: dict[str, object] = {"round": setup.round, "table": setup.table}
        for side in Side:
            seat = setup.seat(side)
            data[side.value] = {"team": seat.team, "shown": seat.shown or seat.team, "players": list(seat.players)}
        hands = shown_result["hands"]
        assert isinstance(hands, list)
        entered = [hand_as_json(e.record) for e in self.log.hands if e.record is not None]
        data |= {
            "hands": [{**h, "entered": e} for h, e in zip(hands, entered, strict=False)],  # as typed: 改这一局 starts from it
            "levels": self.levels.as_json(),
            "next_dealer": shown_result["next_dealer"],
            "status": PHONE_STATUS.get(self.status, self.status.value),
            "winner": self.winner.value if self.winner else None,
            "ended": self.log.ended,
            "confirmed": {side.value: side in self.log.confirmed for side in Side},
            "locked": self.log.locked,
            "reopened": self.reopened,
            "early_end": self.early_end,
            "paper_rules": self.paper_rules,
            "mark": self.mark,
        }
        if self.result.errors:
            data.update(issues_json(self.result.errors))
        return data


def table_state(setup: TableSetup, entries: Sequence[Entry], known: KnownStates | None = None) -> TableState:
    """The table after its entries, as GET /api/t/<code> shows it: folded and replayed afresh, or `known`'s kept state
    when it is that (`KnownStates.state`: the hall's, asked about the same tables again and again)."""
    if known is not None:
        return known.state(setup, entries)
    entries = tuple(entries)
    return state_of(setup, fold(entries), entries)


STATES_KEPT = 1024


class KnownStates:
    """The last state of each table, kept by the one long-lived caller that is asked about the same tables again and
    again — the hall, whose phones and desk poll (`shuangsheng.hall.hall.TableApi` and `DeskApi` share one). A state
    is immutable, so a kept one is as good as a new one when it is the fold of exactly the entries and setup asked
    about; asked about others (another entry, other teams after a redo, other rules) it folds afresh. Keeps at most
    `size` tables (all forgotten at once when full: a new round's tables take the old ones' place)."""

    def __init__(self, size: int = STATES_KEPT):
        self.size = size
        self._last: dict[tuple[int, int, Seat, Seat], TableState] = {}
        # each table's last replay, by round and table, whatever the seats: the venue display's reading of a table
        # (its setup without the players' names) finds the replay of the hands the phones' last decision made
        self._replays: dict[tuple[int, int], tuple[RuleSet, tuple[Hand, ...], MatchResult]] = {}

    def state(self, setup: TableSetup, entries: Sequence[Entry]) -> TableState:
        """`table_state(setup, entries)`, the kept one when it is that; folded afresh otherwise, and replayed unless
        the table's last replay was of these very hands under these rules."""
        entries = tuple(entries)
        known = self._last.get(_key(setup))
        if known is not None and known.entries == entries and known.setup == setup:
            return known
        log = fold(entries)
        hands = standing(log)
        replay_ = self._replays.get((setup.round, setup.table))
        result = replay_[2] if replay_ is not None and replay_[1] == hands and replay_[0] == setup.rules else None
        return self.keep(state_of(setup, log, entries, result))

    def keep(self, state: TableState) -> TableState:
        """Keep `state` as its table's last (a decision's new state, once it is stored): the next poll gets it."""
        if len(self._last) >= self.size:
            self._last.clear()
            self._replays.clear()
        setup = state.setup
        self._last[_key(setup)] = state
        self._replays[setup.round, setup.table] = (setup.rules, standing(state.log), state.result)
        return state


def _key(setup: TableSetup) -> tuple[int, int, Seat, Seat]:
    """Round, table and seats: the phones' setup (with the players' names) and the venue display's (without) are
    kept side by side; the rules are checked on the way out, not hashed on the way in."""
    return setup.round, setup.table, setup.a, setup.b


def state_of(setup: TableSetup, log: Log, entries: tuple[Entry, ...], result: MatchResult | None = None) -> TableState:
    """The state of `log` (the fold of `entries`); `result`: its standing hands' replay, when the caller has it."""
    if result is None:
        result = replayed(standing(log), setup.rules)
    return TableState(setup, log, result, entries)


def standing(log: Log) -> tuple[Hand, ...]:
    """The hands standing in `log`, in order: what the engine replays."""
    return tuple(e.record for e in log.hands if e.record is not None)


def replayed(hands: tuple[Hand, ...], rules: RuleSet) -> MatchResult:
    """The engine's replay of a table's hands from the start."""
    return replay(MatchRecord(hands, START), rules)
