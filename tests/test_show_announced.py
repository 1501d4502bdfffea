"""The venue display shows a table's result as final only as `score` recorded it while the sheet is unchanged
(docs/README.md, 场地大屏): a half-typed workbook saved but never scored shows 进行中, `score` makes it final, editing the sheet
again takes it back to 进行中. Through `show --export`, the same views the live page serves."""

from __future__ import annotations

import re
from pathlib import Path

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import Side
from shuangsheng.game.simulate import simulate_match
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_path
from shuangsheng.usecases.score import score
from tests.events import draw, start_event
from tests.helpers import cli

AHEAD = MatchRecord((Hand(Side.B, 0), Hand(Side.B, 0)))  # two hands typed: 乙方 far ahead, the match not over


def exported(folder: Path, tmp_path: Path, name: str) -> str:
    out = tmp_path / f"{name}.html"
    cli("show", folder, "--export", out)
    return out.read_text(encoding="utf-8")


def result_row(html: str, table: int) -> str:
    rows = re.findall(r'<div class="item result [^"]*">.*?</div>', html, flags=re.S)
    row = next(r for r in rows if f">{table}桌<" in r)
    return re.sub(r"<[^>]+>", " ", row)


def test_a_result_is_final_only_as_scored_and_while_the_sheet_is_unchanged(tmp_path):
    folder = tmp_path / "event"
    rng = start_event(folder, teams=4)
    draw(folder, rng)
    path = round_path(folder, 1)
    record, _ = simulate_match(rng)
    workbook.fill_round(path, {1: record, 2: AHEAD})  # saved by the referee, never scored
    before = exported(folder, tmp_path, "unscored")
    for table in (1, 2):
        row = result_row(before, table)
        assert "进行中" in row and "晋级" not in row and "获胜" not in row, row

    report = score(folder, 1)  # `score` reads the sheets and records each table in event.db
    winner = next(m.outcome.winner for m in report.score.matches if m.match.table == 1)
    scored = exported(folder, tmp_path, "scored")
    row = result_row(scored, 1)
    assert re.search(rf"✓\s*第{winner}组", row) and re.search(r"晋级 →|← 晋级", row), row  # the arrow points at the winner

    workbook.fill_round(path, {1: AHEAD})  # table 1's sheet edited after `score` (its first hands typed over)
    edited = exported(folder, tmp_path, "edited")
    row = result_row(edited, 1)
    assert "进行中" in row and "晋级" not in row, row


def test_a_walkover_says_which_team_in_the_halls_words(tmp_path):
    folder = tmp_path / "event"
    rng = start_event(folder, teams=4)
    drawn = draw(folder, rng)
    pairing = next(p for p in drawn.round.pairings if p.table == 1)
    workbook.fill_round(round_path(folder, 1), {}, walkovers={1: Side.B})
    score(folder, 1)
    row = result_row(exported(folder, tmp_path, "walkover"), 1)
    assert re.search(rf"第{pairing.b}组\s.*弃权", row, flags=re.S) and "乙方" not in row, row
