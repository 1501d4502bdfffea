"""`shuangsheng replay` through Typer's CliRunner, and the fast --help."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.vocabulary.errors import ERROR_KEYS
from tests.helpers import ROOT

runner = CliRunner()


@pytest.fixture
def record_file(tmp_path):
    def write(data) -> str:
        path = tmp_path / "match.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return str(path)

    return write


def test_replay_table(record_file):
    path = record_file({"start": {"A": "9", "B": "7"}, "hands": [{"dealer": "A", "points": 10}]})
    result = runner.invoke(app, ["replay", path])
    assert result.exit_code == 0, result.output
    assert "局" in result.output and "说明" in result.output
    assert "庄家升4级，因 J 必打止于 J（9→J），余2级从乙方扣除（7→5）" in result.output
    assert "结果：甲方获胜（甲方 J，乙方 5）" in result.output


def test_replay_json_is_exactly_one_document(record_file):
    path = record_file({"hands": [{"dealer": "A", "points": 35}, {"dealer": "A", "points": 90}]})
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["levels"] == {"A": "5", "B": "2"}
    assert doc["next_dealer"] == "B" and doc["status"] == "decided" and doc["winner"] == "A"
    assert doc["hands"][0] == {
        "hand": 1,
        "dealer": "A",
        "dealer_level": "2",
        "points": 35,
        "levels": {"A": "5", "B": "2"},
        "next_dealer": "A",
        "explanation": "第1局：甲方坐庄打2，台下得分 35，不够80分 → 甲方保庄，庄家升3级（2→5）",
        "outcome": "甲方保庄，庄家升3级（2→5）",  # the explanation's part after →: what the hand did
    }


def test_replay_example_file_in_the_repo():
    result = runner.invoke(app, ["replay", str(ROOT / "examples" / "match.json")])
    assert result.exit_code == 0, result.output


def test_replay_invalid_hand_exit_1_names_the_hand(record_file):
    path = record_file({"hands": [{"dealer": "A", "points": 35}, {"dealer": "B", "points": 40}]})
    result = runner.invoke(app, ["replay", path])
    assert result.exit_code == 1
    assert "第2局庄家：应为甲方坐庄（第1局后甲方保庄），记录为乙方" in result.output
    as_json = runner.invoke(app, ["replay", path, "--json"])
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["errors"][0]["hand"] == 2


def test_replay_lists_every_field_error(record_file):
    path = record_file({"hands": [{"dealer": "A", "points": 83}, {"dealer": "A", "points": 50, "capture": 3}]})
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    errors = doc["errors"]
    assert [(e["hand"], e["field"]) for e in errors] == [(1, "points"), (2, "capture")]
    assert errors[0] == {"message": "第1局台下得分：应为 0–200 之间 5 的倍数，实际为 83", "file": str(path),
                         "sheet": None, "cell": None, "hand": 1, "field": "points"}
    assert all(tuple(e) == ERROR_KEYS for e in errors)  # exactly the one error object, every key present
    assert (doc["heading"], doc["hint"]) == (None, None) and set(doc) == {"errors", "heading", "hint"}
    shown = runner.invoke(app, ["replay", path])
    assert f"{path}：第1局台下得分：应为 0–200 之间 5 的倍数，实际为 83" in shown.output  # the file named at the edge


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"hands": 5}'])
def test_replay_bad_file_no_traceback(record_file, content):
    result = runner.invoke(app, ["replay", record_file(content)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_replay_json_of_a_file_that_is_no_record_names_the_file(record_file):
    path = record_file("{not json")
    result = runner.invoke(app, ["replay", path, "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert set(doc) == {"errors", "heading", "hint"} and len(doc["errors"]) == 1
    error = doc["errors"][0]
    assert tuple(error) == ERROR_KEYS and error["file"] == path and error["hand"] is None and error["message"]
    assert path not in error["message"]  # the place is a key of its own


def test_replay_missing_file(tmp_path):
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 1 and "找不到文件" in result.output


def test_every_command_has_help_text():
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.help, name
