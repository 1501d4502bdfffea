"""The desk page's 换人 served by `serve` itself, end to end through event.db: before round 1 is drawn it says to
correct the team list instead; once drawn, the organiser finds the pair by 组号, picks the player going out, is
refused without a reason in the server's words, then records the replacement, which the pair list and the log show
and event.db keeps. Screenshots at 1366×768."""

from __future__ import annotations

from shuangsheng.hall import hall
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.ledger.connection import Ledger
from tests.browser.conftest import desk_entered, frozen_clock
from tests.browser.test_show_page import wait_until
from tests.events import new_event
from tests.helpers import cli

PIN = "246810"
TEAMS = [Team(f"{i:02d}", (f"王{i}明", f"李{i}华")) for i in range(1, 9)]


def answered(page) -> None:
    wait_until(page, "!window.deskPage.busy()")


def test_the_desk_replaces_a_player_with_a_reason_once_round_1_is_drawn(tmp_path, browser, screenshots):
    folder = new_event(tmp_path / "event", TEAMS)
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN)
    server.start()
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    frozen_clock(page)
    try:
        desk_entered(page, f"http://127.0.0.1:{server.port}", PIN)
        page.click("#swapButton")
        wait_until(page, "window.deskPage.swap() !== null")
        assert "第1轮还没有抽签：队员有变动请直接改报名表里的姓名" in page.inner_text("#rNote")
        assert page.locator("#rList li").count() == 0 and page.locator("#rSearch").is_hidden()
        page.click("#rClose")

        cli("draw", folder, "--seed", 4)
        page.click("#swapButton")
        wait_until(page, "window.deskPage.swap() !== null && window.deskPage.swap().round === 1")
        assert page.locator("#rList li").count() == 8
        page.fill("#rSearch", "3")  # a 组号 as said aloud
        assert page.locator("#rList li").count() == 1
        page.click('#rList button[data-swap-out="李3华"]')
        assert "第03组：换下 李3华" in page.inner_text("#rWho")
        assert page.locator("#rRound").input_value() == "1"
        page.fill("#rIn", "赵替补")
        page.click("#rSubmit")
        answered(page)
        assert "原因" in page.inner_text("#rErrors")  # the server's 400, said where it was pressed
        page.fill("#rReason", "身体不适")
        page.select_option("#rRound", "2")
        page.screenshot(path=str(screenshots / "desk-replace-1366x768.png"))
        page.click("#rSubmit")
        answered(page)
        assert "已记录：第03组 换下 李3华，换上 赵替补" in page.inner_text("#rDone")
        assert "第03组：换下 李3华，换上 赵替补（从第2轮起；身体不适" in page.inner_text("#rLog")
        assert page.locator("#rForm").is_hidden()
        assert page.locator("#rList li").count() == 1  # the pair as it stands now, under what was recorded
        assert "第03组 王3明、赵替补" in page.inner_text("#rList")
        page.screenshot(path=str(screenshots / "desk-replace-done-1366x768.png"))

        page.fill("#rSearch", "赵替补")  # the new player cannot come in twice: refused in the server's words
        page.evaluate("document.getElementById('rSearch').dispatchEvent(new Event('input'))")
        page.click('#rList button[data-swap-out="王3明"]')
        page.fill("#rIn", "赵替补")
        page.fill("#rReason", "又病了")
        page.click("#rSubmit")
        answered(page)
        assert page.locator("#rErrors").is_visible() and page.inner_text("#rErrors").strip()
        assert not errors, errors
    finally:
        context.close()
        server.stop()
    with Ledger.open(folder) as book:
        made = book.replacements()
    assert [(r.team, r.out, r.into, r.from_round, r.reason) for r in made] == [("03", "李3华", "赵替补", 2, "身体不适")]
