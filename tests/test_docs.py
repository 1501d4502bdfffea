"""docs/ describes the formats the code reads, and its worked example replays to the documented result."""

from __future__ import annotations

import json
import re
import tomllib

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.game.hands import FIELDS, Offense
from shuangsheng.game.rules import CHOICES
from shuangsheng.storage import event as event_file
from shuangsheng.storage.workbook.schema import HEADER, LOTS_HEADER, MATCHES_HEADER, TEAMS_HEADER
from tests.helpers import ROOT

DOCS = ROOT / "docs"
runner = CliRunner()


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, re.M | re.S)


def section(text: str, heading: str) -> str:
    """The text under a `## heading` line, up to the next heading of that level or higher."""
    start = text.index(f"\n{heading}\n")
    rest = text[start + len(heading) + 2 :]
    end = re.search(rf"^#{{1,{heading.count('#', 0, heading.index(' '))}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def first_column(table_text: str) -> list[str]:
    """The first cell of every body row of the first Markdown table in `table_text`."""
    rows = [line for line in table_text.splitlines() if line.startswith("|")]
    return [row.split("|")[1].strip().strip("`") for row in rows[2:]]


# --- the worked example in match-record.md ---


def test_the_documented_example_replays_to_the_documented_result(tmp_path):
    example = section(page("match-record.md"), "## 完整示例 worked example")
    record_text, expected_summary = blocks(example, "json")
    (expected_text,) = blocks(example, "text")
    record = tmp_path / "example.json"
    record.write_text(record_text, encoding="utf-8")

    shown = runner.invoke(app, ["replay", str(record)])
    assert shown.exit_code == 0, shown.output
    assert shown.output == expected_text

    out = runner.invoke(app, ["replay", str(record), "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    expected = json.loads(expected_summary)
    assert [h["levels"] for h in result["hands"]] == expected.pop("per_hand_levels")
    assert {k: result[k] for k in expected} == expected
    # the sentence above the record says the same
    levels = "、".join(f"{h['levels']['A']}/{h['levels']['B']}" for h in result["hands"][:6])
    assert f"每局之后的级数（甲/乙）：{levels}" in example


def test_match_record_fields_are_all_documented():
    text = page("match-record.md")
    assert first_column(section(text, "## 每一局（`hands` 的一项）")) == list(FIELDS)
    assert first_column(section(text, "## 整个记录")) == ["hands", "start", "rules"]
    for offense in Offense:
        assert f'`"{offense.value}"` {offense.cn}' in text


# --- event.toml ---


def test_every_event_toml_key_and_option_is_documented():
    text = page("event-toml.md")
    data = tomllib.loads(event_file.default_text())
    for name, keys in data.items():
        documented = first_column(section(text, next(h for h in re.findall(r"^## .*$", text, re.M)
                                                     if h.startswith(f"## [{name}]"))))
        assert documented == list(keys), name
    for option, kind in {**CHOICES, "third_place": event_file.ThirdPlace, "byes": event_file.Byes}.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{option}` |"))
        for member in kind:
            assert f'`"{member.value}"`' in row, (option, member.value)
    assert event_file.default_event()  # the documented defaults are the template's


# --- the workbooks ---


def test_every_workbook_column_is_documented_in_order():
    text = page("workbooks.md")
    assert first_column(section(text, "## 报名表 `teams.xlsx`")) == list(TEAMS_HEADER)
    assert first_column(section(text, "### 工作表“对阵”")) == list(MATCHES_HEADER)
    assert first_column(section(text, "### 工作表“第N桌”：每桌一张记分表")) == list(HEADER)
    lots = section(text, "## 纸签文件（`draw --lots 文件`）")
    assert all(f"`{label}`" in lots for label in LOTS_HEADER)


# --- the index, links, and where the help points ---


def test_readme_links_the_docs_and_every_link_resolves():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/README.md" in readme
    for md in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", md.read_text(encoding="utf-8")):
            if not target.startswith("http"):
                assert (md.parent / target).exists(), (md.name, target)


@pytest.mark.parametrize("code", ["0", "1", "2"])
def test_exit_codes_are_documented(code):
    exit_codes = section(page("README.md"), "## 退出码 exit codes")
    assert f"\n| {code} | " in exit_codes


def test_every_score_status_is_documented():
    from shuangsheng.table.status import TableStatus

    json_output = section(page("README.md"), "## `--json` 输出 JSON output")
    for value in (s.value for s in TableStatus):
        assert f'`"{value}"`' in json_output, value


def test_the_error_object_and_the_failure_document_are_documented_as_they_go_out():
    from shuangsheng.vocabulary.errors import ERROR_KEYS, Issue, UserError

    json_output = section(page("README.md"), "## `--json` 输出 JSON output")
    example = json.loads(blocks(json_output.split("**错误对象 error object**")[1], "")[0])
    assert tuple(example) == ERROR_KEYS == tuple(Issue.of_hand(3, "points", "x").as_json())
    assert all(f"- `{key}`：" in json_output for key in ERROR_KEYS)
    assert set(UserError(["x"]).as_json()) == {"errors", "heading", "hint"}
    assert all(f'`"{key}"`' in json_output or f"`{key}`" in json_output for key in ("heading", "hint"))
    for name in ("table-api.md", "match-record.md"):
        assert '{"errors": [{"hand"' not in page(name), name  # the old error object is gone


def test_the_documented_limits_are_the_ones_in_force():
    from shuangsheng.game.hands import MAX_CAPTURE, MAX_RECORD_DEPTH
    from shuangsheng.knockout.knockout import MAX_TEAMS
    from shuangsheng.storage.workbook import guard

    limits = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    record = (ROOT / "docs" / "match-record.md").read_text(encoding="utf-8")
    assert MAX_CAPTURE == 8192 and f"×{MAX_CAPTURE}" in limits and f"最大 {MAX_CAPTURE}" in record
    assert f"嵌套不超过 {MAX_RECORD_DEPTH} 层" in record and f"嵌套 {MAX_RECORD_DEPTH} 层" in limits
    assert f"超过 {guard.MAX_ROWS} 行、{guard.MAX_COLUMNS} 列" in limits
    assert f"超过 {guard.MAX_ENTRIES} 个部件" in limits and f"超过 {MAX_TEAMS} 行" in limits
    assert "--verify" in (ROOT / "docs" / "double-entry.md").read_text(encoding="utf-8")


def test_no_file_cites_a_spec_section_the_repository_does_not_have():
    """Modules, tests, templates and docs point to the docs/ pages, never to sections of a SPEC file that the
    repository does not have."""
    cited = "SPEC " + "§"  # spelled apart, so this file does not cite it
    tracked = [p for p in ROOT.rglob("*") if p.suffix in {".py", ".md", ".j2", ".toml"} and p.is_file()
               and not any(part.startswith(".") or part.endswith(".egg-info") or part in {"output", "build"}
                           for part in p.relative_to(ROOT).parts)]
    assert len(tracked) > 50
    assert [str(p.relative_to(ROOT)) for p in tracked if cited in p.read_text(encoding="utf-8", errors="replace")] == []


def test_the_hall_guide_names_the_table_pages_buttons_and_the_qr_sheet_as_they_are():
    from shuangsheng.render.templates import read
    from shuangsheng.storage.names import qr_sheet_name

    guide = page("hall-setup.md")
    assert qr_sheet_name(7).replace("7", "N") in guide
    template = read("table.html.j2")
    labels = ["甲方坐庄", "乙方坐庄", "提交第", "撤销第", "再按一次：确定撤销第", "时间到，结束", "再按一次：确定时间到、结束",
              "确认结果", "连不上服务器", "级牌抠底", "台上罚张", "台下罚张"]
    for label in labels:
        assert label in guide and label in template, label


# --- the desk section of table-api.md ---


def test_the_desk_section_names_every_endpoint_state_and_refusal():
    from shuangsheng.hall.routes import resolve
    from shuangsheng.table.desk import DESK_LABELS, label

    desk = section(page("table-api.md"), "## 裁判台接口（JSON，UTF-8）")
    endpoints = [cell.split("，")[0].strip("`") for cell in first_column(desk.split("的回答")[0])]
    assert [e.split(" ", 1)[0] for e in endpoints] == ["GET", "POST", "POST", "POST", "POST", "POST", "POST"]
    found = [resolve(*e.replace("<桌号>", "3").split(" ", 1)) for e in endpoints]
    assert all(f.route.who == "desk" for f in found)  # a route of the table, answered by the desk
    assert [f.params.get("action", f.route.answer) for f in found] == ["read", "clock", "minutes", "reopen", "confirm",
                                                                        "early_end", "paper_rules"]
    states = re.findall(r"^  \| `(\w+)` \| (\S+) \|", desk, re.M)[1:]  # below the header
    assert [s for s, _ in states] == list(DESK_LABELS)
    assert all(text == label(s, 4).replace("第5局", "第k局") for s, text in states)
    codes = set(re.findall(r"\b([1-5]\d\d)\b", desk))
    assert {"200", "400", "401", "403", "404", "405", "409", "413", "415", "421", "422", "429"} <= codes
