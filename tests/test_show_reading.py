"""The TV's reading of the folder (shuangsheng/usecases/show.py): after phone entries only the tables whose entries
changed are scored again, and the board is the one a whole reading gives; anything else event.db records since
(a scoring) means a whole reading."""

from __future__ import annotations

import random
from dataclasses import replace

from shuangsheng.game.simulate import simulate_match
from shuangsheng.hall import board
from shuangsheng.hall.board import BoardSource
from shuangsheng.usecases.score import score
from shuangsheng.usecases.show import read_folder, with_new_entries
from tests.events import new_event
from tests.helpers import cli
from tests.test_sources import by_phone


def drawn(tmp_path):
    folder = new_event(tmp_path / "e", 8)
    cli("draw", folder, "--seed", 5)
    return folder


def same_board(a, b) -> bool:
    return replace(a, updated="") == replace(b, updated="")


def test_after_a_phone_entry_only_its_table_is_scored_again_and_the_board_is_a_whole_readings(tmp_path):
    folder = drawn(tmp_path)
    before = read_folder(folder)
    by_phone(folder, 1, 2, simulate_match(random.Random(3))[0])
    after = with_new_entries(before, folder)
    assert after is not None
    old, new = before.scores[-1].matches, after.scores[-1].matches
    assert [n is o for o, n in zip(old, new, strict=True)] == [m.record.table != 2 for m in old]
    assert new[1].record.hands > 0 and new[1].record.source.value == "phone"
    assert same_board(after.board, read_folder(folder).board)
    assert with_new_entries(after, folder) is after  # nothing new since


def test_a_scoring_since_means_a_whole_reading(tmp_path):
    folder = drawn(tmp_path)
    by_phone(folder, 1, 1, simulate_match(random.Random(7))[0])
    before = read_folder(folder)
    score(folder, 1)  # records the round's outcomes in event.db
    assert with_new_entries(before, folder) is None


def test_the_tv_reads_the_whole_folder_only_when_more_than_entries_changed(tmp_path, monkeypatch):
    folder = drawn(tmp_path)
    whole = []
    monkeypatch.setattr(board, "read_folder", lambda f, **kw: whole.append(f) or read_folder(f, **kw))
    source = BoardSource(folder, log=lambda line: None, settle=0.0)
    source.current()
    by_phone(folder, 1, 1, simulate_match(random.Random(4))[0])
    source.current()
    assert len(whole) == 1
    assert same_board(source.board(), read_folder(folder).board)
    score(folder, 1)
    source.current()
    assert len(whole) == 2


def test_a_round_scored_under_other_rules_is_read_whole_after_an_entry(tmp_path):
    """Whether [rules] changed since `score` are held for the round turns on all its tables: a whole reading."""
    from shuangsheng.storage.names import EVENT_FILE

    folder = drawn(tmp_path)
    by_phone(folder, 1, 1, simulate_match(random.Random(7))[0])
    score(folder, 1)
    toml = folder / EVENT_FILE
    text = toml.read_text(encoding="utf-8")
    assert 'dealer_table = "ceil"' in text
    toml.write_text(text.replace('dealer_table = "ceil"', 'dealer_table = "floor"'), encoding="utf-8")
    before = read_folder(folder)
    by_phone(folder, 1, 3, simulate_match(random.Random(6), rules=before.state.rules_for(1))[0])
    assert with_new_entries(before, folder) is None
