"""The commands on a PC at fault — a full disk, a read-only folder, event.db held by another program, a disk error —
say so in plain words naming the file, never a crash report; `--json` prints one JSON document on every failure,
the crash too; running the same command again once the fault is gone finishes the work."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shuangsheng.storage import faults
from shuangsheng.storage.ledger import connection
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import DB_NAME
from shuangsheng.vocabulary.errors import ERROR_KEYS
from tests import helpers
from tests.events import fill, new_event
from tests.helpers import cli


@pytest.fixture
def tiny_disk(tmp_path: Path):
    mount = helpers.tiny_disk(tmp_path, "4m")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill_disk(mount: Path) -> Path:
    filler = mount / "filler"
    with contextlib.suppress(OSError), filler.open("wb") as out:
        while True:
            out.write(b"\0" * 65536)
    return filler


def _failed_json(*args: object) -> dict:
    """The one JSON document a failed `--json` command prints."""
    result = cli(*args, "--json", code=1)
    doc = json.loads(result.stdout)
    assert set(doc) == {"errors", "heading", "hint"} and all(list(e) == list(ERROR_KEYS) for e in doc["errors"])
    return doc


def _sqlite_error(code: int, text: str) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(text)
    exc.sqlite_errorcode = code
    return exc


def test_score_on_a_full_disk_says_so_and_running_it_again_finishes(tiny_disk: Path) -> None:
    folder = new_event(tiny_disk / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    filler = _fill_disk(tiny_disk)
    said = cli("score", folder, code=1).output
    assert "磁盘满了" in said and "再运行一次同样的命令" in said and str(folder) in said
    doc = _failed_json("score", folder)
    assert "磁盘满了" in doc["errors"][0]["message"] and str(folder) in doc["errors"][0]["file"]
    filler.unlink()  # room again: the same command, as the message says
    assert "下一步：运行 shuangsheng draw" in cli("score", folder).output
    assert (folder / "round-1-checked.xlsx").is_file() and (folder / "第1轮成绩.pdf").is_file()


def test_a_read_only_event_db_is_said_as_a_folder_that_cannot_be_written(tmp_path: Path, monkeypatch) -> None:
    """(As root a folder cannot be made read-only for SQLite: the ledger's write fails as SQLite's does.)"""
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)

    def read_only(self, *args, **kwargs):
        raise _sqlite_error(sqlite3.SQLITE_READONLY, "attempt to write a readonly database")

    monkeypatch.setattr(Ledger, "record_scored", read_only)
    said = cli("score", folder, code=1).output
    assert f"{folder / DB_NAME}：" in said and "不能写入" in said and "本地磁盘" in said
    assert "不能写入" in _failed_json("score", folder)["errors"][0]["message"]


def test_event_db_held_by_another_program_is_named_and_the_command_works_once_it_lets_go(tmp_path: Path,
                                                                                        monkeypatch) -> None:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    monkeypatch.setattr(connection, "LOCK_WAIT", 0.2)
    other = sqlite3.connect(folder / DB_NAME, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # a database viewer, say, in the middle of a write
        said = cli("score", folder, code=1).output
        assert "正被另一个程序占用" in said and "再运行一次同样的命令" in said
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert "下一步：运行 shuangsheng draw" in cli("score", folder).output


def test_a_disk_error_with_room_left_is_a_disk_error_and_without_room_a_full_disk(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    io_error = _sqlite_error(sqlite3.SQLITE_IOERR, "disk I/O error")
    assert "磁盘出错" in faults.known_fault(io_error, tmp_path).detail
    monkeypatch.setattr(faults, "free_space", lambda folder: 1000)
    assert "磁盘满了" in faults.known_fault(io_error, tmp_path).detail
    assert faults.known_fault(_sqlite_error(sqlite3.SQLITE_ERROR, "no such table"), tmp_path) is None  # a bug
    assert faults.known_fault(RuntimeError("bug"), tmp_path) is None


def test_a_crash_under_json_prints_one_json_document_and_does_not_claim_nothing_was_written(tmp_path: Path,
                                                                                           monkeypatch) -> None:
    from shuangsheng.cli import app
    from shuangsheng.usecases import score_step

    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)

    def bug(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(score_step, "score_and_write", bug)
    result = CliRunner().invoke(app, ["score", str(folder), "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert set(doc) == {"errors", "heading", "hint"} and "意外错误" in doc["errors"][0]["message"]
    assert "错误报告" in result.stderr and "已经写好的文件和记录都完整保留" in result.stderr
    assert "您的文件没有被改动" not in result.stderr
