"""改这一局 (shuangsheng/table/amend.py): hand k corrected by one AMEND entry, the later hands the engine no longer
takes removed by it and handed back for entering again, the end undone when the regular hands reopen or the lead at
time changes; the id and mark rules as for every press."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.table.amend import amend
from shuangsheng.table.entry import Result
from shuangsheng.table.log import Action, Entry, desk_log, fold, read_entry
from shuangsheng.table.status import TableStatus
from tests.test_entry import EXAMPLE_HANDS, EXAMPLE_PLAYOFF, SETUP, TO_ACE, Phone, folded


class Amending(Phone):
    def amend(self, n: int, content: dict, id: str | None = None, mark: int | None = None, reason: str = ""):
        body = self.made({**content, "hand": n}, id, mark)
        return self.apply(amend(self.setup, self.entries, body, stamp=self.stamp(), reason=reason))


def levels(phone: Phone) -> tuple[str, str]:
    return phone.state.levels.a.label, phone.state.levels.b.label


def test_an_earlier_hand_corrected_keeps_the_later_hands_that_still_replay() -> None:
    phone = Amending().hands(EXAMPLE_HANDS[:3])
    before = [e.record for e in phone.state.log.hands]
    decision = phone.amend(1, {"dealer": "A", "points": 20})  # A keeps the deal by three levels, not two
    assert decision.result is Result.CHANGED and decision.http_status == 200
    assert decision.entry.action is Action.AMEND and decision.entry.kept == 3
    hands = [e.record for e in phone.state.log.hands]
    assert hands[0].points == 20 and hands[1:] == before[1:]
    assert "removed" not in decision.as_json()
    assert phone.state.next_hand == 4  # the next hand to enter is still hand 4


def test_later_hands_the_engine_refuses_are_removed_and_handed_back_prefilled() -> None:
    """Hand 1 typed as B winning the deal; in fact A kept it: hands 2 and 3 (B dealing) can no longer stand."""
    phone = Amending().hands([{"dealer": "A", "points": 85}, {"dealer": "B", "points": 40}, {"dealer": "B", "points": 40}])
    decision = phone.amend(1, {"dealer": "A", "points": 35})
    assert decision.result is Result.CHANGED and decision.entry.kept == 1
    assert decision.as_json()["removed"] == [{"hand": 2, "dealer": "B", "points": 40}, {"hand": 3, "dealer": "B", "points": 40}]
    assert levels(phone) == ("5", "2") and phone.state.next_hand == 2


def test_an_amend_that_makes_a_side_pass_a_removes_what_followed_it() -> None:
    """Hand 5 typed as A losing the deal at A; in fact A passed A there: hand 6 cannot have come."""
    phone = Amending().hands([*TO_ACE[:4], {"dealer": "A", "points": 80}, {"dealer": "B", "points": 40}])
    assert phone.state.status is TableStatus.OPEN
    assert phone.amend(4, TO_ACE[3]).result is Result.SAME  # the same content: nothing to do
    decision = phone.amend(5, {"dealer": "A", "points": 0})
    assert decision.result is Result.CHANGED and decision.entry.kept == 5
    assert decision.as_json()["removed"] == [{"hand": 6, "dealer": "B", "points": 40}]
    assert phone.state.status is TableStatus.PASSED_A and len(phone.state.log.hands) == 5


def test_a_wrong_correction_is_refused_with_the_engine_s_records_and_nothing_changes() -> None:
    phone = Amending().hands(EXAMPLE_HANDS[:3])
    decision = phone.amend(2, {"dealer": "B", "points": 35})  # B cannot deal hand 2: A kept the deal
    assert decision.result is Result.INVALID and decision.http_status == 422 and decision.entry is None
    assert decision.errors and decision.errors[0].hand == 2
    assert phone.amend(4, {"dealer": "A", "points": 35}).result is Result.CONFLICT  # not entered yet
    assert len(phone.entries) == 3


def test_the_end_stays_when_the_lead_at_time_is_the_same_and_goes_when_it_changes() -> None:
    phone = Amending().hands([{"dealer": "A", "points": 35}, {"dealer": "A", "points": 40}])
    assert phone.end().state.status is TableStatus.DECIDED  # A leads 6/2 when time is up
    decision = phone.amend(2, {"dealer": "A", "points": 20})
    assert decision.result is Result.CHANGED and not decision.entry.unend
    assert phone.state.log.ended and phone.state.status is TableStatus.DECIDED
    decision = phone.amend(1, {"dealer": "A", "points": 85})  # B wins the deal at hand 1: the lead changes
    assert decision.entry.unend and not phone.state.log.ended and phone.state.status is TableStatus.OPEN


def test_an_amend_that_breaks_the_tie_at_time_takes_the_playoff_hands_and_the_end_with_it() -> None:
    phone = Amending().hands(EXAMPLE_HANDS)
    phone.end()
    phone.hand(7, EXAMPLE_PLAYOFF)
    assert phone.state.status is TableStatus.DECIDED
    decision = phone.amend(6, {"dealer": "B", "points": 0})  # B keeps the deal by three: no longer tied at time
    assert decision.result is Result.CHANGED and decision.entry.unend and decision.entry.kept == 6
    assert decision.as_json()["removed"] == [{"hand": 7, "dealer": "B", "points": 20, "playoff": True}]
    assert not phone.state.log.ended and len(phone.state.log.hands) == 6


def test_an_amend_clears_both_confirmations_and_a_locked_table_refuses_it() -> None:
    phone = Amending().hands([{"dealer": "A", "points": 35}, {"dealer": "A", "points": 40}])
    phone.end()
    phone.confirm({"side": "A"})
    assert phone.state.log.confirmed
    phone.amend(2, {"dealer": "A", "points": 20})
    assert not phone.state.log.confirmed
    phone.confirm({"side": "A"})
    phone.confirm({"side": "B"})
    assert phone.amend(2, {"dealer": "A", "points": 30}).result is Result.LOCKED


def test_an_amend_is_a_press_like_any_other_its_id_applied_once_its_mark_checked() -> None:
    phone = Amending().hands(EXAMPLE_HANDS[:3])
    first = phone.amend(1, {"dealer": "A", "points": 20}, id="fix-1")
    again = phone.amend(1, {"dealer": "A", "points": 20}, id="fix-1", mark=3)  # its answer lost: sent again
    assert again.result is Result.SAME and again.entry is None and again.state == first.state
    assert phone.amend(1, {"dealer": "A", "points": 25}, id="fix-1").result is Result.CONFLICT  # the id for another
    stale = phone.amend(2, {"dealer": "A", "points": 40}, mark=3)  # made on the record before fix-1
    assert stale.result is Result.CONFLICT and stale.errors[0].field == "mark"
    undo_after = phone.undo({"hand": 3}, mark=3)  # an undo made before the amend is stale too
    assert undo_after.result is Result.CONFLICT


def test_an_amend_entry_round_trips_through_the_ledger_s_json_and_the_desk_s_is_logged() -> None:
    phone = Amending().hands(EXAMPLE_HANDS)
    phone.end()
    phone.hand(7, EXAMPLE_PLAYOFF)
    phone.amend(6, {"dealer": "B", "points": 0}, reason="裁判长核对纸质计分卡后更正")
    stored = [read_entry(json.loads(json.dumps(e.as_json(), ensure_ascii=False))) for e in phone.entries]
    assert stored == phone.entries and fold(stored) == fold(phone.entries)
    (logged,) = [e for e in desk_log(phone.entries) if e["action"] == "amend"]
    assert logged["hand"] == 6 and logged["reason"] == "裁判长核对纸质计分卡后更正"


def test_an_amend_of_a_hand_that_does_not_stand_changes_nothing_in_the_fold() -> None:
    """(A decision never appends one; a damaged row must still fold.)"""
    phone = Amending().hands(EXAMPLE_HANDS[:2])
    stray = Entry("x", Action.AMEND, "2026-12-01T14:05:00+08:00", "", hand=5, record=phone.entries[0].record, kept=5)
    assert fold([*phone.entries, stray]).hands == fold(phone.entries).hands


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([{"dealer": d, "points": p} for d in "AB" for p in (0, 20, 35, 40, 60, 85, 105)]),
                min_size=2, max_size=8), st.data())
def test_whatever_is_amended_the_standing_hands_replay_and_the_fold_agrees(contents, data) -> None:
    phone = Amending()
    for n, content in enumerate(contents, start=1):
        if phone.hand(n, content).result is not Result.CREATED:
            break
    standing = len(phone.state.log.hands)
    if standing == 0:
        return
    k = data.draw(st.integers(1, standing))
    replacement = data.draw(st.sampled_from([{"dealer": d, "points": p} for d in "AB" for p in (0, 40, 85)]))
    decision = phone.amend(k, replacement)
    assert decision.result in (Result.CHANGED, Result.SAME, Result.INVALID)
    state = phone.state
    assert not state.result.errors  # what stands always replays
    assert state == folded(SETUP, phone.entries)
    if decision.result is Result.CHANGED:
        assert len(state.log.hands) + len(decision.removed) == standing
