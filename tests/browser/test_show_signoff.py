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
from tests.events import finished, played_rounds


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


@pytest.fixture(scope="module")
def final_of_128(tmp_path_factory):
    """128 teams played to the final: the bracket's last three rounds, ids of three digits."""
    folder = tmp_path_factory.mktemp("end128") / "event"
    finished(folder, teams=128)
    return export(folder)


# Per bracket node: how far its text (the boxes of its glyphs' lines) stands from the node's left and right edges,
# and the node's font size.
NODE_MARGINS = """() => [...document.querySelectorAll('#stage .page.bracket')].flatMap(p => {
  showDisplay.show([...document.querySelectorAll('#stage .page')].indexOf(p));
  return [...p.querySelectorAll('.node')].map(n => { const box = n.getBoundingClientRect(), range = document.createRange();
    let left = Infinity, right = -Infinity;
    const walker = document.createTreeWalker(n, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.data.trim() || t.parentNode.closest('.node-tag')) continue;
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) { left = Math.min(left, r.left); right = Math.max(right, r.right); }
    }
    return [n.textContent.trim().slice(0, 12), left - box.left, box.right - right,
            parseFloat(getComputedStyle(n).fontSize)]; }); })"""


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_bracket_nodes_keep_their_text_off_the_border(browser, final_of_128, size, screenshots):
    """过A in the final and round 5 stood about 4 px from the node's border at 1080p: now 0.3 em inside at every size,
    the players still on one line."""
    page = opened(browser, final_of_128, size)
    nodes = page.evaluate(NODE_MARGINS)
    assert len(nodes) >= 7  # round 5's four matches, the semi-finals, the final
    assert all(min(left, right) >= 0.29 * font for _, left, right, font in nodes), nodes
    assert not page.evaluate("[...document.querySelectorAll('#stage .page.bracket')].some(p => "
                             "p.classList.contains('wrapping'))")
    assert layout_problems(page) == []
    page.evaluate(f"showDisplay.show({page.evaluate('showDisplay.pages()') - 1})")
    page.screenshot(path=str(screenshots / f"bracket-128-{size[0]}.png"))
    page.close()
