"""`demo` writes only into an empty folder or over its own earlier files, unchanged (shuangsheng/usecases/demo.py): what it
wrote is recorded with fingerprints (sha256 and size) in event.db (`.shuangsheng-demo` before it); anything else there
is refused by name and left exactly as it was."""

from __future__ import annotations

import gc
import shutil
import zipfile
from pathlib import Path

import pytest

from shuangsheng.storage import workbook
from shuangsheng.storage.files import CannotWrite
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import DEMO_RECORD
from shuangsheng.usecases.demo import BOOKKEEPING, HELD, run_demo
from shuangsheng.usecases.draw import draw_next
from tests.events import new_event
from tests.helpers import cli, digests, sha


@pytest.fixture
def demo(tmp_path) -> Path:
    out = tmp_path / "demo"
    cli("demo", "--out", out, "--teams", 2, "--seed", 1)
    return out


def test_the_record_fingerprints_every_file_the_demo_wrote(demo):
    with Ledger.open(demo) as book:
        written = book.entries("demo")[-1][1]["files"]
    assert not (demo / DEMO_RECORD).exists()
    assert set(written) == {p.name for p in demo.iterdir()} - BOOKKEEPING - HELD
    assert {"event.toml", "teams.xlsx", "round-1.xlsx", "round-1-checked.xlsx", "荣誉证书.pdf"} <= set(written)
    for name, fingerprint in written.items():
        assert fingerprint == {"sha256": sha(demo / name), "size": (demo / name).stat().st_size}, name


def test_a_demo_folder_is_rebuilt_while_nobody_changed_it(demo):
    (demo / "通知.pdf").unlink()  # a file the demo wrote may also be gone
    cli("demo", "--out", demo, "--teams", 2, "--seed", 1)
    assert (demo / "通知.pdf").exists() and (demo / "round-1.xlsx").exists()


def test_a_demo_folder_reused_for_a_real_event_is_not_wiped(demo):
    toml = demo / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("title = ", "title = \"敬老院双扣赛\"\n# ", 1),
                    encoding="utf-8")
    (demo / "teams.xlsx").write_bytes(b"filled in by the organiser")
    before = digests(demo)
    result = cli("demo", "--out", demo, "--teams", 2, "--seed", 1, code=1)
    assert "这些文件是示例生成的，但之后被改动过：event.toml、teams.xlsx" in result.output
    assert "不会删除或覆盖上面这些文件" in result.output and "--out" in result.output
    assert digests(demo) == before


def test_a_file_the_demo_did_not_write_stops_it_and_nothing_is_deleted(demo):
    (demo / "私人.docx").write_bytes(b"PK private")
    before = digests(demo)
    result = cli("demo", "--out", demo, "--teams", 3, "--seed", 2, code=1)
    assert "里面有不是示例生成的文件：私人.docx" in result.output
    assert digests(demo) == before


def test_demo_into_a_real_event_folder_touches_nothing_and_force_is_gone(tmp_path):
    folder = new_event(tmp_path / "event", 3)
    (folder / "私人.docx").write_bytes(b"PK private")
    before = digests(folder)
    result = cli("demo", "--out", folder, "--teams", 2, "--seed", 1, code=1)
    assert "真实的活动文件夹" in result.output and "--force" not in result.output
    cli("demo", "--out", folder, "--force", code=2)  # no option clears a folder any more
    assert digests(folder) == before


def test_a_folder_from_an_older_demo_without_fingerprints_is_refused(tmp_path):
    out = tmp_path / "old"
    out.mkdir()
    (out / DEMO_RECORD).write_text("shuangsheng demo\n", encoding="utf-8")  # the marker older versions wrote
    (out / "round-1.xlsx").write_bytes(b"maybe filled since")
    before = digests(out)
    result = cli("demo", "--out", out, "--teams", 2, code=1)
    assert "旧版本生成" in result.output and "round-1.xlsx" in result.output
    assert digests(out) == before


def test_a_demo_stopped_part_way_still_records_what_it_wrote(tmp_path, monkeypatch):
    import shuangsheng.usecases.demo

    def refuse(*args, **kwargs):
        raise CannotWrite(tmp_path / "demo" / "晋级图.pdf", PermissionError(13, "Permission denied"))

    monkeypatch.setattr(shuangsheng.usecases.demo, "write_awards", refuse)
    out = tmp_path / "demo"
    frozen = gc.get_freeze_count()
    cli("demo", "--out", out, "--teams", 2, "--seed", 1, code=1)
    assert (out / "round-1.xlsx").exists() and not (out / "晋级图.pdf").exists()
    assert gc.get_freeze_count() == frozen  # what the demo froze out of the collector's sight is given back
    monkeypatch.undo()
    cli("demo", "--out", out, "--teams", 2, "--seed", 1)  # everything there was the demo's: replaced
    assert (out / "晋级图.pdf").exists()


def test_outputs_other_commands_regenerated_in_a_demo_folder_do_not_block_it_but_an_edited_one_does(demo):
    cli("awards", demo, "--per-player")  # the certificates written again, one per player: still the program's
    cli("demo", "--out", demo, "--teams", 2, "--seed", 1)
    (demo / "晋级图.pdf").write_bytes(b"%PDF-1.4 annotated by hand")
    before = digests(demo)
    result = cli("demo", "--out", demo, "--teams", 2, "--seed", 1, code=1)
    assert "改动过：晋级图.pdf" in result.output
    assert digests(demo) == before


def parts(path: Path) -> dict[str, bytes]:
    """An .xlsx file's parts but the one holding the time it was written."""
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


def test_each_round_workbook_is_what_draw_writes_with_the_referees_hands_then_typed_in(tmp_path):
    """The demo writes each round workbook once, the simulated referees' hands typed in the same pass as the draw
    writes it: the same file as `draw` writes for that seed with the same hands typed into it afterwards."""
    report = run_demo(tmp_path / "demo", teams=5, seed=1)
    again = tmp_path / "again"
    again.mkdir()
    for name in ("event.toml", "teams.xlsx"):
        shutil.copy2(tmp_path / "demo" / name, again / name)
    for played in report.files:
        drawn = draw_next(again, seed=played.seed)
        hands = {m.table: m.record for m in workbook.read_round(played.workbook).matches}
        assert hands and all(record.hands for record in hands.values())
        workbook.fill_round(drawn.path, hands)
        assert parts(drawn.path) == parts(played.workbook), played.number


def test_a_table_tied_when_time_is_up_gets_its_playoff_slip_then_is_scored_with_its_playoff(tmp_path):
    out = tmp_path / "demo"
    cli("demo", "--out", out, "--teams", 4, "--seed", 1)  # round 2, table 1: tied when time was up
    assert (out / "第2轮第1桌加赛单.pdf").exists()
    table = next(m for m in workbook.read_round(out / "round-2.xlsx").matches if m.table == 1)
    assert any(hand.playoff for hand in table.record.hands)
