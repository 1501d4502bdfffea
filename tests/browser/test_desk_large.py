"""The desk's overview of a large field (issue 33: up to 512 pairs, 256 tables): 32 columns of tiles made every
table number unreadable on 1366×768 ("10", "12…" for 100–128). Now at most 16 columns: 128 tables on one screen,
more in rows below that scroll, each number whole."""

from __future__ import annotations

import pytest

from tests.browser import desk_fixtures as f
from tests.browser.test_desk_page import enter_pin, loaded, open_desk

NUMBERS = """() => [...document.querySelectorAll('#tiles .tile .no')].map(n => [n.textContent,
  n.scrollWidth <= n.clientWidth + 1 && n.getBoundingClientRect().width > 0])"""


@pytest.mark.parametrize(("tables", "scrolls"), [(128, False), (256, True)])
def test_every_table_number_is_whole_and_the_overview_scrolls_past_128_tables(browser, screenshots, tables, scrolls):
    document = f.round_document()
    document["tables"] = [f.table(n, ("playing", "confirmed", "to_confirm")[n % 3]) for n in range(1, tables + 1)]
    document["counts"]["total"] = tables
    context, page = open_desk(browser, (1366, 768), fake=f.FakeDesk(document))
    enter_pin(page)
    loaded(page)
    numbers = page.evaluate(NUMBERS)
    assert [n for n, _ in numbers] == [str(n) for n in range(1, tables + 1)]
    assert all(whole for _, whole in numbers), [n for n, whole in numbers if not whole]
    box = page.evaluate("(() => { const b = document.getElementById('tiles'); return [b.scrollHeight, b.clientHeight,"
                        " getComputedStyle(b).gridTemplateColumns.split(' ').length]; })()")
    assert box[2] == 16 and (box[0] > box[1] + 1) == scrolls, box
    assert page.evaluate("document.documentElement.scrollHeight") <= 768  # the page itself does not scroll
    page.screenshot(path=str(screenshots / f"desk-{tables}-1366.png"))
    assert page.errors == []
    context.close()
