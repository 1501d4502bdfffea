"""Review of the rule engine against SPEC §4–§6 and the seed rules.

The first group pins what review found wrong (validation and wording) and was then fixed; the rest pin edge cases
that were right but not covered elsewhere.
"""

from __future__ import annotations

import pytest

from scoring.hands import Hand, Offense, RecordError, parse_record
from scoring.levels import Level, Levels, Side
from scoring.match import Kind, Status, replay, result_as_json
from scoring.rules import DEFAULT_RULES, RuleSet
from tests.helpers import levels, run

A, B = Side.A, Side.B
L = Level.parse


def run_json(record: dict) -> dict:
    parsed, rules = parse_record(record)
    return result_as_json(replay(parsed, rules or DEFAULT_RULES))


# ----------------------------------------------------------------------------------------------------------
# Findings of the review, fixed
# ----------------------------------------------------------------------------------------------------------


def test_level_crosscheck_error_names_both_hands():
    result = run(("5", "5"), Hand(A, 60), Hand(A, 60, level=L("5")))
    error = result.errors[0]
    assert (error.hand, error.field) == (2, "level")
    assert "第2局" in error.message and "第1局" in error.message


def test_regular_hand_after_decided_playoff_says_the_match_is_decided():
    result = run(("5", "5"), Hand(A, 80), Hand(B, 60, playoff=True), Hand(B, 60))
    message = result.errors[0].message
    assert result.errors[0].hand == 3
    assert "已在第2局决出胜负" in message
    assert "也应标为加赛" not in message


def test_any_hand_after_decided_playoff_says_the_match_is_decided():
    result = run(("5", "5"), Hand(A, 80), Hand(B, 60, playoff=True), Hand(A, 60, playoff=True))
    assert result.errors[0].hand == 3
    assert "已在第2局决出胜负" in result.errors[0].message


def test_empty_hand_list_is_refused():
    try:
        out = run_json({"hands": []})
    except RecordError as exc:
        assert exc.errors and exc.errors[0].field == "hands"
        return
    assert "errors" in out, out


def test_defender_revoke_reported_points_are_void():
    result = run(("7", "10"), Hand(A, 100, offense=Offense.DEFENDER_REVOKE))
    assert levels(result) == ("J", "10")
    assert result.outcomes[0].points == 0


def test_penalty_card_bound_is_stated():
    with pytest.raises(RecordError) as info:
        parse_record({"hands": [{"dealer": "A", "points": 40, "dealer_wrong_cards": 51}]})
    message = info.value.errors[0].message
    assert "50" in message


def test_deduction_from_a_side_already_on_two_is_worded_as_nothing_deducted():
    result = run(("J", "2"), Hand(A, 0))
    assert levels(result) == ("A", "2")
    text = result.outcomes[0].explanation
    assert "2→2" not in text
    assert "已" in text and "2" in text


# ----------------------------------------------------------------------------------------------------------
# Edge cases that are right (plain tests)
# ----------------------------------------------------------------------------------------------------------


def test_first_hand_is_a_playoff_hand_when_start_is_tied():
    result = run(("9", "9"), Hand(B, 40, playoff=True))
    assert result.status is Status.DECIDED and result.winner is B
    assert result.time_up == Levels(Level.NINE, Level.NINE)
    assert result.outcomes[0].explanation.startswith("第1局（加赛）：乙方坐庄打9")


def test_first_hand_is_a_playoff_hand_when_start_differs_is_an_error():
    result = run(("9", "8"), Hand(B, 40, playoff=True))
    assert (result.errors[0].hand, result.errors[0].field) == (1, "playoff")


def test_playoff_hand_passing_a():
    result = run(("A", "A"), Hand(A, 60, playoff=True))
    assert result.status is Status.PASSED_A and result.winner is A
    assert "打过 A，甲方获胜" in result.outcomes[0].explanation


def test_playoff_hand_passing_a_through_defenders_offence():
    # Regular hands first: 1: B takes over (K, K); 2: B holds +4 → A, 3 deducted from A (K → 10);
    # 3: B on A holds → passes A.
    result = run(("K", "K"), Hand(A, 80), Hand(B, 0), Hand(B, 60))
    assert levels(result) == ("10", "A")
    assert result.status is Status.PASSED_A and result.winner is B
    tied = run(("A", "A"), Hand(A, 0, offense=Offense.DEFENDER_REVOKE, playoff=True))
    assert tied.status is Status.PASSED_A and tied.winner is A
    assert "台下出错牌" in tied.outcomes[0].explanation and "打过 A" in tied.outcomes[0].explanation


def test_hand_after_a_playoff_hand_that_passed_a_is_an_error():
    result = run(("A", "A"), Hand(A, 60, playoff=True), Hand(A, 60, playoff=True))
    assert result.errors[0].hand == 2 and "比赛已在第1局结束" in result.errors[0].message


def test_level_card_capture_in_a_playoff_hand_decides_for_the_other_side():
    result = run(("J", "J"), Hand(A, 60, 20, 2, level_card_capture=True, playoff=True))
    assert levels(result) == ("2", "J")
    assert result.status is Status.DECIDED and result.winner is B and result.next_dealer is A


def test_policy_can_be_met_in_a_playoff_hand():
    result = run(("J", "2"), Hand(A, 60, 20, 2, level_card_capture=True), Hand(A, 35, playoff=True))
    assert result.time_up == Levels(Level.TWO, Level.TWO)
    assert result.outcomes[1].kind is Kind.POLICY
    assert levels(result) == ("J", "2") and result.winner is A


@pytest.mark.parametrize(
    ("offense", "expect"),
    [
        # SPEC §4: offences (cases 1–4) come before case 5, which holds 落实政策: 2 + 5 = 7, not back to J.
        (Offense.DEFENDER_REVOKE, ("7", "9")),
        (Offense.DEFENDER_WRONG_BURY, ("7", "9")),
        # A now plays 2 (not J/A): loses the deal, B 9 + 5 stops at J.
        (Offense.DEALER_REVOKE, ("2", "J")),
        (Offense.DEALER_WRONG_BURY, ("2", "J")),
    ],
)
def test_policy_pending_but_next_hand_is_an_offence(offense, expect):
    result = run(("J", "9"), Hand(A, 60, 20, 2, level_card_capture=True), Hand(A, 0, offense=offense))
    assert levels(result) == expect
    assert result.outcomes[1].kind is Kind(offense.value)


def test_policy_from_ace_returns_to_ace_without_rule_11_deduction():
    result = run(("A", "5"), Hand(A, 100, 10, 2, level_card_capture=True), Hand(A, 0))
    assert levels(result) == ("A", "5")
    assert result.outcomes[1].kind is Kind.POLICY and result.outcomes[1].deduction is None
    assert result.outcomes[1].explanation == (
        "第2局：甲方坐庄打J，台下得分 0，不满40分 → 落实政策（第十二条），甲方保庄，回到 A（J→A）"
    )


def test_policy_not_met_at_exactly_40():
    result = run(("J", "5"), Hand(A, 10, 5, 2, level_card_capture=True), Hand(A, 40))
    assert result.outcomes[1].kind is Kind.HOLD


def test_policy_counts_the_penalties_in_p():
    result = run(("J", "5"), Hand(A, 10, 5, 2, level_card_capture=True), Hand(A, 30, dealer_wrong_cards=1))
    assert result.outcomes[1].points == 40 and result.outcomes[1].kind is Kind.HOLD


def test_level_card_capture_explanation():
    result = run(("J", "9"), Hand(A, 60, 20, 2, level_card_capture=True))
    assert result.outcomes[0].explanation == (
        "第1局：甲方坐庄打J，台下用 J 抠底（第十二条）→ 不论得分，甲方保庄，从 2 重新打起（J→2），此时 2 非必打；"
        "下一局台下得分不满40分可回到 J"
    )


def test_dropped_to_two_by_level_card_capture_rises_past_two_as_defenders():
    # 1: A J → 2 (十二, 此时2非必打). 2: A on 2 loses the deal, B 9 → 10. 3: B on 10 loses, A +3 from 2 → 5.
    result = run(("J", "9"), Hand(A, 60, 20, 2, level_card_capture=True), Hand(A, 100), Hand(B, 140))
    assert levels(result) == ("5", "10")


def test_dealer_on_king_keeping_the_deal_with_a_big_gain():
    result = run(("K", "5"), Hand(A, 0))
    assert levels(result) == ("A", "2") and result.status is Status.DECIDED and result.winner is A
    o = result.outcomes[0]
    assert (o.rise.excess, o.deduction.start, o.deduction.end) == (3, Level.FIVE, Level.TWO)
    assert o.explanation == (
        "第1局：甲方坐庄打K，台下得分 0，不够80分 → 甲方保庄，庄家升4级，因 A 必打止于 A（K→A），余3级从乙方扣除（5→2）"
    )


def test_defenders_on_ace_cannot_pass_a_by_points():
    result = run(("9", "A"), Hand(A, 140))
    assert levels(result) == ("6", "A") and result.status is Status.DECIDED


def test_dealer_on_ace_holding_with_zero_gain_under_floor_passes_a():
    rules = RuleSet(dealer_table="floor")
    result = run(("A", "5"), Hand(A, 70), rules=rules)
    assert result.status is Status.PASSED_A


def test_dealer_on_jack_gets_defenders_offence_stops_at_a():
    result = run(("J", "5"), Hand(A, 0, offense=Offense.DEFENDER_WRONG_BURY))
    assert levels(result) == ("A", "5") and result.status is Status.DECIDED  # J + 5 stops at A, no pass


def test_penalty_excess_deduct_for_the_defenders_offence():
    hand = Hand(A, 0, offense=Offense.DEFENDER_REVOKE)
    assert levels(run(("8", "5"), hand)) == ("J", "5")
    assert levels(run(("8", "5"), hand, rules=RuleSet(penalty_excess="deduct"))) == ("J", "3")
    assert levels(run(("8", "3"), hand, rules=RuleSet(penalty_excess="deduct"))) == ("J", "2")


def test_penalty_excess_deduct_after_the_jack_drop():
    # A on J buries wrongly: J → 2; B 8 + 5 stops at J; with deduct the 2 over come off A, already on 2.
    result = run(("J", "8"), Hand(A, 0, offense=Offense.DEALER_WRONG_BURY), rules=RuleSet(penalty_excess="deduct"))
    assert levels(result) == ("2", "J")


def test_penalty_gain_stops_at_two_for_a_team_that_never_left_it():
    result = run(("6", "2"), Hand(A, 0, offense=Offense.DEALER_WRONG_BURY))
    assert levels(result) == ("6", "2")
    assert "因 2 必打停在 2" in result.outcomes[0].explanation


def test_dealer_revoke_on_ace_gives_nothing_even_when_deduct():
    result = run(("A", "4"), Hand(A, 0, offense=Offense.DEALER_REVOKE), rules=RuleSet(penalty_excess="deduct"))
    assert levels(result) == ("J", "4") and result.next_dealer is B
    assert result.outcomes[0].explanation == "第1局：甲方坐庄打A，台上出错牌（第十四条）→ 甲方下台并降级（A→J）；乙方不升级"


def test_must_play_without_two():
    rules = RuleSet.from_mapping({"must_play": ["J", "A"]})
    assert rules.must_play == (Level.JACK, Level.ACE)
    result = run(("4", "2"), Hand(A, 120), rules=rules)
    assert levels(result) == ("4", "4")  # 2 is not must-play at all: B rises 2 → 4, nothing deducted
    assert result.status is Status.NEEDS_PLAYOFF


def test_must_play_without_ace_still_has_ace():
    rules = RuleSet.from_mapping({"must_play": ["2", "J"]})
    assert Level.ACE in rules.must_play
    assert run(("Q", "5"), Hand(A, 0), rules=rules).levels.a is Level.ACE


def test_must_play_extra_level_stops_defenders_and_deducts():
    rules = RuleSet.from_mapping({"must_play": ["2", "5", "J", "A"]})
    result = run(("4", "5"), Hand(A, 120), rules=rules)
    assert levels(result) == ("2", "5")
    assert result.outcomes[0].explanation.endswith("乙方应升2级，因 5 必打停在 5，余2级从甲方扣除（4→2）")


def test_must_play_extra_level_dealer_passes_it_and_stops_at_the_next():
    rules = RuleSet.from_mapping({"must_play": ["2", "5", "J", "A"]})
    assert levels(run(("5", "3"), Hand(A, 0), rules=rules)) == ("9", "3")
    assert levels(run(("8", "3"), Hand(A, 0), rules=rules)) == ("J", "2")


@pytest.mark.parametrize(
    ("table", "points", "expect"),
    [
        ("ceil", 75, "4"), ("ceil", 60, "4"), ("ceil", 55, "5"), ("ceil", 0, "7"),
        ("floor", 75, "3"), ("floor", 60, "4"), ("floor", 55, "4"), ("floor", 0, "7"),
        ("plus_one", 75, "4"), ("plus_one", 60, "5"), ("plus_one", 55, "5"), ("plus_one", 0, "8"),
    ],
)
def test_dealer_table_options_through_the_json_record(table, points, expect):
    out = run_json({"rules": {"dealer_table": table}, "start": {"A": "3", "B": "3"}, "hands": [{"dealer": "A", "points": points}]})
    assert out["levels"]["A"] == expect and out["next_dealer"] == "A"


def test_dealer_table_floor_zero_gain_says_no_rise():
    result = run(("5", "5"), Hand(A, 70), rules=RuleSet(dealer_table="floor"))
    assert levels(result) == ("5", "5") and result.outcomes[0].explanation.endswith("甲方保庄，庄家不升级")


def test_negative_points_allow_and_clamp_wording():
    result = run(("5", "5"), Hand(A, 0, defender_wrong_cards=3))
    assert result.outcomes[0].points == -30
    assert "台下得分 0 − 台下罚 3 张 30 = -30" in result.outcomes[0].explanation


def test_tie_break_dealer_gives_the_tie_to_the_last_dealer_even_if_it_lost_the_deal():
    result = run(("5", "5"), Hand(A, 80), rules=RuleSet(tie_break="dealer"))
    assert result.winner is A and result.decided_by_dealer and result.next_dealer is B


def test_tie_break_dealer_refuses_a_first_playoff_hand():
    result = run(("5", "5"), Hand(A, 60, playoff=True), rules=RuleSet(tie_break="dealer"))
    assert (result.errors[0].hand, result.errors[0].field) == (1, "playoff")


def test_playoff_hands_that_stay_tied_still_need_a_playoff():
    result = run(("5", "5"), Hand(A, 80), Hand(B, 80, playoff=True))
    assert result.status is Status.NEEDS_PLAYOFF and result.time_up == Levels(Level.FIVE, Level.FIVE)


def test_dealer_error_after_a_take_over_names_both_hands():
    result = run(("5", "5"), Hand(A, 100), Hand(A, 60))
    error = result.errors[0]
    assert (error.hand, error.field) == (2, "dealer")
    assert error.message == "第2局庄家：应为乙方坐庄（第1局后乙方上台），记录为甲方"


def test_level_crosscheck_on_the_first_hand_is_against_the_start():
    result = run(("5", "5"), Hand(A, 60, level=L("2")))
    assert (result.errors[0].hand, result.errors[0].field) == (1, "level")
    assert not run(("5", "5"), Hand(A, 60, level=L("5"))).errors


def test_level_crosscheck_after_a_drop():
    assert not run(("J", "5"), Hand(A, 60, 20, 2, level_card_capture=True), Hand(A, 60, level=L("2"))).errors


@pytest.mark.parametrize(
    "hand",
    [
        {"dealer": "A", "points": 35.0},
        {"dealer": "A", "points": True},
        {"dealer": "A", "capture": "×2"},
        {"dealer": "A", "level_card_capture": "是"},
        {"dealer": "A", "offense": "台上扣错底"},
        {"dealer": "A", "level": "1"},
        {"dealer": "A", "points": 50, "bottom": 160, "capture": 2},
        {"dealer": "A", "defender_wrong_cards": -1},
        {"points": 40},
    ],
)
def test_impossible_json_values_are_refused(hand):
    with pytest.raises(RecordError) as info:
        parse_record({"hands": [hand]})
    assert info.value.errors[0].hand == 1 and info.value.errors[0].message.startswith("第1局")
