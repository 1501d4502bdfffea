"""Regular files only (issue 16, item 7): a FIFO, a device, a directory or a socket where a file is expected is
refused by name at once, and a path the system refuses (a name over 255 bytes) gets a plain message — never a
hang, a MemoryError or a crash report. Through the command line, where the user meets it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from shuangsheng.storage import files
from tests.events import new_event
from tests.helpers import ROOT, cli

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
needs_dev_zero = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero on this system")


@pytest.fixture
def drawn(tmp_path) -> Path:
    folder = new_event(tmp_path / "event", teams=4)
    cli("draw", folder, "--seed", 1)
    return folder


def shuangsheng(*args: object, timeout: float = 120) -> subprocess.CompletedProcess:
    """The program in a process of its own, killed if it waits longer than `timeout` (a hang fails the test)."""
    code = "import sys; from shuangsheng import cli; sys.argv[0] = 'shuangsheng'; cli.main()"
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@needs_fifo
def test_a_fifo_named_like_a_round_workbook_is_refused_at_once(drawn):
    os.mkfifo(drawn / "round-2.xlsx")  # opening it for reading would wait for a writer for ever
    result = shuangsheng("score", drawn, "--round", 2)
    assert result.returncode == 1, result.stderr
    assert "round-2.xlsx：这是一个命名管道（FIFO），不是 Excel 工作簿（.xlsx）" in result.stderr
    assert "错误报告" not in result.stderr + result.stdout and "Traceback" not in result.stderr


@needs_dev_zero
def test_event_toml_linked_to_dev_zero_is_refused_without_reading_it(drawn):
    (drawn / "event.toml").unlink()
    (drawn / "event.toml").symlink_to("/dev/zero")
    result = cli("score", drawn, code=1)
    assert f"{drawn / 'event.toml'}：这是一个设备（如 /dev/zero），不是活动设置文件（event.toml）" in result.output


@needs_dev_zero
def test_replay_of_dev_zero_is_refused_without_reading_it():
    result = cli("replay", "/dev/zero", code=1)
    assert "/dev/zero：这是一个设备（如 /dev/zero），不是对局记录（JSON 文件）" in result.output


def test_a_directory_named_like_a_round_workbook_is_refused(drawn):
    (drawn / "round-1.xlsx").unlink()
    (drawn / "round-1.xlsx").mkdir()
    result = cli("score", drawn, "--round", 1, code=1)
    assert "round-1.xlsx：这是一个文件夹，不是 Excel 工作簿（.xlsx）" in result.output


def test_a_socket_named_like_the_team_list_is_refused(drawn, tmp_path):
    if not hasattr(socket, "AF_UNIX"):
        pytest.skip("no Unix sockets on this system")
    (drawn / "teams.xlsx").unlink()
    with socket.socket(socket.AF_UNIX) as sock:
        try:
            sock.bind(str(drawn / "teams.xlsx"))
        except OSError:  # the path is too long for a socket address on this system
            pytest.skip("socket path too long")
        result = cli("draw", drawn, "--force", code=1)
    assert "teams.xlsx：这是一个套接字（socket），不是 Excel 工作簿（.xlsx）" in result.output


@pytest.mark.parametrize("command", [["score"], ["draw"], ["materials"], ["awards"], ["init"], ["show"]])
def test_a_folder_name_over_255_bytes_gets_a_plain_message(tmp_path, command):
    folder = tmp_path / ("长" * 100)  # 300 bytes in UTF-8
    result = cli(*command, folder, code=1)
    assert "路径太长：一个文件或文件夹的名字最长 255 字节" in result.output
    assert "长" * 100 in result.output


def test_replay_of_a_file_name_over_255_bytes_gets_a_plain_message(tmp_path):
    result = cli("replay", tmp_path / ("a" * 300 + ".json"), code=1)
    assert "路径太长" in result.output


@needs_fifo
def test_a_lots_file_that_is_a_fifo_is_refused_at_once(drawn):
    os.mkfifo(drawn / "lots.csv")
    result = shuangsheng("draw", drawn, "--force", "--lots", drawn / "lots.csv")
    assert result.returncode == 1, result.stderr
    assert "lots.csv：这是一个命名管道（FIFO），不是纸签文件（CSV）" in result.stderr


# --- the one helper every reader goes through ---


def test_read_user_file_caps_what_it_reads_by_kind(tmp_path):
    small = files.Kind("测试文件", 10, "测试文件只有几个字节")
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 10)
    assert files.read_user_file(path, small) == b"x" * 10
    path.write_bytes(b"x" * 11)
    with pytest.raises(files.Unreadable, match="文件太大.*测试文件只有几个字节"):
        files.read_user_file(path, small)
    with pytest.raises(files.Unreadable, match="找不到文件") as missing:
        files.read_user_file(tmp_path / "nope.txt", small)
    assert missing.value.missing


@needs_fifo
def test_a_fifo_as_a_generated_output_is_not_ours_and_is_not_read(tmp_path):
    """The check before replacing a PDF reads the old one for its fingerprint: a FIFO there is not read (it would
    wait for ever) and counts as somebody else's file."""
    os.mkfifo(tmp_path / "通知.pdf")
    from shuangsheng.storage.ledger.generated import check_regenerable

    with pytest.raises(files.OutputExists):
        check_regenerable(tmp_path / "通知.pdf", force=False)
