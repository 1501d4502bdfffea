"""The rule engine clause by clause (the rule sheet, docs/event-toml.md): tables, special cases, options, and refused records."""

from __future__ import annotations

import pytest

from shuangsheng.game.hands import Hand, Offense, RecordError, parse_record
from shuangsheng.game.levels import Level, Levels, Side
from shuangsheng.game.match import Kind, Status, replay, result_as_json
from shuangsheng.game.rules import DEFAULT_RULES, DealerTable, RulesError, RuleSet
from tests.helpers import levels, run

A, B = Side.A, Side.B
L = Level.parse


# --- 十: the points table, every multiple of 5 from −40 to 320, for each dealer_table option ---

# (low, high, dealer keeps the deal, levels) written out by hand from the rule sheet (templates) and docs/event-toml.md.
TAKE_OVER = [(80 + 20 * k, 95 + 20 * k, False, k) for k in range(12)] + [(320, 320, False, 12)]
BANDS = {
    DealerTable.CEIL: [
        (-40, -25, True, 6), (-20, -5, True, 5), (0, 15, True, 4), (20, 35, True, 3),
        (40, 55, True, 2), (60, 75, True, 1), *TAKE_OVER,
    ],
    DealerTable.FLOOR: [
        (-40, -40, True, 6), (-35, -20, True, 5), (-15, 0, True, 4), (5, 20, True, 3),
        (25, 40, True, 2), (45, 60, True, 1), (65, 75, True, 0), *TAKE_OVER,
    ],
    DealerTable.PLUS_ONE: [
        (-40, -40, True, 7), (-35, -20, True, 6), (-15, 0, True, 5), (5, 20, True, 4),
        (25, 40, True, 3), (45, 60, True, 2), (65, 75, True, 1), *TAKE_OVER,
    ],
}


def _expected(table: DealerTable, points: int) -> tuple[bool, int]:
    for low, high, keeps, gain in BANDS[table]:
        if low <= points <= high:
            return keeps, gain
    raise AssertionError(points)


@pytest.mark.parametrize("table", list(DealerTable), ids=lambda t: t.value)
@pytest.mark.parametrize("points", range(-40, 325, 5))
def test_rule_10_points_table(table, points):
    rules = RuleSet(dealer_table=table)
    keeps, gain = _expected(table, points)
    if keeps:
        assert rules.dealer_gain(points) == gain
    else:
        assert rules.defender_gain(points) == gain


@pytest.mark.parametrize("table", list(DealerTable), ids=lambda t: t.value)
def test_rule_10_printed_table_covers_0_to_200_once(table):
    rows = RuleSet(dealer_table=table).points_table()
    covered = [p for r in rows for p in range(r.low, r.high + 5, 5)]
    assert covered == list(range(0, 205, 5))
    for row in rows:
        for p in range(row.low, row.high + 5, 5):
            assert _expected(table, p) == (row.dealer_keeps, row.levels)


@pytest.mark.parametrize(
    ("points", "bottom", "capture", "dealer_cards", "defender_cards", "expect"),
    [
        (0, 0, 0, 0, 4, ("9", "3")),  # P = −40 → +6 under ceil, 3 → 9
        (0, 0, 0, 0, 2, ("8", "3")),  # P = −20 → +5
        (75, 0, 0, 0, 0, ("4", "3")),
        (80, 0, 0, 0, 0, ("3", "3")),
        (70, 0, 0, 1, 0, ("3", "3")),  # dealer's failed throw pushes P to 80
        (100, 0, 0, 0, 0, ("3", "4")),
    ],
)
def test_rule_10_through_replay(points, bottom, capture, dealer_cards, defender_cards, expect):
    hand = Hand(A, points, bottom, capture, dealer_wrong_cards=dealer_cards, defender_wrong_cards=defender_cards)
    assert levels(run(("3", "3"), hand)) == expect


# --- 二: must-play levels ---


def test_rule_2_dealer_passes_its_own_must_play_level():
    result = run(("J", "3"), Hand(A, 0))
    assert levels(result) == ("A", "2")  # J + 4 stops at A, 1 deducted from B (3 → 2)


def test_rule_2_two_is_must_play_only_until_left():
    # B deals on 2 and loses the deal (A 9 → 10), A holds twice (10 → J → A); the 1 level over A is
    # deducted from B, who is already on 2.
    result = run(("9", "2"), Hand(B, 100), Hand(A, 60), Hand(A, 0))
    assert levels(result) == ("A", "2")
    # B never left 2: as defenders it cannot rise past 2, the 2 levels come off the dealer.
    assert levels(run(("5", "2"), Hand(A, 120))) == ("3", "2")
    # B started on 3 (left 2 already): defenders rise freely up to J.
    assert levels(run(("5", "3"), Hand(A, 20), Hand(A, 200))) == ("8", "9")
    # Defenders sitting on J cannot rise; the dealer loses the 2 levels instead.
    assert levels(run(("3", "J"), Hand(B, 200), Hand(A, 120))) == ("7", "J")


def test_rule_2_back_to_two_is_not_must_play_again():
    # A leaves 2 (2 → 3), is deducted back to 2, then as defenders rises past 2 freely.
    result = run(("2", "10"), Hand(A, 60), Hand(A, 200), Hand(B, 120))
    # 1: A 2 → 3 holds. 2: B takes over +6, stops at J (10 → J), 5 deducted from A (3 → 2).
    # 3: B deals J, P 120 → A +2 from 2: 2 is no longer must-play → 4.
    assert levels(result) == ("4", "J")


def test_rule_2_custom_must_play_levels():
    rules = RuleSet.from_mapping({"must_play": ["2", "5", "J", "A"]})
    assert levels(run(("3", "3"), Hand(A, 20), rules=rules)) == ("5", "2")  # +3 stops at 5, 1 deducted
    assert levels(run(("3", "3"), Hand(A, 20))) == ("6", "3")


@pytest.mark.parametrize(("hand", "shown"), [
    ({"points": 0}, 0),
    ({"points": 0, "defender_wrong_cards": 3}, -30),
    ({"points": 5, "defender_wrong_cards": 1}, -5),
    ({"points": 0, "defender_wrong_cards": 20}, -200),
])
@pytest.mark.parametrize("dealer", [A, B], ids=["甲", "乙"])
def test_rule_2_dealer_at_ace_keeping_the_deal_with_no_points_passes_a(hand, shown, dealer):
    # Issue 16: a mutant where P ≤ 0 did not pass A was caught only by a random property, in 4 of 5 runs.
    start = ("A", "K") if dealer is A else ("K", "A")
    result = run(start, Hand(dealer, **hand))
    assert result.ok and result.status is Status.PASSED_A and result.winner is dealer
    outcome = result.outcomes[0]
    assert (outcome.kind, outcome.points, outcome.passed_a, outcome.next_dealer) == (Kind.HOLD, shown, True, dealer)
    assert result.levels[dealer] is Level.ACE and result.levels[dealer.other] is Level.KING
    assert outcome.explanation.endswith(f"{dealer.team}保庄，打过 A，{dealer.team}获胜")
    clamped = run(start, Hand(dealer, **hand), rules=RuleSet(negative_points="clamp"))
    assert clamped.status is Status.PASSED_A and clamped.winner is dealer and clamped.outcomes[0].points == 0


def test_rule_2_passing_a_wins_and_ends_the_match():
    result = run(("A", "K"), Hand(A, 75))
    assert result.status is Status.PASSED_A and result.winner is A
    after = run(("A", "K"), Hand(A, 75), Hand(A, 40))
    assert after.errors and after.errors[0].hand == 2
    assert "比赛已在第1局结束" in after.errors[0].message


# --- 八, 九: penalties and the bottom ---


def test_rule_8_penalty_cards_both_sides():
    result = run(("5", "5"), Hand(A, 70, dealer_wrong_cards=1, defender_wrong_cards=3))
    assert result.outcomes[0].points == 50
    assert levels(result) == ("7", "5")


def test_rule_9_bottom_counts_only_when_captured():
    assert run(("5", "5"), Hand(A, 40, 40, 8)).outcomes[0].points == 360
    assert run(("5", "5"), Hand(A, 40, 40, 0)).outcomes[0].points == 40


@pytest.mark.parametrize("capture", [2, 4, 8, 16, 32, 64])
def test_rule_9_capture_multipliers_are_powers_of_two(capture):
    result = run(("5", "5"), Hand(A, 0, 5, capture))
    assert result.outcomes[0].points == 5 * capture


# --- 十一: deduction both ways, floor at 2; negative points option ---


def test_rule_11_deduction_floors_at_2():
    result = run(("3", "10"), Hand(A, 200))
    assert levels(result) == ("2", "J")
    assert result.outcomes[0].deduction.end is Level.TWO
    assert "扣到2为止" in result.outcomes[0].explanation


def test_rule_11_vice_versa_dealer_excess_from_defenders():
    result = run(("10", "6"), Hand(A, 30))
    assert levels(result) == ("J", "4")


def test_negative_points_clamp_option():
    hand = Hand(A, 0, defender_wrong_cards=3)
    assert levels(run(("3", "3"), hand)) == ("9", "3")  # P −30 → ceil(110/20) = 6
    clamp = RuleSet(negative_points="clamp")
    assert levels(run(("3", "3"), hand, rules=clamp)) == ("7", "3")  # P 0 → 4
    assert "按 0 计" in run(("3", "3"), hand, rules=clamp).outcomes[0].explanation


# --- 十二: J/A captured by J/A, 落实政策 ---


def test_rule_12_ace_captured_with_ace_drops_to_jack():
    result = run(("A", "5"), Hand(A, 150, 30, 2, level_card_capture=True))
    assert levels(result) == ("J", "5") and result.next_dealer is A
    assert result.outcomes[0].kind is Kind.LEVEL_CARD_CAPTURE


def test_rule_12_policy_returns_to_ace():
    result = run(("A", "5"), Hand(A, 10, 5, 2, level_card_capture=True), Hand(A, 35))
    assert levels(result) == ("A", "5")
    assert result.outcomes[1].kind is Kind.POLICY


def test_rule_12_policy_not_met_scores_normally_from_two():
    result = run(("J", "5"), Hand(A, 10, 5, 2, level_card_capture=True), Hand(A, 40))
    assert levels(result) == ("4", "5")  # from 2, +2; 2 is not must-play here
    assert result.outcomes[1].kind is Kind.HOLD


def test_rule_12_policy_only_in_the_very_next_hand():
    result = run(("J", "5"), Hand(A, 10, 5, 2, level_card_capture=True), Hand(A, 60), Hand(A, 20))
    assert levels(result) == ("6", "5")  # 2 → 3, then 3 → 6 normally


@pytest.mark.parametrize("played", [lv.label for lv in Level if lv not in (Level.JACK, Level.ACE)])
@pytest.mark.parametrize("dealer", [A, B], ids=["甲", "乙"])
def test_rule_12_level_card_capture_needs_jack_or_ace(played, dealer):
    # Issue 16: a mutant accepting 级牌抠底 at Q (the level between J and A) survived the whole suite.
    start = (played, "5") if dealer is A else ("5", played)
    result = run(start, Hand(dealer, 10, 5, 2, level_card_capture=True))
    assert not result.ok and result.outcomes == () and result.status is None
    assert [(e.hand, e.field) for e in result.errors] == [(1, "level_card_capture")]
    assert result.errors[0].message == (
        f"第1局级牌抠底：级牌抠底只在庄家打 J 或 A 时适用，{dealer.team}此局打{played}")


@pytest.mark.parametrize("played", ["J", "A"])
def test_rule_12_level_card_capture_is_accepted_at_jack_and_ace(played):
    result = run((played, "5"), Hand(A, 10, 5, 2, level_card_capture=True))
    assert result.ok and result.outcomes[0].kind is Kind.LEVEL_CARD_CAPTURE


def test_rule_12_level_card_capture_needs_a_capture():
    result = run(("J", "5"), Hand(A, 10, 5, 0, level_card_capture=True))
    assert result.errors[0].field == "level_card_capture"


# --- 十三, 十四: offences by either side ---


def test_rule_13_defenders_bury_wrongly_dealer_plus_5_keeps_deal():
    result = run(("3", "9"), Hand(A, 150, offense=Offense.DEFENDER_WRONG_BURY))
    assert levels(result) == ("8", "9") and result.next_dealer is A


def test_rule_13_defenders_bury_wrongly_against_ace_dealer_wins():
    result = run(("A", "9"), Hand(A, 150, offense=Offense.DEFENDER_WRONG_BURY))
    assert result.status is Status.PASSED_A and result.winner is A


def test_rule_13_dealer_at_ace_buries_wrongly():
    result = run(("A", "4"), Hand(A, 0, offense=Offense.DEALER_WRONG_BURY))
    assert levels(result) == ("J", "9") and result.next_dealer is B


def test_rule_14_dealer_revokes_not_on_j_or_a():
    result = run(("6", "4"), Hand(A, 0, offense=Offense.DEALER_REVOKE))
    assert levels(result) == ("6", "9") and result.next_dealer is B


def test_rule_14_dealer_at_jack_revokes_opponents_gain_nothing():
    result = run(("J", "4"), Hand(A, 0, offense=Offense.DEALER_REVOKE))
    assert levels(result) == ("2", "4")


def test_penalty_excess_option():
    hand = Hand(A, 0, offense=Offense.DEALER_WRONG_BURY)
    assert levels(run(("8", "8"), hand)) == ("8", "J")
    assert levels(run(("8", "8"), hand, rules=RuleSet(penalty_excess="deduct"))) == ("6", "J")


# --- 十六: time up, ties, playoff hands, tie_break option ---


def test_rule_16_tie_needs_playoff():
    result = run(("5", "5"), Hand(A, 80))
    assert result.status is Status.NEEDS_PLAYOFF and result.winner is None


def test_rule_16_playoff_hands_until_levels_differ():
    result = run(("5", "5"), Hand(A, 80), Hand(B, 80, playoff=True), Hand(A, 100, playoff=True))
    assert result.status is Status.DECIDED and result.winner is B
    assert result.time_up == Levels(Level.FIVE, Level.FIVE)


def test_rule_16_playoff_hand_when_not_tied_is_an_error():
    result = run(("5", "5"), Hand(A, 60), Hand(A, 60, playoff=True))
    assert (result.errors[0].hand, result.errors[0].field) == (2, "playoff")
    assert "不需要加赛" in result.errors[0].message


def test_rule_16_hand_after_playoff_decided_is_an_error():
    result = run(("5", "5"), Hand(A, 80), Hand(B, 60, playoff=True), Hand(B, 60, playoff=True))
    assert result.errors[0].hand == 3 and "加赛已在第2局决出胜负" in result.errors[0].message


def test_rule_16_regular_hand_after_playoff_is_an_error():
    result = run(("5", "5"), Hand(A, 80), Hand(B, 80, playoff=True), Hand(A, 60))
    assert result.errors[0].hand == 3


def test_tie_break_dealer_option():
    rules = RuleSet(tie_break="dealer")
    result = run(("5", "5"), Hand(A, 80), rules=rules)
    assert result.status is Status.DECIDED and result.winner is A and result.decided_by_dealer
    refused = run(("5", "5"), Hand(A, 80), Hand(B, 60, playoff=True), rules=rules)
    assert refused.errors[0].hand == 2


# --- who deals, cross-checks, impossible values ---


def test_dealer_contradicting_previous_hand_names_both_hands():
    result = run(("5", "5"), Hand(A, 60), Hand(B, 60))
    error = result.errors[0]
    assert (error.hand, error.field) == (2, "dealer")
    assert "第1局后甲方保庄" in error.message and "第2局" in error.message


def test_level_cross_check():
    result = run(("5", "5"), Hand(A, 60), Hand(A, 60, level=L("7")))
    assert (result.errors[0].hand, result.errors[0].field) == (2, "level")
    assert "应打6" in result.errors[0].message
    assert not run(("5", "5"), Hand(A, 60), Hand(A, 60, level=L("6"))).errors


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (Hand(A, 83), "points"),
        (Hand(A, 205), "points"),
        (Hand(A, -5), "points"),
        (Hand(A, 150, 55, 2), "bottom"),
        (Hand(A, 50, 7, 2), "bottom"),
        (Hand(A, 50, 10, 3), "capture"),
        (Hand(A, 50, 10, 1), "capture"),
        (Hand(A, 50, dealer_wrong_cards=-1), "dealer_wrong_cards"),
    ],
)
def test_impossible_values_name_hand_and_field(hand, field):
    result = run(("5", "5"), Hand(A, 60), hand.__class__(**{**hand.__dict__, "dealer": A}))
    assert [(e.hand, e.field) for e in result.errors] == [(2, field)]
    assert result.errors[0].message.startswith("第2局")


def test_all_value_errors_are_listed_at_once():
    result = run(("5", "5"), Hand(A, 83), Hand(A, 60), Hand(A, 60, 10, 3))
    assert [(e.hand, e.field) for e in result.errors] == [(1, "points"), (3, "capture")]


def test_json_record_errors_are_all_listed():
    record = {
        "rules": {"dealer_table": "round"},
        "start": {"A": "1"},
        "hands": [{"dealer": "C", "points": "35"}, {"dealer": "A", "pionts": 5}],
    }
    with pytest.raises(RecordError) as info:
        parse_record(record)
    fields = [(e.hand, e.field) for e in info.value.errors]
    assert (None, "rules.dealer_table") in fields
    assert (None, "start.A") in fields
    assert (1, "dealer") in fields and (1, "points") in fields
    assert (2, "pionts") in fields


def test_rules_from_mapping_rejects_unknown_keys_and_values():
    with pytest.raises(RulesError) as info:
        RuleSet.from_mapping({"dealer_tabel": "ceil", "must_play": ["2", "Z"], "match_minutes": 0})
    keys = [k for k, _ in info.value.problems]
    assert keys == ["dealer_tabel", "must_play", "match_minutes"]


def test_record_start_and_rules_are_used():
    record, rules = parse_record(
        {"rules": {"dealer_table": "floor"}, "start": {"A": "9", "B": "4"}, "hands": [{"dealer": "A", "points": 70}]}
    )
    assert levels(replay(record, rules)) == ("9", "4")  # floor: 70 → 0 levels
    assert levels(replay(record)) == ("10", "4")


def test_explanation_matches_the_spec_example_shape():
    result = run(("10", "7"), *[Hand(A, 40)])
    assert result.outcomes[0].explanation == (
        "第1局：甲方坐庄打10，台下得分 40，不够80分 → 甲方保庄，庄家升2级，因 J 必打止于 J（10→J），余1级从乙方扣除（7→6）"
    )


# === Edge cases the clause tables above do not reach, and wording a review found wrong ===


def run_json(record: dict) -> dict:
    parsed, rules = parse_record(record)
    return result_as_json(replay(parsed, rules or DEFAULT_RULES))


# --- wording and validation that a review of the engine against the rules and docs found wrong, since fixed ---


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


# --- Edge cases that are right (plain tests) ---


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
        # Offences (cases 1–4) come before case 5, which holds 落实政策: 2 + 5 = 7, not back to J.
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


def test_a_replay_one_hand_at_a_time_gives_after_each_hand_what_replaying_those_hands_gives():
    """match.Replay as the simulator uses it (its result asked after every hand, then played on) against a replay
    of those hands afresh: plausible records, and records with a wrong dealer and an impossible value."""
    import random
    from dataclasses import replace

    from shuangsheng.game.match import Replay
    from shuangsheng.game.simulate import simulate_match

    rng = random.Random(3)
    records = [simulate_match(rng)[0] for _ in range(20)]
    for record in records[:6]:
        hands = list(record.hands)
        hands[2] = replace(hands[2], dealer=hands[2].dealer.other)  # a sequence error
        hands[4] = replace(hands[4], points=83)  # a value error, after it
        records.append(replace(record, hands=tuple(hands)))
        records.append(replace(record, hands=(*record.hands[:3], replace(record.hands[3], points=83))))
    for record in records:
        walk = Replay(record.start)
        for n, hand in enumerate(record.hands, start=1):
            walk.add(hand)
            assert walk.result() == replay(replace(record, hands=record.hands[:n])), n
        assert walk.record == record
    assert any(replay(r).errors for r in records) and any(not replay(r).errors for r in records)
