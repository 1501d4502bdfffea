"""shuangsheng/storage/qr_sheets.py through `shuangsheng draw --redo N`: the 扫码单 of the rounds the redo voids (their codes no
longer open a table) is removed while it is what `serve --lan` wrote; one a person edited, or one the system will
not delete now (open in a PDF reader on Windows), is kept and said in one line naming it. (The watch of a running
serve removes them too: tests/test_qr_watch.py.)"""

from __future__ import annotations

import os
from pathlib import Path

from shuangsheng.hall.qr_watch import Poll, QrWatch
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import qr_sheet_name, qr_sheet_round
from tests.events import round_one_corrected, third_round_drawn
from tests.helpers import cli

BASE = "http://192.168.137.1:8080"


def with_sheets(folder: Path) -> Path:
    """Round 3 drawn after `serve --lan` wrote round 2's 扫码单, and its watch then wrote round 3's (in-process)."""
    sheets = QrWatch(folder, BASE, say=lambda line: None, warn=lambda line: None, invariant=True)
    event = third_round_drawn(folder, before_third=lambda f: sheets.poll_once())
    assert sheets.poll_once() is Poll.DONE
    assert (folder / qr_sheet_name(2)).is_file() and (folder / qr_sheet_name(3)).is_file()
    return event


def redo_voiding_round_3(folder: Path) -> str:
    round_one_corrected(folder)
    return cli("draw", folder, "--redo", 2).output


def test_a_redo_removes_the_sheet_of_the_round_it_voids(tmp_path: Path) -> None:
    folder = with_sheets(tmp_path / "event")
    output = redo_voiding_round_3(folder)
    third = folder / qr_sheet_name(3)
    assert "第3轮的抽签已作废" in output
    assert f"已删除 {third}（第3轮的抽签已作废，上面的二维码已不能用）" in output.splitlines()
    assert not third.exists()
    assert (folder / qr_sheet_name(2)).is_file()  # round 2 goes on (serve writes it again with its new codes)
    with Ledger.open(folder) as book:
        assert book.recorded(third.name) is None  # forgotten: no longer the program's file


def test_a_sheet_a_person_edited_is_kept_and_said(tmp_path: Path) -> None:
    folder = with_sheets(tmp_path / "event")
    third = folder / qr_sheet_name(3)
    edited = third.read_bytes() + b"% a note typed in a PDF editor\n"
    third.write_bytes(edited)
    output = redo_voiding_round_3(folder)
    assert third.read_bytes() == edited
    assert (f"{third}：第3轮的抽签已作废，这张扫码单上的二维码已不能用；它和本程序生成的不一样（可能有人改动过），"
            "所以没有删除。请不要打印或发放它，把它删掉或移走") in output.splitlines()
    assert not any(line.startswith("已删除") and "扫码单" in line for line in output.splitlines())


def test_a_sheet_that_cannot_be_deleted_now_is_kept_and_said(tmp_path: Path, monkeypatch) -> None:
    folder = with_sheets(tmp_path / "event")
    third = folder / qr_sheet_name(3)
    kept = third.read_bytes()
    unlink = Path.unlink

    def refuse(path: Path, missing_ok: bool = False) -> None:  # as Windows does while the PDF is open in a reader
        if path.name == third.name:
            raise PermissionError(13, "另一个程序正在使用此文件，进程无法访问。", os.fspath(path))
        unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refuse)
    output = redo_voiding_round_3(folder)
    assert third.read_bytes() == kept
    assert (f"{third}：第3轮的抽签已作废，这张扫码单上的二维码已不能用，但现在无法删除（可能正在 PDF 阅读器中打开）。"
            "请关闭后把它删掉，不要打印或发放") in output.splitlines()
    with Ledger.open(folder) as book:
        assert book.is_ours(third)  # still the program's: removed once it can be (serve's watch tries again)


def test_only_a_sheet_s_own_name_is_taken_for_a_sheet() -> None:
    assert [qr_sheet_round(n) for n in ("第3轮扫码单.pdf", "第12轮扫码单.pdf", "第3轮扫码单 (1).pdf", "第0轮扫码单.pdf",
                                        "第3轮计分卡.pdf", "x第3轮扫码单.pdf")] == [3, 12, None, None, None, None]
    assert qr_sheet_round(qr_sheet_name(7)) == 7
