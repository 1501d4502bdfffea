"""The desk page's 报到 served by `serve` itself before round 1 is drawn, end to end through event.db: the organiser
finds pairs by 组号 or name and marks them arrived, takes one back with a reason, confirms the absent ones 弃权 once
the late time has come (the server's time injected), closes, and round 1 is drawn from who came. Screenshots at
1366×768."""

from __future__ import annotations

import datetime as dt

from shuangsheng.hall import hall
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.ledger.connection import Ledger
from tests.browser.conftest import desk_entered, frozen_clock
from tests.browser.test_show_page import wait_until
from tests.events import new_event
from tests.helpers import cli

PIN = "246810"
TEAMS = [*(Team(f"{i:02d}", (f"王{i}明", f"李{i}华"), unit="化学系" if i % 3 == 0 else "") for i in range(1, 9)),
         Team("09", ("候补甲", "候补乙"), unit="物理系", reserve=True)]


class ServerClock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 3, 15, 8, 20, tzinfo=dt.timezone(dt.timedelta(hours=8)))

    def __call__(self) -> str:
        return self.now.isoformat(timespec="seconds")


def answered(page) -> None:
    wait_until(page, "!window.deskPage.busy()")


def press_row(page, team: str, word: str) -> None:
    page.locator(f'#cList button[data-team="{team}"]', has_text=word).click()
    answered(page)


def test_the_desk_checks_pairs_in_before_round_1_and_round_1_is_drawn_from_who_came(tmp_path, browser, screenshots):
    folder, clock = new_event(tmp_path / "event", TEAMS), ServerClock()
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN, clock=clock)
    server.start()
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    frozen_clock(page)
    try:
        desk_entered(page, f"http://127.0.0.1:{server.port}", PIN)
        assert "各组到场时，点上方“报到”" in page.inner_text("#tiles")
        page.click("#checkinButton")
        wait_until(page, "window.deskPage.checkin() !== null")
        assert "报到还没有开始：已报到 0/8 组" in page.inner_text("#cSummary")
        assert page.locator("#cList li").count() == 9 and page.locator("#cCloseCheckin").is_hidden()

        page.fill("#cSearch", "3")  # a 组号 as said aloud: Enter marks the one pair found
        page.press("#cSearch", "Enter")
        answered(page)
        assert "已记录：第03组 报到" in page.inner_text("#cDone")
        for team in ("01", "02", "04", "05", "06"):
            page.fill("#cSearch", team)
            press_row(page, team, "报到")
        page.fill("#cSearch", "候补")  # by name
        assert page.locator("#cList li").count() == 1
        press_row(page, "09", "报到")
        assert "还没有报到（2组）：07、08" in page.inner_text("#cWaiting")

        page.fill("#cSearch", "06")  # taken back: refused without a reason, in the server's words
        press_row(page, "06", "撤销报到")
        assert "撤销报到须写明原因" in page.inner_text("#cErrors")
        page.fill("#cReason", "点错了组")
        press_row(page, "06", "撤销报到")
        assert "还没有报到（3组）：06、07、08" in page.inner_text("#cWaiting")
        page.fill("#cSearch", "")
        page.evaluate("document.getElementById('cSearch').dispatchEvent(new Event('input'))")
        assert page.locator('#cList button[data-do="forfeit"]').count() == 0  # 8:20: not yet late
        page.screenshot(path=str(screenshots / "desk-checkin-1366x768.png"))

        clock.now = clock.now.replace(minute=41)  # past 8:40: the absent may be confirmed 弃权
        page.click("#cClose")
        page.click("#checkinButton")
        wait_until(page, "window.deskPage.checkin().late === true")
        for team in ("06", "07", "08"):
            press_row(page, team, "判弃权")
        assert "弃权" in page.locator('#cList li', has_text="第07组").inner_text()
        page.click("#cCloseCheckin")
        answered(page)
        assert "报到已结束" in page.inner_text("#cSummary")
        assert "第1轮按报到抽签：6 组；弃权 06、07、08；候补补入 09" in page.inner_text("#cWaiting")
        page.screenshot(path=str(screenshots / "desk-checkin-closed-1366x768.png"))
        assert not errors, errors
    finally:
        context.close()
        server.stop()
    cli("draw", folder, "--seed", 4)
    with Ledger.open(folder) as book:
        record = book.draws()[1]
    assert record.round.pool == ("01", "02", "03", "04", "05", "09")
    assert record.field is not None and record.field.absent == ("06", "07", "08")


def test_over_99_pairs_the_closed_check_in_names_the_absent_and_the_reserves_three_digits_wide(tmp_path, browser):
    """issue 34 item 4: 组号 three digits wide wherever they are shown in a field over 99 — the line under the
    closed check-in too (it listed the absent as 101、102 but the reserve as 09 beside 第009组 in the list)."""
    teams = [*(Team(f"{i:02d}", (f"王{i}明", f"李{i}华")) for i in range(1, 103) if i != 9),
             Team("09", ("候补甲", "候补乙"), reserve=True)]
    folder, clock = new_event(tmp_path / "event", teams), ServerClock()
    cli("checkin", folder, "--arrived", ",".join(str(i) for i in range(1, 101)))
    clock.now = clock.now.replace(minute=41)  # past 8:40: the absent may be confirmed 弃权
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN, clock=clock)
    server.start()
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    page = context.new_page()
    try:
        desk_entered(page, f"http://127.0.0.1:{server.port}", PIN)
        page.click("#checkinButton")
        wait_until(page, "window.deskPage.checkin() !== null && window.deskPage.checkin().late === true")
        for team in ("101", "102"):
            page.fill("#cSearch", team)
            press_row(page, team, "判弃权")
        page.click("#cCloseCheckin")
        answered(page)
        assert "第1轮按报到抽签：100 组；弃权 101、102；候补补入 009" in page.inner_text("#cWaiting")
    finally:
        context.close()
        server.stop()
