"""Table-side entry (the table API of `serve`: shuangsheng/table/entry.py and desk_actions.py): every decision on a phone's
or the desk's request, each with the HTTP status the server answers, and the state as the fold of the table's
append-only log (log.py, state.py)."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shuangsheng.game.hands import Hand, MatchRecord, parse_record
from shuangsheng.game.levels import Side
from shuangsheng.game.match import replay, replay_record, result_as_json
from shuangsheng.game.rules import RuleSet, TieBreak
from shuangsheng.table.desk_actions import add_minutes, desk_confirm, reopen
from shuangsheng.table.entry import Result, add_hand, confirm, end, parse_hand_request, undo
from shuangsheng.table.log import Action, Entry, Log, Seat, Stamp, TableSetup, desk_log, fold, hand_as_json, read_entry
from shuangsheng.table.state import KnownStates, TableState, replayed, table_state
from shuangsheng.table.status import TableStatus

SETUP = TableSetup(round=2, table=7, a=Seat("03", ("张三", "李四")), b=Seat("08", ("王五", "赵六")))

# The worked example of docs/match-record.md: levels after each hand 5/2, 2/2, 2/4, 7/4, 7/5, 7/7 — tied at time — then 加赛 7/10, B wins.
EXAMPLE_HANDS = [
    {"dealer": "A", "points": 35},
    {"dealer": "A", "points": 50, "bottom": 25, "capture": 4},
    {"dealer": "B", "points": 85, "dealer_wrong_cards": 0, "defender_wrong_cards": 3},
    {"dealer": "B", "offense": "dealer_wrong_bury"},
    {"dealer": "A", "points": 60, "bottom": 20, "capture": 2},
    {"dealer": "B", "points": 40, "level": "5"},
]
EXAMPLE_PLAYOFF = {"dealer": "B", "points": 20}
# A passes A: 35 → 5, 0 → 9, 0 → J (must-play), 0 → A (must-play), 0 → passes A.
TO_ACE = [{"dealer": "A", "points": p} for p in (35, 0, 0, 0, 0)]


class Phone:
    """A table's log and the requests made on it, as the server will make them: decide, then append."""

    def __init__(self, setup: TableSetup = SETUP):
        self.setup = setup
        self.entries: list[Entry] = []
        self.counter = itertools.count(1)

    def stamp(self) -> Stamp:
        return Stamp(f"server-{next(self.counter)}", "2026-12-01T14:05:00+08:00", "192.168.1.23")

    def apply(self, decision):
        assert (decision.entry is not None) == decision.result.appended
        if decision.entry is not None:
            self.entries.append(decision.entry)
        assert decision.state == folded(self.setup, self.entries)  # the fold agrees with the decision
        return decision

    def made(self, body: object, id: str | None = None, mark: int | None = None) -> object:
        """`body` as a page sends it: with a new id for the press (or `id`) and the mark of the table as it stands
        (or `mark`); a body that is not an object is sent as it is."""
        if not isinstance(body, dict):
            return body
        return {"id": id or f"press-{next(self.counter)}", "mark": len(self.entries) if mark is None else mark, **body}

    def hand(self, n: int, content: dict, id: str | None = None, mark: int | None = None):
        body = self.made({**content, "hand": n}, id or f"phone-{n}", mark)
        return self.apply(add_hand(self.setup, self.entries, body, stamp=self.stamp()))

    def hands(self, contents: list[dict]):
        for n, content in enumerate(contents, start=1):
            assert self.hand(n, content).result is Result.CREATED
        return self

    def end(self, id: str | None = None, mark: int | None = None):
        return self.apply(end(self.setup, self.entries, self.made({}, id, mark), stamp=self.stamp()))

    def undo(self, body: object, id: str | None = None, mark: int | None = None):
        return self.apply(undo(self.setup, self.entries, self.made(body, id, mark), stamp=self.stamp()))

    def confirm(self, body: object, id: str | None = None, mark: int | None = None):
        return self.apply(confirm(self.setup, self.entries, self.made(body, id, mark), stamp=self.stamp()))

    def reopen(self, body: object):
        return self.apply(reopen(self.setup, self.entries, body, stamp=self.stamp()))

    def minutes(self, body: object):
        return self.apply(add_minutes(self.setup, self.entries, body, stamp=self.stamp()))

    def desk_confirm(self, body: object):
        return self.apply(desk_confirm(self.setup, self.entries, body, stamp=self.stamp()))

    @property
    def state(self):
        return table_state(self.setup, self.entries)


def folded(setup: TableSetup, entries: list[Entry]) -> TableState:
    """The state folded step by step, to compare `table_state` and `KnownStates` with."""
    log = fold(entries)
    return TableState(setup, log, replayed(tuple(e.record for e in log.hands), setup.rules))


def ended_tied() -> Phone:
    phone = Phone().hands(EXAMPLE_HANDS)
    assert phone.end().state.status is TableStatus.NEEDS_PLAYOFF
    return phone


def decided() -> Phone:
    phone = ended_tied()
    assert phone.hand(7, EXAMPLE_PLAYOFF).state.status is TableStatus.DECIDED
    return phone


# --- the whole example match of docs/match-record.md, hand by hand, against replay ---


def test_the_documented_example_entered_hand_by_hand_matches_replay():
    phone = Phone()
    for n, content in enumerate(EXAMPLE_HANDS, start=1):
        decision = phone.hand(n, content)
        assert decision.result is Result.CREATED and decision.http_status == 201
        expected = result_as_json(replay_record({"hands": EXAMPLE_HANDS[:n]}))
        shown = decision.as_json()
        assert [{k: v for k, v in h.items() if k != "entered"} for h in shown["hands"]] == expected["hands"]
        typed = parse_record({"hands": [h["entered"] for h in shown["hands"]]})
        assert typed == parse_record({"hands": EXAMPLE_HANDS[:n]})  # each hand as typed
        assert shown["levels"] == expected["levels"]
        assert shown["status"] == "playing" and shown["winner"] is None
    assert phone.end().result is Result.CHANGED
    final = phone.hand(7, EXAMPLE_PLAYOFF).as_json()
    expected = result_as_json(replay_record({"hands": [*EXAMPLE_HANDS, {**EXAMPLE_PLAYOFF, "playoff": True}]}))
    assert [{k: v for k, v in h.items() if k != "entered"} for h in final["hands"]] == expected["hands"]
    assert [h["levels"] for h in final["hands"]] == [
        {"A": a, "B": b} for a, b in [("5", "2"), ("2", "2"), ("2", "4"), ("7", "4"), ("7", "5"), ("7", "7"), ("7", "10")]
    ]
    assert final["hands"][6]["explanation"].startswith("第7局（加赛）")
    assert (final["status"], final["winner"], final["ended"]) == ("decided", "B", True)


def test_get_state_has_exactly_the_fields_of_the_table_api():
    shown = Phone().hands(EXAMPLE_HANDS[:1]).state.as_json()
    assert json.loads(json.dumps(shown, ensure_ascii=False)) == shown
    assert shown == {
        "round": 2,
        "table": 7,
        "A": {"team": "03", "shown": "03", "players": ["张三", "李四"]},  # shown: as printed (003 over 99 teams)
        "B": {"team": "08", "shown": "08", "players": ["王五", "赵六"]},
        "hands": [{**h, "entered": {"dealer": "A", "points": 35}}  # each hand as typed, for 改这一局
                  for h in result_as_json(replay_record({"hands": EXAMPLE_HANDS[:1]}))["hands"]],
        "levels": {"A": "5", "B": "2"},
        "next_dealer": "A",
        "status": "playing",
        "winner": None,
        "ended": False,
        "confirmed": {"A": False, "B": False},
        "locked": False,
        "reopened": None,  # the desk's reopening the phones are to act on: {"reason", "time"}
        "early_end": None,  # the desk's leave to end before time is up: {"reason", "time"}
        "paper_rules": None,  # the desk's ruling that the signed card is the record: {"reason", "time"}
        "mark": 1,  # the table's count of entries: what the next request is made on
    }


def test_a_new_table_starts_at_2_and_the_grab_winner_may_deal_first():
    empty = Phone().state.as_json()
    assert (empty["hands"], empty["levels"], empty["next_dealer"], empty["status"]) == (
        [], {"A": "2", "B": "2"}, None, "playing")
    assert Phone().hand(1, {"dealer": "B", "points": 0}).state.levels.b.label == "6"


# --- POST hands ---


def test_hand_must_be_the_next_number():
    phone = Phone().hands(EXAMPLE_HANDS[:1])
    decision = phone.hand(3, EXAMPLE_HANDS[1])
    assert decision.result is Result.CONFLICT and decision.http_status == 409
    assert decision.errors[0].message == "第3局：应录第2局（已录 1 局），请刷新后再录"
    assert len(phone.entries) == 1


def test_same_id_again_is_the_same_state_nothing_duplicated():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    before = phone.state
    decision = phone.hand(2, EXAMPLE_HANDS[1], id="phone-2")
    assert decision.result is Result.SAME and decision.http_status == 200
    assert decision.entry is None and decision.state == before and len(phone.entries) == 2


def test_same_content_from_a_second_phone_is_the_same_state():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    second = {**EXAMPLE_HANDS[1], "defender_wrong_cards": 0, "playoff": False}  # defaults written out
    assert phone.hand(2, second, id="other-phone").result is Result.SAME
    assert phone.hand(2, {**second, "level": "5"}, id="third-phone").result is Result.SAME  # a right cross-check
    assert len(phone.entries) == 2


def test_hand_n_holding_a_different_entry_is_a_conflict():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    decision = phone.hand(2, {"dealer": "A", "points": 55}, id="other-phone")
    assert decision.result is Result.CONFLICT
    assert decision.errors[0].hand == 2 and "第2局已录入另一条记录" in decision.errors[0].message
    wrong_level = phone.hand(2, {**EXAMPLE_HANDS[1], "level": "6"}, id="third-phone")
    assert wrong_level.result is Result.CONFLICT and len(phone.entries) == 2


def test_an_id_used_for_other_content_is_a_conflict():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    decision = phone.hand(3, EXAMPLE_HANDS[2], id="phone-2")
    assert decision.result is Result.CONFLICT and decision.errors[0].field == "id"


def test_a_retry_of_an_undone_hand_does_not_bring_it_back():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    assert phone.undo({"hand": 2}).result is Result.CHANGED
    retry = phone.hand(2, EXAMPLE_HANDS[1], id="phone-2")
    assert retry.result is Result.SAME and len(retry.state.log.hands) == 1


def test_a_hand_without_points_asks_for_0():
    phone = Phone()
    decision = phone.hand(1, {"dealer": "A"})
    assert decision.result is Result.INVALID and decision.http_status == 422
    assert decision.as_json()["errors"] == [{"message": "第1局台下得分：没有填；台下方一分未得请填 0", "file": None,
                                             "sheet": None, "cell": None, "hand": 1, "field": "points"}]
    assert phone.entries == []
    assert phone.hand(1, {"dealer": "A", "points": None}).result is Result.INVALID


def test_a_hand_with_an_offense_or_level_card_capture_needs_no_points():
    phone = Phone()
    assert phone.hand(1, {"dealer": "A", "offense": "defender_wrong_bury"}).result is Result.CREATED
    request = parse_hand_request({"hand": 9, "id": "x", "mark": 0, "dealer": "A", "bottom": 20, "capture": 2, "level_card_capture": True})
    assert not isinstance(request, tuple) and request.record.points == 0


@pytest.mark.parametrize("content", [{"dealer": "A", "points": 33, "bottom": 7}, {"dealer": "C", "points": 5, "colour": "red"},
                                     {"dealer": "B", "points": 5, "bottom": 10, "capture": 2, "level_card_capture": True}])
def test_bad_values_are_refused_with_the_engines_messages_and_every_problem(content):
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    decision = phone.hand(3, content)
    assert decision.result is Result.INVALID and len(phone.entries) == 2
    expected = replay_record({"hands": [*EXAMPLE_HANDS[:2], content]}).errors
    assert decision.errors == expected and expected
    assert all(e.hand == 3 for e in decision.errors)


@pytest.mark.parametrize("body", [None, [], "hand", {"dealer": "A", "points": 0}, {"hand": 0, "id": "x", "dealer": "A", "points": 0},
                                  {"hand": True, "id": "x", "dealer": "A", "points": 0}, {"hand": 1, "id": "", "dealer": "A", "points": 0},
                                  {"hand": 1, "id": 5, "dealer": "A", "points": 0}])
def test_a_request_without_hand_number_or_id_is_invalid(body):
    phone = Phone()
    decision = add_hand(SETUP, [], body, stamp=phone.stamp())
    assert decision.result is Result.INVALID and decision.entry is None and decision.errors


def test_a_hand_the_engine_refuses_after_the_hands_before_it_is_invalid_with_the_engines_records():
    phone = Phone().hands(EXAMPLE_HANDS[:1])
    wrong_dealer = {"dealer": "B", "points": 50}
    decision = phone.hand(2, wrong_dealer)
    expected = replay_record({"hands": [EXAMPLE_HANDS[0], wrong_dealer]}).errors
    assert decision.result is Result.INVALID and decision.errors == expected
    assert decision.errors[0].message == "第2局庄家：应为甲方坐庄（第1局后甲方保庄），记录为乙方"
    assert len(phone.entries) == 1
    wrong_level = phone.hand(2, {"dealer": "A", "points": 50, "level": "2"})
    assert wrong_level.result is Result.INVALID and wrong_level.errors[0].field == "level"


def test_playoff_marked_before_the_end_is_invalid():
    decision = Phone().hands(EXAMPLE_HANDS[:1]).hand(2, {"dealer": "A", "points": 50, "playoff": True})
    assert decision.result is Result.INVALID and decision.errors[0].field == "playoff"


def test_a_hand_after_passing_a_is_a_conflict():
    phone = Phone().hands(TO_ACE)
    assert phone.state.status is TableStatus.PASSED_A and phone.state.winner is Side.A
    decision = phone.hand(6, {"dealer": "A", "points": 0})
    assert decision.result is Result.CONFLICT and "比赛已结束" in decision.errors[0].message
    assert len(phone.entries) == 5


def test_a_hand_after_the_playoff_decided_is_a_conflict():
    phone = decided()
    decision = phone.hand(8, {"dealer": "B", "points": 0})
    assert decision.result is Result.CONFLICT and len(phone.entries) == 8


def test_rule_16_a_hand_after_the_end_is_a_playoff_hand():
    phone = ended_tied()
    created = phone.hand(7, EXAMPLE_PLAYOFF)
    assert created.entry.record.playoff
    assert phone.hand(7, {**EXAMPLE_PLAYOFF, "playoff": True}, id="other-phone").result is Result.SAME


def test_a_tied_playoff_hand_leaves_the_match_needing_another():
    phone = ended_tied()
    assert phone.hand(7, {"dealer": "B", "points": 80}).state.levels.a.label == "7"  # A takes the deal, +0
    assert phone.state.status is TableStatus.NEEDS_PLAYOFF and phone.state.winner is None
    assert phone.hand(8, {"dealer": "A", "points": 75}).state.status is TableStatus.DECIDED


def test_a_locked_table_refuses_hands_and_undos_but_repeats_stay_200():
    phone = decided()
    phone.confirm({"side": "A"})
    phone.confirm({"side": "B"})
    assert phone.state.log.locked
    other = phone.hand(7, {"dealer": "B", "points": 60}, id="late-phone")
    assert other.result is Result.LOCKED and other.http_status == 423
    assert phone.undo({"hand": 7}).result is Result.LOCKED
    assert phone.undo({"end": True}).result is Result.LOCKED
    assert phone.hand(7, EXAMPLE_PLAYOFF).result is Result.SAME  # the retry of what was accepted
    assert phone.undo({"hand": 8}).result is Result.LOCKED
    assert phone.end().result is Result.SAME  # already ended: nothing to change


# --- end (rule 十六) ---


def test_rule_16_playing_until_the_end_even_with_levels_apart():
    phone = Phone().hands(EXAMPLE_HANDS[:1])
    assert phone.state.status is TableStatus.OPEN and phone.state.winner is None
    decision = phone.end()
    assert decision.result is Result.CHANGED and decision.http_status == 200
    assert (decision.state.status, decision.state.winner, decision.state.log.ended) == (TableStatus.DECIDED, Side.A, True)


def test_end_on_a_match_already_over_is_the_same_state():
    phone = decided()
    assert phone.end().result is Result.SAME
    tied = ended_tied()
    assert tied.end().result is Result.SAME
    passed = Phone().hands(TO_ACE)
    same = passed.end()
    assert same.result is Result.SAME and not same.state.log.ended and same.state.status is TableStatus.PASSED_A


def test_end_without_any_hand_is_a_conflict():
    decision = Phone().end()
    assert decision.result is Result.CONFLICT and decision.entry is None


def test_rule_16_tie_break_dealer_decides_at_the_end_without_playoff():
    phone = Phone(TableSetup(1, 1, SETUP.a, SETUP.b, RuleSet(tie_break=TieBreak.DEALER))).hands(EXAMPLE_HANDS)
    state = phone.end().state
    assert (state.status, state.winner) == (TableStatus.DECIDED, Side.B)
    assert phone.hand(7, EXAMPLE_PLAYOFF).result is Result.CONFLICT


# --- undo ---


def test_undo_removes_the_last_hand_and_the_same_press_again_is_the_same_state():
    phone = Phone().hands(EXAMPLE_HANDS[:3])
    decision = phone.undo({"hand": 3}, id="undo-3", mark=3)
    assert decision.result is Result.CHANGED and len(decision.state.log.hands) == 2
    assert decision.entry.id == "undo-3"  # the page's id for the press, kept in the ledger
    again = phone.undo({"hand": 3}, id="undo-3", mark=3)  # its answer lost: sent again, as it was
    assert again.result is Result.SAME and len(again.state.log.hands) == 2  # nothing else removed
    assert phone.undo({"hand": 1}).result is Result.CONFLICT
    assert phone.hand(3, EXAMPLE_HANDS[2], id="phone-3-again").result is Result.CREATED


def test_a_new_undo_of_a_hand_already_gone_is_a_conflict_not_the_undo_of_another():
    """docs/table-api.md 重发: the hand being gone does not say the undo was done; only its id does."""
    phone = Phone().hands(EXAMPLE_HANDS[:3])
    phone.undo({"hand": 3})
    decision = phone.undo({"hand": 3})
    assert decision.result is Result.CONFLICT and decision.errors[0].field == "hand"
    assert "只能撤销最后一局（第2局）" in decision.errors[0].message and len(phone.state.log.hands) == 2


def test_an_undo_resent_after_another_phone_entered_that_hand_anew_removes_nothing():
    """Phone A undoes hand 2, its answer is lost; phone B enters a corrected hand 2 (201); A's page sends the same
    undo again: 200 with B's hand standing (the attack that removed an accepted hand)."""
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    assert phone.undo({"hand": 2}, id="a-undo-2", mark=2).result is Result.CHANGED  # the answer lost on the Wi-Fi
    corrected = {"dealer": "A", "points": 55}
    assert phone.hand(2, corrected, id="b-hand-2").result is Result.CREATED
    again = phone.undo({"hand": 2}, id="a-undo-2", mark=2)
    assert again.result is Result.SAME and again.http_status == 200 and again.entry is None
    assert phone.state.log.hands[-1].id == "b-hand-2" and phone.state.log.hands[-1].record.points == 55


def test_an_undo_never_sent_before_on_an_old_mark_is_409_with_the_state():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    seen = phone.state.mark
    phone.undo({"hand": 2})  # the other phone undid it
    phone.hand(2, {"dealer": "A", "points": 55}, id="b-hand-2")  # and entered it anew
    decision = phone.undo({"hand": 2}, id="a-undo-2", mark=seen)
    assert decision.result is Result.CONFLICT and decision.http_status == 409 and decision.entry is None
    assert decision.errors[0].field == "mark" and "刚改了本桌的记录" in decision.errors[0].message
    assert decision.as_json()["state"]["mark"] == 4 and len(phone.state.log.hands) == 2


def test_a_confirm_resent_after_the_desk_reopened_does_not_confirm_again():
    phone = decided()
    assert phone.confirm({"side": "A"}, id="a-ok", mark=8).result is Result.CHANGED  # its answer lost
    assert phone.reopen({"reason": "甲方对第3局有异议"}).result is Result.CHANGED
    again = phone.confirm({"side": "A"}, id="a-ok", mark=8)
    assert again.result is Result.SAME and phone.state.log.confirmed == frozenset()


def test_a_confirm_never_sent_on_a_state_the_desk_has_reopened_since_is_409():
    phone = decided()
    phone.confirm({"side": "A"})
    seen = phone.state.mark
    phone.reopen({"reason": "核对"})
    decision = phone.confirm({"side": "B"}, id="b-ok", mark=seen)
    assert decision.result is Result.CONFLICT and decision.errors[0].field == "mark"
    assert phone.state.log.confirmed == frozenset()


def test_an_end_resent_after_the_other_phone_undid_the_end_does_not_end_again():
    phone = Phone().hands(EXAMPLE_HANDS)
    assert phone.end(id="a-end", mark=6).result is Result.CHANGED  # its answer lost
    assert phone.undo({"end": True}).result is Result.CHANGED  # the other phone: 结束 was pressed too early
    again = phone.end(id="a-end", mark=6)
    assert again.result is Result.SAME and not phone.state.log.ended


@pytest.mark.parametrize("kind", ["hand", "end", "undo", "confirm"])
def test_an_id_used_for_another_press_is_409(kind):
    phone = decided()
    press = {"hand": lambda: phone.hand(8, EXAMPLE_PLAYOFF, id="phone-1"),
             "end": lambda: phone.end(id="phone-1"),
             "undo": lambda: phone.undo({"hand": 7}, id="phone-1"),
             "confirm": lambda: phone.confirm({"side": "A"}, id="phone-1")}[kind]()
    assert press.result is Result.CONFLICT and press.errors[0].field == "id" and press.entry is None


@pytest.mark.parametrize("missing", ["id", "mark"])
@pytest.mark.parametrize("kind", ["hand", "end", "undo", "confirm"])
def test_a_press_without_its_id_or_mark_is_422_asking_to_reload(kind, missing):
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    body = {"hand": {**EXAMPLE_HANDS[2], "hand": 3}, "end": {}, "undo": {"hand": 2}, "confirm": {"side": "A"}}[kind]
    body = {k: v for k, v in phone.made(body).items() if k != missing}
    decide = {"hand": add_hand, "end": end, "undo": undo, "confirm": confirm}[kind]
    decision = decide(SETUP, phone.entries, body, stamp=phone.stamp())
    assert decision.result is Result.INVALID and decision.http_status == 422 and decision.entry is None
    assert any(e.field == missing and "请刷新页面后再操作" in e.message for e in decision.errors)


@pytest.mark.parametrize("mark", [-1, True, "3", 2.0, 10**12])
def test_a_mark_that_is_not_a_count_is_422(mark):
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    assert phone.end(mark=mark).result is Result.INVALID


def test_undo_a_hand_not_the_last_is_a_conflict():
    phone = Phone().hands(EXAMPLE_HANDS[:3])
    decision = phone.undo({"hand": 2})
    assert decision.result is Result.CONFLICT and "只能撤销最后一局（第3局）" in decision.errors[0].message


@pytest.mark.parametrize("body", [None, {}, {"hand": "3"}, {"hand": 0}, {"hand": True}, {"end": False}, {"end": True, "hand": 3}])
def test_undo_without_a_hand_number_is_invalid(body):
    phone = Phone().hands(EXAMPLE_HANDS[:3])
    decision = phone.undo(body)
    assert decision.result is Result.INVALID and len(phone.state.log.hands) == 3


def test_undoing_the_last_regular_hand_after_the_end_reopens_the_regular_hands():
    phone = ended_tied()
    decision = phone.undo({"hand": 6})
    assert decision.result is Result.CHANGED
    assert (decision.state.log.ended, decision.state.status, len(decision.state.log.hands)) == (False, TableStatus.OPEN, 5)
    assert not phone.hand(6, EXAMPLE_HANDS[5], id="again").entry.record.playoff


def test_undoing_a_playoff_hand_keeps_the_end():
    phone = decided()
    state = phone.undo({"hand": 7}).state
    assert (state.log.ended, state.status) == (True, TableStatus.NEEDS_PLAYOFF)
    assert phone.undo({"hand": 6}).state.status is TableStatus.OPEN


def test_undo_the_end_alone():
    phone = ended_tied()
    decision = phone.undo({"end": True})
    assert decision.result is Result.CHANGED and decision.entry.action is Action.UNDO and decision.entry.hand is None
    assert (decision.state.log.ended, len(decision.state.log.hands)) == (False, 6)
    assert phone.undo({"end": True}).result is Result.SAME
    assert phone.hand(7, {"dealer": "B", "points": 20}).entry.record.playoff is False


def test_undo_the_end_with_playoff_hands_after_it_is_a_conflict():
    decision = decided().undo({"end": True})
    assert decision.result is Result.CONFLICT and decision.errors[0].hand == 7


# --- confirm, lock, reopen ---


def test_confirm_only_once_the_match_is_over():
    phone = ended_tied()
    decision = phone.confirm({"side": "A"})
    assert decision.result is Result.CONFLICT and "需加赛" in decision.errors[0].message
    assert Phone().hands(EXAMPLE_HANDS[:1]).confirm({"side": "A"}).result is Result.CONFLICT


def test_both_confirmations_lock_the_table_and_confirming_again_is_the_same():
    phone = decided()
    first = phone.confirm({"side": "A"})
    assert first.result is Result.CHANGED and first.as_json()["confirmed"] == {"A": True, "B": False}
    assert not first.state.log.locked
    assert phone.confirm({"side": "A"}).result is Result.SAME
    both = phone.confirm({"side": "乙"})
    assert both.as_json()["locked"] is True and both.as_json()["confirmed"] == {"A": True, "B": True}


def test_a_table_passing_a_can_be_confirmed_without_an_end():
    phone = Phone().hands(TO_ACE)
    assert phone.confirm({"side": "B"}).result is Result.CHANGED


@pytest.mark.parametrize("body", [None, {}, {"side": "C"}, {"side": 1}, {"side": 5, "reason": "x"}])
def test_confirm_needs_a_side(body):
    assert decided().confirm(body).result is Result.INVALID


def test_any_change_clears_both_confirmations():
    phone = decided()
    phone.confirm({"side": "A"})
    state = phone.undo({"hand": 7}).state
    assert state.log.confirmed == frozenset() and state.as_json()["confirmed"] == {"A": False, "B": False}


def test_reopen_unlocks_and_clears_confirmations_with_a_reason():
    phone = decided()
    phone.confirm({"side": "A"})
    phone.confirm({"side": "B"})
    refused = phone.reopen({"reason": "  "})
    assert refused.result is Result.NO_REASON and refused.http_status == 400
    decision = phone.reopen({"reason": "甲方第3局得分记错"})
    assert decision.result is Result.CHANGED and decision.entry.reason == "甲方第3局得分记错"
    assert (decision.state.log.locked, decision.state.log.confirmed) == (False, frozenset())
    assert phone.reopen({"reason": "再次"}).result is Result.SAME
    assert phone.undo({"hand": 7}).result is Result.CHANGED


# --- the desk: extra minutes and confirming for a team (rule 十七) ---


def test_extra_minutes_add_up_keep_confirmations_and_are_logged():
    phone = decided()
    phone.confirm({"side": "A"})
    first = phone.minutes({"add": 5, "reason": "换牌耽误"})
    assert first.result is Result.CHANGED and first.http_status == 200
    assert first.entry.action is Action.MINUTES and first.entry.add == 5
    second = phone.minutes({"add": 10, "reason": " 裁判判罚 "})
    assert second.state.log.extra_minutes == 15
    assert second.state.log.confirmed == frozenset({Side.A})  # minutes are no change of the record
    assert [(e["action"], e.get("add"), e["reason"]) for e in desk_log(phone.entries)] == [
        ("minutes", 5, "换牌耽误"), ("minutes", 10, "裁判判罚")]


@pytest.mark.parametrize("body", [{"add": 5}, {"add": 5, "reason": ""}, {"add": 5, "reason": "   "}, None,
                                  {"add": 5, "reason": "长" * 501}])
def test_extra_minutes_without_a_reason_are_400(body):
    decision = Phone().minutes(body)
    assert decision.result is Result.NO_REASON and decision.http_status == 400 and decision.entry is None


@pytest.mark.parametrize("add", [0, 121, -5, 2.5, "5", True, None])
def test_extra_minutes_other_than_1_to_120_are_422(add):
    decision = Phone().minutes({"add": add, "reason": "换牌"})
    assert decision.result is Result.INVALID and decision.http_status == 422
    assert decision.errors[0].field == "add"


def test_the_desk_confirms_for_a_team_only_with_a_reason_and_once_over():
    phone = ended_tied()
    assert phone.desk_confirm({"side": "A", "reason": "甲方拒绝签字"}).result is Result.CONFLICT  # 409 before over
    phone = decided()
    missing = phone.desk_confirm({"side": "A"})
    assert missing.result is Result.NO_REASON and missing.http_status == 400
    assert phone.desk_confirm({"side": "Q", "reason": "x"}).result is Result.INVALID
    done = phone.desk_confirm({"side": "A", "reason": "甲方拒绝签字，比赛负责人裁定"})
    assert done.result is Result.CHANGED and done.entry.reason == "甲方拒绝签字，比赛负责人裁定"
    phone.confirm({"side": "B"})  # the other team on its phone: no reason, not the desk's
    assert phone.state.log.locked
    assert [(e["action"], e.get("side")) for e in desk_log(phone.entries)] == [("confirm", "A")]
    assert desk_log(phone.entries)[0]["address"] == "192.168.1.23"


def test_reopenings_are_in_the_desk_log_with_their_reason():
    phone = decided()
    phone.confirm({"side": "A"})
    phone.reopen({"reason": "甲方第3局得分记错"})
    assert desk_log(phone.entries) == [{"time": "2026-12-01T14:05:00+08:00", "action": "reopen",
                                        "reason": "甲方第3局得分记错", "address": "192.168.1.23"}]


# --- the log as the ledger keeps it ---


def test_entries_carry_id_time_and_address_and_read_back():
    phone = decided()
    phone.confirm({"side": "A"})
    phone.reopen({"reason": "核对"})
    phone.minutes({"add": 5, "reason": "换牌"})
    phone.desk_confirm({"side": "B", "reason": "乙方离场"})
    phone.undo({"hand": 7})
    hand = phone.entries[0]
    assert (hand.id, hand.time, hand.address, hand.action) == ("phone-1", "2026-12-01T14:05:00+08:00", "192.168.1.23", Action.HAND)
    assert phone.entries[6].id.startswith("press-")  # the end: the page's id for the press
    for entry in phone.entries:
        data = json.loads(json.dumps(entry.as_json(), ensure_ascii=False))
        assert read_entry(data) == entry
    assert table_state(SETUP, [read_entry(e.as_json()) for e in phone.entries]) == phone.state


@pytest.mark.parametrize("data", [{}, {"id": "x", "action": "fly", "time": "t", "address": "a"},
                                  {"id": "x", "action": "hand", "time": "t", "address": "a", "record": {"dealer": "Q"}},
                                  {"id": "x", "action": "undo", "time": "t", "address": "a", "hand": "3"},
                                  {"id": "x", "action": "minutes", "time": "t", "address": "a", "add": "5"}])
def test_read_entry_refuses_what_is_not_an_entry(data):
    with pytest.raises(ValueError):
        read_entry(data)


def test_hand_as_json_is_an_input_hand_of_the_record():
    record = parse_record({"hands": [{"dealer": "B", "points": 60, "bottom": 20, "capture": 2, "level": "J",
                                      "offense": "defender_revoke", "playoff": True}]})[0].hands[0]
    assert hand_as_json(record) == {"dealer": "B", "points": 60, "bottom": 20, "capture": 2,
                                    "offense": "defender_revoke", "playoff": True, "level": "J"}


def test_http_status_of_each_result():
    assert {r: r.http_status for r in Result} == {
        Result.CREATED: 201, Result.CHANGED: 200, Result.SAME: 200, Result.CONFLICT: 409,
        Result.INVALID: 422, Result.LOCKED: 423, Result.NO_REASON: 400,
    }


# --- properties: any sequence of requests ---

POINTS = st.sampled_from([0, 0, 0, 20, 35, 55, 60, 75, 80, 100, 125, 150, 200])


@st.composite
def requests(draw, state):
    """One request a phone (or the desk) might make on the table as it stands, right or wrong."""
    kind = draw(st.sampled_from(["hand", "hand", "hand", "hand", "end", "undo", "undo_end", "confirm", "reopen"]))
    if kind == "hand":
        dealer = state.result.next_dealer or Side.A
        if draw(st.integers(0, 9)) == 0:
            dealer = dealer.other
        content: dict = {"dealer": dealer.value, "points": draw(POINTS)}
        if draw(st.integers(0, 9)) == 0:
            content = {"dealer": dealer.value, "offense": draw(st.sampled_from(
                ["dealer_wrong_bury", "defender_wrong_bury", "dealer_revoke", "defender_revoke"]))}
        number = draw(st.sampled_from([state.next_hand, state.next_hand, state.next_hand, max(1, state.next_hand - 1), state.next_hand + 1]))
        return ("hand", made(draw, state, {**content, "hand": number}, draw(st.sampled_from("abcde")) + str(number)))
    if kind == "undo":
        return ("undo", made(draw, state, {"hand": draw(st.integers(1, state.next_hand))}))
    if kind == "undo_end":
        return ("undo", made(draw, state, {"end": True}))
    if kind == "confirm":
        return ("confirm", made(draw, state, {"side": draw(st.sampled_from("AB"))}))
    if kind == "reopen":
        return ("reopen", {"reason": "核对"})
    return ("end", made(draw, state, {}))


def made(draw, state, body: dict, request_id: str | None = None) -> dict:
    """`body` with an id (few, so that some are used again) and mostly the current mark, sometimes an older one."""
    mark = draw(st.sampled_from([state.mark, state.mark, state.mark, max(0, state.mark - 1)]))
    return {**body, "id": request_id or draw(st.sampled_from(["p1", "p2", "p3", "p4", "p5", "p6"])), "mark": mark}


def decide(phone: Phone, request):
    kind, body = request
    if kind == "hand":
        return add_hand(phone.setup, phone.entries, body, stamp=phone.stamp())
    if kind == "end":
        return end(phone.setup, phone.entries, body, stamp=phone.stamp())
    return {"undo": undo, "confirm": confirm, "reopen": reopen}[kind](phone.setup, phone.entries, body, stamp=phone.stamp())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_sequence_of_requests_leaves_the_state_of_replaying_the_surviving_hands(data):
    phone = Phone()
    surviving: list = []  # the model: hands added and not undone, in order
    for _ in range(data.draw(st.integers(1, 30))):
        request = data.draw(requests(phone.state))
        decision = phone.apply(decide(phone, request))
        event(f"{request[0]} {decision.result.value} {decision.state.status.value} locked={decision.state.log.locked}")
        entry = decision.entry
        if entry is not None and entry.action is Action.HAND:
            surviving.append(entry.record)
        elif entry is not None and entry.action is Action.UNDO and entry.hand is not None:
            assert entry.hand == len(surviving)
            surviving.pop()
        state = phone.state
        assert state.result == replay(MatchRecord(tuple(surviving)), SETUP.rules)
        assert not state.result.errors
        assert [h["hand"] for h in state.as_json()["hands"]] == list(range(1, len(surviving) + 1))
        assert all(h.playoff for h in surviving[len(surviving) - sum(h.playoff for h in surviving):])  # 加赛 last
        assert state.log.ended or state.status in (TableStatus.OPEN, TableStatus.PASSED_A)
        assert state.log.locked == (state.log.confirmed == {Side.A, Side.B})
        assert not state.log.confirmed or state.over


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_request_repeated_changes_nothing(data):
    phone = Phone()
    for _ in range(data.draw(st.integers(1, 25))):
        request = data.draw(requests(phone.state))
        first = phone.apply(decide(phone, request))
        again = phone.apply(decide(phone, request))
        assert again.entry is None
        assert again.state == first.state
        if first.result.appended or first.result is Result.SAME:
            assert again.result is Result.SAME and again.http_status == 200
        else:
            assert again.result is first.result and again.errors == first.errors


# --- the state the hall keeps per table: as good as a new one ---


def decide_on(phone: Phone, request, stamp: Stamp, known: KnownStates | None):
    """`decide`, on the hall's kept states (`known`) or folding the entries afresh (None); the desk's reopening
    always folds afresh."""
    kind, body = request
    if kind == "reopen":
        return reopen(phone.setup, phone.entries, body, stamp=stamp)
    act = {"hand": add_hand, "end": end, "undo": undo, "confirm": confirm}[kind]
    return act(phone.setup, phone.entries, body, stamp=stamp, known=known)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_decision_on_the_kept_state_is_the_decision_on_the_entries_folded_afresh(data):
    """The hall decides each request on the table's kept state (`known`, the state its last decision left), not
    folding and replaying the entries again: every decision, its entry and its answer are those made afresh."""
    phone, known = Phone(), KnownStates()
    for _ in range(data.draw(st.integers(1, 25))):
        request = data.draw(requests(phone.state))
        stamp = phone.stamp()
        fresh, kept = decide_on(phone, request, stamp, None), decide_on(phone, request, stamp, known)
        assert (kept.result, kept.entry, kept.errors) == (fresh.result, fresh.entry, fresh.errors)
        assert kept.as_json() == fresh.as_json()
        known.keep(phone.apply(kept).state)
    assert known.state(SETUP, phone.entries) is known.state(SETUP, list(phone.entries))  # kept, not folded again




def test_a_kept_state_is_the_fold_of_exactly_the_entries_and_setup_asked_about():
    """`KnownStates` keeps each table's last state; asked about other entries or another setup of the same round and
    table (other teams after a redo, other rules after event.toml changed) it folds afresh, and a decision's state
    that was never stored (refused by the write transaction) is not taken for the stored log."""
    known = KnownStates()
    phone = Phone().hands(EXAMPLE_HANDS[:3])
    stored = list(phone.entries)
    assert known.state(SETUP, stored) is known.state(SETUP, stored)  # kept
    decided = add_hand(SETUP, stored, {**EXAMPLE_HANDS[3], "hand": 4, "id": "late", "mark": 3}, stamp=phone.stamp())
    assert decided.result is Result.CREATED and len(decided.state.log.hands) == 4
    known.keep(decided.state)
    assert known.state(SETUP, stored) == folded(SETUP, stored) and len(known.state(SETUP, stored).log.hands) == 3
    assert known.state(SETUP, stored[:2]) == folded(SETUP, stored[:2])
    other_teams = TableSetup(2, 7, Seat("11", ("甲",)), Seat("12", ("乙",)))
    assert known.state(other_teams, stored).setup == other_teams
    other_rules = TableSetup(2, 7, SETUP.a, SETUP.b, RuleSet(tie_break=TieBreak.DEALER))
    assert known.state(other_rules, stored) == folded(other_rules, stored)
    assert known.state(SETUP, stored) == folded(SETUP, stored)
    equal_not_same = [read_entry(json.loads(json.dumps(e.as_json()))) for e in stored]  # as another read gives them
    assert known.state(SETUP, equal_not_same) == folded(SETUP, stored)


def test_the_venue_display_s_reading_of_a_table_takes_the_replay_of_the_phones_last_decision():
    """The TV reads a table with a setup of its own (no players' names): folded afresh, but the standing hands are
    not replayed again when the table's last kept state replayed these very hands under these rules; other hands or
    other rules are replayed."""
    known = KnownStates()
    phone = Phone().hands(EXAMPLE_HANDS[:3])
    decided = add_hand(SETUP, phone.entries, phone.made({**EXAMPLE_HANDS[3], "hand": 4}), stamp=phone.stamp())
    known.keep(phone.apply(decided).state)
    tv = TableSetup(SETUP.round, SETUP.table, Seat(SETUP.a.team, ()), Seat(SETUP.b.team, ()))
    read = [read_entry(json.loads(json.dumps(e.as_json()))) for e in phone.entries]  # as the ledger reads them
    seen = known.state(tv, read)
    assert seen.result is decided.state.result and seen == folded(tv, read)
    assert known.state(SETUP, phone.entries) is decided.state  # the phones' state kept beside the TV's
    assert known.state(tv, read[:3]).result is not decided.state.result
    assert known.state(tv, read[:3]) == folded(tv, read[:3])
    other_rules = replace(tv, rules=RuleSet(tie_break=TieBreak.DEALER))
    assert known.state(other_rules, read).result is not decided.state.result
    assert known.state(other_rules, read) == folded(other_rules, read)


def test_known_states_forget_every_table_when_full():
    known = KnownStates(size=2)
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    tables = [TableSetup(2, n, SETUP.a, SETUP.b) for n in (1, 2, 3)]
    first = known.state(tables[0], phone.entries)
    assert known.state(tables[0], phone.entries) is first
    known.state(tables[1], phone.entries)
    known.state(tables[2], phone.entries)  # full: all forgotten, then table 3 kept
    assert known.state(tables[0], phone.entries) is not first and known.state(tables[0], phone.entries) == first


def test_a_states_json_is_a_new_dict_each_time():
    """The answer's top level gets the clock added (`answer |= {"clock": …}`): the next answer must not carry it."""
    state = Phone().hands(EXAMPLE_HANDS[:2]).state
    first = state.as_json()
    first["clock"] = {"left_s": 1}
    assert "clock" not in state.as_json() and state.as_json() == table_state(SETUP, state.entries).as_json()



def _old_step(log: Log, entry: Entry) -> Log:
    """`_step` as it was before it was rewritten field by field (with dataclasses.replace), to compare with."""
    action = entry.action
    if action is Action.CONFIRM:
        confirmed = log.confirmed | {entry.side}
        return replace(log, confirmed=confirmed, locked=len(confirmed) == 2)
    if action is Action.REOPEN:
        return replace(log, confirmed=frozenset(), locked=False)
    if action is Action.MINUTES:
        return replace(log, extra_minutes=log.extra_minutes + (entry.add or 0))
    log = replace(log, confirmed=frozenset())
    if action is Action.HAND:
        return replace(log, hands=(*log.hands, entry))
    if action is Action.END:
        return replace(log, ended=True)
    if entry.hand is None:
        return replace(log, ended=False)
    if not log.hands or log.hands[-1].hand != entry.hand:
        return log
    removed = log.hands[-1]
    ended = log.ended and removed.record is not None and removed.record.playoff
    return replace(log, hands=log.hands[:-1], ended=ended)


ANY_ENTRY = st.builds(
    lambda action, hand, record, side, add: Entry("x", action, "t", "a", hand=hand, record=record, side=side, add=add),
    st.sampled_from([a for a in Action if a not in (Action.AMEND, Action.EARLY_END, Action.PAPER_RULES)]),  # (the old step predates 改这一局, 提前结束, 以纸质为准)
    st.one_of(st.none(), st.integers(1, 4)),
    st.one_of(st.none(), st.builds(lambda playoff: Hand(Side.A, 40, playoff=playoff), st.booleans())),
    st.one_of(st.none(), st.sampled_from(list(Side))), st.one_of(st.none(), st.integers(0, 30)))


@given(st.lists(ANY_ENTRY, max_size=25))
@settings(max_examples=300, deadline=None)
def test_the_rewritten_step_folds_any_entries_as_the_replace_based_one_did(entries):
    """The rewrite of `_step` field by field: every branch (undo of the end, of a hand not the last, of a playoff
    hand after the end; confirmations by either side or none; minutes with and without `add`) folds as before."""
    old = Log()
    for e in entries:
        old = _old_step(old, e)
    assert fold(entries) == old


def test_the_venue_displays_reading_of_a_table_does_not_push_out_the_phones_remembered_state():
    """The TV reads each table with a setup without names (shuangsheng/table/sources.py) between the phones' requests:
    each reading is the fold of its own setup, whichever was read last (no test of a cache's identity)."""
    stored = Phone().hands(EXAMPLE_HANDS[:3]).entries
    phones = table_state(SETUP, stored)
    tv_setup = TableSetup(SETUP.round, SETUP.table, Seat(SETUP.a.team, ()), Seat(SETUP.b.team, ()))
    tv = table_state(tv_setup, stored)
    assert tv.setup == tv_setup and tv == folded(tv_setup, stored)
    assert table_state(SETUP, stored) == phones and table_state(tv_setup, stored) == tv


def test_the_other_phone_s_end_or_confirmation_that_changes_nothing_is_200_whatever_its_mark():
    """Two phones at a table, both showing mark m: phone A presses 结束, then phone B does (200, nothing added);
    team A confirms on one phone, team B on the other (both taken: a confirmation changes no record)."""
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    shown = phone.state.mark
    assert phone.end(id="a-end", mark=shown).result is Result.CHANGED
    second = phone.end(id="b-end", mark=shown)
    assert second.result is Result.SAME and second.http_status == 200 and second.entry is None
    phone = Phone().hands(TO_ACE)  # passed A: over
    shown = phone.state.mark
    assert phone.confirm({"side": "A"}, id="a-ok", mark=shown).result is Result.CHANGED
    assert phone.confirm({"side": "B"}, id="b-ok", mark=shown).result is Result.CHANGED  # on the other phone
    assert phone.confirm({"side": "A"}, id="a-ok-2", mark=shown).result is Result.SAME  # team A's second phone
    assert phone.state.log.locked


def test_a_hand_after_the_desk_added_minutes_is_taken_on_the_mark_before():
    """The desk's extra minutes change no record: a hand typed while they were added is not refused for them."""
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    shown = phone.state.mark
    assert phone.minutes({"add": 5, "reason": "换牌"}).result is Result.CHANGED
    assert phone.hand(3, EXAMPLE_HANDS[2], mark=shown).result is Result.CREATED


def test_a_reopened_table_says_why_until_a_team_confirms_again():
    phone = decided()
    phone.confirm({"side": "A"})
    phone.confirm({"side": "B"})
    assert phone.state.as_json()["reopened"] is None
    phone.reopen({"reason": "第3局台下罚张记错了"})
    assert phone.state.as_json()["reopened"] == {"reason": "第3局台下罚张记错了", "time": "14:05"}
    phone.confirm({"side": "A"})
    assert phone.state.as_json()["reopened"] is None
