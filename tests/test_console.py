"""The organiser's console (shuangsheng/hall/console.py): who may use it (token, cookie, PIN, form token, origin,
Host, the PC only), every status code of its routes, the same form sent twice, a page shown before a change,
the jobs and their pages, the files it opens, and `start` finding a running console. Each test talks to a console
on 127.0.0.1 (port 0) and stops it."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from shuangsheng.hall import console_gate
from shuangsheng.hall.console import Console, console_allowed, make_console
from shuangsheng.storage.names import EVENT_FILE, rounds_drawn
from shuangsheng.storage.opener import Opening
from tests.events import first_round_scored, new_event

PIN = "246810"


class Browser:
    """One browser: its cookie, the pages it was shown, the forms it sends (with the page's token and an id)."""

    def __init__(self, port: int, host: str | None = None):
        self.port = port
        self.host = host or f"127.0.0.1:{port}"
        self.cookie: str | None = None
        self.csrf: str | None = None

    def ask(self, method: str, path: str, form: dict[str, object] | None = None, *,
            headers: dict[str, str] | None = None, body: bytes | None = None) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        sent = {"Host": self.host, **({"Cookie": self.cookie} if self.cookie else {})}
        if form is not None:
            body = urllib.parse.urlencode({k: str(v) for k, v in form.items()}).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = f"http://{self.host}"
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            text = answer.read().decode("utf-8", "replace")
            got = {k.lower(): v for k, v in answer.getheaders()}
        finally:
            conn.close()
        if "set-cookie" in got:
            self.cookie = got["set-cookie"].split(";")[0]
        if found := re.search(r'name="csrf" value="([^"]+)"', text):
            self.csrf = found.group(1)
        return answer.status, got, text

    def page(self, path: str) -> str:
        status, _, text = self.ask("GET", path)
        assert status == 200, (path, status, text[:500])
        return text

    def press(self, path: str, **fields: object) -> tuple[int, dict[str, str], str]:
        form = {"csrf": self.csrf or "", "id": fields.pop("id", f"id-{time.monotonic_ns()}"), **fields}
        return self.ask("POST", path, form)


@pytest.fixture
def root(tmp_path) -> Path:
    folder = tmp_path / "双升级比赛"
    folder.mkdir()
    return folder


@pytest.fixture
def running(root):
    opened: list[Path] = []

    def opener(path: Path) -> Opening:
        opened.append(path)
        return Opening(path)

    console = make_console(root, None, hosts=["127.0.0.1"], port=0, pin=PIN, log=lambda line: None, opener=opener)
    console.inline = True
    console.opened = opened  # type: ignore[attr-defined]
    console.hall.start()
    yield console
    console.stop()


def entered(console: Console) -> Browser:
    """The launcher's browser: in by a one-time token, on the 活动 page."""
    browser = Browser(console.hall.port)
    status, headers, _ = browser.ask("GET", f"/console/enter?token={console.gate.one_time_token()}")
    assert status == 303 and headers["location"] == "/console"
    browser.page("/console/events")
    return browser


# --- who may use it ---


def test_the_launchers_token_lets_its_browser_in_once_with_a_strict_http_only_cookie(running):
    token = running.gate.one_time_token()
    browser = Browser(running.hall.port)
    status, headers, _ = browser.ask("GET", f"/console/enter?token={token}")
    cookie = headers["set-cookie"]
    assert status == 303 and "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert "活动" in browser.page("/console/events")
    other = Browser(running.hall.port)
    status, _, text = other.ask("GET", f"/console/enter?token={token}")  # used up
    assert status == 403 and "已经用过或过期" in text and other.cookie is None


def test_without_a_session_a_page_goes_to_the_login_and_a_press_is_401(running):
    browser = Browser(running.hall.port)
    status, headers, _ = browser.ask("GET", "/console/events")
    assert status == 303 and headers["location"] == "/console/login"
    status, _, text = browser.ask("POST", "/console/events/demo", {"csrf": "x", "id": "1"})
    assert status == 401 and "密码" in text


def test_the_pin_lets_another_browser_in_and_wrong_pins_are_held(running):
    browser = Browser(running.hall.port)
    assert "控制台密码" in browser.page("/console/login")
    status, _, text = browser.ask("POST", "/console/login", {"pin": "000000"})
    assert status == 401 and "密码不对" in text
    status, headers, _ = browser.ask("POST", "/console/login", {"pin": PIN})
    assert status == 303 and headers["location"] == "/console" and browser.cookie
    assert "新建比赛" in browser.page("/console/events")
    late = Browser(running.hall.port)
    answers = [late.ask("POST", "/console/login", {"pin": "111111"})[0] for _ in range(6)]
    assert answers[:4] == [401] * 4 and answers[-1] == 429


@pytest.mark.parametrize(("change", "status"), [
    ({"csrf": "wrong"}, 403),  # a page of another origin cannot know the form token
    ({"headers": {"Origin": "http://evil.example"}}, 403),
    ({"headers": {"Origin": "null"}}, 403),
    ({"headers": {"Sec-Fetch-Site": "cross-site"}}, 403),
    ({"headers": {"Content-Type": "application/json"}}, 415),
    ({"headers": {"Content-Length": str(10**7)}}, 413),
])
def test_a_press_not_from_a_console_page_is_refused_and_does_nothing(running, root, change, status):
    browser = entered(running)
    form = {"csrf": change.get("csrf", browser.csrf), "id": "n1", "name": "比赛A"}
    assert browser.ask("POST", "/console/events/new", form, headers=change.get("headers"))[0] == status
    assert not (root / "比赛A").exists()


def test_a_host_not_ours_is_421(running):
    browser = entered(running)
    browser.host = "evil.example"
    assert browser.ask("GET", "/console/events")[0] == 421


def test_only_the_pc_itself_may_use_the_console():
    assert console_allowed("127.0.0.1", ("127.0.0.1",)) and console_allowed("::1", ("127.0.0.1",))
    assert console_allowed("192.168.1.20", ("127.0.0.1", "192.168.1.20"))  # the PC opening its own LAN address
    assert not console_allowed("192.168.1.57", ("127.0.0.1", "192.168.1.20"))  # a phone on the Wi-Fi


def test_the_console_session_stands_for_the_desk_pin(running, tmp_path):
    folder = running.root / "赛"
    first_round_scored(folder)
    browser = entered(running)
    browser.press("/console/events/open", name="赛")
    status, _, text = browser.ask("GET", "/api/desk")
    assert status == 200 and json.loads(text)["round"]
    stranger = Browser(running.hall.port)
    assert stranger.ask("GET", "/api/desk")[0] == 401
    assert stranger.ask("GET", "/api/desk", headers={"X-Desk-PIN": PIN})[0] == 200


def test_with_no_event_open_the_pc_is_sent_to_the_console_and_the_apis_say_so(running):
    browser = Browser(running.hall.port)
    status, headers, _ = browser.ask("GET", "/")
    assert status == 303 and headers["location"] == "/console"
    status, _, text = browser.ask("GET", "/api/desk", headers={"X-Desk-PIN": PIN})
    assert status == 503 and "还没有在控制台打开比赛" in json.loads(text)["errors"][0]["message"]
    assert browser.ask("GET", "/api/t/ABCD2345")[0] == 503
    assert browser.ask("GET", "/favicon.ico")[0] == 204
    status, _, text = browser.ask("GET", "/t/ABCD2345")
    assert status == 503 and "比赛还没有打开" in text


# --- events ---


def test_a_new_event_is_made_opened_and_sent_to_its_settings_and_the_same_form_again_does_it_once(running, root):
    browser = entered(running)
    status, headers, _ = browser.press("/console/events/new", id="new-1", name="2026秋季赛")
    assert status == 303 and headers["location"] == "/console/settings"
    assert (root / "2026秋季赛" / EVENT_FILE).is_file() and running.folder == root / "2026秋季赛"
    again = browser.press("/console/events/new", id="new-1", name="2026秋季赛")  # a reload sending it again
    assert again[0] == 303 and again[1]["location"] == "/console/settings"
    assert "2026秋季赛" in browser.page("/console/events")


@pytest.mark.parametrize(("name", "said"), [("", "请填写"), ("a/b", "不能有"), ("x" * 41, "太长")])
def test_a_name_that_cannot_be_a_folder_is_422_and_said(running, root, name, said):
    browser = entered(running)
    status, _, text = browser.press("/console/events/new", name=name)
    assert status == 422 and said in text and list(root.iterdir()) == []


def test_a_taken_name_is_refused_naming_what_to_do(running, root):
    (root / "赛").mkdir()
    browser = entered(running)
    status, _, text = browser.press("/console/events/new", name="赛")
    assert status == 422 and "已经有了" in text


def test_an_event_not_there_is_404(running):
    browser = entered(running)
    status, _, text = browser.press("/console/events/open", name="没有这场")
    assert status == 404 and "没有找到" in text


def test_event_pages_wait_for_an_open_event(running):
    browser = entered(running)
    status, headers, _ = browser.ask("GET", "/console/draw")
    assert status == 303 and headers["location"] == "/console/events"
    status, _, text = browser.press("/console/draw/draw", mark=0)
    assert status == 409 and "还没有打开比赛" in text


# --- the day's buttons ---


def open_event(running: Console, name: str = "赛") -> Browser:
    browser = entered(running)
    status, _, _ = browser.press("/console/events/open", name=name)
    assert status == 303
    return browser


def job_of(browser: Browser, answer: tuple[int, dict[str, str], str]) -> tuple[str, dict]:
    status, headers, _ = answer
    assert status == 303 and headers["location"].startswith("/console/jobs/"), answer
    page = browser.page(headers["location"])
    status, _, text = browser.ask("GET", "/api" + headers["location"])
    assert status == 200
    return page, json.loads(text)


def test_materials_are_built_by_a_job_and_opened_in_the_browser(running, root):
    new_event(root / "赛", teams=6)
    browser = open_event(running)
    page, state = job_of(browser, browser.press("/console/materials/build"))
    assert state["ok"] is True and not state["running"] and "已完成" in page
    assert "/console/files/%E9%80%9A%E7%9F%A5.pdf" in page  # 通知.pdf, opened by the browser's viewer
    status, headers, body = browser.ask("GET", "/console/files/%E9%80%9A%E7%9F%A5.pdf")
    assert status == 200 and headers["content-type"] == "application/pdf"
    assert browser.ask("GET", "/console/files/..%2Fevent.toml")[0] == 404
    assert browser.ask("GET", "/console/files/event.toml")[0] == 404  # only PDFs and pictures
    assert browser.ask("GET", "/api/console/jobs/nope")[0] == 404
    assert browser.ask("GET", "/console/jobs/nope")[0] == 404


def test_the_draw_and_the_same_form_again_draw_one_round_and_a_page_shown_before_it_is_409(running, root):
    new_event(root / "赛", teams=6)
    browser = open_event(running)
    assert "抽签：第1轮" in browser.page("/console/draw")
    first = browser.press("/console/draw/draw", id="draw-1", mark=0)
    page, state = job_of(browser, first)
    assert state["ok"] and rounds_drawn(root / "赛") == 1 and "第1轮对阵表.pdf" in page
    again = browser.press("/console/draw/draw", id="draw-1", mark=0)  # the same form: the same job
    assert again[1]["location"] == first[1]["location"] and rounds_drawn(root / "赛") == 1
    status, _, text = browser.press("/console/draw/draw", id="draw-2", mark=0)  # a new press on the old page
    assert status == 409 and "已抽到第1轮" in text and rounds_drawn(root / "赛") == 1
    assert browser.press("/console/draw/draw", mark="x")[0] == 422


def test_paper_lots_typed_in_the_page_draw_the_round_and_are_kept(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    lots = {"lot-01": 1, "lot-02": 3, "lot-03": 2, "lot-04": 4}
    page, state = job_of(browser, browser.press("/console/draw/draw", mark=0, **lots))
    assert state["ok"], page
    assert (root / "赛" / "第1轮签号.csv").read_text(encoding="utf-8").splitlines()[0] == "组号,签号"
    assert "01" in page and "03" in page


def test_bad_lots_are_said_as_the_records_they_are(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    page, state = job_of(browser, browser.press("/console/draw/draw", mark=0, **{"lot-01": 1, "lot-02": 1}))
    assert state["ok"] is False and rounds_drawn(root / "赛") == 0
    said = re.search(r'<div class="bad" role="alert">(.*?)</div>', page, re.S)
    assert said is not None and "签号" in said.group(1), page


def test_a_round_is_scored_with_each_problem_at_its_cell_and_the_next_step_as_a_button(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    page, state = job_of(browser, browser.press("/console/round/score", round=1))
    assert state["ok"] is True and "抽下一轮" in page and "shuangsheng" not in page


def test_the_check_of_a_draw_agrees(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    page, state = job_of(browser, browser.press("/console/draw/check", round=1))
    assert state["ok"] is True and "一致" in page


def test_every_page_of_an_event_is_shown_and_none_names_a_command(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    for name in ("events", "settings", "teams", "materials", "draw", "round", "correct", "awards", "guide"):
        text = browser.page(f"/console/{name}")
        assert "shuangsheng " not in re.sub(r"<script.*?</script>", "", text, flags=re.S), name


def test_open_in_excel_goes_through_the_opener_and_a_file_not_there_is_404(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    status, headers, _ = browser.press("/console/teams/open", name="teams.xlsx", back="/console/teams")
    assert status == 303 and headers["location"] == "/console/teams"
    assert running.opened == [root / "赛" / "teams.xlsx"]  # type: ignore[attr-defined]
    assert browser.press("/console/teams/open", name="nope.xlsx")[0] == 404
    assert browser.press("/console/teams/open", name="../x")[0] == 404
    assert browser.press("/console/teams/nothing")[0] == 404


# --- a second start ---


def test_the_state_file_is_the_users_alone_and_names_this_console(tmp_path):
    running = console_gate.Running(8123, "s3cret", "/root")
    path = console_gate.write_state(running, tmp_path / "state" / "console.json")
    assert console_gate.read_state(path) == running
    if sys.platform != "win32":
        assert path.stat().st_mode & 0o077 == 0
    console_gate.forget_state(console_gate.Running(1, "other", ""), path)  # another console's: kept
    assert path.exists()
    console_gate.forget_state(running, path)
    assert not path.exists()


def test_the_token_route_answers_only_the_launch_secret(running):
    browser = Browser(running.hall.port)
    assert browser.ask("POST", "/console/token", headers={"X-Console-Secret": "wrong"})[0] == 403
    status, _, text = browser.ask("POST", "/console/token", headers={"X-Console-Secret": running.gate.launch_secret})
    token = json.loads(text)["token"]
    assert status == 200 and browser.ask("GET", f"/console/enter?token={token}")[0] == 303


def test_a_second_start_finds_the_running_console_and_opens_it_with_a_fresh_token(tmp_path):
    env = {**__import__("os").environ, console_gate.STATE_ENV: str(tmp_path / "state")}
    root = tmp_path / "root"
    command = [sys.executable, "-m", "shuangsheng", "start", str(root), "--port", "0", "--no-browser"]
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while console_gate.read_state(tmp_path / "state" / "console.json") is None:
            assert time.monotonic() < deadline and first.poll() is None, "the console did not start"
            time.sleep(0.1)
        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 0 and "已在运行" in second.stdout
        url = re.search(r"http://127\.0\.0\.1:(\d+)(/console/enter\?token=\S+)", second.stdout)
        assert url is not None
        assert Browser(int(url.group(1))).ask("GET", url.group(2))[0] == 303
    finally:
        first.terminate()
        first.wait(timeout=30)


# --- letting the phones in ---


def test_letting_the_phones_in_answers_on_the_lan_address_and_writes_the_qr_sheet(running, root, monkeypatch):
    import shuangsheng.hall.lan

    first_round_scored(root / "赛")
    browser = open_event(running)
    monkeypatch.setattr(shuangsheng.hall.lan, "lan_address", lambda: None)
    status, _, text = browser.press("/console/round/lan")
    assert status == 503 and "找不到这台电脑的局域网地址" in text and running.lan is None
    monkeypatch.setattr(shuangsheng.hall.lan, "lan_address", lambda: "127.0.0.2")  # a second address of this PC
    status, headers, _ = browser.press("/console/round/lan")
    assert status == 303 and running.lan == f"http://127.0.0.2:{running.hall.port}/"
    phone = http.client.HTTPConnection("127.0.0.2", running.hall.port, timeout=30)
    phone.request("GET", "/board.json", headers={"Host": f"127.0.0.2:{running.hall.port}"})
    assert phone.getresponse().status == 200
    phone.close()
    deadline = time.monotonic() + 60
    while not (root / "赛" / "第1轮扫码单.pdf").exists():
        assert time.monotonic() < deadline, "no 扫码单 for the round drawn"
        time.sleep(0.2)
    assert running.lan in browser.page("/console/round")


def test_a_lost_ledger_is_said_on_every_page_with_the_button_that_builds_it_again(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    running.hall.site.replace(None)  # serve let go of event.db (as after a restart), then it is lost
    (root / "赛" / "event.db").unlink()
    running.open_event(root / "赛")
    status, _, text = browser.ask("GET", "/console/correct")
    assert status == 409 and "重建比赛记录" in text and "shuangsheng rebuild" not in text
    page, state = job_of(browser, browser.press("/console/round/rebuild"))
    assert state["ok"] is True and (root / "赛" / "event.db").is_file()
    assert "第1轮计分" in browser.page("/console/correct")


def test_a_job_stopped_by_a_lost_ledger_offers_the_rebuild(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    running.hall.site.replace(None)
    (root / "赛" / "event.db").unlink()
    running.open_event(root / "赛")
    page, state = job_of(browser, browser.press("/console/round/score", round=1))
    assert state["ok"] is False and 'action="/console/round/rebuild"' in page


def test_a_command_holding_the_folder_is_named_while_the_button_waits_for_it(running, root):
    import threading

    from shuangsheng.storage.ledger.lock import exclusive

    new_event(root / "赛", teams=4)
    browser = open_event(running)
    running.inline = False  # the job in its own thread, as on the day
    held, release = threading.Event(), threading.Event()

    def terminal_command() -> None:
        with exclusive(root / "赛"):
            held.set()
            release.wait(60)

    holder = threading.Thread(target=terminal_command)
    holder.start()
    try:
        assert held.wait(30)
        status, headers, _ = browser.press("/console/materials/build")
        job = "/api" + headers["location"]
        deadline = time.monotonic() + 30
        while "正在等待" not in (state := json.loads(browser.ask("GET", job)[2]))["label"]:
            assert time.monotonic() < deadline and state["running"], state
            time.sleep(0.1)
        assert "另一个命令" in state["label"] and state["running"]
    finally:
        release.set()
        holder.join(30)
    deadline = time.monotonic() + 120
    while (state := json.loads(browser.ask("GET", job)[2]))["running"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert state["ok"] is True and (root / "赛" / "通知.pdf").is_file()


def test_start_on_an_event_folder_opens_that_event_alone(tmp_path):
    env = {**__import__("os").environ, console_gate.STATE_ENV: str(tmp_path / "state")}
    first_round_scored(tmp_path / "赛")
    command = [sys.executable, "-m", "shuangsheng", "start", str(tmp_path / "赛"), "--port", "0", "--no-browser"]
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = ""
        while "/console/enter?token=" not in line:
            line = first.stdout.readline()  # type: ignore[union-attr]
            assert line, "start said nothing"
        url = re.search(r"http://127\.0\.0\.1:(\d+)(/console/enter\?token=\S+)", line)
        assert url is not None
        browser = Browser(int(url.group(1)))
        assert browser.ask("GET", url.group(2))[0] == 303
        assert "第1轮" in browser.page("/console/round")
        assert "新建比赛" not in browser.page("/console/events")
    finally:
        first.terminate()
        first.wait(timeout=30)


def test_correct_gives_a_phone_table_of_an_earlier_round_to_its_signed_card(running, root):
    """更正 → 以纸质为准 on round 1's phone table after round 2 was drawn: the desk's press with its reason, the sheet
    then the record (the phone's hands kept in event.db), a press without a reason refused saying what to fill."""
    from tests.events import second_round_drawn
    from tests.helpers import cli
    from tests.test_sources import by_phone, record

    folder = root / "赛"
    second_round_drawn(folder)
    by_phone(folder, 1, 1, record(99))  # the phone's record of round 1's table 1, not what its signed card says
    assert json.loads(cli("score", folder, "--round", 1, "--json", code=1).stdout)["matches"][0]["source"] == "both"
    browser = open_event(running)
    page = browser.page("/console/correct")
    table = re.search(r'action="/console/correct/paper_rules".*?<option value="(1\|\d+\|\w+\|\w+)"', page, re.S)
    assert table is not None, page
    status, _, text = browser.press("/console/correct/paper_rules", table=table.group(1), round=1, reason="")
    assert status == 422 and "请填写以纸质为准的原因" in text
    status, headers, _ = browser.press("/console/correct/paper_rules", table=table.group(1), round=1,
                                       reason="以双方签字的计分卡为准")
    assert status == 303 and headers["location"] == "/console/correct#round-1"
    first = json.loads(cli("score", folder, "--round", 1, "--json").stdout)["matches"][0]
    assert (first["source"], first["errors"]) == ("paper", [])
    assert first["paper_rules"]["reason"] == "以双方签字的计分卡为准" and first["paper_rules"]["phone_hands"] > 0


# --- settings and the team list from the page ---


def form_mark(text: str) -> str:
    found = re.search(r'name="mark" value="([^"]+)"', text)
    assert found is not None
    return found.group(1)


def test_settings_are_saved_from_the_page_keeping_the_files_comments_and_a_copy(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    page = browser.page("/console/settings")
    assert "比赛名称" in page or "标题" in page
    toml = root / "赛" / EVENT_FILE
    comments = [line for line in toml.read_text(encoding="utf-8").splitlines() if line.lstrip().startswith("#")]
    status, headers, _ = browser.press("/console/settings/save", mark=form_mark(page), **{"s-event.title": "秋季赛"})
    assert status == 303 and headers["location"].startswith("/console/settings?saved=1")
    text = toml.read_text(encoding="utf-8")
    assert 'title = "秋季赛"' in text and all(c in text.splitlines() for c in comments)
    assert list((root / "赛" / "备份").glob("event.备份-*.toml"))
    assert "已保存" in browser.page(headers["location"])


def test_a_setting_refused_is_said_at_its_field_with_what_was_typed(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    page = browser.page("/console/settings")
    before = (root / "赛" / EVENT_FILE).read_bytes()
    status, _, text = browser.press("/console/settings/save", mark=form_mark(page), **{"s-rules.match_minutes": "abc"})
    assert status == 422 and 'value="abc"' in text and "bad-row" in text
    assert (root / "赛" / EVENT_FILE).read_bytes() == before


def test_settings_changed_elsewhere_since_the_page_was_shown_are_not_overwritten(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    page = browser.page("/console/settings")
    toml = root / "赛" / EVENT_FILE
    toml.write_text(toml.read_text(encoding="utf-8") + "\n# 记事本里加的一行\n", encoding="utf-8")
    status, _, text = browser.press("/console/settings/save", mark=form_mark(page), **{"s-event.title": "别的"})
    assert status == 422 and "重新打开设置页" in text and "记事本里加的一行" in toml.read_text(encoding="utf-8")


def test_a_team_is_added_and_one_corrected_from_the_page(running, root):
    new_event(root / "赛", teams=4)
    browser = open_event(running)
    page = browser.page("/console/teams")
    status, headers, _ = browser.press("/console/teams/add", mark=form_mark(page),
                                       **{"t-队员1": "王五", "t-队员2": "=赵六", "t-单位": "化学系"})
    assert status == 303 and "added=05" in headers["location"]
    page = browser.page("/console/teams?edit=02")
    assert "改正第02组" in page
    status, headers, _ = browser.press("/console/teams/correct", mark=form_mark(page), team="02",
                                       **{"t-队员1": "张二改"})
    assert status == 303 and "corrected=02" in headers["location"]
    from shuangsheng.storage.workbook import read_teams

    teams = {t.id: t for t in read_teams(root / "赛" / "teams.xlsx")}
    assert teams["05"].players == ("王五", "=赵六") and teams["05"].unit == "化学系"
    assert teams["02"].players[0] == "张二改" and len(teams) == 5
    stale = browser.press("/console/teams/add", mark=form_mark(page), **{"t-队员1": "甲", "t-队员2": "乙"})
    assert stale[0] == 422 and "重新" in stale[2] and len(read_teams(root / "赛" / "teams.xlsx")) == 5


def test_no_team_is_added_once_the_event_is_drawn(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    page = browser.page("/console/teams")
    assert "添加这一组" not in page and "不能参加这场比赛" in page
    status, _, text = browser.press("/console/teams/add", mark="x", **{"t-队员1": "甲", "t-队员2": "乙"})
    assert status == 409 and "已经抽过签" in text


def test_a_file_the_pc_cannot_open_is_said_with_where_it_is(running, root):
    from shuangsheng.vocabulary.errors import Issue

    new_event(root / "赛", teams=4)
    browser = open_event(running)
    running.opener = lambda path: Opening(path, Issue.of_file(path, "没有能打开它的程序：请在文件夹里双击打开它"))
    status, _, text = browser.press("/console/teams/open", name="teams.xlsx", back="/console/teams")
    assert status == 503 and "双击打开它" in text


def test_a_rules_change_after_scoring_is_held_and_explained_until_the_organiser_accepts_it(running, root):
    first_round_scored(root / "赛")
    browser = open_event(running)
    page = browser.page("/console/settings")
    status, headers, _ = browser.press("/console/settings/save", mark=form_mark(page),
                                       **{"s-rules.dealer_table": "floor"})
    assert status == 303 and "rules=1" in headers["location"]
    assert "已经计分的各轮仍按原来的规则" in browser.page(headers["location"])
    page = browser.page("/console/correct")
    assert "按新规则重新计分第1轮" in page and "第1、2、3、4桌的结果会变" in page
    page, state = job_of(browser, browser.press("/console/correct/score", round=1, accept_rules=1))
    # scored under the new rules: the sheets' typed 庄家级 now disagree with them, each said at its cell
    assert state["running"] is False and "第1桌!C10" in page
    assert "按新规则重新计分" not in browser.page("/console/correct")


def test_the_award_date_is_asked_on_the_awards_page_and_saved_into_the_settings(running, root):
    from tests.events import finished

    finished(root / "赛", teams=4)
    browser = open_event(running)
    page = browser.page("/console/awards")
    assert "还没有填" in page
    status, headers, _ = browser.press("/console/awards/date", mark=form_mark(page), date="2026-12-20")
    assert status == 303 and headers["location"] == "/console/awards"
    assert "award_date = 2026-12-20" in (root / "赛" / EVENT_FILE).read_text(encoding="utf-8")
    assert 'value="2026-12-20"' in browser.page("/console/awards")
    status, _, text = browser.press("/console/awards/date", mark=form_mark(page), date="2026-12-21")  # an old page
    assert status == 422 and "重新打开设置页" in text


def test_the_guide_opens_the_docs_beside_the_program(running):
    browser = entered(running)
    page = browser.page("/console/guide")
    assert "组织者控制台（console.md）" in page
    status, headers, _ = browser.press("/console/guide/open", name="console.md")
    assert status == 303 and running.opened[-1].name == "console.md"  # type: ignore[attr-defined]
    assert browser.press("/console/guide/open", name="../README.md")[0] == 404
    assert browser.press("/console/guide/open", name="nope.md")[0] == 404
