"""Event folders part-way through the day, built through the same library calls as `demo`, `draw` and `score`:
the venue display tests need a round drawn but not played, a round half scored, a tie, a mistake."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from scoring import event as event_file
from scoring import tournament, workbook
from scoring.demo import make_teams
from scoring.hands import Hand, MatchRecord
from scoring.levels import Side
from scoring.simulate import simulate_match

TIED = MatchRecord((Hand(Side.A, 80),))  # one hand, 80 points: the deal changes hands, nobody rises: 需加赛
WRONG = MatchRecord((Hand(Side.A, 83),))  # 83 is not a multiple of 5: a mistake the referee must fix


def start_event(folder: Path, *, teams: int = 11, seed: int = 7, each_round: bool = False) -> random.Random:
    """event.toml (the default; with `each_round`, a bye in every round with an odd field) and a team list of
    `teams` simulated pairs with plausible names; returns the rng to go on with."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    text = event_file.default_text()
    if each_round:
        assert 'byes = "first_round"' in text
        text = text.replace('byes = "first_round"', 'byes = "each_round"')
    (folder / event_file.EVENT_FILE).write_text(text, encoding="utf-8")
    workbook.write_teams(folder / tournament.TEAMS_FILE, make_teams(rng, teams))
    return rng


def draw(folder: Path, rng: random.Random) -> tournament.DrawReport:
    return tournament.draw_next(folder, seed=rng.randrange(10**6, 10**9))


def play(folder: Path, number: int, rng: random.Random, records: Mapping[int, MatchRecord] | None = None) -> None:
    """Fill round `number` as the referees would (simulated hands for every table unless `records` says which),
    then score it and write the checked copy, as `shuangsheng score` does."""
    report = tournament.score(folder, number)
    if records is None:
        rules = tournament.open_folder(folder).rules
        records = {m.match.table: simulate_match(rng, rules=rules)[0] for m in report.score.matches}
    workbook.fill_round(tournament.round_path(folder, number), records)
    tournament.write_checked_copy(tournament.score(folder, number))


def played_rounds(folder: Path, *, teams: int = 11, rounds: int, seed: int = 7, draw_next: bool = True) -> random.Random:
    """A new event with `rounds` rounds drawn and played, and (with `draw_next`) the next one drawn, unplayed."""
    rng = start_event(folder, teams=teams, seed=seed)
    for number in range(1, rounds + 1):
        draw(folder, rng)
        play(folder, number, rng)
    if draw_next:
        draw(folder, rng)
    return rng


def finished(folder: Path, *, teams: int = 11, seed: int = 7, each_round: bool = False) -> None:
    """Every round drawn and played to the final."""
    rng = start_event(folder, teams=teams, seed=seed, each_round=each_round)
    number = 0
    while True:
        number += 1
        drawn = draw(folder, rng)
        play(folder, number, rng)
        if len(drawn.round.pool) == 2:
            return
