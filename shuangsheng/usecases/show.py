"""What the venue display shows, read from the event folder: a whole reading (`read_folder`: the calls `bracket` and
`score` make, event.db opened once for all of them), and the same reading brought up to date after phone entries
(`with_new_entries`): only the tables of the latest round whose entries changed since — the ledger's entries mark
tells which — are read again and scored again; every other table keeps its record, and no file is read. Reads the
folder; writes nothing."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from shuangsheng.knockout.advance import advance
from shuangsheng.knockout.bracket import Bracket
from shuangsheng.render import venue
from shuangsheng.render.reports import RoundScore
from shuangsheng.render.venue import Board
from shuangsheng.storage.ledger.connection import Ledger, kept_open
from shuangsheng.storage.workbook import RoundSheet
from shuangsheng.table.sources import phone_table
from shuangsheng.table.state import KnownStates
from shuangsheng.usecases.announced import announced_tables
from shuangsheng.usecases.awards import bracket_in, bracket_of
from shuangsheng.usecases.folder import EventFolder, open_folder
from shuangsheng.usecases.scoring import score_match


@dataclass(frozen=True)
class Reading:
    """One reading of the folder: the page data, and what it was made from (the folder as read, every round
    scored, the bracket chart, and event.db's `reading_mark` before it was read, None without event.db)."""

    board: Board
    state: EventFolder
    scores: tuple[RoundScore, ...]
    chart: Bracket
    mark: tuple[int, ...] | None = None

    @property
    def rounds(self) -> tuple[RoundSheet, ...]:
        return self.state.rounds


def read_folder(folder: Path, *, known: Sequence[RoundSheet] = ()) -> Reading:
    """The whole folder read and scored (`known`: the rounds of the last reading, parsed again only when their files
    changed). Raises UserError (its issues, all of them)."""
    with kept_open(folder):
        mark = _reading_mark(folder)  # before the reading: a change during it is a change the next time too
        chart, state = bracket_in(open_folder(folder, known=known))
        scores = tuple(state.scores())
        return _reading(folder, state, scores, chart, mark)


def with_new_entries(reading: Reading, folder: Path, known: KnownStates | None = None) -> Reading | None:
    """`reading` with the phone entries accepted since it was made: the latest round's tables that have new entries
    read and scored again, the rest as they were. None when event.db changed in more than its entries (a draw, a
    scoring, a code), cannot be read, or the round was scored under other [rules] than event.toml's (whether
    they are held is decided over all its tables): then the whole folder is read again. `known`: `serve`'s kept
    states of the tables (a table's replay made by the phones' last decision is not made again). Raises UserError as
    `read_folder`."""
    rounds = reading.state.rounds
    if not rounds or reading.mark is None:
        return None
    latest = rounds[-1]
    number = latest.round.number
    if number not in reading.state.entry_marks:
        return None
    draw_id, seen = reading.state.entry_marks[number]
    with kept_open(folder):
        book = Ledger.readable(folder)
        if book is None:
            return None
        with book:
            if book.reading_mark() != reading.mark:
                return None
            if book.scored_rules(draw_id) not in (None, reading.state.rules.as_mapping()):
                return None  # scored under other [rules]: whether it is held may turn on the new entries too
            try:
                changed, mark = book.entries_since(draw_id, seen)
            except ValueError:  # a damaged entry row: the whole reading names it
                return None
        if not changed:  # the clock moved, or nothing the board shows
            return reading
        sheet = replace(latest, entries={**latest.entries, **changed})
        state = replace(reading.state, rounds=(*rounds[:-1], sheet),
                        entry_marks={**reading.state.entry_marks, number: (draw_id, mark)})
        scores = (*reading.scores[:-1], _scored_again(reading.scores[-1], sheet, state, changed, known))
        return _reading(folder, state, scores, bracket_of(state, scores), reading.mark)


def _scored_again(before: RoundScore, sheet: RoundSheet, state: EventFolder,
                  changed: Mapping[int, tuple], known: KnownStates | None = None) -> RoundScore:
    """The round's tables in `changed` scored again from their new entries; the others as `before` scored them."""
    rules = state.rules_for(sheet.round.number)
    matches = tuple(
        score_match(m.match, rules, phone_table(m.match, changed[m.match.table], rules, sheet.round.number, known))
        if m.match.table in changed else m
        for m in before.matches)
    return RoundScore(sheet, matches, advance(sheet.round, [m.outcome for m in matches]))


def _reading(folder: Path, state: EventFolder, scores: tuple[RoundScore, ...], chart: Bracket,
             mark: tuple[int, ...] | None) -> Reading:
    board = venue.build_board(chart, scores, announced_tables(folder, scores), updated=time.strftime("%H:%M"))
    return Reading(board, state, scores, chart, mark)


def _reading_mark(folder: Path) -> tuple[int, ...] | None:
    book = Ledger.readable(folder)
    if book is None:
        return None
    with book:
        return book.reading_mark()
