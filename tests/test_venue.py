"""shuangsheng.render.venue: the venue display's page data, from event folders at each stage of the day."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shuangsheng.game.levels import Side
from shuangsheng.game.simulate import simulate_match
from shuangsheng.knockout.teams import in_order
from shuangsheng.render.results import round_results
from shuangsheng.render.show_page import views_html
from shuangsheng.render.venue import (
    BRACKET_MAX_COLUMNS,
    BRACKET_MAX_LEAVES,
    BRACKET_MOST_LEAVES,
    Board,
    build_board,
    status_text,
)
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_path
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.awards import awards, bracket
from shuangsheng.usecases.score import score as run_score
from tests.events import TIED, WRONG, draw, finished, finished_with_lost_cards, play, played_rounds, start_event


def board_of(folder: Path) -> Board:
    """Through the calls `bracket` and `score` make, as the display server does."""
    chart, state = bracket(folder)
    return build_board(chart, state.scores())


def test_before_the_draw_the_board_lists_the_teams(tmp_path):
    start_event(tmp_path, teams=6)
    board = board_of(tmp_path)
    assert [t.name for t in board.teams] == [f"第0{i}组" for i in range(1, 7)]
    assert all("、" in t.players for t in board.teams)
    assert (board.current, board.results, board.bracket, board.placings) == (None, None, None, None)


def test_a_round_just_drawn_shows_its_tables_and_bye_and_no_results(tmp_path):
    rng = start_event(tmp_path, teams=11)
    drawn = draw(tmp_path, rng).round
    board = board_of(tmp_path)
    r = board.current
    assert r.number == 1 and r.title == "第1轮"
    assert [(t.table, t.a.id, t.b.id) for t in r.tables] == [(p.table, p.a, p.b) for p in drawn.pairings]
    assert [b.id for b in r.byes] == sorted(drawn.byes, key=int) and len(r.byes) == 5  # 11 teams: 3 matches, 5 byes
    # in number order, so a player scans for theirs
    assert {t.status_text for t in r.tables} == {"尚未录入"} and not r.decided and not r.scored
    assert r.waiting == tuple(p.table for p in drawn.pairings)
    assert board.results is None and board.bracket is None and board.placings is None


def test_results_as_scored_show_levels_winner_playoff_and_mistakes(tmp_path):
    rng = start_event(tmp_path, teams=8)
    draw(tmp_path, rng)
    play(tmp_path, 1, rng, records={1: TIED, 2: WRONG, 3: simulate_match(rng)[0]})
    board = board_of(tmp_path)
    r = board.results
    assert r is board.current and r.scored and not r.decided
    by_table = {t.table: t for t in r.tables}
    assert by_table[1].status is TableStatus.NEEDS_PLAYOFF and by_table[1].status_text == "需加赛"
    assert by_table[1].levels == ("2", "2") and by_table[1].winner is None
    assert by_table[2].status is TableStatus.INVALID and by_table[2].status_text == "记录核对中"
    assert by_table[3].winner in (by_table[3].a.id, by_table[3].b.id) and by_table[3].levels is not None
    assert by_table[3].winner_team.id == by_table[3].winner
    assert by_table[4].status is TableStatus.OPEN
    assert r.waiting == (1, 2, 4) and r.advancing == ()


def test_walkover_names_the_team_that_forfeited_in_the_halls_words(tmp_path):
    rng = start_event(tmp_path, teams=4)
    draw(tmp_path, rng)
    workbook.fill_round(round_path(tmp_path, 1), {}, walkovers={2: Side.B})
    score = run_score(tmp_path, 1).score
    table = next(t for t in round_results(score, {}, digits=2).tables if t.table == 2)
    assert status_text(table) == f"第{table.b}组弃权"  # the hall does not know 乙方: that is the sheet's word
    board = board_of(tmp_path)
    assert next(t for t in board.results.tables if t.table == 2).winner == score.matches[1].match.pairing.a


def test_after_a_round_is_decided_the_next_draw_and_who_advanced_are_shown(tmp_path):
    played_rounds(tmp_path, teams=11, rounds=1)
    score1 = run_score(tmp_path, 1).score
    board = board_of(tmp_path)
    assert board.current.number == 2 and not board.current.scored
    assert board.results.number == 1 and board.results.decided
    assert [t.id for t in board.results.advancing] == in_order(score1.advancement.advancing)  # in number order
    assert board.results.waiting == ()


def test_bracket_places_each_match_between_the_matches_its_teams_came_from(tmp_path):
    finished(tmp_path, teams=11)
    board = board_of(tmp_path)
    b = board.bracket
    by_key = {n.key: n for n in b.nodes}
    assert [c[0] for c in b.columns] == list(range(b.columns[0][0], b.columns[-1][0] + 1))
    assert b.columns[-1][1] == "决赛"
    for node in b.nodes:
        if node.sources:
            children = [by_key[k] for k in node.sources]
            assert all(c.column == node.column - 1 for c in children)
            assert node.slot == pytest.approx(sum(c.slot for c in children) / len(children))
            came = {c.winner for c in children}
            assert came == {t.id for t in node.teams}, node
        else:
            assert node.column == 0 and node.slot == int(node.slot)
    leaves = sorted(n.slot for n in b.nodes if not n.sources)
    assert leaves == [float(i) for i in range(b.slots)]
    final = next(n for n in b.nodes if n.column == len(b.columns) - 1 and not n.third_place)
    assert final.winner == board.placings.first.id
    # 11 teams: round 1 (3 matches, 5 byes) is more than a TV column holds; rounds 2 to the final are shown
    assert [len([n for n in b.nodes if n.column == c]) for c in range(len(b.columns))] == [4, 2, 1]
    assert [c[1] for c in b.columns] == ["第2轮", "半决赛", "决赛"]
    decided = [n for n in b.nodes if len(n.teams) == 2]
    assert all(n.notes[[t.id for t in n.teams].index(n.winner)] for n in decided)  # the winner's level is shown


def test_the_bracket_says_levels_as_levels_and_marks_a_lost_card_apart_from_them(tmp_path):
    """The TV's bracket showed '3', '10', 'J' beside 过A and A级, and a lost card's winner as 'J 未逐局核对' in the
    level's narrow place: now '3级', '10级', 'J级' (过A apart from A级), the mark its match's own `flag`."""
    finished_with_lost_cards(tmp_path, teams=13)
    chart, state = bracket(tmp_path)
    b = build_board(chart, state.scores()).bracket
    matches = [n for n in b.nodes if len(n.teams) == 2]
    notes = [note for n in matches for note in n.notes]
    assert notes and all(re.fullmatch(r"(?:[2-9]|10|[JQKA])级|过A|弃权", note) for note in notes), notes
    slots = {(c.number, s.table): s for c in chart.columns for s in c.slots if s.table is not None}
    for n in matches:
        assert n.flag == ("未逐局核对" if slots[b.columns[n.column][0], n.table].unchecked else "")
    assert sum(bool(n.flag) for n in matches) >= 3  # every other card lost: 4 + 2 + 1 matches shown
    assert all(n.flag == "" or n.winner for n in matches)


def test_placings_only_at_the_end_and_as_awards_gives_them(tmp_path):
    finished(tmp_path, teams=6)
    placings, state = awards(tmp_path)
    board = board_of(tmp_path)
    assert placings.complete
    p = board.placings
    assert (p.first.id, p.second.id, tuple(t.id for t in p.third)) == (placings.first, placings.second, placings.third)
    assert p.first.players == "、".join(state.team_map[placings.first].players)
    assert board.current.final and board.current.decided


def test_a_small_round_decided_with_nothing_drawn_after_it_shares_its_page_with_the_round_before(tmp_path):
    """The semi-final's two results alone filled a quarter of the TV: until the final is drawn (and once it is
    decided) the round before's results are shown after them; while a round is drawn, or when it is larger, not."""
    played_rounds(tmp_path / "semi", teams=13, rounds=3, draw_next=False)  # 5, 4, then the semi-final's 2 tables
    board = board_of(tmp_path / "semi")
    assert board.current.number == 3 and board.current.decided and len(board.current.tables) == 2
    assert board.before is not None and board.before.number == 2
    html = views_html(board)
    assert html.index("第3轮（半决赛） 成绩") < html.index("第2轮 成绩")
    played_rounds(tmp_path / "final", teams=13, rounds=3)  # the final drawn: its draw page holds the semi's results
    assert board_of(tmp_path / "final").before is None
    played_rounds(tmp_path / "quarter", teams=13, rounds=2, draw_next=False)  # round 2 decided: four tables
    assert board_of(tmp_path / "quarter").before is None
    finished(tmp_path / "done", teams=6)
    done = board_of(tmp_path / "done")
    assert done.placings is not None and done.before is not None and done.before.number == done.current.number - 1


def test_a_big_field_shows_only_the_latest_rounds_of_the_bracket(tmp_path):
    finished(tmp_path, teams=40)
    board = board_of(tmp_path)
    b = board.bracket
    assert 2 <= len(b.columns) <= BRACKET_MAX_COLUMNS
    first = b.columns[0][0]
    assert first > 1  # 40 teams: round 1 has 8 matches and 24 byes, more than the chart shows
    assert len([n for n in b.nodes if n.column == 0]) <= BRACKET_MAX_LEAVES
    assert b.columns[-1][1] == "决赛"
    assert {n.column for n in b.nodes} == set(range(len(b.columns)))


def test_the_bracket_shows_at_least_the_last_two_rounds(tmp_path):
    played_rounds(tmp_path, teams=11, rounds=1)  # round 1 has 8 slots, more than BRACKET_MAX_LEAVES: still shown
    b = board_of(tmp_path).bracket
    assert [c[0] for c in b.columns] == [1, 2]
    assert b.slots == 8 and len([n for n in b.nodes if n.column == 1]) == 4


def test_a_bracket_too_tall_for_a_third_of_the_rotation_waits_for_a_smaller_field(tmp_path):
    """64 teams: rounds 1 and 2 (32 matches, then 16) would take 8 TV pages at four slots a page: no chart until
    round 3 is drawn (16 matches of round 2, then 8: at most four pages); the draw and the results show them all."""
    played_rounds(tmp_path / "64", teams=64, rounds=1)
    board = board_of(tmp_path / "64")
    assert board.bracket is None and len(board.current.tables) == 16 and len(board.results.tables) == 32
    played_rounds(tmp_path / "later", teams=64, rounds=2)
    b = board_of(tmp_path / "later").bracket
    assert b is not None and [c[0] for c in b.columns] == [2, 3]
    assert b.slots == 16 <= BRACKET_MOST_LEAVES


def test_byes_in_every_round_show_in_the_draw_and_the_bracket(tmp_path):
    finished(tmp_path, teams=11, each_round=True)  # 11 → 6 → 3 → 2: a bye in round 1 and in the semi-final
    board = board_of(tmp_path)
    placings, _ = awards(tmp_path)
    b = board.bracket
    assert [c[1] for c in b.columns][-2:] == ["半决赛", "决赛"]
    semi_bye = [n for n in b.nodes if n.column == len(b.columns) - 2 and len(n.teams) == 1]
    assert len(semi_bye) == 1 and semi_bye[0].sources and semi_bye[0].notes == ()
    assert board.placings.notes == placings.notes and board.placings.notes  # one 三等奖 only: said so
    assert len(board.placings.third) == 1
