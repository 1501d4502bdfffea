"""The desk's presses on one table, decided as a phone's requests are (`shuangsheng.table.entry`): pure, on the
table's entries and the request body, returning a `Decision` whose entry the caller stores before it answers.

- reopen `{"reason": "…"}`: unlocks and clears both confirmations (SAME when there is nothing to reopen;
  NO_REASON, 400, without a reason).
- minutes `{"add": m, "reason": "…"}` (the desk's extra minutes for this table, `add_minutes`): NO_REASON without a
  reason, INVALID unless m is a whole number 1 … 120; otherwise CHANGED, and the confirmations stand.
- the desk's confirm `{"side", "reason"}` (`desk_confirm`, rule 十七): as confirm, NO_REASON without a reason.
- early end `{"reason": "…"}` (`allow_early_end`, docs/table-api.md 比赛计时): the table may end before its time is up;
  NO_REASON without a reason, SAME when it may already or has ended; the record and its confirmations stand.
- paper_rules `{"reason": "…"}` (以纸质为准, `paper_rules`): the round workbook — the signed card typed into the
  table's sheet, or a lost card's 终局 cells — is the table's record from now on, not the phones' entries (kept, no
  longer counted; the phones are refused, `shuangsheng.table.entry.paper_rules_lock`); `"undo": true` gives the
  record back to the phones. SAME when already so; NO_REASON without a reason; INVALID for an `undo` not true/false.
- a desk action (`desk_action`) carries the page's `"id"` and `"mark"` as a phone's request does, and the pairing
  it showed (`"teams"`, optional): a press sent again after a `draw --redo` changed the table is a CONFLICT."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from shuangsheng.game.levels import Side
from shuangsheng.table.entry import (
    MAX_REASON_LENGTH,
    Decision,
    Result,
    append_entry,
    asked_for,
    confirm_side,
    new_entry,
    parse_made,
    parse_side,
    refuse,
    sent_again,
    stale_mark,
)
from shuangsheng.table.log import Action, Entry, Stamp, TableSetup, open_for_correction
from shuangsheng.table.state import TableState, table_state
from shuangsheng.vocabulary.errors import Issue, shown

# --- POST /api/desk/t/<table>/reopen ---


def reopen(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp, sealed: bool = False) -> Decision:
    """The desk's reopening with {"reason": "…"}: unlocks and clears both confirmations (CHANGED), SAME when
    nothing is confirmed, NO_REASON without a reason. `sealed`: the table's next round is drawn — the reopening is
    a correction (`Entry.correction`), recorded even when nothing was confirmed, and the table takes changes again
    (SAME once it is open for correction and unconfirmed)."""
    table = table_state(setup, entries)
    reason = body.get("reason") if isinstance(body, Mapping) else None
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON_LENGTH:
        return refuse(Result.NO_REASON, table, None, "reason", f"重新开放须写明原因（{MAX_REASON_LENGTH} 字以内）")
    if not table.log.confirmed and (not sealed or open_for_correction(table.entries)):
        return Decision(Result.SAME, table)
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.REOPEN, reason=reason.strip(),
                                                         correction=sealed))


# --- the desk's other actions: POST /api/desk/t/<table>/minutes and …/confirm (rule 十七) ---

MAX_EXTRA_MINUTES = 120  # one addition of extra minutes: 1 … this


def desk_reason(body: object) -> str | None:
    """The reason a desk action needs: the stripped text, or None when missing, empty or too long."""
    reason = body.get("reason") if isinstance(body, Mapping) else None
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON_LENGTH:
        return None
    return reason.strip()


def add_minutes(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp) -> Decision:
    """The desk's extra minutes for one table, {"add": m, "reason": "…"} (m a whole number 1 … 120): CHANGED (the
    table's confirmations stand), NO_REASON without a reason, INVALID for another `add`."""
    table = table_state(setup, entries)
    reason = desk_reason(body)
    if reason is None:
        return refuse(Result.NO_REASON, table, None, "reason", f"加时须写明原因（{MAX_REASON_LENGTH} 字以内）")
    add = body.get("add") if isinstance(body, Mapping) else None
    if isinstance(add, bool) or not isinstance(add, int) or not 1 <= add <= MAX_EXTRA_MINUTES:
        return refuse(Result.INVALID, table, None, "add",
                       f"加时应为 1 到 {MAX_EXTRA_MINUTES} 的整数分钟，实际为 {shown(add)}")
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.MINUTES, add=add, reason=reason))


def desk_confirm(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp) -> Decision:
    """The desk's confirmation for a team that will not (rule 十七: the 比赛负责人 decides), {"side": "A", "reason":
    "…"}: as `confirm`, with the reason required (NO_REASON without one) and kept in the entry."""
    table = table_state(setup, entries)
    reason = desk_reason(body)
    if reason is None:
        return refuse(Result.NO_REASON, table, None, "reason", f"代为确认须写明原因（{MAX_REASON_LENGTH} 字以内）")
    side = parse_side(body)
    if isinstance(side, Issue):
        return Decision(Result.INVALID, table, errors=(side,))
    return confirm_side(table, side, stamp, reason)


def allow_early_end(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp) -> Decision:
    """The desk's leave for one table to end before its time is up, {"reason": "…"} (a team gives up, a player is
    taken ill): CHANGED — the phones' `/end` is then accepted whatever the round clock says —, SAME when the desk
    allowed it already or the table has ended (or is over), NO_REASON without a reason. The record and its
    confirmations stand."""
    table = table_state(setup, entries)
    reason = desk_reason(body)
    if reason is None:
        return refuse(Result.NO_REASON, table, None, "reason", f"提前结束须写明原因（{MAX_REASON_LENGTH} 字以内）")
    if table.early_end is not None or table.log.ended or table.over:
        return Decision(Result.SAME, table)
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.EARLY_END, reason=reason))


# --- POST /api/desk/t/<table>/paper_rules: the signed paper card overrules the phone ---


def paper_rules(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp,
                sealed: bool = False) -> Decision:
    """The desk's ruling that the round workbook is the table's record (the signed card typed into its sheet, or a
    lost card's 终局 cells), {"reason": "…"}; with `"undo": true` the record is the phones' again. CHANGED, SAME
    when it is already so, NO_REASON without a reason, INVALID for an `undo` other than true or false. `sealed`:
    the table's next round is drawn — the ruling is a correction (`Entry.correction`), as a reopening is."""
    table = table_state(setup, entries)
    reason = desk_reason(body)
    if reason is None:
        return refuse(Result.NO_REASON, table, None, "reason",
                      f"以纸质计分卡为准（或改回扫码录分）须写明原因（{MAX_REASON_LENGTH} 字以内）")
    undo = body.get("undo", False) if isinstance(body, Mapping) else False
    if not isinstance(undo, bool):
        return refuse(Result.INVALID, table, None, "undo",
                      f"应为 true（改回以扫码录分为准）或 false，实际为 {shown(undo)}")
    if (table.log.paper is None) is undo:  # already so
        return Decision(Result.SAME, table)
    return append_entry(Result.CHANGED, table, new_entry(stamp, Action.PAPER_RULES, reason=reason, lifted=undo,
                                                         correction=sealed))


# --- a desk press: made on a state, as a phone's request is ---


DESK_DECISIONS = {Action.MINUTES: add_minutes, Action.REOPEN: reopen, Action.CONFIRM: desk_confirm,
                  Action.EARLY_END: allow_early_end}


def desk_action(action: Action, setup: TableSetup, entries: Sequence[Entry], body: object, *,
                stamp: Stamp, sealed: bool = False) -> Decision:
    """A desk action on one table (`add_minutes`, `reopen`, `desk_confirm`, `allow_early_end`, `paper_rules`) with the
    page's `"id"` (kept as the entry's id) and `"mark"`: INVALID without them; the same press sent again (its id in
    the table's log for this very action and content) is SAME, nothing appended; an id used for anything else, a
    pairing other than the one the page showed (`"teams"`), or an old mark is a CONFLICT."""
    table = table_state(setup, entries)
    made = parse_made(body)
    if isinstance(made, Issue):
        return Decision(Result.INVALID, table, errors=(made,))
    refused = (sent_again(table, made, _requested(action, body)) or _meant_elsewhere(table, body)
               or stale_mark(table, made))
    if refused is not None:
        return refused
    stamp = replace(stamp, id=made.id)
    if action is Action.REOPEN:  # these two are a correction when the table's next round is drawn
        return reopen(setup, entries, body, stamp=stamp, sealed=sealed)
    if action is Action.PAPER_RULES:
        return paper_rules(setup, entries, body, stamp=stamp, sealed=sealed)
    return DESK_DECISIONS[action](setup, entries, body, stamp=stamp)


def _meant_elsewhere(table: TableState, body: object) -> Decision | None:
    """The page's optional `"teams": [甲方, 乙方]`, the pairing it showed when the button was pressed: a press sent
    again after a `draw --redo` changed the table is not applied to the new pairing (CONFLICT); INVALID when it is
    not two team ids. None when it fits or is not given."""
    setup = table.setup
    teams = body.get("teams") if isinstance(body, Mapping) else None
    if teams is None:
        return None
    if not (isinstance(teams, list) and len(teams) == 2 and all(isinstance(t, str) for t in teams)):
        return refuse(Result.INVALID, table, None, "teams", f"应为两队的组号，如 [\"05\", \"04\"]，实际为 {shown(teams)}")
    if teams == [setup.a.team, setup.b.team]:
        return None
    return refuse(Result.CONFLICT, table, None, "teams",
                   f"第{setup.table}桌现在是{setup.name(setup.a.team)}对{setup.name(setup.b.team)}"
                   f"（按的时候是{setup.name(teams[0])}对{setup.name(teams[1])}，"
                   "本轮重新抽签了），这次操作没有记录；请看清本桌后再操作")


def _requested(action: Action, body: object) -> tuple[object, ...]:
    """What a desk request asks, as `_content` shows the entry it makes."""
    fields = body if isinstance(body, Mapping) else {}
    add = fields.get("add")
    side = parse_side(body) if action is Action.CONFIRM else None
    return asked_for(action, side=side if isinstance(side, Side) else None,
                  add=add if action is Action.MINUTES and type(add) is int else None, reason=desk_reason(body) or "",
                  lifted=action is Action.PAPER_RULES and fields.get("undo") is True)
