"""The demo's simulated matches are valid records that finish."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.game.match import Status, replay
from shuangsheng.game.rules import RuleSet, TieBreak
from shuangsheng.game.simulate import simulate_match


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(TieBreak)))
def test_simulated_matches_are_valid_and_decided(seed, tie_break):
    rules = RuleSet(tie_break=tie_break)
    record, result = simulate_match(random.Random(seed), rules=rules)
    assert result.ok, result.errors
    assert result == replay(record, rules)
    assert result.status in (Status.DECIDED, Status.PASSED_A)
    assert result.winner is not None


def test_same_seed_same_match():
    assert simulate_match(random.Random(7)) == simulate_match(random.Random(7))
