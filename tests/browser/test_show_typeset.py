"""The venue display to a typesetter's sign-off (issue 34, item 7): a lost card's 未逐局核对 broke one character a
line in the results' middle column (cards 3–4 times as tall, 4–5 tables a page, a 128-team round on 16 pages);
the bracket's winners had their players wrap onto two lines beside the bold ✓ and id, and its levels stood bare
("3", "J") beside 过A and A级. Measured in a real browser at 720p, 1080p and 4K."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.knockout.teams import Team
from tests.browser.conftest import ALL_SIZES
from tests.browser.test_show_page import exported, layout_problems
from tests.events import finished_with_lost_cards, lost_round_one, new_event, play_to_the_final


def opened(browser, target, size: tuple[int, int]):
    """The exported page once laid out again in its real fonts (`document.fonts.ready`: the page measures its
    lines then; before, a fallback face may be wider)."""
    page = exported(browser, target, size)
    page.evaluate("document.fonts.ready.then(() => true)")
    return page


def export(folder) -> object:
    target = folder.parent / f"{folder.name}.html"
    assert CliRunner().invoke(app, ["show", str(folder), "--export", str(target)]).exit_code == 0
    return target


@pytest.fixture(scope="module")
def lost_128(tmp_path_factory):
    """128 teams, round 1: every one of the 64 cards lost, each table entered by its 终局 levels only."""
    folder = tmp_path_factory.mktemp("lost128") / "event"
    lost_round_one(folder, teams=128)
    return export(folder)


@pytest.fixture(scope="module")
def brackets(tmp_path_factory):
    """13 teams played to the final, every other card lost: ids of two digits, and of three (088–100: as wide as
    in a field of 128, whose bracket is the same three columns)."""
    made = {}
    for digits, first in ((2, 1), (3, 88)):
        folder = tmp_path_factory.mktemp(f"end13-{digits}") / "event"
        finished_with_lost_cards(folder, teams=13, first=first)
        made[digits] = export(folder)
    return made


RESULT_PAGES = """() => [...Array(showDisplay.pages()).keys()].map(i => { showDisplay.show(i);
  const shown = document.querySelector('#stage .page:not([hidden])');
  const rows = [...shown.querySelectorAll('.item.result')];
  const flags = [...shown.querySelectorAll('.result .flag')];
  const style = getComputedStyle(shown), segment = shown.querySelector('.segment.results');
  return {rows: rows.length, heights: rows.map(r => r.getBoundingClientRect().height),
          room: shown.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
          gap: segment ? parseFloat(getComputedStyle(segment).rowGap) : 0,
          flags: flags.map(f => [f.textContent, f.getClientRects().length, f.getBoundingClientRect().height,
                                 parseFloat(getComputedStyle(f).fontSize)]),
          wrapped: [...shown.querySelectorAll('.result .players')].filter(p => p.getClientRects().length > 1).length}; })"""


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lost_cards_keep_their_mark_on_one_line_and_a_page_its_twelve_tables(browser, lost_128, size, screenshots):
    page = opened(browser, lost_128, size)
    pages = [p for p in page.evaluate(RESULT_PAGES) if p["rows"]]
    assert sum(p["rows"] for p in pages) == 64
    assert len(pages) <= 6 and all(p["rows"] >= 11 for p in pages[:5])  # 16 pages of 4 or 5 before
    tallest, first = max(h for p in pages for h in p["heights"]), pages[0]
    assert 12 * tallest + 11 * first["gap"] <= first["room"]  # a page holds 12 (the pages are evened out: 11 here)
    flags = [f for p in pages for f in p["flags"]]
    assert len(flags) == 64 and all(text == "未逐局核对" for text, _, _, _ in flags)
    assert all(lines == 1 and height < 1.6 * font for _, lines, height, font in flags), flags  # one line each
    heights = [h for p in pages for h in p["heights"]]
    assert max(heights) < 1.1 * min(heights)  # a card with the mark is as tall as one without
    assert all(p["wrapped"] == 0 for p in pages)
    assert layout_problems(page) == []
    page.screenshot(path=str(screenshots / f"lost-128-{size[0]}.png"))
    page.close()


BRACKET_LINES = """() => [...document.querySelectorAll('#stage .page.bracket')].flatMap((p, i) => { showDisplay.show(
    [...document.querySelectorAll('#stage .page')].indexOf(p));
  return [...p.querySelectorAll('.node .line')].map(l => { const who = l.querySelector('.who');
    const level = l.querySelector('.level');
    return {page: i, wrapping: p.classList.contains('wrapping'), text: l.textContent,
            whoLines: who.getBoundingClientRect().height / parseFloat(getComputedStyle(who).lineHeight),
            over: who.scrollWidth > who.clientWidth + 1, level: level ? level.textContent : null}; }); })"""

LEVEL = re.compile(r"(?:[2-9]|10|[JQKA])级|过A|弃权|轮空")


@pytest.mark.parametrize("size", ALL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("digits", [2, 3])
def test_the_bracket_keeps_each_team_on_one_line_and_its_levels_say_ji(browser, brackets, digits, size, screenshots):
    page = opened(browser, brackets[digits], size)
    lines = page.evaluate(BRACKET_LINES)
    assert len(lines) >= 14  # the last three rounds: 4 + 2 + 1 matches
    assert all(re.match(rf"✓?第\d{{{digits}}}组", line["text"]) for line in lines)
    assert not any(line["wrapping"] for line in lines)
    assert all(line["whoLines"] < 1.5 and not line["over"] for line in lines), [line for line in lines if line["whoLines"] >= 1.5]
    assert all(LEVEL.fullmatch(line["level"]) for line in lines), [line["level"] for line in lines]
    assert sum(line["level"].endswith("级") for line in lines) >= 7  # the losers' levels at least, as levels
    pages = {line["page"] for line in lines}
    assert len(pages) == 1  # the marked nodes stay one size: the chart on one page (six pages before)
    flags = page.evaluate("[...document.querySelectorAll('#stage .page.bracket .node-flag')].map(f => "
                          "[f.textContent, f.getBoundingClientRect().height / parseFloat(getComputedStyle(f).lineHeight)])")
    assert flags and all(text == "未逐局核对" and rows < 1.5 for text, rows in flags)
    assert layout_problems(page) == []
    page.evaluate(f"showDisplay.show({page.evaluate('showDisplay.pages()') - 1})")
    page.screenshot(path=str(screenshots / f"bracket-13-{digits}-{size[0]}.png"))
    page.close()


LONG_NAMES = (  # Latin names of long words, CJK names longer than a line, and the two side by side
    ("Alexandrina Petrovna", "王五"), ("欧阳·买买提江·艾尼瓦尔", "阿卜杜热合曼·买买提依明"), ("Christopher Welling", "Maximiliano"),
    ("Alexandrina", "Konstantinopolsky"), ("王六", "Bartholomew Higgins"), ("Wilhelmina", "Evangelina"),
    ("Anastasiya Ivanova", "李七"), ("上官婉儿", "慕容·古丽娜尔·艾尼瓦尔"), ("Jacqueline Dubois", "Guinevere"),
    ("Marguerite", "Seraphina Moreau"), ("赵八", "Benedict Cumberland"), ("Rosalind", "Ottoline Morrell"),
    ("司马·阿依古丽·买买提", "Konstantinovskaya"),
)


@pytest.fixture(scope="module")
def long_names(tmp_path_factory):
    """13 pairs of long names (Latin and CJK) played to the final: the bracket's players wrap."""
    folder = tmp_path_factory.mktemp("long13") / "event"
    new_event(folder, [Team(f"{i:02d}", pair) for i, pair in enumerate(LONG_NAMES, start=1)])
    play_to_the_final(folder, random.Random(7))
    return export(folder)


WHO_LINES = """() => [...document.querySelectorAll('#stage .page.bracket')].flatMap(p => { showDisplay.show(
    [...document.querySelectorAll('#stage .page')].indexOf(p));
  return [...p.querySelectorAll('.node .who')].map(w => {
    const lines = [], walker = document.createTreeWalker(w, NodeFilter.SHOW_TEXT);
    let node, top = null;
    while ((node = walker.nextNode())) for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getBoundingClientRect(), ch = node.data[i];
      if (!ch.trim()) { if (lines.length) lines[lines.length - 1] += ch; continue; }
      if (top === null || rect.top > top + rect.height / 2) { lines.push(ch); top = rect.top; }
      else lines[lines.length - 1] += ch;
    }
    return {text: w.textContent, lines, over: w.scrollWidth > w.clientWidth + 1,
            size: parseFloat(getComputedStyle(w).fontSize), wrapping: p.classList.contains('wrapping')}; }); })"""

CLOSING = "、，。：；！？）》”’·"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_long_names_on_the_bracket_break_between_words_never_before_a_closing_mark(browser, long_names, size,
                                                                                   screenshots):
    """Players too long for their line wrap at a space or after 、 (between CJK characters when a name is longer
    than the line), never with 、 starting a line and never inside a Latin word ("Alexandrin / a"); a word longer
    than the line is set smaller until it fits."""
    page = opened(browser, long_names, size)
    names = page.evaluate(WHO_LINES)
    assert len(names) >= 14 and any(n["wrapping"] for n in names)
    wrapped = [n for n in names if len(n["lines"]) > 1]
    assert wrapped
    for n in names:
        assert not n["over"], n
        assert not any(line[0] in CLOSING for line in n["lines"]), n
        for before, after in itertools.pairwise(n["lines"]):
            assert not (re.search(r"[A-Za-z]$", before) and re.match(r"[A-Za-z]", after)), n  # a word cut in two
        assert n["size"] >= 0.6 * size[1] * 0.035, n  # set smaller only as far as a word needs
    assert layout_problems(page) == []
    page.evaluate(f"showDisplay.show({page.evaluate('showDisplay.pages()') - 1})")
    page.screenshot(path=str(screenshots / f"bracket-long-{size[0]}.png"))
    page.close()
