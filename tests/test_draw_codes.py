"""Entry codes (录分码, docs/table-api.md) made by `draw`: one per table, recorded in event.db with the draw, printed on that
table's 计分卡; `draw --redo N` gives new codes to the tables it changes (their old ones stop working) and keeps
the others'; a draw completed after an interruption keeps the codes it was given."""

from __future__ import annotations

from pathlib import Path

from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.table.codes import format_code, parse_code
from shuangsheng.table.entry import add_hand
from shuangsheng.table.log import Stamp
from shuangsheng.usecases.draw import draw_next
from shuangsheng.usecases.folder import TournamentError, open_folder
from shuangsheng.usecases.score import score
from tests.events import fill, new_event, round_file, second_round_drawn, simulated
from tests.helpers import cli, on
from tests.pdfcheck import page_texts


def _codes(folder: Path, number: int) -> dict[int, str]:
    with Ledger.open(folder) as book:
        return book.codes(book.draws()[number].id)


def test_draw_gives_every_table_its_own_code_printed_on_its_score_card(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 8)
    cli("draw", folder, "--seed", 1)
    codes = _codes(folder, 1)
    assert sorted(codes) == [1, 2, 3, 4] and len(set(codes.values())) == 4
    assert all(parse_code(code) == code for code in codes.values())
    pages = page_texts((folder / "第1轮计分卡.pdf").read_bytes())[0::2]  # the fronts: the backs carry no code
    assert len(pages) == 5  # four tables, then the blank spare card
    for table, text in enumerate(pages[:4], start=1):
        assert f"第{table}桌" in text and f"录分码{format_code(codes[table])}" in text
        assert all(format_code(c) not in text for t, c in codes.items() if t != table)
    assert "录分码" not in pages[4]
    with Ledger.open(folder) as book:
        record, table = book.find_code(codes[3])
    assert (record.round.number, table) == (1, 3)


def test_a_new_round_never_repeats_a_code_of_the_event(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 8)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, records={t: simulated(t, folder) for t in (1, 2, 3, 4)})
    cli("score", folder)
    cli("draw", folder, "--seed", 2)
    first, second = _codes(folder, 1), _codes(folder, 2)
    assert sorted(second) == [1, 2] and not set(first.values()) & set(second.values())


def test_a_draw_completed_after_an_interruption_keeps_its_codes(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "event", 8)

    def stopped(report):
        raise TournamentError(["打印件被占用"])

    report = draw_next(folder, seed=1, papers=stopped)
    assert report.papers_problems and report.codes
    cli("draw", folder)  # completes the same draw
    assert _codes(folder, 1) == dict(report.codes)
    assert format_code(report.codes[1]) in page_texts((folder / "第1轮计分卡.pdf").read_bytes())[0]


def test_redo_gives_new_codes_to_the_tables_it_changes_and_keeps_the_others(tmp_path: Path) -> None:
    from dataclasses import replace

    from shuangsheng.game.hands import MatchRecord

    folder = second_round_drawn(tmp_path / "event")
    records = {t: simulated(t, folder) for t in (1, 2, 3, 4)}  # round 1 as second_round_drawn typed it
    before = _codes(folder, 2)
    round2 = workbook.read_round(round_file(folder, 2))
    with Ledger.open(folder) as book:  # a phone entered a hand at table 1 and at table 2
        draw_id = book.draws()[2].id
        for table in (1, 2):
            setup = tournament_setup(folder, 2, table)
            book.decide_entry(draw_id, table, lambda entries, setup=setup, table=table: add_hand(
                setup, entries, on(entries, {"hand": 1, "id": f"p{table}", "dealer": "A", "points": 40}),
                stamp=Stamp(f"p{table}", "2026-03-10T09:00:00+08:00", "127.0.0.1")))
    winners = {m.outcome.table: m.outcome.winner for m in score(folder, 1).score.matches}
    wrong = next(p for p in workbook.read_round(round_file(folder, 1)).round.pairings
                 if winners[p.table] in (round2.match(2).pairing.a, round2.match(2).pairing.b))
    mirrored = MatchRecord(tuple(replace(h, dealer=h.dealer.other) for h in records[wrong.table].hands))
    workbook.fill_round(round_file(folder, 1), {wrong.table: mirrored})
    cli("score", folder, "--round", 1)
    cli("draw", folder, "--redo", 2)
    after = _codes(folder, 2)
    assert after[1] == before[1] and after[2] != before[2]
    assert after[2] not in _all_codes_before(before, after)
    with Ledger.open(folder) as book:
        assert book.find_code(before[2]) is None  # the changed table's old code stops working
        record, table = book.find_code(before[1])
        assert table == 1 and record.id != draw_id  # the kept code opens the table of the corrected draw
        assert len(book.table_entries(record.id, 1)) == 1  # with the hand the phone entered
        assert book.table_entries(record.id, 2) == ()  # the changed table starts again
    pages = page_texts((folder / "第2轮计分卡.pdf").read_bytes())[0::2]
    assert format_code(after[1]) in pages[0] and format_code(after[2]) in pages[1]


def _all_codes_before(before: dict[int, str], after: dict[int, str]) -> set[str]:
    return set(before.values()) - {after[1]}


def tournament_setup(folder: Path, number: int, table: int):
    from shuangsheng.table.log import Seat, TableSetup

    state = open_folder(folder)
    pairing = state.rounds[number - 1].match(table).pairing
    teams = state.team_map
    return TableSetup(number, table, Seat(pairing.a, teams[pairing.a].players), Seat(pairing.b, teams[pairing.b].players),
                      state.rules)
