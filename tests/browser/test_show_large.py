"""The venue display of a large field (issue 33: up to 512 pairs): once round 2 of 256 pairs is drawn, the list
pages were 20 (round 2's draw and seats, round 1's 128 results) and, with the bracket's share, a turn took more
than five minutes. Now the current round's pages come round in every turn and round 1's results take turns. (The
bracket is not shown at this moment: round 1 has 128 matches, more than the TV's cap of 16 — issue 34; the
rotation was written expecting it, and failed once both were merged.)"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from tests.browser.test_show_page import exported, layout_problems
from tests.events import played_rounds

TITLES = """() => [...document.querySelectorAll('#stage .page')].map(p => [p.dataset.title,
  p.classList.contains('bracket')])"""


@pytest.fixture(scope="module")
def field_of_256(tmp_path_factory):
    """256 pairs: round 1 played and scored (128 results), round 2 drawn, as `show --export` writes it."""
    folder = tmp_path_factory.mktemp("big256") / "event"
    played_rounds(folder, teams=256, rounds=1)
    target = folder.parent / "大屏.html"
    assert CliRunner().invoke(app, ["show", str(folder), "--export", str(target)]).exit_code == 0
    return target


def test_a_large_field_shows_the_current_round_in_every_turn_and_keeps_the_turn_short(browser, field_of_256,
                                                                                      screenshots):
    page = exported(browser, field_of_256, (1920, 1080))
    pages = page.evaluate(TITLES)
    current = {i for i, (title, bracket) in enumerate(pages) if title.startswith("第2轮") and not bracket}
    bracket = {i for i, (_, is_bracket) in enumerate(pages) if is_bracket}
    earlier = set(range(len(pages))) - current - bracket
    assert len(current) >= 6 and len(earlier) >= 10  # a turn of every page would be 5 minutes or more
    assert not bracket  # round 1 has 128 matches: the TV shows no bracket yet (render.venue.BRACKET_MOST_LEAVES)
    shown = [page.evaluate("showDisplay.current()")]
    for _ in range(4 * len(pages)):
        page.clock.run_for(12_000)
        shown.append(page.evaluate("showDisplay.current()"))
    assert set(shown) == set(range(len(pages)))  # every page comes round in time
    turn = len(current) + max(1, len(current) // 2)  # a turn: the current pages, half as many earlier ones
    for k in current:  # each page of the current round comes back within a turn
        seen = [n for n, i in enumerate(shown) if i == k]
        assert seen[0] <= turn and all(b - a <= turn for a, b in zip(seen, seen[1:], strict=False)), (k, shown)
    shares = {name: sum(i in group for i in shown) / len(shown) for name, group in (("current", current),
                                                                                     ("earlier", earlier))}
    assert shares["current"] > shares["earlier"], shares  # the largest share
    assert layout_problems(page) == []
    page.screenshot(path=str(screenshots / "draw-256-1920.png"))
    page.close()
