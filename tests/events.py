"""Event folders for the tests, one builder for all: `new_event` runs `init` and types a team list; the others
take a folder part-way through the day through the same library calls as `demo`, `draw` and `score` (a round
drawn but not played, a round half scored, a tie, a mistake, every kind of table, a finished event)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import random
import shutil
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import openpyxl

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import Side
from shuangsheng.game.match import Status
from shuangsheng.game.simulate import simulate_match
from shuangsheng.knockout.teams import Team
from shuangsheng.render.reports import DrawReport, ScoreReport
from shuangsheng.storage import event as event_file
from shuangsheng.storage import names, workbook
from shuangsheng.storage.names import EVENT_FILE, TEAMS_FILE, round_path
from shuangsheng.usecases import draw as drawing
from shuangsheng.usecases.demo import make_teams
from shuangsheng.usecases.folder import open_folder
from shuangsheng.usecases.score import score, write_checked_copy
from tests.helpers import cli, tied_hands

# --- each event built once per test run, then copied -------------------------------------------------------------
# A builder below marked @templated builds its event once per test run (per xdist worker) into TEMPLATES, for each
# set of arguments, and from then on copies that folder where a test asks for it: the same files, byte for byte,
# the same event.db (checkpointed before it is copied), and the same rng to go on with. Built directly when
# TEMPLATES is not set (outside pytest), when the target folder is not empty, or when an argument is not plain
# data (a `names` function, say).

TEMPLATES: Path | None = None  # set by tests/conftest.py: a folder inside the test run's temporary folder
_made: dict[tuple, tuple[Path, object]] = {}
_building = False  # a template being built: the builders it calls build directly


def _plain(value: object) -> bool:
    if value is None or isinstance(value, bool | int | str | Team):
        return True
    return isinstance(value, tuple | list) and all(_plain(v) for v in value)


def templated(build: Callable) -> Callable:
    signature = inspect.signature(build)

    @functools.wraps(build)
    def built(folder: Path, *args, **kwargs):
        global _building
        bound = signature.bind(folder, *args, **kwargs)
        bound.apply_defaults()
        named = [(k, v) for k, v in bound.arguments.items() if k != "folder"]
        defaults = signature.parameters
        plain = all(_plain(v) or v is defaults[k].default for k, v in named)
        if TEMPLATES is None or _building or not plain or (folder.exists() and any(folder.iterdir())):
            return build(folder, *args, **kwargs)
        key = (build.__name__, *((k, repr(v) if _plain(v) else "default") for k, v in named))
        if key not in _made:
            template = TEMPLATES / f"{build.__name__}-{len(_made) + 1}"
            _building = True
            try:
                result = build(template, *args, **kwargs)
            finally:
                _building = False
            checkpointed(template)
            _made[key] = (template, result.getstate() if isinstance(result, random.Random) else result)
        template, result = _made[key]
        shutil.copytree(template, folder, dirs_exist_ok=True)
        if isinstance(result, tuple):  # an rng's state
            rng = random.Random()
            rng.setstate(result)
            return rng
        return folder if result == template else result

    return built


def checkpointed(folder: Path) -> None:
    """event.db whole in itself, with no -wal or -shm beside it (every connection closed, the WAL checkpointed into
    it), so that copying the folder copies a consistent ledger."""
    from shuangsheng.storage.names import DB_NAME

    db = folder / DB_NAME
    if db.exists():
        with contextlib.closing(sqlite3.connect(db)) as connection:
            busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            assert busy == 0, f"{db}: still in use, not checkpointed"
    for side in (f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        assert not (folder / side).exists(), f"{folder / side}: left after the last connection closed"


TIED = MatchRecord((Hand(Side.A, 80),))  # one hand, 80 points: the deal changes hands, nobody rises: 需加赛
WRONG = MatchRecord((Hand(Side.A, 83),))  # 83 is not a multiple of 5: a mistake the referee must fix


def players(i: int) -> tuple[str, str]:
    """The players of team `i` unless a test names them: 张1甲 and 李1乙, …"""
    return (f"张{i}甲", f"李{i}乙")


def team_list(n: int, *, digits: int = 2, names: Callable[[int], tuple[str, str]] = players) -> list[Team]:
    """Teams 01, 02, … (`digits` wide) whose players are `names(i)`."""
    return [Team(f"{i:0{digits}d}", names(i)) for i in range(1, n + 1)]


@templated
def new_event(folder: Path, teams: int | Sequence[Team] = 4, *, digits: int = 2,
              names: Callable[[int], tuple[str, str]] = players,
              playoff: bool = False, each_round: bool = False) -> Path:
    """`shuangsheng init`, then the team list typed: teams.xlsx with `teams` teams numbered 01, 02, … (`digits`
    wide) whose players are `names(i)`, or the given teams; event.toml as init wrote it (`playoff`: a 三四名决赛;
    `each_round`: a bye in every round with an odd field)."""
    cli("init", folder)
    listed = team_list(teams, digits=digits, names=names) if isinstance(teams, int) else teams
    workbook.write_teams(folder / TEAMS_FILE, listed, force=True)
    toml = folder / EVENT_FILE
    text = toml.read_text(encoding="utf-8")
    assert 'third_place = "shared"' in text and 'byes = "first_round"' in text
    if playoff:
        text = text.replace('third_place = "shared"', 'third_place = "playoff"')
    if each_round:
        text = text.replace('byes = "first_round"', 'byes = "each_round"')
    toml.write_text(text, encoding="utf-8")
    return folder


@templated
def start_event(folder: Path, *, teams: int = 11, seed: int = 7, each_round: bool = False) -> random.Random:
    """A new event of `teams` simulated pairs with plausible names; returns the rng to go on with."""
    rng = random.Random(seed)
    new_event(folder, make_teams(rng, teams), each_round=each_round)
    return rng


def draw(folder: Path, rng: random.Random) -> DrawReport:
    return drawing.draw_next(folder, seed=rng.randrange(10**6, 10**9))


def play(folder: Path, number: int, rng: random.Random, records: Mapping[int, MatchRecord] | None = None) -> None:
    """Fill round `number` as the referees would (simulated hands for every table unless `records` says which),
    then score it and write the checked copy, as `shuangsheng score` does."""
    report = score(folder, number)
    if records is None:
        rules = open_folder(folder).rules
        records = {m.match.table: simulate_match(rng, rules=rules)[0] for m in report.score.matches}
    workbook.fill_round(round_path(folder, number), records)
    write_checked_copy(score(folder, number))


@templated
def played_rounds(folder: Path, *, teams: int = 11, rounds: int, seed: int = 7, draw_next: bool = True) -> random.Random:
    """A new event with `rounds` rounds drawn and played, and (with `draw_next`) the next one drawn, unplayed."""
    rng = start_event(folder, teams=teams, seed=seed)
    for number in range(1, rounds + 1):
        draw(folder, rng)
        play(folder, number, rng)
    if draw_next:
        draw(folder, rng)
    return rng


@templated
def finished(folder: Path, *, teams: int = 11, seed: int = 7, each_round: bool = False) -> None:
    """Every round drawn and played to the final."""
    play_to_the_final(folder, start_event(folder, teams=teams, seed=seed, each_round=each_round))


def play_to_the_final(folder: Path, rng: random.Random) -> None:
    """Every round of the event in `folder` drawn and played, the final included."""
    number = 0
    while True:
        number += 1
        drawn = draw(folder, rng)
        play(folder, number, rng)
        if len(drawn.round.pool) == 2:
            return


def every_status_round(folder: Path) -> ScoreReport:
    """Round 1 of an 8-team event scored with one table of each kind: decided, needs 加赛, walkover, an error
    at 第4桌!D7. Returns score's ScoreReport."""
    new_event(folder, 8)
    drawing.draw_next(folder, seed=7)
    path = round_path(folder, 1)
    records = {1: simulate_match(random.Random(3))[0], 2: MatchRecord(tied_hands()),
               4: MatchRecord(tied_hands())}
    workbook.fill_round(path, records, walkovers={3: Side.B})
    wb = openpyxl.load_workbook(path)
    wb["第4桌"]["D7"] = 33
    wb.save(path)
    return score(folder, 1)


def round_file(folder: Path, number: int) -> Path:
    return folder / names.round_file(number)


def simulated(seed: int, folder: Path) -> MatchRecord:
    """A plausible decided match that fits the sheet (the simulator may need more 加赛 hands than the 10 rows)."""
    rules = event_file.load(folder).rules
    rng = random.Random(seed)
    while True:
        record, result = simulate_match(rng, rules=rules)
        playoff = sum(h.playoff for h in record.hands)
        if result.status is not Status.NEEDS_PLAYOFF and playoff <= workbook.PLAYOFF_ROWS:
            return record


def fill(folder: Path, number: int, *, seed: int = 0, walkovers=None, skip=(), records=None) -> None:
    """The referee types every match of round `number` (except tables in `skip` or with a walkover)."""
    path = round_file(folder, number)
    tables = [p.table for p in workbook.read_round(path).round.pairings]
    walkovers = walkovers or {}
    given = dict(records or {})
    for t in tables:
        if t not in skip and t not in walkovers and t not in given:
            given[t] = simulated(seed * 1000 + number * 100 + t, folder)
    workbook.fill_round(path, given, walkovers=walkovers)


@templated
def first_round_scored(folder: Path) -> Path:
    """An 8-team event whose round 1 was drawn (seed 1), typed and scored: round 2 is the next to draw."""
    new_event(folder, 8)
    cli("draw", folder, "--seed", 1)
    fill(folder, 1, records={t: simulated(t, folder) for t in (1, 2, 3, 4)})
    cli("score", folder)
    return folder


@templated
def second_round_drawn(folder: Path) -> Path:
    """An 8-team event whose round 1 was drawn (seed 1), typed and scored, and round 2 drawn (seed 2)."""
    first_round_scored(folder)
    cli("draw", folder, "--seed", 2)
    return folder


@templated
def third_round_drawn(folder: Path, before_third: Callable[[Path], object] = lambda folder: None) -> Path:
    """A `second_round_drawn` event whose round 2 was typed and scored and round 3 (the final) drawn (seed 3);
    `before_third(folder)` runs just before round 3 is drawn (a 扫码单 watch's first look, say)."""
    second_round_drawn(folder)
    fill(folder, 2, seed=5)
    cli("score", folder)
    before_third(folder)
    cli("draw", folder, "--seed", 3)
    return folder


def round_one_corrected(folder: Path) -> None:
    """In a `second_round_drawn` event, the referee corrects round 1 at the table that sent a team to round 2's
    table 2 (every hand's dealer the other side: the other team won) and scores it again: `draw --redo 2` is
    the way forward, and changes table 2."""
    from dataclasses import replace

    round2 = workbook.read_round(round_file(folder, 2)).match(2).pairing
    winners = {m.outcome.table: m.outcome.winner for m in score(folder, 1).score.matches}
    wrong = next(p.table for p in workbook.read_round(round_file(folder, 1)).round.pairings
                 if winners[p.table] in (round2.a, round2.b))
    typed = simulated(wrong, folder)  # as second_round_drawn typed it
    workbook.fill_round(round_file(folder, 1),
                        {wrong: MatchRecord(tuple(replace(h, dealer=h.dealer.other) for h in typed.hands))})
    cli("score", folder, "--round", 1)


def redone_in_ledger(folder: Path, number: int) -> None:
    """What `draw --redo` records in event.db for a round whose tables it all keeps, as another process would do it
    between a server's look at a table and its write: the draw voided, the same draw recorded again, the codes and
    entries carried over to it, in one transaction."""
    from shuangsheng.storage.ledger.connection import Ledger

    with Ledger.open(folder) as book, book.atomic():
        old = book.draws()[number]
        book.void_draw(old.id, f"--redo {number}")
        new = book.record_draw(old.round, old.names, done=True)
        book.set_codes(new, book.codes(old.id))
        book.carry_entries(old.id, new, sorted(book.codes(old.id)))


LOST_LEVELS = (("J", "7"), ("A", "10"), ("5", "Q"), ("3", "K"), ("9", "2"))  # 终局 levels of lost cards, in turn


def lost_cards(folder: Path, number: int, tables: Sequence[int]) -> None:
    """The 终局 cells of these tables' rows on round `number`'s 对阵 sheet (one save), as the desk writes them for a
    lost card: each match decided by its final levels only, marked 未逐局核对."""
    from shuangsheng.storage.workbook.schema import MATCHES_HEADER, MATCHES_HEADER_ROW, MATCHES_SHEET

    path = round_path(folder, number)
    wb = openpyxl.load_workbook(path)
    ws = wb[MATCHES_SHEET]
    rows: dict[object, int] = {}
    for r in range(MATCHES_HEADER_ROW + 1, ws.max_row + 1):  # the table's row: the first with its number
        rows.setdefault(ws.cell(r, 1).value, r)
    for k, table in enumerate(tables):
        for label, value in zip(MATCHES_HEADER[-3:], (*LOST_LEVELS[k % len(LOST_LEVELS)], "记分卡遗失"), strict=True):
            ws.cell(rows[table], MATCHES_HEADER.index(label) + 1).value = value
    wb.save(path)


@templated
def lost_round_one(folder: Path, *, teams: int = 128) -> None:
    """Round 1 drawn and every card lost: each table entered by its 终局 levels only, and scored."""
    played_rounds(folder, teams=teams, rounds=0)
    lost_cards(folder, 1, [p.table for p in open_folder(folder).rounds[0].round.pairings])
    write_checked_copy(score(folder, 1))


@templated
def finished_with_lost_cards(folder: Path, *, teams: int = 13, first: int = 1, seed: int = 7) -> None:
    """Every round drawn and played to the final, every other table's card lost (its 终局 levels only); the teams
    numbered from `first` (88 for 13 teams: 088–100, shown with three digits as in a field over 99)."""
    rng = random.Random(seed)
    new_event(folder, [Team(f"{first + k:02d}", t.players) for k, t in enumerate(make_teams(rng, teams))])
    number = 0
    while True:
        number += 1
        drawn = draw(folder, rng)
        tables = [p.table for p in drawn.round.pairings]
        rules = open_folder(folder).rules
        workbook.fill_round(round_path(folder, number),
                            {t: simulate_match(rng, rules=rules)[0] for t in tables[1::2]})
        lost_cards(folder, number, tables[::2])
        write_checked_copy(score(folder, number))
        if len(drawn.round.pool) == 2:
            return
