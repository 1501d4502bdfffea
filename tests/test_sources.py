"""Every command reads all sources of a table (shuangsheng/table/sources.py): the paper sheet, the phone entries in event.db
and the 对阵 sheet's 终局 cells (a lost card) — score, draw, bracket and awards, through the CLI."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import Side
from shuangsheng.game.match import replay, result_as_json
from shuangsheng.game.simulate import simulate_match
from shuangsheng.render.venue import build_board
from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import round_path
from shuangsheng.storage.workbook.loading import read_file, read_grids
from shuangsheng.storage.workbook.schema import FIRST_HAND_ROW, MATCHES_HEADER, MATCHES_HEADER_ROW, MATCHES_SHEET
from shuangsheng.table.entry import add_hand, confirm, end
from shuangsheng.table.log import Seat, Stamp, TableSetup, hand_as_json
from shuangsheng.table.sources import Difference
from shuangsheng.usecases.awards import bracket
from shuangsheng.usecases.folder import open_folder
from shuangsheng.usecases.score import score
from shuangsheng.vocabulary.errors import Place
from shuangsheng.vocabulary.places import Cell
from tests.events import new_event
from tests.helpers import cli, on
from tests.pdfcheck import text_of

STAMPS = itertools.count(1)


def drawn(tmp_path: Path, teams: int = 4, name: str = "e") -> Path:
    folder = new_event(tmp_path / name, teams)
    cli("draw", folder, "--seed", 11)
    return folder


def record(seed: int) -> MatchRecord:
    """A simulated match that ends with a winner (passed A, decided at time, or after 加赛)."""
    return simulate_match(random.Random(seed))[0]


def by_phone(folder: Path, number: int, table: int, match: MatchRecord, *, over: bool = True) -> None:
    """Enter a match as the table's phone does, through the same decisions and ledger calls as `serve`: the regular
    hands, 结束 (time is up), then the 加赛 hands."""
    rules = open_folder(folder).rules_for(number)
    with Ledger.open(folder) as book:
        draw = book.draws()[number]
        pairing = next(p for p in draw.round.pairings if p.table == table)
        setup = TableSetup(number, table, Seat(pairing.a, ()), Seat(pairing.b, ()), rules)

        def stamp() -> Stamp:
            return Stamp(f"s{next(STAMPS)}", "2026-12-01T14:05:00+08:00", "192.168.1.23")

        def hand(n: int, h: Hand) -> None:
            body = {k: v for k, v in hand_as_json(h).items() if k != "playoff"} | {"hand": n, "id": f"p{next(STAMPS)}"}
            decision = book.decide_entry(draw.id, table, lambda entries: add_hand(setup, entries, on(entries, body), stamp=stamp()))
            assert decision.http_status == 201, decision.as_json()

        regular = [h for h in match.hands if not h.playoff]
        for n, h in enumerate(regular, start=1):
            hand(n, h)
        if not over:
            return
        assert book.decide_entry(draw.id, table, lambda entries: end(setup, entries, on(entries, {}), stamp=stamp())).http_status in (200, 201)
        for n, h in enumerate((h for h in match.hands if h.playoff), start=len(regular) + 1):
            hand(n, h)


def on_paper(folder: Path, number: int, records: dict[int, MatchRecord]) -> None:
    workbook.fill_round(round_path(folder, number), records)


def put_final(folder: Path, number: int, table: int, a: object, b: object, reason: object) -> None:
    """Write the 终局 cells of a table's row on the 对阵 sheet, as the desk would for a lost card."""
    path = round_path(folder, number)
    wb = openpyxl.load_workbook(path)
    ws = wb[MATCHES_SHEET]
    row = next(r for r in range(MATCHES_HEADER_ROW + 1, ws.max_row + 1) if ws.cell(r, 1).value == table)
    for label, value in zip(MATCHES_HEADER[-3:], (a, b, reason), strict=True):
        ws.cell(row, MATCHES_HEADER.index(label) + 1).value = value
    wb.save(path)


def score_json(folder: Path, code: int = 0) -> dict:
    return json.loads(cli("score", folder, "--json", code=code).stdout)


def match_of(doc: dict, table: int) -> dict:
    return next(m for m in doc["matches"] if m["table"] == table)


def at(error: dict) -> str:
    """An error object's place in the workbook: '对阵!H9'."""
    assert error["file"] == "round-1.xlsx", error
    return f"{error['sheet']}!{error['cell']}"


# --- the lost card: 终局 cells ---


def test_a_lost_card_is_decided_by_its_final_levels_and_marked_unchecked(tmp_path):
    folder = drawn(tmp_path)
    put_final(folder, 1, 1, "7", "J", "记分卡遗失")
    on_paper(folder, 1, {2: record(3)})
    doc = score_json(folder)
    lost, typed = match_of(doc, 1), match_of(doc, 2)
    assert lost["source"] == "final_only" and typed["source"] == "paper"
    assert lost["levels"] == {"A": "7", "B": "J"} and lost["status"] == "decided" and lost["errors"] == []
    assert lost["winner"] == lost["B"] and "未逐局核对" in lost["note"] and "记分卡遗失" in lost["note"]
    assert lost["winner"] in doc["advancing"]
    text = cli("score", folder).stdout
    assert "未逐局核对（记分卡遗失）" in text
    cli("draw", folder, "--seed", 5)
    assert lost["winner"] in open_folder(folder).rounds[1].round.pool


def test_final_cells_are_checked_cell_by_cell(tmp_path):
    folder = drawn(tmp_path)
    on_paper(folder, 1, {2: record(3)})
    put_final(folder, 1, 1, "7", "7", "记分卡遗失")
    errors = match_of(score_json(folder, code=1), 1)["errors"]
    assert len(errors) == 1 and at(errors[0]) == "对阵!H9" and "同为7级" in errors[0]["message"]
    put_final(folder, 1, 1, "7", "Z", None)
    errors = match_of(score_json(folder, code=1), 1)["errors"]
    assert [at(e) for e in errors] == ["对阵!I9", "对阵!J9"] and "“Z”" in errors[0]["message"]
    cli("draw", folder, "--seed", 5, code=1)


def test_final_cells_beside_typed_hands_or_phone_hands_are_one_record_too_many(tmp_path):
    folder = drawn(tmp_path)
    on_paper(folder, 1, {1: record(2), 2: record(3)})
    put_final(folder, 1, 1, "A", "2", "记分卡字迹不清")
    errors = match_of(score_json(folder, code=1), 1)["errors"]
    assert len(errors) == 1 and at(errors[0]) == "对阵!H9" and "又填了终局" in errors[0]["message"]

    folder = drawn(tmp_path, name="phone")
    on_paper(folder, 1, {2: record(3)})
    by_phone(folder, 1, 1, record(2))
    put_final(folder, 1, 1, "A", "2", "记分卡遗失")
    errors = match_of(score_json(folder, code=1), 1)["errors"]
    assert len(errors) == 1 and at(errors[0]) == "对阵!H9" and "扫码录分" in errors[0]["message"]


# --- phone entries ---


def test_a_round_entered_by_phone_is_scored_and_carried_into_the_next_draw_without_typing(tmp_path):
    folder = drawn(tmp_path)
    for table, seed in ((1, 2), (2, 3)):
        by_phone(folder, 1, table, record(seed))
    doc = score_json(folder)
    assert [(m["source"], m["status"] in ("decided", "passed_a"), m["errors"]) for m in doc["matches"]] == [
        ("phone", True, []), ("phone", True, [])]
    assert sorted(doc["advancing"]) == sorted(m["winner"] for m in doc["matches"])
    # the checked copy holds the phone's hands on the table's sheet: the whole record
    grids = read_grids(read_file(folder / "round-1-checked.xlsx"), "round-1-checked.xlsx")
    first = record(2).hands[0]
    assert grids["第1桌"].get(FIRST_HAND_ROW, 2) == first.dealer.cn
    assert grids["第1桌"].get(FIRST_HAND_ROW, 4) == first.points
    cli("draw", folder, "--seed", 5)
    final = open_folder(folder).rounds[1].round
    assert sorted(final.pool) == sorted(doc["advancing"])
    for p in final.pairings:
        by_phone(folder, 2, p.table, record(10 + p.table))
    assert {m["source"] for m in score_json(folder)["matches"]} == {"phone"}
    awarded = json.loads(cli("awards", folder, "--json").stdout)
    assert awarded["complete"] is True and awarded["first"] in final.pool
    cli("bracket", folder)


def test_a_phone_table_still_playing_is_open_with_its_current_levels(tmp_path):
    folder = drawn(tmp_path)
    playing = MatchRecord((Hand(Side.A, 0), Hand(Side.A, 20)))
    by_phone(folder, 1, 1, playing, over=False)
    doc = score_json(folder)
    m = match_of(doc, 1)
    assert m["source"] == "phone" and m["status"] == "open" and m["winner"] is None and m["errors"] == []
    assert m["levels"] == replay(playing, open_folder(folder).rules).levels.as_json() != {"A": "2", "B": "2"}
    assert any("第1桌：尚未录入（扫码录分进行中，甲方" in b for b in doc["blockers"])
    assert "    扫码录分进行中，甲方" in cli("score", folder).stdout
    cli("draw", folder, "--seed", 5, code=1)
    assert "进行中（扫码录分）" in text_of((folder / "第1轮成绩.pdf").read_bytes()).replace("\n", "")


def test_a_phone_table_tied_at_time_needs_playoff(tmp_path):
    folder = drawn(tmp_path)
    by_phone(folder, 1, 1, MatchRecord((Hand(Side.A, 80),)))  # the deal changes hands, nobody rises: tied
    m = match_of(score_json(folder), 1)
    assert (m["source"], m["status"], m["levels"]) == ("phone", "needs_playoff", {"A": "2", "B": "2"})


def test_a_match_entered_by_phone_equals_the_same_match_typed_on_paper(tmp_path):
    match = record(2)
    paper, phone = drawn(tmp_path, name="paper"), drawn(tmp_path, name="phone")
    on_paper(paper, 1, {1: match})
    by_phone(phone, 1, 1, match)
    a, b = (match_of(score_json(f), 1) for f in (paper, phone))
    assert (a["source"], b["source"]) == ("paper", "phone")
    assert {k: v for k, v in a.items() if k != "source"} == {k: v for k, v in b.items() if k != "source"}
    scored = [score(f, 1).score.matches[0].result for f in (paper, phone)]
    assert result_as_json(scored[0]) == result_as_json(scored[1])  # levels, winner and every explanation


def test_paper_and_phone_agreeing_are_both(tmp_path):
    folder = drawn(tmp_path)
    on_paper(folder, 1, {1: record(2), 2: record(3)})
    by_phone(folder, 1, 1, record(2))
    doc = score_json(folder)
    assert match_of(doc, 1)["source"] == "both" and match_of(doc, 1)["errors"] == []
    assert match_of(doc, 2)["source"] == "paper"
    cli("draw", folder, "--seed", 5)


def test_paper_and_phone_differing_is_an_error_at_the_cell_naming_the_phone_hand(tmp_path):
    folder = drawn(tmp_path)
    match = record(2)
    hands = list(match.hands)
    changed = 5 if hands[2].points != 5 else 10
    hands[2] = Hand(hands[2].dealer, changed, *[getattr(hands[2], f) for f in ("bottom",)])
    on_paper(folder, 1, {1: MatchRecord(tuple(hands)), 2: record(3)})
    by_phone(folder, 1, 1, match)
    m = match_of(score_json(folder, code=1), 1)
    assert m["source"] == "both" and m["status"] == "invalid"
    assert m["errors"] == [{  # a Difference: at the sheet's cell, of the hand and field compared
        "message": f"台下得分记分表为“{changed}”，扫码录分第3局为“{match.hands[2].points}”，两者不一致",
        "file": "round-1.xlsx", "sheet": "第1桌", "cell": "D9", "hand": 3, "field": "points"}]
    cli("draw", folder, "--seed", 5, code=1)
    assert "第1轮第1桌：记录有误（1处错误：round-1.xlsx 第1桌!D9）" in cli("awards", folder).stdout


@pytest.mark.parametrize(("place", "paper", "phone", "text"), [
    (Place("round-1.xlsx", "第1桌", Cell(9, 4), 3, "points"), "85", "58",
     "round-1.xlsx 第1桌!D9：台下得分记分表为“85”，扫码录分第3局为“58”，两者不一致"),
    (Place("round-1.xlsx", "第2桌", Cell(12, 1), 6, None), None, "庄家甲方，台下得分40",
     "round-1.xlsx 第2桌!A12：扫码录分有第6局（庄家甲方，台下得分40），记分表没有这一局；请核对记分卡，补上这一局或在扫码录分里撤销"),
    (Place("round-1.xlsx", "第2桌", Cell(11, 1), 5, None), "庄家乙方，台下得分80", None,
     "round-1.xlsx 第2桌!A11：记分表第5局在扫码录分里没有；请核对记分卡"),
])
def test_a_difference_renders_as_the_sentence_it_always_was_and_goes_out_as_the_error_object(place, paper, phone, text):
    difference = Difference(place, paper=paper, phone=phone)
    assert str(difference) == text  # the terminal, the checked copy, the results PDF: as before the record
    assert difference.where + "：" + difference.message == text and difference.in_hand == difference.message
    assert difference.as_json() == {"message": text.split("：", 1)[1], "file": place.file, "sheet": place.sheet,
                                    "cell": str(place.cell), "hand": place.hand, "field": place.field}
    assert difference.placed(file="x.xlsx").message == difference.message  # still a Difference, worded alike


def test_a_hand_the_paper_sheet_lacks_is_a_difference_at_the_row_after_naming_the_phones_hand(tmp_path):
    folder = drawn(tmp_path)
    match = record(2)
    regular = [h for h in match.hands if not h.playoff]
    on_paper(folder, 1, {1: MatchRecord(tuple(regular[:-1])), 2: record(3)})
    by_phone(folder, 1, 1, MatchRecord(tuple(regular)))
    m = match_of(score_json(folder, code=1), 1)
    n, last = len(regular), regular[-1]
    difference = next(e for e in m["errors"] if e["hand"] == n and e["field"] is None)
    assert difference == {"message": f"扫码录分有第{n}局（庄家{last.dealer.team}，台下得分{last.points}），记分表没有这一局；"
                                     "请核对记分卡，补上这一局或在扫码录分里撤销",
                          "file": "round-1.xlsx", "sheet": "第1桌", "cell": f"A{FIRST_HAND_ROW + n - 1}", "hand": n,
                          "field": None}
    assert f"round-1.xlsx 第1桌!A{FIRST_HAND_ROW + n - 1}：{difference['message']}" in cli("score", folder, code=1).stdout


def test_a_lost_card_is_marked_unchecked_on_the_checked_copy_results_tv_bracket_and_announcement(tmp_path):
    folder = drawn(tmp_path)
    put_final(folder, 1, 1, "7", "J", "记分卡遗失")
    on_paper(folder, 1, {2: record(3)})
    cli("score", folder)
    mark = "未逐局核对"
    checked = read_grids(read_file(folder / "round-1-checked.xlsx"), "round-1-checked.xlsx")
    summary = [v for v in checked["检查结果"].cells.values() if isinstance(v, str) and mark in v]
    assert summary and "记分卡遗失" in summary[0] and "J" in str(checked["检查结果"].cells)
    assert f"{mark}（记分卡遗失）" in text_of((folder / "第1轮成绩.pdf").read_bytes()).replace("\n", "")
    chart, state = bracket(folder)
    board = build_board(chart, state.scores())
    lost = next(t for t in board.results.tables if t.table == 1)
    assert lost.unchecked and lost.status_text == mark and lost.levels == ("7", "J") and lost.winner == lost.b.id
    cli("draw", folder, "--seed", 5)
    on_paper(folder, 2, {p.table: record(20 + p.table) for p in open_folder(folder).rounds[1].round.pairings})
    cli("score", folder)
    chart, state = bracket(folder)
    node = next(n for n in build_board(chart, state.scores()).bracket.nodes if n.table == 1 and n.column == 0)
    assert node.flag == mark and not any(mark in note for note in node.notes)  # a row of its node, not a level
    cli("awards", folder)
    for pdf in ("晋级图.pdf", "成绩公告.pdf"):
        assert mark in text_of((folder / pdf).read_bytes()).replace("\n", ""), pdf


def test_the_tv_shows_a_phone_table_as_final_only_once_both_teams_confirmed(tmp_path):
    folder = drawn(tmp_path)
    by_phone(folder, 1, 1, record(2))

    def tv_table():
        chart, state = bracket(folder)
        return next(t for t in build_board(chart, state.scores()).results.tables if t.table == 1)

    shown = tv_table()
    assert shown.status_text == "进行中" and shown.winner is None and shown.levels is not None
    rules = open_folder(folder).rules
    with Ledger.open(folder) as book:
        draw = book.draws()[1]
        p = draw.round.pairings[0]
        setup = TableSetup(1, 1, Seat(p.a, ()), Seat(p.b, ()), rules)
        for side in ("A", "B"):
            stamp = Stamp(f"c{side}", "2026-12-01T15:05:00+08:00", "192.168.1.23")
            book.decide_entry(draw.id, 1, lambda entries, side=side, stamp=stamp: confirm(setup, entries, on(entries, {"side": side}),
                                                                                          stamp=stamp))
    shown = tv_table()
    assert shown.winner is not None and shown.status_text != "进行中"


def test_verify_still_compares_paper_and_now_the_final_cells_too(tmp_path):
    folder = drawn(tmp_path)
    put_final(folder, 1, 1, "7", "J", "记分卡遗失")
    on_paper(folder, 1, {2: record(3)})
    by_phone(folder, 1, 2, record(3))  # a phone table beside paper does not disturb double entry
    other = tmp_path / "第二人录入.xlsx"
    other.write_bytes(round_path(folder, 1).read_bytes())
    doc = json.loads(cli("score", folder, "--verify", other, "--json").stdout)
    assert doc["verify"]["agree"] is True and match_of(doc, 2)["source"] == "both"
    wb = openpyxl.load_workbook(other)
    wb[MATCHES_SHEET].cell(MATCHES_HEADER_ROW + 1, MATCHES_HEADER.index("终局乙方级") + 1).value = "Q"
    wb.save(other)
    doc = json.loads(cli("score", folder, "--verify", other, "--json", code=1).stdout)
    assert doc["verify"]["differences"] == [{"where": "对阵!I9", "ours": "J", "theirs": "Q"}]


def _enter(case: str, folder: Path, table: int, match: MatchRecord) -> None:
    """Round 1's `table` given as `case` says."""
    if case in ("paper", "both", "differing"):
        hands = list(match.hands)
        if case == "differing":
            hands[0] = Hand(hands[0].dealer, 5 if hands[0].points != 5 else 10)
        on_paper(folder, 1, {table: MatchRecord(tuple(hands))})
    if case in ("phone", "both", "differing"):
        by_phone(folder, 1, table, match)
    if case == "final_only":
        put_final(folder, 1, table, "A", "3", "记分卡被茶水打湿")


@pytest.mark.parametrize("case", ["paper", "phone", "both", "final_only", "differing"])
def test_score_draw_bracket_and_awards_read_every_source(tmp_path, case):
    folder = drawn(tmp_path)
    _enter(case, folder, 1, record(2))
    on_paper(folder, 1, {2: record(3)})
    doc = score_json(folder, code=1 if case == "differing" else 0)
    m = match_of(doc, 1)
    assert m["source"] == ("both" if case == "differing" else case)
    if case == "differing":
        assert m["status"] == "invalid" and any(at(e) == "第1桌!D7" and "扫码录分第1局" in e["message"]
                                                for e in m["errors"])
        cli("draw", folder, "--seed", 5, code=1)
        cli("bracket", folder)
        assert json.loads(cli("awards", folder, "--json").stdout)["complete"] is False
        return
    assert m["errors"] == [] and m["winner"] in doc["advancing"]
    if case == "final_only":
        assert m["winner"] == m["A"] and m["levels"] == {"A": "A", "B": "3"}
    cli("draw", folder, "--seed", 5)
    final = open_folder(folder).rounds[1].round
    assert m["winner"] in final.pool
    on_paper(folder, 2, {p.table: record(30 + p.table) for p in final.pairings})
    cli("score", folder)
    cli("bracket", folder)
    awarded = json.loads(cli("awards", folder, "--json").stdout)
    assert awarded["complete"] is True and m["winner"] in (awarded["first"], awarded["second"])


# --- 以纸质为准: the desk gives a table's record to the paper over the phones' entries ---


def paper_rules_pressed(folder: Path, number: int, table: int, **body: object) -> None:
    """The desk's 以纸质为准 on a table (`shuangsheng.table.desk_actions.paper_rules`), stored as `serve` stores it."""
    from shuangsheng.table.desk_actions import paper_rules

    with Ledger.open(folder) as book:
        draw = book.draws()[number]
        pairing = next(p for p in draw.round.pairings if p.table == table)
        setup = TableSetup(number, table, Seat(pairing.a, ()), Seat(pairing.b, ()))
        stamp = Stamp(f"s{next(STAMPS)}", "2026-12-01T14:30:00+08:00", "127.0.0.1")
        decision = book.decide_entry(draw.id, table, lambda entries: paper_rules(
            setup, entries, {"reason": "以签字的计分卡为准", **body}, stamp=stamp))
        assert decision.http_status == 200, decision.as_json()


def test_paper_ruling_over_a_differing_phone_makes_the_sheet_the_record_and_keeps_the_phone_entries(tmp_path):
    folder = drawn(tmp_path)
    card, phone = record(2), record(7)
    on_paper(folder, 1, {1: card, 2: record(3)})
    by_phone(folder, 1, 1, phone)
    assert match_of(score_json(folder, code=1), 1)["source"] == "both"
    paper_rules_pressed(folder, 1, 1)
    m = match_of(score_json(folder), 1)
    assert (m["source"], m["errors"]) == ("paper", [])
    assert m["levels"] == result_as_json(replay(card))["levels"]
    assert m["paper_rules"] == {"reason": "以签字的计分卡为准", "time": "2026-12-01T14:30:00+08:00",
                                "phone_hands": len(phone.hands)}
    with Ledger.open(folder) as book:  # nothing deleted
        kept = book.table_entries(book.draws()[1].id, 1)
    assert sum(e.action.value == "hand" for e in kept) == len(phone.hands)
    paper_rules_pressed(folder, 1, 1, undo=True)  # the phones' record again: the differences are back
    m = match_of(score_json(folder, code=1), 1)
    assert m["source"] == "both" and m["errors"] and "paper_rules" not in m


def test_final_cells_beside_phone_hands_are_the_record_once_the_desk_rules_for_the_paper(tmp_path):
    folder = drawn(tmp_path)
    on_paper(folder, 1, {2: record(3)})
    by_phone(folder, 1, 1, record(2))
    put_final(folder, 1, 1, "A", "2", "记分卡遗失")
    refused = match_of(score_json(folder, code=1), 1)["errors"][0]["message"]
    assert "请清空终局，或者" in refused and "对这一桌按“以纸质为准”" in refused
    paper_rules_pressed(folder, 1, 1, reason="计分卡遗失，双方认可终局")  # what the refusal says
    m = match_of(score_json(folder), 1)
    assert (m["source"], m["errors"], m["levels"]) == ("final_only", [], {"A": "A", "B": "2"})
    assert m["paper_rules"]["reason"] == "计分卡遗失，双方认可终局" and m["winner"] == m["A"]
