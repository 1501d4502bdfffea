"""shuangsheng.table.status: one status per table, from the engine's result and the workbook's walkover / errors / nothing recorded."""

from __future__ import annotations

import json

import pytest

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import Side
from shuangsheng.game.match import Status, replay
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_path
from shuangsheng.table.status import TableStatus, table_status
from tests.events import new_event
from tests.helpers import cli, tied_hands

PASSES_A = tuple(Hand(Side.A, 0) for _ in range(5))  # 甲方 holds the deal 2 → 6 → 10 → J → A, then passes A
ONE_HAND = (Hand(Side.A, 0),)  # 甲方 6, 乙方 2 when time is up
AFTER_THE_END = (*PASSES_A, Hand(Side.A, 0))  # a hand after 甲方 passed A: an engine error


@pytest.mark.parametrize(
    ("hands", "engine", "table"),
    [
        (PASSES_A, Status.PASSED_A, TableStatus.PASSED_A),
        (ONE_HAND, Status.DECIDED, TableStatus.DECIDED),
        (tied_hands(), Status.NEEDS_PLAYOFF, TableStatus.NEEDS_PLAYOFF),
        (AFTER_THE_END, None, TableStatus.INVALID),
        ((), None, TableStatus.OPEN),
    ],
)
def test_a_played_table_stands_as_the_engine_says(hands, engine, table):
    result = replay(MatchRecord(hands))
    assert result.status is engine
    assert table_status(result) is table
    assert table_status(None) is TableStatus.OPEN


def test_a_walkover_stands_over_the_hands_and_errors_over_the_engine():
    won = replay(MatchRecord(PASSES_A))
    assert table_status(won, walkover=True, errors=True) is TableStatus.WALKOVER
    assert table_status(None, walkover=True) is TableStatus.WALKOVER
    assert table_status(won, errors=True) is TableStatus.INVALID
    assert table_status(None, errors=True) is TableStatus.INVALID


def test_a_side_goes_on_only_from_a_decided_table_or_a_walkover():
    going_on = {s for s in TableStatus if s.has_winner}
    assert going_on == {TableStatus.DECIDED, TableStatus.PASSED_A, TableStatus.WALKOVER}


def test_score_json_gives_each_table_the_status_replay_gives_its_hands(tmp_path):
    """Every kind of table in one round, through the CLI: a played table's status in `score --json` is the one
    `replay --json` gives the same hands; a walkover, a mistake and an empty sheet add theirs; who goes on so far
    is the winners by table."""
    folder = new_event(tmp_path / "event", 16)
    cli("draw", folder, "--seed", 3)
    played = {1: PASSES_A, 2: ONE_HAND, 3: tied_hands(), 5: AFTER_THE_END}
    path = round_path(folder, 1)
    workbook.fill_round(path, {t: MatchRecord(h) for t, h in played.items()}, walkovers={4: Side.A})
    doc = json.loads(cli("score", folder, "--json", code=1).output)
    status = {m["table"]: m["status"] for m in doc["matches"]}
    assert status == {1: "passed_a", 2: "decided", 3: "needs_playoff", 4: "walkover", 5: "invalid",
                      6: "open", 7: "open", 8: "open"}
    for table in (1, 2, 3):
        record = tmp_path / f"table-{table}.json"
        hands = [{"dealer": h.dealer.value, "points": h.points} for h in played[table]]
        record.write_text(json.dumps({"hands": hands}), encoding="utf-8")
        assert json.loads(cli("replay", record, "--json").output)["status"] == status[table]
    by_table = {m["table"]: m for m in doc["matches"]}
    assert doc["advancing"] == [by_table[1]["A"], by_table[2]["A"], by_table[4]["B"]] and doc["byes"] == []
    assert [b.split("：")[0] for b in doc["blockers"]] == ["第3桌", "第5桌", "第6桌", "第7桌", "第8桌"]
