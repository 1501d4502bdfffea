"""The knockout (issues 3 and 9): draws by lot and from paper lots, byes, advancement, placings."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.knockout.advance import RoundNotDecided, advance, next_round
from shuangsheng.knockout.draw import draw_from_lots, draw_round
from shuangsheng.knockout.knockout import (
    BracketError,
    DrawError,
    LotsError,
    MatchOutcome,
    Pairing,
    Round,
    bye_count,
    byes_so_far,
    is_final,
    lot_plan,
    new_seed,
    round_title,
    rounds_needed,
)
from shuangsheng.knockout.placings import placings, placings_as_json
from shuangsheng.knockout.teams import in_order
from shuangsheng.storage.event import ThirdPlace
from shuangsheng.table.status import TableStatus


def ids(n: int) -> list[str]:
    return [f"{i:02d}" for i in range(1, n + 1)]


def won(p: Pairing, winner: str) -> MatchOutcome:
    return MatchOutcome(p.table, TableStatus.DECIDED, winner)


def run_event(
    n: int, seed: int, third_place: str, pick=lambda p, rng: rng.choice((p.a, p.b)), byes: str = "first_round"
):
    """Play a whole event through the public API: next_round → draw → outcomes, until the final is drawn."""
    rng = random.Random(seed)
    teams = ids(n)
    rounds: list[Round] = []
    outcomes: dict[int, list[MatchOutcome]] = {}
    while (nxt := next_round(teams, rounds, outcomes, third_place=third_place, byes=byes)) is not None:
        r = nxt.draw(rng.randrange(10**9))
        rounds.append(r)
        outcomes[r.number] = [won(p, pick(p, rng)) for p in r.pairings]
    return teams, rounds, outcomes


# --- the draw ---


def test_new_seed_is_6_to_9_digits():
    for _ in range(200):
        assert 100_000 <= new_seed() <= 999_999_999


def test_same_seed_same_draw_and_round_reproduces_from_its_pool():
    r = draw_round(1, ids(11), seed=424242)
    assert r == draw_round(1, ids(11), seed=424242)
    assert draw_round(r.number, r.pool, seed=r.seed) == r
    assert r.pool == tuple(ids(11))
    assert [p.table for p in r.pairings] == [1, 2, 3]  # 11 teams: 3 matches, 5 byes
    assert len(r.byes) == 5 and r.seed == 424242


def test_different_seeds_give_different_draws():
    draws = {draw_round(1, ids(16), seed=s).pairings for s in range(20)}
    assert len(draws) > 1


def test_bye_avoids_a_team_that_had_one():
    for seed in range(200):
        r = draw_round(3, ["01", "02", "03"], seed=seed, previous_byes=["01", "02"])
        assert r.byes == ("03",)


def test_bye_when_every_team_had_one_goes_to_the_fewest():
    for seed in range(100):
        r = draw_round(4, ["01", "02", "03"], seed=seed, previous_byes=["01", "02", "03", "01", "02"])
        assert r.byes == ("03",)
    assert {draw_round(4, ["01", "02", "03"], seed=s, previous_byes=["01", "02", "03"]).byes for s in range(60)} == {
        ("01",),
        ("02",),
        ("03",),
    }


def test_bye_is_drawn_by_lot_among_teams_without_one():
    byes = Counter(draw_round(2, ids(5), seed=s, byes=1, previous_byes=["01"]).byes for s in range(400))
    assert set(byes) == {("02",), ("03",), ("04",), ("05",)}


def test_bad_pool_lists_every_problem():
    with pytest.raises(DrawError) as e:
        draw_round(0, ["01", "01"], seed=1)
    assert e.value.problems == ("轮次应为从 1 开始的整数，实际为 0", "第01组在抽签名单中出现了2次")
    with pytest.raises(DrawError) as e:
        draw_round(1, ["01"], seed="x")  # type: ignore[arg-type]
    assert e.value.problems == ("一轮至少需要2组才能抽签，实际只有1组", "抽签种子应为整数，实际为 'x'")


def test_third_place_match_only_with_a_final():
    with pytest.raises(DrawError) as e:
        draw_round(2, ["01", "02", "03"], seed=1, third_place_match=("03", "04"))
    assert e.value.problems == ("三、四名决赛只能与决赛同轮进行，而本轮有3组", "第03组在决赛中，不能同时参加三、四名决赛")
    r = draw_round(3, ["01", "02"], seed=7, third_place_match=("05", "06"))
    assert r.pairings[1] == Pairing(2, "05", "06", third_place=True)
    assert r.pairings[0].table == 1 and {r.pairings[0].a, r.pairings[0].b} == {"01", "02"}


# --- paper lots ---


def test_each_round_lots_pair_1_2_at_table_1_lower_lot_is_side_a_last_lot_is_bye():
    r = draw_from_lots(1, {"01": 3, "02": 5, "03": 1, "04": 4, "05": 2}, ids(5), byes=1)
    assert r.pairings == (Pairing(1, "03", "05"), Pairing(2, "01", "04"))
    assert r.byes == ("02",)
    assert r.seed is None
    assert r.lots == (("03", 1), ("05", 2), ("01", 3), ("04", 4), ("02", 5))
    assert draw_from_lots(r.number, r.lots, r.pool, byes=1) == r  # reproducible from what the workbook stores


def test_lots_as_pairs_even_count():
    r = draw_from_lots(2, [("07", 2), ("03", 1), ("09", 4), ("01", 3)], ["01", "03", "07", "09"])
    assert r.pairings == (Pairing(1, "03", "07"), Pairing(2, "01", "09")) and r.byes == ()


@pytest.mark.parametrize(
    ("lots", "expected"),
    [
        ({"01": 1, "02": 2, "03": 3, "3": 4}, ["组号“3”不是本轮参赛的组", "第04组没有签号", "缺少签号 4：本轮共4组，签号 1–4 应各用一次"]),
        ({"01": 1, "02": 2, "03": 3}, ["第04组没有签号", "缺少签号 4：本轮共4组，签号 1–4 应各用一次"]),
        ({"01": 1, "02": 2, "03": 2, "04": 4}, ["签号 2 重复：第02组、第03组", "缺少签号 3：本轮共4组，签号 1–4 应各用一次"]),
        (
            {"01": 1, "02": 2, "03": 3, "04": 7},
            ["第04组的签号 7 超出范围：本轮共4组，签号应为 1–4", "缺少签号 4：本轮共4组，签号 1–4 应各用一次"],
        ),
        (
            {"01": 0, "02": 2, "03": 3, "04": "四"},
            [
                "第01组的签号应为正整数，实际为“0”",
                "第04组的签号应为正整数，实际为“四”",
                "缺少签号 1、4：本轮共4组，签号 1–4 应各用一次",
            ],
        ),
        (
            [("01", 1), ("02", 2), ("03", 3), ("04", 4), ("04", 1)],
            ["第04组填了2个签号（4、1），每组只能有一个签号", "缺少签号 4：本轮共4组，签号 1–4 应各用一次"],
        ),
    ],
    ids=["unknown-team", "missing-lot", "duplicate-lot", "out-of-range", "not-a-positive-int", "team-twice"],
)
def test_lots_validation_messages(lots, expected):
    with pytest.raises(LotsError) as e:
        draw_from_lots(1, lots, ids(4))
    assert list(e.value.problems) == expected
    assert str(e.value).splitlines() == ["第1轮的签号有误：", *expected]


def test_lots_refuse_an_avoidable_second_bye():
    with pytest.raises(LotsError) as e:
        draw_from_lots(2, {"01": 3, "02": 1, "03": 2}, ["01", "02", "03"], previous_byes=["01"])
    assert e.value.problems == (
        "签号 3（轮空）抽到的第01组已经轮空过，本轮还有没轮空过的组，不能让它再次轮空，请重新抽签",
    )
    ok = draw_from_lots(2, {"01": 1, "02": 3, "03": 2}, ["01", "02", "03"], previous_byes=["01"])
    assert ok.byes == ("02",)


def test_lots_for_a_final_with_third_place_match():
    r = draw_from_lots(3, {"05": 2, "01": 1}, ["01", "05"], third_place_match=("02", "07"))
    assert r.pairings == (Pairing(1, "01", "05"), Pairing(2, "02", "07", third_place=True))


# --- advancement ---


def test_advance_winners_by_table_then_the_bye():
    r = draw_from_lots(1, {"01": 1, "02": 2, "03": 3, "04": 4, "05": 5}, ids(5), byes=1)
    adv = advance(r, [won(r.pairings[1], "04"), MatchOutcome(1, TableStatus.WALKOVER, "02", "第01组弃权")])
    assert adv.decided
    assert adv.advancing == ("02", "04", "05")
    assert adv.losers == ("01", "03")


def test_advance_refusal_names_each_table_and_why():
    r = draw_from_lots(1, {t: i for i, t in enumerate(ids(10), 1)}, ids(10), byes=0)
    outcomes = [
        MatchOutcome(1, TableStatus.INVALID, reason="第3局台下得分应为 0–200 之间 5 的倍数"),
        MatchOutcome(2, TableStatus.NEEDS_PLAYOFF, reason="双方同为9级"),
        MatchOutcome(4, TableStatus.DECIDED, "01"),
        MatchOutcome(5, TableStatus.WALKOVER),
        won(r.pairings[2], "05"),
    ]
    adv = advance(r, outcomes)
    assert not adv.decided and adv.advancing == ("05",) and adv.losers == ("06",)  # only table 3 is decided
    assert [(b.table, b.status) for b in adv.blockers] == [
        (1, TableStatus.INVALID),
        (2, TableStatus.NEEDS_PLAYOFF),
        (4, TableStatus.INVALID),
        (5, TableStatus.INVALID),
    ]
    assert [b.message for b in adv.blockers] == [
        "第1桌：记录有误（第3局台下得分应为 0–200 之间 5 的倍数）",
        "第2桌：需加赛（双方同为9级）",
        "第4桌：记录有误（胜方“01”不是本桌的组）",
        "第5桌：记录有误（没有胜方）",
    ]
    assert advance(r, [o for o in outcomes if o.table != 2]).blockers[1].message == "第2桌：尚未录入"


def test_next_round_refused_while_a_match_is_undecided():
    r = draw_from_lots(1, {"01": 1, "02": 2, "03": 3, "04": 4}, ids(4))
    outcomes = {1: [MatchOutcome(1, TableStatus.NEEDS_PLAYOFF, reason="双方同为9级")]}
    with pytest.raises(RoundNotDecided) as e:
        next_round(ids(4), [r], outcomes)
    assert str(e.value).splitlines() == [
        "第1轮还有2场比赛没有决出胜负，不能抽下一轮：",
        "第1桌：需加赛（双方同为9级）",
        "第2桌：尚未录入",
    ]
    assert [b.table for b in e.value.blockers] == [1, 2]


def test_outcome_for_a_table_the_round_does_not_have():
    r = draw_from_lots(1, {"01": 1, "02": 2}, ids(2))
    with pytest.raises(BracketError) as e:
        advance(r, [MatchOutcome(3, TableStatus.DECIDED, "01")])
    assert e.value.problems == ("第1轮没有第3桌，却有它的比赛结果",)


def test_rounds_that_do_not_fit_together():
    r1 = draw_from_lots(1, {"01": 1, "02": 2, "03": 3, "04": 4}, ids(4))
    outcomes = {1: [won(r1.pairings[0], "01"), won(r1.pairings[1], "03")]}
    r2 = draw_round(2, ["01", "04"], seed=1)
    with pytest.raises(BracketError) as e:
        placings([r1, r2], outcomes)
    assert e.value.problems == ("第2轮的参赛组与第1轮的晋级组不一致：多了第04组；少了第03组",)
    with pytest.raises(BracketError) as e:
        placings([r1, draw_round(3, ["01", "03"], seed=1)], outcomes)
    assert e.value.problems == ("轮次应从第1轮起连续编号，实际为 1、3",)
    with pytest.raises(BracketError) as e:
        next_round(ids(5), [r1], outcomes)
    assert e.value.problems == ("报名表与第1轮的参赛组不一致：报名表有而第1轮没有：第05组",)


def test_field_size_limits():
    with pytest.raises(DrawError) as e:
        next_round(ids(1), [], {})
    assert e.value.problems == ("一轮至少需要2组才能抽签，实际只有1组",)
    with pytest.raises(DrawError) as e:
        next_round(ids(513), [], {})
    assert e.value.problems == ("最多支持512组参赛，报名表中有513组",)
    assert next_round(ids(512), [], {}).pool == tuple(ids(512))


# --- byes = "each_round": table tests written out by hand, sizes 3, 5, 6, 7, 9 ---

# n: [(teams in the pool, matches, bye?) per round], 三等奖 count shared / playoff, 3rd-place match in the final?
SHAPES = {
    3: ([(3, 1, True), (2, 1, False)], 1, 1, False),
    5: ([(5, 2, True), (3, 1, True), (2, 1, False)], 1, 1, False),
    6: ([(6, 3, False), (3, 1, True), (2, 1, False)], 1, 1, False),
    7: ([(7, 3, True), (4, 2, False), (2, 1, False)], 2, 1, True),
    9: ([(9, 4, True), (5, 2, True), (3, 1, True), (2, 1, False)], 1, 1, False),
}


@pytest.mark.parametrize("n", sorted(SHAPES))
@pytest.mark.parametrize("mode", ["shared", "playoff"])
def test_each_round_shape_of_small_fields(n, mode):
    shape, thirds_shared, thirds_playoff, third_match = SHAPES[n]
    for seed in range(5):
        teams, rounds, outcomes = run_event(n, seed, mode, byes="each_round")
        assert rounds_needed(n, "each_round") == len(shape) == len(rounds)
        got = [(len(r.pool), sum(not p.third_place for p in r.pairings), len(r.byes) == 1) for r in rounds]
        assert got == shape
        assert all(len(r.byes) <= 1 for r in rounds)
        final = rounds[-1]
        assert any(p.third_place for p in final.pairings) == (third_match and mode == "playoff")
        result = placings(rounds, outcomes, third_place=mode, byes="each_round")
        assert result.complete
        assert len(result.third) == (thirds_shared if mode == "shared" else thirds_playoff)
        assert bool(result.notes) == (not third_match)  # a semi-final with a bye is explained


def test_seven_teams_by_hand_shared_and_playoff():
    """7 teams from paper lots, 甲方 always wins: the whole event written out (7 teams: 1 bye either way)."""
    teams = ids(7)
    r1 = draw_from_lots(1, {"01": 1, "02": 2, "03": 3, "04": 4, "05": 5, "06": 6, "07": 7}, teams)
    assert (r1.byes, len(r1.pairings)) == (("07",), 3)
    o1 = [won(p, p.a) for p in r1.pairings]
    nxt = next_round(teams, [r1], {1: o1}, third_place="playoff")
    assert (nxt.number, nxt.pool, nxt.previous_byes, nxt.title) == (2, ("01", "03", "05", "07"), ("07",), "第2轮（半决赛）")
    r2 = nxt.from_lots({"01": 1, "07": 2, "03": 3, "05": 4})
    o2 = [won(p, p.a) for p in r2.pairings]  # 01 beats 07, 03 beats 05
    final = next_round(teams, [r1, r2], {1: o1, 2: o2}, third_place="playoff")
    assert final.third_place_match == ("07", "05") and final.title == "第3轮（决赛）"
    r3 = final.from_lots({"03": 1, "01": 2})
    assert r3.pairings == (Pairing(1, "03", "01"), Pairing(2, "07", "05", third_place=True))
    assert is_final(r3) and round_title(3, 2) == "第3轮（决赛）"
    all_o = {1: o1, 2: o2, 3: [won(r3.pairings[0], "01"), won(r3.pairings[1], "05")]}
    assert next_round(teams, [r1, r2, r3], all_o, third_place="playoff") is None
    p = placings([r1, r2, r3], all_o, third_place="playoff")
    assert (p.complete, p.first, p.second, p.third, p.notes) == (True, "01", "03", ("05",), ())
    assert placings_as_json(p) == {"complete": True, "first": "01", "second": "03", "third": ["05"]}
    # shared: both semi-final losers are 3rd; the final round is drawn without a 3rd-place match
    shared_final = next_round(teams, [r1, r2], {1: o1, 2: o2})
    assert shared_final.third_place_match is None
    r3s = shared_final.from_lots({"03": 1, "01": 2})
    s = placings([r1, r2, r3s], {1: o1, 2: o2, 3: [won(r3s.pairings[0], "01")]}, third_place=ThirdPlace.SHARED)
    assert placings_as_json(s) == {"complete": True, "first": "01", "second": "03", "third": ["05", "07"]}


def test_each_round_five_teams_semi_final_with_a_bye_prizes_explained():
    teams = ids(5)
    r1 = draw_from_lots(1, {"01": 1, "02": 2, "03": 3, "04": 4, "05": 5}, teams, byes=1)
    o1 = [won(r1.pairings[0], "02"), won(r1.pairings[1], "03")]
    nxt = next_round(teams, [r1], {1: o1}, third_place="playoff", byes="each_round")
    assert nxt.pool == ("02", "03", "05") and nxt.previous_byes == ("05",)
    with pytest.raises(LotsError):  # 05 already had the bye
        nxt.from_lots({"02": 1, "03": 2, "05": 3})
    r2 = nxt.from_lots({"05": 1, "03": 2, "02": 3})
    assert (r2.byes, r2.pairings) == (("02",), (Pairing(1, "05", "03"),))
    o2 = [won(r2.pairings[0], "05")]
    r3 = next_round(teams, [r1, r2], {1: o1, 2: o2}, third_place="playoff", byes="each_round").from_lots(
        {"02": 1, "05": 2}
    )
    assert len(r3.pairings) == 1  # one semi-final loser: no 3rd-place match
    o3 = [won(r3.pairings[0], "02")]
    outcomes = {1: o1, 2: o2, 3: o3}
    playoff = placings([r1, r2, r3], outcomes, third_place="playoff")
    shared = placings([r1, r2, r3], outcomes, third_place="shared")
    for p in (playoff, shared):
        assert (p.complete, p.first, p.second, p.third) == (True, "02", "05", ("03",))
    head = "半决赛（第2轮）只有3组：第02组轮空，直接进入决赛（获一等奖或二等奖）；只有一场半决赛，第03组获三等奖。"
    assert playoff.notes == (head + "只有一组半决赛负者，不进行三、四名决赛。",)
    assert shared.notes == (head + "另一个三等奖名额空缺（没有第二场半决赛），如需另行颁发，由组委会决定。",)
    assert placings_as_json(shared)["third"] == ["03"] and placings_as_json(shared)["notes"] == list(shared.notes)
    assert byes_so_far([r1, r2, r3]) == ("05", "02")


def test_two_teams_round_one_is_the_final():
    r = draw_round(1, ["01", "02"], seed=5)
    assert is_final(r) and r.byes == () and len(r.pairings) == 1
    p = placings([r], {1: [won(r.pairings[0], "02")]}, third_place="playoff")
    assert (p.complete, p.first, p.second, p.third) == (True, "02", "01", ())
    assert p.notes == ("只有2组参赛，第1轮即为决赛：胜者获一等奖，负者获二等奖，不设三等奖。",)
    assert next_round(["01", "02"], [r], {}) is None


def test_each_round_placings_while_unfinished_list_what_is_missing():
    teams = ids(6)
    r1 = draw_from_lots(1, {t: i for i, t in enumerate(teams, 1)}, teams, byes=0)
    p = placings([r1], {1: [won(r1.pairings[0], "01")]}, byes="each_round")
    assert placings_as_json(p) == {
        "complete": False,
        "first": None,
        "second": None,
        "third": [],
        "missing": ["第1轮第2桌：尚未录入", "第1轮第3桌：尚未录入", "第2轮（半决赛）尚未抽签", "第3轮（决赛）尚未抽签"],
    }
    assert placings([], {}).missing == ("第1轮尚未抽签",)


def test_playoff_mode_with_a_final_drawn_without_the_3rd_place_match():
    teams, rounds, outcomes = run_event(4, 1, "shared")
    p = placings(rounds, outcomes, third_place="playoff")
    assert not p.complete and p.first is not None
    assert p.missing == ('第2轮（决赛）没有三、四名决赛，无法确定三等奖（third_place = "playoff"）',)


def test_third_place_match_must_be_the_semi_final_losers():
    r1 = draw_from_lots(1, {"01": 1, "02": 2, "03": 3, "04": 4}, ids(4))
    o1 = [won(r1.pairings[0], "01"), won(r1.pairings[1], "03")]
    r2 = draw_round(2, ["01", "03"], seed=3, third_place_match=("02", "05"))
    with pytest.raises(BracketError) as e:
        placings([r1, r2], {1: o1}, third_place="playoff")
    assert e.value.problems == ("第2轮的三、四名决赛应由第1轮的两组负者（第02组、第04组）进行，实际为第02组、第05组",)


# --- properties over every field size ---


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 128),
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["shared", "playoff"]),
    byes=st.sampled_from(["first_round", "each_round"]),
)
def test_event_from_team_list_to_placings(n, seed, mode, byes):
    teams, rounds, outcomes = run_event(n, seed, mode, byes=byes)
    assert len(rounds) == rounds_needed(n, byes)
    losses: Counter[str] = Counter()
    had_bye: Counter[str] = Counter()
    for r in rounds:
        # same seed, same pool, same byes → the same draw
        again = draw_round(
            r.number,
            r.pool,
            seed=r.seed,
            byes=len(r.byes),
            previous_byes=byes_so_far(rounds[: r.number - 1]),
            third_place_match=next(((p.a, p.b) for p in r.pairings if p.third_place), None),
        )
        assert again == r
        # each team in the pool plays exactly once or has a bye
        main = [p for p in r.pairings if not p.third_place]
        seen = [t for p in main for t in (p.a, p.b)] + list(r.byes)
        assert sorted(seen) == sorted(r.pool)
        assert [p.table for p in r.pairings] == list(range(1, len(r.pairings) + 1))
        assert len(r.byes) == bye_count(len(r.pool), byes)
        # no avoidable second bye
        for team in r.byes:
            if had_bye[team]:
                assert all(had_bye[t] for t in r.pool)
        had_bye.update(r.byes)
        for p, o in zip(r.pairings, outcomes[r.number], strict=True):
            if not p.third_place:
                losses[p.b if o.winner == p.a else p.a] += 1
    assert all(count == 1 for count in losses.values())
    unbeaten = [t for t in teams if not losses[t]]
    assert len(unbeaten) == 1  # exactly one champion

    result = placings(rounds, outcomes, third_place=mode, byes=byes)
    assert result.complete and result.missing == ()
    final = rounds[-1]
    final_match = next(p for p in final.pairings if not p.third_place)
    winner = outcomes[final.number][final_match.table - 1].winner
    assert result.first == winner == unbeaten[0]
    assert {result.first, result.second} == {final_match.a, final_match.b}
    if n == 2:
        assert result.third == ()
        return
    semi = rounds[-2]
    semi_losers = [
        p.b if o.winner == p.a else p.a for p, o in zip(semi.pairings, outcomes[semi.number], strict=True)
    ]
    third_match = next((p for p in final.pairings if p.third_place), None)
    if mode == "playoff" and len(semi_losers) == 2:
        assert third_match is not None and {third_match.a, third_match.b} == set(semi_losers)
        assert result.third == (outcomes[final.number][third_match.table - 1].winner,)
    else:
        assert third_match is None
        assert result.third == tuple(in_order(semi_losers))  # in number order
    assert len(set((result.first, result.second) + result.third)) == 2 + len(result.third)
    assert bool(result.notes) == (len(semi.pool) == 3)
    as_json = placings_as_json(result)
    assert as_json["first"] == result.first and as_json["third"] == list(result.third)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 128), seed=st.integers(0, 2**63), byes=st.sampled_from(["first_round", "each_round"]))
def test_lots_from_a_shuffle_always_make_a_draw(n, seed, byes):
    pool = ids(n)
    numbers = list(range(1, n + 1))
    random.Random(seed).shuffle(numbers)
    count = bye_count(n, byes)
    r = draw_from_lots(1, dict(zip(pool, numbers, strict=True)), pool, byes=count)
    assert len(r.pairings) == (n - count) // 2 and len(r.byes) == count
    lot_of = dict(r.lots)
    for p in r.pairings:
        assert (lot_of[p.a], lot_of[p.b]) == (2 * p.table - 1, 2 * p.table)
    assert [lot_of[t] for t in r.byes] == list(range(n - count + 1, n + 1))


# --- byes = "first_round" (the default): every bye in round 1, two semi-finals from 4 teams up ---


def largest_power_of_two_below(n: int) -> int:
    b = 1
    while b * 2 < n:
        b *= 2
    return b


@pytest.mark.parametrize("n", [*range(2, 41), 64, 100, 128])
def test_first_round_byes_shape_for_every_field(n):
    power = n & (n - 1) == 0
    b = n if power else largest_power_of_two_below(n)
    for seed in range(3):
        teams, rounds, outcomes = run_event(n, seed, "shared")
        # round 1: N − B matches and 2B − N byes (none for a power of two); then B/2, B/4, … matches, no bye
        expected = [(n, n // 2, 0)] if power else [(n, n - b, 2 * b - n)]
        size = n // 2 if power else b
        while size >= 2:
            expected.append((size, size // 2, 0))
            size //= 2
        got = [(len(r.pool), len(r.pairings), len(r.byes)) for r in rounds]
        assert got == expected
        assert all(r.byes == () for r in rounds[1:])  # no bye after round 1
        assert len(rounds) == rounds_needed(n)
        if n >= 4:
            assert len(rounds[-2].pairings) == 2 and len(rounds[-2].pool) == 4  # two semi-finals
        result = placings(rounds, outcomes, third_place="shared")
        assert result.complete and result.first and result.second
        if n >= 4:
            assert len(result.third) == 2 and result.notes == ()
            assert len({result.first, result.second, *result.third}) == 4
        elif n == 3:  # a field of three: one semi-final, one 三等奖, explained
            assert len(result.third) == 1 and len(result.notes) == 1
        else:
            assert result.third == () and result.notes


@pytest.mark.parametrize("n", [4, 5, 11, 12, 100])
def test_first_round_byes_with_a_third_place_playoff(n):
    teams, rounds, outcomes = run_event(n, 7, "playoff")
    final = rounds[-1]
    assert [p.third_place for p in final.pairings] == [False, True]
    result = placings(rounds, outcomes, third_place="playoff")
    assert result.complete and len(result.third) == 1 and result.notes == ()


@pytest.mark.parametrize(
    ("n", "matches", "bye_lots", "text"),
    [
        (11, 3, range(7, 12), "签号1与2、3与4、5与6对阵（依次为第1、2……桌）；签号7–11轮空（直接进入下一轮）"),
        (5, 1, range(3, 6), "签号1与2对阵；签号3–5轮空（直接进入下一轮）"),
        (3, 1, range(3, 4), "签号1与2对阵；签号3轮空（直接进入下一轮）"),
        (8, 4, range(9, 9), "签号1与2、3与4……7与8对阵（依次为第1、2……桌）"),
        (20, 4, range(9, 21), "签号1与2、3与4……7与8对阵（依次为第1、2……桌）；签号9–20轮空（直接进入下一轮）"),
    ],
)
def test_first_round_paper_lots_plan(n, matches, bye_lots, text):
    plan = lot_plan(n)
    assert (plan.matches, plan.bye_lots, plan.text) == (matches, bye_lots, text)
    power_of_two = n & (n - 1) == 0
    assert plan.matches == (n // 2 if power_of_two else n - largest_power_of_two_below(n))


def test_first_round_paper_lots_pair_1_2_3_4_and_lots_above_2_n_minus_b_are_byes():
    # 11 teams: B = 8, 2(N − B) = 6: lots 1–6 play (1–2 at table 1, 3–4 at table 2, 5–6 at table 3), 7–11 byes
    lots = {"01": 7, "02": 3, "03": 11, "04": 1, "05": 9, "06": 2, "07": 6, "08": 10, "09": 4, "10": 8, "11": 5}
    r = draw_from_lots(1, lots, ids(11))
    assert r.pairings == (Pairing(1, "04", "06"), Pairing(2, "02", "09"), Pairing(3, "11", "07"))
    assert r.byes == ("01", "10", "05", "08", "03")  # by lot: 7, 8, 9, 10, 11
    assert r.lot_plan == lot_plan(11)
    nxt = next_round(ids(11), [r], {1: [won(p, p.a) for p in r.pairings]})
    assert nxt.pool == ("04", "02", "11", "01", "10", "05", "08", "03") and nxt.byes == 0
    assert nxt.lots.bye_lots == range(9, 9)
    r2 = nxt.from_lots({t: i for i, t in enumerate(nxt.pool, 1)})
    assert len(r2.pairings) == 4 and r2.byes == ()


def test_first_round_lots_of_the_wrong_count_are_named():
    with pytest.raises(LotsError) as e:
        draw_from_lots(1, {t: i for i, t in enumerate(ids(5), 1)}, ids(5), byes=2)
    assert e.value.problems == ("本轮5组，不能有2组轮空（轮空后剩下的组数应为不少于2的双数）",)


def test_awards_name_both_thirds_as_soon_as_both_semi_finals_are_decided():
    teams = ids(6)
    r1 = draw_from_lots(1, {t: i for i, t in enumerate(teams, 1)}, teams)  # 01–02, 03–04; 05, 06 byes
    o1 = [won(p, p.a) for p in r1.pairings]
    r2 = next_round(teams, [r1], {1: o1}).from_lots({"01": 1, "03": 2, "05": 3, "06": 4})
    half = placings([r1, r2], {1: o1, 2: [won(r2.pairings[0], "01")]})
    assert half.third == ("03",) and not half.complete
    both = placings([r1, r2], {1: o1, 2: [won(p, p.a) for p in r2.pairings]})
    assert placings_as_json(both) == {
        "complete": False,
        "first": None,
        "second": None,
        "third": ["03", "06"],
        "missing": ["第3轮（决赛）尚未抽签"],
    }


def test_a_round_whose_matches_and_byes_do_not_cover_its_pool():
    r = draw_from_lots(1, {t: i for i, t in enumerate(ids(5), 1)}, ids(5))
    broken = Round(1, r.pool, r.pairings, r.byes[:-1], None, r.lots)
    with pytest.raises(BracketError) as e:
        placings([broken], {})
    assert e.value.problems == ("第1轮的对阵与轮空（第03组、第04组）合起来应恰好是本轮抽签名单上的各组，每组一次",)
