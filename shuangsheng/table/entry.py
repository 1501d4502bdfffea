"""Table-side entry (扫码录分, the table API of `serve`): every decision on a phone's request. Pure: no time
read, no network, no files — the caller passes the entries, the request body and a `Stamp` (for the end, the round
clock as it stands), and stores the returned entry (if any) before it answers.

A table's entries are an append-only log (`shuangsheng.table.log`); its state is the fold of the log, replayed by
the engine (`shuangsheng.table.state.table_state`). The desk's presses are decided the same way
(`shuangsheng.table.desk_actions`).

Each request gets a `Decision`: its `result` (what the server answers, `Result.http_status`), the entry to append
(None when nothing changes) and the state after it. The rules of the log, precisely:

- every change a page asks for (a hand, the end, an undo, a confirmation, a desk press) carries the page's `"id"`
  for the press (1 … 100 characters; the entry keeps it as its id) and the `"mark"` of the state the page showed
  (every state carries it: the count of the table's entries). Without either: INVALID (422, "请刷新页面后再操作").
  An id already in the table's log is that press sent again (its answer lost on the Wi-Fi): SAME (200, the table
  as it stands, nothing appended) when it asked for the same thing, CONFLICT (409) when the id was used for
  something else. A new id with an old mark was made on a record that has changed since (another phone or the desk
  added or removed a hand, ended the table, undid the end or reopened it): CONFLICT with `field: "mark"`, never
  applied to a record the page did not show. A confirmation or the desk's extra minutes since change no record, and
  a press that changes nothing (an end of a table already ended, a side confirming again) is SAME whatever its
  mark. So a retry never changes a record it was not made on: an undo resent after another phone entered the hand
  anew removes nothing.
- hand n (a hand of the match record, docs/match-record.md, plus `"hand": n`, `"id"` and `"mark"`): n must be the
  next number. Hand n's content again from another phone is SAME, whatever the mark (it changes nothing); hand n
  already holding different content, a number past the next one, or a hand after the match is over (decided after
  the end, or passed A) is a CONFLICT (409): the phone's view of the table is out of date. A hand without `points`
  (unless it has an `offense` or `level_card_capture`), with bad values, or one the engine refuses after the hands
  before it, is INVALID (422) with the engine's records. Hands after the end are 加赛 hands (`playoff` is set by
  the table; `"playoff": true` before the end is INVALID).
- end: closes the regular hands; the match is then decided, or needs 加赛 until a 加赛 hand leaves the levels
  different. Ending a table already ended (or won by passing A) is SAME; ending a table without hands is a CONFLICT.
  Once the desk has started the round clock (running or paused), an end before the table's time is up (the round's
  minutes plus its extra minutes) is a CONFLICT with `field: "clock"`, unless the desk has allowed this table an early
  end (`desk_actions.allow_early_end`); without a clock the referee keeps time and the end is taken.
- undo `{"hand": n}`: removes hand n when it is the last hand (CHANGED); any other n is a CONFLICT. Undoing the last
  regular hand of an ended table (no 加赛 hand left after it) undoes the end too, as the end closed the regular
  hands after that very hand: the regular hands are open again. undo `{"end": true}` undoes only the end (a 结束
  pressed too early): CHANGED when the table is ended and no 加赛 hand follows, SAME when it is not ended, CONFLICT
  when 加赛 hands follow.
- confirm `{"side": "A" | "B"}`: only once the match is over (CONFLICT before); again → SAME; both → locked.
- the desk's presses (reopen, extra minutes, the leave to end early, the desk's confirmation, 以纸质为准):
  `shuangsheng.table.desk_actions`.
- once the desk has ruled that the paper is the table's record (`Log.paper`), every change a phone asks for is
  LOCKED (423) with the desk's reason (`paper_rules_lock`, applied to each phone decision); its entries are kept.
- Any change (a hand, an end, an undo, a reopening) clears both confirmations. A locked table refuses hands and
  undos (LOCKED, 423) — after a repeat has been recognised as SAME, so a phone retrying what was accepted still
  gets 200.

The server calls, per request, `add_hand` / `end` / `undo` / `confirm` (or a desk action) with the table's setup, its
entries (as `read_entry` reads them back from the ledger) and the parsed JSON body (and, for `end`, the round clock
as it reads it); stores `decision.entry` when it
is not None (`Entry.as_json`), then answers `decision.http_status` with `decision.as_json()`. GET answers
`table_state(setup, entries).as_json()`. Reading the entries, deciding and storing the entry must be one write
transaction, so that of two phones posting hand n at once the second is decided on the log holding the first's.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from shuangsheng.game.hands import Hand, HandError, RecordError, parse_record
from shuangsheng.game.levels import Level, Side
from shuangsheng.game.match import MatchResult, result_summary
from shuangsheng.table.clock import Clock
from shuangsheng.table.log import Action, Entry, Stamp, TableSetup, hand_as_json, step
from shuangsheng.table.state import KnownStates, TableState, replayed, state_of, table_state
from shuangsheng.table.status import TableStatus
from shuangsheng.vocabulary.errors import Issue, issues_json, shown

MAX_ID_LENGTH = 100  # a client's id: a UUID is 36
MAX_REASON_LENGTH = 500
LOCKED_MESSAGE = "双方已确认，本桌已锁定；如需更改请到裁判台"


# --- decisions ---


class Result(str, enum.Enum):
    CREATED = "created"  # a hand appended
    CHANGED = "changed"  # an end, undo, confirmation or reopening appended
    SAME = "same"  # already so: nothing appended, the same state
    CONFLICT = "conflict"  # the request does not fit the table as it stands (the phone's view is out of date)
    INVALID = "invalid"  # the request itself is wrong: Chinese records name hand and field
    LOCKED = "locked"  # both teams confirmed: only the desk can reopen
    NO_REASON = "no_reason"  # a desk request without its reason

    @property
    def http_status(self) -> int:
        return _HTTP[self]

    @property
    def appended(self) -> bool:
        return self in (Result.CREATED, Result.CHANGED)


_HTTP = {Result.CREATED: 201, Result.CHANGED: 200, Result.SAME: 200, Result.CONFLICT: 409, Result.INVALID: 422,
         Result.LOCKED: 423, Result.NO_REASON: 400}


@dataclass(frozen=True)
class Decision:
    result: Result
    state: TableState  # the table after the entry (as it stands when nothing is appended)
    entry: Entry | None = None  # to append, before answering; None when nothing changes
    errors: tuple[HandError, ...] = ()
    removed: tuple[Entry, ...] = ()  # an amend's: the later hands it removed, to be entered again

    @property
    def http_status(self) -> int:
        return self.result.http_status

    def as_json(self) -> dict[str, object]:
        """The answer's body: the state (with an amend's `"removed"` hands, in the match record's input form), or
        {"errors": [...], "state": …} when refused."""
        if self.result in (Result.CREATED, Result.CHANGED, Result.SAME):
            data = self.state.as_json()
            if self.removed:
                data["removed"] = [{"hand": e.hand, **hand_as_json(e.record)} for e in self.removed if e.record]
            return data
        return {**issues_json(self.errors), "state": self.state.as_json()}


def refuse(result: Result, table: TableState, hand: int | None, field: str | None, detail: str) -> Decision:
    return Decision(result, table, errors=(Issue.of_hand(hand, field, detail),))


def append_entry(result: Result, table: TableState, entry: Entry, replay: MatchResult | None = None) -> Decision:
    """`entry` appended to `table`; `replay`: the engine's replay of the hands standing after it, when the caller
    has it (else replayed here)."""
    log = step(table.log, entry)
    return Decision(result, state_of(table.setup, log, (*table.entries, entry), replay), entry)


def new_entry(stamp: Stamp, action: Action, **fields: object) -> Entry:
    return Entry(stamp.id, action, stamp.time, stamp.address, **fields)  # type: ignore[arg-type]  # Entry's fields, by name


# --- every change is made on a state: the page's id for the press, and the mark of the state it showed ---

REFRESH = "请刷新页面后再操作"
STALE = "另一部手机或裁判台刚改了本桌的记录，您这次按的没有记下；请看一下现在的记录，需要的话再按一次"


@dataclass(frozen=True)
class Made:
    """What every state-changing request carries: `id`, the page's for the press (kept as the entry's id), and
    `mark`, the mark of the state the page showed (`TableState.mark`)."""

    id: str
    mark: int


def parse_made(body: object) -> Made | HandError:
    """The request's `"id"` and `"mark"`, or the problem (422: a page too old, or a request not made on a state)."""
    fields = body if isinstance(body, Mapping) else {}
    request_id, mark = fields.get("id"), fields.get("mark")
    if request_id is None or mark is None:
        missing = "操作编号 id" if request_id is None else "记录状态 mark"
        return Issue.of_hand(None, "id" if request_id is None else "mark",
                             f"请求里缺少{missing}（页面版本太旧，或没有读到本桌现在的记录）；{REFRESH}")
    if not isinstance(request_id, str) or not 1 <= len(request_id) <= MAX_ID_LENGTH:
        return Issue.of_hand(None, "id", f"操作编号 id 应为 1 到 {MAX_ID_LENGTH} 个字符的文字，实际为 {shown(request_id)}；{REFRESH}")
    if isinstance(mark, bool) or not isinstance(mark, int) or not 0 <= mark <= MAX_MARK:
        return Issue.of_hand(None, "mark", f"记录状态 mark 应为 0 起的整数，实际为 {shown(mark)}；{REFRESH}")
    return Made(request_id, mark)


MAX_MARK = 10**9


def asked_for(action: Action, *, hand: int | None = None, record: Hand | None = None, side: Side | None = None,
           add: int | None = None, reason: str = "", lifted: bool = False) -> tuple[object, ...]:
    """What a request asks for, as `_content` shows the entry it makes (a hand's `playoff` and `level` aside)."""
    return action, hand, record and replace(record, playoff=False, level=None), side, add, reason, lifted


def _content(entry: Entry) -> tuple[object, ...]:
    return asked_for(entry.action, hand=entry.hand, record=entry.record, side=entry.side, add=entry.add,
                  reason=entry.reason, lifted=entry.lifted)


def sent_again(table: TableState, made: Made, asked: tuple[object, ...], hand: int | None = None) -> Decision | None:
    """A press whose id is in the table's log already: SAME when it asked for this very thing (sent again after
    its answer was lost), CONFLICT when the id was used for something else; None for a new press."""
    earlier = next((e for e in table.entries if e.id == made.id), None)
    if earlier is None:
        return None
    if _content(earlier) == asked:
        return Decision(Result.SAME, table)
    return refuse(Result.CONFLICT, table, hand, "id",
                   f"操作编号 {shown(made.id)} 已用于本桌 {earlier.time[11:16]} 的另一项操作，这次没有记录；{REFRESH}")


RECORD_CHANGES = frozenset({Action.HAND, Action.END, Action.UNDO, Action.REOPEN, Action.AMEND,
                            Action.PAPER_RULES})  # what a stale press must not miss


def stale_mark(table: TableState, made: Made) -> Decision | None:
    """CONFLICT for a new press made on a record that has changed since (`field: "mark"`): an entry after the page's
    mark added or removed a hand, ended the table, undid the end or reopened it. A confirmation or the desk's extra
    minutes since change no record (team B confirming after team A, on the other phone, confirms what it saw).
    None when the press was made on the record as it stands."""
    later = table.entries[made.mark:] if made.mark <= table.mark else None
    if later is not None and not any(e.action in RECORD_CHANGES for e in later):
        return None
    return refuse(Result.CONFLICT, table, None, "mark", STALE)


# --- the desk gave the table's record to the paper: the phones change nothing more ---

PAPER_RULES_MESSAGE = ("裁判台 {time} 决定本桌以纸质计分卡为准（{reason}）：手机上已录的各局保留，但不再计入成绩，"
                       "也不能再改动；请把签字的计分卡交给裁判台。如需改回扫码录分请到裁判台")


def paper_rules_lock(decision: Decision) -> Decision:
    """A phone's decision, refused (LOCKED, 423, nothing appended) when it would append to a table whose record
    the desk gave to the paper (`Log.paper`); a press recognised as sent again (SAME) or refused stays as it is."""
    ruling = decision.state.log.paper
    if decision.entry is None or ruling is None:
        return decision
    before = decision.state.entries[:-1]
    table = table_state(decision.state.setup, before)
    return refuse(Result.LOCKED, table, decision.entry.hand, None,
                  PAPER_RULES_MESSAGE.format(time=ruling.time[11:16], reason=ruling.reason))


# --- POST /api/t/<code>/hands ---


@dataclass(frozen=True)
class HandRequest:
    made: Made
    number: int
    record: Hand

    @property
    def asked(self) -> tuple[object, ...]:
        return asked_for(Action.HAND, hand=self.number, record=self.record)


def parse_hand_request(body: object) -> HandRequest | tuple[HandError, ...]:
    """One input hand plus "hand" (its number), "id" (the client's) and "mark" (of the state it was typed on) → the
    request, or every problem with it."""
    if not isinstance(body, Mapping):
        return (Issue.of_hand(None, None, "应为 JSON 对象，如 {\"hand\": 1, \"id\": \"…\", \"mark\": 0, \"dealer\": \"A\", \"points\": 35}"),)
    number = body.get("hand")
    valid_number = isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 999
    where = number if valid_number else None
    errors: list[HandError] = []
    if not valid_number:
        errors.append(Issue.of_hand(None, "hand", f"局号应为 1 起的整数，实际为 {shown(number)}"))
    made = parse_made(body)
    if isinstance(made, Issue):
        errors.append(made.placed(hand=where))
    raw = {key: value for key, value in body.items() if key not in ("hand", "id", "mark")}
    if body.get("points") is None and not raw.get("offense") and raw.get("level_card_capture") is not True:
        errors.append(Issue.of_hand(where, "points", "没有填；台下方一分未得请填 0"))
        raw["points"] = 0  # reported above; the other fields are still checked
    record = None
    try:
        parsed, _ = parse_record({"hands": [raw]})
        record = parsed.hands[0]
    except RecordError as exc:
        errors.extend(e.placed(hand=where) for e in exc.errors)
    if errors or not isinstance(made, Made) or record is None or not isinstance(number, int):
        return tuple(errors)
    return HandRequest(made, number, record)


def add_hand(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp,
             known: KnownStates | None = None) -> Decision:
    """POST /api/t/<code>/hands: CREATED (201) with the hand appended, or SAME, CONFLICT, INVALID, LOCKED."""
    table = table_state(setup, entries, known)
    request = parse_hand_request(body)
    if isinstance(request, tuple):
        return Decision(Result.INVALID, table, errors=request)
    repeat = _repeat(table, request) or stale_mark(table, request.made)
    if repeat is not None:
        return repeat
    if table.log.locked:
        return refuse(Result.LOCKED, table, request.number, None, LOCKED_MESSAGE)
    refusal = _out_of_turn(table, request)
    if refusal is not None:
        return refusal
    return _play(table, request, stamp)


def _repeat(table: TableState, request: HandRequest) -> Decision | None:
    """SAME for a request already applied (by id, or hand n's content from another phone); CONFLICT for an id
    used before for something else, or hand n holding other content; None for a new hand."""
    n = request.number
    again = sent_again(table, request.made, request.asked, n)
    if again is not None:
        return again
    if n >= table.next_hand:
        return None
    standing = table.log.hands[n - 1]
    same = _same_content(standing.record, request.record)
    if same and (request.record.level is None or _dealer_level(table, n) is request.record.level):
        return Decision(Result.SAME, table)
    if table.log.locked:
        return refuse(Result.LOCKED, table, n, None, LOCKED_MESSAGE)
    return refuse(Result.CONFLICT, table, n, None, f"第{n}局已录入另一条记录，请刷新后核对：{_explanation(table, n)}")


def _same_content(stored: Hand | None, new: Hand) -> bool:
    """The same hand: every field but `playoff` (set by the table) and `level` (a cross-check)."""
    return stored is not None and replace(stored, playoff=False, level=None) == replace(new, playoff=False, level=None)


def _dealer_level(table: TableState, n: int) -> Level | None:
    outcomes = table.result.outcomes
    return outcomes[n - 1].dealer_level if n <= len(outcomes) else None


def _explanation(table: TableState, n: int) -> str:
    outcomes = table.result.outcomes
    return outcomes[n - 1].explanation if n <= len(outcomes) else f"第{n}局"


def _out_of_turn(table: TableState, request: HandRequest) -> Decision | None:
    """CONFLICT for a hand that cannot come next: a number past the next one, a match over, a log that no longer
    replays; INVALID for 加赛 marked before the end."""
    n, expected = request.number, table.next_hand
    if n > expected:
        return refuse(Result.CONFLICT, table, n, "hand", f"应录第{expected}局（已录 {expected - 1} 局），请刷新后再录")
    if table.status is TableStatus.INVALID:
        return Decision(Result.CONFLICT, table, errors=table.result.errors)
    if table.over:
        return refuse(Result.CONFLICT, table, n, None, f"比赛已结束：{result_summary(table.result)}，不能再录")
    if request.record.playoff and not table.log.ended:
        return refuse(Result.INVALID, table, n, "playoff", "还没有按“结束”（时间未到），这一局不是加赛局")
    return None


def _play(table: TableState, request: HandRequest, stamp: Stamp) -> Decision:
    """The engine's verdict on the new hand after the standing ones: CREATED, or INVALID with its records."""
    record = replace(request.record, playoff=table.log.ended)
    hands = (*(e.record for e in table.log.hands if e.record is not None), record)
    result = replayed(hands, table.setup.rules)
    if result.errors:
        return Decision(Result.INVALID, table, errors=result.errors)
    entry = Entry(request.made.id, Action.HAND, stamp.time, stamp.address, hand=request.number, record=record)
    return append_entry(Result.CREATED, table, entry, result)


# --- POST /api/t/<code>/end ---


def end(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp,
        clock: Clock | None = None, known: KnownStates | None = None) -> Decision:
    """POST /api/t/<code>/end (时间到, rule 十六) with {"id", "mark"}: CHANGED, or SAME when already ended or over.
    `clock`: the round clock as the server reads it now (None: never started, the referee keeps time, and the end is
    taken as ever); while it has time left for this table and the desk has not allowed an early end, CONFLICT with
    `field: "clock"` and the minutes left (`too_early`)."""
    table = table_state(setup, entries, known)
    made = parse_made(body)
    if isinstance(made, Issue):
        return Decision(Result.INVALID, table, errors=(made,))
    again = sent_again(table, made, asked_for(Action.END))
    if again is not None:
        return again
    if table.log.ended or table.over:  # already so (the other phone pressed it too): whatever the mark
        return Decision(Result.SAME, table)
    stale = stale_mark(table, made)
    if stale is not None:
        return stale
    if not table.log.hands:
        return refuse(Result.CONFLICT, table, None, None, "还没有录入任何一局，不能结束；时间到时请先录完正在打的这一局")
    if table.status is TableStatus.INVALID:
        return Decision(Result.CONFLICT, table, errors=table.result.errors)
    return too_early(table, clock) or append_entry(Result.CHANGED, table, new_entry(replace(stamp, id=made.id),
                                                                                    Action.END))


def may_end(table: TableState, clock: Clock | None) -> bool:
    """Whether 结束 may be pressed now (docs/table-api.md 比赛计时): no round clock was started (the referee keeps time), the
    table's time (the round's minutes plus its extra minutes) is up, or the desk allowed this table an early end."""
    return clock is None or clock.time_up(table.log.extra_minutes) or table.early_end is not None


def too_early(table: TableState, clock: Clock | None) -> Decision | None:
    """CONFLICT (`field: "clock"`, the minutes left in the message) for an end before the table's time is up, the
    clock running or paused, without the desk's leave; None when the table may end (`may_end`)."""
    if clock is None or may_end(table, clock):
        return None
    left = clock.left_s(table.log.extra_minutes)
    said = f"还剩 {-(-left // 60)} 分钟" if left >= 60 else "还剩不到 1 分钟"
    paused = "" if clock.running else "计时暂停中，"
    return refuse(Result.CONFLICT, table, None, "clock",
                  f"{paused}本桌比赛时间{said}，还不能结束；请接着打，时间到了再按“结束”。确需提前结束，请找裁判台同意")


# --- POST /api/t/<code>/undo ---


def parse_undo_request(body: object) -> int | None | HandError:
    """{"hand": n} → n; {"end": true} → None (the end); anything else → the problem (`id` and `mark` aside)."""
    fields = {k: v for k, v in body.items() if k not in ("id", "mark")} if isinstance(body, Mapping) else None
    if fields is not None and set(fields) == {"end"} and fields["end"] is True:
        return None
    number = fields.get("hand") if fields is not None and set(fields) == {"hand"} else None
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        shown_body = fields if fields is not None else body
        return Issue.of_hand(None, "hand", f"撤销应写明局号，如 {{\"hand\": 3}}（或撤销结束：{{\"end\": true}}），实际为 {shown(shown_body)}")
    return number


def undo(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp,
         known: KnownStates | None = None) -> Decision:
    """POST /api/t/<code>/undo with {"hand": n} or {"end": true}, and {"id", "mark"}: CHANGED, SAME, CONFLICT,
    INVALID or LOCKED. A resend is known by its id, never by the hand being gone: an undo sent again after another
    phone entered that hand anew removes nothing."""
    table = table_state(setup, entries, known)
    made, number = parse_made(body), parse_undo_request(body)
    if isinstance(made, Issue) or isinstance(number, Issue):
        return Decision(Result.INVALID, table, errors=tuple(e for e in (made, number) if isinstance(e, Issue)))
    again = sent_again(table, made, asked_for(Action.UNDO, hand=number), number)
    if again is not None:
        return again
    if number is None and not table.log.ended:  # the end undone already: nothing to do, whatever the mark
        return Decision(Result.SAME, table)
    stale = stale_mark(table, made)
    if stale is not None:
        return stale
    stamp = replace(stamp, id=made.id)
    if number is None:
        return _undo_end(table, stamp)
    if table.log.locked:
        return refuse(Result.LOCKED, table, number, None, LOCKED_MESSAGE)
    last = len(table.log.hands)
    if number != last:
        return refuse(Result.CONFLICT, table, number, "hand",
                       f"只能撤销最后一局（第{last}局）" if last else "还没有录入任何一局，没有可以撤销的")
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.UNDO, hand=number))


def _undo_end(table: TableState, stamp: Stamp) -> Decision:
    if not table.log.ended:
        return Decision(Result.SAME, table)
    if table.log.locked:
        return refuse(Result.LOCKED, table, None, None, LOCKED_MESSAGE)
    last = table.log.hands[-1]
    if last.record is not None and last.record.playoff:
        return refuse(Result.CONFLICT, table, last.hand, "playoff", "已录入加赛局，请先撤销加赛局，再撤销结束")
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.UNDO, hand=None))


# --- POST /api/t/<code>/confirm (and the desk's confirm, rule 十七) ---


def confirm(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp,
            known: KnownStates | None = None) -> Decision:
    """POST /api/t/<code>/confirm with {"side": "A" | "B", "id", "mark"}: CHANGED, SAME, CONFLICT, INVALID. A
    "reason" in a phone's body is not read, so a phone's confirmation is never the desk's."""
    table = table_state(setup, entries, known)
    made, side = parse_made(body), parse_side(body)
    if isinstance(made, Issue) or isinstance(side, Issue):
        return Decision(Result.INVALID, table, errors=tuple(e for e in (made, side) if isinstance(e, Issue)))
    again = sent_again(table, made, asked_for(Action.CONFIRM, side=side))
    if again is not None or side in table.log.confirmed:  # sent again, or that side has accepted already
        return again or Decision(Result.SAME, table)
    return stale_mark(table, made) or confirm_side(table, side, replace(stamp, id=made.id))


def parse_side(body: object) -> Side | HandError:
    raw = body.get("side") if isinstance(body, Mapping) else None
    try:
        return Side.parse(raw)
    except ValueError:
        return Issue.of_hand(None, "side", f"应为 {{\"side\": \"A\"}}（甲方）或 \"B\"（乙方），实际为 {shown(raw)}")


def confirm_side(table: TableState, side: Side, stamp: Stamp, reason: str = "") -> Decision:
    """A team's acceptance of the record (`reason`: the desk's, rule 十七): CHANGED, SAME when it has accepted
    already, CONFLICT before the match is over."""
    if side in table.log.confirmed:
        return Decision(Result.SAME, table)
    if not table.over:
        return refuse(Result.CONFLICT, table, None, "side", f"比赛尚未结束（{_standing(table)}），结束后双方再确认")
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.CONFIRM, side=side, reason=reason))


def _standing(table: TableState) -> str:
    if table.status is TableStatus.NEEDS_PLAYOFF:
        return result_summary(table.result)
    return f"已录 {len(table.log.hands)} 局，甲方 {table.levels.a}，乙方 {table.levels.b}"
