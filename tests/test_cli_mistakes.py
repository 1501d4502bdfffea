"""Mistakes office staff really make, through the CLI: each gives a clear Chinese message naming the place, never a
traceback, and no file the user filled is changed or lost."""

from __future__ import annotations

import json
import os
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.rules import RuleSet
from shuangsheng.storage import workbook
from shuangsheng.storage.event import EventError, default_text, parse
from tests.events import fill, finished, new_event
from tests.helpers import cli, sha
from tests.pdfcheck import text_of


def toml_problems(text: str) -> str:
    with pytest.raises(EventError) as info:
        parse(text, source="event.toml")
    return "\n".join(info.value.messages)


# --- files open in Excel/WPS (Windows refuses the write) ---


@pytest.fixture
def lock(monkeypatch):
    """Call it to make every atomic replace fail as on Windows when the target is open in Excel."""

    def refuse(src, dst):
        raise PermissionError(13, "另一个程序正在使用此文件，进程无法访问。", str(dst))

    return lambda: monkeypatch.setattr(os, "replace", refuse)


def test_draw_into_a_locked_file_is_a_message(tmp_path, lock):
    folder = new_event(tmp_path / "活动 一")
    lock()
    result = cli("draw", folder, "--seed", 1, code=1)
    assert "round-1.xlsx：无法写入" in result.output and "请先在 Excel/WPS 中关闭该文件" in result.output
    assert not (folder / "round-1.xlsx").exists() and not list(folder.glob(".*.tmp"))


def test_materials_into_a_pdf_open_in_a_reader_is_a_message(tmp_path, lock):
    folder = new_event(tmp_path / "event")
    lock()
    result = cli("materials", folder, code=1)
    assert "无法写入" in result.output and "请先在 PDF 阅读器 中关闭该文件" in result.output
    assert not list(folder.glob("*.pdf")) and not list(folder.glob(".*.tmp"))


def test_score_with_the_checked_copy_open_in_excel_still_reports(tmp_path, lock):
    folder = new_event(tmp_path / "event")
    cli("draw", folder, "--seed", 1, code=0)
    fill(folder, 1)
    lock()
    result = cli("score", folder, code=1)
    assert "第1轮 计分结果" in result.output  # the report is shown all the same
    assert "检查副本没有更新" in result.output and "round-1-checked.xlsx：无法写入" in result.output
    doc = json.loads(cli("score", folder, "--json", code=1).stdout)
    assert doc["round"] == 1 and doc["errors"][0]["file"] == str(folder / "round-1-checked.xlsx")
    assert doc["errors"][0]["message"].startswith("检查副本没有更新：无法写入")  # the file is a key of its own


def test_init_into_a_locked_folder_is_a_message(tmp_path, lock):
    lock()
    result = cli("init", tmp_path / "new", code=1)
    assert "event.toml：无法写入" in result.output


# --- init after event.toml was deleted: the filled team list is kept ---


def test_init_recreates_a_deleted_event_toml_and_keeps_the_team_list(tmp_path):
    folder = new_event(tmp_path / "event")
    (folder / "event.toml").unlink()
    before = sha(folder / "teams.xlsx")
    result = cli("init", folder, code=0)
    assert "teams.xlsx 已存在，保留原文件不变" in result.output
    assert (folder / "event.toml").read_text(encoding="utf-8") == default_text()
    assert sha(folder / "teams.xlsx") == before


def test_init_still_refuses_when_both_files_exist(tmp_path):
    folder = new_event(tmp_path / "event")
    before = sha(folder / "teams.xlsx")
    result = cli("init", folder, code=1)
    assert "已经是活动文件夹" in result.output and "不需要再 init" in result.output
    assert "--force" in result.output and "原文件另存为备份" in result.output  # what --force would do
    assert sha(folder / "teams.xlsx") == before


def test_init_force_starts_afresh_but_keeps_a_copy_of_each_file_it_replaces(tmp_path):
    from shuangsheng.storage.workbook import read_teams

    folder = new_event(tmp_path / "event", 4)
    teams, event = sha(folder / "teams.xlsx"), sha(folder / "event.toml")
    result = cli("init", folder, "--force")
    assert sha(folder / "teams.xlsx") != teams  # the blank template again
    copies = {p.suffix: p for p in (folder / "备份").glob("*.备份-*")}  # kept in a folder of their own
    assert set(copies) == {".xlsx", ".toml"}
    assert sha(copies[".xlsx"]) == teams and sha(copies[".toml"]) == event  # nothing typed is lost
    assert f"原来的 {folder / 'teams.xlsx'} 已另存为 {copies['.xlsx']}" in result.output
    assert len(read_teams(copies[".xlsx"])) == 4


# --- event.toml typed in Notepad ---


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('title = "离退休教职工双升级（双扣）比赛"', 'title = "离退休教职工双升级（双扣）比赛', "引号没有配对"),
        ('title = "离退休教职工双升级（双扣）比赛"', "title = “离退休教职工双升级（双扣）比赛”", "中文引号"),
        ('venue = "', 'venue ＝ "', "全角"),
        ("end = 2026-03-09", "end = 2026-3-9", "2026-03-09"),
        ("large_print = true", "large_print = 是", "双引号"),
        ('font = ""', 'font = "C:\\Windows\\Fonts\\msyh.ttc"', "请改用 /"),
        ('dealer_table = "ceil"', 'dealer_table = "ceil"\ndealer_table = "floor"', "写了两次"),
    ],
)
def test_broken_toml_names_the_line_in_chinese(old, new, expected):
    text = default_text()
    assert old in text
    message = toml_problems(text.replace(old, new, 1))
    assert "格式有误" in message and expected in message and "第" in message
    assert not any(word in message for word in ("Invalid", "Expected", "Illegal", "Cannot"))


def test_misspelt_keys_and_sections_are_named():
    text = default_text().replace("contact = ", "contcat = ") + '\n[rule]\ndealer_table = "floor"\n'
    message = toml_problems(text)
    assert "[registration] 未知的设置项“contcat”" in message and "contact" in message
    assert "未知的一节“rule”" in message


def test_must_play_typed_as_one_string():
    for typed in ("2,J,A", "2、J、A", "2，J，A", "2 J A"):
        assert RuleSet.from_mapping({"must_play": typed}) == RuleSet()
    text = default_text().replace('must_play = ["2", "J", "A"]', 'must_play = "2,J,A"')
    assert parse(text, source="event.toml").rules == RuleSet()


# --- teams.xlsx as typed ---


def write_rows(path: Path, rows, *, sheet: str | None = None) -> None:
    """Staff type into the template from row 2 (the example rows overwritten) and save."""
    wb = openpyxl.load_workbook(path)
    ws = wb[workbook.TEAMS_SHEET]
    ws.delete_rows(2, 10)
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    if sheet:
        ws.title = sheet
    wb.save(path)


def test_one_person_spelt_with_and_without_a_padding_space(tmp_path):
    folder = tmp_path / "event"
    cli("init", folder, code=0)
    write_rows(folder / "teams.xlsx", [["01", "张\u3000一", "李四"], ["02", "王五", "张一"], ["03", "赵 六", "赵六"]])
    result = cli("draw", folder, code=1)
    assert "teams.xlsx 报名表!C3：队员“张一”已在第2行（第01组）报名" in result.output
    assert "teams.xlsx 报名表!C4：两名队员是同一人" in result.output


def test_renamed_team_sheet_is_found_by_its_header(tmp_path):
    folder = tmp_path / "event"
    cli("init", folder, code=0)
    write_rows(folder / "teams.xlsx", [["第1组", "张一", "李一"], ["第2组", "王二", "赵二"]], sheet="Sheet1")
    result = cli("draw", folder, "--seed", 1, code=0)
    assert "第01组（张一、李一）" in result.output and "第第" not in result.output


# --- round-N.xlsx as the referees fill it ---


def drawn(tmp_path: Path) -> Path:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1, code=0)
    return folder


def edit(path: Path, cells: dict[str, dict[str, object]], rename: dict[str, str] | None = None) -> str:
    wb = openpyxl.load_workbook(path)
    for sheet, values in cells.items():
        for cell, value in values.items():
            wb[sheet][cell] = value
    for old, new in (rename or {}).items():
        wb[old].title = new
    wb.save(path)
    return sha(path)


def test_a_bad_walkover_cell_stops_only_its_own_table(tmp_path):
    folder = drawn(tmp_path)
    path = folder / "round-1.xlsx"
    before = edit(path, {"对阵": {"D9": "双方"}, "第2桌": {"B7": "甲", "D7": 35}})
    doc = json.loads(cli("score", folder, "--json", code=1).stdout)
    first, second = doc["matches"]
    error = first["errors"][0]
    assert first["status"] == "invalid" and (error["file"], error["sheet"], error["cell"]) == ("round-1.xlsx", "对阵", "D9")
    assert "双方" in error["message"] and "D9" not in error["message"]
    assert second["status"] == "decided" and second["errors"] == []
    assert "errors" not in doc  # not a problem of the whole 对阵 sheet
    assert sha(path) == before


@pytest.mark.parametrize("form", ["{n}", "第{id}组", "{id}组", "{id} 组"])
def test_walkover_by_team_number_as_people_write_it(tmp_path, form):
    folder = drawn(tmp_path)
    pairing = workbook.read_round(folder / "round-1.xlsx").round.pairings[0]
    edit(folder / "round-1.xlsx", {"对阵": {"D9": form.format(id=pairing.b, n=int(pairing.b))}})
    doc = json.loads(cli("score", folder, "--json", code=0).stdout)
    assert doc["matches"][0]["status"] == "walkover" and doc["matches"][0]["winner"] == pairing.a


def test_flags_typed_in_words(tmp_path):
    for typed in ("是的", "对", "有"):
        assert workbook.parse_flag(typed) is True
    for typed in ("不是", "无", "没有"):
        assert workbook.parse_flag(typed) is False


def test_renamed_score_sheet_is_pointed_at(tmp_path):
    folder = drawn(tmp_path)
    edit(folder / "round-1.xlsx", {}, rename={"第2桌": "2桌"})
    result = cli("score", folder, code=1)
    assert "找不到工作表“第2桌”" in result.output and "“2桌”" in result.output and "改回" in result.output


# --- replay given the wrong file ---


def test_replay_given_the_round_workbook(tmp_path):
    folder = drawn(tmp_path)
    result = cli("replay", folder / "round-1.xlsx", code=1)
    assert "这是 Excel 工作簿" in result.output and "shuangsheng score" in result.output


def test_replay_json_saved_as_ansi_and_with_a_trailing_comma(tmp_path):
    ansi = tmp_path / "对局 记录.json"
    ansi.write_bytes('{"hands": [{"dealer": "甲", "points": 35}]}'.encode("gbk"))
    assert "甲方获胜" in cli("replay", ansi, code=0).output
    broken = tmp_path / "broken.json"
    broken.write_text('{"hands": [{"dealer": "A", "points": 35},]}', encoding="utf-8")
    result = cli("replay", broken, code=1)
    assert "第1行第" in result.output and "不是有效的 JSON" in result.output and "Expecting" not in result.output


# --- a name typed with stray spaces prints the same everywhere ---


def test_names_with_stray_spaces_print_the_same_in_every_file(tmp_path):
    import io

    import pypdf

    folder = tmp_path / "event"
    cli("init", folder, code=0)
    write_rows(folder / "teams.xlsx", [["9", "  张  三 ", "李四\u3000"], ["10", "\u3000王\u3000五", " 赵六"],
                                       ["11", "钱七", "孙八"]])
    cli("materials", folder, "--force", code=0)
    drawn = cli("draw", folder, "--seed", 1, code=0).output
    fill(folder, 1)
    scored = cli("score", folder, code=0).output
    texts = {"draw": drawn, "score": scored}
    for pdf in folder.glob("*.pdf"):
        if pdf.name in ("报名表.pdf", "纪念品领取签收表.pdf"):
            texts[pdf.name] = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    for book in ("round-1.xlsx", "round-1-checked.xlsx"):
        wb = openpyxl.load_workbook(folder / book, read_only=True)
        texts[book] = "\n".join(str(v) for ws in wb for row in ws.iter_rows(values_only=True) for v in row if v)
        wb.close()
    assert len(texts) == 6
    for where, text in texts.items():
        for name in ("张 三", "李四", "王 五", "赵六"):
            assert name in text, (where, name)
        assert "张  三" not in text and "李四\u3000" not in text and "\u3000王" not in text, where
    for where in ("draw", "score"):  # 9 typed is 第09组, like 第10组
        assert "第09组" in texts[where] and "第9组" not in texts[where], where


# --- user text is never read as the wording templates' markup ---


@pytest.fixture(scope="module")
def finished_pair(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("title") / "event"
    finished(folder, teams=2)
    return folder


@pytest.mark.parametrize("mark", ["@", "#", "<", ">", "+", "~", "|", "  @"])
def test_a_title_beginning_with_a_line_mark_is_printed_as_typed(finished_pair, tmp_path, mark):
    """`{{ event.title }}` begins a line of the announcement: '@…' was taken for an insert the template lacks and
    awards blamed a template nobody edited; '#…' would have become a heading."""
    import shutil

    folder = Path(shutil.copytree(finished_pair, tmp_path / "event"))
    toml = folder / "event.toml"
    text = toml.read_text(encoding="utf-8")
    title = "离退休教职工双升级（双扣）比赛"
    assert f'title = "{title}"' in text
    toml.write_text(text.replace(f'title = "{title}"', f'title = "{mark}老年大学"'), encoding="utf-8")
    result = cli("awards", folder)
    assert "模板" not in result.output and "成绩公告.pdf" in result.output
    printed = text_of((folder / "成绩公告.pdf").read_bytes())
    assert f"{mark.strip()}老年大学已圆满结束" in printed  # the whole title, as typed, as body text
