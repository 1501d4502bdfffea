"""The round clock on the venue display (`/` of `serve`): board.json's `"clock"` shown large in the header (mm:ss,
暂停 when paused, 时间到 at 0), counted down by the page only between answers, and nothing overflowing at the TV
sizes. The page and board.json are answered by `page.route` from a real event's views; time is Playwright's clock,
no real waiting."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from shuangsheng.hall.server import SECURITY_HEADERS
from shuangsheng.render.show_page import page_html, version_of, views_html
from tests.browser.conftest import ALL_SIZES, CLOCK_START, frozen_clock, jump
from tests.browser.test_show_page import board_of, layout_problems, wait_until
from tests.events import draw, played_rounds, start_event

ORIGIN = "http://tv.test"


def clock(left_s: int = 1800, *, running: bool = True) -> dict:
    return {"minutes": 60, "started_at": "2026-12-01T14:34:05+08:00", "left_s": left_s, "running": running}


class FakeBoard:
    """`/` and `/board.json` as `serve` answers them, with a clock the test sets."""

    def __init__(self, folder):
        board = board_of(folder)
        self.title = board.title
        self.views = views_html(board)
        self.clock: dict | None = clock()
        self.down = False
        self.sounds: list[tuple[str, str]] = []  # each poll's ?sound and ?screen: what the TV says of its sound

    def answer(self, route, request) -> None:
        url = urlsplit(request.url)
        if url.path == "/board.json":
            query = parse_qs(url.query)
            self.sounds.append((query["sound"][0], query["screen"][0]))
            if self.down:
                route.abort("connectionrefused")
                return
            doc = {"version": version_of(self.views), "title": self.title, "views": self.views, "clock": self.clock}
            route.fulfill(status=200, body=json.dumps(doc, ensure_ascii=False),
                          headers={"Content-Type": "application/json; charset=utf-8", **SECURITY_HEADERS})
        else:
            route.fulfill(status=200, body=page_html(self.title, self.views, live=True),
                          headers={"Content-Type": "text/html; charset=utf-8", **SECURITY_HEADERS})


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("tv-clock")
    played_rounds(base / "mid", teams=11, rounds=1)  # round 2 drawn: results of round 1, the bracket
    draw(base / "big", start_event(base / "big", teams=100))  # 36 tables: the draw over several pages
    return {"mid": base / "mid", "big": base / "big"}


def open_tv(browser, folder, size=(1920, 1080)):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.fake = FakeBoard(folder)
    page.route(f"{ORIGIN}/**", page.fake.answer)
    frozen_clock(page)
    page.goto(f"{ORIGIN}/")
    wait_until(page, "window.showDisplay && window.showDisplay.pages() > 0")
    return page


def answered(page) -> None:
    """Let the page ask board.json once more (it asks 1.5 s after its last answer) and take the answer: the answer
    itself is real (page.route), only timers are Playwright's, so it is waited for until the page has taken it, with
    the clock standing still meanwhile (`jump`)."""
    before = page.evaluate("showDisplay.polls()")
    jump(page, 1_600)
    wait_until(page, f"showDisplay.polls() > {before}")


def answered_until(page, expression: str, tries: int = 8) -> None:
    """Let the page ask board.json, one answer after the other, until `expression` holds."""
    for _ in range(tries):
        answered(page)
        if page.evaluate(expression):
            return
    raise AssertionError(f"not true after {tries} answers: {expression}")


def test_the_tv_shows_the_clock_large_and_counts_down_between_answers(browser, folders):
    page = open_tv(browser, folders["mid"])
    assert page.locator("#clock").is_hidden()  # before the first answer
    answered_until(page, "!document.getElementById('clock').hidden")
    assert page.inner_text("#clock-label") == "本轮剩余" and page.inner_text("#clock-time") == "30:00"
    height = page.evaluate("document.getElementById('clock-time').getBoundingClientRect().height")
    assert height >= 0.07 * 1080  # larger than the page's numbers (5.6 % of the screen's height)
    page.fake.down = True  # no answers: the TV counts on from the last one
    page.clock.run_for(65_500)
    assert page.inner_text("#clock-time") == "28:55"  # 1800 − 65 s since the answer
    page.fake.down = False
    page.fake.clock = clock(1500)  # the server's figure wins at the next answer
    answered_until(page, "document.getElementById('clock-time').textContent === '25:00'")
    assert layout_problems(page) == [] and page.errors == []
    page.close()


def test_the_tv_counts_elapsed_time_not_its_wall_clock(browser, folders):
    """A TV or PC whose clock is set while the page counts (a time sync) keeps counting by the time that has passed."""
    page = open_tv(browser, folders["mid"])
    answered_until(page, "document.getElementById('clock-time').textContent === '30:00'")
    page.fake.down = True  # no answer to correct it meanwhile
    page.clock.set_system_time(CLOCK_START + 3_600_000)  # the wall clock jumps an hour ahead
    page.clock.run_for(2_000)
    assert page.inner_text("#clock-time") in ("29:59", "29:58", "29:57")  # not 时间到: 2 s passed, not an hour
    assert page.errors == []
    page.close()


def test_the_same_answer_again_does_not_set_the_tv_back(browser, folders):
    """`serve` answers 304 while only the seconds changed, and a browser then reads board.json from its cache: the
    same clock again. The TV counts on from the answer that first said it."""
    page = open_tv(browser, folders["mid"])
    answered_until(page, "document.getElementById('clock-time').textContent === '30:00'")
    for _ in range(5):
        answered(page)  # 8 s of the same answer
    assert page.inner_text("#clock-time") in ("29:52", "29:53")  # 8 s on (drawn every ¼ s), not back to 30:00
    page.fake.clock = clock(1790)  # a new figure from the server is taken at once
    answered_until(page, "document.getElementById('clock-time').textContent === '29:50'")
    assert page.errors == []
    page.close()


def test_paused_the_tv_says_so_and_stops_counting_and_at_zero_says_time_is_up(browser, folders, screenshots):
    page = open_tv(browser, folders["mid"])
    page.fake.clock = clock(754, running=False)
    answered_until(page, "!document.getElementById('clock').hidden")
    assert page.inner_text("#clock-label") == "暂停" and page.inner_text("#clock-time") == "12:34"
    page.fake.down = True
    page.clock.run_for(30_000)
    assert page.inner_text("#clock-time") == "12:34"
    page.fake.down = False
    page.fake.clock = clock(3, running=True)
    answered_until(page, "document.getElementById('clock-label').textContent === '本轮剩余'")
    page.fake.down = True
    page.clock.run_for(5_000)  # counted down here to 0
    assert page.inner_text("#clock-time") == "时间到" and page.inner_text("#clock-label") == ""
    assert page.get_attribute("#clock", "class") == "up"
    page.fake.down = False
    page.fake.clock = clock(0)
    answered(page)
    assert page.inner_text("#clock-time") == "时间到"
    page.screenshot(path=str(screenshots / "tv-time-up-1920x1080.png"))
    page.fake.clock = None  # a new round drawn: no clock until the desk starts it
    answered_until(page, "document.getElementById('clock').hidden")
    assert layout_problems(page) == [] and page.errors == []
    page.close()


@pytest.mark.parametrize("size", [*ALL_SIZES, (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("event", ["mid", "big"])
def test_with_the_clock_nothing_overflows(browser, folders, screenshots, event, size):
    page = open_tv(browser, folders[event], size)
    without = page.evaluate("showDisplay.pages()")
    answered_until(page, "!document.getElementById('clock').hidden")
    wait_until(page, "document.querySelector('#stage .page').offsetTop >= 0")
    assert layout_problems(page) == [], size
    assert page.evaluate("showDisplay.pages()") >= without  # laid out again under the taller header
    page.evaluate("showDisplay.show(0)")
    if size in ((1920, 1080), (1366, 768)):
        page.screenshot(path=str(screenshots / f"tv-clock-{event}-{size[0]}x{size[1]}.png"))
    assert page.errors == []
    page.close()


SOUND_STUBS = """() => {
  window.sounded = {tones: 0, words: []};
  window.AudioContext = function () {
    this.currentTime = 0; this.state = "running"; this.destination = {};
    this.resume = function () {};
    this.createGain = function () {
      return {gain: {setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {}},
              connect: function () {}};
    };
    this.createOscillator = function () {
      return {frequency: {}, connect: function () {}, start: function () { window.sounded.tones += 1; },
              stop: function () {}};
    };
  };
  window.SpeechSynthesisUtterance = function (words) { this.text = words; };
  Object.defineProperty(window, "speechSynthesis", {value: {
    getVoices: function () { return [{lang: "zh-CN", name: "stub"}]; },
    speak: function (u) { window.sounded.words.push(u.text); }}});
}"""


def test_the_tv_chimes_and_speaks_at_five_minutes_and_at_time_up_once_a_tap_let_it(browser, folders):
    """Eyes on the cards: at 5 minutes left and at time up the TV chimes and says it (a Chinese voice where the
    browser has one); a browser lets a page sound only after a tap, so the TV shows 开启提示音 until it is tapped."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.fake = FakeBoard(folders["mid"])
    page.fake.clock = clock(302)
    page.route(f"{ORIGIN}/**", page.fake.answer)
    page.add_init_script(f"({SOUND_STUBS})()")
    frozen_clock(page)
    page.goto(f"{ORIGIN}/")
    wait_until(page, "window.showDisplay && window.showDisplay.pages() > 0")
    answered_until(page, "!document.getElementById('clock').hidden")
    assert page.locator("#sound").is_visible()  # no sound before a tap
    assert {sound for sound, _ in page.fake.sounds} == {"off"}  # and the TV's polls say so, for the desk
    page.click("#sound")
    assert page.locator("#sound").is_hidden()
    answered(page)
    assert page.fake.sounds[-1][0] == "on" and len({screen for _, screen in page.fake.sounds}) == 1
    page.fake.down = True  # the page counts on by itself
    page.clock.run_for(5_000)  # 5:02 → 4:57
    assert page.evaluate("Chime.said") == ["warn"]
    assert page.evaluate("window.sounded.words") == ["还有五分钟"] and page.evaluate("window.sounded.tones") == 2
    page.clock.run_for(300_000)
    assert page.evaluate("Chime.said") == ["warn", "up"]  # once each
    assert page.evaluate("window.sounded.words") == ["还有五分钟", "时间到，请打完这一局"]
    assert page.errors == []
    page.close()
