"""Properties of the engine over random valid records (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.game.hands import Hand, MatchRecord, Offense
from shuangsheng.game.levels import Level, Levels, Side
from shuangsheng.game.match import Kind, Status, replay
from shuangsheng.game.rules import DealerTable, NegativePoints, PenaltyExcess, RuleSet

levels_st = st.sampled_from(list(Level))
rules_st = st.builds(
    RuleSet,
    dealer_table=st.sampled_from(list(DealerTable)),
    penalty_excess=st.sampled_from(list(PenaltyExcess)),
    negative_points=st.sampled_from(list(NegativePoints)),
    must_play=st.sampled_from(
        [(Level.TWO, Level.JACK, Level.ACE), (Level.JACK, Level.ACE), (Level.TWO, Level.FIVE, Level.JACK, Level.ACE)]
    ),
)


@st.composite
def hand_specs(draw):
    """A hand without its dealer (filled in from the replay so the record is valid)."""
    points = draw(st.integers(0, 40)) * 5
    bottom = draw(st.integers(0, (200 - points) // 5)) * 5
    capture = draw(st.sampled_from([0, 0, 0, 2, 4, 8, 16]))
    return Hand(
        dealer=Side.A,
        points=points,
        bottom=bottom,
        capture=capture,
        level_card_capture=capture > 0 and draw(st.booleans()),
        dealer_wrong_cards=draw(st.sampled_from([0, 0, 0, 1, 2])),
        defender_wrong_cards=draw(st.sampled_from([0, 0, 0, 1, 3])),
        offense=draw(st.sampled_from([None] * 12 + list(Offense))),
    )


@st.composite
def valid_records(draw):
    """A record whose every hand is dealt by the right side; stops when the match is won by passing A."""
    start = Levels(draw(levels_st), draw(levels_st))
    rules = draw(rules_st)
    specs = draw(st.lists(hand_specs(), min_size=1, max_size=30))
    dealer = draw(st.sampled_from(list(Side)))
    hands: list[Hand] = []
    for spec in specs:
        result = replay(MatchRecord(tuple(hands), start), rules)
        if result.status is Status.PASSED_A:
            break
        if hands:
            dealer = result.next_dealer
        level = result.levels[dealer]
        spec = replace(spec, dealer=dealer)
        if spec.level_card_capture and level not in (Level.JACK, Level.ACE):
            spec = replace(spec, level_card_capture=False)
        hands.append(spec)
    return MatchRecord(tuple(hands), start), rules


@settings(max_examples=150, deadline=None)
@given(valid_records())
def test_valid_records_replay_without_errors_and_levels_stay_in_range(case):
    record, rules = case
    result = replay(record, rules)
    assert result.ok, result.errors
    for o in result.outcomes:
        for side in Side:
            assert Level.TWO <= o.after[side] <= Level.ACE
            assert isinstance(o.after[side], Level)


@settings(max_examples=150, deadline=None)
@given(valid_records(), st.data())
def test_replaying_the_first_hands_gives_the_same_outcomes_as_the_whole_record(case, data):
    """Each hand's outcome depends only on the hands before it: a later hand never changes an earlier result."""
    record, rules = case
    whole = replay(record, rules)
    k = data.draw(st.integers(0, len(record.hands)))
    part = replay(replace(record, hands=record.hands[:k]), rules)
    assert part.outcomes == whole.outcomes[:k]
    assert part.levels == (whole.outcomes[k - 1].after if k else record.start)


@settings(max_examples=200, deadline=None)
@given(valid_records())
def test_must_play_levels_are_never_skipped(case):
    """A side passes a must-play level m only by winning a hand as dealer while playing m.

    落实政策 (rule 十二) restores the J/A a side already reached; it is not a rise and is left out.
    """
    record, rules = case
    result = replay(record, rules)
    left_two = {side: record.start[side] is not Level.TWO for side in Side}
    for o in result.outcomes:
        for side in Side:
            before, after = o.before[side], o.after[side]
            if after > before and o.kind is not Kind.POLICY:
                won_as_dealer = side is o.dealer and o.next_dealer is o.dealer
                for m in rules.must_play:
                    if m is Level.TWO and left_two[side]:
                        continue
                    if before <= m < after:
                        assert won_as_dealer and m == before == o.dealer_level, (o.explanation, m)
            if after is not Level.TWO:
                left_two[side] = True


@settings(max_examples=200, deadline=None)
@given(valid_records())
def test_levels_change_only_for_the_reasons_given(case):
    record, rules = case
    result = replay(record, rules)
    for o in result.outcomes:
        expected = o.before
        for move in (o.drop, o.rise, o.deduction):  # in the order they happen; each starts where the last ended
            if move is not None:
                assert expected[move.side] == move.start, o.explanation
                expected = expected.with_level(move.side, move.end)
        assert o.after == expected, o.explanation
        for move in (o.drop, o.rise, o.deduction):
            if move is not None and move.start != move.end:
                assert f"{move.start}→{move.end}" in o.explanation, o.explanation


def _dealer_margin(points: int, dealer_level: Level, other_level: Level, rules: RuleSet) -> tuple[int, int]:
    record = MatchRecord((Hand(Side.A, points),), Levels(dealer_level, other_level))
    o = replay(record, rules).outcomes[0]
    if o.passed_a:
        return (2, 99)
    return (int(o.next_dealer is Side.A), o.after.a - o.after.b)


@settings(max_examples=300, deadline=None)
@given(levels_st, levels_st, st.integers(0, 39).map(lambda k: k * 5), rules_st)
def test_five_more_points_never_help_the_dealer(dealer_level, other_level, points, rules):
    assert _dealer_margin(points + 5, dealer_level, other_level, rules) <= _dealer_margin(
        points, dealer_level, other_level, rules
    )


@settings(max_examples=300, deadline=None)
@given(levels_st, levels_st, st.integers(0, 39).map(lambda k: k * 5), rules_st)
def test_five_points_move_each_side_at_most_one_level(dealer_level, other_level, points, rules):
    def after(p: int) -> Levels | None:
        o = replay(MatchRecord((Hand(Side.A, p),), Levels(dealer_level, other_level)), rules).outcomes[0]
        return None if o.passed_a else o.after

    low, high = after(points), after(points + 5)
    if low is None or high is None:
        return
    for side in Side:
        assert abs(low[side] - high[side]) <= 1
