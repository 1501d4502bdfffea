"""Issue 3, "Run the day", end to end through the CLI: init → teams → draw → fill → score … → awards.

Only the referee's part is done outside the CLI: the team list is typed with `workbook.write_teams` and each round
workbook is filled with `workbook.fill_round` from simulated matches. Everything else goes through `cli.app`.
"""

from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import Side
from shuangsheng.game.match import Status, replay
from shuangsheng.knockout import knockout
from shuangsheng.knockout.draw import draw_round
from shuangsheng.knockout.teams import Team
from shuangsheng.storage import workbook
from shuangsheng.storage.names import checked_path
from shuangsheng.vocabulary.errors import ERROR_KEYS
from tests.events import fill, new_event, round_file, team_list
from tests.helpers import cli, digests, sha
from tests.pdfcheck import text_of

SCORE_KEYS = {"round", "matches", "byes", "advancing"}
MATCH_KEYS = {"table", "A", "B", "levels", "status", "winner", "errors", "source"}
FIRST_HAND_ROW = workbook.HAND_HEADER_ROW + 1  # hand 1 of every 第N桌 sheet
POINTS_COLUMN = "D"  # 台下得分
TIED = MatchRecord((Hand(dealer=Side.A, points=80),))  # defenders take the deal, gain 0: 2–2 at time


# --- helpers ---


def score_json(folder: Path, *args: object, code: int = 0) -> dict:
    result = cli("score", folder, "--json", *args, code=code)
    return json.loads(result.stdout)  # the whole of stdout is one JSON document


def set_cell(path: Path, sheet: str, cell: str, value: object) -> None:
    """A person edits one cell of a workbook in a spreadsheet program."""
    wb = openpyxl.load_workbook(path)
    wb[sheet][cell] = value
    wb.save(path)


def losers(doc: dict) -> list[str]:
    return [m["B"] if m["winner"] == m["A"] else m["A"] for m in doc["matches"]]


def run_event(folder: Path, seed: int, forfeit=lambda table: None) -> tuple[list[dict], dict]:
    """draw --seed → fill → score until draw says the final was drawn; then awards --json. `forfeit(table)` gives
    the side that forfeits at that table (None: the match is played)."""
    docs: list[dict] = []
    number = 0
    while True:
        final_drawn = number > 0 and knockout.is_final(workbook.read_round(round_file(folder, number)).round)
        result = cli("draw", folder, "--seed", seed + number, code=1 if final_drawn else 0)
        if final_drawn:
            assert "决赛" in result.output and "比赛已经结束" in result.output and "awards" in result.output
            break
        number += 1
        assert f"随机种子：{seed + number - 1}" in result.output
        tables = [p.table for p in workbook.read_round(round_file(folder, number)).round.pairings]
        fill(folder, number, seed=seed, walkovers={t: forfeit(t) for t in tables if forfeit(t) is not None})
        doc = score_json(folder)
        assert doc["round"] == number
        docs.append(doc)
        assert len(docs) <= 8, "more rounds than any field of ≤ 128 teams needs"
    awards = json.loads(cli("awards", folder, "--json").stdout)
    return docs, awards


# --- 1. a whole event, any size ---

# (size, byes) → 三等奖 count under "shared": 2 semi-final losers, 1 when the semi-final had 3 teams, 0 with 2
# teams. "first_round" (the default) reaches two semi-finals from 4 teams up; "each_round" may not.
SIZES = {
    (2, "first_round"): 0, (3, "first_round"): 1, (4, "first_round"): 2, (5, "first_round"): 2,
    (6, "first_round"): 2, (7, "first_round"): 2, (9, "first_round"): 2, (11, "first_round"): 2,
    (33, "first_round"): 2, (5, "each_round"): 1, (7, "each_round"): 2, (9, "each_round"): 1,
}  # fmt: skip


@pytest.mark.parametrize(("size", "bye_rule"), SIZES)
def test_full_event_from_team_list_to_placings(tmp_path, size, bye_rule):
    folder = new_event(tmp_path / "event", size, each_round=bye_rule == "each_round")
    docs, awards = run_event(folder, seed=1000 + size)
    ids = [t.id for t in team_list(size)]
    thirds = SIZES[size, bye_rule]

    assert len(docs) == knockout.rounds_needed(size, bye_rule)
    # Every round's field is the previous round's advancing; round 1 is the whole team list.
    pool = set(ids)
    byes: list[str] = []
    for doc in docs:
        sheet = workbook.read_round(round_file(folder, doc["round"]))
        assert set(sheet.round.pool) == pool
        played = {t for m in doc["matches"] for t in (m["A"], m["B"])}
        assert played | set(doc["byes"]) == pool and len(played) == 2 * len(doc["matches"])
        assert len(doc["byes"]) == knockout.bye_count(len(pool), bye_rule)
        if bye_rule == "first_round" and doc["round"] > 1:
            assert doc["byes"] == []
        assert all(m["status"] in ("decided", "passed_a") and m["winner"] in (m["A"], m["B"]) for m in doc["matches"])
        assert all(m["errors"] == [] for m in doc["matches"])
        for bye in doc["byes"]:
            # nobody gets a second bye while a team without one is in the pool
            assert byes.count(bye) == min(byes.count(t) for t in pool)
        byes.extend(doc["byes"])
        going_on = [m["winner"] for m in doc["matches"]] + doc["byes"]
        assert doc["advancing"] == ([] if doc is docs[-1] else going_on)  # nobody goes on from the final
        pool = set(going_on)
    assert len(pool) == 1

    final = docs[-1]
    assert len(final["matches"]) == 1 and final["byes"] == []
    assert awards["complete"] is True and "missing" not in awards
    assert awards["first"] == final["matches"][0]["winner"] and final["advancing"] == []
    assert awards["second"] == losers(final)[0]
    expected_third = losers(docs[-2]) if len(docs) >= 2 else []
    assert sorted(awards["third"]) == sorted(expected_third)
    assert len(awards["third"]) == thirds
    assert len({awards["first"], awards["second"], *awards["third"]}) == 2 + thirds
    # Every round workbook has its checked copy next to it.
    for doc in docs:
        assert checked_path(round_file(folder, doc["round"])).exists()


def test_full_event_with_third_place_playoff(tmp_path):
    folder = new_event(tmp_path / "event", 8, playoff=True)
    docs, awards = run_event(folder, seed=77)
    semi, final = docs[-2], docs[-1]
    assert len(semi["matches"]) == 2
    assert [m["table"] for m in final["matches"]] == [1, 2]
    third_match = final["matches"][1]
    assert sorted((third_match["A"], third_match["B"])) == sorted(losers(semi))
    assert final["advancing"] == []  # nobody goes on from the final (nor from its 3rd-place match)
    assert awards["complete"] is True
    assert awards["first"] == final["matches"][0]["winner"]
    assert awards["second"] == losers(final)[0]
    assert awards["third"] == [third_match["winner"]]


# --- 2. score --json shape, walkovers ---


def test_score_json_shape_and_walkover(tmp_path):
    folder = new_event(tmp_path / "event", 6)  # 2 matches and 2 byes
    cli("draw", folder, "--seed", 5)
    pairings = workbook.read_round(round_file(folder, 1)).round.pairings
    fill(folder, 1, walkovers={1: Side.A})

    result = cli("score", folder, "--json")
    doc = json.loads(result.stdout)
    assert set(doc) == SCORE_KEYS
    assert doc["round"] == 1 and len(doc["byes"]) == 2
    assert [m["table"] for m in doc["matches"]] == [1, 2]
    for m, p in zip(doc["matches"], pairings, strict=True):
        assert set(m) == MATCH_KEYS
        assert (m["A"], m["B"]) == (p.a, p.b)
        assert isinstance(m["errors"], list)
    walkover, played = doc["matches"]
    assert walkover["status"] == "walkover" and walkover["winner"] == pairings[0].b
    assert played["status"] in ("decided", "passed_a")
    assert set(played["levels"]) == {"A", "B"} and played["levels"]["A"] != played["levels"]["B"]
    assert pairings[0].b in doc["advancing"] and pairings[0].a not in doc["advancing"]
    assert doc["advancing"] == [pairings[0].b, played["winner"], *doc["byes"]]
    # The next round is drawn from them.
    cli("draw", folder, "--seed", 6)
    assert set(workbook.read_round(round_file(folder, 2)).round.pool) == set(doc["advancing"])


def test_score_says_who_goes_on_and_the_byes_in_number_order(tmp_path):
    """The terminal's 晋级：… listed the winners table by table (第09组、第02组、…): in number order now, as every
    other list of ids (the JSON's `advancing` stays in table order, as docs/README.md shows it)."""
    folder = new_event(tmp_path / "event", 13)  # 5 matches and 3 byes
    cli("draw", folder, "--seed", 5)
    fill(folder, 1)
    doc = json.loads(cli("score", folder, "--json").stdout)
    said = cli("score", folder).stdout
    going_on = re.findall(r"第(\d+)组", re.search(r"^晋级：(.*)$", said, re.M).group(1))
    byes = re.findall(r"第(\d+)组", re.search(r"^轮空（直接晋级）：(.*)$", said, re.M).group(1))
    assert going_on == sorted(doc["advancing"], key=int) != doc["advancing"]
    assert byes == sorted(doc["byes"], key=int)


def test_score_json_with_errors_is_still_one_document(tmp_path):
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    set_cell(round_file(folder, 1), "第2桌", f"{POINTS_COLUMN}{FIRST_HAND_ROW}", 83)
    doc = score_json(folder, code=1)
    bad = doc["matches"][1]
    assert bad["status"] == "invalid" and bad["winner"] is None
    error = next(e for e in bad["errors"] if e["cell"] == f"{POINTS_COLUMN}{FIRST_HAND_ROW}")
    assert (error["file"], error["sheet"], error["hand"], error["field"]) == ("round-1.xlsx", "第2桌", None, None)
    assert "83" in error["message"] and "round-1.xlsx" not in error["message"] and "!" not in error["message"]
    assert all(tuple(e) == ERROR_KEYS for e in bad["errors"])
    assert doc["matches"][0]["errors"] == []


# --- 3. reproducible draws ---


def test_generated_seed_is_stored_and_reproduces_the_draw(tmp_path):
    folder = new_event(tmp_path / "event", 7)
    previous: list[knockout.Round] = []
    for number in (1, 2):
        result = cli("draw", folder)
        found = re.search(r"随机种子：(\d+)", result.output)
        assert found, result.output
        seed = int(found.group(1))
        stored = workbook.read_round(round_file(folder, number)).round
        assert stored.seed == seed
        again = draw_round(
            number, stored.pool, seed=seed, previous_byes=knockout.byes_so_far(previous)
        )
        assert (again.pairings, again.byes) == (stored.pairings, stored.byes)
        assert len(stored.byes) == (1 if number == 1 else 0)  # 7 teams: 3 matches and 1 bye, then 4 teams
        if number == 1:
            assert stored.pool == tuple(t.id for t in team_list(7))  # the team list, in its order
        previous.append(stored)
        fill(folder, number, seed=3)
        cli("score", folder)


def test_same_seed_same_draw_in_two_folders(tmp_path):
    outputs, sheets = [], []
    for name in ("one", "two"):
        folder = new_event(tmp_path / name, 9)
        outputs.append(cli("draw", folder, "--seed", 424242).output.replace(str(folder), "DIR"))
        ws = openpyxl.load_workbook(round_file(folder, 1), read_only=True)["对阵"]
        sheets.append([row for row in ws.iter_rows(values_only=True)])
    assert outputs[0] == outputs[1]
    assert sheets[0] == sheets[1]


def test_draw_refuses_a_round_whose_stored_seed_no_longer_gives_its_pairings(tmp_path):
    folder = new_event(tmp_path / "event", 6)
    cli("draw", folder, "--seed", 11)
    path = round_file(folder, 1)
    ws = openpyxl.load_workbook(path)["对阵"]
    seed_cell = next(c for row in ws.iter_rows() for c in row if c.value == "随机种子").offset(column=1)
    assert seed_cell.value == 11
    set_cell(path, "对阵", seed_cell.coordinate, 12)
    result = cli("draw", folder, code=1)
    assert "round-1.xlsx 对阵" in result.output and "随机种子 12" in result.output and "--force" in result.output


# --- 4. refusals, each naming what to fix ---


def test_draw_refuses_the_template_example_rows(tmp_path):
    folder = tmp_path / "event"
    cli("init", folder)
    result = cli("draw", folder, code=1)
    assert "teams.xlsx 报名表!" in result.output and "示例" in result.output
    assert not round_file(folder, 1).exists()


def test_init_refuses_to_overwrite(tmp_path):
    folder = new_event(tmp_path / "event", 3)
    before = sha(folder / "teams.xlsx")
    result = cli("init", folder, code=1)
    assert "--force" in result.output and "已经是活动文件夹" in result.output
    assert sha(folder / "teams.xlsx") == before


def test_score_and_draw_in_a_folder_without_event(tmp_path):
    result = cli("draw", tmp_path, code=1)
    assert "event.toml" in result.output
    result = cli("score", tmp_path, code=1)
    assert "event.toml" in result.output


@pytest.mark.parametrize("command", ["materials", "draw", "score", "bracket", "awards", "show"])
def test_a_mistyped_folder_is_named_as_missing_not_as_a_new_event(tmp_path, command):
    result = cli(command, tmp_path / "活动2026", code=1)
    assert f"文件夹 {tmp_path / '活动2026'} 不存在" in result.output and "路径是否打错" in result.output
    assert "找不到报名表" not in result.output
    assert not (tmp_path / "活动2026").exists()


def test_score_before_any_draw(tmp_path):
    folder = new_event(tmp_path / "event", 3)
    result = cli("score", folder, code=1)
    assert "还没有抽签" in result.output and "draw" in result.output


def test_draw_again_while_round_open_needs_force(tmp_path):
    folder = new_event(tmp_path / "event", 6)
    cli("draw", folder, "--seed", 1)
    old = round_file(folder, 1).read_bytes()
    result = cli("draw", folder, "--seed", 2, code=1)
    assert "第1桌：尚未录入" in result.output and "--force" in result.output
    assert round_file(folder, 1).read_bytes() == old
    assert not round_file(folder, 2).exists()


def test_draw_force_never_redraws(tmp_path):
    """--force regenerates the round's papers; the draw stays (a round once drawn is never drawn anew)."""
    folder = new_event(tmp_path / "event", 6)
    cli("draw", folder, "--seed", 1)
    old = round_file(folder, 1).read_bytes()
    sheet = folder / "第1轮对阵表.pdf"
    sheet.write_bytes(b"edited by a person")
    result = cli("draw", folder, "--force")
    assert "已按原抽签补全" in result.output and "对阵不变" in result.output
    assert round_file(folder, 1).read_bytes() == old and sheet.read_bytes().startswith(b"%PDF")
    refused = cli("draw", folder, "--seed", 2, "--force", code=1)
    assert "不能重抽" in refused.output and "随机种子 1" in refused.output
    assert round_file(folder, 1).read_bytes() == old and not list(folder.glob("*备份*"))
    fill(folder, 1)
    cli("score", folder)
    cli("draw", folder, "--seed", 3)
    assert workbook.read_round(round_file(folder, 2)).round.seed == 3


def test_draw_refuses_a_tied_match_naming_its_table(tmp_path):
    assert replay(TIED).status is Status.NEEDS_PLAYOFF
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, records={2: TIED})
    doc = score_json(folder)  # a tie is not an input error
    assert doc["matches"][1]["status"] == "needs_playoff" and doc["matches"][1]["winner"] is None
    assert doc["matches"][1]["levels"] == {"A": "2", "B": "2"}
    result = cli("draw", folder, code=1)
    assert "第2桌：需加赛" in result.output and "第1桌" not in result.output
    assert not round_file(folder, 2).exists()
    awards = json.loads(cli("awards", folder, "--json").stdout)
    assert awards["complete"] is False and any("第2桌：需加赛" in m for m in awards["missing"])


def test_bad_cell_is_named_by_draw_and_score(tmp_path):
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cell = f"{POINTS_COLUMN}{FIRST_HAND_ROW}"
    set_cell(round_file(folder, 1), "第1桌", cell, "八十三")
    where = f"round-1.xlsx 第1桌!{cell}"
    result = cli("draw", folder, code=1)
    assert where in result.output and "第1桌：记录有误" in result.output and "score" in result.output
    result = cli("score", folder, code=1)
    assert where in result.output and "八十三" in result.output and "台下得分" in result.output
    awards = json.loads(cli("awards", folder, "--json").stdout)
    assert any("第1桌：记录有误" in m and where in m for m in awards["missing"])


def test_awards_while_unfinished(tmp_path):
    folder = new_event(tmp_path / "event", 6)
    awards = json.loads(cli("awards", folder, "--json").stdout)
    assert awards["complete"] is False and awards["missing"] == ["第1轮尚未抽签"]
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, skip={2})
    awards = json.loads(cli("awards", folder, "--json").stdout)
    assert awards["complete"] is False and awards["first"] is None and awards["third"] == []
    assert "第1轮第2桌：尚未录入" in awards["missing"]
    assert any("尚未抽签" in m and "决赛" in m for m in awards["missing"])
    assert "第1轮第1桌" not in " ".join(awards["missing"])
    text = cli("awards", folder).output
    assert "第2桌" in text


def test_json_errors_from_a_broken_folder(tmp_path):
    """--json: even a refusal prints exactly one JSON document on stdout."""
    for command in ("score", "awards"):
        result = cli(command, tmp_path, "--json", code=1)
        doc = json.loads(result.stdout)
        assert set(doc) == {"errors", "heading", "hint"}, command  # a UserError as the one failure document
        assert all(tuple(e) == ERROR_KEYS for e in doc["errors"])
        assert str(tmp_path / "event.toml") in [e["file"] for e in doc["errors"]]
        assert not any("event.toml" in e["message"] for e in doc["errors"])  # the file is a key of its own


# --- 5. paper lots ---


def write_lots(path: Path, rows: list[tuple[str, int]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["组号", "签号"])
        writer.writerows(rows)
    return path


def test_draw_from_paper_lots(tmp_path):
    # 6 teams: B = 4, so lots 1–2 and 3–4 play and the lots above 2(N − B) = 4 are the byes
    folder = new_event(tmp_path / "event", 6)
    lots = write_lots(tmp_path / "lots.csv", [("01", 3), ("02", 5), ("03", 1), ("04", 4), ("05", 2), ("06", 6)])
    before = sha(lots)
    result = cli("draw", folder, "--lots", lots)
    assert "纸签" in result.output
    assert "签号1与2、3与4对阵（依次为第1、2……桌）；签号5–6轮空（直接进入下一轮）" in result.output
    assert "（签号1对2）" in result.output and "第02组（张2甲、李2乙）（签号5），直接进入下一轮" in result.output
    stored = workbook.read_round(round_file(folder, 1)).round
    assert stored.seed is None
    assert [(p.table, p.a, p.b) for p in stored.pairings] == [(1, "03", "05"), (2, "01", "04")]
    assert stored.byes == ("02", "06")
    assert dict(stored.lots) == {"01": 3, "02": 5, "03": 1, "04": 4, "05": 2, "06": 6}
    assert sha(lots) == before
    # A lots round is not re-checked by seed; the event goes on by seed from here.
    fill(folder, 1)
    cli("score", folder)
    cli("draw", folder, "--seed", 9)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([("01", 1), ("02", 2), ("03", 2), ("04", 4)], "签号 2 重复"),
        ([("01", 1), ("02", 2), ("03", 3), ("99", 4)], "组号“99”不是本轮参赛的组"),
        ([("01", 1), ("02", 2), ("03", 3)], "第04组没有签号"),
        ([("01", 1), ("02", 2), ("03", 3), ("04", "四")], "lots.csv 第5行第2列"),
    ],
)
def test_bad_paper_lots_are_refused(tmp_path, rows, expected):
    folder = new_event(tmp_path / "event", 4)
    result = cli("draw", folder, "--lots", write_lots(tmp_path / "lots.csv", rows), code=1)
    assert expected in result.output
    assert not round_file(folder, 1).exists()


def test_a_lots_file_with_a_nul_byte_is_refused_naming_its_line(tmp_path):
    folder = new_event(tmp_path / "event", 4)
    lots = write_lots(tmp_path / "lots.csv", [("01", 1), ("02", 2), ("03", 3), ("04", 4)])
    lots.write_bytes(lots.read_bytes().replace(b"03", b"0\x003"))
    result = cli("draw", folder, "--lots", lots, code=1)
    assert "lots.csv" in result.output and "第4行有空字符（NUL）" in result.output and "另存为" in result.output
    assert not round_file(folder, 1).exists()


# --- 6. the user's files are never changed ---


def test_users_files_are_byte_for_byte_unchanged(tmp_path):
    folder = new_event(tmp_path / "event", 5)
    mine = [folder / "teams.xlsx", folder / "event.toml"]
    sums = {p: sha(p) for p in mine}

    def unchanged() -> None:
        assert {p: sha(p) for p in mine} == sums

    for number in (1, 2, 3):
        cli("draw", folder, "--seed", number)
        unchanged()
        fill(folder, number, seed=5)
        mine.append(round_file(folder, number))
        sums[mine[-1]] = sha(mine[-1])
        doc = score_json(folder)
        unchanged()
        cli("score", folder, "--round", number)
        unchanged()
        cli("awards", folder, "--json")
        unchanged()
        checked = checked_path(round_file(folder, number))
        assert checked.exists() and checked != round_file(folder, number)
        assert checked.name == f"round-{number}-checked.xlsx"
        summary = openpyxl.load_workbook(checked, read_only=True)["检查结果"]
        rows = {r[0]: r for r in summary.iter_rows(min_row=5, values_only=True) if isinstance(r[0], int)}
        for m in doc["matches"]:
            assert rows[m["table"]][3:5] == (m["levels"]["A"], m["levels"]["B"])
    cli("draw", folder, code=1)  # after the final
    cli("awards", folder)
    cli("score", folder, "--round", 1)  # an earlier round again
    unchanged()


def test_edited_checked_copy_is_kept_unless_forced(tmp_path):
    folder = new_event(tmp_path / "event", 3)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cli("score", folder)
    checked = checked_path(round_file(folder, 1))
    cli("score", folder)  # regenerated without asking: it is still exactly ours
    assert checked.exists()
    set_cell(checked, "检查结果", "A1", "我的笔记")
    edited = checked.read_bytes()
    # the round itself is fine: the kept edit alone is not an input error, and the message says where to correct
    result = cli("score", folder, code=0)
    assert f"注意：{checked.name} 在上次生成后被人改动过，这次没有覆盖它；检查副本里的改动不会被计分采用。" in result.output
    assert "要改正比赛记录，请改 round-1.xlsx" in result.output and "--force" in result.output
    assert checked.read_bytes() == edited
    doc = json.loads(cli("score", folder, "--json", code=0).stdout)
    assert "errors" not in doc and "round-1.xlsx" in doc["warnings"][0]
    cli("score", folder, "--force")
    assert checked.read_bytes() != edited
    cli("score", folder)  # ours again


# --- 7. demo ---


def test_demo_builds_a_sample_event_and_reruns_in_its_own_folder(tmp_path):
    out = tmp_path / "demo"
    result = cli("demo", "--out", out, "--teams", 5, "--seed", 1)
    assert str(out) in result.output
    assert list(out.glob("*.pdf"))
    rounds = sorted(out.glob("round-[0-9].xlsx"))
    assert len(rounds) == knockout.rounds_needed(5)
    assert all(checked_path(p).exists() for p in rounds)
    awards = json.loads(cli("awards", out, "--json").stdout)
    assert awards["complete"] is True
    cli("demo", "--out", out, "--teams", 5, "--seed", 1)  # a demo folder is rebuilt


def test_demo_refuses_a_folder_that_is_not_a_demo(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    precious = out / "notes.txt"
    precious.write_text("不要删除", encoding="utf-8")
    result = cli("demo", "--out", out, "--teams", 2, "--seed", 1, code=1)
    assert "notes.txt" in result.output and str(out) in result.output and "--out" in result.output
    assert precious.read_text(encoding="utf-8") == "不要删除"
    assert sorted(out.iterdir()) == [precious]
    assert "--force" not in result.output  # nothing clears a folder the demo did not fill itself


def test_demo_into_a_real_event_folder_does_not_offer_force(tmp_path):
    folder = new_event(tmp_path / "event", 3)
    before = digests(folder)
    result = cli("demo", "--out", folder, "--teams", 2, "--seed", 1, code=1)
    assert "真实的活动文件夹" in result.output and "--force" not in result.output
    assert digests(folder) == before


# Random field sizes up to 40, fixed per checkout so a failure reproduces; every third table is a walkover.
RANDOM_SIZES = sorted(random.Random(2026).sample(range(10, 41), 2))


@pytest.mark.parametrize("size", RANDOM_SIZES)
def test_event_of_random_size_with_walkovers(tmp_path, size):
    folder = new_event(tmp_path / "event", size)
    forfeit = {0: Side.A, 1: None, 2: None}
    docs, awards = run_event(folder, seed=size, forfeit=lambda table: forfeit[table % 3])
    assert len(docs) == knockout.rounds_needed(size)
    for doc in docs:
        for m in doc["matches"]:
            if m["table"] % 3 == 0:
                assert m["status"] == "walkover" and m["levels"] is None and m["winner"] == m["B"]
            else:
                assert m["status"] in ("decided", "passed_a")
    semi = docs[-2]
    assert awards["complete"] is True
    assert awards["first"] == docs[-1]["matches"][0]["winner"] and awards["second"] == losers(docs[-1])[0]
    assert sorted(awards["third"]) == sorted(losers(semi)) and len(awards["third"]) == len(semi["matches"])


@pytest.mark.big  # with the other largest fields: its own step of .ci/run (pytest -m big)
def test_largest_field_by_walkovers(tmp_path):
    """128 teams through every round; walkovers at every table keep it to ~6 s (workbook I/O dominates). 甲方
    forfeits at odd tables, 乙方 at even ones. (Fields go up to 512: tests/test_field512.py.)"""
    folder = new_event(tmp_path / "event", 128)
    docs, awards = run_event(folder, seed=500, forfeit=lambda table: Side.A if table % 2 else Side.B)
    assert len(docs) == knockout.rounds_needed(128) == 7
    for doc in docs:
        assert all(m["status"] == "walkover" and m["levels"] is None for m in doc["matches"])
        assert all(m["winner"] == (m["B"] if m["table"] % 2 else m["A"]) for m in doc["matches"])
    assert awards["complete"] is True and len(awards["third"]) == 2
    assert awards["first"] == docs[-1]["matches"][0]["winner"] and awards["second"] == losers(docs[-1])[0]


@pytest.mark.parametrize("seed", [0, 10**15 - 1])
def test_extreme_seeds_are_stored_and_checked(tmp_path, seed):
    folder = new_event(tmp_path / "event", 5)
    cli("draw", folder, "--seed", seed)
    assert workbook.read_round(round_file(folder, 1)).round.seed == seed
    fill(folder, 1)
    cli("score", folder)  # reads the round back and re-draws it from the stored seed
    cli("draw", folder, "--seed", 1)


@pytest.mark.parametrize("seed", [-5, 10**15])
def test_seed_a_workbook_could_not_keep_is_a_usage_error(tmp_path, seed):
    """A negative seed would be written and then refused by every later command; more than 15 digits would be
    rounded by Excel or LibreOffice the first time the referee saves the workbook."""
    folder = new_event(tmp_path / "event", 5)
    result = cli("draw", folder, "--seed", seed, code=2)
    assert "--seed" in result.output
    assert not round_file(folder, 1).exists()


def test_each_step_says_what_comes_next(tmp_path):
    folder = tmp_path / "event"
    assert "下一步：核对 event.toml，在 teams.xlsx 填写各组，然后运行 shuangsheng materials" in cli("init", folder).output
    assert f"下一步：报名表 teams.xlsx 填好后，运行 shuangsheng draw {folder} 抽签" in cli("materials", folder).output
    workbook.write_teams(folder / "teams.xlsx", team_list(3), force=True)
    printed = cli("materials", folder).output
    assert f"下一步：比赛负责人核对规则口径确认单并签字；报名截止后运行 shuangsheng draw {folder} 抽签" in printed
    assert "报名表现有3组" in printed
    drawn = cli("draw", folder, "--seed", 1).output
    assert (f"下一步：打印对阵表和计分卡，计分卡双面打印（每桌一张纸，正面记分，背面是得分表和填法）；比赛结束后，"
            f"把各桌的每一局填入 round-1.xlsx，然后运行 shuangsheng score {folder}") in drawn
    entered = cli("score", folder).output  # nothing entered yet: exit 0, nothing written, and what to do
    assert "第1轮还没有录入任何一桌" in entered and "这次什么也没有写" in entered
    assert f"下一步：各桌的成绩录入记分表（或扫码录分）后，再运行 shuangsheng score {folder}" in entered
    assert not (folder / "round-1-checked.xlsx").exists() and not (folder / "第1轮成绩.pdf").exists()
    assert json.loads(cli("score", folder, "--json").stdout)["empty"] is True
    fill(folder, 1)
    assert f"下一步：运行 shuangsheng draw {folder} 抽下一轮" in cli("score", folder).output
    cli("draw", folder, "--seed", 2)
    fill(folder, 2)
    final = cli("score", folder).output  # after the final's score: run awards
    assert final.rstrip().endswith(f"下一步：决赛已经结束：运行 shuangsheng awards {folder} 查看最终名次")


# --- what the messages say is true (issue 16, item 8) ---


def test_materials_exits_1_when_the_team_list_has_errors_but_not_for_the_untouched_template(tmp_path):
    folder = tmp_path / "event"
    cli("init", folder)
    result = cli("materials", folder)  # the template as init wrote it: nobody listed yet, blank forms
    assert "还没有填写参赛组（只有模板的示例行）" in result.output and "有错误" not in result.output
    assert (folder / "报名表.pdf").exists()
    workbook.write_teams(folder / "teams.xlsx", [], force=True)  # example rows deleted, nobody typed yet
    cli("materials", folder)
    workbook.write_teams(folder / "teams.xlsx", [Team("01", ("张三", "张三")), Team("02", ("王五", ""))], force=True)
    result = cli("materials", folder, "--force", code=1)
    assert "teams.xlsx 有错误" in result.output and "报名表!" in result.output
    assert f"下一步：按上面指出的单元格改正 teams.xlsx，再运行 shuangsheng materials {folder}" in result.output
    assert (folder / "通知.pdf").exists()  # the notice and rules do not wait for the list


def test_next_step_after_a_later_round_is_drawn_and_after_the_event(tmp_path):
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cli("score", folder)
    cli("draw", folder, "--seed", 2)  # the final is drawn: round 1 is looked at again
    again = cli("score", folder, "--round", 1).output
    assert "抽下一轮" not in again and "下一步：第1轮的结果已定；第2轮已经抽签：" in again
    assert f"填入 round-2.xlsx，再运行 shuangsheng score {folder}" in again
    during = cli("materials", folder, "--force").output
    assert "draw" not in during.splitlines()[-1] and "下一步：第2轮已经抽签：" in during
    set_cell(round_file(folder, 1), "第1桌", f"{POINTS_COLUMN}{FIRST_HAND_ROW}", 83)  # a correction goes wrong
    fixed = cli("score", folder, "--round", 1, code=1).output
    assert f"改正 round-1.xlsx，再运行 shuangsheng score {folder} --round 1" in fixed  # not the latest round
    fill(folder, 1)
    fill(folder, 2)
    cli("score", folder)
    after = cli("score", folder, "--round", 1).output
    assert "抽下一轮" not in after and f"比赛已经结束：运行 shuangsheng awards {folder}" in after
    last = cli("materials", folder, "--force").output.splitlines()[-1]
    assert "draw" not in last and "抽签" not in last and f"比赛已经结束：运行 shuangsheng awards {folder}" in last


def test_the_final_names_the_winner_not_someone_advancing(tmp_path):
    folder = new_event(tmp_path / "event", 4, playoff=True)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cli("draw", folder, "--seed", 2)
    fill(folder, 2)
    final = cli("score", folder).output
    assert "晋级" not in final
    assert "决赛结果：冠军（一等奖）第" in final and "，亚军（二等奖）第" in final
    assert re.search(r"三、四名决赛：第\d+组（[^）]*）获三等奖", final)
    doc = score_json(folder)
    assert doc["advancing"] == [] and doc["byes"] == []  # nobody goes on from the final
    assert all(m["winner"] for m in doc["matches"])  # the champion is the final's winner


def test_a_final_won_by_walkover_does_not_say_advancing(tmp_path):
    folder = new_event(tmp_path / "event", 2)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, walkovers={1: Side.A})
    final = cli("score", folder).output
    assert "晋级" not in final and "获胜" in final and "决赛结果：冠军（一等奖）" in final
    assert score_json(folder)["advancing"] == []


def test_two_teams_say_plainly_that_no_third_prize_is_awarded(tmp_path):
    folder = new_event(tmp_path / "event", 2)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    assert "晋级" not in cli("score", folder).output
    result = cli("awards", folder)
    assert "比赛结束" in result.output and "（待定）" not in result.output
    assert "三等奖：不设" in result.output
    announced = text_of((folder / "成绩公告.pdf").read_bytes())
    assert "三等奖（不设）" in announced.replace(" ", "") and "空缺" not in announced


def test_materials_with_a_corrupt_round_workbook_names_it_in_the_next_step(tmp_path):
    """materials does not need the rounds (exit 0), but its 下一步 line must not send the user to `score` as if all
    were well: it says the drawn round's workbook cannot be read, and why."""
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    (folder / "round-1.xlsx").write_bytes(b"not a workbook")
    last = cli("materials", folder, "--force").output.splitlines()[-1]
    assert last.startswith("下一步：第1轮已经抽签，但现在读不了：round-1.xlsx：不是 xlsx 工作簿"), last
    assert last.endswith(f"改好后运行 shuangsheng score {folder} 查看该轮")
