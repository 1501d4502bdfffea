"""The venue display to a typesetter's sign-off, second round (issue 34): in a round's results the levels and 晋级
were centred row by row, so the colons wandered about 60 px down a page (128 teams, round 1 scored); the list of
who goes on was cut in two boxes each labelled 晋级, saying neither how many nor that the second went on from the
first. Measured in a real browser at 720p, 1080p and 4K."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from tests.browser.conftest import ALL_SIZES
from tests.browser.test_show_page import exported, layout_problems
from tests.events import played_rounds


def export(folder) -> object:
    target = folder.parent / f"{folder.name}.html"
    assert CliRunner().invoke(app, ["show", str(folder), "--export", str(target)]).exit_code == 0
    return target


@pytest.fixture(scope="module")
def round_one_of(tmp_path_factory):
    """Round 1 scored and nothing drawn after it: 128 teams (64 tables), and 256 (128 tables: 100桌 and on)."""
    made = {}
    for teams in (128, 256):
        folder = tmp_path_factory.mktemp(f"r1-{teams}") / "event"
        played_rounds(folder, teams=teams, rounds=1, draw_next=False)
        made[teams] = export(folder)
    return made


def opened(browser, target, size: tuple[int, int]):
    page = exported(browser, target, size)
    page.evaluate("document.fonts.ready.then(() => true)")
    return page


# The middle of each result's colon (the glyph itself, found in the text of the levels), per page of results.
COLONS = """() => [...Array(showDisplay.pages()).keys()].map(i => { showDisplay.show(i);
  const shown = document.querySelector('#stage .page:not([hidden])');
  return [...shown.querySelectorAll('.result .score')].map(score => {
    const walker = document.createTreeWalker(score, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(':');
      if (at < 0) continue;
      const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + 1);
      const r = range.getBoundingClientRect(); return r.left + r.width / 2;
    }
    return null; }); }).filter(xs => xs.length)"""


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_colons_of_a_results_page_stand_in_one_column(browser, round_one_of, size, screenshots):
    page = opened(browser, round_one_of[128], size)
    pages = page.evaluate(COLONS)
    assert sum(len(xs) for xs in pages) == 64 and None not in sum(pages, [])
    assert all(max(xs) - min(xs) <= 2 for xs in pages), [(min(xs), max(xs)) for xs in pages]
    assert layout_problems(page) == []
    page.evaluate("showDisplay.show(0)")
    page.screenshot(path=str(screenshots / f"colons-128-{size[0]}.png"))
    page.close()


def test_the_colons_stay_in_their_column_where_the_tables_reach_100(browser, round_one_of, screenshots):
    """128 tables: 99桌 and 100桌 on one page, the badge of three digits as wide as the one of two."""
    page = opened(browser, round_one_of[256], (1920, 1080))
    pages = page.evaluate(COLONS)
    assert sum(len(xs) for xs in pages) == 128 and None not in sum(pages, [])
    assert all(max(xs) - min(xs) <= 2 for xs in pages), [(min(xs), max(xs)) for xs in pages]
    assert layout_problems(page) == []
    page.close()


ADVANCING = """() => [...Array(showDisplay.pages()).keys()].flatMap(i => { showDisplay.show(i);
  const shown = document.querySelector('#stage .page:not([hidden])');
  return [...shown.querySelectorAll('.item.advancing')].map(a => ({page: i, label: a.querySelector('.label').textContent,
    ids: [...a.querySelectorAll('.chip')].map(c => c.textContent)})); })"""


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_who_goes_on_is_headed_with_how_many_and_its_second_part_says_continued(browser, round_one_of, size,
                                                                                 screenshots):
    page = opened(browser, round_one_of[128], size)
    parts = page.evaluate(ADVANCING)
    assert [p["label"] for p in parts] == ["晋级下一轮（64组）", "晋级下一轮（续）"]
    ids = [i for p in parts for i in p["ids"]]
    assert len(ids) == 64 and ids == sorted(ids) and all(re.fullmatch(r"第\d{3}组", i) for i in ids)
    assert layout_problems(page) == []
    page.evaluate(f"showDisplay.show({parts[-1]['page']})")
    page.screenshot(path=str(screenshots / f"advancing-128-{size[0]}.png"))
    page.close()
