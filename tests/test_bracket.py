"""shuangsheng.knockout.bracket: the chart's columns, slots between their sources, blanks for what is still to come."""

from __future__ import annotations

import itertools
import random

import pytest

from shuangsheng.game.levels import Level, Levels
from shuangsheng.knockout.advance import next_round
from shuangsheng.knockout.bracket import GAP, Bracket, SlotKind, build, entry_note
from shuangsheng.knockout.knockout import MatchOutcome, Round, rounds_needed
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.event import Byes
from shuangsheng.table.status import TableStatus


def teams(n: int) -> list[Team]:
    return [Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, n + 1)]


def play(n: int, *, seed: int = 1, stop_after: int | None = None, third_place="shared", byes="first_round"):
    """Draw and decide rounds (甲方 wins at odd tables, 乙方 at even) until the final or `stop_after` rounds."""
    rng = random.Random(seed)
    ids = [t.id for t in teams(n)]
    rounds: list[Round] = []
    outcomes: dict[int, list[MatchOutcome]] = {}
    levels: dict[tuple[int, int], Levels] = {}
    while (nxt := next_round(ids, rounds, outcomes, third_place=third_place, byes=byes)) is not None:
        if stop_after is not None and len(rounds) == stop_after:
            break
        r = nxt.draw(rng.randrange(10**9))
        rounds.append(r)
        outcomes[r.number] = [
            MatchOutcome(p.table, TableStatus.DECIDED, p.a if p.table % 2 else p.b) for p in r.pairings
        ]
        for p in r.pairings:
            levels[r.number, p.table] = Levels(Level.KING, Level.NINE) if p.table % 2 else Levels(Level.FIVE, Level.ACE)
    return rounds, outcomes, levels


def check_geometry(chart: Bracket) -> None:
    first = chart.columns[0].slots
    bottom = 0.0
    for slot in first:  # stacked, GAP apart
        assert slot.y - slot.height / 2 == pytest.approx(bottom)
        bottom = slot.y + slot.height / 2 + GAP
    assert chart.height == pytest.approx(bottom - GAP)
    for previous, column in itertools.pairwise(chart.columns):
        used = [i for slot in column.slots for i in slot.sources]
        assert sorted(used) == list(range(len(previous.slots)))  # every earlier slot feeds exactly one later slot
        for slot in column.slots:
            assert slot.y == pytest.approx(sum(previous.slots[i].y for i in slot.sources) / len(slot.sources))
            if slot.kind is not SlotKind.PENDING:
                # each team came from the slot it is drawn next to
                assert [e.team for e in slot.entries] == [previous.slots[i].winner for i in slot.sources]
        ys = [s.y for s in column.slots]
        assert ys == sorted(ys)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 11, 16, 20, 64, 100, 128])
def test_a_finished_event_every_round_a_column_every_match_between_its_sources(n):
    rounds, outcomes, levels = play(n)
    chart = build(rounds, outcomes, teams(n), levels=levels, title="晋级图")
    assert len(chart.columns) == len(rounds) == rounds_needed(n)
    assert all(c.drawn for c in chart.columns)
    for column, r in zip(chart.columns, rounds, strict=True):
        assert len([s for s in column.slots if s.kind is SlotKind.MATCH]) == len(r.pairings)
        assert sorted(s.entries[0].team for s in column.slots if s.kind is SlotKind.BYE) == sorted(r.byes)
    check_geometry(chart)
    final = chart.columns[-1].slots
    assert len(final) == 1 and final[0].winner == chart.placings.first
    assert chart.columns[-1].title.endswith("（决赛）")
    assert chart.placings.complete and len(chart.placings.third) == (2 if n >= 4 else n - 2)
    # levels and winner of every match, a bye marked as such
    for column in chart.columns:
        for slot in column.slots:
            if slot.kind is SlotKind.MATCH:
                assert sum(e.won for e in slot.entries) == 1
                assert [entry_note(slot, e) for e in slot.entries] in (["K级", "9级"], ["5级", "A级"])
            else:
                assert entry_note(slot, slot.entries[0]) == "轮空"


def test_rounds_not_yet_played_or_drawn_are_blank():
    rounds, outcomes, levels = play(11, stop_after=1)
    open_round = {1: outcomes[1][:1]}  # table 1 decided; 2 and 3 not yet entered
    chart = build(rounds, open_round, teams(11), levels={(1, 1): levels[1, 1]})
    assert [len(c.slots) for c in chart.columns] == [8, 4, 2, 1]  # 3 matches + 5 byes, then 4, 2, 1
    assert [c.drawn for c in chart.columns] == [True, False, False, False]
    assert [c.title for c in chart.columns] == ["第1轮", "第2轮", "第3轮（半决赛）", "第4轮（决赛）"]
    matches = [s for s in chart.columns[0].slots if s.kind is SlotKind.MATCH]
    assert matches[0].winner is not None
    assert [(s.winner, s.status) for s in matches[1:]] == [(None, TableStatus.OPEN)] * 2
    assert all(entry_note(s, e) == "" for s in matches[1:] for e in s.entries)
    for column in chart.columns[1:]:
        assert all(s.kind is SlotKind.PENDING and all(e.team is None for e in s.entries) for s in column.slots)
    check_geometry(chart)
    assert not chart.placings.complete


def test_nothing_drawn_yet_shows_the_shape_of_the_event():
    chart = build([], {}, teams(11))
    assert [len(c.slots) for c in chart.columns] == [8, 4, 2, 1]
    assert sum(s.height == 2 for s in chart.columns[0].slots) == 3
    assert not any(c.drawn for c in chart.columns)
    each = build([], {}, teams(11), byes=Byes.EACH_ROUND)
    assert [len(c.slots) for c in each.columns] == [6, 3, 2, 1]


def test_each_round_byes_in_later_rounds_have_one_source():
    rounds, outcomes, levels = play(9, byes="each_round")
    chart = build(rounds, outcomes, teams(9), levels=levels, byes="each_round")
    check_geometry(chart)
    later_byes = [s for c in chart.columns[1:] for s in c.slots if s.kind is SlotKind.BYE]
    assert later_byes and all(len(s.sources) == 1 for s in later_byes)
    assert len(chart.placings.third) == 1 and chart.placings.notes  # a semi-final of three


def test_third_place_match_is_kept_apart():
    rounds, outcomes, levels = play(8, third_place="playoff")
    chart = build(rounds, outcomes, teams(8), levels=levels, third_place="playoff")
    assert chart.third_place is not None and chart.third_place.table == 2
    assert len(chart.columns[-1].slots) == 1
    assert chart.placings.third == (chart.third_place.winner,)


def test_walkover_is_marked_and_the_other_team_goes_on():
    rounds, outcomes, _ = play(4, stop_after=1)
    p = rounds[0].pairings[0]
    outcomes = {1: [MatchOutcome(p.table, TableStatus.WALKOVER, p.b, "甲方弃权"), *outcomes[1][1:]]}
    chart = build(rounds, outcomes, teams(4))
    slot = next(s for s in chart.columns[0].slots if s.table == 1)
    assert slot.winner == p.b
    assert [entry_note(slot, e) for e in slot.entries] == ["弃权", ""]


def test_bracket_of_an_event_folder_has_the_levels_the_engine_found(tmp_path):
    from shuangsheng.usecases.awards import bracket
    from shuangsheng.usecases.demo import run_demo

    report = run_demo(tmp_path / "demo", teams=11, seed=2026)
    assert len(report.placings.third) == 2 and report.placings.complete  # the default demo: two 三等奖
    chart, state = bracket(tmp_path / "demo")
    assert chart.title == state.event.title and chart.placings == report.placings
    check_geometry(chart)
    found = {(s.round.number, m.match.table): m.result.levels for s in report.rounds for m in s.matches}
    for column in chart.columns:
        for slot in column.slots:
            if slot.kind is SlotKind.MATCH:
                lv = found[slot.round, slot.table]
                assert [e.level for e in slot.entries] == [lv.a.label, lv.b.label]


def test_the_winner_who_passed_a_is_told_from_a_team_that_reached_a():
    rounds, outcomes, levels = play(4)
    final = rounds[-1].pairings[0]
    outcomes[rounds[-1].number] = [MatchOutcome(final.table, TableStatus.PASSED_A, final.a)]
    levels[rounds[-1].number, final.table] = Levels(Level.ACE, Level.TEN)
    chart = build(rounds, outcomes, teams(4), levels=levels, title="晋级图")
    slot = chart.columns[-1].slots[0]
    assert [entry_note(slot, e) for e in slot.entries] == ["过A", "10级"]
    semi = next(s for s in chart.columns[0].slots if s.entries[1].won)  # decided with 5:A — reached, not passed
    assert [entry_note(semi, e) for e in semi.entries] == ["5级", "A级"]
