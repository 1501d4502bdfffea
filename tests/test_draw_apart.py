"""`draw` with 单位, 种子 and 候补 in teams.xlsx: units and seeds kept apart in round 1, what was applied recorded and
used by `draw --check` whatever teams.xlsx says later, paper lots' meetings named, reserves not drawn (issue 33)."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pdfplumber

from shuangsheng.knockout.apart import Apart
from shuangsheng.knockout.draw import draw_round
from shuangsheng.knockout.teams import Team
from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import DB_NAME, EVENT_FILE, TEAMS_FILE, draw_sheet_name
from tests.events import fill, new_event
from tests.helpers import cli

UNITS = ("化学系", "化学系", "化学系", "化学系", "物理系", "物理系", "数学系", "")


def field() -> list[Team]:
    """Eight pairs, four of one unit; 01 and 05 seeded; two reserve pairs after them."""
    teams = [Team(f"{i:02d}", (f"甲{i}", f"乙{i}"), unit=UNITS[i - 1], seed={1: 1, 5: 2}.get(i)) for i in range(1, 9)]
    return teams + [Team(f"{i:02d}", (f"甲{i}", f"乙{i}"), unit="化学系", reserve=True) for i in (9, 10)]


def test_round_one_keeps_units_and_seeds_apart_and_the_check_uses_what_was_recorded(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", field())
    out = cli("draw", folder, "--seed", 11).output
    assert "抽签时同单位的组尽量不相遇、种子尽量不相遇（种子优先轮空）。" in out
    assert "候补组（不参加抽签）：第09组（甲9、乙9）、第10组（甲10、乙10）" in out
    with Ledger.open(folder) as book:
        record = book.draws()[1]
    drawn = record.round
    assert drawn.pool == tuple(f"{i:02d}" for i in range(1, 9)) and not drawn.byes
    unit = dict(zip(drawn.pool, UNITS, strict=True))
    assert all(not unit[p.a] or unit[p.a] != unit[p.b] for p in drawn.pairings)  # 4 of 8: nobody need meet
    assert {"01", "05"} not in [{p.a, p.b} for p in drawn.pairings]
    assert record.apart == Apart.of(field()[:8])
    assert draw_round(1, drawn.pool, seed=11) != drawn  # the plain lot of this seed was repaired
    with pdfplumber.open(folder / draw_sheet_name(1)) as pdf:
        text = "".join((page.extract_text() or "") for page in pdf.pages).replace("\n", "")
    assert "抽签时同单位的组尽量不相遇、种子尽量不相遇（种子优先轮空）" in text
    # teams.xlsx edited after the draw: every unit and seed changed; a draw with them would differ …
    edited = [Team(t.id, t.players, unit="同一单位", seed=None if t.seed else 9 - int(t.id)) for t in field()[:8]]
    workbook.write_teams(folder / TEAMS_FILE, edited, force=True)
    assert draw_round(1, drawn.pool, seed=11, apart=Apart.of(edited)) != drawn
    # … but the check draws with what was recorded
    assert "对阵与记录一致" in cli("draw", folder, "--check", 1).output


def test_paper_lots_are_not_adjusted_and_their_meetings_are_named(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", field())
    lots = tmp_path / "lots.csv"
    with lots.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([("组号", "签号"), *((f"{i:02d}", i) for i in range(1, 9))])
    out = cli("draw", folder, "--lots", lots).output
    assert "纸签抽出的对阵中，以下各桌同单位或种子相遇" in out
    assert "第1桌：第01组与第02组同为“化学系”" in out and "第2桌：第03组与第04组同为“化学系”" in out
    assert "第3桌：第05组与第06组同为“物理系”" in out and "尽量不相遇（" not in out
    with Ledger.open(folder) as book:
        assert not book.draws()[1].apart
    assert "对阵与记录一致" in cli("draw", folder, "--check", 1).output


def test_an_old_team_list_draws_as_it_always_did(tmp_path: Path) -> None:
    plain = [Team(f"{i:02d}", (f"甲{i}", f"乙{i}")) for i in range(1, 8)]
    folder = new_event(tmp_path / "event", plain)
    out = cli("draw", folder, "--seed", 99).output
    assert "尽量不相遇" not in out and "候补组" not in out
    with Ledger.open(folder) as book:
        record = book.draws()[1]
    assert not record.apart
    assert record.round == draw_round(1, [t.id for t in plain], seed=99)
    with pdfplumber.open(io.BytesIO((folder / draw_sheet_name(1)).read_bytes())) as pdf:
        assert "尽量不相遇" not in "".join((page.extract_text() or "") for page in pdf.pages)


def _every_round(folder: Path) -> None:
    toml = folder / EVENT_FILE
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('avoid_same_unit = "round1"', 'avoid_same_unit = "every_round"'), encoding="utf-8")


def test_later_rounds_keep_units_apart_only_with_every_round(tmp_path: Path) -> None:
    for every in (False, True):
        folder = new_event(tmp_path / f"event-{every}", [Team(f"{i:02d}", (f"甲{i}", f"乙{i}"), unit="同一单位")
                                                         for i in range(1, 9)])
        if every:
            _every_round(folder)
        cli("draw", folder, "--seed", 3)
        fill(folder, 1)
        cli("score", folder)
        out = cli("draw", folder, "--seed", 4).output
        with Ledger.open(folder) as book:
            draws = book.draws()
        assert bool(draws[2].apart) is every and ("同单位的组尽量不相遇" in out) is every
        assert draws[2].apart.among(draws[2].round.pool) == draws[2].apart
        assert "对阵与记录一致" in cli("draw", folder, "--check", 2).output


def test_a_record_without_the_units_is_checked_with_teams_xlsx_and_says_so(tmp_path: Path) -> None:
    """event.db rebuilt (or a folder whose record kept nothing apart): the check falls back on teams.xlsx as it is."""
    folder = new_event(tmp_path / "event", field())
    cli("draw", folder, "--seed", 11)
    with sqlite3.connect(folder / DB_NAME) as db:
        db.execute("UPDATE draw SET apart = NULL")
    db.close()
    out = cli("draw", folder, "--check", 1).output
    assert "对阵与记录一致。（没有记下这一轮抽签时的单位、种子" in out and "按现在报名表里的单位、种子重抽" in out
    workbook.write_teams(folder / TEAMS_FILE, [Team(t.id, t.players) for t in field()], force=True)
    assert "不一致" in cli("draw", folder, "--check", 1, code=1).output


def test_a_round_drawn_with_units_apart_is_scored_without_being_called_edited(tmp_path: Path) -> None:
    """The check that a round's pairings come out of its seed again draws with the units and seeds its draw kept
    apart (as recorded), not with a plain lot: `score` of such a round is no "对阵表可能被改动过"."""
    folder = new_event(tmp_path / "event", field())
    cli("draw", folder, "--seed", 11)
    fill(folder, 1)
    out = cli("score", folder).output
    assert "可能被改动过" not in out and "晋级" in out


def test_over_99_pairs_the_meetings_of_paper_lots_name_pairs_three_digits_wide(tmp_path: Path) -> None:
    """A reserve numbered 100 makes the field's 组号 three digits wide on every paper (第001组); the terminal's
    list of paper lots' meetings said 第01组 (issue 34 item 4)."""
    folder = new_event(tmp_path / "event", [*field(), Team("100", ("甲100", "乙100"), reserve=True)])
    lots = tmp_path / "lots.csv"
    with lots.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([("组号", "签号"), *((f"{i:03d}", i) for i in range(1, 9))])
    out = cli("draw", folder, "--lots", lots).output
    assert "第1桌：第001组与第002组同为“化学系”" in out and "第3桌：第005组与第006组同为“物理系”" in out


def test_over_99_pairs_paper_lots_refused_name_pairs_three_digits_wide(tmp_path: Path) -> None:
    """The refusal of paper lots names the pairs as the slips and papers print them (第008组 in a field over 99)."""
    folder = new_event(tmp_path / "event", [*field(), Team("100", ("甲100", "乙100"), reserve=True)])
    lots = tmp_path / "lots.csv"
    with lots.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([("组号", "签号"), *((f"{i:03d}", min(i, 6)) for i in range(1, 8))])
    out = cli("draw", folder, "--lots", lots, code=1).output
    assert "第008组没有签号" in out and "签号 6 重复：第006组、第007组" in out
