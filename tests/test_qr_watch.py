"""shuangsheng/hall/qr_watch.py, the 扫码单 of `serve --lan` kept in step with the draws (docs/hall-setup.md): a round drawn
while serve runs (`draw`, `draw --redo N`) gets its 第N轮扫码单.pdf with the codes in force — every QR code read back
by a QR reader and opening its table on the running hall; a folder held by another command is written on a later
poll; a person's edited sheet is kept and said once; what cannot be read now is said once and tried again; stopping
ends the thread; the sheet of a round whose draw is voided (`draw --redo N` voids the rounds after N) is removed,
or kept and said when a person edited it or it cannot be deleted now. In-process with short injected poll intervals, and once end to end through
`serve --address 127.0.0.2`."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from shuangsheng.hall import hall
from shuangsheng.hall.qr_watch import RETRY, Poll, QrWatch
from shuangsheng.render.materials.qr_sheet import table_address
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lock import exclusive
from shuangsheng.storage.ledger.marks import draws_mark
from shuangsheng.storage.ledger.records import fingerprint_of
from shuangsheng.storage.names import DB_NAME, qr_sheet_name
from shuangsheng.table.codes import format_code
from shuangsheng.usecases.draw import draw_next
from tests.events import first_round_scored, round_one_corrected, second_round_drawn, third_round_drawn
from tests.helpers import cli
from tests.pdfcheck import page_texts, qr_codes

pytest.importorskip("pypdfium2", reason="the 扫码单 test renders pages with pypdfium2: pip install -e '.[test]'")
pytest.importorskip("zxingcpp", reason="the 扫码单 test reads QR codes with zxing-cpp: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parents[1]
BASE = "http://192.168.137.1:8080"
WAIT = 30.0  # seconds: the most any sheet may take to appear (it takes a few polls)


class Console:
    """What the watch says (stdout) and warns (stderr) on serve's console; a test waits for a line."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.warned: list[str] = []
        self._changed = threading.Condition()

    def say(self, line: str) -> None:
        with self._changed:
            self.said.append(line)
            self._changed.notify_all()

    def warn(self, line: str) -> None:
        with self._changed:
            self.warned.append(line)
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[], bool]) -> bool:
        with self._changed:
            return self._changed.wait_for(predicate, timeout=WAIT)


def watch(folder: Path, base: str = BASE, **options) -> tuple[QrWatch, Console]:
    console = Console()
    return QrWatch(folder, base, say=console.say, warn=console.warn, invariant=True, **options), console


def codes_in_force(folder: Path, number: int) -> dict[int, str]:
    with Ledger.open(folder) as book:
        return book.codes(book.draws()[number].id)


def addresses(path: Path) -> list[str]:
    """Every QR code of the sheet, read back at a printer's coarse resolution, in table order."""
    return sum(qr_codes(path.read_bytes(), 100), [])


def sheet(folder: Path, number: int) -> Path:
    return folder / qr_sheet_name(number)


def get(port: int, path: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.fixture
def running_hall():
    """The hall of `serve` on 127.0.0.1 (a free port) in this process, with its 扫码单 watch polling every 50 ms;
    both stopped after the test."""
    started: list[tuple[hall.Hall, QrWatch]] = []

    def start(folder: Path) -> tuple[hall.Hall, QrWatch, Console]:
        server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0)
        server.start()
        sheets, console = watch(folder, server.addresses()[0], poll=0.05, wait=0.05)
        started.append((server, sheets))
        sheets.start()
        return server, sheets, console

    yield start
    for server, sheets in started:
        sheets.stop()
        server.stop()


def test_a_round_drawn_while_serve_runs_gets_its_sheet_and_every_code_opens_its_table(tmp_path, running_hall):
    folder = first_round_scored(tmp_path / "event")
    server, sheets, console = running_hall(folder)
    base = server.addresses()[0].rstrip("/")
    assert console.said == [f"已生成 {sheet(folder, 1)}（每桌一个二维码，打印后放在各桌）"]  # at the start, as before
    assert not sheet(folder, 2).exists()
    cli("draw", folder, "--seed", 2)  # the organiser draws round 2 in another window
    assert console.wait_for(lambda: len(console.said) == 2)
    assert console.said[1] == f"第2轮扫码单已更新：{sheet(folder, 2)}（第2轮已抽签，请打印后放在各桌）"
    codes = codes_in_force(folder, 2)
    assert len(codes) == 2 and not set(codes.values()) & set(codes_in_force(folder, 1).values())
    found = addresses(sheet(folder, 2))
    assert found == [table_address(base, codes[t]) for t in sorted(codes)]
    for table, address in zip(sorted(codes), found, strict=True):  # each code opens its table of round 2
        status, state = get(server.port, "/api" + address.removeprefix(base))
        assert status == 200 and (state["round"], state["table"]) == (2, table)
    assert format_code(codes[2]) in "".join(page_texts(sheet(folder, 2).read_bytes()))
    assert console.warned == []
    sheets.stop()  # serve stopped: the watch's thread is gone
    assert not sheets.running
    assert not any(t.name == "qr-watch" and t.is_alive() for t in threading.enumerate())


def test_a_redo_while_serve_runs_rewrites_that_rounds_sheet_with_the_new_codes(tmp_path, running_hall):
    folder = second_round_drawn(tmp_path / "event")
    server, _, console = running_hall(folder)
    base = server.addresses()[0].rstrip("/")
    before = codes_in_force(folder, 2)
    first = sheet(folder, 2).read_bytes()
    assert console.said == [f"已生成 {sheet(folder, 2)}（每桌一个二维码，打印后放在各桌）"]
    round_one_corrected(folder)
    cli("draw", folder, "--redo", 2)
    assert console.wait_for(lambda: len(console.said) == 2)
    after = codes_in_force(folder, 2)
    changed = [t for t in sorted(after) if after[t] != before[t]]
    assert changed == [2]  # the table the correction changed; table 1 keeps its code (and its printed sheet)
    assert console.said[1] == (f"第2轮扫码单已更新：{sheet(folder, 2)}（第2轮重新抽签：第2桌换了新录分码，旧码作废，"
                               "请重新打印）")
    assert sheet(folder, 2).read_bytes() != first
    assert addresses(sheet(folder, 2)) == [table_address(base, after[t]) for t in sorted(after)]
    assert get(server.port, f"/api/t/{before[2]}")[0] == 404  # the old code printed before stops working
    assert get(server.port, f"/api/t/{after[2]}")[1]["table"] == 2
    assert console.warned == []


def test_a_folder_held_by_another_command_is_written_on_a_later_poll(tmp_path):
    folder = first_round_scored(tmp_path / "event")
    sheets, console = watch(folder, wait=0.05)
    assert sheets.poll_once() is Poll.DONE and sheet(folder, 1).exists()
    assert sheets.poll_once() is Poll.UNCHANGED
    with exclusive(folder):  # `draw` holds the folder while it draws and writes its papers
        draw_next(folder, seed=2)
        assert sheets.poll_once() is Poll.BUSY
        assert sheets.poll_once() is Poll.BUSY  # never waits for it: the server goes on
        assert not sheet(folder, 2).exists()
    assert sheets.poll_once() is Poll.DONE
    codes = codes_in_force(folder, 2)
    assert addresses(sheet(folder, 2)) == [table_address(BASE, codes[t]) for t in sorted(codes)]
    assert sheets.poll_once() is Poll.UNCHANGED
    assert len(console.said) == 2 and console.warned == []  # a busy folder is nothing to say


def test_a_sheet_a_person_edited_is_kept_and_said_once(tmp_path):
    folder = first_round_scored(tmp_path / "event")
    sheets, console = watch(folder)
    assert sheets.poll_once() is Poll.DONE
    path = sheet(folder, 1)
    edited = path.read_bytes() + b"% a note typed in a PDF editor\n"
    path.write_bytes(edited)
    with Ledger.open(folder) as book:  # table 2 gets a new code (as a --redo gives one)
        book.set_codes(book.draws()[1].id, {2: "WXYZ2345"})
    assert sheets.poll_once() is Poll.DONE
    assert path.read_bytes() == edited
    kept = (f"{path}：这个文件和本程序上次生成的不一样（可能有人改动过），为免丢失改动没有覆盖；要换成新的扫码单，"
            "请把它改名或移走，再重新启动 serve")
    assert console.warned == [kept]
    assert sheets.poll_once() is Poll.UNCHANGED and console.warned == [kept]  # said once, not every poll
    again, console = watch(folder)  # serve started again: the same at the start
    assert again.poll_once() is Poll.DONE and console.warned == [kept] and path.read_bytes() == edited
    path.rename(folder / "扫码单-改过的.pdf")  # as the message says
    again, console = watch(folder)
    assert again.poll_once() is Poll.DONE and console.warned == []
    assert table_address(BASE, "WXYZ2345") in addresses(path)


def test_what_cannot_be_read_now_is_said_once_and_tried_again(tmp_path):
    folder = first_round_scored(tmp_path / "event")
    sheets, console = watch(folder)
    assert sheets.poll_once() is Poll.DONE
    toml = folder / "event.toml"
    good = toml.read_text(encoding="utf-8")
    with Ledger.open(folder) as book:
        book.set_codes(book.draws()[1].id, {3: "WXYZ2345"})
    toml.write_text(good + "\n[print\n", encoding="utf-8")  # event.toml being edited, half saved
    assert sheets.poll_once() is Poll.UNREADABLE
    assert console.warned and all("event.toml" in line for line in console.warned[:1])
    warned = list(console.warned)
    assert sheets.poll_once() is Poll.UNREADABLE and console.warned == warned  # not said again
    toml.write_text(good, encoding="utf-8")
    assert sheets.poll_once() is Poll.DONE
    assert console.said[-1] == f"第1轮扫码单已更新：{sheet(folder, 1)}（第1轮第3桌换了新录分码，旧码作废，请重新打印）"
    assert table_address(BASE, "WXYZ2345") in addresses(sheet(folder, 1))


def test_a_sheet_open_in_a_pdf_reader_is_said_once_and_written_once_it_is_closed(tmp_path, monkeypatch):
    folder = first_round_scored(tmp_path / "event")
    sheets, console = watch(folder)
    assert sheets.poll_once() is Poll.DONE
    with Ledger.open(folder) as book:
        book.set_codes(book.draws()[1].id, {1: "WXYZ2345"})

    def refuse(src, dst):  # as Windows does while the PDF is open in a reader
        raise PermissionError(13, "另一个程序正在使用此文件，进程无法访问。", str(dst))

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", refuse)
        assert sheets.poll_once() is Poll.FAILED
        assert sheets.poll_once() is Poll.FAILED  # tried again on every poll, said once
    assert console.warned[0].startswith(f"{sheet(folder, 1)}：无法写入") and "PDF 阅读器" in console.warned[0]
    assert console.warned[1:] == [RETRY]
    assert not list(folder.glob(".*.tmp"))
    assert sheets.poll_once() is Poll.DONE  # closed: written
    assert console.said[-1] == f"第1轮扫码单已更新：{sheet(folder, 1)}（第1轮第1桌换了新录分码，旧码作废，请重新打印）"
    assert table_address(BASE, "WXYZ2345") in addresses(sheet(folder, 1))


def voided_while_watched(folder: Path, edit: bool = False) -> tuple[QrWatch, Console, Path]:
    """Round 3 drawn while the watch runs (its sheet written), then its draw voided as `draw --redo 2` records it
    from another process (whose own removal of the sheet did not happen: stopped, or the file was open then)."""
    sheets, console = watch(folder)
    third_round_drawn(folder, before_third=lambda f: sheets.poll_once())
    assert sheets.poll_once() is Poll.DONE and sheet(folder, 3).is_file()
    assert console.said[-1] == f"第3轮扫码单已更新：{sheet(folder, 3)}（第3轮已抽签，请打印后放在各桌）"
    if edit:
        sheet(folder, 3).write_bytes(sheet(folder, 3).read_bytes() + b"% a note typed in a PDF editor\n")
    with Ledger.open(folder) as book:
        book.void_draw(book.draws()[3].id, "--redo 2")
    return sheets, console, sheet(folder, 3)


def test_the_sheet_of_a_round_voided_while_serve_runs_is_removed(tmp_path):
    sheets, console, third = voided_while_watched(tmp_path / "event")
    assert sheets.poll_once() is Poll.DONE
    assert not third.exists() and sheet(tmp_path / "event", 2).is_file()
    assert console.said[-1] == f"已删除 {third}（第3轮的抽签已作废，上面的二维码已不能用）"
    assert sheets.poll_once() is Poll.UNCHANGED and console.warned == []
    again, console = watch(tmp_path / "event")  # serve started again: nothing more to remove, nothing said of it
    assert again.poll_once() is Poll.DONE and console.said == [f"已生成 {sheet(tmp_path / 'event', 2)}（每桌一个二维码，打印后放在各桌）"]


def test_the_edited_sheet_of_a_voided_round_is_kept_and_said_once(tmp_path):
    folder = tmp_path / "event"
    sheets, console, third = voided_while_watched(folder, edit=True)
    edited = third.read_bytes()
    assert sheets.poll_once() is Poll.DONE
    kept = (f"{third}：第3轮的抽签已作废，这张扫码单上的二维码已不能用；它和本程序生成的不一样（可能有人改动过），"
            "所以没有删除。请不要打印或发放它，把它删掉或移走")
    assert console.warned == [kept] and third.read_bytes() == edited
    with Ledger.open(folder) as book:  # the mark moves again (table 1 of round 2 gets a new code)
        book.set_codes(book.draws()[2].id, {1: "WXYZ2345"})
    assert sheets.poll_once() is Poll.DONE and console.warned == [kept]  # said once, not at every change
    again, console = watch(folder)  # serve started again: said again at its start
    assert again.poll_once() is Poll.DONE and console.warned == [kept] and third.read_bytes() == edited


def test_the_sheet_of_a_voided_round_open_in_a_pdf_reader_is_said_once_and_removed_once_it_is_closed(tmp_path,
                                                                                                    monkeypatch):
    sheets, console, third = voided_while_watched(tmp_path / "event")
    unlink = Path.unlink

    def refuse(path: Path, missing_ok: bool = False) -> None:  # as Windows does while the PDF is open in a reader
        if path.name == third.name:
            raise PermissionError(13, "另一个程序正在使用此文件，进程无法访问。", os.fspath(path))
        unlink(path, missing_ok=missing_ok)

    with monkeypatch.context() as patched:
        patched.setattr(Path, "unlink", refuse)
        assert sheets.poll_once() is Poll.FAILED
        assert sheets.poll_once() is Poll.FAILED  # tried again on every poll, said once
    assert console.warned == [f"{third}：第3轮的抽签已作废，这张扫码单上的二维码已不能用，但现在无法删除（可能正在 PDF "
                              "阅读器中打开）。请关闭后把它删掉，不要打印或发放"]
    assert third.is_file()
    assert sheets.poll_once() is Poll.DONE  # closed: removed
    assert not third.exists() and console.said[-1] == f"已删除 {third}（第3轮的抽签已作废，上面的二维码已不能用）"
    assert sheets.poll_once() is Poll.UNCHANGED

def test_a_bug_in_the_watch_is_reported_and_ends_only_the_watch(tmp_path, monkeypatch, running_hall):
    from shuangsheng.hall import qr_watch
    from shuangsheng.storage.crash import REPORT_PREFIX

    folder = second_round_drawn(tmp_path / "event")
    server, sheets, console = running_hall(folder)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(qr_watch, "render_qr_sheet", broken)
    with Ledger.open(folder) as book:
        book.set_codes(book.draws()[2].id, {1: "WXYZ2345"})
    assert console.wait_for(lambda: bool(console.warned))
    (report,) = folder.glob(f"{REPORT_PREFIX}*.txt")
    assert console.warned == [f"扫码单不再自动更新（程序出现了意外错误，错误报告已保存在：{report}）；录分不受影响。"
                              "抽签后请重新启动 serve 以生成新的扫码单"]
    assert "RuntimeError: a bug" in report.read_text(encoding="utf-8")
    sheets.stop()
    assert not sheets.running
    assert get(server.port, "/api/t/WXYZ2345")[1]["table"] == 1  # the hall goes on


def test_nothing_drawn_yet_then_the_first_draw_gets_its_sheet(tmp_path):
    from tests.events import new_event

    folder = new_event(tmp_path / "event", 6)
    sheets, console = watch(folder)
    assert sheets.poll_once() is Poll.DONE and not list(folder.glob("*扫码单*"))
    cli("draw", folder, "--seed", 1)
    assert sheets.poll_once() is Poll.DONE
    assert console.said == [f"第1轮扫码单已更新：{sheet(folder, 1)}（第1轮已抽签，请打印后放在各桌）"]
    codes = codes_in_force(folder, 1)
    assert addresses(sheet(folder, 1)) == [table_address(BASE, codes[t]) for t in sorted(codes)]


def test_the_mark_moves_with_each_draw_voided_draw_and_code_and_reads_nothing_else(tmp_path):
    folder = tmp_path / "event"
    folder.mkdir()
    assert draws_mark(folder) is None and not (folder / DB_NAME).exists()  # never creates event.db
    second_round_drawn(folder)
    marks = [draws_mark(folder)]
    with Ledger.open(folder) as book:
        draw = book.draws()[2].id
        book.record_file(sheet(folder, 2), fingerprint_of(b"x"))  # a file written: no draw, no code
        marks.append(draws_mark(folder))
        book.set_codes(draw, {1: "WXYZ2345"})
        marks.append(draws_mark(folder))
        book.void_draw(draw, "test")
        marks.append(draws_mark(folder))
    assert marks[0] == marks[1] and len(set(marks)) == 3
    assert marks[1] < marks[2] < marks[3]


# --- end to end: `shuangsheng serve --address 127.0.0.2` in its own process ---


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127.0.0.2 is a local address on Linux only")
def test_serve_writes_the_sheet_of_a_round_drawn_while_it_runs(tmp_path):
    folder = first_round_scored(tmp_path / "event")
    proc = subprocess.Popen([sys.executable, "-c", "from shuangsheng import cli; cli.main()", "serve", str(folder), "--port", "0",
                             "--address", "127.0.0.2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True)
    reader.start()

    def until(text: str) -> list[str]:
        seen = []
        while not seen or text not in seen[-1]:
            seen.append(lines.get(timeout=WAIT))
        return seen

    try:
        started = until("Ctrl+C")
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", started[0]).group(1))
        assert f"已生成 {sheet(folder, 1)}（每桌一个二维码，打印后放在各桌）\n" in started
        cli("draw", folder, "--seed", 2)  # while serve runs (its watch reads event.db every 2 s)
        assert until("第2轮扫码单已更新")[-1] == f"第2轮扫码单已更新：{sheet(folder, 2)}（第2轮已抽签，请打印后放在各桌）\n"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
        reader.join(10)
    err = proc.stderr.read()
    assert proc.returncode == 0 and "Traceback" not in err and "错误报告" not in err
    codes = codes_in_force(folder, 2)
    assert addresses(sheet(folder, 2)) == [table_address(f"http://127.0.0.2:{port}", codes[t]) for t in sorted(codes)]
