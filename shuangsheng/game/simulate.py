"""Plausible simulated matches for the demo and for tests: valid records a referee could have written."""

from __future__ import annotations

import random

from shuangsheng.game.hands import Hand, MatchRecord, Offense
from shuangsheng.game.levels import START, Level, Levels, Side
from shuangsheng.game.match import MatchResult, Replay, Status
from shuangsheng.game.rules import DEFAULT_RULES, RuleSet

MAX_PLAYOFF_HANDS = 20


def _random_hand(rng: random.Random, dealer: Side, level: Level, *, playoff: bool) -> Hand:
    points = min(200, max(0, int(rng.gauss(70, 35)) // 5 * 5))
    bottom = min(200 - points, rng.choice([0, 5, 10, 10, 15, 20, 25, 30]))
    capture = 0
    if rng.random() < 0.12:
        capture = rng.choice([2, 2, 2, 4, 4, 8])
    offense = None
    if rng.random() < 0.02:
        offense = rng.choice(list(Offense))
    return Hand(
        dealer=dealer,
        points=points,
        bottom=bottom,
        capture=capture,
        level_card_capture=bool(capture) and level in (Level.JACK, Level.ACE) and rng.random() < 0.4,
        dealer_wrong_cards=1 if rng.random() < 0.04 else 0,
        defender_wrong_cards=rng.choice([1, 2]) if rng.random() < 0.04 else 0,
        offense=offense,
        playoff=playoff,
        level=level if rng.random() < 0.7 else None,
    )


def simulate_match(
    rng: random.Random, *, rules: RuleSet = DEFAULT_RULES, start: Levels = START, hands: int | None = None
) -> tuple[MatchRecord, MatchResult]:
    """An hour of play (10–16 hands unless given), then 加赛 hands while tied; stops when A is passed."""
    count = hands if hands is not None else rng.randint(10, 16)
    dealer = rng.choice(list(Side))
    walk = Replay(start, rules)  # each hand is played on from where the ones before left the match
    result = walk.result()
    for _ in range(count):
        if result.status is Status.PASSED_A:
            break
        if result.outcomes:
            assert result.next_dealer is not None  # a match without errors has a next dealer
            dealer = result.next_dealer
        walk.add(_random_hand(rng, dealer, result.levels[dealer], playoff=False))
        result = walk.result()
    for _ in range(MAX_PLAYOFF_HANDS):
        if result.status is not Status.NEEDS_PLAYOFF:
            break
        dealer = result.next_dealer or dealer
        walk.add(_random_hand(rng, dealer, result.levels[dealer], playoff=True))
        result = walk.result()
    return walk.record, result
