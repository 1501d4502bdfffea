"""The console's pages over a field over 99 (issue 34 item 4): every 组号 they show is three digits wide, as the
papers print it, while the forms and the records keep the canonical id."""

from __future__ import annotations

from pathlib import Path

import pytest

from shuangsheng.hall.console_work import draw_facts, results_grid
from shuangsheng.usecases.score import score
from tests.events import played_rounds


@pytest.fixture(scope="module")
def wide(tmp_path_factory) -> Path:
    """105 teams, round 1 played and scored (no round 2 drawn yet)."""
    folder = tmp_path_factory.mktemp("wide") / "event"
    played_rounds(folder, teams=105, rounds=1, draw_next=False)
    return folder


def test_the_draw_page_lists_the_pool_three_digits_wide(wide):
    facts = draw_facts(wide)
    assert facts.next_number == 2 and facts.pool
    assert all(len(facts.shown[t]) == 3 for t in facts.pool)
    small = next(t for t in facts.pool if len(t) == 2)
    assert facts.shown[small] == f"0{small}" and facts.teams[small].startswith(f"第0{small}组（")


def test_the_round_grid_shows_the_round_workbooks_width(wide):
    grid = results_grid(score(wide, 1).score)
    ids = [cell for row in grid.rows for cell in row.cells[1:3]]
    assert ids and all(len(cell) == len("第007组") for cell in ids)



def test_the_correction_page_names_teams_as_printed(wide):
    from shuangsheng.hall.console_work import correct_facts

    facts = correct_facts(wide, None)
    assert facts["shown"]["07"] == "007" and facts["shown"]["105"] == "105" and len(facts["shown"]) == 105
