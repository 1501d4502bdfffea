"""shuangsheng.render.results: what a scored round shows per table, gathered from the engine, reader and knockout."""

from __future__ import annotations

import random

from shuangsheng.game.levels import Level, Side
from shuangsheng.game.simulate import simulate_match
from shuangsheng.render.results import NextStep, round_results
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_path
from shuangsheng.storage.workbook.problems import Cell
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.draw import draw_next
from shuangsheng.usecases.score import score
from tests.events import every_status_round, new_event


def test_every_status_is_taken_from_the_score(tmp_path):
    report = every_status_round(tmp_path)
    results = round_results(report.score, report.teams, digits=report.digits)
    assert results.number == 1 and results.title == "第1轮" and not results.final
    by_table = {t.table: t for t in results.tables}
    decided = by_table[1]
    match = report.score.matches[0]
    assert decided.status in (TableStatus.DECIDED, TableStatus.PASSED_A)
    assert decided.levels == match.result.levels and decided.winner == match.outcome.winner
    tied = by_table[2]
    assert tied.status is TableStatus.NEEDS_PLAYOFF and tied.winner is None and tied.tied_at_time
    assert tied.playoff.level is Level.THREE and tied.playoff.first_dealer is Side.B and tied.playoff.played == 0
    assert tied.hands == 3 and tied.playoff_hands == 0
    walkover = by_table[3]
    assert walkover.status is TableStatus.WALKOVER and walkover.forfeit is Side.B and walkover.winner == walkover.a
    invalid = by_table[4]
    assert invalid.status is TableStatus.INVALID and invalid.winner is None
    assert [(e.sheet, e.cell) for e in invalid.errors] == [("第4桌", Cell(7, 4))]
    assert invalid.errors[0].where == "round-1.xlsx 第4桌!D7"
    assert not results.decided and results.next_step is NextStep.FIX
    assert results.advancing == (decided.winner, walkover.a)
    assert any(b.startswith("第2桌：需加赛") for b in results.blockers)


def test_next_step_follows_the_round(tmp_path):
    new_event(tmp_path, 2)
    draw_next(tmp_path, seed=1)
    results = round_results(score(tmp_path).score, {}, digits=2)
    assert results.next_step is NextStep.ENTER and results.final and results.title == "第1轮（决赛）"
    workbook.fill_round(round_path(tmp_path, 1), {1: simulate_match(random.Random(2))[0]})
    results = round_results(score(tmp_path).score, {}, digits=2)
    assert results.decided and results.next_step is NextStep.AWARDS and len(results.advancing) == 1


def test_byes_advance_and_the_next_step_is_the_draw(tmp_path):
    new_event(tmp_path, 3)
    drawn = draw_next(tmp_path, seed=5).round
    workbook.fill_round(round_path(tmp_path, 1), {1: simulate_match(random.Random(4))[0]})
    report = score(tmp_path)
    results = round_results(report.score, report.teams, digits=report.digits)
    assert results.byes == drawn.byes and len(drawn.byes) == 1
    assert results.decided and results.next_step is NextStep.DRAW
    assert results.advancing == report.score.advancement.advancing and drawn.byes[0] in results.advancing
