"""The desk page, a table page and the TV served by `serve` itself (shuangsheng/hall/hall.py) on 127.0.0.1, end to end through
event.db: the organiser opens /desk with the PIN and starts the clock, a phone enters hands at table 1, the desk
sees them and gives that table extra minutes with a reason, pauses and resumes; the TV and the phone show the clock
until 时间到. The server's time is injected (make_hall's `clock`) and the pages' timers are Playwright's: no real
waiting."""

from __future__ import annotations

import datetime as dt
import http.client
import json
from types import SimpleNamespace

import pytest

from shuangsheng.hall import hall
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.table.codes import format_code
from tests.browser.conftest import desk_entered, frozen_clock, jump, serving_round_1
from tests.browser.test_show_page import wait_until
from tests.browser.test_table_page import enter_hand, settled, tap
from tests.browser.test_table_page_served import phone_in
from tests.events import draw, start_event

PIN = "246810"


class ServerClock:
    """The PC's time as `serve` reads it, moved on by the test."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 14, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))

    def __call__(self) -> str:
        return self.now.isoformat(timespec="seconds")

    def advance(self, seconds: int) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def served(tmp_path):
    folder, clock = tmp_path / "event", ServerClock()
    with serving_round_1(folder, pin=PIN, clock=clock) as (codes, base):
        yield SimpleNamespace(folder=folder, codes=codes, base=base, clock=clock)


def page_in(browser, size: tuple[int, int]):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="zh-CN")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    frozen_clock(page)
    return context, page


def until(page, step_ms: int, expression: str, tries: int = 8) -> None:
    """Move the page's clock on by `step_ms` (it asks the server that often), in one jump, until `expression`
    holds: answers are real, so one may land after a round of the timers, and the page asks again only once it has
    landed."""
    for _ in range(tries):
        jump(page, step_ms)
        try:
            wait_until(page, expression, timeout=0.5)
            return
        except AssertionError:
            continue
    raise AssertionError(f"not true after {tries} rounds: {expression}")


def desk_polled(desk) -> None:
    before = desk.evaluate("window.deskPage.answers()")
    until(desk, 3_000, f"window.deskPage.answers() > {before}")  # the desk asks every 3 s


def tv_polled(tv, expression: str) -> None:
    until(tv, 1_600, expression)  # the TV asks every 1.5 s


def test_the_desk_runs_a_round_with_a_phone_and_the_tv(served, browser, screenshots):
    desk_context, desk = page_in(browser, (1366, 768))
    phone_context, phone = phone_in(browser)
    frozen_clock(phone)
    tv_context, tv = page_in(browser, (1920, 1080))
    try:
        desk.goto(f"{served.base}/desk")
        assert desk.locator("#pinBox").is_visible()
        desk.fill("#pinInput", "000000")
        desk.click("#pinSubmit")
        wait_until(desk, "document.getElementById('pinError').textContent === '密码不对，请重新输入。'")
        desk.fill("#pinInput", PIN)
        desk.click("#pinSubmit")
        wait_until(desk, "window.deskPage.doc() !== null")
        assert desk.locator("#tiles .tile").count() == 4
        assert desk.locator('.tile[data-table="1"]').bounding_box()["height"] < 768 / 8  # as large as in 64 tables
        assert desk.locator("#tiles .tile .label").all_inner_texts() == ["未开始"] * 4
        assert "已确认 0/4" in desk.inner_text("#title")
        assert desk.inner_text("#clockTime") == "--:--" and desk.inner_text("#clockButton") == "开始计时"

        desk.click("#clockButton")  # the desk starts the round's hour
        wait_until(desk, "document.getElementById('clockButton').textContent === '暂停'")
        assert desk.inner_text("#clockTime") == "60:00"

        phone.goto(f"{served.base}/t/{format_code(served.codes[1])}")  # table 1 plays two hands
        settled(phone)
        assert phone.inner_text("#clockLabel") == "本桌剩余" and phone.inner_text("#clockTime") == "60:00"
        served.clock.advance(600)
        enter_hand(phone, dealer="A", points="35")
        enter_hand(phone, points="40")
        desk_polled(desk)
        tile = desk.locator('.tile[data-table="1"]')
        assert tile.inner_text().split("\n")[1:] == ["第3局进行中", tile.locator(".t2").inner_text(), "14:10"]
        assert tile.locator(".t2").inner_text().endswith("打2") and " 打7 : " in tile.locator(".t2").inner_text()
        assert desk.inner_text("#clockTime") == "50:00"

        tile.click()  # extra minutes for table 1: refused without a reason, in the server's words
        desk.fill("#dMinutes", "5")
        desk.click("#aMinutes")
        wait_until(desk, "!document.getElementById('dErrors').classList.contains('hidden')")
        refused = desk.inner_text("#dErrors")
        assert "原因" in refused, refused
        desk.fill("#dReason", "换牌耽误")
        desk.click("#aMinutes")
        wait_until(desk, "!document.getElementById('dDone').classList.contains('hidden')")
        assert desk.locator("#dErrors").is_hidden()
        assert desk.inner_text("#dLog") == "14:10 加时 5 分钟（原因：换牌耽误） 127.0.0.1"
        assert "加时 5 分钟" in desk.inner_text("#dInfo") and "本桌剩余 55:00" in desk.inner_text("#dInfo")
        desk.screenshot(path=str(screenshots / "served-desk-detail-1366x768.png"))
        desk.click("#dClose")
        assert "加时5分" in tile.inner_text()

        jump(phone, 10_000)  # the phone's next poll: its own time, with the extra minutes
        wait_until(phone, "document.getElementById('clockLabel').textContent === '本桌剩余（含加时5分钟）'")
        assert phone.inner_text("#clockTime") == "55:00"

        tv.goto(f"{served.base}/")
        tv_polled(tv, "!document.getElementById('clock').hidden")
        assert tv.inner_text("#clock-label") == "本轮剩余" and tv.inner_text("#clock-time") == "50:00"
        served.clock.advance(65)
        tv_polled(tv, "document.getElementById('clock-time').textContent === '48:55'")  # each answer afresh

        desk.click("#clockButton")  # paused
        wait_until(desk, "document.getElementById('clockButton').textContent === '继续'")
        assert desk.inner_text("#clockState") == "暂停"
        tv_polled(tv, "document.getElementById('clock-label').textContent === '暂停'")
        jump(phone, 10_000)
        wait_until(phone, "document.getElementById('clockLabel').textContent.startsWith('计时暂停')")
        served.clock.advance(300)  # five minutes paused: not counted
        desk.click("#clockButton")  # and resumed
        wait_until(desk, "document.getElementById('clockButton').textContent === '暂停'")
        assert desk.inner_text("#clockTime") == "48:55"

        served.clock.advance(2935)  # the hour is over for the round (48:55 left); table 1 has 5 minutes more
        desk_polled(desk)
        assert desk.inner_text("#clockTime") == "时间到"
        tv_polled(tv, "document.getElementById('clock-time').textContent === '时间到'")
        tv.screenshot(path=str(screenshots / "served-tv-time-up-1920x1080.png"))
        jump(phone, 10_000)
        wait_until(phone, "document.getElementById('clockTime').textContent === '05:00'")
        served.clock.advance(300)
        jump(phone, 10_000)
        wait_until(phone, "document.getElementById('clockTime').textContent === '时间到'")
        assert phone.inner_text("#clockNote") == "时间到：打完这一局，录入后按“结束”"
        assert phone.get_attribute("#end", "class") == "warn urgent"
        tap(phone, "#end")
        tap(phone, "#end")
        settled(phone)
        desk_polled(desk)
        assert desk.locator('.tile[data-table="1"] .label').inner_text() == "待确认"
        desk.screenshot(path=str(screenshots / "served-desk-1366x768.png"))
        assert desk.errors == [] and phone.errors == [] and tv.errors == []
    finally:
        for context in (desk_context, phone_context, tv_context):
            context.close()


def test_a_64_table_round_from_the_real_server_fits_the_desk(tmp_path, browser, screenshots):
    from tests.browser.test_desk_page import FITS

    folder = tmp_path / "event"
    draw(folder, start_event(folder, teams=128))
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN)
    server.start()
    context, desk = page_in(browser, (1366, 768))
    try:
        desk_entered(desk, f"http://127.0.0.1:{server.port}", PIN, timeout=15)
        assert desk.locator("#tiles .tile").count() == 64
        assert desk.evaluate(FITS) == []
        assert "已确认 0/64" in desk.inner_text("#title") and desk.inner_text("#counts") == "未开始 64"
        desk.click("#clockButton")
        wait_until(desk, "document.getElementById('clockButton').textContent === '暂停'", timeout=15)
        assert desk.evaluate(FITS) == []
        desk.screenshot(path=str(screenshots / "served-desk-64-1366x768.png"))
        assert desk.errors == []
    finally:
        context.close()
        server.stop()


def drop_first_answer(page, pattern: str) -> list[dict]:
    """The first request to `pattern` reaches the server, its answer is lost (the Wi-Fi dropped it); later ones go
    through. Returns the bodies sent, in order."""
    sent: list[dict] = []

    def answer(route, request) -> None:
        sent.append(request.post_data_json)
        if len(sent) == 1:
            route.fetch()  # done at the server …
            route.abort("connectionreset")  # … the answer never arrives
        else:
            route.continue_()

    page.route(pattern, answer)
    return sent


def test_a_desk_press_whose_answer_is_lost_is_stored_once_by_serve(served, browser, screenshots):
    from tests.browser.test_desk_page import SAME_ID

    context, desk = page_in(browser, (1366, 768))
    try:
        minutes = drop_first_answer(desk, "**/api/desk/t/1/minutes")
        clock = drop_first_answer(desk, "**/api/desk/clock")
        desk_entered(desk, f"{served.base}", PIN)
        desk.click("#clockButton")
        # the start's retry answered (a poll may show the clock running before it is)
        until(desk, 3_000, "document.getElementById('clockButton').textContent === '暂停' && !window.deskPage.busy()")
        desk.click('.tile[data-table="1"]')
        desk.fill("#dMinutes", "5")
        desk.fill("#dReason", "换牌耽误")
        desk.click("#aMinutes")
        wait_until(desk, "window.deskPage.sending() !== null && window.deskPage.sending().tries === 1")
        assert "正在用同一个操作编号自动重试" in desk.inner_text("#dRetry")
        until(desk, 3_000, "document.getElementById('dDone').textContent.includes('只记了一次')")
        assert desk.inner_text("#dLog") == "14:00 加时 5 分钟（原因：换牌耽误） 127.0.0.1"
        assert "加时 5 分钟" in desk.inner_text("#dInfo")
        assert len(minutes) == 2 and minutes[0] == minutes[1] and len(clock) == 2 and clock[0] == clock[1]
        with Ledger.open(served.folder) as book:
            draw_id = book.draws()[1].id
            assert [(e.action.value, e.id, e.add) for e in book.table_entries(draw_id, 1)] == [
                ("minutes", minutes[0]["id"], 5)]
            assert [(r.action.value, r.id) for r in book.clock_rows(draw_id)] == [("start", clock[0]["id"])]
        desk.screenshot(path=str(screenshots / "served-desk-detail-retried-1366x768.png"))
        assert desk.errors == []
    finally:
        context.close()

    context, desk = page_in(browser, (1366, 768))  # a page whose presses all carry one id: serve says 409
    try:
        desk.add_init_script(SAME_ID)
        desk_entered(desk, f"{served.base}", PIN)
        desk.click('.tile[data-table="2"]')
        desk.fill("#dReason", "换牌")
        desk.click("#aMinutes")
        until(desk, 3_000, "document.getElementById('dDone').textContent === '已记录：第2桌 加时'")
        desk.fill("#dReason", "复核")
        desk.click("#aReopen")
        until(desk, 3_000, "!document.getElementById('dErrors').classList.contains('hidden')")
        assert desk.inner_text("#dErrors") == (f"操作编号 '{'07' * 16}' 已用于本桌 14:00 的另一项操作，这次没有记录；"
                                               "请刷新页面后再操作")
        assert desk.inner_text("#dLog") == "14:00 加时 5 分钟（原因：换牌） 127.0.0.1"
        assert desk.errors == []
    finally:
        context.close()


def test_the_desk_s_early_end_lets_a_phone_end_before_time_and_the_desk_hears_the_tv_s_sound(served, browser,
                                                                                              screenshots):
    """提前结束 through `serve` (docs/table-api.md 比赛计时): with the clock running, table 2's phone has no 结束 (and
    the server refuses one: 409), the desk allows an early end with a reason, and at the phone's next poll 结束 is
    there and ends the match. Meanwhile the TV's polls say its sound is off until someone taps 开启提示音, and the desk
    says so."""
    from tests.browser.test_show_clock import SOUND_STUBS

    desk_context, desk = page_in(browser, (1366, 768))
    phone_context, phone = phone_in(browser)
    frozen_clock(phone)
    tv_context, tv = page_in(browser, (1920, 1080))
    tv.add_init_script(f"({SOUND_STUBS})()")  # a browser without speakers here: the chime's calls are stubbed
    try:
        desk_entered(desk, f"{served.base}", PIN)
        desk.click("#clockButton")
        wait_until(desk, "document.getElementById('clockButton').textContent === '暂停'")

        tv.goto(f"{served.base}/")
        tv_polled(tv, "!document.getElementById('sound').hidden")  # the clock runs: 开启提示音 shown
        desk_polled(desk)
        chip = desk.locator("#counts .chip.tvsound")
        assert chip.inner_text() == "大屏提示音没有开启：请到电视前点一下“开启提示音”"
        desk.screenshot(path=str(screenshots / "served-desk-tv-sound-off-1366x768.png"))
        tv.click("#sound")
        tv_polled(tv, "document.getElementById('sound').hidden")
        tv_polled(tv, "true")  # one more poll, made with the sound on
        desk_polled(desk)
        assert chip.count() == 0

        phone.goto(f"{served.base}/t/{format_code(served.codes[2])}")
        settled(phone)
        served.clock.advance(600)
        enter_hand(phone, dealer="A", points="35")
        enter_hand(phone, points="40")
        assert phone.locator("#end").is_hidden() and phone.locator("#endNote").is_visible()
        status, refused = posted(served.base, f"/api/t/{served.codes[2]}/end", {"id": "early-try", "mark": 2})
        assert status == 409 and refused["errors"][0]["field"] == "clock" and "还剩 50 分钟" in refused["errors"][0]["message"]
        desk_polled(desk)  # the desk sees the hands (a press on the table as it was before them is refused: 409)
        desk.click('.tile[data-table="2"]')
        desk.fill("#dReason", "乙方一名队员身体不适，比赛负责人同意提前结束")
        desk.click("#aEarly")
        wait_until(desk, "document.getElementById('dDone').textContent === '已记录：第2桌 提前结束'")
        assert desk.inner_text("#dLog") == "14:10 允许提前结束（原因：乙方一名队员身体不适，比赛负责人同意提前结束） 127.0.0.1"
        desk.click("#dClose")
        assert desk.locator('.tile[data-table="2"] .t3').inner_text().startswith("可提前结束")

        jump(phone, 10_000)  # the phone's next poll
        wait_until(phone, "!document.getElementById('endRow').classList.contains('hidden')")
        assert phone.inner_text("#end") == "结束（裁判台已同意提前结束）" and phone.inner_text("#clockTime") == "50:00"
        tap(phone, "#end")
        tap(phone, "#end")
        settled(phone)
        assert "甲方获胜" in phone.locator("#status").inner_text()
        desk_polled(desk)
        assert desk.locator('.tile[data-table="2"] .label').inner_text() == "待确认"
        with Ledger.open(served.folder) as book:
            entries = book.table_entries(book.draws()[1].id, 2)
        assert [e.action.value for e in entries] == ["hand", "hand", "early_end", "end"]
        assert desk.errors == [] and phone.errors == [] and tv.errors == []
    finally:
        for context in (desk_context, phone_context, tv_context):
            context.close()


def posted(base: str, path: str, body: dict) -> tuple[int, dict]:
    """One POST to the served API, as a page sends it."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_a_field_over_99_shows_three_digit_ids_on_the_phone_and_at_the_desk(tmp_path, browser, screenshots):
    """105 teams: the phone's sides and confirm buttons, the desk's tiles and its check-in list say 第007组, as the
    papers print it, while the API keeps '07'."""
    folder = tmp_path / "event"
    with serving_round_1(folder, teams=105, pin=PIN, clock=ServerClock()) as (codes, base):
        with Ledger.open(folder) as book:
            record = book.draws()[1]
        pairing = next(p for p in record.round.pairings if int(p.a) < 100)
        phone_context, phone = phone_in(browser)
        desk_context, desk = page_in(browser, (1366, 768))
        try:
            phone.goto(f"{base}/t/{format_code(codes[pairing.table])}")
            settled(phone)
            side_a = phone.locator("#teamA").inner_text()
            assert f"第{int(pairing.a):03d}组" in side_a, side_a
            phone.screenshot(path=str(screenshots / "served-phone-105.png"))
            desk.goto(f"{base}/desk")
            desk.fill("#pinInput", PIN)
            desk.click("#pinSubmit")
            wait_until(desk, "window.deskPage.doc() !== null")
            tile = desk.locator(f'.tile[data-table="{pairing.table}"]').inner_text()
            assert f"{int(pairing.a):03d} 对 " in tile, tile
            desk.screenshot(path=str(screenshots / "served-desk-105-1366x768.png"))
            desk.click("#swapButton")  # 换人: the pair found by its 组号 typed either way, shown three digits wide
            desk.fill("#rSearch", "7")
            wait_until(desk, "document.querySelectorAll('#rList li').length > 0")
            assert desk.locator("#rList li").first.inner_text().startswith("第007组 ")
            desk.fill("#rSearch", "007")
            wait_until(desk, "document.querySelector('#rList li').textContent.startsWith('第007组 ')")
            desk.screenshot(path=str(screenshots / "served-desk-105-swap.png"))
            out = record.names["07"][1]  # recorded: said, and the pair found again, three digits wide too
            desk.locator(f'#rList button[data-swap-team="07"][data-swap-out="{out}"]').click()
            desk.fill("#rIn", "替补王")
            desk.fill("#rReason", "生病")
            desk.click("#rSubmit")
            wait_until(desk, "!window.deskPage.busy() && document.getElementById('rDone').textContent !== ''")
            assert f"已记录：第007组 换下 {out}，换上 替补王" in desk.inner_text("#rDone")
            assert [li.split(" ")[0] for li in desk.locator("#rList li").all_inner_texts()] == ["第007组"]
            assert phone.errors == [] and desk.errors == []
        finally:
            phone_context.close()
            desk_context.close()
