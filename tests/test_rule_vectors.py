"""Every worked example in tests/data/rule-vectors.json, one test each, named after its clause."""

from __future__ import annotations

import pytest

from shuangsheng.game.hands import RecordError, parse_record
from shuangsheng.game.match import replay, result_as_json
from shuangsheng.game.rules import DEFAULT_RULES
from tests.helpers import load_vectors

VECTORS = load_vectors()


def _id(vector: dict) -> str:
    clause = vector["clause"].replace(" ", "_")
    return f"rule_{clause}: {vector['name']}"


def test_vectors_are_there():
    assert len(VECTORS) >= 20


@pytest.mark.parametrize("vector", VECTORS, ids=[_id(v) for v in VECTORS])
def test_vector(vector):
    expect = vector["expect"]
    try:
        record, rules = parse_record(vector["record"])
    except RecordError as exc:
        assert "error_hand" in expect, exc.errors
        assert exc.errors[0].hand == expect["error_hand"]
        return
    result = replay(record, rules or DEFAULT_RULES)
    out = result_as_json(result)
    if "error_hand" in expect:
        assert result.errors, out
        assert result.errors[0].hand == expect["error_hand"]
        return
    assert not result.errors, out
    assert out["levels"] == expect["levels"]
    assert out["next_dealer"] == expect["next_dealer"]
    assert out["status"] == expect["status"]
    assert out["winner"] == expect["winner"]
    if "per_hand_levels" in expect:
        assert [h["levels"] for h in out["hands"]] == expect["per_hand_levels"]
