"""The table API of the hall (docs/table-api.md, 各桌录分接口): `TableApi.handle` takes a parsed `Request` and refuses
what docs/table-api.md lists (the one request check, `request_check`: a `Host` not ours 421, a path of no route 404,
a wrong method 405, a POST not `application/json` 415, a body over 16 KB 413; then an address with 5 wrong codes in
a minute 429, a wrong or outdated code 404), and otherwise calls the pure decision of `shuangsheng.table.entry` on
the table's committed entries; a decision that appends something is made again inside one write transaction of the
ledger (`Ledger.decide_entry`): the entry is committed to event.db before the answer is given. In that transaction
the table's draw must still be in force (a change caught by a `draw --redo` is handled again from its code:
`DrawReplaced`) and its next round not drawn (423, sealed), and event.db still the file serve opened (else 503:
`ServedFile`, docs/ledger.md). It shares event.db's one connection with the desk (`shuangsheng.hall.shared_ledger`).
The HTTP side is `shuangsheng.hall.hall`."""

from __future__ import annotations

import json
import secrets
import sqlite3
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from shuangsheng.hall.api_common import (
    BUSY,
    DAMAGED_TABLE,
    LOST,
    NOT_READY,
    BadBody,
    Meanwhile,
    Reply,
    Request,
    Sealed,
    Seating,
    ServedFile,
    Throttle,
    Words,
    checked,
    fault,
    json_body,
    nothing_meanwhile,
    now_iso,
    refusal,
    request_check,
)
from shuangsheng.hall.shared_ledger import PATIENCE, Patience, SharedLedger, patiently
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lost import LedgerError, LedgerLost
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.table import amend, entry
from shuangsheng.table.clock import Clock, clock_at, parse_time
from shuangsheng.table.codes import parse_code
from shuangsheng.table.log import Entry, Stamp, TableSetup, open_for_correction
from shuangsheng.table.state import KnownStates, TableState

SEALED = "下一轮已经抽签，本桌的记录已封存，不能再在手机上改动；如有争议请到裁判台"
MOVING = "本轮刚刚重新抽签，请稍后再提交一次"

TOO_MANY = "录分码输错的次数太多，请一分钟后再试；录分码印在本桌计分卡上（录分码 XXXX-XXXX）"
WRONG_CODE = "录分码不对或已作废（重新抽签后换了新码）；请核对本桌计分卡上印的录分码"
NO_SUCH = "没有这个地址"
ONLY = {"GET": "只能用 GET 读取本桌", "POST": "只能用 POST 提交"}
WORDS = Words(NO_SUCH, ONLY)


class CodesInForce:
    """Every entry code in force, with its draw and table, as the table API last read them from event.db: read again
    when a draw or a code is recorded (`Ledger.mark` moves) or the connection is another one (an event.db set aside
    and rebuilt may reach the same mark with other codes). Asked with the ledger lent: one request at a time."""

    def __init__(self) -> None:
        self._version: tuple[object, tuple[int, int, int]] | None = None
        self._found: dict[str, tuple[DrawRecord, int]] = {}
        self._last_round = 0
        self.known: frozenset[str] | None = None  # the codes in force as last read, None before the first reading

    def find(self, book: Ledger, code: str, mark: tuple[int, int, int] | None = None) -> tuple[DrawRecord, int] | None:
        """The draw in force and the table whose code in force is `code` (None: a wrong or outdated code); `mark`:
        `book.mark()` as the caller just read it."""
        version = (book, mark or book.mark())
        if self._version != version:
            _, drawn = book.in_force()
            self._found = {c: (record, table) for record, codes in drawn.values() for table, c in codes.items()}
            self._last_round = max(drawn, default=0)
            self._version = version
            self.known = frozenset(self._found)
        return self._found.get(code)

    def sealed(self, record: DrawRecord) -> bool:
        """A round whose next round has been drawn (as of the last `find`): its tables' records are sealed against
        the phones (what they decided has been drawn on) until the desk reopens one for a correction
        (`open_for_correction`)."""
        return self._last_round > record.round.number


@dataclass(frozen=True)
class Asked:
    code: str  # as typed in the address
    action: str | None  # None: the table itself (GET)


class TableApi:
    """The table API: one `handle(request) → Reply` per request, safe from many threads at once. `meanwhile` (tests):
    called with the ledger lent at two moments of each try of a request — "find", before the table's code is looked
    up; "decided", when a change has been decided on the entries committed so far, before the seal is checked and
    the change decided again and appended in the write transaction. `ledger`: the hall's one connection to
    event.db, shared with the desk (a new one on `served` when not given); `patience`: how long a request waits for
    another program's lock (`shuangsheng.hall.shared_ledger.Patience`); `states`: each table's last state, kept for
    the polls (shared with the desk; a new one when not given)."""

    def __init__(self, folder: Path, *, names: Collection[str], port: int, throttle: Throttle | None = None,
                 clock: Callable[[], str] = now_iso, seating: Seating | None = None, served: ServedFile | None = None,
                 meanwhile: Meanwhile = nothing_meanwhile, ledger: SharedLedger | None = None,
                 patience: Patience = PATIENCE, states: KnownStates | None = None):
        self.folder = folder
        self.meanwhile = meanwhile
        self.patience = patience
        self.names = frozenset(names)
        self.port = port
        self.throttle = throttle or Throttle()
        self.clock = clock
        self.seating = seating or Seating(folder)
        self.ledger = ledger or SharedLedger(folder, served)  # requests decided one at a time (its docstring says why)
        self.codes = CodesInForce()
        self.states = states or KnownStates()

    def close(self, *, wait: float = 0.0) -> None:
        """Close (and checkpoint) the ledger kept open, waiting up to `wait` seconds for the request in flight; the
        API may still answer, opening and closing it for each request."""
        self.ledger.close(wait=wait)

    def handle(self, request: Request) -> Reply:
        found = request_check(request, "table", names=self.names, port=self.port, words=WORDS)
        if isinstance(found, Reply):
            return found
        asked = Asked(found.params["code"], found.params.get("action"))
        if self.throttle.blocked(request.address):
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY)
        suspect = self._suspect(asked.code)
        if suspect and not self.throttle.admit(request.address):  # held before it waits for the ledger
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY)
        reply: Reply | None = None
        try:
            reply = self._answer(request, asked, suspect=suspect)
        finally:
            if suspect:  # wrong after all, or right (a draw gave the code since the codes were read)
                self.throttle.settle(request.address, wrong=reply is not None and reply.status == HTTPStatus.NOT_FOUND)
        return reply

    def _answer(self, request: Request, asked: Asked, *, suspect: bool) -> Reply:
        """The request, tried again as `patience` says (`patiently`); a known fault of the PC's disk or folder, a
        damaged entry row of this table and a lost event.db said in plain words (503). A POST's body is read before
        the ledger is lent (its refusal is said only once the table is found)."""
        body = read_body(request) if asked.action is not None else None
        try:
            return patiently(lambda moved: self._table(request, asked, body, moved=moved, suspect=suspect),
                             self.patience,
                             held=refusal(HTTPStatus.SERVICE_UNAVAILABLE, BUSY),
                             redrawn=refusal(HTTPStatus.SERVICE_UNAVAILABLE, MOVING))
        except LedgerLost:  # event.db is not the file serve opened: nothing stored (the console says why)
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, LOST)
        except sqlite3.DatabaseError as exc:
            known = fault(exc)  # a full disk, a damaged file: said in plain words
            if known is None:
                raise
            return known
        except ValueError as exc:  # one damaged entry row of this table (`ledger.table_entries`)
            if isinstance(exc, LedgerError):  # not a row: the ledger as a whole
                raise
            self.damaged(exc)
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, DAMAGED_TABLE)

    def _suspect(self, typed: str) -> bool:
        """A code that is no code, or none of the codes in force as last read: held before it is looked
        up (`Throttle.admit`: held as pending, counted only when found wrong), so that a burst of wrong codes from
        one address is refused after the fifth, not all looked up while the first ones wait for the ledger."""
        code = parse_code(typed)
        known = self.codes.known
        return code is None or (known is not None and code not in known)

    def _table(self, request: Request, asked: Asked, body: object, *, moved: bool = False,
               suspect: bool = False) -> Reply:
        """`moved`: this request's table was redrawn under it (`DrawReplaced`); a code not found now may be
        one the redraw has not carried over yet, so the phone is told to send again (503), not that it is wrong.
        `suspect`: counted as a wrong code already (`_suspect`)."""
        with self.ledger.lend() as book:
            if book is None:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
            code = parse_code(asked.code)
            self.meanwhile("find")
            mark = book.mark()  # the draws and codes as they stand: one look for the code and the setup
            found = self.codes.find(book, code, mark) if code is not None else None
            if found is None and moved:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, MOVING)
            if found is None:
                if not suspect:
                    self.throttle.wrong(request.address)
                return refusal(HTTPStatus.NOT_FOUND, WRONG_CODE)
            record, table = found
            setup = self.seating.setup(record, table, book, mark)
            if asked.action is None:
                state = self.states.state(setup, book.table_entries(record.id, table))
                return state_reply(HTTPStatus.OK, state, self._clock(book, record.id, state))
            if isinstance(body, BadBody):
                return body.reply
            stamp = Stamp(secrets.token_hex(8), self.clock(), request.address)
            clock = self._round_clock(book, record.id, stamp.time) if asked.action == "end" else None
            decide = decider(asked.action, setup, body, stamp, clock, self.states)
            entries = book.table_entries(record.id, table)
            decision = decide(entries)  # on what is committed now, without waiting
            if decision.entry is not None:
                self.meanwhile("decided")
            if decision.entry is not None and self.codes.sealed(record) and not open_for_correction(entries):
                return sealed(decision)
            if decision.entry is not None:  # a change: decided again, and appended, in one write transaction
                try:
                    decision = book.decide_entry(record.id, table, checked(book, record, made_on(decide, entries,
                                                                                                 decision)))
                except Sealed as drawn:  # the next round was drawn (by another process) since the look above
                    return sealed(drawn.decision)
            self.states.keep(decision.state)  # stored (or the table as it stands): what its next poll gets
            shown = self._clock(book, record.id, decision.state) if decision.http_status < 300 else None
        return decided_reply(decision, shown)

    def damaged(self, exc: ValueError) -> None:
        """One line on serve's console for a damaged entry row (no traceback): the organiser hears which row."""
        print(f"event.db 里有一条录分记录损坏了，这一桌暂时不能扫码录分（其他各桌照常）：{exc}", file=sys.stderr)

    def _clock(self, book: Ledger, draw_id: int, state: TableState) -> dict[str, object] | None:
        """This table's clock (the round's minutes plus its extra minutes), None before the desk starts it."""
        found = self._round_clock(book, draw_id, self.clock())
        return found.table_json(state.log.extra_minutes) if found is not None else None

    def _round_clock(self, book: Ledger, draw_id: int, now: str) -> Clock | None:
        """The round's clock at `now`, None before the desk starts it."""
        # the minutes of event.toml as it is, as the desk and the TV have them (they do not score a round: a round
        # held under the rules it was scored with keeps one clock with the rest of the hall)
        return clock_at(book.clock_rows(draw_id), parse_time(now), self.seating.rules().match_minutes)


def read_body(request: Request) -> object:
    """A POST's JSON body (`json_body`), or the BadBody that refuses it."""
    try:
        return json_body(request.body)
    except BadBody as bad:
        return bad


def decided_reply(decision: entry.Decision, clock: dict[str, object] | None) -> Reply:
    """A POST's answer: its refusal with the table as it stands, or the table with its clock (and an amend's
    hands removed, offered for re-entry)."""
    if decision.http_status >= 300:
        return Reply(decision.http_status, decision.as_json())
    if decision.removed:
        return Reply(decision.http_status, decision.as_json() | {"clock": clock})
    return state_reply(decision.http_status, decision.state, clock)


def state_reply(status: int, state: TableState, clock: dict[str, object] | None) -> Reply:
    """The table as it stands with its clock (GET, and a change made or found made already): the state's JSON is
    made once per state (`TableState.json_bytes`), the clock added to it as `json.dumps` of the whole would."""
    document = state.as_json() | {"clock": clock}
    try:
        text = state.json_bytes[:-1] + b', "clock": ' + json.dumps(clock, ensure_ascii=False).encode("utf-8") + b"}"
    except UnicodeEncodeError:  # a lone surrogate in a name: said escaped, as `Reply.body` does
        text = None
    return Reply(status, document, text)


def sealed(decision: entry.Decision) -> Reply:
    """423 with the seal's message and the table as it stands: nothing stored."""
    return Reply(HTTPStatus.LOCKED, {**refusal(HTTPStatus.LOCKED, SEALED).document, "state": decision.state.as_json()})


def decider(action: str, setup: TableSetup, body: object, stamp: Stamp, clock: Clock | None = None,
            known: KnownStates | None = None) -> Callable[[tuple[Entry, ...]], entry.Decision]:
    """The pure decision of one POST, over the table's entries as the ledger reads them in its transaction; an end
    is decided on the round clock as read when the request came (`clock`, None: never started); no change once the
    desk has given the table's record to the paper (`entry.paper_rules_lock`). `known`: the hall's kept states, the
    table's taken from there when it is the fold of these entries (not folded and replayed again)."""
    if action == "end":
        return lambda entries: entry.paper_rules_lock(entry.end(setup, entries, body, stamp=stamp, clock=clock,
                                                                known=known))
    decide = {"hands": entry.add_hand, "undo": entry.undo, "amend": amend.amend, "confirm": entry.confirm}[action]
    return lambda entries: entry.paper_rules_lock(decide(setup, entries, body, stamp=stamp, known=known))


def made_on(decide: Callable[[tuple[Entry, ...]], entry.Decision], entries: tuple[Entry, ...],
            decision: entry.Decision) -> Callable[[tuple[Entry, ...]], entry.Decision]:
    """`decide`, which is pure, with its `decision` on `entries` given again for the same entries: the write
    transaction reads the table again and, unless another writer added to it meanwhile, finds what the request
    was decided on without deciding again."""
    return lambda now: decision if now == entries else decide(now)


