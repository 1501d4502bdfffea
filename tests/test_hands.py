"""shuangsheng.game.hands and shuangsheng.game.match.replay_record: the record file refused by size and depth before parsing, numbers
bounded, every problem listed in hand order; fuzzed through the command line (no exception, a location for every
error, the file unchanged)."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.game.hands import (
    MAX_CAPTURE,
    MAX_RECORD_BYTES,
    MAX_RECORD_DEPTH,
    Hand,
    HandError,
    RecordError,
    nesting_depth,
    read_record,
)
from shuangsheng.game.levels import Side
from shuangsheng.game.match import replay_record
from shuangsheng.vocabulary.errors import shown
from tests.helpers import run

runner = CliRunner()
A, B = Side.A, Side.B


def write(tmp_path, content: str | bytes, name: str = "match.json"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def refused(path) -> str:
    with pytest.raises(RecordError) as info:
        read_record(path)
    (error,) = info.value.errors
    return error.message


# --- the file, before JSON parses it ---


def test_a_file_larger_than_any_record_is_refused_before_reading(tmp_path):
    path = write(tmp_path, '{"hands": []}' + " " * MAX_RECORD_BYTES)
    assert "文件太大" in refused(path)


@pytest.mark.parametrize("opening", ["[", '{"a":', '{"hands": [{"x": ['])
def test_json_nested_deeper_than_a_record_is_refused_before_parsing(tmp_path, opening):
    text = opening * 20_000  # deep enough to exhaust json's recursion (about 1,000)
    assert f"嵌套超过 {MAX_RECORD_DEPTH} 层" in refused(write(tmp_path, text))


def test_brackets_inside_strings_do_not_count_as_nesting():
    assert nesting_depth('{"hands": [{"dealer": "[[[[[\\"{{{{"}]}') == 3
    assert nesting_depth('"\\\\" [[ ]]') == 2


def test_a_number_of_thousands_of_digits_names_its_hand_and_field(tmp_path):
    path = write(tmp_path, '{"hands": [{"dealer": "A", "points": 35}, {"dealer": "A", "points": ' + "9" * 5000 + "}]}")
    result = replay_record(read_record(path))
    assert [(e.hand, e.field) for e in result.errors] == [(2, "points")]
    assert result.errors[0].message == "第2局台下得分：数字太长（5000 位），应为不超过 15 位的整数"


@pytest.mark.parametrize("capture", [2**14280, 2**14, MAX_CAPTURE * 2])
def test_an_absurd_capture_multiplier_is_refused(capture):
    result = replay_record({"hands": [{"dealer": "A", "points": 50, "bottom": 25, "capture": capture}]})
    assert [(e.hand, e.field) for e in result.errors] == [(1, "capture")]
    assert f"两副牌最多 ×{MAX_CAPTURE}" in result.errors[0].message
    assert len(result.errors[0].message) < 120


def test_the_largest_capture_two_decks_allow_is_scored():
    result = run(("5", "5"), Hand(A, 0, 5, MAX_CAPTURE))
    assert result.ok and result.outcomes[0].points == 5 * MAX_CAPTURE == 40960


def test_shown_values_stay_short_and_never_fail():
    assert shown(2**14280) == "一个约 4300 位的数"
    assert len(shown("x" * 10_000)) == 40
    assert shown(85) == "85"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"PK\x03\x04rest", "这是 Excel 工作簿"),
        (b"\xd0\xcf\x11\xe0rest", "这是 Excel 工作簿"),
        (b"\xff\xfe\x00\xd8\x00\xdc", "编码无法识别"),
        (b'{"hands": [1, 2', "第1行第16列附近不是有效的 JSON"),
    ],
)
def test_files_that_are_not_records(tmp_path, content, expected):
    assert expected in refused(write(tmp_path, content))


def test_a_folder_or_a_missing_file(tmp_path):
    assert refused(tmp_path / "nope.json") == "找不到文件"


# --- every problem, in hand order ---


def test_value_and_sequence_errors_are_all_listed_in_hand_order():
    # hand 2: wrong dealer (A kept the deal); hand 4: impossible points; hand 5: impossible capture
    result = run(("2", "2"), Hand(A, 35), Hand(B, 40), Hand(A, 60), Hand(A, 83), Hand(A, 50, 10, 3))
    assert [(e.hand, e.field) for e in result.errors] == [(2, "dealer"), (4, "points"), (5, "capture")]
    assert [o.hand for o in result.outcomes] == [1]  # replayed up to the first bad hand


def test_a_hand_after_the_end_and_a_later_value_error_are_both_listed():
    # A plays A and keeps the deal: passes A in hand 1; hand 2 comes after the end; hand 3 has a bad points value
    result = run(("A", "5"), Hand(A, 30), Hand(A, 40), Hand(A, 7))
    assert [(e.hand, e.field) for e in result.errors] == [(2, None), (3, "points")]
    assert "此后不应再有记录" in result.errors[0].message


def test_a_value_error_before_a_sequence_error_stops_the_sequence_check_there():
    result = run(("2", "2"), Hand(A, 83), Hand(B, 40))
    assert [(e.hand, e.field) for e in result.errors] == [(1, "points")]


def test_a_record_with_unparsable_and_sequence_errors_lists_both_in_hand_order():
    data = {"hands": [
        {"dealer": "A", "points": 35},
        {"dealer": "B", "points": 40},  # wrong dealer
        {"dealer": "A", "points": "sixty"},  # not a number
        {"dealer": "A", "points": 83},  # impossible
        {"dealer": "A", "ponits": 5},  # unknown field
    ]}
    result = replay_record(data)
    assert [(e.hand, e.field) for e in result.errors] == [(2, "dealer"), (3, "points"), (4, "points"), (5, "ponits")]


def test_record_level_problems_come_first():
    result = replay_record({"start": {"A": "Z"}, "hands": [{"dealer": "A", "points": 83}], "x": 1})
    assert [e.hand for e in result.errors] == [None, None, 1]


def test_replay_command_prints_every_problem(tmp_path):
    path = write(tmp_path, json.dumps({"hands": [{"dealer": "A", "points": 35}, {"dealer": "B", "points": 40},
                                                 {"dealer": "A", "points": 7}]}))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    assert [(e["hand"], e["field"]) for e in json.loads(result.stdout)["errors"]] == [(2, "dealer"), (3, "points")]
    text = runner.invoke(app, ["replay", str(path)])
    assert text.exit_code == 1
    assert text.output.index("第2局庄家") < text.output.index("第3局台下得分")


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000, "嵌套超过"),
        ("long.json", '{"hands": [{"dealer": "A", "points": ' + "9" * 5000 + "}]}", "数字太长（5000 位）"),
        ("capture.json", json.dumps({"hands": [{"dealer": "A", "points": 50, "bottom": 25, "capture": 2**14280}]}),
         "抠底倍数：数字太长"),
    ],
)
def test_replay_command_refuses_hostile_records_without_a_traceback(tmp_path, name, content, expected):
    path = write(tmp_path, content, name)
    for args in (["replay", str(path)], ["replay", str(path), "--json"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output and "错误报告" not in result.output
        assert expected in result.output


# --- fuzzing the record JSON through the command line ---

FIELD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True), st.text(max_size=8),
    st.sampled_from(["A", "B", "甲", "5", "J", "dealer_revoke", 2**14280]),
    st.lists(st.integers(0, 5), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
HAND = st.dictionaries(
    st.sampled_from(["dealer", "points", "bottom", "capture", "level_card_capture", "dealer_wrong_cards",
                     "defender_wrong_cards", "offense", "playoff", "level", "pionts"]),
    FIELD_VALUES,
    max_size=6,
)
GOOD_HAND = st.builds(lambda d, p: {"dealer": d, "points": p}, st.sampled_from(["A", "B"]),
                      st.integers(0, 40).map(lambda n: n * 5))
RECORD = st.one_of(
    st.fixed_dictionaries(
        {"hands": st.lists(st.one_of(GOOD_HAND, HAND), max_size=8)},
        optional={"start": st.one_of(FIELD_VALUES, st.fixed_dictionaries({"A": FIELD_VALUES})),
                  "rules": st.one_of(FIELD_VALUES, st.fixed_dictionaries({"dealer_table": FIELD_VALUES}))},
    ),
    FIELD_VALUES,
)


def damaged(text: str, cut: int, junk: str) -> str:
    """Structural damage: the text cut somewhere, with junk inserted there."""
    where = cut % (len(text) + 1)
    return text[:where] + junk + text[where:]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=RECORD, cut=st.integers(0, 10_000), junk=st.sampled_from(["", "", "", "[", "}", ",", '"', "9" * 30]))
def test_fuzzed_records_never_escape(tmp_path, record, cut, junk):
    text = damaged(json.dumps(record, ensure_ascii=False), cut, junk)
    path = write(tmp_path, text)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    for args in (["replay", str(path)], ["replay", str(path), "--json"]):
        result = runner.invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1) and "错误报告" not in result.output
        if result.exit_code == 1 and "--json" in args:
            errors = json.loads(result.stdout)["errors"]
            assert errors and all(e["message"] for e in errors)
            hands = [e["hand"] for e in errors if e["hand"] is not None]
            assert hands == sorted(hands)  # in hand order
            for e in errors:  # the location is in the message: the hand, or the record's field or the file's line
                assert e["hand"] is None or e["message"].startswith(f"第{e['hand']}局")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_a_hand_error_is_worded_only_when_shown():
    error = HandError.of_hand(3, "points", "应为 0–200 之间 5 的倍数，实际为 7")
    assert error.message == "第3局台下得分：应为 0–200 之间 5 的倍数，实际为 7"
    assert error.in_hand == "台下得分：应为 0–200 之间 5 的倍数，实际为 7"
    assert HandError.of_hand(3, "extra", "未知的字段").message == "第3局：未知的字段"
    assert HandError.of_hand(None, "rules", "rules 应为对象").message == "rules 应为对象"




# --- full-width level labels (issue 16 item 10): accepted as the workbook's 庄家级 cells are ---


@pytest.mark.parametrize(("typed", "label"), [("Ｊ", "J"), ("ｊ", "J"), ("５", "5"), ("１０", "10"), ("Ａ", "A"),
                                              (" Ｑ ", "Q"), ("10级", "10")])
def test_full_width_level_labels_in_a_record_read_like_the_workbook(typed, label):
    from shuangsheng.game.hands import parse_record
    from shuangsheng.game.levels import Level
    from shuangsheng.storage.workbook.parsers import parse_level

    record, _ = parse_record({"start": {"A": typed, "B": typed}, "hands": [{"dealer": "A", "level": typed}]})
    assert record.start.a is record.start.b is record.hands[0].level is Level.parse(label)
    assert parse_level(typed) is Level.parse(label)  # the same reading as a 庄家级 cell


def test_replay_command_accepts_full_width_levels(tmp_path):
    plain = {"start": {"A": "J", "B": "5"}, "hands": [{"dealer": "A", "points": 35, "level": "J"},
                                                     {"dealer": "A", "points": 60, "level": "A"}]}
    wide = {"start": {"A": "Ｊ", "B": "５"}, "hands": [{"dealer": "A", "points": 35, "level": "Ｊ"},
                                                     {"dealer": "A", "points": 60, "level": "Ａ"}]}
    outputs = []
    for name, record in (("plain.json", plain), ("wide.json", wide)):
        result = runner.invoke(app, ["replay", str(write(tmp_path, json.dumps(record, ensure_ascii=False), name)),
                                     "--json"])
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.stdout))
    assert outputs[0] == outputs[1]
    assert outputs[1]["status"] == "passed_a" and outputs[1]["winner"] == "A"


def test_a_level_label_that_is_no_level_is_refused_by_hand_and_field():
    result = replay_record({"hands": [{"dealer": "A", "points": 35, "level": "Ｚ"}]})
    assert [(e.hand, e.field) for e in result.errors] == [(1, "level")]
    assert result.errors[0].message == "第1局庄家级：应为 2…10、J、Q、K、A，实际为 \"Ｚ\""


@pytest.mark.parametrize(("value", "typed"), [("0", '"0"'), (None, "null"), (True, "true"), ([1], "[1]"),
                                              (2.5, "2.5")])
def test_a_wrong_value_is_quoted_as_it_was_typed_in_the_record(value, typed):
    from shuangsheng.game.match import replay_record

    result = replay_record({"hands": [{"dealer": "A", "points": value}]})
    assert result.errors[0].message == f"第1局台下得分：应为整数，实际为 {typed}"
