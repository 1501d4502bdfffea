"""The desk page (/desk) in a real Chromium against the desk API of the contract, answered by `page.route` from
documents shaped as `serve` gives them (tests/browser/desk_fixtures.py): 64 tables on a 1366×768 screen without
scrolling, the PIN asked once (again after a 401, a minute's wait after 429), an action with and without its
reason, the clock, a lost server, names kept as text, screenshots."""

from __future__ import annotations

import re

import pytest

from shuangsheng.hall.console import DESK_CSP
from tests.browser.conftest import CLOCK_START, frozen_clock
from tests.browser.desk_fixtures import EVIL, ORIGIN, PIN, FakeDesk, desk_page, round_document
from tests.browser.test_show_page import wait_until

DESK = f"{ORIGIN}/desk"


def open_desk(browser, size=(1366, 768), *, fake: FakeDesk | None = None, clock: bool = False):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="zh-CN")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.fake = fake or FakeDesk()
    page.fake.attach(page)
    if clock:
        frozen_clock(page)
    page.goto(DESK)
    return context, page


def enter_pin(page, pin: str = PIN) -> None:
    page.fill("#pinInput", pin)
    page.click("#pinSubmit")


def last_press(page) -> tuple[str, str, dict]:
    """The last request, its body without the press's id (checked: 32 hex digits, a new one for every press)."""
    method, path, body = page.fake.requests[-1]
    rest = {k: v for k, v in body.items() if k != "id"}
    assert re.fullmatch(r"[0-9a-f]{32}", body["id"]), body
    earlier = [b["id"] for _, _, b in page.fake.requests[:-1] if b and "id" in b]
    assert body["id"] not in earlier  # every press its own id
    return method, path, rest


def loaded(page) -> None:
    wait_until(page, "window.deskPage && window.deskPage.doc() !== null && !window.deskPage.busy()")


def five_minutes_typed_at_table_12(page) -> None:
    """PIN entered, the desk loaded, table 12 opened with 加时 5 分钟 and its reason typed, not yet pressed."""
    enter_pin(page)
    loaded(page)
    page.click('.tile[data-table="12"]')
    page.fill("#dMinutes", "5")
    page.fill("#dReason", "换牌耽误")


def pressed_and_unanswered(page) -> None:
    """加时 pressed, and its first sending over without an answer the page could take (it is sending again)."""
    page.click("#aMinutes")
    wait_until(page, "window.deskPage.sending() !== null && window.deskPage.sending().tries === 1")


FITS = """() => {
  const W = window.innerWidth, H = window.innerHeight, root = document.documentElement, problems = [];
  if (root.scrollHeight > H || root.scrollWidth > W) problems.push(`page scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  for (const el of document.querySelectorAll("header *, #next, #tiles .tile, #tiles .tile *")) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const name = `${el.className} «${el.textContent.trim().slice(0, 24)}»`;
    if (r.left < 0 || r.top < 0 || r.right > W || r.bottom > H) problems.push(`outside the screen: ${name}`);
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth) problems.push(`cut off sideways: ${name}`);
    if (el.scrollHeight > el.clientHeight + 1 && el.clientHeight) problems.push(`cut off below: ${name}`);
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(getComputedStyle(el).fontSize) < 15) problems.push(`small text: ${name}`);
  }
  return problems;
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_64_tables_fit_one_screen_without_scrolling(browser, screenshots, size):
    context, page = open_desk(browser, size, clock=True)
    try:
        enter_pin(page)
        loaded(page)
        tiles = page.locator("#tiles .tile")
        assert tiles.count() == 64
        assert page.evaluate(FITS) == []
        for i in range(64):
            assert tiles.nth(i).is_visible()
            box = tiles.nth(i).bounding_box()
            assert box["y"] + box["height"] <= size[1] and box["x"] + box["width"] <= size[0]
        assert [tiles.nth(i).get_attribute("data-table") for i in range(64)] == [str(n) for n in range(1, 65)]
        assert page.inner_text("#title").replace("\n", "") == "第2轮 · 裁判台已确认 10/64"
        counts = page.inner_text("#counts").split("\n")
        assert counts == ["待确认 5", "进行中 40", "未开始 3", "需加赛 1", "有误 1", "纸质录入 3", "终局录入 1", "久未录入 3"]
        first = page.locator('.tile[data-table="1"]')
        assert first.inner_text().split("\n") == ["1", "第6局进行中", "01 打10 : 02 打K", "15:04"]
        quiet = page.locator('.tile[data-table="9"]')
        assert "quiet" in quiet.get_attribute("class") and "14:45 (19分钟前)" in quiet.inner_text()
        assert page.locator('.tile[data-table="41"]').inner_text().split("\n") == ["41", "未开始", "81 对 82", "未录入"]
        assert "加时10分" in page.locator('.tile[data-table="7"]').inner_text()
        colours = {page.locator(f".tile.s-{s} .label").first.evaluate("e => getComputedStyle(e).color")
                   for s in ("playing", "not_started", "to_confirm", "confirmed", "needs_playoff", "invalid", "paper")}
        assert len(colours) == 7  # each state its own colour
        assert page.inner_text("#clockTime") == "30:00" and page.inner_text("#clockButton") == "暂停"
        page.screenshot(path=str(screenshots / f"desk-{size[0]}x{size[1]}.png"))
        assert page.errors == []
    finally:
        context.close()


def test_when_every_table_is_in_the_next_step_is_said_in_words_and_still_fits(browser, screenshots):
    context, page = open_desk(browser, fake=FakeDesk(round_document(decided=True)))
    try:
        enter_pin(page)
        loaded(page)
        assert page.locator("#next").is_visible()
        assert page.inner_text("#next") == "第2轮各桌结果都已确认：请计分（扫码录分的各局写入检查副本），然后抽下一轮"
        assert "shuangsheng" not in page.inner_text("#next") and "运行" not in page.inner_text("#next")
        assert not page.locator("#nextButton").is_visible()  # outside the console: no button, and no command either
        assert page.evaluate(FITS) == []
        page.screenshot(path=str(screenshots / "desk-next-1366x768.png"))
    finally:
        context.close()


def test_inside_the_console_the_next_step_is_a_button_carrying_its_action_and_round(browser, screenshots):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    page = context.new_page()
    page.fake = FakeDesk(round_document(decided=True))
    page.fake.attach(page)
    page.route(f"{DESK}*", lambda route, request: route.fulfill(  # as the console serves it: framed by its page
        status=200, body=desk_page(), headers={"Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": DESK_CSP}))
    try:
        page.goto(f"{DESK}?console=1")
        enter_pin(page)
        loaded(page)
        button = page.locator("#nextButton")
        assert button.is_visible() and button.inner_text() == "计分"
        assert (button.get_attribute("data-action"), button.get_attribute("data-round")) == ("score", "2")
        page.evaluate("window.nextPressed = null; window.addEventListener('shuangsheng:next', e => { window.nextPressed = e.detail; })")
        button.click()
        assert page.evaluate("window.nextPressed") == round_document(decided=True)["next"]
        assert [r for r in page.fake.requests if r[0] == "POST"] == []  # the desk sends nothing: the console does it
        assert page.evaluate(FITS) == []
        page.screenshot(path=str(screenshots / "desk-next-console-1366x768.png"))
        page.evaluate("""() => {  // the desk inside the console's page: the record is posted to that page too
            window.posted = null;
            window.addEventListener("message", e => { window.posted = e.data; });
            const frame = document.createElement("iframe");
            frame.src = location.href;
            document.body.appendChild(frame);
        }""")
        inner = page.frame_locator("iframe")
        if inner.locator("#pinInput").is_visible():
            inner.locator("#pinInput").fill(PIN)
            inner.locator("#pinSubmit").click()
        inner.locator("#nextButton").click(timeout=10_000)
        wait_until(page, "window.posted !== null")
        assert page.evaluate("window.posted") == {"type": "shuangsheng:next", "next": round_document(decided=True)["next"]}
    finally:
        context.close()


def test_the_pin_is_asked_once_again_after_a_401_and_429_says_wait(browser):
    context, page = open_desk(browser)
    try:
        assert page.locator("#pinBox").is_visible()
        assert page.fake.requests == []  # nothing asked before the PIN
        enter_pin(page, "111111")
        wait_until(page, "!document.getElementById('pinError').classList.contains('hidden')")
        assert page.inner_text("#pinError") == "密码不对，请重新输入。"
        assert page.locator("#pinBox").is_visible()
        enter_pin(page)
        loaded(page)
        assert page.locator("#pinBox").is_hidden()
        page.reload()  # kept for the session: not asked again
        loaded(page)
        assert page.locator("#pinBox").is_hidden()
        assert page.fake.requests[-1][1] == "/api/desk"

        page.fake.pin = "999999"  # serve restarted with a new PIN: the next poll gets 401 and asks again
        wait_until(page, "!document.getElementById('pinBox').classList.contains('hidden')")
        assert page.inner_text("#pinError") == "密码不对，请重新输入。"
        for _ in range(3):  # the fifth wrong PIN within the minute
            enter_pin(page, "123456")
            wait_until(page, "!document.getElementById('pinBox').classList.contains('hidden')")
        assert page.inner_text("#pinError") == "密码不对，请重新输入。"
        enter_pin(page, "999999")  # too late: held for a minute
        wait_until(page, "!document.getElementById('pinBox').classList.contains('hidden')")
        assert page.inner_text("#pinError") == "密码输错的次数太多，请等一分钟再输入。"
        assert page.locator("#pinInput").is_visible()
        assert page.errors == []
    finally:
        context.close()


def test_an_action_needs_a_reason_and_shows_the_servers_words(browser, screenshots):
    context, page = open_desk(browser)
    try:
        enter_pin(page)
        loaded(page)
        page.click('.tile[data-table="12"]')
        assert page.locator("#detail").is_visible()
        assert page.inner_text("#dTitle").startswith("第12桌 · 第")
        page.click("#aReopen")  # no reason: the server's 400, in its words
        wait_until(page, "!document.getElementById('dErrors').classList.contains('hidden')")
        assert page.inner_text("#dErrors") == "请写明原因：重新开放、加时和代为确认都要写原因，记入本桌记录"
        assert page.inner_text("#dLog") == "暂无"
        page.fill("#dReason", "甲方对第3局的分数有异议")
        page.click("#aReopen")
        wait_until(page, "!document.getElementById('dDone').classList.contains('hidden')")
        assert page.locator("#dErrors").is_hidden()
        assert page.inner_text("#dDone") == "已记录：第12桌 重新开放"
        assert page.inner_text("#dLog") == "15:04 重新开放（原因：甲方对第3局的分数有异议） 127.0.0.1"
        assert last_press(page) == ("POST", "/api/desk/t/12/reopen", {"reason": "甲方对第3局的分数有异议", "teams": ["23", "24"]})
        assert page.input_value("#dReason") == ""

        page.fill("#dMinutes", "8")
        page.fill("#dReason", "换牌")
        page.click("#aMinutes")
        wait_until(page, "document.getElementById('dDone').textContent.includes('加时')")
        assert last_press(page) == ("POST", "/api/desk/t/12/minutes", {"reason": "换牌", "add": 8, "teams": ["23", "24"]})
        assert "加时 8 分钟（原因：换牌）" in page.inner_text("#dLog")
        assert "加时8分" in page.locator('.tile[data-table="12"]').inner_text()  # the tile too, behind

        page.fill("#dReason", "乙方不肯确认")  # 12 is playing: the server refuses (409) and says why
        page.click("#aConfirmB")
        wait_until(page, "!document.getElementById('dErrors').classList.contains('hidden')")
        assert page.inner_text("#dErrors") == "这一桌的比赛还没有结束，不能代为确认"
        page.keyboard.press("Escape")
        assert page.locator("#detail").is_hidden()

        page.click('.tile[data-table="44"]')  # to_confirm; 甲 confirmed itself, 乙 will not
        page.fill("#dReason", "乙方离场，比赛负责人代为确认")
        page.click("#aConfirmB")
        wait_until(page, "document.getElementById('dDone').textContent.includes('代乙方确认')")
        assert last_press(page)[2] == {"reason": "乙方离场，比赛负责人代为确认", "side": "B", "teams": ["87", "88"]}
        assert "代乙方确认（原因：乙方离场，比赛负责人代为确认）" in page.inner_text("#dLog")
        page.screenshot(path=str(screenshots / "desk-detail-1366x768.png"))
        assert page.errors == []
    finally:
        context.close()


def test_an_early_end_is_pressed_with_a_reason_and_shown_on_the_table_s_tile(browser, screenshots):
    """提前结束 (docs/table-api.md 比赛计时): the table may end before its time is up; the reason is asked as for
    every press, the press carries the pairing shown, and the table's tile says 可提前结束."""
    context, page = open_desk(browser)
    try:
        enter_pin(page)
        loaded(page)
        page.click('.tile[data-table="12"]')  # playing
        assert page.locator("#aEarly").is_visible() and page.inner_text("#aEarly") == "提前结束"
        page.click("#aEarly")  # no reason: the server's 400, in its words
        wait_until(page, "!document.getElementById('dErrors').classList.contains('hidden')")
        assert page.fake.document["tables"][11]["early_end"] is None
        page.fill("#dReason", "乙方一名队员身体不适，双方同意")
        page.click("#aEarly")
        wait_until(page, "!document.getElementById('dDone').classList.contains('hidden')")
        assert page.inner_text("#dDone") == "已记录：第12桌 提前结束"
        assert last_press(page) == ("POST", "/api/desk/t/12/early_end",
                                    {"reason": "乙方一名队员身体不适，双方同意", "teams": ["23", "24"]})
        assert page.inner_text("#dLog") == "15:04 允许提前结束（原因：乙方一名队员身体不适，双方同意） 127.0.0.1"
        assert "已允许提前结束（15:04）" in page.inner_text("#dInfo")
        assert page.locator("#aEarly").is_hidden()  # allowed: nothing more to press
        page.screenshot(path=str(screenshots / "desk-early-end-1366x768.png"))
        page.keyboard.press("Escape")
        line = page.locator('.tile[data-table="12"] .t3')
        assert line.inner_text().startswith("可提前结束 · ") and "early" in line.get_attribute("class")
        assert page.evaluate(FITS) == []
        page.screenshot(path=str(screenshots / "desk-early-end-tile-1366x768.png"))
        page.click('.tile[data-table="44"]')  # to_confirm: 结束 pressed already, nothing to end early
        assert page.locator("#aEarly").is_hidden()
        assert page.errors == []
    finally:
        context.close()


def test_the_desk_says_when_a_tv_s_sound_is_off_while_the_clock_runs(browser, screenshots):
    document = round_document()
    document["tv_sound"] = {"on": 1, "off": 1}
    context, page = open_desk(browser, fake=FakeDesk(document), clock=True)
    try:
        enter_pin(page)
        loaded(page)
        chip = page.locator("#counts .chip.tvsound")
        assert chip.inner_text() == "大屏提示音没有开启：请到电视前点一下“开启提示音”"
        assert page.evaluate(FITS) == []
        page.screenshot(path=str(screenshots / "desk-tv-sound-off-1366x768.png"))
        page.fake.document["tv_sound"] = {"on": 0, "off": 2}
        page.clock.run_for(3_500)
        wait_until(page, "document.getElementById('counts').textContent.includes('（2 台）')")
        page.fake.document["tv_sound"] = {"on": 2, "off": 0}  # someone tapped 开启提示音 on both
        page.clock.run_for(3_500)
        wait_until(page, "!document.querySelector('#counts .chip.tvsound')")
        page.fake.document["tv_sound"] = {"on": 0, "off": 1}
        page.fake.document["clock"] = None  # no clock: the TV has nothing to chime for (and no button to tap)
        page.clock.run_for(3_500)
        wait_until(page, "window.deskPage.doc().clock === null")
        assert chip.count() == 0
        assert page.errors == []
    finally:
        context.close()


def test_the_signed_card_overrules_the_phones_from_the_table_s_details_and_back(browser):
    """以纸质为准 with its reason (the press and its log line), then 改回以手机为准 offered in its place."""
    context, page = open_desk(browser)
    try:
        enter_pin(page)
        loaded(page)
        page.click('.tile[data-table="12"]')
        assert page.locator("#aPaper").is_visible() and page.locator("#aPhone").is_hidden()
        page.fill("#dReason", "双方签字的计分卡为准")
        page.click("#aPaper")
        wait_until(page, "document.getElementById('dDone').textContent.includes('以纸质为准')")
        assert page.inner_text("#dDone") == "已记录：第12桌 以纸质为准"
        assert last_press(page) == ("POST", "/api/desk/t/12/paper_rules",
                                    {"reason": "双方签字的计分卡为准", "teams": ["23", "24"]})
        assert page.inner_text("#dLog") == "15:04 以纸质为准（原因：双方签字的计分卡为准） 127.0.0.1"
        assert page.locator("#aPaper").is_hidden() and page.locator("#aPhone").is_visible()
        page.fill("#dReason", "计分卡是另一桌的，仍以手机为准")
        page.click("#aPhone")
        wait_until(page, "document.getElementById('dDone').textContent.includes('改回以手机为准')")
        assert last_press(page)[2] == {"reason": "计分卡是另一桌的，仍以手机为准", "undo": True, "teams": ["23", "24"]}
        assert "改回以手机为准（原因：计分卡是另一桌的，仍以手机为准）" in page.inner_text("#dLog")
        assert page.locator("#aPaper").is_visible() and page.locator("#aPhone").is_hidden()
        assert page.errors == []
    finally:
        context.close()


def test_names_are_text_never_markup(browser):
    context, page = open_desk(browser)
    try:
        enter_pin(page)
        loaded(page)
        page.click('.tile[data-table="3"]')  # team 05 holds markup in its names
        assert page.inner_text("#dA .players") == f"{EVIL}、张<b>三</b>"
        assert page.locator("#dA img, #dA b").count() == 0
        assert page.evaluate("window.pwned") is None
        page.click("#dClose")
        page.click('.tile[data-table="50"]')  # a disputed table: its desk log, oldest first
        assert page.inner_text("#dLog").split("\n") == [
            "14:34 重新开放（原因：乙方对第6局有异议，裁判长复核） 127.0.0.1",
            "14:52 代甲方确认（原因：甲方拒绝签字，比赛负责人裁定） 127.0.0.1",
        ]
    finally:
        context.close()


def test_the_clock_starts_pauses_and_counts_down_between_polls(browser, screenshots):
    document = round_document()
    document["clock"] = None
    context, page = open_desk(browser, fake=FakeDesk(document), clock=True)
    try:
        enter_pin(page)
        loaded(page)
        assert page.inner_text("#clockTime") == "--:--" and page.inner_text("#clockState") == "未开始计时"
        assert page.inner_text("#clockButton") == "开始计时"
        page.click("#clockButton")
        wait_until(page, "document.getElementById('clockButton').textContent === '暂停'")
        assert last_press(page) == ("POST", "/api/desk/clock", {"action": "start", "round": 2})
        assert page.inner_text("#clockTime") == "60:00"
        page.fake.down = True  # no answers: the page counts down from the last one
        page.clock.run_for(2_500)
        assert page.inner_text("#clockTime") == "59:58"
        page.fake.down = False
        page.click("#clockButton")
        wait_until(page, "document.getElementById('clockButton').textContent === '继续'")
        assert last_press(page) == ("POST", "/api/desk/clock", {"action": "stop", "round": 2})
        assert page.inner_text("#clockState") == "暂停"
        shown = page.inner_text("#clockTime")
        page.clock.run_for(10_000)
        assert page.inner_text("#clockTime") == shown  # paused: not counting
        page.fake.document["clock"] = {**page.fake.document["clock"], "left_s": 0, "running": True}
        page.clock.run_for(3_500)
        wait_until(page, "document.getElementById('clockTime').textContent === '时间到'")
        assert page.errors == []
    finally:
        context.close()


def test_a_lost_server_is_said_and_the_page_carries_on_when_it_is_back(browser, screenshots):
    context, page = open_desk(browser, clock=True)
    try:
        enter_pin(page)
        loaded(page)
        page.fake.down = True
        page.clock.run_for(3_500)
        wait_until(page, "window.deskPage.failures() > 0")
        assert "连不上服务器" in page.inner_text("#status")
        assert page.locator("#tiles .tile").count() == 64  # the last state stays on the screen
        assert page.evaluate(FITS) == []
        page.screenshot(path=str(screenshots / "desk-lost-1366x768.png"))
        page.fake.down = False
        page.fake.document["tables"][0]["label"] = "第7局进行中"
        page.clock.run_for(3_500)
        wait_until(page, "window.deskPage.failures() === 0")
        assert page.inner_text("#status").startswith("更新于")
        assert "第7局进行中" in page.locator('.tile[data-table="1"]').inner_text()
        assert page.errors == []
    finally:
        context.close()


def test_the_clock_counts_elapsed_time_not_the_pc_s_wall_clock(browser):
    """The desk's countdown between polls goes by the time that has passed: the PC's clock set meanwhile (a time
    sync) does not make it jump."""
    context, page = open_desk(browser, clock=True)
    try:
        enter_pin(page)
        loaded(page)
        page.fake.down = True  # no answer to correct it meanwhile
        page.clock.set_system_time(CLOCK_START + 3_600_000)  # the wall clock jumps an hour ahead
        page.clock.run_for(2_000)
        assert page.inner_text("#clockTime") == "29:58"
        assert page.errors == []
    finally:
        context.close()


SAME_ID = """(() => {  // every press gets the same id: what a page reusing an id would send
  window.crypto.getRandomValues = function (bytes) { bytes.fill(7); return bytes; };
})()"""


def presses(page, path: str) -> list[dict]:
    return [body for method, p, body in page.fake.requests if method == "POST" and p == path]


def test_a_press_whose_answer_is_lost_is_sent_again_with_its_id_and_recorded_once(browser, screenshots):
    context, page = open_desk(browser, clock=True)
    try:
        five_minutes_typed_at_table_12(page)
        page.fake.drop.add("/api/desk/t/12/minutes")  # done at the server, the answer lost on the way back
        pressed_and_unanswered(page)
        said = "连不上服务器：“第12桌 加时”还没有送到，正在用同一个操作编号自动重试（第 1 次），送到后只记一次；请不要关闭本页。"
        assert page.inner_text("#dRetry") == said and page.inner_text("#status") == said
        assert page.locator("#aMinutes").is_disabled() and page.locator("#clockButton").is_disabled()
        assert page.locator("#dDone").is_hidden() and page.locator("#dErrors").is_hidden()
        page.click("#dClose")  # behind the details, the whole round still fits the screen with the retry said
        assert page.evaluate(FITS) == []
        page.click('.tile[data-table="12"]')
        assert page.inner_text("#dRetry") == said  # said again when its table is opened
        page.screenshot(path=str(screenshots / "desk-detail-retrying-1366x768.png"))
        page.clock.run_for(3_000)
        wait_until(page, "!document.getElementById('dDone').classList.contains('hidden')")
        assert page.inner_text("#dDone") == "已记录：第12桌 加时（重试后送到，只记了一次）"
        assert page.locator("#dRetry").is_hidden() and page.inner_text("#status").startswith("更新于")
        first, retry = presses(page, "/api/desk/t/12/minutes")
        assert retry == first and first["add"] == 5  # the same press, the same id
        assert page.inner_text("#dLog") == "15:04 加时 5 分钟（原因：换牌耽误） 127.0.0.1"  # once
        assert "加时5分" in page.locator('.tile[data-table="12"]').inner_text()
        page.screenshot(path=str(screenshots / "desk-detail-retried-1366x768.png"))

        page.fill("#dReason", "又换了一副牌")  # a new press is a new action: a new id
        page.click("#aMinutes")
        wait_until(page, "document.getElementById('dDone').textContent === '已记录：第12桌 加时'")
        third = presses(page, "/api/desk/t/12/minutes")[-1]
        assert third["id"] != first["id"] and "加时10分" in page.locator('.tile[data-table="12"]').inner_text()
        assert page.errors == []
    finally:
        context.close()


def test_the_clock_s_press_with_a_lost_answer_is_sent_again_with_its_id(browser):
    document = round_document()
    document["clock"] = None
    context, page = open_desk(browser, fake=FakeDesk(document), clock=True)
    try:
        enter_pin(page)
        loaded(page)
        page.fake.drop.add("/api/desk/clock")
        page.click("#clockButton")
        wait_until(page, "window.deskPage.sending() !== null && window.deskPage.sending().tries === 1")
        assert page.inner_text("#status").startswith("连不上服务器：“开始计时”还没有送到，正在用同一个操作编号自动重试")
        page.clock.run_for(3_000)
        wait_until(page, "document.getElementById('clockButton').textContent === '暂停'")
        first, retry = presses(page, "/api/desk/clock")
        assert first == retry and first["action"] == "start"
        page.fake.down = True  # out of reach for a while: the page keeps sending the same press
        page.click("#clockButton")
        for tries in (1, 2, 3):
            if tries > 1:
                page.clock.run_for(3_000)
            wait_until(page, f"window.deskPage.sending() !== null && window.deskPage.sending().tries === {tries}")
        assert "“暂停计时”还没有送到" in page.inner_text("#status") and "（第 3 次）" in page.inner_text("#status")
        page.fake.down = False
        page.clock.run_for(3_000)
        wait_until(page, "document.getElementById('clockButton').textContent === '继续'")
        stops = presses(page, "/api/desk/clock")[2:]
        assert [b["action"] for b in stops] == ["stop"] and stops[0]["id"] != first["id"]
        assert page.errors == []
    finally:
        context.close()


def test_an_id_used_before_for_another_action_shows_the_server_s_409(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    page = context.new_page()
    page.add_init_script(SAME_ID)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.fake = FakeDesk()
    page.fake.attach(page)
    try:
        page.goto(DESK)
        enter_pin(page)
        loaded(page)
        page.click('.tile[data-table="12"]')
        page.fill("#dReason", "换牌")
        page.click("#aMinutes")
        wait_until(page, "document.getElementById('dDone').textContent === '已记录：第12桌 加时'")
        page.fill("#dReason", "复核")
        page.click("#aReopen")
        wait_until(page, "!document.getElementById('dErrors').classList.contains('hidden')")
        assert page.inner_text("#dErrors") == "操作编号已用于另一项操作"
        assert page.locator("#dDone").is_hidden() and page.input_value("#dReason") == "复核"  # kept to press again
        assert [b["id"] for _, _, b in page.fake.requests if b] == ["07" * 16] * 2
        assert page.errors == []
    finally:
        context.close()


def test_a_press_being_sent_again_is_not_forgotten_when_the_page_is_reloaded(browser):
    """F5 while the page says it is retrying: the press (done at the server, its answer lost) is sent again with its
    id once the page is back, not dropped — else the organiser presses again and the minutes are added twice."""
    context, page = open_desk(browser, clock=True)
    try:
        five_minutes_typed_at_table_12(page)
        page.fake.drop.add("/api/desk/t/12/minutes")
        pressed_and_unanswered(page)
        page.reload()
        wait_until(page, "window.deskPage && window.deskPage.doc() !== null && window.deskPage.sending() === null"
                         " && !window.deskPage.busy()")
        first, retry = presses(page, "/api/desk/t/12/minutes")
        assert retry == first  # the same press, its id kept over the reload
        assert page.inner_text("#dDone") == "已记录：第12桌 加时（重试后送到，只记了一次）"  # its table opened again
        assert page.locator("#aMinutes").is_enabled() and page.locator("#clockButton").is_enabled()
        assert page.inner_text("#dLog") == "15:04 加时 5 分钟（原因：换牌耽误） 127.0.0.1"  # once
        page.reload()  # nothing left to send
        loaded(page)
        assert len(presses(page, "/api/desk/t/12/minutes")) == 2
        assert page.errors == []
    finally:
        context.close()


def test_a_poll_answered_while_a_press_is_sent_again_keeps_the_retry_said(browser):
    """The round's state read while the clock's press still gets no answer (503: a redraw at the server): the
    header keeps saying the press is being sent again, not "更新于", which reads as if all were well."""
    context, page = open_desk(browser, clock=True)
    try:
        enter_pin(page)
        loaded(page)
        page.fake.unavailable.add("/api/desk/clock")
        page.click("#clockButton")
        wait_until(page, "window.deskPage.sending() !== null && window.deskPage.sending().tries === 1")
        for _ in range(16):  # polls and retries, every half second for 8 s
            answers = page.evaluate("window.deskPage.answers()")
            page.clock.run_for(500)
            wait_until(page, f"window.deskPage.answers() >= {answers}")
            # answered 503: the server is there, busy — not "连不上服务器"
            assert page.inner_text("#status").startswith("服务器正忙：“暂停计时”还没有送到，正在用同一个操作编号自动重试")
        assert page.evaluate("window.deskPage.answers()") >= 3  # polls were answered meanwhile
        page.fake.unavailable.clear()
        page.clock.run_for(3_000)
        wait_until(page, "window.deskPage.sending() === null")
        assert page.errors == []
    finally:
        context.close()


def test_a_200_whose_body_is_cut_short_is_sent_again_not_called_refused(browser):
    """The action done and its 200 come back with the desk cut short (the Wi-Fi dropped the rest): the page sends the
    press again with its id and says it was recorded once — not "服务器拒绝了这次操作（200）"."""
    context, page = open_desk(browser, clock=True)
    try:
        five_minutes_typed_at_table_12(page)
        page.fake.cut.add("/api/desk/t/12/minutes")
        pressed_and_unanswered(page)
        page.clock.run_for(3_000)
        wait_until(page, "!document.getElementById('dDone').classList.contains('hidden')")
        assert page.inner_text("#dDone") == "已记录：第12桌 加时（重试后送到，只记了一次）"
        assert page.locator("#dErrors").is_hidden()
        first, retry = presses(page, "/api/desk/t/12/minutes")
        assert retry == first
        assert page.inner_text("#dLog") == "15:04 加时 5 分钟（原因：换牌耽误） 127.0.0.1"
        assert page.errors == []
    finally:
        context.close()


def test_a_press_sent_again_is_kept_over_serve_restarted_with_a_new_pin(browser):
    """The desk on the PC itself gets no answer mostly while serve is stopped; restarted, it has a new PIN: the press
    still unsent is kept over the 401 and sent with its id once the new PIN is entered, not dropped unsaid."""
    context, page = open_desk(browser, clock=True)
    try:
        five_minutes_typed_at_table_12(page)
        page.fake.down = True  # serve stopped
        pressed_and_unanswered(page)
        page.fake.down = False
        page.fake.pin = "999999"  # started again, with a new PIN
        page.clock.run_for(3_000)
        wait_until(page, "!document.getElementById('pinBox').classList.contains('hidden')")
        page.clock.run_for(6_000)  # no more tries while the PIN is asked: the half-typed PIN is not wiped
        assert page.evaluate("window.deskPage.sending() !== null")
        assert "“第12桌 加时”还没有送到" in page.inner_text("#pinError")
        enter_pin(page, "999999")
        wait_until(page, "window.deskPage.sending() === null && !window.deskPage.busy()")
        assert page.inner_text("#dDone") == "已记录：第12桌 加时（重试后送到，只记了一次）"
        sent = presses(page, "/api/desk/t/12/minutes")
        assert len({b["id"] for b in sent}) == 1 and sent[-1]["add"] == 5  # one press, its id kept over the 401
        answers = page.evaluate("window.deskPage.answers()")
        page.clock.run_for(3_000)  # the next poll (one sent with the press may have been answered after it)
        wait_until(page, f"window.deskPage.answers() > {answers}")
        assert page.inner_text("#dLog") == "15:04 加时 5 分钟（原因：换牌耽误） 127.0.0.1"
        assert page.errors == []
    finally:
        context.close()


def test_the_desk_s_sound_switch_chimes_at_five_minutes_and_at_time_up(browser):
    from tests.browser.test_show_clock import SOUND_STUBS

    document = round_document()
    document["clock"] = {"minutes": 60, "started_at": "2026-12-01T14:00:00+08:00", "left_s": 302, "running": True}
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    page = context.new_page()
    try:
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.fake = FakeDesk(document)
        page.fake.attach(page)
        page.add_init_script(f"({SOUND_STUBS})()")
        frozen_clock(page)
        page.goto(DESK)
        enter_pin(page)
        loaded(page)
        assert page.inner_text("#soundButton") == "提示音：关"
        page.click("#soundButton")
        assert page.inner_text("#soundButton") == "提示音：开"
        page.fake.down = True
        page.clock.run_for(5_000)
        assert page.evaluate("Chime.said") == ["warn"] and page.evaluate("window.sounded.words") == ["还有五分钟"]
        page.click("#soundButton")  # off: the desk stays quiet at time up
        page.clock.run_for(300_000)
        assert page.evaluate("Chime.said") == ["warn", "up"] and page.evaluate("window.sounded.words") == ["还有五分钟"]
        assert page.errors == []
    finally:
        context.close()
