"""The desk API of `serve` (docs/table-api.md, 裁判台): `GET /api/desk`, `POST /api/desk/clock` and
`POST /api/desk/t/<table>/minutes | reopen | confirm | early_end |
paper_rules`, every call with `X-Desk-PIN`; and 报到, `GET`/`POST /api/desk/checkin…`, and 换人, `GET`/`POST
/api/desk/replace`, answered by `shuangsheng.hall.desk_checkin` and `shuangsheng.hall.desk_replace` once the refusals
below are passed.

Thin, like the table API beside it (`shuangsheng.hall.hall`): `DeskApi.handle` takes a parsed `Request` and refuses, in this
order, a `Host` not ours (421), an address other than the PC itself (127.0.0.1, ::1, or an address the server is
bound to: the PC opening its own LAN address) unless `[serve] desk_lan` (403), an unknown
path (404) or method (405), a POST not `application/json` (415) or over 16 KB (413), an address with 5 wrong PINs
in a minute (429; wrong table codes are counted apart), a missing or wrong PIN (401); then a body that is not JSON
of UTF-8 text (400), a table not in the round (404), a missing reason (400), bad values (422), a desk confirmation before the match is over (409). Every accepted action is one new row
in event.db (through `shuangsheng.storage.ledger`), committed before the answer, which is the whole desk document; while event.db
is not the file serve opened (deleted, emptied, replaced), every call is 503 with the lost ledger's message. Every
POST carries the page's `"id"` for the press and the `"mark"` of what it showed (the table's, or the clock's
`clock_mark`), 422 without them: the same id again (a retry after a lost answer) is answered 200 with the desk as it
stands and adds nothing; the same id for another action or content, or a new press on an older mark, is 409 —
decided inside the write transaction (`shuangsheng.table.desk_actions.desk_action`, `shuangsheng.table.clock.decide_clock`).

Each table's record is built by the one builder (`shuangsheng.usecases.scoring.score_match`) from its sheet as the
venue display last read the folder (`BoardSource`: read again only when the files change) and its phone entries
and the clock read from event.db on every request.
"""

from __future__ import annotations

import datetime as dt
import hmac
import ipaddress
import secrets
import sqlite3
from collections.abc import Callable, Collection
from http import HTTPStatus
from pathlib import Path

from shuangsheng.hall import board, desk_checkin, desk_replace
from shuangsheng.hall.api_common import (
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
from shuangsheng.hall.screens import Screens
from shuangsheng.hall.shared_ledger import PATIENCE, Patience, SharedLedger, patiently
from shuangsheng.knockout.knockout import is_final, round_title
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lost import LedgerError, LedgerLost
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.workbook import MatchSheet
from shuangsheng.table import desk, entry
from shuangsheng.table.clock import ClockAction, clock_at, decide_clock, parse_time
from shuangsheng.table.desk_actions import desk_action
from shuangsheng.table.log import Action, Entry, Stamp
from shuangsheng.table.sources import PhoneTable
from shuangsheng.table.state import KnownStates
from shuangsheng.usecases.scoring import blank_match, score_match
from shuangsheng.vocabulary.errors import Issue, issues_json, shown

PIN_HEADER = "x-desk-pin"

NOT_HERE = ("裁判台只能在运行 shuangsheng serve 的这台电脑上打开（http://127.0.0.1:端口/desk）；"
            "要在局域网的其他设备上打开，请在 event.toml 的 [serve] 中设 desk_lan = true，再重新运行 serve")
NO_PIN = "请输入裁判台密码（运行 shuangsheng serve 时电脑上显示的 6 位数字）"
WRONG_PIN = "裁判台密码不对；请看运行 shuangsheng serve 的电脑上显示的“裁判台密码”"
TOO_MANY_PINS = "裁判台密码输错的次数太多，请一分钟后再试"
NO_ROUND = "还没有抽签，没有正在进行的一轮"
NO_TABLE = "本轮没有第{table}桌"
NO_TABLE_OF = "第{number}轮没有第{table}桌"
REDRAWING = "本轮正在重新抽签，请稍后再操作一次"
NEXT_DRAWN = "下一轮刚刚抽签，上一轮的记录已封存，这次操作没有记下；请刷新页面"
NO_SUCH = "裁判台没有这个地址"
BUSY_PRESS = "本比赛的记录文件（event.db）正被另一个程序占用，这次操作没有记下；请关掉那个程序（或等命令运行完）后再按一次"
ONLY = {"GET": "只能用 GET 读取裁判台", "POST": "只能用 POST 提交"}
WORDS = Words(NO_SUCH, ONLY)
ID_REUSED = "操作编号 {id} 已用于 {time} 的另一项计时操作，这次没有记录；请刷新页面后再操作"
CLOCK_MOVED = "另一台电脑的裁判台刚按了本轮计时，您这次按的没有记下；请看一下现在的计时，需要的话再按一次"
ROUND_MOVED = "现在是第{number}轮，按的时候是第{given}轮（已经抽了下一轮），这次计时操作没有记录；请刷新页面后再操作"


def is_local(address: str) -> bool:
    """The PC itself: 127.0.0.1 (any 127.x), ::1, or ::ffff:127.0.0.1."""
    ip = _ip(address)
    return ip is not None and ip.is_loopback


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as an IP (an IPv4 address mapped into IPv6 as itself, a zone dropped); None for anything else."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    return getattr(ip, "ipv4_mapped", None) or ip


def is_own(address: str, bound: Collection[str]) -> bool:
    """Whether `address` is one of the addresses this server listens on (`bound`: the PC's own LAN address that
    `serve --lan` printed, and 127.0.0.1): a request from there comes from the PC itself. A wildcard (0.0.0.0, ::)
    names no address and counts for nothing."""
    ip = _ip(address)
    if ip is None or ip.is_unspecified:
        return False
    return any(_ip(host) == ip for host in bound)


def desk_allowed(address: str, desk_lan: bool, bound: Collection[str] = ()) -> bool:
    """Whether `/desk` and `/api/desk…` answer a request from `address`: the PC itself (127.0.0.1, ::1, or one of
    the addresses the server is bound to, `bound`: the PC opening its own LAN address), or anyone with desk_lan
    (the page's 403 uses this too)."""
    return desk_lan or is_local(address) or is_own(address, bound)


def desk_refusal(status: int, field: str | None, message: str) -> Reply:
    return Reply(status, issues_json((Issue.of_hand(None, field, message),)))


class DeskApi:
    """The desk API: one `handle(request) → Reply` per request, safe from many threads at once. `clock` gives the
    PC's time as ISO 8601 with its offset (injected in tests); `source` is the venue display's cached reading;
    `bound` the addresses the server listens on (`desk_allowed`); `meanwhile` (tests): called at "looked", once a
    table's action has read the draw in force and who sits there, before its write transaction. `ledger`: the
    hall's one connection to event.db, shared with the table API (a new one on `served` when not given);
    `patience`: how long a press waits for another program's lock (`shuangsheng.hall.shared_ledger.Patience`);
    `admitted`: whether a request comes from the console's browser (its session cookie stands for the PIN);
    `screens`: the TVs' sound as their polls say it (`shuangsheng.hall.screens`), heard by the TV's handler;
    `states`: each table's last state, kept for the desk's polls (the hall's, shared with the table API)."""

    def __init__(self, folder: Path, *, names: Collection[str], port: int, pin: str, desk_lan: bool = False,
                 bound: Collection[str] = (), throttle: Throttle | None = None,
                 source: board.BoardSource | None = None, clock: Callable[[], str] = now_iso,
                 seating: Seating | None = None, served: ServedFile | None = None,
                 meanwhile: Meanwhile = nothing_meanwhile, ledger: SharedLedger | None = None,
                 patience: Patience = PATIENCE, admitted: Callable[[Request], bool] | None = None,
                 screens: Screens | None = None, states: KnownStates | None = None):
        self.folder = folder
        self.admitted = admitted  # the console's session, standing for the PIN (`shuangsheng.hall.console`)
        self.meanwhile = meanwhile
        self.patience = patience
        self.names = frozenset(names)
        self.port = port
        self.pin = pin
        self.screens = screens or Screens()  # the TVs' sound, as their polls of /board.json say it
        self.desk_lan = desk_lan
        self.bound = tuple(bound)  # the addresses the server listens on: a request from one is the PC itself
        self.throttle = throttle or Throttle()
        self.source = source
        self.clock = clock
        self.seating = seating or Seating(folder)
        self.ledger = ledger or SharedLedger(folder, served)  # the event.db serve opened, lent to one request at a time
        self.states = states or KnownStates()  # each table's last state (the hall's, shared with the table API)

    def handle(self, request: Request) -> Reply:
        try:
            return self._handle(request)
        except LedgerLost as lost:  # event.db is not the file serve opened: nothing stored, and why
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, str(lost.issues[0]))
        except sqlite3.DatabaseError as exc:  # a damaged event.db, a full disk: in plain words, never a 500
            known = fault(exc)
            if known is None:
                raise
            return known

    def _handle(self, request: Request) -> Reply:
        found = request_check(request, "desk", names=self.names, port=self.port, words=WORDS,
                              forbidden=None if self.allows(request.address) else refusal(HTTPStatus.FORBIDDEN, NOT_HERE))
        if isinstance(found, Reply):
            return found
        refused = self._pin_refused(request)
        if refused is not None:
            return refused
        answer, params = found.route.answer, found.params
        body: object = None
        if found.route.method == "POST":
            try:
                body = json_body(request.body)
            except BadBody as bad:
                return bad.reply

        def attempt(_moved: bool) -> Reply:  # a redrawn round is looked up again as any try
            if answer in ("replace_read", "replace"):  # 换人 (hall/desk_replace.py)
                return desk_replace.answer(self.ledger, self.clock(), answer == "replace", body, request.address,
                                           [t.id for t in self.seating.teams()])
            if answer in ("checkin_read", "checkin"):  # 报到 (hall/desk_checkin.py)
                kind = "read" if answer == "checkin_read" else params.get("action", "team")
                return desk_checkin.answer(self.ledger, self.seating, self.now(), kind, body, request.address)
            if answer == "read":
                return self._read()
            if answer == "clock":
                return self._clock(body, request.address)
            return self._table(params["action"], table_number(params["table"]), body, request.address)

        return patiently(attempt, self.patience, held=refusal(HTTPStatus.SERVICE_UNAVAILABLE, BUSY_PRESS),
                         redrawn=refusal(HTTPStatus.SERVICE_UNAVAILABLE, REDRAWING))

    def allows(self, address: str) -> bool:
        """Whether the desk (page and API) answers `address` (`desk_allowed`)."""
        return desk_allowed(address, self.desk_lan, self.bound)

    def _pin_refused(self, request: Request) -> Reply | None:
        if self.admitted is not None and self.admitted(request):
            return None
        if self.throttle.blocked(request.address):
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY_PINS)
        given = request.headers.get(PIN_HEADER, "").strip()
        if not given:
            return refusal(HTTPStatus.UNAUTHORIZED, NO_PIN)
        if not hmac.compare_digest(given.encode("utf-8"), self.pin.encode("utf-8")):
            if not self.throttle.wrong(request.address):  # a burst of wrong PINs: counted and checked at once
                return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY_PINS)
            return refusal(HTTPStatus.UNAUTHORIZED, WRONG_PIN)
        return None

    # --- reading ---

    def now(self) -> dt.datetime:
        """The PC's time now, as the desk's clock reads it (injected in tests)."""
        return parse_time(self.clock())

    def _read(self) -> Reply:
        with self.ledger.lend() as book:
            if book is None:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
            return Reply(HTTPStatus.OK, self.document(book))

    def document(self, book: Ledger) -> dict[str, object]:
        """The whole desk (`GET /api/desk`), read in `book`, with the TVs' sound (`tv_sound`)."""
        return self._round(book) | {"tv_sound": self.screens.report()}

    def _round(self, book: Ledger) -> dict[str, object]:
        now = self.now()
        record = current_draw(book)
        if record is None:
            return desk.desk_json(None, None, now)
        rules = self.seating.rules()
        rows = book.clock_rows(record.id)
        clock = clock_at(rows, now, rules.match_minutes)
        sheets = self._sheets(record.round.number)
        tables = []
        for pairing in record.round.pairings:
            setup = self.seating.setup(record, pairing.table, book)
            try:
                entries, damaged = book.table_entries(record.id, pairing.table), ""
            except ValueError as exc:  # one damaged entry row: that table is 有误, the others as they are
                if isinstance(exc, LedgerError):
                    raise
                entries, damaged = (), f"本桌在 event.db 里有一条录分记录损坏了（{exc}）"
            state = self.states.state(setup, entries)
            sheet = sheets.get(pairing.table)
            if sheet is None or sheet.pairing != pairing:  # not read yet, or read before a redo changed the table
                sheet = blank_match(pairing, record.round.number)
            scored = score_match(sheet, setup.rules, PhoneTable(state) if state.log.hands else None)
            tables.append(desk.DeskTable(state, entries, scored.record, damaged=damaged))
        last = book.last_scored(record.id)
        round_ = desk.Round(record.round.number, round_title(record.round.number, len(record.round.pool)),
                            is_final(record.round), tuple(tables), last.outcomes if last is not None else None)
        return desk.desk_json(round_, clock, now, clock_mark=len(rows))

    def _sheets(self, number: int) -> dict[int, MatchSheet]:
        """The round workbook's sheet of each table, from the venue display's cached reading (never a new reading
        of the workbooks on a poll): {} when the reading is of another round or there is none."""
        sheet = self.source.round_sheet(number) if self.source is not None else None
        return {m.table: m for m in sheet.matches} if sheet is not None else {}

    # --- actions ---

    def _stamp(self, address: str) -> Stamp:
        return Stamp(secrets.token_hex(8), self.clock(), address)

    def _clock(self, body: object, address: str) -> Reply:
        raw = body.get("action") if isinstance(body, dict) else None
        try:
            action = ClockAction(raw)
        except ValueError:
            return desk_refusal(HTTPStatus.UNPROCESSABLE_ENTITY, "action",
                                f"应为 {{\"action\": \"start\"}}（开始或继续）或 \"stop\"（暂停），实际为 {shown(raw)}")
        made = entry.parse_made(body)
        if isinstance(made, Issue):
            return Reply(HTTPStatus.UNPROCESSABLE_ENTITY, issues_json((made,)))
        with self.ledger.lend() as book:
            if book is None:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
            record = current_draw(book)
            if record is None:
                return desk_refusal(HTTPStatus.CONFLICT, "action", NO_ROUND)
            other = other_round(body, record.round.number)
            if other is not None:
                return other
            at = self.clock()
            decision = book.decide_clock(record.id, lambda rows: decide_clock(
                rows, action, at=at, address=address, request=made.id, mark=made.mark))
            if decision.reused is not None:
                return desk_refusal(HTTPStatus.CONFLICT, "id", ID_REUSED.format(
                    id=shown(made.id), time=decision.reused.at[11:16]))
            if decision.stale:
                return desk_refusal(HTTPStatus.CONFLICT, "mark", CLOCK_MOVED)
            return Reply(HTTPStatus.OK, self.document(book))

    def _table(self, action: str, table: int, body: object, address: str) -> Reply:
        with self.ledger.lend() as book:
            if book is None:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
            record = round_of(book, body)
            if isinstance(record, Reply):
                return record
            if record is None or table not in {p.table for p in record.round.pairings}:
                return desk_refusal(HTTPStatus.NOT_FOUND, "table", NO_ROUND if record is None else
                                    NO_TABLE.format(table=table) if record == current_draw(book) else
                                    NO_TABLE_OF.format(table=table, number=record.round.number))
            setup = self.seating.setup(record, table, book)
            stamp = self._stamp(address)
            self.meanwhile("looked")

            # a correction (a reopening, 以纸质为准) only when the press names its round: one made on the round in
            # play that a draw sealed meanwhile (as read in the write transaction) was made on a view out of date,
            # and is refused
            named = isinstance(body, dict) and body.get("round") is not None

            def decide(entries: tuple[Entry, ...]) -> entry.Decision:
                return desk_action(Action(action), setup, entries, body, stamp=stamp,
                                   sealed=named and book.last_round() > record.round.number)

            try:
                decision = book.decide_entry(record.id, table, checked(book, record, decide))
            except Sealed:
                return desk_refusal(HTTPStatus.CONFLICT, "action", NEXT_DRAWN)
            if decision.result.http_status >= 400:
                return Reply(decision.http_status, issues_json(decision.errors))
            return Reply(HTTPStatus.OK, self.document(book))


def table_number(typed: str) -> int:
    """A table number as typed in the path; 0 (a table of no round: 404) for one that is not a number."""
    return int(typed) if typed.isascii() and typed.isdigit() and len(typed) < 6 else 0


def other_round(body: object, number: int) -> Reply | None:
    """The page's optional `"round"` of a clock press, the round it showed: a press sent again after the next round
    was drawn is not applied to that round (409); 422 when it is not a whole number. None when it fits or is not
    given."""
    given = body.get("round") if isinstance(body, dict) else None
    if given is None or given == number and type(given) is int:
        return None
    if type(given) is not int:
        return desk_refusal(HTTPStatus.UNPROCESSABLE_ENTITY, "round", f"应为轮次（整数），实际为 {shown(given)}")
    return desk_refusal(HTTPStatus.CONFLICT, "round", ROUND_MOVED.format(given=given, number=number))


def round_of(book: Ledger, body: object) -> DrawRecord | None | Reply:
    """The round a table press is for: the body's `"round"` (a table of an earlier round, for a correction: 更正),
    else the current one; 422 for a round that is not a whole number, 404 for one not drawn."""
    given = body.get("round") if isinstance(body, dict) else None
    if given is None:
        return current_draw(book)
    if type(given) is not int:
        return desk_refusal(HTTPStatus.UNPROCESSABLE_ENTITY, "round", f"应为轮次（整数），实际为 {shown(given)}")
    draws = book.draws()
    if given not in draws:
        return desk_refusal(HTTPStatus.NOT_FOUND, "round", f"第{given}轮还没有抽签" if given > max(draws, default=0)
                            else f"没有第{given}轮")
    return draws[given]


def current_draw(book: Ledger) -> DrawRecord | None:
    """The round at the desk: the latest draw in force."""
    draws = book.draws()
    return draws[max(draws)] if draws else None
