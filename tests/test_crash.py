"""The last line of defence: an unexpected exception is a short Chinese message and a saved report, never a
traceback on the terminal, exit 1 (shuangsheng.storage.crash and shuangsheng.cli.shared.GuardedCommand)."""

from __future__ import annotations

import subprocess
import sys
import tempfile

import pytest
from typer.testing import CliRunner

from shuangsheng import cli
from shuangsheng.cli.shared import GuardedCommand
from shuangsheng.storage import crash
from tests.helpers import ROOT

runner = CliRunner()


def boom(*args, **kwargs):
    raise RuntimeError("an unexpected bug")


def reports(folder):
    return sorted(folder.glob(f"{crash.REPORT_PREFIX}*.txt"))


@pytest.fixture
def temp_dir(tmp_path, monkeypatch):
    """The system temporary folder, redirected into this test's own folder."""
    place = tmp_path / "tmp"
    place.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(place))
    return place


def test_a_bug_in_score_is_reported_in_the_event_folder(tmp_path, monkeypatch, temp_dir):
    import shuangsheng.usecases.score

    folder = tmp_path / "event"
    assert runner.invoke(cli.app, ["init", str(folder)]).exit_code == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    monkeypatch.setattr(shuangsheng.usecases.score, "score", boom)
    result = runner.invoke(cli.app, ["score", str(folder), "--round", "2"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and "an unexpected bug" not in result.output
    assert "程序出现了意外错误" in result.output and "已经写好的文件和记录都完整保留" in result.output
    (report,) = reports(folder)
    assert f"错误报告（含出错经过和版本信息）已保存在：{report}" in result.output
    text = report.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "RuntimeError: an unexpected bug" in text
    assert "command: shuangsheng score" in text and "round_number=2" in text
    assert "openpyxl " in text and "Python " in text
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p != report} == before  # inputs untouched
    assert not reports(temp_dir)


def test_a_bug_in_replay_is_reported_in_the_temporary_folder(tmp_path, monkeypatch, temp_dir):
    import shuangsheng.game.match

    record = tmp_path / "match.json"
    record.write_text('{"hands": [{"dealer": "A", "points": 35}]}', encoding="utf-8")
    monkeypatch.setattr(shuangsheng.game.match, "replay", boom)
    result = runner.invoke(cli.app, ["replay", str(record)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    (report,) = reports(temp_dir)
    assert str(report) in result.output
    assert "RuntimeError: an unexpected bug" in report.read_text(encoding="utf-8")


def test_report_falls_back_to_the_temporary_folder_and_then_says_it_could_not_save(tmp_path, monkeypatch, temp_dir):
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x", encoding="utf-8")
    try:
        raise ValueError("x")
    except ValueError as exc:
        saved = crash.save_report(exc, ["shuangsheng", "score"], not_a_folder)
        assert saved is not None and saved.parent == temp_dir
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing" / "nested" / "file.txt" / "x"))
        (tmp_path / "missing").write_text("a file where a folder should be", encoding="utf-8")
        assert crash.save_report(exc, ["shuangsheng"], None) is None
        lines = crash.message(None, exc)
    assert lines[-1] == "错误报告无法保存（文件夹不可写）；错误类型：ValueError"


def test_the_real_command_line_shows_no_traceback(tmp_path):
    """Through cli.main in a separate process, as a user runs it."""
    code = (
        "import sys, tempfile\nfrom shuangsheng import cli\nimport shuangsheng.usecases.awards\n"
        f"tempfile.tempdir = {str(tmp_path)!r}\n"
        "def boom(*a, **k): raise KeyError('bug')\n"
        "shuangsheng.usecases.awards.awards = shuangsheng.usecases.awards.bracket = boom\n"
        "sys.argv[0] = 'shuangsheng'\n"
        "cli.main()\n"
    )
    folder = tmp_path / "event"
    folder.mkdir()
    done = subprocess.run([sys.executable, "-c", code, "awards", str(folder)], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert "程序出现了意外错误" in done.stderr
    (report,) = reports(folder)
    assert "KeyError: 'bug'" in report.read_text(encoding="utf-8")


def test_every_command_runs_inside_the_last_line_of_defence():
    import typer.main

    group = typer.main.get_command(cli.app)
    for name, command in group.commands.items():
        assert isinstance(command, GuardedCommand), name
