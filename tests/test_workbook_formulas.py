"""No formula and no link from what a person typed (issue 16 item 1), in every workbook the program writes.

Names beginning with `=`, `+`, `-`, `@` or holding a web address go through `draw`, the referee simulation and
`score`; each xlsx written is then read as zip XML: no `<f>` element, no hyperlink, and the names read back as
typed. The writers are also called directly with such ids (whatever the 组号 intake accepts).
"""

from __future__ import annotations

import random
import zipfile
from pathlib import Path

import openpyxl
from defusedxml import ElementTree

from shuangsheng.game.simulate import simulate_match
from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import Team
from shuangsheng.storage import workbook
from tests.helpers import cli

NAMES = (  # each at most 20 characters, the longest name the team list accepts
    "=1+1",
    '=HYPERLINK("e.x/a")',
    "+86 123",
    "-3",
    "@SUM(A1)",
    "=A1*2",
    "http://evil.ex/y",
    "-=+@",
)
DELIBERATE_FORMULAS: frozenset[str] = frozenset()  # the program writes no formula of its own anywhere


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def formulas_and_links(path: Path) -> tuple[list[str], list[str]]:
    """Every `<f>` element's text in the workbook's sheets, and every hyperlink (element or relationship)."""
    formulas: list[str] = []
    links: list[str] = []
    with zipfile.ZipFile(path) as archive:
        for part in archive.namelist():
            if not part.endswith((".xml", ".rels")):
                continue
            root = ElementTree.fromstring(archive.read(part))
            for element in root.iter():
                name = local(element.tag)
                if name == "f":
                    formulas.append(element.text or "")
                elif name == "hyperlink" or (name == "Relationship" and element.get("Type", "").endswith("/hyperlink")):
                    links.append(f"{part}: {element.attrib}")
    return formulas, links


def assert_no_formula_from_text(path: Path) -> None:
    formulas, links = formulas_and_links(path)
    assert set(formulas) <= DELIBERATE_FORMULAS, (path.name, formulas)
    assert links == [], (path.name, links)


def type_team_list(path: Path, teams: list[tuple[str, str, str]]) -> None:
    """teams.xlsx as a person leaves it who typed these names as text (in Excel: a leading apostrophe)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名表"
    ws.append(["组号", "队员1", "队员2", "联系电话", "备注"])
    for r, values in enumerate(teams, start=2):
        for c, value in enumerate(values, start=1):
            cell = ws.cell(r, c, value)
            cell.data_type = "s"  # text, not a formula, whatever it begins with
    wb.save(path)


def test_names_beginning_like_formulas_stay_text_in_every_workbook(tmp_path):
    folder = tmp_path / "event"
    cli("init", folder)
    teams = [(f"{i:02d}", NAMES[2 * i - 2], NAMES[2 * i - 1]) for i in range(1, 5)]
    type_team_list(folder / "teams.xlsx", teams)
    cli("draw", folder, "--seed", 3)
    round_file = folder / "round-1.xlsx"
    assert_no_formula_from_text(round_file)
    drawn = workbook.read_round(round_file)
    rng = random.Random(5)
    workbook.fill_round(round_file, {p.table: simulate_match(rng)[0] for p in drawn.round.pairings})
    assert_no_formula_from_text(round_file)
    cli("score", folder)
    checked = folder / "round-1-checked.xlsx"
    assert_no_formula_from_text(checked)

    players = {team_id: f"{a}、{b}" for team_id, a, b in teams}
    for path in (round_file, checked):
        wb = openpyxl.load_workbook(path)
        matches = wb["对阵"]
        shown = {}
        for row in matches.iter_rows(values_only=True):
            if row[1] in players and row[2] in players:  # a match row: 桌号 | 甲方 | 乙方 | 弃权 | 甲方队员 | 乙方队员
                shown[row[1]], shown[row[2]] = row[4], row[5]
        assert shown == players, path.name
        for pairing in drawn.round.pairings:
            sheet = wb[f"第{pairing.table}桌"]
            assert (sheet["C2"].value, sheet["C3"].value) == (players[pairing.a], players[pairing.b]), path.name


def test_the_writers_store_any_id_and_name_as_text(tmp_path):
    """Called directly, so the writers are safe whatever the 组号 intake accepts."""
    ids = ("=1+1", "+2", "-3", "@4")
    long_link = '=HYPERLINK("http://evil.example/x","点我")&"'
    teams = {team_id: Team(team_id, (f"{team_id}甲", (long_link, *NAMES)[i])) for i, team_id in enumerate(ids)}
    teams_file = workbook.write_teams(tmp_path / "teams.xlsx", list(teams.values()))
    drawn = Round(1, ids, (Pairing(1, ids[0], ids[1]), Pairing(2, ids[2], ids[3])), (), 9)
    round_file = workbook.write_round(tmp_path / "round-1.xlsx", drawn, teams, rules_note="=规则 @ +1")
    for path in (teams_file, round_file):
        assert_no_formula_from_text(path)
    listed = openpyxl.load_workbook(teams_file)["报名表"]
    assert [[c.value for c in row[:3]] for row in listed.iter_rows(min_row=2, max_row=5)] == [
        [t.id, *t.players] for t in teams.values()
    ]
    sheet = openpyxl.load_workbook(round_file)["第1桌"]
    assert (sheet["B2"].value, sheet["B3"].value, sheet["A5"].value) == ("=1+1", "+2", "=规则 @ +1")


def test_the_checked_copy_keeps_formula_like_text_a_referee_typed_as_text(tmp_path):
    """The copy is rendered from the values read: text typed in the score sheet stays text there."""
    teams = {f"{i:02d}": Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 3)}
    path = workbook.write_round(tmp_path / "round-1.xlsx", Round(1, tuple(teams), (Pairing(1, "01", "02"),), (), 1),
                                teams)
    wb = openpyxl.load_workbook(path)
    ws = wb["第1桌"]
    for ref, value in {"B7": "甲", "D7": "=SUM(A1)", "L7": '=HYPERLINK("http://evil.example/x","点我")',
                       "B8": "乙", "D8": 40, "L8": "http://evil.example/z"}.items():
        ws[ref] = value
        ws[ref].data_type = "s" if isinstance(value, str) else "n"
    wb.save(path)
    sheet = workbook.read_round(path)
    out = workbook.write_checked(tmp_path / "round-1-checked.xlsx", sheet, {})
    assert_no_formula_from_text(out)
    copy = openpyxl.load_workbook(out)["第1桌"]
    assert (copy["D7"].value, copy["L7"].value, copy["L8"].value) == (
        "=SUM(A1)", '=HYPERLINK("http://evil.example/x","点我")', "http://evil.example/z")
    assert copy["D7"].data_type == "s" and "台下得分" in copy["D7"].comment.text
