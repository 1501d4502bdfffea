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
        tap(phone, "#end")  # no round clock: the page asks whether the referee called time
        tap(phone, "#endYes")
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


def test_an_earlier_hand_corrected_on_the_phone_and_the_later_ones_entered_again_prefilled(served, browser,
                                                                                           screenshots):
    """改这一局 on hand 1: typed as B winning the deal, A in fact kept it. Hands 2 and 3 (B dealing) no longer stand:
    the page says so and shows hand 2 as it was typed, for the player to check and send."""
    folder, codes, base = served
    context, phone = phone_in(browser)
    try:
        phone.goto(f"{base}/t/{format_code(codes[1]).lower()}")
        settled(phone)
        enter_hand(phone, dealer="A", points="85")
        enter_hand(phone, points="40")
        enter_hand(phone, points="45")
        assert hands_in_db(folder, 1) == [1, 2, 3]
        phone.locator('#hands button[data-amend="1"]').tap()
        assert "改第1局" in phone.locator("#formTitle").inner_text()
        assert phone.locator("#pointsValue").inner_text() == "85"  # as typed
        phone.screenshot(path=str(screenshots / "amend-open.png"), full_page=True)
        for digit in "35":
            tap(phone, f'#pad button[data-key="{digit}"]')
        tap(phone, "#submit")
        settled(phone)
        notice = phone.locator("#taken").inner_text()
        assert "第1局已改好" in notice and "第2局起的 2 局不再成立" in notice
        assert hands_in_db(folder, 1) == [1]
        assert phone.locator("#formTitle").inner_text().startswith("第2局")
        assert phone.locator("#pointsValue").inner_text() == "40"  # hand 2 as typed, waiting to be checked and sent
        phone.screenshot(path=str(screenshots / "amend-refill.png"), full_page=True)
        tap(phone, "#submit")
        settled(phone)
        assert phone.locator("#pointsValue").inner_text() == "45"  # then hand 3
        tap(phone, "#submit")
        settled(phone)
        assert hands_in_db(folder, 1) == [1, 2, 3]
        phone.locator('#hands button[data-amend="2"]').tap()
        tap(phone, "#cancelAmend")  # changed her mind: back to entering hand 4
        assert phone.locator("#formTitle").inner_text().startswith("第4局")
        assert phone.errors == []
    finally:
        context.close()
