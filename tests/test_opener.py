"""The PC's own program opens a file for the console (shuangsheng/storage/opener.py): the call each system takes,
and every failure as a record, never an exception. No test opens a window: the system's calls are fakes."""

from __future__ import annotations

from pathlib import Path

import pytest

from shuangsheng.storage.opener import Opening, open_in_system


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "teams.xlsx"
    path.write_bytes(b"x")
    return path


@pytest.mark.parametrize(("platform", "command"), [("linux", "xdg-open"), ("darwin", "open"), ("freebsd14", "xdg-open")])
def test_each_system_is_asked_with_its_own_command(book, platform, command):
    calls = []
    opening = open_in_system(book, platform=platform, spawn=calls.append, startfile=lambda p: pytest.fail(p))
    assert opening == Opening(book) and opening.ok
    assert calls == [[command, str(book)]]


def test_windows_opens_with_startfile(book):
    calls = []
    assert open_in_system(book, platform="win32", startfile=calls.append, spawn=lambda c: pytest.fail(str(c))).ok
    assert calls == [str(book)]


def test_a_missing_file_is_a_record_and_nothing_is_started(tmp_path):
    opening = open_in_system(tmp_path / "第1轮对阵表.pdf", platform="linux", spawn=lambda c: pytest.fail(str(c)))
    assert not opening.ok and opening.issue is not None and "找不到这个文件" in opening.issue.detail


def test_no_program_for_the_file_is_a_record_in_chinese(book):
    def refused(path):
        raise OSError(1155, "No application is associated with the specified file")

    opening = open_in_system(book, platform="win32", startfile=refused)
    assert opening.issue is not None and opening.issue.file == "teams.xlsx"
    assert opening.issue.detail.startswith("这台电脑没能用 Excel 或 WPS 打开这个文件")


def test_no_opener_command_is_a_record_in_chinese(book):
    def missing(command):
        raise FileNotFoundError(2, "No such file", command[0])

    opening = open_in_system(book, platform="linux", spawn=missing)
    assert opening.issue is not None and "xdg-open" in opening.issue.detail
