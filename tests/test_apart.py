"""shuangsheng.knockout.apart: the draw keeps units and seeds apart as far as the numbers allow (issue 33 item 3)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.knockout.apart import NOTHING_APART, Apart, fewest_same_unit, meetings, repair
from shuangsheng.knockout.draw import draw_round
from shuangsheng.knockout.knockout import bye_count
from shuangsheng.knockout.teams import Team


def same_unit(pairs, apart: Apart) -> int:
    units = apart.unit_of
    return sum(1 for a, b in pairs if a in units and units.get(b) == units[a])


def seed_matches(pairs, apart: Apart) -> int:
    seeds = apart.seed_of
    return sum(1 for a, b in pairs if a in seeds and b in seeds)


def all_pairings(teams):
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


@st.composite
def fields(draw, most: int = 128, seeded_up_to: int = 16):
    """A field of 2…`most` teams, each with a unit from a few (or none) and some of them seeded 1, 2, …"""
    n = draw(st.integers(2, most))
    units = draw(st.lists(st.sampled_from(["", "甲", "乙", "丙", "丁"]), min_size=n, max_size=n))
    weights = draw(st.sampled_from([None, "甲"]))  # now and then one big unit
    if weights:
        units = [weights if i % 3 else u for i, u in enumerate(units)]
    seeded = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(n, seeded_up_to)))
    seeds = {i: k for k, i in enumerate(seeded, start=1)}
    return [Team(f"{i + 1:02d}", (f"甲{i}", f"乙{i}"), unit=units[i], seed=seeds.get(i)) for i in range(n)]


def playing(round_):
    return [(p.a, p.b) for p in round_.pairings]


@settings(max_examples=60, deadline=None)
@given(fields(), st.integers(0, 2**32))
def test_every_unit_is_spread_as_far_as_the_numbers_allow_and_seeds_take_the_byes(teams, seed):
    apart = Apart.of(teams)
    pool = [t.id for t in teams]
    drawn = draw_round(1, pool, seed=seed, apart=apart)
    pairs = playing(drawn)
    teams_playing = [t for p in pairs for t in p]
    assert sorted(teams_playing + list(drawn.byes)) == sorted(pool)
    assert len(drawn.byes) == bye_count(len(pool))
    # the bound: L − m/2 of the largest unit L among the m who play
    counts = Counter(apart.unit_of[t] for t in teams_playing if t in apart.unit_of)
    assert same_unit(pairs, apart) == max(0, max(counts.values(), default=0) - len(teams_playing) // 2)
    # seeds go straight on first, 1 before 2
    by_number = sorted(apart.seeds, key=lambda e: e[1])
    assert set(drawn.byes) >= {t for t, _ in by_number[: len(drawn.byes)]}
    assert draw_round(1, pool, seed=seed, apart=apart) == drawn  # the same seed, the same draw


@settings(max_examples=60, deadline=None)
@given(fields(seeded_up_to=128), st.integers(0, 2**32))
def test_without_units_seeds_meet_only_when_there_are_more_than_half(teams, seed):
    teams = [Team(t.id, t.players, seed=t.seed) for t in teams]
    apart = Apart.of(teams)
    drawn = draw_round(1, [t.id for t in teams], seed=seed, apart=apart)
    pairs = playing(drawn)
    seeds_playing = sum(1 for p in pairs for t in p if t in apart.seed_of)
    assert seed_matches(pairs, apart) == max(0, seeds_playing - len(pairs))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["", "甲", "乙", "丙"]), min_size=2, max_size=10).filter(lambda u: len(u) % 2 == 0),
       st.integers(0, 2**32))
def test_the_bound_is_the_true_minimum_over_every_pairing(units, seed):
    """Against all pairings of small fields: `fewest_same_unit` is the least any pairing has, and `repair` reaches it."""
    ids = [f"{i:02d}" for i in range(len(units))]
    apart = Apart(tuple((t, u) for t, u in zip(ids, units, strict=True) if u))
    best = min(same_unit(p, apart) for p in all_pairings(ids))
    assert fewest_same_unit(ids, apart) == best
    shuffled = ids[:]
    rng = random.Random(seed)
    rng.shuffle(shuffled)
    start = [(shuffled[2 * i], shuffled[2 * i + 1]) for i in range(len(ids) // 2)]
    assert same_unit(repair(start, apart, rng), apart) == best


def test_no_units_and_no_seeds_draw_exactly_as_before():
    """An old teams.xlsx: the plain shuffle, byes to the last in it, pairs in its order (the draw of old events)."""
    pool = [f"{i:02d}" for i in range(1, 12)]
    order = pool[:]
    random.Random(4242).shuffle(order)
    drawn = draw_round(1, pool, seed=4242, apart=Apart.of(Team(t, ("甲" + t, "乙" + t)) for t in pool))
    byes = bye_count(len(pool))
    assert drawn.byes == tuple(reversed(order))[:byes]
    rest = order[: len(pool) - byes]
    assert playing(drawn) == [(rest[2 * i], rest[2 * i + 1]) for i in range(len(rest) // 2)]
    assert drawn == draw_round(1, pool, seed=4242, apart=NOTHING_APART)


def test_a_field_of_512_with_one_big_unit_is_repaired_to_the_minimum():
    teams = [Team(f"{i:03d}", (f"甲{i}", f"乙{i}"), unit="教务处" if i < 300 else f"系{i % 7}",
                  seed=i + 1 if i < 32 else None) for i in range(512)]
    apart = Apart.of(teams)
    drawn = draw_round(1, [t.id for t in teams], seed=1, apart=apart)
    assert not drawn.byes and same_unit(playing(drawn), apart) == 300 - 256


def test_meetings_name_each_same_unit_and_seed_match():
    apart = Apart(units=(("01", "化学系"), ("02", "化学系"), ("03", "物理系")), seeds=(("03", 1), ("04", 2)))
    assert meetings([("01", "02"), ("03", "04")], apart) == [
        "第1桌：第01组与第02组同为“化学系”", "第2桌：1号种子第03组与2号种子第04组相遇"]
    assert Apart.from_json(apart.as_json()) == apart and Apart.from_json(None) == NOTHING_APART
    assert apart.description() == "抽签时同单位的组尽量不相遇、种子尽量不相遇（种子优先轮空）"
