"""shuangsheng.storage.files: every output of every command is written to a temporary file in the same folder and renamed
into place; nothing half-written is ever left under the real name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.knockout.teams import Team
from shuangsheng.storage import workbook
from tests.events import new_event

runner = CliRunner()


def test_every_output_of_a_day_is_renamed_into_place_from_the_same_folder(tmp_path, monkeypatch):
    renames: list[tuple[Path, Path]] = []
    real_replace = os.replace

    def recording_replace(src, dst):
        renames.append((Path(src), Path(dst)))
        real_replace(src, dst)

    folder = new_event(tmp_path / "event", 5)
    monkeypatch.setattr(os, "replace", recording_replace)
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}
    for args in (["materials", str(folder)], ["draw", str(folder), "--seed", "3"], ["score", str(folder)],
                 ["draw", str(folder), "--seed", "4", "--force"]):
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1), result.output
    # event.db (SQLite keeps it whole with its own journal) and the lock files are not outputs
    written = {p for p in folder.rglob("*") if p.is_file() and before.get(p) != p.stat().st_mtime_ns
               and not p.name.startswith(("event.db", ".shuangsheng.lock"))}
    assert len(written) >= 8  # five PDFs, round-1.xlsx, its checked copy, the draw's papers
    targets = {dst for _, dst in renames}
    assert written <= targets
    for src, dst in renames:
        assert src.parent == dst.parent and src.name.startswith(f".{dst.name}.") and not src.exists()
    assert not list(folder.glob(".*.tmp"))


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
def test_outputs_get_normal_permissions_not_private_ones(tmp_path):
    """mkstemp makes 0600 files; a shared office PC needs the usual 0644 (what the umask allows)."""
    folder = tmp_path / "event"
    old = os.umask(0o022)
    try:
        assert runner.invoke(app, ["init", str(folder)]).exit_code == 0
        workbook.write_teams(folder / "teams.xlsx", [Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 4)],
                             force=True)
        for args in (["materials", str(folder)], ["draw", str(folder), "--seed", "3"], ["score", str(folder)]):
            assert runner.invoke(app, args).exit_code in (0, 1)
        os.umask(0o027)  # a stricter umask is respected
        assert runner.invoke(app, ["init", str(tmp_path / "strict")]).exit_code == 0
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in folder.iterdir() if p.is_file()}
    assert len(modes) >= 9 and set(modes.values()) == {0o644}, modes
    assert {p.stat().st_mode & 0o777 for p in (tmp_path / "strict").iterdir()} == {0o640}
