"""改这一局: hand k of a table corrected without entering the later hands again — one AMEND entry (as an undo is one
entry), decided here. Pure, as `shuangsheng.table.entry` is, whose rules for the id and the mark it keeps.

`POST /api/t/<code>/amend` takes what `/hands` takes (hand k's fields, `"hand": k`, `"id"`, `"mark"`), for a hand that
stands (1 ≤ k ≤ the hands entered). The engine replays the hands with hand k replaced: hand k itself must replay
(INVALID, 422, with the engine's records, otherwise); from the first later hand the engine refuses — or one that can
no longer come, the match being over before it (passed A, or decided in 加赛) — that hand and every later one are
removed by the same entry, and the answer lists them (`"removed"`, in the input form of the match record) for the
page to show prefilled for entering again. An amend clears both confirmations; it undoes the end when it removes a
regular hand (the regular hands are open again) or changes who leads when time was up (the 加赛 hands go too: they
were played because of a tie that may be gone). The same content again is SAME; a locked table is LOCKED (the desk
reopens it first). The desk's correction (with a reason, logged) is the same entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from shuangsheng.game.hands import Hand
from shuangsheng.game.levels import START
from shuangsheng.game.match import MatchResult, Replay, Status
from shuangsheng.table.entry import (
    LOCKED_MESSAGE,
    Decision,
    HandRequest,
    Result,
    append_entry,
    asked_for,
    parse_hand_request,
    refuse,
    sent_again,
    stale_mark,
)
from shuangsheng.table.log import Action, Entry, Stamp, TableSetup
from shuangsheng.table.state import KnownStates, TableState, replayed, table_state


@dataclass(frozen=True)
class Amended:
    """Hand k replaced: the hands that stand after it, and whether the end is undone with it."""

    hands: tuple[Hand, ...]
    unend: bool


def amend(setup: TableSetup, entries: Sequence[Entry], body: object, *, stamp: Stamp, reason: str = "",
          known: KnownStates | None = None) -> Decision:
    """POST /api/t/<code>/amend: CHANGED with the AMEND entry (and the hands it removed), or SAME, CONFLICT, INVALID,
    LOCKED. `reason`: the desk's (its correction, logged)."""
    table = table_state(setup, entries, known)
    request = parse_hand_request(body)
    if isinstance(request, tuple):
        return Decision(Result.INVALID, table, errors=request)
    k = request.number
    again = sent_again(table, request.made, asked_for(Action.AMEND, hand=k, record=request.record, reason=reason), k)
    if again is not None:
        return again
    if table.log.locked:
        return refuse(Result.LOCKED, table, k, None, LOCKED_MESSAGE)
    standing = len(table.log.hands)
    if not 1 <= k <= standing:
        detail = f"第{k}局还没有录入，请直接录入这一局" if k > standing else "没有这一局"
        return refuse(Result.CONFLICT, table, k, "hand", detail)
    old = table.log.hands[k - 1].record
    record = replace(request.record, playoff=old.playoff if old is not None else False)
    if old is not None and replace(old, level=None) == replace(record, level=None):
        return Decision(Result.SAME, table)
    stale = stale_mark(table, request.made)
    if stale is not None:
        return stale
    return _decided(table, request, record, replace(stamp, id=request.made.id), reason)


def _decided(table: TableState, request: HandRequest, record: Hand, stamp: Stamp, reason: str) -> Decision:
    k = request.number
    hands = tuple(e.record for e in table.log.hands if e.record is not None)
    new = (*hands[: k - 1], record, *hands[k:])
    result = replayed(new[:k], table.setup.rules)
    if result.errors:
        return Decision(Result.INVALID, table, errors=result.errors)
    amended = amended_hands(new, k, table)
    entry = Entry(stamp.id, Action.AMEND, stamp.time, stamp.address, hand=k, record=record, reason=reason,
                  kept=len(amended.hands), unend=amended.unend)
    decision = append_entry(Result.CHANGED, table, entry)
    return replace(decision, removed=table.log.hands[len(amended.hands):])


def amended_hands(new: tuple[Hand, ...], k: int, table: TableState) -> Amended:
    """The hands that stand once hand k is replaced in `new` (hand k replays): up to the first later hand the engine
    refuses or that can no longer come; then the end, undone when a regular hand went or the lead at time changed
    (the 加赛 hands going with it)."""
    walk = Replay(START, table.setup.rules)  # one hand at a time, not hands 1 … j replayed again for every j
    for hand in new[:k]:
        walk.add(hand)
    kept = len(new)
    for j in range(k + 1, len(new) + 1):
        before = walk.result()  # of hands 1 … j − 1
        walk.add(new[j - 1])
        if _cannot_come(before, new[j - 1]) or walk.result().errors:
            kept = j - 1
            break
    if not table.log.ended:
        return Amended(new[:kept], False)
    regular = [h for h in new if not h.playoff]
    unend = any(not h.playoff for h in new[kept:]) or _leader(regular, table) != _leader(
        [e.record for e in table.log.hands if e.record is not None and not e.record.playoff], table)
    if unend:
        kept = min(kept, len(regular))
    return Amended(new[:kept], unend)


def _cannot_come(before: MatchResult, hand: Hand) -> bool:
    """A hand after the match was over: passed A, or a 加赛 hand after the 加赛 decided it."""
    return before.status is Status.PASSED_A or (hand.playoff and before.status is Status.DECIDED)


def _leader(regular: Sequence[Hand], table: TableState) -> int:
    """Who leads when time is up after these regular hands: 1 (甲方), -1 (乙方) or 0 (tied)."""
    levels = replayed(tuple(regular), table.setup.rules).levels
    return (levels.a > levels.b) - (levels.a < levels.b)
