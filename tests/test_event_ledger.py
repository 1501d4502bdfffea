"""The event ledger through the command line: generated files judged by event.db, one command at a
time, an interrupted draw completed, `draw --check`, missing and moved round workbooks named."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shuangsheng.storage import workbook
from shuangsheng.storage.ledger import lock
from shuangsheng.storage.ledger.connection import Ledger, kept_open
from shuangsheng.storage.ledger.records import Fingerprint
from shuangsheng.storage.names import DB_NAME, HOLDER_NAME, LEGACY_RECORD
from tests.events import fill, new_event, round_file, second_round_drawn, simulated
from tests.helpers import cli, sha

ROOT = Path(__file__).resolve().parents[1]


def hashes(folder: Path) -> dict[str, str]:
    """Every file's fingerprint, but the lock's own bookkeeping (who held the folder last)."""
    return {p.relative_to(folder).as_posix(): sha(p) for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != HOLDER_NAME}


# --- 1. generated files: judged by event.db, never blamed on a person for the program's own interruption ---


def test_init_creates_event_db(tmp_path: Path) -> None:
    cli("init", tmp_path / "event")
    assert (tmp_path / "event" / DB_NAME).is_file()


def test_a_checked_copy_stopped_before_its_rename_is_not_a_person_s_edit(tmp_path: Path, monkeypatch) -> None:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, skip=(2,))
    cli("score", folder)  # the checked copy of the round half entered
    checked = folder / "round-1-checked.xlsx"
    before = checked.read_bytes()
    fill(folder, 1)
    real = os.replace

    def killed(src, dst):  # the command dies at the rename of the checked copy, after its record
        if Path(dst).name == checked.name:
            raise KeyboardInterrupt
        real(src, dst)

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        from shuangsheng.usecases.score import score, write_checked_copy

        write_checked_copy(score(folder))
    monkeypatch.setattr(os, "replace", real)
    assert checked.read_bytes() == before
    result = cli("score", folder)
    assert "改动过" not in result.output
    assert checked.read_bytes() != before


def test_the_checked_copy_is_written_again_only_when_what_it_shows_changed(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    checked = folder / "round-1-checked.xlsx"
    fill(folder, 1, skip=(2,))
    cli("score", folder)
    blank = checked.stat()
    source = workbook.made_from(checked)
    assert source is not None and len(source) == 64
    again = cli("score", folder)  # nothing entered since: the copy already there is this one
    assert f"检查副本（逐局级数与说明，错误处已标出）：{checked}" in again.output
    assert (checked.stat().st_ino, checked.stat().st_mtime_ns) == (blank.st_ino, blank.st_mtime_ns)
    fill(folder, 1)  # the other table's hands entered: a new copy
    cli("score", folder)
    assert workbook.made_from(checked) != source
    assert workbook.read_round(checked).match(1).record == workbook.read_round(round_file(folder, 1)).match(1).record


def test_a_person_s_edit_is_still_named(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, skip=(2,))
    cli("score", folder)
    (folder / "round-1-checked.xlsx").write_bytes(b"typed over by a person")
    result = cli("score", folder)
    assert "round-1-checked.xlsx 在上次生成后被人改动过" in result.output


def _old_folder(folder: Path) -> None:
    """A folder as the program before event.db left it: the JSON bookkeeping, no event.db."""
    (folder / DB_NAME).unlink()
    record = {p.name: sha(p) for p in folder.glob("*.pdf")}
    (folder / LEGACY_RECORD).write_text(json.dumps(record), encoding="utf-8")


def test_a_folder_from_before_event_db_is_upgraded_on_its_next_command(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 6)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cli("score", folder)
    _old_folder(folder)
    (folder / "round-1-checked.xlsx").unlink()
    result = cli("score", folder)
    assert "改动过" not in result.output
    assert not (folder / LEGACY_RECORD).exists()
    with Ledger.open(folder) as book:
        assert book.draws()[1].round == workbook.read_round(round_file(folder, 1)).round
        assert book.draws()[1].done
        assert {"第1轮对阵表.pdf", "round-1-checked.xlsx"} <= set(book.generated())
    cli("draw", folder, "--seed", 2)


@pytest.mark.parametrize("damage", ["removed", "garbage", "empty"])
def test_the_bookkeeping_removed_or_damaged_is_refused_then_rebuilt_and_blames_nobody(tmp_path: Path,
                                                                                     damage: str) -> None:
    """A round was drawn: the lost event.db is named (docs/ledger.md), never rebuilt without a word; rebuilt by the
    command the refusal names, the program's own files are not taken for a person's edits."""
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cli("score", folder)
    db = folder / DB_NAME
    if damage == "removed":
        db.unlink()
    else:
        db.write_bytes(b"" if damage == "empty" else b"\x00garbage" * 500)
    refused = cli("score", folder, code=1)
    assert f"{db}：" in refused.output and f"shuangsheng rebuild {folder}" in refused.output
    cli("rebuild", folder)
    if damage != "removed":
        assert list(folder.glob("event.损坏-*.db"))
    result = cli("score", folder)
    assert "改动过" not in result.output
    cli("draw", folder, "--seed", 2)


# --- 2. one file-writing command at a time ---

HOLDER = textwrap.dedent("""\
    import sys, time
    from pathlib import Path
    from shuangsheng.storage.ledger.lock import exclusive
    sys.argv = ["shuangsheng", "score", "活动"]
    with exclusive(Path({folder!r}), wait=1):
        print("held", flush=True)
        time.sleep(60)
""")


def test_a_second_command_waits_then_names_the_holder(tmp_path: Path, monkeypatch) -> None:
    folder = new_event(tmp_path / "event", 4)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER.format(folder=str(folder))], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(lock, "WAIT_SECONDS", 0.2)
        before = hashes(folder)
        for command in ("draw", "score", "materials", "bracket", "awards"):
            result = cli(command, folder, code=1)
            assert "另一个命令（shuangsheng score 活动" in result.output and "正在使用这个文件夹" in result.output
        for command in ("score", "awards"):  # --json: the refusal is the one failure document on stdout
            doc = json.loads(cli(command, folder, "--json", code=1).stdout)
            assert set(doc) == {"errors", "heading", "hint"} and "正在使用这个文件夹" in doc["errors"][0]["message"]
        assert hashes(folder) == before
    finally:
        holder.kill()
        holder.wait(timeout=10)
    cli("draw", folder, "--seed", 1)  # the killed holder blocks nobody


# --- 3. an interrupted draw is completed, not drawn anew; --check ---


def test_a_draw_whose_papers_failed_is_completed_by_draw_again(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 6)
    cards = folder / "第1轮计分卡.pdf"
    cards.mkdir()  # the score cards cannot be written (as when a viewer holds the file, or the disk is full)
    result = cli("draw", folder, "--seed", 11, code=1)
    assert "对阵表/计分卡没有更新" in result.output and "抽签已经记下" in result.output
    drawn = workbook.read_round(round_file(folder, 1)).round
    refused = cli("draw", folder, "--seed", 12, code=1)
    assert "第1轮已经抽过签（随机种子 11）" in refused.output and "不能重抽" in refused.output
    (folder / ".round-1.xlsx.abcd1234.tmp").write_bytes(b"left by a killed command")
    cards.rmdir()
    again = cli("draw", folder)
    assert "已按原抽签补全" in again.output and cards.is_file()
    assert workbook.read_round(round_file(folder, 1)).round == drawn
    assert not list(folder.glob(".*.tmp"))
    blocked = cli("draw", folder, code=1)  # complete now: round 1 must be played first
    assert "没有决出胜负" in blocked.output


def test_a_draw_stopped_before_its_workbook_landed_writes_it_on_the_next_run(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 5)
    cli("draw", folder, "--seed", 4)
    drawn = workbook.read_round(round_file(folder, 1)).round
    with sqlite3.connect(folder / DB_NAME) as db:  # as if killed right after the draw was recorded
        db.execute("DELETE FROM draw_done")
    db.close()
    round_file(folder, 1).unlink()
    for name in ("第1轮对阵表.pdf", "第1轮计分卡.pdf"):
        (folder / name).unlink()
    score = cli("score", folder, code=1)
    assert "第1轮的抽签被中断" in score.output and "shuangsheng draw" in score.output
    cli("draw", folder)
    assert workbook.read_round(round_file(folder, 1)).round == drawn
    assert (folder / "第1轮计分卡.pdf").is_file()


def test_draw_prints_the_check_command_and_check_writes_nothing(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 7)
    result = cli("draw", folder, "--seed", 99)
    assert f"shuangsheng draw {folder} --check 1" in result.output
    fill(folder, 1)
    cli("score", folder)
    cli("draw", folder, "--seed", 5)
    before = hashes(folder)
    for number in (1, 2):
        checked = cli("draw", folder, "--check", number)
        assert "对阵与记录一致" in checked.output
    assert hashes(folder) == before
    with sqlite3.connect(folder / DB_NAME) as db:
        db.execute("UPDATE draw SET seed = 98 WHERE round = 1")
    db.close()
    before = hashes(folder)
    wrong = cli("draw", folder, "--check", 1, code=1)
    assert "不一致" in wrong.output
    assert hashes(folder) == before
    assert "还没有抽签" in cli("draw", folder, "--check", 3, code=1).output


def test_check_of_a_round_not_drawn_answers_at_once_and_its_advice_works(tmp_path: Path) -> None:
    """`draw --check N` for any N typed: refused before any work (the rounds 1…N are not read one by one), naming the
    rounds that are drawn and a command that works."""
    folder = new_event(tmp_path / "event", 5)
    first = cli("draw", folder, "--check", 1, code=1).output
    assert "还没有抽过任何一轮" in first and f"shuangsheng draw {folder}" in first
    cli("draw", folder, "--seed", 3)
    refused = cli("draw", folder, "--check", 10**20, code=1).output
    assert f"第{10**20}轮还没有抽签" in refused and "已抽签的是第1轮" in refused
    advice = refused.split("例如 ")[1].split()
    assert advice[:2] == ["shuangsheng", "draw"]
    assert "对阵与记录一致" in cli(*advice[1:]).output


def test_check_names_a_seed_cell_changed_in_the_workbook(tmp_path: Path) -> None:
    """Changing round-1.xlsx's 随机种子 cell (the draw itself untouched) is a difference, not 一致."""
    import openpyxl

    folder = new_event(tmp_path / "event", 5)
    cli("draw", folder, "--seed", 3)
    path = round_file(folder, 1)
    book = openpyxl.load_workbook(path)
    sheet = next(ws for ws in book.worksheets if any(c.value == "随机种子" for row in ws.iter_rows() for c in row))
    label = next(c for row in sheet.iter_rows() for c in row if c.value == "随机种子")
    sheet.cell(label.row, label.column + 1).value = 4
    book.save(path)
    wrong = cli("draw", folder, "--check", 1, code=1).output
    assert "round-1.xlsx 里写的随机种子（4）与 event.db 记下的（3）不同" in wrong


def test_check_refuses_a_newer_program_s_event_db_instead_of_checking_the_workbook(tmp_path: Path) -> None:
    from shuangsheng.storage.ledger.schema import SCHEMA_VERSION

    folder = new_event(tmp_path / "event", 5)
    cli("draw", folder, "--seed", 3)
    with sqlite3.connect(folder / DB_NAME) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    refused = cli("draw", folder, "--check", 1, code=1).output
    assert "更新版本" in refused and "一致" not in refused


def test_check_on_a_folder_from_before_event_db_uses_the_workbook_and_creates_nothing(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 5)
    cli("draw", folder, "--seed", 3)
    (folder / DB_NAME).unlink()
    before = hashes(folder)
    assert "round-1.xlsx 记下的随机种子 3" in cli("draw", folder, "--check", 1).output
    assert hashes(folder) == before


# --- 4. a drawn round's workbook missing, replaced or saved under another name ---


@pytest.mark.parametrize("copy", ["round-1 (1).xlsx", "round-1 - 副本.xlsx", "round-1.xls", "round-1.xlsx.xlsx", None])
def test_a_missing_round_workbook_is_named_never_redrawn(tmp_path: Path, copy: str | None) -> None:
    folder = new_event(tmp_path / "event", 6)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    cli("score", folder)
    if copy:
        round_file(folder, 1).rename(folder / copy)
    else:
        round_file(folder, 1).unlink()
    before = hashes(folder)
    for command in ("draw", "score", "bracket", "awards"):
        result = cli(command, folder, code=1)
        assert "round-1.xlsx 不见了：第1轮已于" in result.output
        if copy:
            assert f"文件夹里有 {copy}" in result.output and "改名为 round-1.xlsx" in result.output
        else:
            assert f"shuangsheng draw {folder} --force" in result.output
    assert hashes(folder) == before
    if copy is None:  # truly lost: the same draw, blank, on request
        result = cli("draw", folder, "--force")
        assert "已按原抽签重新生成空白的" in result.output
        assert workbook.read_round(round_file(folder, 1)).round.seed == 1


def test_a_round_workbook_replaced_by_another_draw_is_named(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 6)
    other = new_event(tmp_path / "other", 6)
    cli("draw", folder, "--seed", 1)
    cli("draw", other, "--seed", 2)
    shutil.copyfile(round_file(other, 1), round_file(folder, 1))
    for command in ("draw", "score"):
        result = cli(command, folder, code=1)
        assert "对阵与第1轮抽签时记下的不同" in result.output


def test_a_filled_copy_beside_a_blank_workbook_is_named_unless_it_is_the_second_entry(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    shutil.copyfile(round_file(folder, 1), folder / "round-1 (1).xlsx")
    fill(folder, 1)
    round_file(folder, 1).rename(folder / "round-1 - 副本.xlsx")
    shutil.copyfile(folder / "round-1 (1).xlsx", round_file(folder, 1))  # the blank one back in place
    (folder / "round-1 (1).xlsx").unlink()
    result = cli("score", folder)
    assert "round-1.xlsx 里还没有录入任何一局，而文件夹里还有 round-1 - 副本.xlsx" in result.output
    (folder / "round-1 - 副本.xlsx").rename(folder / "round-1 核对.xlsx")
    cli("score", folder, "--verify", folder / "round-1 核对.xlsx", code=1)  # every table differs: exit 1
    assert "核对.xlsx" not in cli("score", folder).output


# --- 5. a correction after the next draw: draw --redo N, carried to the end of the event ---


def _mirrored(record):
    """The same hands with the dealers swapped: the other side wins, after as many hands."""
    from dataclasses import replace

    from shuangsheng.game.hands import MatchRecord

    return MatchRecord(tuple(replace(h, dealer=h.dealer.other) for h in record.hands))


def test_a_correction_after_the_next_draw_has_one_way_forward_carried_to_the_end(tmp_path: Path) -> None:
    from shuangsheng.storage.workbook.round_writer import entered
    from shuangsheng.usecases.score import score

    folder = second_round_drawn(tmp_path / "event")
    records = {t: simulated(t, folder) for t in (1, 2, 3, 4)}  # round 1 as second_round_drawn typed it
    fill(folder, 2, seed=5, skip=(2,))  # round 2: table 1 played and entered, table 2 not yet
    round2 = workbook.read_round(round_file(folder, 2))
    kept_hands = round2.match(1).record
    before = {m.outcome.table: m.outcome.winner for m in score(folder, 1).score.matches}
    # a referee finds a mistake at round 1's table that sent a team to round 2's table 2
    wrong = next(p for p in workbook.read_round(round_file(folder, 1)).round.pairings
                 if before[p.table] in (round2.match(2).pairing.a, round2.match(2).pairing.b))
    workbook.fill_round(round_file(folder, 1), {wrong.table: _mirrored(records[wrong.table])})
    after = score(folder, 1).score.matches[wrong.table - 1].outcome.winner
    assert after != before[wrong.table]
    scored = cli("score", folder, "--round", 1)
    assert f"shuangsheng draw {folder} --redo 2" in scored.output and "第2轮有" in scored.output
    assert f"下一步：运行 shuangsheng draw {folder} --redo 2" in scored.output
    for command in ("bracket", "awards", "draw"):
        assert "--redo 2" in cli(command, folder, code=1).output
    redone = cli("draw", folder, "--redo", 2)
    assert "第2桌：" in redone.output and "换为" in redone.output and "其余1桌已录入的各局保留不变" in redone.output
    assert list((folder / "备份").glob("round-2.备份-*.xlsx"))
    now = workbook.read_round(round_file(folder, 2))
    assert now.match(1).record == kept_hands  # the other table untouched
    assert entered(now.grids["第1桌"]) == entered(round2.grids["第1桌"])  # every input cell, as typed
    assert after in (now.match(2).pairing.a, now.match(2).pairing.b)
    assert before[wrong.table] not in now.round.pool
    assert "对阵与记录一致" in cli("draw", folder, "--check", 2).output  # the same seed on the corrected pool
    with Ledger.open(folder) as book:
        (redo,) = book.entries("redo")[0:1]
        assert redo[1]["round"] == 2 and redo[1]["replaced"]
    workbook.fill_round(round_file(folder, 2), {2: simulated(9, folder)})
    cli("score", folder)
    cli("draw", folder, "--seed", 3)
    workbook.fill_round(round_file(folder, 3), {1: simulated(10, folder)})
    cli("score", folder)
    result = cli("awards", folder)
    assert "一等奖" in result.output and (folder / "荣誉证书.pdf").is_file()


def test_plain_score_names_an_earlier_round_changed_since_it_was_scored_and_its_advice_leads_on(tmp_path: Path) -> None:
    """A referee corrects round 1 after round 2 was drawn and runs plain `score`: it scores round 2 (nothing entered
    yet: nothing written) and names round 1, with the command; that command names `draw --redo 2`, which works."""
    from dataclasses import replace

    from shuangsheng.game.hands import MatchRecord
    from shuangsheng.usecases.score import score

    folder = second_round_drawn(tmp_path / "event")
    assert "第1轮" not in cli("score", folder).output  # nothing changed: nothing said of round 1
    round2 = workbook.read_round(round_file(folder, 2)).match(2).pairing
    winners = {m.outcome.table: m.outcome.winner for m in score(folder, 1).score.matches}
    wrong = next(t for t, w in winners.items() if w in (round2.a, round2.b))
    typed = simulated(wrong, folder)
    workbook.fill_round(round_file(folder, 1),
                        {wrong: MatchRecord(tuple(replace(h, dealer=h.dealer.other) for h in typed.hands))})
    before = hashes(folder)
    plain = cli("score", folder).output
    assert "第2轮还没有录入任何一桌" in plain
    assert f"第1轮第{wrong}桌在上次计分" in plain and "之后改过" in plain and "--redo 2" in plain
    advice = plain.split("请运行 ")[1].split("；")[0].split()
    assert advice == ["shuangsheng", "score", str(folder), "--round", "1"]
    assert hashes(folder) == before  # round 2 empty: nothing written, nothing recorded
    scored = cli(*advice[1:]).output
    assert f"下一步：运行 shuangsheng draw {folder} --redo 2" in scored
    assert f"运行 shuangsheng draw {folder} --redo 2" in cli("score", folder).output  # scored, not carried on yet
    assert "第1轮第" not in cli("score", folder, "--round", 1).output.split("下一步")[0].split("注意")[0]
    cli("draw", folder, "--redo", 2)
    assert "之后改过" not in cli("score", folder).output  # taken in: nothing more to say


def test_a_redo_removes_the_voided_rounds_papers_and_keeps_one_a_person_changed(tmp_path: Path) -> None:
    """`draw --redo 2` voids round 3: its 计分卡 (dead 录分码), 对阵表, 成绩 and checked copy go with it while they are
    as the program wrote them; one a person changed is kept, and said."""
    from tests.events import round_one_corrected, third_round_drawn

    folder = third_round_drawn(tmp_path / "event")
    fill(folder, 3, seed=6)
    cli("score", folder)
    stale = ["第3轮对阵表.pdf", "第3轮计分卡.pdf", "第3轮成绩.pdf", "第3轮成绩.png", "round-3-checked.xlsx"]
    assert all((folder / name).is_file() for name in stale)
    (folder / "第3轮对阵表.pdf").write_bytes(b"%PDF a person's own copy")
    round_one_corrected(folder)
    said = cli("draw", folder, "--redo", 2).output
    assert f"已删除 {folder / '第3轮计分卡.pdf'}（第3轮的抽签已作废，上面的录分码已不能用）" in said
    assert f"已删除 {folder / '第3轮成绩.pdf'}（第3轮的抽签已作废）" in said
    assert not any((folder / name).exists() for name in stale[1:])
    assert (folder / "第3轮对阵表.pdf").read_bytes() == b"%PDF a person's own copy"
    assert f"{folder / '第3轮对阵表.pdf'}：第3轮的抽签已作废，这份文件也已作废；它和本程序生成的不一样" in said


# --- 6. teams.xlsx, [rules] and [format] changed after the draw ---


def _teams_file(folder: Path, drop: str | None = None, rename: dict[str, tuple[str, str]] | None = None) -> None:
    from shuangsheng.knockout.teams import Team

    teams = [t for t in workbook.read_teams(folder / "teams.xlsx") if t.id != drop]
    teams = [Team(t.id, (rename or {}).get(t.id, t.players)) for t in teams]
    workbook.write_teams(folder / "teams.xlsx", teams, force=True)


def test_a_team_added_after_the_draw_is_named_by_every_command_with_what_to_do(tmp_path: Path) -> None:
    from tests.events import team_list

    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    workbook.write_teams(folder / "teams.xlsx", team_list(5), force=True)
    fill(folder, 1)
    for command in ("score", "draw"):
        said = cli(command, folder).output
        assert "第05组是第1轮抽签之后加的" in said and "不能再加组" in said and "从报名表删去这一行" in said
    assert "05" not in workbook.read_round(round_file(folder, 2)).round.pool


def test_a_team_row_deleted_after_the_draw_keeps_the_names_recorded_at_the_draw(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 2)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1)
    _teams_file(folder, drop="01", rename={"02": ("王五", "赵六")})
    result = cli("score", folder)
    assert "已没有第01组（张1甲、李1乙）这一行，沿用抽签时记下的队员" in result.output
    assert "第02组（王五、赵六）的队员在抽签后改过（抽签时为张2甲、李2乙），从现在起按报名表" in result.output
    awards = cli("awards", folder)
    assert "张1甲" in awards.output and "王五" in awards.output


def test_a_team_row_deleted_in_a_folder_from_before_event_db_is_a_problem(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 3)
    cli("draw", folder, "--seed", 1)
    _old_folder(folder)
    _teams_file(folder, drop="02")
    result = cli("awards", folder, code=1)
    assert "第02组已经抽签参赛，报名表里却没有这一行" in result.output


def _without_levels(record):
    from dataclasses import replace

    from shuangsheng.game.hands import MatchRecord

    return MatchRecord(tuple(replace(h, level=None) for h in record.hands))


def test_rules_changed_after_a_round_was_scored_alter_nothing_without_accept_rules(tmp_path: Path) -> None:
    from tests.events import simulated
    from tests.test_cli_event import score_json

    folder = new_event(tmp_path / "event", 8)
    cli("draw", folder, "--seed", 1)
    workbook.fill_round(round_file(folder, 1), {t: _without_levels(simulated(t, folder)) for t in (1, 2, 3, 4)})
    first = score_json(folder)
    toml = folder / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('dealer_table = "ceil"', 'dealer_table = "floor"'),
                    encoding="utf-8")
    held = cli("score", folder, code=1)
    assert "[rules] 在计分之后改过" in held.output and "第1轮（第" in held.output and "--accept-rules" in held.output
    assert score_json(folder, code=1)["matches"] == first["matches"]  # nothing altered
    assert "[rules] 在计分之后改过" in cli("bracket", folder).output
    accepted = score_json(folder, "--accept-rules")
    assert accepted["matches"] != first["matches"]
    with Ledger.open(folder) as book:
        assert [d["round"] for _, d, _ in book.entries("accept_rules")] == [1]
    assert "[rules]" not in cli("score", folder).output


def test_format_is_frozen_after_the_first_draw(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 4)
    cli("draw", folder, "--seed", 1)
    toml = folder / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('third_place = "shared"', 'third_place = "playoff"'),
                    encoding="utf-8")
    for command in ("score", "draw", "bracket"):
        result = cli(command, folder, code=1)
        assert '[format] 在第1轮抽签之后改过（third_place 抽签时为 "shared"，现在为 "playoff"）' in result.output


def test_kept_open_shares_one_connection_and_closes_it_checkpointed_at_the_end(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    written = folder / "第1轮对阵表.pdf"
    with kept_open(folder):
        with Ledger.open(folder) as book:
            book.record_file(written, Fingerprint("0" * 64, 1))
        assert Ledger.open(folder) is book and Ledger.existing(folder) is book  # closing it did nothing
        assert book.recorded(written.name) == Fingerprint("0" * 64, 1)
        with sqlite3.connect(folder / DB_NAME) as other:  # each write committed when it was made
            assert other.execute("SELECT COUNT(*) FROM file").fetchone() == (1,)
        other.close()
    with pytest.raises(sqlite3.ProgrammingError):  # closed at the end, its log checkpointed into event.db
        book.recorded(written.name)
    assert not (folder / (DB_NAME + "-wal")).exists() or (folder / (DB_NAME + "-wal")).stat().st_size == 0
    with Ledger.open(folder) as fresh:
        assert fresh is not book and fresh.recorded(written.name) == Fingerprint("0" * 64, 1)
