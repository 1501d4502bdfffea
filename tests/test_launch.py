"""The Windows Start-menu entry's launcher (shuangsheng/cli/launch.py): until the console lands, the demo event's hall
under the events root, the browser opened at it, and a second start that only opens the browser."""

from __future__ import annotations

import http.server
import threading

import pytest

from shuangsheng.cli import launch


class Recorder:
    def __init__(self, codes=None):  # type: ignore[no-untyped-def]
        self.ran: list[list[str]] = []
        self.opened: list[str] = []
        self.codes = codes or {}

    def run(self, argv) -> int:  # type: ignore[no-untyped-def]
        self.ran.append(list(argv))
        return self.codes.get(argv[0], 0)

    def open(self, url: str) -> None:
        self.opened.append(url)


def test_the_events_root_is_in_documents():
    assert launch.events_root().name == "双升级比赛"
    assert launch.events_root().parent == launch.documents()


def test_a_first_start_makes_the_root_and_the_demo_then_serves_it(tmp_path):
    root = tmp_path / "Documents" / "双升级比赛"
    seen = Recorder()
    later = []
    code = launch.launch(root, run=seen.run, probe=lambda url: False, open_browser=seen.open,
                         in_background=later.append)
    event = root / "示例比赛"
    assert code == 0 and root.is_dir()
    assert seen.ran == [["demo", "--out", str(event)], ["serve", str(event), "--port", "8000"]]
    assert seen.opened == [] and len(later) == 1  # the browser waits in the background for the hall to answer


def test_the_browser_opens_once_the_hall_answers():
    seen = Recorder()
    answers = iter([False, False, True])
    launch.open_when_up(launch.URL, probe=lambda url: next(answers), open_browser=seen.open, pause=0)
    assert seen.opened == ["http://127.0.0.1:8000/"]
    assert next(answers, "done") == "done"  # asked until it answered, not beyond


def test_an_existing_event_is_served_without_a_new_demo(tmp_path):
    event = tmp_path / "示例比赛"
    event.mkdir()
    (event / "event.toml").write_text("", encoding="utf-8")
    seen = Recorder()
    launch.launch(tmp_path, run=seen.run, probe=lambda url: False, open_browser=seen.open,
                  in_background=lambda work: None)
    assert seen.ran == [["serve", str(event), "--port", "8000"]]


def test_a_second_start_only_opens_the_browser(tmp_path):
    seen = Recorder()
    code = launch.launch(tmp_path / "root", run=seen.run, probe=lambda url: True, open_browser=seen.open)
    assert code == 0 and seen.ran == [] and seen.opened == [launch.URL]
    assert not (tmp_path / "root").exists()


def test_a_failed_demo_is_not_followed_by_serve(tmp_path):
    seen = Recorder(codes={"demo": 1})
    code = launch.launch(tmp_path, run=seen.run, probe=lambda url: False, open_browser=seen.open,
                         in_background=lambda work: pytest.fail("no browser for a failed start"))
    assert code == 1 and [argv[0] for argv in seen.ran] == ["demo"]


def _answering(server_version: str):  # type: ignore[no-untyped-def]
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self) -> None:
            self.send_response(200)
            self.end_headers()

        def log_message(self, format, *args) -> None:  # type: ignore[no-untyped-def]
            pass

    Handler.server_version = server_version
    Handler.sys_version = ""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.mark.parametrize(("server", "ours"), [("shuangsheng-serve", True), ("shuangsheng-show", True),
                                              ("SomethingElse/1.0", False)])
def test_a_running_hall_is_told_from_another_program_on_the_port(server, ours):
    httpd = _answering(server)
    try:
        assert launch.hall_running(f"http://127.0.0.1:{httpd.server_address[1]}/") is ours
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_nothing_listening_is_no_running_hall():
    httpd = _answering("shuangsheng-serve")
    port = httpd.server_address[1]
    httpd.server_close()  # bound and closed: nothing listens on the port now
    assert launch.hall_running(f"http://127.0.0.1:{port}/") is False


def test_a_command_runs_in_this_process_and_gives_its_exit_code(capsys):
    assert launch.run_command(["demo", "--teams", "1"]) == 2  # a usage mistake: exit 2, said in Chinese
    assert "--teams 应为 2 到 128 之间的整数" in capsys.readouterr().err
