"""The command line at its edges: a reader that goes away, a path the system refuses, a port already taken, and
the PC's own name in the address bar."""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
from pathlib import Path

from shuangsheng.hall import server
from shuangsheng.storage import files
from tests.events import new_event
from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]


def test_a_closed_pipe_is_no_crash_and_the_work_is_finished(tmp_path: Path) -> None:
    """`shuangsheng demo | head -1`: the reader leaves after one line; the command still writes every file and
    says nothing about an error."""
    out = tmp_path / "ev"
    process = subprocess.Popen([sys.executable, "-c", "from shuangsheng import cli; cli.main()", "demo", "--out", str(out),
                                "--teams", "4"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()  # as `head -1` does
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err.decode()
    assert err.decode() == ""
    assert not [p for p in out.iterdir() if "错误报告" in p.name]
    assert (out / "成绩公告.pdf").exists()  # the demo ran to its end


def test_a_path_nested_too_deep_is_named_as_too_long_as_a_whole() -> None:
    deep = "/" + "/".join(["a" * 200] * 25)
    message = files.os_reason(OSError(errno.ENAMETOOLONG, "File name too long", deep))
    assert "整个路径" in message and "255" not in message
    one = "/tmp/" + "长" * 100
    assert "名字最长 255 字节" in files.os_reason(OSError(errno.ENAMETOOLONG, "File name too long", one))


def test_a_port_in_use_is_said_in_chinese(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "ev", teams=4)
    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = cli("show", folder, "--port", port, code=1)
    finally:
        taken.close()
    assert "端口已被占用" in result.output and "Address" not in result.output


def test_the_pc_s_own_name_is_one_of_the_display_s_addresses(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "Office-PC")
    httpd = server.make_server(new_event(tmp_path / "ev", teams=4), "127.0.0.1", 0, log=lambda line: None)
    try:
        port = httpd.server_address[1]
        assert server.host_allowed(f"office-pc:{port}", httpd.names, port)
        assert server.host_allowed("office-pc.local", httpd.names, port)
        assert not server.host_allowed(f"evil.example:{port}", httpd.names, port)
    finally:
        httpd.server_close()




def test_draw_after_the_final_says_the_event_is_over(tmp_path: Path) -> None:
    from tests.events import finished

    folder = tmp_path / "ev"
    finished(folder, teams=4)
    result = cli("draw", folder, code=1)
    assert "比赛已经结束" in result.output and "awards" in result.output and "比赛结束后" not in result.output
