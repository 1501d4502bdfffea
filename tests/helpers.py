"""Small shared helpers for the tests (plain functions, importable as `tests.helpers` or `helpers`)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


DATA = ROOT / "tests" / "data"


def load_vectors() -> list[dict]:
    """The rule vectors kept in tests/data (see tests/data/README.md)."""
    return json.loads((DATA / "rule-vectors.json").read_text(encoding="utf-8"))


def run(start: tuple[str, str], *hands, rules=None):
    """Replay `hands` from start levels given as labels, e.g. run(("5", "3"), Hand(Side.A, 75))."""
    from scoring.hands import MatchRecord
    from scoring.levels import Level, Levels
    from scoring.match import replay
    from scoring.rules import DEFAULT_RULES

    start_levels = Levels(Level.parse(start[0]), Level.parse(start[1]))
    return replay(MatchRecord(tuple(hands), start_levels), rules or DEFAULT_RULES)


def levels(result) -> tuple[str, str]:
    return (result.levels.a.label, result.levels.b.label)


def tied_hands():
    """Three hands that leave both sides on 3 when time is up: the match needs 加赛."""
    from scoring.hands import Hand
    from scoring.levels import Side

    return (Hand(Side.A, 75), Hand(Side.A, 80), Hand(Side.B, 75))


def event_folder(folder: Path, teams: int, *, names=None) -> Path:
    """An event folder with the default event.toml and `teams` teams (names: optional player pairs)."""
    from scoring import event as event_file
    from scoring import tournament, workbook
    from scoring.teams import Team

    (folder / event_file.EVENT_FILE).write_text(event_file.default_text(), encoding="utf-8")
    pairs = list(names or ())
    pairs += [(f"队员{i}甲", f"队员{i}乙") for i in range(len(pairs) + 1, teams + 1)]
    workbook.write_teams(folder / tournament.TEAMS_FILE, [Team(f"{i:02d}", pairs[i - 1]) for i in range(1, teams + 1)])
    return folder


def every_status_round(folder: Path):
    """Round 1 of an 8-team event scored with one table of each kind: decided, needs 加赛, walkover, an error
    at 第4桌!D7. Returns the tournament's ScoreReport."""
    import random

    from scoring import tournament, workbook
    from scoring.hands import MatchRecord
    from scoring.levels import Side
    from scoring.simulate import simulate_match

    event_folder(folder, 8)
    tournament.draw_next(folder, seed=7)
    path = tournament.round_path(folder, 1)
    records = {1: simulate_match(random.Random(3))[0], 2: MatchRecord(tied_hands()),
               4: MatchRecord(tied_hands())}
    workbook.fill_round(path, records, walkovers={3: Side.B})
    import openpyxl

    wb = openpyxl.load_workbook(path)
    wb["第4桌"]["D7"] = 33
    wb.save(path)
    return tournament.score(folder, 1)
