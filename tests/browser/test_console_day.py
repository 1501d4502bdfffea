"""A whole 16-team event run by clicks only in the organiser's console (shuangsheng start), in the system's
Chromium at 1366×768: a new event, its team list, the materials, each round drawn, two tables of round 1 entered on
the phones (one tied at time, decided by 加赛), the others typed into the workbook as a referee would, round 1
corrected after round 2 was drawn (the console shows what the correction changes, then redoes round 2), every round
scored, the awards. The phones post to the table API (as the table page does); the referee's typing is the
workbook's (as tests/events.py types it). Then the same folder through the command line gives the same results:
one implementation. Screenshots of each page at 1366×768 (and the round at 1920×1080) go to SHUANGSHENG_SCREENSHOTS
when it is set."""

from __future__ import annotations

import http.client
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from shuangsheng.game.hands import MatchRecord
from shuangsheng.hall.console import make_console
from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import round_file, rounds_drawn
from shuangsheng.storage.opener import Opening
from tests.events import fill, simulated, team_list
from tests.helpers import cli

pytestmark = pytest.mark.day  # its own step of .ci/run (`pytest -m day`), beside the four-minute suite

PIN = "424242"
NAME = "2026秋季赛"


class Phone:
    """The table page of one table, as far as the server sees it: it reads the table, then posts each press with a
    new id and the mark it read."""

    def __init__(self, port: int, code: str):
        self.port, self.code, self.presses = port, code, 0

    def ask(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        document = json.loads(answer.read())
        conn.close()
        return answer.status, document

    def press(self, action: str, **body: object) -> dict:
        status, state = self.ask("GET", f"/api/t/{self.code}")
        assert status == 200, state
        self.presses += 1
        status, answer = self.ask("POST", f"/api/t/{self.code}/{action}",
                                  {"id": f"{self.code}-{self.presses}", "mark": state["mark"], **body})
        assert status in (200, 201), (action, body, answer)
        return answer

    def hand(self, dealer: str | None, points: int) -> dict:
        """The next hand; `dealer` None: the side the engine says deals (after hand 1 the page preselects it)."""
        status, state = self.ask("GET", f"/api/t/{self.code}")
        return self.press("hands", hand=len(state["hands"]) + 1, dealer=dealer or state["next_dealer"], points=points)


def cells(path: Path) -> dict[str, list[list[object]]]:
    """Every sheet's values of a workbook."""
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}


def codes(folder: Path, number: int) -> dict[int, str]:
    with Ledger.open(folder) as book:
        return book.codes(book.draws()[number].id)


def go(page, port: int, path: str) -> None:
    page.goto(f"http://127.0.0.1:{port}{path}")


def nav(page, label: str) -> None:
    """One of the console's pages, from its bar at the top."""
    page.locator("nav").get_by_role("link", name=label, exact=True).click()
    page.wait_for_load_state()


def click_and_wait(page, label: str, *, done: str = "已完成") -> None:
    """Press the button `label` (a job): wait on its page for the job to finish and show `done`."""
    page.get_by_role("button", name=label, exact=True).first.click()
    page.wait_for_selector(f"text={done}", timeout=180_000)


def shot(page, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"console-{name}.png"), full_page=False)


def check_in(page, screenshots: Path) -> None:
    """本轮 before round 1: the desk inside, its 报到: pairs 01–15 and the reserve 17 arrive by 组号 and Enter, 16 is
    confirmed 弃权 (the late time has come: the settings start at 0:00 with 0 minutes), and check-in is closed."""
    nav(page, "本轮")
    desk = page.frame_locator("iframe")
    desk.locator("#checkinButton").click(timeout=30_000)
    desk.locator("#cSummary").get_by_text("报到还没有开始").wait_for()
    for number in [*range(1, 16), 17]:
        desk.locator("#cSearch").fill(str(number))
        desk.locator("#cSearch").press("Enter")
        desk.locator("#cDone").get_by_text(f"已记录：第{number:02d}组 报到").wait_for()  # "1" is 01, not 10–17
    desk.locator("#cSearch").fill("16")
    desk.locator('#cList button[data-team="16"]', has_text="判弃权").click()
    desk.locator("#cDone").get_by_text("已记录：第16组 判弃权").wait_for()
    desk.locator("#cCloseCheckin").click()
    desk.locator("#cWaiting").get_by_text("第1轮按报到抽签：16 组；弃权 16；候补补入 17").wait_for()
    shot(page, screenshots, "checkin")
    desk.locator("#cClose").click()


def replace_a_player(desk, screenshots: Path, page) -> None:
    """换人 on the desk inside 本轮: pair 17's second player is replaced from round 2, with a reason."""
    desk.locator("#swapButton").click()
    desk.locator("#rSearch").fill("17")
    desk.locator("#rList button").nth(1).click()
    desk.locator("#rIn").fill("替补王")
    desk.locator("#rReason").fill("身体不适")
    desk.locator("#rRound").select_option("2")
    desk.locator("#rSubmit").click()
    desk.locator("#rDone").get_by_text("已记录：第17组 换下").wait_for()
    shot(page, screenshots, "replace")
    desk.locator("#rClose").click()


def paper_round(folder: Path, number: int, *, skip: tuple[int, ...] = ()) -> None:
    """The referee types every table of round `number` (but `skip`) from its signed card."""
    fill(folder, number, seed=number, skip=skip)


@pytest.fixture
def console(tmp_path):
    root = tmp_path / "双升级比赛"
    root.mkdir()
    opened: list[Path] = []
    running = make_console(root, None, hosts=["127.0.0.1"], port=0, pin=PIN, log=lambda line: None,
                           opener=lambda path: opened.append(path) or Opening(path))
    running.hall.start()
    yield running
    running.stop()


def test_a_whole_event_by_clicks_only(browser, console, screenshots, tmp_path):
    port = console.hall.port
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("dialog", lambda dialog: dialog.accept())  # the console asks before a correction: the organiser says yes
    go(page, port, f"/console/enter?token={console.gate.one_time_token()}")
    shot(page, screenshots, "events-empty")

    # a new event
    page.fill("#name", NAME)
    page.get_by_role("button", name="新建比赛").click()
    page.wait_for_url("**/console/settings")
    folder = console.root / NAME
    shot(page, screenshots, "settings")

    # the settings: the event's name typed in the form and saved; the start at midnight, so that the late time has
    # come whenever this runs (报到 below confirms an absent pair 弃权)
    page.fill("#s-event\\.title", "2026年秋季双升级比赛")
    page.fill("#s-event\\.start_time", "0:00")
    page.fill("#s-format\\.late_minutes", "0")
    page.get_by_role("button", name="保存设置").click()
    page.wait_for_selector("text=已保存")
    assert 'title = "2026年秋季双升级比赛"' in (folder / "event.toml").read_text(encoding="utf-8")

    # the team list typed in the page (the template's example rows make way), the 17th a reserve pair, one team
    # corrected, opened in Excel
    nav(page, "报名")
    for team in team_list(17):
        page.fill("#t-队员1-new", team.players[0])
        page.fill("#t-队员2-new", team.players[1])
        if team.id == "17":
            page.select_option("#t-候补-new", "是")
        page.get_by_role("button", name="添加这一组").click()
        page.wait_for_selector(f"text=已添加第{team.id}组")
    page.locator("#team-03").get_by_role("link", name="改正").click()
    page.fill("#t-队员1-03", "张三丰")
    page.get_by_role("button", name="保存改正").click()
    page.wait_for_selector("text=已改好第03组")
    page.wait_for_selector("text=共 17 组")
    page.get_by_role("button", name="用 Excel 打开报名表").click()
    page.wait_for_url("**/console/teams")
    shot(page, screenshots, "teams")

    # the materials
    nav(page, "材料")
    click_and_wait(page, "生成材料")
    assert page.locator("text=通知.pdf").count() == 1
    shot(page, screenshots, "materials-done")

    # 报到 on 本轮's desk: fifteen pairs and the reserve come (a 组号 typed, Enter), pair 16 does not and is confirmed
    # 弃权, check-in closed: the reserve takes its place
    check_in(page, screenshots)

    # round 1: drawn from who came; tables 1 and 2 on the phones, the rest on paper; scored
    nav(page, "抽签")
    shot(page, screenshots, "draw")
    click_and_wait(page, "抽签：第1轮")
    assert rounds_drawn(folder) == 1
    with Ledger.open(folder) as book:
        field = book.draws()[1]
    assert "16" not in field.round.pool and "17" in field.round.pool and len(field.round.pool) == 16
    first = codes(folder, 1)
    decided = Phone(port, first[1])
    decided.hand("A", 0)
    decided.hand("A", 0)
    decided.press("end")
    tied = Phone(port, first[2])
    for dealer, points in (("A", 75), ("A", 80), ("B", 75)):  # both on 3 when time is up
        tied.hand(dealer, points)
    assert tied.press("end")["status"] == "needs_playoff"
    tied.hand(None, 0)  # 加赛: the dealer goes up three, the levels differ
    for phone in (decided, tied):
        phone.press("confirm", side="A")
        phone.press("confirm", side="B")
    paper_round(folder, 1, skip=(1, 2))
    nav(page, "本轮")
    desk = page.frame_locator("iframe")
    desk.locator(".tile").first.wait_for(timeout=30_000)  # the desk inside has read the round
    shot(page, screenshots, "round")
    replace_a_player(desk, screenshots, page)
    desk.locator("#nextButton").click(timeout=60_000)  # the desk's next step, 计分, as a button: the console scores
    page.wait_for_selector("text=已完成", timeout=180_000)
    assert page.locator(".bad").count() == 0, page.inner_text("main")
    shot(page, screenshots, "scored")

    # round 2 drawn from the page the score leads to
    page.get_by_role("link", name="抽下一轮").click()
    click_and_wait(page, "抽签：第2轮")

    # round 1 corrected at a paper table whose winner went on: scored again on 更正, the redo shown, then done
    second = workbook.read_round(folder / round_file(2)).round
    wrong = next(p.table for p in workbook.read_round(folder / round_file(1)).round.pairings
                 if p.table > 2 and any(t in second.pool for t in (p.a, p.b)))
    typed = simulated(1 * 1000 + 1 * 100 + wrong, folder)  # what paper_round typed there
    workbook.fill_round(folder / round_file(1),
                        {wrong: MatchRecord(tuple(replace(h, dealer=h.dealer.other) for h in typed.hands))})
    nav(page, "更正")
    click_and_wait(page, "第1轮计分")
    page.get_by_role("link", name="更正：按新成绩重抽第2轮").click()
    page.wait_for_selector("text=第2轮的对阵要重排")
    shot(page, screenshots, "correct")
    click_and_wait(page, "按更正重排第2轮")

    # the later rounds on paper, each scored and the next drawn from the buttons
    for number in (2, 3, 4):
        paper_round(folder, number)
        nav(page, "本轮")
        click_and_wait(page, "计分")
        assert page.locator(".bad").count() == 0, page.inner_text("main")
        if number < 4:
            page.get_by_role("link", name="抽下一轮").click()
            click_and_wait(page, f"抽签：第{number + 1}轮")

    # the awards
    nav(page, "颁奖")
    shot(page, screenshots, "awards")
    click_and_wait(page, "生成成绩公告、证书和成绩册")
    for name in ("成绩公告.pdf", "荣誉证书.pdf", "晋级图.pdf", "成绩册.pdf"):
        assert (folder / name).is_file() and page.locator(f"text={name}").count() == 1
    shot(page, screenshots, "awards-done")
    big = browser.new_page(viewport={"width": 1920, "height": 1080})
    big.context.add_cookies([{"name": "shuangsheng_console", "value": page.context.cookies()[0]["value"],
                              "url": f"http://127.0.0.1:{port}"}])
    go(big, port, "/console/correct")
    shot(big, screenshots, "correct-1080p")

    # one implementation: the command line scores the same folder to the same results
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".shuangsheng.lock*"))
    console_placings = json.loads(cli("awards", folder, "--json").stdout)
    for number in (1, 2, 3, 4):
        checked = f"round-{number}-checked.xlsx"
        console_copy = cells(folder / checked)  # what the console's 计分 wrote
        ours = json.loads(cli("score", folder, "--round", number, "--json").stdout)
        theirs = json.loads(cli("score", copy, "--round", number, "--json", "--force").stdout)
        assert ours["matches"] == theirs["matches"]
        assert cells(copy / checked) == console_copy  # every hand row of the archive, as the command line writes it
    assert json.loads(cli("awards", copy, "--json").stdout) == console_placings
    assert console_placings["complete"] is True
    with Ledger.open(folder) as book:
        assert [(r.team, r.into, r.from_round) for r in book.replacements()] == [("17", "替补王", 2)]
