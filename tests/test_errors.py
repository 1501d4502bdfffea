"""Errors are records until shown (STYLE items 5 and 9): `Issue(place, detail)` renders only at the edge, and no
error is built from joined text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from shuangsheng.vocabulary.errors import ERROR_KEYS, Issue, Place, UserError, failure_json, issues_json, located
from shuangsheng.vocabulary.places import Cell
from tests.events import every_status_round
from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("issue", "text"), [
    (Issue.of_cell("round-1.xlsx", "第3桌", Cell(9, 4), "台下得分应为 5 的倍数"), "round-1.xlsx 第3桌!D9：台下得分应为 5 的倍数"),
    (Issue.of_cell("round-1.xlsx", "对阵", Cell(9, 1, last_column=3), "x"), "round-1.xlsx 对阵!A9:C9：x"),
    (Issue.of_cell("teams.xlsx", "报名表", None, "x"), "teams.xlsx 报名表：x"),
    (Issue.of_cell("lots.csv", None, Cell(3, 2), "签号应为正整数"), "lots.csv 第3行第2列：签号应为正整数"),
    (Issue.of_file("event.toml", "[format] byes：x"), "event.toml：[format] byes：x"),
    (Issue.of_hand(3, "points", "应为 0–200 之间 5 的倍数"), "第3局台下得分：应为 0–200 之间 5 的倍数"),
    (Issue.of_hand(3, "extra", "未知的字段"), "第3局：未知的字段"),
    (Issue.of_hand(None, "rules", "rules 应为对象"), "rules 应为对象"),
    (Issue(Place(file="bad.json", hand=2, field="bottom"), "超过 200"), "bad.json：第2局底牌分：超过 200"),
    (Issue(Place("round-1.xlsx", "第1桌", Cell(14, 7), 6, "level_card_capture"), "只在 J 或 A 时适用"),
     "round-1.xlsx 第1桌!G14：第6局级牌抠底：只在 J 或 A 时适用"),
    (Issue(Place(sheet="第2桌"), "需加赛"), "第2桌：需加赛"),
    (Issue.plain("一轮至少需要2组才能抽签"), "一轮至少需要2组才能抽签"),
])
def test_an_issue_is_worded_only_when_shown(issue, text):
    assert str(issue) == text


def test_an_issue_keeps_its_place_as_data():
    issue = Issue(Place("round-1.xlsx", "第3桌", Cell(9, 4), 3, "points"), "应为 5 的倍数")
    assert (issue.file, issue.sheet, issue.cell, issue.row, issue.hand, issue.field) == (
        "round-1.xlsx", "第3桌", Cell(9, 4), 9, 3, "points")
    assert issue.where == "round-1.xlsx 第3桌!D9"
    assert issue.message == "第3局台下得分：应为 5 的倍数"
    assert issue.in_hand == "台下得分：应为 5 的倍数"
    assert issue.detail == "应为 5 的倍数"


def test_the_json_form_is_the_one_error_object_every_key_present():
    issues = [Issue.of_hand(3, "points", "应为 5 的倍数"), Issue.of_hand(None, None, "hands 是空的"),
              Issue.of_cell("round-1.xlsx", "第3桌", Cell(9, 4), "应为 5 的倍数"),
              Issue.of_cell("round-1.xlsx", "对阵", Cell(5, 1, last_column=3), "合并了"),
              Issue.of_cell("lots.csv", None, Cell(3, 2), "签号应为整数")]
    assert issues_json(issues) == {"errors": [
        {"message": "第3局台下得分：应为 5 的倍数", "file": None, "sheet": None, "cell": None, "hand": 3, "field": "points"},
        {"message": "hands 是空的", "file": None, "sheet": None, "cell": None, "hand": None, "field": None},
        {"message": "应为 5 的倍数", "file": "round-1.xlsx", "sheet": "第3桌", "cell": "D9", "hand": None, "field": None},
        {"message": "合并了", "file": "round-1.xlsx", "sheet": "对阵", "cell": "A5:C5", "hand": None, "field": None},
        {"message": "签号应为整数", "file": "lots.csv", "sheet": None, "cell": "B3", "hand": None, "field": None},
    ]}
    assert all(tuple(issue.as_json()) == ERROR_KEYS for issue in issues)


def test_the_message_never_names_the_file_sheet_or_cell_which_are_keys_of_their_own():
    issue = Issue(Place("round-1.xlsx", "第3桌", Cell(9, 4), 3, "points"), "应为 5 的倍数")
    assert str(issue) == "round-1.xlsx 第3桌!D9：第3局台下得分：应为 5 的倍数"  # the terminal joins them
    assert issue.as_json() == {"message": "第3局台下得分：应为 5 的倍数", "file": "round-1.xlsx", "sheet": "第3桌",
                               "cell": "D9", "hand": 3, "field": "points"}


def test_a_user_error_goes_out_as_its_error_objects_with_heading_and_hint_apart():
    error = UserError([Issue.of_file("lots.csv", "签号重复")], heading="第1轮的签号有误：",
                      details=[Issue.of_hand(2, "points", "没有填")], hint="改好后再运行 draw")
    assert error.as_json() == {
        "errors": [Issue.of_file("lots.csv", "签号重复").as_json(), Issue.of_hand(2, "points", "没有填").as_json()],
        "heading": "第1轮的签号有误：", "hint": "改好后再运行 draw"}
    assert UserError(["没有 event.toml"]).as_json() == failure_json([Issue.plain("没有 event.toml")]) == {
        "errors": [{"message": "没有 event.toml", "file": None, "sheet": None, "cell": None, "hand": None,
                    "field": None}], "heading": None, "hint": None}


def test_located_places_issues_in_a_file_without_rewording_them():
    placed = located([Issue.of_hand(1, "dealer", "x"), Issue.of_file("other.json", "y")], "bad.json")
    assert [str(i) for i in placed] == ["bad.json：第1局庄家：x", "other.json：y"]
    assert placed[0].hand == 1 and placed[0].field == "dealer"
    assert Issue.of_hand(1, "points", "x").placed(hand=3).message == "第3局台下得分：x"


def test_a_user_error_keeps_heading_details_and_hint_as_fields():
    error = UserError([Issue(Place(sheet="第4桌"), "记录有误")], heading="第1轮还有1场比赛没有决出胜负：",
                      details=[Issue.of_cell("round-1.xlsx", "第4桌", Cell(7, 4), "应为 5 的倍数")], hint="请改正")
    assert len(error.issues) == 1 and error.heading.startswith("第1轮") and error.hint == "请改正"
    assert error.messages == ["第1轮还有1场比赛没有决出胜负：", "第4桌：记录有误",
                              "  round-1.xlsx 第4桌!D7：应为 5 的倍数", "请改正"]
    assert str(error) == "\n".join(error.messages)
    assert UserError(["一句话"]).issues == (Issue(Place(), "一句话"),)
    with pytest.raises(TypeError):
        UserError("一句话会被拆成一个个字")  # type: ignore[arg-type]


def test_an_os_error_subclass_keeps_its_records():
    from shuangsheng.storage.files import CannotWrite, OutputExists, Unreadable

    refused = CannotWrite(Path("a.pdf"), PermissionError(13, "Permission denied"))
    assert refused.issues[0].file == "a.pdf" and refused.messages[0].startswith("a.pdf：无法写入（Permission denied）")
    assert OutputExists(Path("b.xlsx")).issues[0].detail == "文件已存在；如要覆盖，请加 --force"
    assert str(Unreadable(Path("c.json"), "找不到文件", missing=True)) == "c.json：找不到文件"


# --- no error is built from joined text ---

SOURCES = sorted((ROOT / "shuangsheng").rglob("*.py"))


def _error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """Names of every UserError subclass defined in the product (bases followed across modules)."""
    names = {"UserError"}
    classes = [node for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for node in classes:
            bases = {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases if isinstance(b, ast.Name | ast.Attribute)}
            if node.name not in names and bases & names:
                names.add(node.name)
                grew = True
    return names


def _joined_text(node: ast.AST) -> bool:
    """`"\\n".join(...)` (or any separator containing a line break) somewhere inside `node`."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "join"
               and isinstance(n.func.value, ast.Constant) and "\n" in str(n.func.value.value) for n in ast.walk(node))


def _text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def test_no_error_is_built_from_joined_text():
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in SOURCES}
    errors = _error_classes(trees)
    assert {"WorkbookError", "TournamentError", "KnockoutError", "RoundNotDecided", "EventError", "DemoError",
            "MaterialsError", "RecordError", "OutputExists", "CannotWrite", "Unreadable"} <= errors
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in errors:
                inits = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
                found += [f"{path.name}:{n.lineno} {node.name}.__init__" for n in inits if _joined_text(n)]
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in errors and any(_joined_text(a) for a in [*node.args, *(k.value for k in node.keywords)]):
                    found.append(f"{path.name}:{node.lineno} {name}(…)")
                if name in errors and node.args and _text(node.args[0]):
                    found.append(f"{path.name}:{node.lineno} {name}(text): give it records (a list of issues)")
    assert not found, found


def test_no_message_is_split_or_searched_again():
    """`messages` renders records; nothing splits an error's text back into lines (`str(exc).splitlines()`)."""
    found = [f"{path.name}:{n.lineno}" for path in SOURCES for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "splitlines"
             and isinstance(n.func.value, ast.Call) and getattr(n.func.value.func, "id", "") == "str"
             and any(isinstance(a, ast.Name) and a.id.startswith(("exc", "err")) for a in n.func.value.args)]
    assert not found, found


def test_an_undecided_round_is_refused_with_its_blockers_as_records(tmp_path):
    """`draw` on a round with a 加赛 table and a mistake at 第4桌!D7: one issue per undecided table, the mistake as
    a detail at its cell, the heading and the advice as fields of their own; the terminal shows them in order."""
    from shuangsheng.usecases.draw import draw_next
    from shuangsheng.usecases.folder import TournamentError

    every_status_round(tmp_path)
    with pytest.raises(TournamentError) as refused:
        draw_next(tmp_path)
    error = refused.value
    assert error.heading == "第1轮还有2场比赛没有决出胜负，不能抽下一轮："
    assert [(i.sheet, i.detail) for i in error.issues] == [
        ("第2桌", "需加赛（双方同为3级，请在加赛行记录加赛局）"), ("第4桌", "记录有误（1处错误：round-1.xlsx 第4桌!D7）")]
    assert [(d.file, d.sheet, str(d.cell)) for d in error.details] == [("round-1.xlsx", "第4桌", "D7")]
    assert error.hint.startswith("请先在 round-1.xlsx 中补全或改正这些比赛")
    shown = cli("draw", tmp_path, code=1).output.splitlines()
    assert shown == error.messages
