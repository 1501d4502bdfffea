"""One record per table (shuangsheng/table/record.py): built once by `score_match` from all of a table's sources,
and every reader showing exactly the record it is given.

The builder's tests run one round of 25 teams (9 tables) with a table of each source combination; the renderers' tests hand
each reader a record built by hand (a record no source could produce, where it helps), so that a reader deciding
anything itself — status, winner, levels, whether a result is final — would show something else."""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import replace

import pytest

from shuangsheng.game.hands import MatchRecord
from shuangsheng.game.levels import Level, Levels, Side
from shuangsheng.game.simulate import simulate_match
from shuangsheng.knockout.knockout import Pairing
from shuangsheng.render.venue import PLAYING, round_view, status_text
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_path
from shuangsheng.table import desk
from shuangsheng.table.log import Seat, TableSetup
from shuangsheng.table.record import Playoff, Source, TableRecord
from shuangsheng.table.state import table_state
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.score import score
from shuangsheng.usecases.scoring import blank_match, score_as_json
from shuangsheng.vocabulary.errors import Issue
from tests.events import WRONG, new_event
from tests.helpers import cli
from tests.test_sources import by_phone, put_final


def _winning(seed: int) -> MatchRecord:
    return simulate_match(random.Random(seed))[0]


@pytest.fixture(scope="module")
def round_of_every_source(tmp_path_factory) -> dict[str, TableRecord]:
    """Round 1, one table per case: name → its record as `score` built it."""
    folder = new_event(tmp_path_factory.mktemp("record") / "e", 25)
    cli("draw", folder, "--seed", 3)
    paper, both, differ = _winning(1), _winning(2), _winning(3)
    moved = replace(differ, hands=(replace(differ.hands[0], points=differ.hands[0].points + 5), *differ.hands[1:]))
    playing = MatchRecord(_winning(4).hands[:2])
    workbook.fill_round(round_path(folder, 1), {1: paper, 3: both, 4: moved, 7: WRONG}, walkovers={5: Side.B})
    by_phone(folder, 1, 2, _winning(5))
    by_phone(folder, 1, 3, both)
    by_phone(folder, 1, 4, differ)
    by_phone(folder, 1, 9, playing, over=False)
    put_final(folder, 1, 6, "K", "9", "记分卡遗失")
    matches = {m.record.table: m.record for m in score(folder, 1).score.matches}
    names = ("paper", "phone", "both", "differ", "walkover", "final_only", "invalid", "open", "playing")
    return {name: matches[table] for table, name in enumerate(names, start=1)}


def test_paper_only(round_of_every_source):
    r = round_of_every_source["paper"]
    assert (r.source, r.status in (TableStatus.DECIDED, TableStatus.PASSED_A), r.problems) == (Source.PAPER, True, ())
    assert r.winner in (r.a, r.b) and r.levels is not None and r.hands > 0 and not r.confirmed and r.settled


def test_phone_only(round_of_every_source):
    r = round_of_every_source["phone"]
    assert (r.source, r.status.has_winner, r.confirmed, r.problems) == (Source.PHONE, True, False, ())
    assert r.in_play and not r.final(scored=True)  # over, not yet confirmed by both teams: 进行中 for the hall
    assert replace(r, confirmed=True).final(scored=False)  # confirmed: final without `score`


def test_paper_and_phone_agreeing(round_of_every_source):
    r = round_of_every_source["both"]
    assert (r.source, r.status.has_winner, r.confirmed, r.problems) == (Source.BOTH, True, False, ())
    assert not r.in_play and r.final(scored=True) and not r.final(scored=False)
    assert not r.settled and replace(r, confirmed=True).settled  # the desk waits for both teams' confirmation


def test_paper_and_phone_disagreeing(round_of_every_source):
    r = round_of_every_source["differ"]
    assert (r.source, r.status, r.winner) == (Source.BOTH, TableStatus.INVALID, None)
    assert any("扫码录分第1局" in str(p) for p in r.problems) and r.reason.startswith(f"{len(r.problems)}处错误")


def test_walkover(round_of_every_source):
    r = round_of_every_source["walkover"]
    assert (r.status, r.forfeit, r.winner, r.levels, r.reason) == (TableStatus.WALKOVER, Side.B, r.a, None, "乙方弃权")


def test_final_only_card(round_of_every_source):
    r = round_of_every_source["final_only"]
    assert (r.source, r.status, r.unchecked, r.hands) == (Source.FINAL_ONLY, TableStatus.DECIDED, True, 0)
    assert (r.levels.a.label, r.levels.b.label, r.winner) == ("K", "9", r.a) and "记分卡遗失" in r.note


def test_invalid(round_of_every_source):
    r = round_of_every_source["invalid"]
    assert (r.source, r.status, r.winner) == (Source.PAPER, TableStatus.INVALID, None) and len(r.problems) == 1


def test_open(round_of_every_source):
    r = round_of_every_source["open"]
    assert (r.source, r.status, r.levels, r.winner, r.problems, r.reason) == (
        Source.PAPER, TableStatus.OPEN, None, None, (), "")
    assert not r.playing and not r.in_play


def test_a_phone_table_still_playing_is_open_with_its_levels(round_of_every_source):
    r = round_of_every_source["playing"]
    assert (r.source, r.status, r.hands, r.playing, r.in_play) == (Source.PHONE, TableStatus.OPEN, 2, True, True)
    assert r.levels is not None and r.reason.startswith("扫码录分进行中") and not r.final(scored=True)


def test_the_desk_builds_the_same_record_from_a_blank_sheet_and_the_phone():
    """The desk's reading before the workbook is read: the same builder, a blank sheet and no phone hand."""
    from shuangsheng.game.rules import RuleSet
    from shuangsheng.usecases.scoring import score_match

    pairing = Pairing(3, "05", "06")
    r = score_match(blank_match(pairing, 2), RuleSet(), None).record
    assert (r.table, r.a, r.b, r.status, r.source, r.levels) == (3, "05", "06", TableStatus.OPEN, Source.PAPER, None)
    assert desk.desk_state(r) == "not_started"


# --- every renderer shows the record it is given ---

# Decided by the record at 加赛 (two 加赛 hands) with levels and a winner no hand could give: a reader that
# replayed, recounted or re-decided anything would show something else.
HAND_BUILT = TableRecord(
    table=7, third_place=False, a="13", b="14", status=TableStatus.DECIDED, source=Source.BOTH,
    levels=Levels(Level.parse("Q"), Level.parse("4")), winner="14", hands=11, playoff_hands=2, tied_at_time=True,
    confirmed=True,
)
TIED_RECORD = replace(HAND_BUILT, status=TableStatus.NEEDS_PLAYOFF, winner=None, levels=Levels(Level.parse("9"), Level.parse("9")),
                      playoff=Playoff(Level.parse("9"), Side.B, 0), playoff_hands=0, source=Source.PAPER,
                      reason="双方同为9级，请在加赛行记录加赛局", confirmed=False)


def _results(*tables: TableRecord):
    from shuangsheng.knockout.teams import Team
    from shuangsheng.render.results import NextStep, RoundResults

    teams = {t: Team(t, (f"甲{t}", f"乙{t}")) for r in tables for t in (r.a, r.b)}
    return RoundResults(number=1, title="第1轮", final=False, tables=tables, byes=(), advancing=(), decided=False,
                        blockers=(), next_step=NextStep.PLAYOFF, teams=teams)


def test_the_tv_shows_the_record():
    view = round_view(_results(HAND_BUILT), _results(HAND_BUILT).teams).tables[0]
    assert (view.levels, view.winner, view.status, view.final, view.record) == (
        ("Q", "4"), "14", TableStatus.DECIDED, True, HAND_BUILT)
    not_final = round_view(_results(HAND_BUILT), _results(HAND_BUILT).teams, final=()).tables[0]
    assert (not_final.final, not_final.winner) == (True, "14")  # confirmed on the phones: final without `score`
    unconfirmed = replace(HAND_BUILT, confirmed=False)
    view = round_view(_results(unconfirmed), _results(unconfirmed).teams, final=()).tables[0]
    assert (view.final, view.winner, view.status_text) == (False, None, PLAYING)
    assert status_text(replace(HAND_BUILT, source=Source.PHONE, status=TableStatus.OPEN)) == PLAYING


def test_the_desk_shows_the_record():
    from shuangsheng.game.rules import RuleSet

    setup = TableSetup(1, 7, Seat("13", ("甲13", "乙13")), Seat("14", ("甲14", "乙14")), RuleSet())
    now = dt.datetime(2026, 12, 1, 14, 0, tzinfo=dt.UTC)
    table = desk.DeskTable(table_state(setup, ()), (), HAND_BUILT)  # no phone entry at all: only the record speaks
    data = desk.table_json(table, None, now)
    assert (data["state"], data["label"], data["hands"], data["levels"], data["winner"]) == (
        "confirmed", "已确认", 13, {"A": "Q", "B": "4"}, "B")
    assert desk.desk_json(desk.Round(1, "第1轮", False, (table,)), None, now)["counts"]["confirmed"] == 1
    tied = desk.table_json(desk.DeskTable(table_state(setup, ()), (), TIED_RECORD), None, now)
    assert (tied["state"], tied["label"], tied["winner"]) == ("needs_playoff", "需加赛", None)



def test_the_desk_s_next_is_the_draw_only_while_every_outcome_is_the_one_scored():
    from shuangsheng.game.rules import RuleSet

    setup = TableSetup(1, 7, Seat("13", ("甲13", "乙13")), Seat("14", ("甲14", "乙14")), RuleSet())
    table = desk.DeskTable(table_state(setup, ()), (), HAND_BUILT)
    outcome = (HAND_BUILT.status.value, HAND_BUILT.winner)
    step = desk.next_step(desk.Round(1, "第1轮", False, (table,)))
    assert step == desk.DeskNext(desk.NextAction.SCORE, 1, desk.NextAction.DRAW)
    assert desk.next_step(desk.Round(1, "第1轮", False, (table,), {7: outcome})) == desk.DeskNext(desk.NextAction.DRAW, 1)
    other = (outcome[0], "13" if outcome[1] != "13" else "14")  # scored with the other winner: score again
    assert desk.next_step(desk.Round(1, "第1轮", False, (table,), {7: other})) == step
    assert desk.next_step(desk.Round(1, "第1轮", True, (table,), {7: outcome})).action is desk.NextAction.AWARDS
    assert "shuangsheng" not in step.text and step.as_json()["text"] == step.text


def test_score_json_shows_the_record():
    from shuangsheng.render.reports import MatchScore, RoundScore

    class Sheet:  # what score_as_json reads of the round: its number and byes
        round = type("R", (), {"number": 1, "byes": (), "pool": ("13", "14"), "pairings": ()})()

    problem = Issue.of_cell("round-1.xlsx", "第7桌", None, "手写的错误")
    shown = replace(HAND_BUILT, problems=(problem,), note="未逐局核对（测试）")
    from shuangsheng.knockout.advance import Advancement

    doc = score_as_json(RoundScore(Sheet(), (MatchScore(match=None, result=None, record=shown),), Advancement(1, (), (), ())))
    assert doc["matches"][0] == {"table": 7, "A": "13", "B": "14", "levels": {"A": "Q", "B": "4"},
                                 "status": "decided", "winner": "14", "errors": [problem.as_json()], "source": "both",
                                 "note": "未逐局核对（测试）"}
    json.dumps(doc)


def test_the_results_pdf_and_picture_show_the_record(tmp_path):
    from shuangsheng.render.materials.picture import round_column
    from shuangsheng.render.materials.results import round_results_pdf
    from shuangsheng.storage import event
    from tests.pdfcheck import text_of

    folder = new_event(tmp_path / "e", 4)
    ev = event.load(folder)
    results = _results(HAND_BUILT, replace(TIED_RECORD, table=8, a="15", b="16"))
    text = text_of(round_results_pdf(ev, results, workbook="round-1.xlsx", invariant=True))
    assert "Q：4" in text.replace(" ", "") and "加赛2局" in text and "同为9级" in text
    column = round_column(ev, results)
    assert column is not None


def test_the_results_on_the_wall_name_a_wrong_cell_in_words_and_keep_the_result_column_whole(tmp_path):
    """第N轮成绩 of a part-scored round printed "round-1.xlsx 对阵!H10" (sheets for the wall carry no
    file paths) and set "未逐局核对（记分卡遗失）" and "记录有误（1处），见下表" on three lines each in a narrow
    结果 column, some centred and some from the left: the cell in words, two lines each, one alignment."""
    from shuangsheng.render.materials.results import round_results_pdf
    from shuangsheng.storage import event
    from shuangsheng.vocabulary.errors import Cell
    from tests.pdfcheck import line_texts, text_lines, text_of

    folder = new_event(tmp_path / "e", 4)
    ev = event.load(folder)
    lost = replace(HAND_BUILT, table=1, a="01", b="02", winner="02", source=Source.FINAL_ONLY, playoff_hands=0,
                   note="未逐局核对（记分卡遗失）")
    wrong = replace(HAND_BUILT, table=2, a="03", b="04", status=TableStatus.INVALID, winner=None,
                    problems=(Issue.of_cell("round-1.xlsx", "对阵", Cell(10, 8), "终局甲方级应为2–A"),))
    plain = replace(HAND_BUILT, table=3, a="05", b="06", winner="06", playoff_hands=0)
    data = round_results_pdf(ev, _results(lost, wrong, plain),
                             workbook="round-1.xlsx", invariant=True)
    text = text_of(data)
    assert "对阵表H10格" in text and "xlsx" not in text and "!" not in text
    lines = [line for page in line_texts(data) for line in page]
    assert "未逐局核对" in lines and "（记分卡遗失）" in lines  # two lines, not three
    assert "记录有误（1处），" in lines and "见下表" in lines
    cells = [run for page in text_lines(data) for run in page
             if "".join(c["text"] for c in run) in ("第02组胜", "见下表", "第06组胜")]
    assert len(cells) == 3 and len({round(run[0]["x0"]) for run in cells}) == 1  # one alignment in the column


def test_the_terminal_shows_the_record():
    from shuangsheng.render.report import _match_lines
    from shuangsheng.render.reports import MatchScore

    playing = replace(HAND_BUILT, status=TableStatus.OPEN, winner=None, reason="扫码录分进行中（手写的理由）")
    assert _match_lines(MatchScore(match=None, result=None, record=playing), {}, 2) == ["扫码录分进行中（手写的理由）"]
    forfeit = replace(HAND_BUILT, status=TableStatus.WALKOVER, winner="13", reason="乙方弃权（手写）")
    assert _match_lines(MatchScore(match=None, result=None, record=forfeit), {}, 2)[0].startswith("乙方弃权（手写），")
    problem = Issue.of_cell("round-1.xlsx", "第7桌", None, "手写的错误")
    wrong = replace(HAND_BUILT, status=TableStatus.INVALID, winner=None, problems=(problem, problem))
    assert _match_lines(MatchScore(match=None, result=None, record=wrong), {}, 2)[0] == "记录有误（2处），请改正："


@pytest.mark.parametrize(("step", "text"), [
    (desk.DeskNext(desk.NextAction.SCORE, 2, desk.NextAction.DRAW),
     "第2轮各桌结果都已确认：运行 shuangsheng score 比赛 --round 2 计分（扫码录分的各局写入检查副本），然后运行 shuangsheng draw 比赛 抽下一轮"),
    (desk.DeskNext(desk.NextAction.SCORE, 4, desk.NextAction.AWARDS),
     "第4轮各桌结果都已确认：运行 shuangsheng score 比赛 --round 4 计分（扫码录分的各局写入检查副本），然后运行 shuangsheng awards 比赛 查看最终名次"),
    (desk.DeskNext(desk.NextAction.DRAW, 2), "第2轮已经计分：运行 shuangsheng draw 比赛 抽下一轮"),
    (desk.DeskNext(desk.NextAction.AWARDS, 4), "决赛（第4轮）已经计分：运行 shuangsheng awards 比赛 查看最终名次，打印成绩公告和荣誉证书"),
])
def test_the_terminal_says_the_desk_s_next_as_the_commands_that_do_it(step, text):
    from pathlib import Path

    from shuangsheng.render.report import desk_next_text

    assert desk_next_text(step, Path("比赛")) == text
