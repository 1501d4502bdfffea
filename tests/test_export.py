"""`show --export` (shuangsheng/hall/export.py): a new .html file, or over an earlier export with --force; never over an
input of the event (event.toml, teams.xlsx, round-N.xlsx, event.db) nor any file that is not an earlier export."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.events import finished
from tests.helpers import cli, sha


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("export") / "event"
    finished(folder, teams=4)  # its event.db (the ledger) is an input too
    return folder


@pytest.mark.parametrize("name", ["event.toml", "teams.xlsx", "round-1.xlsx", "round-2.xlsx", "event.db", "TEAMS.XLSX"])
def test_export_never_writes_over_an_input_even_with_force(event, name):
    target = event / name
    before = sha(target) if target.exists() else None
    for force in ([], ["--force"]):
        result = cli("show", event, "--export", target, *force, code=1)
        assert "输入文件" in result.output and "加 --force 也不会" in result.output and "大屏.html" in result.output
    assert (sha(target) if target.exists() else None) == before


@pytest.mark.parametrize("name", ["round-1-checked.xlsx", "晋级图.pdf", "私人.docx", "notes.txt"])
def test_export_writes_only_html_and_never_over_another_kind_of_file(event, name):
    target = event / name
    if not target.exists():
        target.write_bytes(b"mine")
    before = sha(target)
    result = cli("show", event, "--export", target, "--force", code=1)
    assert "文件名应以 .html 结尾" in result.output
    assert sha(target) == before


def test_export_replaces_only_an_earlier_export_and_only_with_force(event, tmp_path):
    target = tmp_path / "大屏.html"
    cli("show", event, "--export", target)
    assert "文件已存在；如要覆盖，请加 --force" in cli("show", event, "--export", target, code=1).output
    target.write_text(target.read_text(encoding="utf-8").replace("晋级图", "改过的"), encoding="utf-8")
    cli("show", event, "--export", target, "--force")  # still our export (its generator line): replaced
    assert "晋级图" in target.read_text(encoding="utf-8") and "改过的" not in target.read_text(encoding="utf-8")


def test_export_refuses_a_web_page_it_did_not_write_even_with_force(event, tmp_path):
    page = tmp_path / "index.html"
    page.write_text("<!DOCTYPE html><html><body>俱乐部主页</body></html>", encoding="utf-8")
    result = cli("show", event, "--export", page, "--force", code=1)
    assert "不是本程序导出的大屏网页，不会被覆盖" in result.output
    assert page.read_text(encoding="utf-8").endswith("俱乐部主页</body></html>")


def test_the_live_page_carries_no_export_mark():
    from shuangsheng.hall.export import EXPORT_MARK
    from shuangsheng.render.show_page import page_html

    assert EXPORT_MARK.decode() not in page_html("t", "", live=True)
    assert EXPORT_MARK.decode() in page_html("t", "", live=False)
