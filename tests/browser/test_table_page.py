"""The table page for phones (/t/<code>) in a real Chromium at 360×780 with touch and WeChat's user agent, against a
small fake table API: a stdlib server on 127.0.0.1 that answers by calling shuangsheng/table/entry.py (and log.py, state.py) over an in-memory log
(the real `serve` calls the same functions). A whole match entered by tapping, a dropped answer retried with no
duplicate, undo, 结束 into 加赛, both confirmations, names escaped, screenshots."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shuangsheng.hall.server import SECURITY_HEADERS
from shuangsheng.render.table_page import table_page
from shuangsheng.table import entry
from shuangsheng.table.clock import Clock
from shuangsheng.table.log import Action, Entry, Seat, Stamp, TableSetup, fold
from shuangsheng.table.state import table_state
from shuangsheng.vocabulary.errors import Issue, issues_json
from tests.browser.conftest import CLOCK_START, frozen_clock, jump

CODE = "ABCD2345"
WECHAT_UA = (
    "Mozilla/5.0 (Linux; Android 10; V1916A Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Version/4.0 Chrome/86.0.4240.99 XWEB/3211 MMWEBSDK/20211001 Mobile Safari/537.36 MMWEBID/6170 "
    "MicroMessenger/8.0.16.2040(0x28001056) Process/toolsmp WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64"
)
EVIL = "<script>window.pwned=1</script>"
SETUP = TableSetup(2, 7, Seat("03", ("张<b>三</b>", EVIL)), Seat("11", ("王五", "赵六")))


class FakeTable:
    """One table's log in memory; `drop` names POST paths whose next answer is lost after the entry is stored."""

    def __init__(self, setup: TableSetup = SETUP):
        self.setup = setup
        self.entries: list[Entry] = []
        self.lock = threading.Lock()
        self.drop: set[str] = set()
        self.posts: list[tuple[str, dict]] = []
        self.down = False  # the API unreachable (nothing stored, no answer); the page itself is still served
        self.clock: dict | None = None  # this table's clock as GET /api/t/<code> gives it (None: not started)
        self.missing = 0  # the next so many GETs of the table answer 404 (a redraw carrying its code over, or done)
        self.refusing: str | None = None  # POSTs answered 503 with these words (the server there, its disk full)

    def round_clock(self) -> Clock | None:
        """The round clock `self.clock` (this table's, as GET gives it) stands for, as the server would read it."""
        if self.clock is None:
            return None
        time = (self.clock["minutes"] + self.clock["extra_minutes"]) * 60
        return Clock(self.clock["minutes"], self.clock["started_at"], time - self.clock["left_s"], self.clock["running"])

    def decide(self, action: str, body: object) -> entry.Decision:
        stamp = Stamp(f"s{len(self.entries)}", "2026-12-01T13:00:00+08:00", "127.0.0.1")
        if action == "hands":
            return entry.add_hand(self.setup, self.entries, body, stamp=stamp)
        if action == "end":
            return entry.end(self.setup, self.entries, body, stamp=stamp, clock=self.round_clock())
        if action == "undo":
            return entry.undo(self.setup, self.entries, body, stamp=stamp)
        return entry.confirm(self.setup, self.entries, body, stamp=stamp)


class FakeHandler(BaseHTTPRequestHandler):
    """Answers as `serve` will, over `table` (set per server by a subclass)."""

    table: FakeTable

    def log_message(self, *args):
        pass

    def answer(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def json(self, status: int, data: object) -> None:
        self.answer(status, json.dumps(data, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def do_GET(self):
        if self.path == f"/t/{CODE}":
            self.answer(200, table_page(CODE), "text/html; charset=utf-8")
        elif self.table.down:
            self.close_connection = True
        elif self.path == f"/api/t/{CODE}" and self.table.missing > 0:
            self.table.missing -= 1
            self.json(404, issues_json([Issue.plain("录分码不对或已作废")]))
        elif self.path == f"/api/t/{CODE}":
            with self.table.lock:
                self.json(200, {**table_state(self.table.setup, self.table.entries).as_json(),
                                "clock": self.table.clock})
        else:
            self.json(404, {"errors": []})

    def do_POST(self):
        prefix = f"/api/t/{CODE}/"
        action = self.path[len(prefix):] if self.path.startswith(prefix) else ""
        if self.table.down:
            self.close_connection = True
            return
        if action not in ("hands", "end", "undo", "confirm"):
            self.json(404, {"errors": []})
            return
        if self.table.missing > 0:
            self.table.missing -= 1
            self.json(404, issues_json([Issue.plain("录分码不对或已作废")]))
            return
        if self.table.refusing:
            self.json(503, issues_json([Issue.plain(self.table.refusing)]))
            return
        assert self.headers["Content-Type"] == "application/json"
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.table.lock:
            self.table.posts.append((action, body))
            decision = self.table.decide(action, body)
            if decision.entry is not None:
                self.table.entries.append(decision.entry)
            dropped = action in self.table.drop
            self.table.drop.discard(action)
        if dropped:  # stored, but the answer never reaches the phone (the Wi-Fi dropped)
            self.close_connection = True
            return
        self.json(decision.http_status, decision.as_json())


@pytest.fixture
def fake():
    yield from served(FakeTable())


def served(table: FakeTable):
    """`table` answered on a port of 127.0.0.1 as `serve` would (its address in `table.url`), stopped afterwards."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("Handler", (FakeHandler,), {"table": table}))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)  # stopped at once
    thread.start()
    table.url = f"http://127.0.0.1:{server.server_address[1]}/t/{CODE}"
    yield table
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
                                  user_agent=WECHAT_UA, locale="zh-CN")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    yield page
    context.close()


def wait_until(page, expression: str, timeout: float = 8.0) -> None:
    """Poll `expression` from outside the page (the page's CSP refuses eval, which wait_for_function needs)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {expression}")
        time.sleep(0.05)


def settled(page) -> None:
    wait_until(page, "window.tablePage && window.tablePage.state() && !window.tablePage.pending()"
                     " && !window.tablePage.busy()")


def tap(page, selector: str) -> None:
    """A tap, as a player makes it: the rare cases (抠底, 级牌抠底, 罚张, 违规) are behind 其他情况, opened first."""
    target = page.locator(selector).first
    if not target.is_visible() and page.locator("#more").is_hidden() and target.evaluate(
            "el => !!el.closest('#more')"):
        page.locator("#moreButton").tap()
    target.tap()


def tap_text(page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).first.tap()


def enter_hand(page, *, dealer: str | None = None, points: str | None = None, capture: int = 0,
               bottom: str = "", offense: str = "") -> None:
    if dealer:
        tap(page, f"#dealer{dealer}")
    if points is not None:
        for digit in points:
            tap(page, f'#pad button[data-key="{digit}"]')
    if capture:
        tap(page, f'#captures button[data-capture="{capture}"]')
        if bottom:
            tap(page, "#bottomField")  # the digits go to 底牌分 only once the player taps it
        for digit in bottom:
            tap(page, f'#pad button[data-key="{digit}"]')
    if offense:
        tap(page, f'#offenses button[data-offense="{offense}"]')
    tap(page, "#submit")
    settled(page)


SIZES = """() => {
  const small = [], tiny = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(getComputedStyle(el).fontSize) < 18) small.push(el.textContent.trim().slice(0, 20));
    if (el.tagName === "BUTTON" && (box.width < 48 || box.height < 48)) tiny.push(el.textContent.trim());
  }
  const wide = document.documentElement.scrollWidth > window.innerWidth;
  return {small, tiny, wide};
}"""


def assert_large(page) -> None:
    """Every visible text ≥ 18 px, every button ≥ 48 × 48 px, nothing wider than the phone."""
    assert page.evaluate(SIZES) == {"small": [], "tiny": [], "wide": False}


def levels(page) -> tuple[str, str]:
    return (page.locator("#teamA .level span").first.inner_text(), page.locator("#teamB .level span").first.inner_text())


def badges(page) -> tuple[str, str]:
    """The badge beside each team's level (坐庄, 获胜), "" where none is shown."""
    return tuple(page.locator(f"#team{side} .badge").inner_text() if page.locator(f"#team{side} .badge").is_visible()
                 else "" for side in "AB")


def stored_hands(table: FakeTable) -> list[int]:
    return [e.hand for e in fold(table.entries).hands]


def test_a_whole_match_on_a_phone(fake, phone, screenshots):
    phone.goto(fake.url)
    settled(phone)
    assert phone.title() == "录分 ABCD-2345"
    assert "第2轮 第7桌" in phone.locator("#title").inner_text()
    # names are text, never markup
    assert phone.locator("#teamA .players").inner_text() == f"张<b>三</b>、{EVIL}"
    assert phone.evaluate("window.pwned") is None
    assert phone.locator("#teamA b").count() == 0
    assert phone.locator("#formTitle").inner_text() == "第1局：请选抢到庄的一方"
    assert_large(phone)
    phone.screenshot(path=str(screenshots / "table-start.png"), full_page=True)
    phone.screenshot(path=str(screenshots / "table-start-screen.png"))  # what a player sees first, 360×780

    # hand 1 (the docs' worked example): 甲 deals, 35; the levels change at once
    enter_hand(phone, dealer="A", points="35")
    assert levels(phone) == ("打 5", "打 2")
    assert "甲方保庄，庄家升3级（2→5）" in phone.locator("#hands li").first.inner_text()

    # hand 2: the answer is lost after the hand was stored; the page says so, keeps it, and resends the same id
    fake.drop.add("hands")
    tap(phone, '#common button[data-set="40"]')
    assert phone.locator("#pointsValue").inner_text() == "40"
    tap(phone, '#captures button[data-capture="4"]')
    assert_large(phone)  # with the 底牌分 row shown
    tap(phone, '#captures button[data-capture="0"]')
    enter_hand(phone, points="50", capture=4, bottom="25")  # a digit after a quick button starts afresh
    posts = [body for action, body in fake.posts if action == "hands"]
    assert len(posts) == 3 and posts[1] == posts[2], posts  # the retry is the very same request
    assert posts[1] == {"hand": 2, "id": posts[1]["id"], "mark": 1, "dealer": "A", "points": 50, "capture": 4,
                        "bottom": 25}  # made on the table after hand 1 (its mark), as the page showed it
    assert stored_hands(fake) == [1, 2]
    assert levels(phone) == ("打 2", "打 2")
    assert phone.locator("#banner").is_hidden()

    # hand 3 entered wrong (乙 deals, 85 instead of 55 after fines) and undone with two taps
    enter_hand(phone, points="85")
    assert phone.locator("#hands li").count() == 3
    tap(phone, "#undo")
    assert "再按一次" in phone.locator("#undo").inner_text()
    tap(phone, "#undo")
    settled(phone)
    assert stored_hands(fake) == [1, 2]
    assert levels(phone) == ("打 2", "打 2")
    assert phone.locator("#hands li").count() == 2
    tap(phone, 'button[data-step="defender_wrong_cards"][data-by="1"]')
    tap(phone, 'button[data-step="defender_wrong_cards"][data-by="1"]')
    tap(phone, 'button[data-step="defender_wrong_cards"][data-by="1"]')
    enter_hand(phone, points="85")
    assert levels(phone) == ("打 2", "打 4")
    enter_hand(phone, offense="dealer_wrong_bury")
    assert levels(phone) == ("打 7", "打 4")
    enter_hand(phone, points="60", capture=2, bottom="20")
    enter_hand(phone, points="40")
    assert levels(phone) == ("打 7", "打 7")
    phone.screenshot(path=str(screenshots / "table-six-hands.png"), full_page=True)

    # time is up (no round clock: the referee calls it): 结束, the page asks first, tied → the next hand is a 加赛 hand
    tap(phone, "#end")
    assert phone.locator("#endQuestion").inner_text() == "裁判已宣布时间到了吗？" and phone.locator("#end").is_hidden()
    assert in_view(phone, "#endYes") and in_view(phone, "#endNo")
    assert not [action for action, _ in fake.posts if action == "end"]  # nothing sent by the first tap
    phone.screenshot(path=str(screenshots / "table-end-asked-360x780.png"))
    tap(phone, "#endYes")
    settled(phone)
    assert "加赛" in phone.locator("#status").inner_text()
    assert phone.locator("#submit").inner_text() == "提交第7局"
    assert phone.locator("#formTitle").inner_text() == "第7局（加赛） · 乙方坐庄"
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(screenshots / "table-playoff-screen.png"))
    assert phone.locator("#end").is_hidden()
    assert_large(phone)
    enter_hand(phone, points="20")
    assert levels(phone) == ("7级", "10级")  # the final levels of a finished match
    assert fold(fake.entries).hands[-1].record.playoff
    assert phone.locator("#form").is_hidden()
    assert "乙方获胜" in phone.locator("#status").inner_text()
    assert phone.locator("#teamB .who").inner_text() == "乙方 第11组" and badges(phone) == ("", "获胜")
    assert phone.locator("#teamA .who").inner_text() == "甲方 第03组"

    # the phone is handed across: each team confirms; then the table is locked
    tap(phone, "#confirmA")
    settled(phone)
    assert phone.locator("#confirmA").inner_text() == "甲方已确认 ✓"
    tap(phone, "#confirmB")
    settled(phone)
    state = table_state(SETUP, fake.entries)
    assert state.log.locked and state.winner is entry.Side.B
    assert [e.action for e in fake.entries].count(Action.HAND) == 8  # 7 standing + 1 undone, none twice
    assert "已锁定" in phone.locator("#status").inner_text()
    assert phone.locator("#undo").is_hidden()
    phone.screenshot(path=str(screenshots / "table-locked.png"), full_page=True)
    assert_large(phone)
    # the measure itself sees a small text and a small button
    phone.evaluate("""() => { const s = document.createElement("span"); s.style.fontSize = "12px";
        s.textContent = "小字"; document.body.appendChild(s);
        const b = document.createElement("button"); b.style.minHeight = "0"; b.style.height = "30px";
        b.textContent = "小键"; document.body.appendChild(b); }""")
    assert phone.evaluate(SIZES)["small"][-1:] == ["小字"] and phone.evaluate(SIZES)["tiny"] == ["小键"]
    assert phone.errors == []


def test_out_of_reach_the_page_says_so_and_keeps_what_was_typed(fake, phone, screenshots):
    phone.goto(fake.url)
    settled(phone)
    tap(phone, "#dealerB")
    for digit in "45":
        tap(phone, f'#pad button[data-key="{digit}"]')
    phone.reload()  # what was typed survives a reload
    settled(phone)
    assert phone.locator("#pointsValue").inner_text() == "45"
    assert phone.locator("#teamB .who").inner_text() == "乙方 第11组" and badges(phone) == ("", "坐庄")

    fake.down = True
    tap(phone, "#submit")
    wait_until(phone, "!document.getElementById('banner').classList.contains('hidden')")
    assert "连不上服务器" in phone.locator("#banner").inner_text()
    assert phone.locator("#submit").is_disabled()
    phone.screenshot(path=str(screenshots / "table-offline.png"), full_page=True)
    phone.reload()  # the unanswered hand is kept on the phone, and sent again from there
    wait_until(phone, "!document.getElementById('banner').classList.contains('hidden')")
    assert fake.entries == []

    fake.down = False
    settled(phone)
    assert phone.locator("#banner").is_hidden()
    assert stored_hands(fake) == [1]
    assert levels(phone) == ("打 2", "打 4")
    ids = {body["id"] for action, body in fake.posts if action == "hands"}
    assert len(ids) == 1
    assert phone.errors == []


def test_a_refused_hand_shows_the_engines_words_once_beside_submit_and_keeps_the_form(fake, phone):
    phone.goto(fake.url)
    settled(phone)
    tap(phone, "#submit")
    assert phone.locator("#errors").inner_text() == "请先选哪一方坐庄"
    assert in_view(phone, "#errors") and in_view(phone, "#submit")
    enter_hand(phone, dealer="A", points="35")
    assert phone.locator("#dealerRow").is_hidden()  # after hand 1 the engine says who deals: nothing to choose
    enter_hand(phone, points="83")  # not a multiple of 5: the engine refuses
    said = phone.locator("#errors").inner_text()
    assert said.startswith("第2局台下得分：") and said.count("第2局") == 1, said  # the hand named once
    assert in_view(phone, "#errors") and in_view(phone, "#submit")  # said where the player is looking
    assert stored_hands(fake) == [1]
    assert phone.locator("#pointsValue").inner_text() == "83"
    tap(phone, '#common button[data-set="80"]')
    tap(phone, "#submit")
    settled(phone)
    assert stored_hands(fake) == [1, 2]
    assert phone.locator("#errors").is_hidden()
    assert phone.errors == []


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport (a player sees it without scrolling)."""
    return page.locator(selector).evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= -1 && r.bottom <= window.innerHeight + 1; }")



def entered_elsewhere(table: FakeTable, body: dict) -> None:
    """Another phone at the table enters a hand first (straight into the log, as its POST would)."""
    with table.lock:
        decision = table.decide("hands", {**body, "mark": len(table.entries)})
        assert decision.http_status == 201, decision.as_json()
        table.entries.append(decision.entry)


def test_a_hand_another_phone_entered_first_keeps_what_was_typed_as_the_next_hand(fake, phone, screenshots):
    """409: hand n holds another phone's entry. The page shows the table as it stands and keeps the draft in the
    form as hand n+1, says so in large words, sends nothing by itself; submitted, it goes as hand n+1, new id."""
    phone.goto(fake.url)
    settled(phone)
    enter_hand(phone, dealer="A", points="35")
    tap(phone, '#captures button[data-capture="2"]')  # hand 2 typed here: 60, 抠底 ×2 with 15, one 台下罚张
    tap(phone, "#bottomField")
    for digit in "15":
        tap(phone, f'#pad button[data-key="{digit}"]')
    tap(phone, '#common button[data-set="60"]')
    tap(phone, 'button[data-step="defender_wrong_cards"][data-by="1"]')
    entered_elsewhere(fake, {"hand": 2, "id": "other-phone-2", "dealer": "A", "points": 45})
    tap(phone, "#submit")
    settled(phone)
    sent = [body for action, body in fake.posts if action == "hands"]
    assert [body["hand"] for body in sent] == [1, 2]  # this phone's hand 2: answered 409
    assert stored_hands(fake) == [1, 2]
    other = table_state(SETUP, fake.entries).result.outcomes[1].explanation
    assert other.startswith("第2局：")
    assert phone.locator("#taken").inner_text() == (
        f"第2局已由另一部手机录入：{other.removeprefix('第2局：')}。您刚才填写的内容还在下面，如果这是第3局，请核对后再提交。")
    assert phone.locator("#errors").is_hidden()
    assert phone.locator("#hands li").count() == 2 and other in phone.locator("#hands li").first.inner_text()
    assert phone.locator("#formTitle").inner_text().startswith("第3局 · ")
    assert phone.locator("#pointsValue").inner_text() == "60" and phone.locator("#bottomValue").inner_text() == "15"
    assert phone.locator("#defender_wrong_cards").inner_text() == "1"
    assert phone.locator("#submit").inner_text() == "提交第3局"
    assert_large(phone)
    top = phone.locator("#taken").evaluate("e => e.getBoundingClientRect().top")
    assert -1 < top < 100  # scrolled to it: the submit button the finger was on is far below
    phone.screenshot(path=str(screenshots / "table-taken-360x780.png"))
    phone.reload()  # the kept draft is on the phone, as hand 3
    settled(phone)
    assert phone.locator("#pointsValue").inner_text() == "60" and phone.locator("#formTitle").inner_text().startswith("第3局 · ")
    time.sleep(0.3)
    assert len([a for a, _ in fake.posts if a == "hands"]) == 2  # nothing sent by itself
    dealer = phone.evaluate("window.tablePage.state().next_dealer")
    tap(phone, "#submit")
    settled(phone)
    last = [body for action, body in fake.posts if action == "hands"][-1]
    assert {k: v for k, v in last.items() if k != "id"} == {
        "hand": 3, "mark": 2, "dealer": dealer, "points": 60, "capture": 2,
        "bottom": 15, "defender_wrong_cards": 1}
    assert last["id"] != sent[-1]["id"]
    assert stored_hands(fake) == [1, 2, 3]
    assert phone.locator("#taken").is_hidden() and phone.locator("#errors").is_hidden()
    assert phone.errors == []


def test_a_hand_sent_again_after_a_reload_and_found_taken_keeps_what_was_typed(fake, phone):
    """The Wi-Fi dropped while hand 2 was being sent, the page was reloaded, and the other phone entered hand 2
    meanwhile: the hand kept on the phone is answered 409 when it finally goes, and stays in the form as hand 3."""
    phone.goto(fake.url)
    settled(phone)
    enter_hand(phone, dealer="A", points="35")
    fake.down = True
    for digit in "70":
        tap(phone, f'#pad button[data-key="{digit}"]')
    tap(phone, "#submit")
    wait_until(phone, "!document.getElementById('banner').classList.contains('hidden')")
    phone.reload()
    wait_until(phone, "!document.getElementById('banner').classList.contains('hidden')")
    entered_elsewhere(fake, {"hand": 2, "id": "other-phone-2", "dealer": "A", "points": 45})
    fake.down = False
    settled(phone)
    assert stored_hands(fake) == [1, 2]
    assert phone.locator("#taken").inner_text().startswith("第2局已由另一部手机录入：")
    assert phone.locator("#formTitle").inner_text().startswith("第3局 · ")
    assert phone.locator("#pointsValue").inner_text() == "70"
    assert phone.errors == []

# --- the round clock (docs/table-api.md: "clock" of GET /api/t/<code>), with Playwright's clock: no real waiting ---


def table_clock(left_s: int, *, running: bool = True, extra: int = 0) -> dict:
    return {"minutes": 60, "extra_minutes": extra, "started_at": "2026-12-01T14:00:00+08:00", "left_s": left_s,
            "running": running, "time_up": left_s == 0}


def open_with_clock(page, fake: FakeTable) -> None:
    frozen_clock(page)
    page.goto(fake.url)
    settled(page)


def polled(page) -> None:
    """Let the page ask for the table once more (every 10 s) and take the answer (which is real, not faked): the
    10 s in one jump, so the clock stands still from the moment the page asks until it has the answer, waited for
    until the page counts it, not for a fixed moment (too short on a busy machine)."""
    before = page.evaluate("window.tablePage.polls()")
    jump(page, 10_000)
    wait_until(page, f"window.tablePage.polls() > {before}")
    settled(page)


def test_the_clock_counts_down_to_time_is_up_and_makes_end_prominent(fake, phone, screenshots):
    fake.clock = table_clock(3 * 60 + 5, extra=5)
    open_with_clock(phone, fake)
    assert phone.inner_text("#clockLabel") == "本桌剩余（含加时5分钟）"
    assert phone.inner_text("#clockTime") == "03:05"
    enter_hand(phone, dealer="A", points="35")
    assert phone.locator("#end").is_hidden()  # 结束 is not offered before time is up
    assert phone.locator("#endNote").inner_text() == "时间到了，这里会出现“结束”按钮。要提前结束，请找裁判台。"
    phone.clock.run_for(9_000)  # counted here between answers
    assert phone.inner_text("#clockTime") == "02:56"
    fake.clock = table_clock(7)  # the server's figure at the next answer wins
    polled(phone)
    assert phone.inner_text("#clockTime") == "00:07"
    assert_large(phone)
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(screenshots / "table-clock-360x780.png"))
    fake.down = True  # no answers (the Wi-Fi dropped): the page's own countdown reaches 0
    phone.clock.run_for(8_000)
    assert phone.inner_text("#clockTime") == "时间到"
    assert phone.inner_text("#clockNote") == "时间到：打完这一局，录入后按“结束”"
    assert phone.get_attribute("#clock", "class") == "clock up"
    assert phone.get_attribute("#end", "class") == "warn urgent" and phone.locator("#end").is_visible()
    assert phone.locator("#endNote").is_hidden()
    order = phone.evaluate("[...document.querySelectorAll('#undo, #end')].map(b => b.id)")
    assert order == ["end", "undo"]  # 结束 right under the form
    fake.down = False
    fake.clock = table_clock(0)  # and the server says so too
    polled(phone)
    assert phone.locator("#banner").is_hidden()
    assert phone.inner_text("#clockTime") == "时间到" and phone.get_attribute("#end", "class") == "warn urgent"
    assert_large(phone)
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(screenshots / "table-time-up-360x780.png"))
    phone.locator("#end").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshots / "table-time-up-end-360x780.png"))
    enter_hand(phone, points="40")  # the hand being played when time was up
    tap(phone, "#end")
    tap(phone, "#end")
    settled(phone)
    assert phone.locator("#clock").is_hidden()  # the match is decided: no clock to watch
    assert phone.errors == []


def test_time_up_said_by_the_server_is_shown_at_once(fake, phone):
    fake.clock = table_clock(0, extra=10)
    open_with_clock(phone, fake)
    assert phone.inner_text("#clockTime") == "时间到"
    assert phone.locator("#clockNote").is_visible()
    assert_large(phone)


def test_a_paused_clock_says_so_and_does_not_count(fake, phone):
    fake.clock = table_clock(20 * 60 + 34, running=False)
    open_with_clock(phone, fake)
    assert phone.inner_text("#clockLabel") == "计时暂停，本桌剩余"
    phone.clock.run_for(9_000)
    assert phone.inner_text("#clockTime") == "20:34"
    assert phone.get_attribute("#clock", "class") == "clock paused"


def test_no_clock_before_the_desk_starts_it(fake, phone):
    open_with_clock(phone, fake)
    assert phone.locator("#clock").is_hidden()
    fake.clock = table_clock(3600)
    polled(phone)
    assert phone.inner_text("#clockTime") == "60:00"


def allowed_early(table: FakeTable, reason: str) -> None:
    """The desk allows the table an early end (straight into the log, as its press would)."""
    from shuangsheng.table.desk_actions import allow_early_end

    stamp = Stamp("desk-early", "2026-12-01T14:20:00+08:00", "127.0.0.1")
    with table.lock:
        table.entries.append(allow_early_end(table.setup, table.entries, {"reason": reason}, stamp=stamp).entry)


def test_end_is_offered_before_time_is_up_only_once_the_desk_allows_an_early_end(fake, small_phone, screenshots):
    phone = small_phone
    fake.clock = table_clock(40 * 60)
    open_with_clock(phone, fake)
    enter_hand(phone, dealer="A", points="35")
    enter_hand(phone, points="40")
    assert phone.locator("#end").is_hidden() and phone.locator("#endNote").is_visible()
    phone.locator("#endNote").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshots / f"table-end-not-yet-{phone.size}.png"))
    allowed_early(fake, "乙方一名队员身体不适")
    fake.clock = table_clock(39 * 60)
    polled(phone)
    assert phone.locator("#end").is_visible() and phone.locator("#endNote").is_hidden()
    assert phone.locator("#end").inner_text() == "结束（裁判台已同意提前结束）"
    phone.locator("#end").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshots / f"table-end-early-{phone.size}.png"))
    tap(phone, "#end")
    assert phone.locator("#end").inner_text() == "再按一次：确定结束"
    tap(phone, "#end")
    settled(phone)
    assert fold(fake.entries).ended and phone.locator("#confirmBox").is_visible()  # A leads: decided
    assert phone.errors == []


def test_an_end_the_server_refuses_for_the_clock_says_the_minutes_left_in_view(fake, phone):
    """The page counted to 0 while the server still has time left (a paused clock it had not heard of yet): the
    server's 409 is said where the player looks, and nothing is stored."""
    fake.clock = table_clock(3)
    open_with_clock(phone, fake)
    enter_hand(phone, dealer="A", points="35")
    fake.down = True
    phone.clock.run_for(4_000)
    assert phone.locator("#end").is_visible()
    fake.down = False
    fake.clock = table_clock(20 * 60, running=False)  # paused meanwhile: the server's figure at the press
    tap(phone, "#end")
    tap(phone, "#end")
    settled(phone)
    assert not fold(fake.entries).ended
    errors = phone.locator("#errors")
    assert errors.is_visible() and errors.inner_text().startswith("计时暂停中，本桌比赛时间还剩 20 分钟")
    assert in_view(phone, "#errors")
    assert phone.errors == []


VIBRATE_STUB = """Object.defineProperty(navigator, "vibrate", {configurable: true, value: function (pattern) {
  (window.buzzed = window.buzzed || []).push(pattern); return true; }});"""


def test_the_phone_vibrates_at_five_minutes_left_and_at_time_up_once_tapped(fake, phone):
    """navigator.vibrate stubbed (as the TV's sound tests stub audio and speech): nothing before the player's first
    tap (browsers allow vibration only after one), then once at 5:00 and once at 0:00, by Playwright's clock."""
    phone.add_init_script(VIBRATE_STUB)
    fake.clock = table_clock(5 * 60 + 3)
    open_with_clock(phone, fake)
    fake.down = True  # no answers: the page's own countdown runs on
    phone.clock.run_for(5_000)
    assert phone.inner_text("#clockTime") == "04:58"
    assert phone.evaluate("window.buzzed || []") == []  # 5:00 passed, but nobody has tapped the page yet
    tap(phone, "#dealerA")  # the player's first tap
    fake.down = False
    fake.clock = table_clock(5 * 60 + 2)  # more time given: 5:00 comes again
    polled(phone)
    fake.down = True
    phone.clock.run_for(3_000)
    assert phone.evaluate("window.buzzed") == [[400, 200, 400]]  # at 5:00
    phone.clock.run_for(299_000)
    assert phone.inner_text("#clockTime") == "时间到"
    assert phone.evaluate("window.buzzed") == [[400, 200, 400], [800, 300, 800, 300, 800]]  # at 0:00
    phone.clock.run_for(5_000)
    assert len(phone.evaluate("window.buzzed")) == 2  # once each
    assert phone.errors == []


def test_the_page_without_vibration_still_counts_down(fake, phone):
    phone.add_init_script("Object.defineProperty(navigator, 'vibrate', {configurable: true, value: undefined});")
    fake.clock = table_clock(5 * 60 + 1)
    open_with_clock(phone, fake)
    tap(phone, "#dealerA")
    fake.down = True
    phone.clock.run_for(2_000)
    assert phone.inner_text("#clockTime") == "04:59" and phone.errors == []


def test_one_404_while_playing_is_asked_again_and_two_in_a_row_say_the_code_is_outdated(fake, phone):
    """`draw --redo` of the round being played voids the table's draw, then carries the code of a table it keeps
    over to the new draw: a poll in between gets 404 for a code that works again a moment later. The page asks
    once more before it gives up on the code (a code really outdated is 404 again at the next poll)."""
    open_with_clock(phone, fake)
    fake.missing = 1
    polled(phone)
    assert phone.locator("#main").is_visible()
    polled(phone)
    assert phone.locator("#main").is_visible() and phone.locator("#loading").is_hidden()
    fake.missing = 2  # the table was changed by the redo: its code is gone for good
    polled(phone)
    polled(phone)
    assert phone.locator("#main").is_hidden()
    assert "录分码无效或已过期" in phone.inner_text("#loading")
    assert phone.errors == []


def test_the_clock_counts_elapsed_time_not_the_phone_s_wall_clock(fake, phone):
    """A phone whose clock is set while the page counts (time synced on joining the hall's Wi-Fi, or set by hand)
    keeps counting from the server's left_s by the time that has passed, not by the jump of its wall clock."""
    fake.clock = table_clock(3 * 60 + 5)
    open_with_clock(phone, fake)
    fake.down = True  # no answer to correct it meanwhile
    phone.clock.set_system_time(CLOCK_START + 3_600_000)  # the wall clock jumps an hour ahead
    phone.clock.run_for(2_000)
    assert phone.inner_text("#clockTime") == "03:03"
    assert phone.errors == []


def test_a_hand_answered_404_once_while_playing_is_sent_again_with_the_same_id(fake, phone):
    """The same moment of a redo for a hand being sent: it is kept and sent again, not dropped."""
    open_with_clock(phone, fake)
    enter_hand(phone, dealer="A", points="35")
    assert stored_hands(fake) == [1]
    fake.missing = 1
    for digit in "40":
        tap(phone, f'#pad button[data-key="{digit}"]')
    tap(phone, "#submit")
    wait_until(phone, "window.tablePage.pending() && !window.tablePage.busy()")  # answered 404, still pending
    assert stored_hands(fake) == [1]
    phone.clock.run_for(3_000)  # sent again after RETRY_MS
    settled(phone)  # pending until the hand sent again is answered
    assert stored_hands(fake) == [1, 2]
    assert len({body["id"] for action, body in fake.posts if action == "hands" and body["hand"] == 2}) == 1
    assert phone.locator("#errors").is_hidden() and phone.errors == []


def test_an_undo_sent_again_after_a_reload_with_its_id_removes_nothing_the_page_did_not_show(fake, phone):
    """The attack of docs/table-api.md 重发: this phone undoes hand 2 and the answer is lost on the Wi-Fi; the other
    phone enters a corrected hand 2; this page, reloaded, sends its undo again — with the same id and the mark of
    the table it showed — and the other phone's hand stands."""
    phone.goto(fake.url)
    settled(phone)
    enter_hand(phone, dealer="A", points="35")
    enter_hand(phone, points="50")
    assert stored_hands(fake) == [1, 2]
    fake.drop.add("undo")  # stored, the answer lost
    tap(phone, "#undo")
    tap(phone, "#undo")  # pressed twice, as the page asks
    wait_until(phone, "!document.getElementById('banner').classList.contains('hidden')")
    entered_elsewhere(fake, {"hand": 2, "id": "other-phone-2", "dealer": "A", "points": 60})
    phone.reload()  # the unanswered undo is kept on the phone and sent again from there
    settled(phone)
    undos = [body for action, body in fake.posts if action == "undo"]
    assert len(undos) >= 2 and all(body == undos[0] for body in undos), undos  # the very same request
    assert undos[0]["hand"] == 2 and undos[0]["mark"] == 2 and undos[0]["id"]
    assert stored_hands(fake) == [1, 2] and fold(fake.entries).hands[-1].id == "other-phone-2"
    assert phone.evaluate("window.tablePage.state().hands.length") == 2
    assert phone.evaluate("window.tablePage.state().hands[1].points") == 60
    assert phone.errors == []


def test_a_503_shows_the_servers_own_words_while_the_hand_waits_on_the_phone(fake, phone, screenshots):
    """The disk of the PC is full (or its record file in trouble): the page says what the server said, keeps the
    hand and sends it again, with its id, once the server takes it."""
    phone.goto(fake.url)
    settled(phone)
    fake.refusing = "裁判台电脑的磁盘满了，这次还没有记下；请告诉裁判台腾出磁盘空间"
    tap(phone, "#dealerA")
    for digit in "35":
        tap(phone, f'#pad button[data-key="{digit}"]')
    tap(phone, "#submit")
    wait_until(phone, "!document.getElementById('banner').classList.contains('hidden')")
    banner = phone.locator("#banner").inner_text()
    assert banner.startswith("裁判台电脑的磁盘满了") and "正在自动重试" in banner and "连不上服务器" not in banner
    phone.screenshot(path=str(screenshots / "table-503-360x780.png"))
    fake.refusing = None
    settled(phone)
    assert stored_hands(fake) == [1] and phone.locator("#banner").is_hidden()
    assert phone.errors == []


PLAIN = TableSetup(2, 7, Seat("03", ("张三", "李四")), Seat("11", ("王五", "赵六")))


@pytest.fixture(params=[(360, 640), (360, 780)], ids=["360x640", "360x780"])
def small_phone(request, browser):
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                  user_agent=WECHAT_UA, locale="zh-CN")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.size = f"{width}x{height}"
    yield page
    context.close()


@pytest.fixture
def plain():
    """A table of two ordinary pairs, served as `fake` is."""
    yield from served(FakeTable(PLAIN))


class Taps:
    """Taps counted, as a player's fingers make them."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, selector: str) -> None:
        self.count += 1
        tap(self.page, selector)


# Plain hands as a player enters them: a preset, perhaps a ±5 step, 提交 (the dealer preselected by the engine).
PLAIN_HANDS = [("40", "-5"), ("60", None), ("80", "+5"), ("100", None), ("20", None), ("140", "-5")]


def test_a_plain_hand_is_one_screen_and_at_most_three_taps(plain, small_phone, screenshots):
    """One hand per screen (docs/table-api.md, the table page): for every plain hand, nothing scrolls (scrollY stays 0), 提交 and the outcome
    are in view, and it takes at most 3 taps from the previous outcome."""
    phone = small_phone
    phone.goto(plain.url)
    settled(phone)
    taps = Taps(phone)
    taps("#dealerA")  # hand 1: who won the grab, the only hand where the dealer is chosen
    for n, (preset, step) in enumerate(PLAIN_HANDS, start=1):
        before = taps.count
        assert phone.evaluate("window.scrollY") == 0 and in_view(phone, "#submit"), (n, phone.size, phone.evaluate("document.getElementById('submit').getBoundingClientRect().bottom"))
        taps(f'#common button[data-set="{preset}"]')
        if step:
            taps(f'#common button[data-add="{step.replace("+", "")}"]')
        taps("#submit")
        settled(phone)
        assert stored_hands(plain) == list(range(1, n + 1))
        assert phone.evaluate("window.scrollY") == 0, (n, phone.size)
        assert in_view(phone, "#status") and phone.locator("#status").inner_text().startswith(f"第{n}局："), n
        assert in_view(phone, "#submit") and in_view(phone, "#teamA") and in_view(phone, "#teamB"), (n, phone.locator("#status").inner_text())
        assert taps.count - before <= (3 if n > 1 else 4), n  # hand 1: the dealer's tap as well
        if n == 2:
            phone.screenshot(path=str(screenshots / f"table-plain-hand-{phone.size}.png"))
    assert_large(phone)
    assert phone.errors == []


def test_the_keypad_s_target_changes_only_when_a_field_is_tapped(plain, phone):
    phone.goto(plain.url)
    settled(phone)
    tap(phone, "#dealerA")
    tap(phone, '#captures button[data-capture="4"]')  # ×4 chooses the multiplier and nothing else
    for digit in "50":
        tap(phone, f'#pad button[data-key="{digit}"]')
    assert phone.locator("#pointsValue").inner_text() == "50" and phone.locator("#bottomValue").inner_text() == "0"
    assert phone.locator("#keyTarget").is_hidden()  # the lit 台下得分 says where the digits go
    tap(phone, "#bottomField")
    assert phone.locator("#keyTarget").inner_text().startswith("数字键现在输入底牌分")
    tap(phone, '#common button[data-set="60"]')  # a preset is 台下得分's: the digits still go to 底牌分
    for digit in "25":
        tap(phone, f'#pad button[data-key="{digit}"]')
    assert phone.locator("#pointsValue").inner_text() == "60" and phone.locator("#bottomValue").inner_text() == "25"
    tap(phone, "#pointsField")
    tap(phone, '#pad button[data-key="5"]')
    assert phone.locator("#pointsValue").inner_text() == "5" and phone.locator("#bottomValue").inner_text() == "25"
    assert phone.errors == []


def test_a_match_won_by_passing_a_says_so_in_its_own_words(plain, phone, screenshots):
    """过A on a pass, the final levels on a finished match, and a name line that never wraps for its badge."""
    phone.goto(plain.url)
    settled(phone)
    tap(phone, "#dealerA")
    tops = phone.evaluate("[...document.querySelectorAll('.team .level')].map(e => e.getBoundingClientRect().top)")
    assert tops[0] == tops[1]  # both levels at one height, 坐庄 or not
    for preset in ("40", "0", "0", "0", "0"):  # 甲 keeps the deal to A, then passes it
        tap(phone, f'#common button[data-set="{preset}"]')
        if preset == "40":
            tap(phone, '#common button[data-add="-5"]')
        tap(phone, "#submit")
        settled(phone)
    assert levels(phone) == ("过A", "2级") and badges(phone) == ("获胜", "")
    assert phone.locator("#status").inner_text().startswith("比赛结束：甲方获胜（过A）")
    one_line = phone.evaluate("[...document.querySelectorAll('.team .who')].map(e => e.getBoundingClientRect().height)")
    assert max(one_line) < 40, one_line  # one line of 20 px text
    phone.screenshot(path=str(screenshots / "table-passed-a.png"))
    assert phone.errors == []


def test_without_a_clock_the_page_asks_whether_the_referee_called_time(plain, small_phone, screenshots):
    """No round clock (the referee keeps time): 结束 first asks "裁判已宣布时间到了吗？" with two big buttons; 还没有
    sends nothing; the question stays over a poll that changes nothing; 是 ends the match."""
    phone = small_phone
    frozen_clock(phone)
    phone.goto(plain.url)
    settled(phone)
    tap(phone, "#dealerA")
    for preset in ("40", "60"):
        tap(phone, f'#common button[data-set="{preset}"]')
        tap(phone, "#submit")
        settled(phone)
    assert phone.locator("#endNote").is_hidden()
    tap(phone, "#end")
    assert phone.locator("#endAsk").is_visible() and in_view(phone, "#endYes") and in_view(phone, "#endNo")
    sizes = phone.evaluate("['endYes', 'endNo'].map(id => document.getElementById(id).getBoundingClientRect().height)")
    assert min(sizes) >= 64, sizes
    assert_large(phone)
    phone.screenshot(path=str(screenshots / f"table-end-asked-{phone.size}.png"))
    tap(phone, "#endNo")
    assert phone.locator("#endAsk").is_hidden() and phone.locator("#end").is_visible()
    assert [action for action, _ in plain.posts if action == "end"] == []
    tap(phone, "#end")
    polled(phone)  # the table unchanged: the question stays
    assert phone.locator("#endAsk").is_visible()
    tap(phone, "#endYes")
    settled(phone)
    assert fold(plain.entries).ended and phone.locator("#endAsk").is_hidden()
    assert phone.errors == []


def test_a_table_the_desk_reopened_says_why_and_what_to_do(fake, phone, screenshots):
    """Both teams confirmed, then the desk reopened the table with its reason: the page says so, with what to do,
    until a team confirms again."""
    from shuangsheng.table.desk_actions import reopen

    stamp = Stamp("s-made", "2026-12-01T13:40:00+08:00", "127.0.0.1")
    for n, body in enumerate(({"dealer": "A", "points": 35}, {"dealer": "A", "points": 40}), start=1):
        fake.entries.append(entry.add_hand(fake.setup, fake.entries, {**body, "hand": n, "id": f"h{n}",
                                                                      "mark": len(fake.entries)}, stamp=stamp).entry)
    fake.entries.append(entry.end(fake.setup, fake.entries, {"id": "e", "mark": 2}, stamp=stamp).entry)
    for side in "AB":
        fake.entries.append(entry.confirm(fake.setup, fake.entries, {"side": side, "id": side, "mark": 3},
                                          stamp=stamp).entry)
    fake.entries.append(reopen(fake.setup, fake.entries, {"reason": "第2局台下得分应为45"}, stamp=stamp).entry)
    phone.goto(fake.url)
    settled(phone)
    notice = phone.locator("#taken").inner_text()
    assert "裁判台 13:40 重新打开了本桌：第2局台下得分应为45" in notice and "改这一局" in notice
    phone.screenshot(path=str(screenshots / "table-reopened.png"))
    assert phone.errors == []


# --- a hand typed here and entered meanwhile by another phone, seen on a poll (issue 29 item 6) ---


def type_points(page, digits: str) -> None:
    for digit in digits:
        tap(page, f'#pad button[data-key="{digit}"]')


def test_a_hand_being_typed_that_another_phone_enters_differently_is_kept_and_said_not_replaced_silently(fake, phone):
    """Hand 2 typed here (60, not sent yet); the other phone enters hand 2 as 45; the page's next poll shows it. As
    a 409 on sending would: the table as it stands, what was typed kept in the form as hand 3, and the notice —
    never an empty form that silently drops the 60."""
    open_with_clock(phone, fake)
    enter_hand(phone, dealer="A", points="35")
    type_points(phone, "60")
    entered_elsewhere(fake, {"hand": 2, "id": "other-phone-2", "dealer": "A", "points": 45})
    polled(phone)
    other = table_state(SETUP, fake.entries).result.outcomes[1].explanation
    assert phone.locator("#taken").inner_text() == (
        f"第2局已由另一部手机录入：{other.removeprefix('第2局：')}。您刚才填写的内容还在下面，如果这是第3局，请核对后再提交。")
    assert phone.locator("#formTitle").inner_text().startswith("第3局 · ")
    assert phone.locator("#pointsValue").inner_text() == "60"
    assert [body["hand"] for action, body in fake.posts if action == "hands"] == [1]  # nothing sent by itself
    assert phone.errors == []


def test_a_hand_typed_before_a_reload_that_another_phone_entered_meanwhile_is_kept_and_said(fake, phone):
    """The same when the page is opened again (reloaded, WeChat closed) after the other phone entered the hand: the
    draft kept on the phone is not replaced silently by an empty hand 3."""
    phone.goto(fake.url)
    settled(phone)
    enter_hand(phone, dealer="A", points="35")
    type_points(phone, "60")
    entered_elsewhere(fake, {"hand": 2, "id": "other-phone-2", "dealer": "A", "points": 45})
    phone.reload()
    settled(phone)
    assert phone.locator("#taken").inner_text().startswith("第2局已由另一部手机录入：")
    assert phone.locator("#formTitle").inner_text().startswith("第3局 · ")
    assert phone.locator("#pointsValue").inner_text() == "60"
    assert phone.errors == []


def test_a_hand_being_typed_that_another_phone_enters_the_same_moves_on_without_a_word(fake, phone):
    open_with_clock(phone, fake)
    enter_hand(phone, dealer="A", points="35")
    type_points(phone, "45")
    entered_elsewhere(fake, {"hand": 2, "id": "other-phone-2", "dealer": "A", "points": 45})
    polled(phone)
    assert phone.locator("#taken").is_hidden()
    assert phone.locator("#formTitle").inner_text().startswith("第3局 · ")
    assert phone.locator("#pointsValue").inner_text() == "—"
    assert phone.errors == []


def test_a_hand_being_typed_when_the_other_phone_s_entry_ends_the_match_is_said_dropped(fake, phone):
    """The other phone's hand 5 passed A: nothing can follow, so the draft cannot be kept as hand 6 — said."""
    open_with_clock(phone, fake)
    for n in (1, 2, 3, 4):
        entered_elsewhere(fake, {"hand": n, "id": f"up-{n}", "dealer": "A", "points": 0})  # 甲方 2 → 6 → 10 → J → A
    polled(phone)
    type_points(phone, "60")
    entered_elsewhere(fake, {"hand": 5, "id": "up-5", "dealer": "A", "points": 0})  # 甲方 passes A
    polled(phone)
    assert phone.evaluate("window.tablePage.state().status") == "passed_a"
    assert phone.locator("#taken").inner_text().startswith("第5局已由另一部手机录入：")
    assert phone.locator("#taken").inner_text().endswith("这部手机上填写的第5局没有提交。")
    assert phone.errors == []


def test_a_table_the_desk_gave_to_the_paper_card_says_so_and_offers_no_change(fake, phone, screenshots):
    """以纸质为准: the page says why and what to do, and offers neither the form nor undo, end or confirm."""
    from shuangsheng.table.desk_actions import paper_rules

    stamp = Stamp("s-made", "2026-12-01T13:40:00+08:00", "127.0.0.1")
    for n, body in enumerate(({"dealer": "A", "points": 35}, {"dealer": "A", "points": 40}), start=1):
        fake.entries.append(entry.add_hand(fake.setup, fake.entries, {**body, "hand": n, "id": f"h{n}",
                                                                      "mark": len(fake.entries)}, stamp=stamp).entry)
    fake.entries.append(paper_rules(fake.setup, fake.entries, {"reason": "以签字的计分卡为准"}, stamp=stamp).entry)
    phone.goto(fake.url)
    settled(phone)
    assert phone.locator("#status").inner_text() == (
        "裁判台 13:40 决定本桌以纸质计分卡为准：以签字的计分卡为准。手机上已录的各局保留，但不计入成绩，也不能再改动；"
        "请把签字的计分卡交给裁判台。")
    assert phone.locator("#form").is_hidden() and phone.locator("#undo").is_hidden() and phone.locator("#end").is_hidden()
    assert phone.locator("#confirmBox").is_hidden()
    phone.screenshot(path=str(screenshots / "table-paper-rules.png"))
    assert phone.errors == []


# Each word a line must not break inside, as the phone shows it: the tops of the lines its characters are on.
WORDS_ON_LINES = """words => { const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.parentElement.getClientRects().length || t.parentElement.closest("script, style, .hidden")) continue;
    for (const word of words) {
      for (let at = t.data.indexOf(word); at >= 0; at = t.data.indexOf(word, at + 1)) {
        const range = document.createRange(); range.setStart(t, at); range.setEnd(t, at + word.length);
        found.push([word, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]);
      }
    }
  }
  return found; }"""


def test_words_stay_whole_on_a_narrow_phone(fake, small_phone, screenshots):
    """The page broke 纸质计分 / 卡 at 360 px: 计分卡 and 裁判台 are kept whole, in the page's own text and in what the
    script writes (the desk's ruling), and nothing scrolls sideways."""
    from shuangsheng.table.desk_actions import paper_rules

    phone = small_phone
    phone.goto(fake.url)
    settled(phone)
    stamp = Stamp("s-made", "2026-12-01T13:40:00+08:00", "127.0.0.1")
    found = phone.evaluate(WORDS_ON_LINES, ["计分卡", "裁判台"])
    assert sum(word == "计分卡" for word, _ in found) >= 1 and all(lines == 1 for _, lines in found), found
    assert_large(phone)
    phone.screenshot(path=str(screenshots / f"table-words-{phone.size}.png"), full_page=True)
    fake.entries.append(entry.add_hand(fake.setup, fake.entries, {"dealer": "A", "points": 35, "hand": 1, "id": "h1",
                                                                  "mark": 0}, stamp=stamp).entry)
    fake.entries.append(paper_rules(fake.setup, fake.entries, {"reason": "以签字的计分卡为准"}, stamp=stamp).entry)
    phone.reload()
    settled(phone)
    found = phone.evaluate(WORDS_ON_LINES, ["计分卡", "裁判台"])
    assert sum(word == "计分卡" for word, _ in found) >= 4 and all(lines == 1 for _, lines in found), found
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.screenshot(path=str(screenshots / f"table-words-paper-{phone.size}.png"), full_page=True)
    assert phone.errors == []
