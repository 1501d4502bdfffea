"""The table page served by `serve` itself (shuangsheng/hall/hall.py), end to end on 127.0.0.1: a phone opens /t/<code>,
enters hands through the real table API into event.db, 结束, both teams confirm; a second phone sees the same."""

from __future__ import annotations

import pytest

from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.table.codes import format_code
from shuangsheng.table.log import fold
from tests.browser.conftest import serving_round_1
from tests.browser.test_table_page import WECHAT_UA, enter_hand, levels, settled, tap


@pytest.fixture
def served(tmp_path):
    with serving_round_1(tmp_path / "event") as (codes, base):
        yield tmp_path / "event", codes, base


def phone_in(browser):
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
                                  user_agent=WECHAT_UA, locale="zh-CN")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return context, page


def hands_in_db(folder, table: int) -> list[int]:
    with Ledger.open(folder) as book:
        record = book.draws()[1]
        entries = book.table_entries(record.id, table)
    return [e.hand for e in fold(entries).hands]


def test_a_match_through_the_real_server(served, browser, screenshots):
    folder, codes, base = served
    context, phone = phone_in(browser)
    try:
        phone.goto(f"{base}/t/{format_code(codes[1]).lower()}")  # as typed: hyphen, lower case
        settled(phone)
        assert phone.locator("#title").inner_text() == "第1轮 第1桌"
        enter_hand(phone, dealer="A", points="35")
        enter_hand(phone, points="40")
        assert levels(phone) == ("打 7", "打 2")
        assert hands_in_db(folder, 1) == [1, 2]
        tap(phone, "#end")
        tap(phone, "#end")
        settled(phone)
        assert "获胜" in phone.locator("#status").inner_text()
        tap(phone, "#confirmA")
        settled(phone)
        tap(phone, "#confirmB")
        settled(phone)
        assert "已锁定" in phone.locator("#status").inner_text()
        phone.screenshot(path=str(screenshots / "served-locked.png"))
        assert phone.errors == []
    finally:
        context.close()


def test_a_page_for_no_code_at_all_is_404_and_a_wrong_code_says_so(served, browser):
    _, _, base = served
    context, phone = phone_in(browser)
    try:
        assert phone.goto(f"{base}/t/not-a-code").status == 404
        assert phone.goto(f"{base}/t/ZZZZ-ZZZZ").status == 200
        phone.wait_for_selector("text=录分码无效或已过期", timeout=8000)
    finally:
        context.close()
