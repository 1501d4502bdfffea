"""`draw --redo N`: a correction of round N−1 carried into round N, already drawn. Round N keeps its tables; the
teams that should not be there are replaced at their tables, whose entries and codes are voided (logged in event.db);
every round after N is voided. Writes round-N.xlsx (the replaced one and those removed backed up first as
`备份/round-N.备份-….xlsx`), removes the later rounds' workbooks and 扫码单, and records all of it in event.db."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from shuangsheng.knockout import knockout
from shuangsheng.knockout.apart import NOTHING_APART
from shuangsheng.knockout.knockout import Round
from shuangsheng.knockout.placings import prize_note
from shuangsheng.render.reports import DrawReport, Redo, RoundScore
from shuangsheng.storage import files, qr_sheets, workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.names import backup_name, round_path
from shuangsheng.storage.workbook import MatchSheet, RoundSheet
from shuangsheng.usecases.draw import (
    Meanwhile,
    PapersWriter,
    draw_next,
    nothing_meanwhile,
    rules_note,
    table_codes,
    with_recorded_names,
)
from shuangsheng.usecases.folder import EventFolder, TournamentError, open_folder, recorded_draws, same_draw
from shuangsheng.vocabulary.errors import UserError
from shuangsheng.vocabulary.text import command_line


def _substitution(before: RoundScore, drawn: Round) -> dict[str, str]:
    """Who replaces whom in round `drawn`: at each table of the round before whose winner changed, the team that
    went on (and is in `drawn`) and the one that should have; swapped both ways (in a final with a 3rd-place
    match the new loser takes the old loser's place there)."""
    winners = {o.table: o.winner for o in before.outcomes}
    swap: dict[str, str] = {}
    for p in before.round.pairings:
        new = winners.get(p.table)
        old = next((t for t in (p.a, p.b) if t in drawn.pool), None)
        if new is not None and old is not None and old != new and new not in drawn.pool:
            swap[old], swap[new] = new, old
    return swap


def _substituted(drawn: Round, swap: Mapping[str, str]) -> Round:
    def s(team: str) -> str:
        return swap.get(team, team)

    pairings = tuple(replace(p, a=s(p.a), b=s(p.b)) for p in drawn.pairings)
    return replace(drawn, pool=tuple(s(t) for t in drawn.pool), pairings=pairings, byes=tuple(s(t) for t in drawn.byes),
                   lots=tuple((s(t), n) for t, n in drawn.lots))


def redo_draw(folder: Path, number: int, *, papers: PapersWriter | None = None,
              meanwhile: Meanwhile = nothing_meanwhile) -> DrawReport:
    """`draw --redo N`: carry a correction of round N−1 into round N. Round N keeps its tables; each team that
    should not be there is replaced at the same table and side by the team that should; those tables' entries
    are voided (logged in event.db, the old workbook backed up), the other tables keep theirs; every round after N
    is voided (workbooks backed up, then removed). `meanwhile` (tests): called at "recording", just before the
    redo's write transaction, and at "recorded", just after it, before the voided rounds' workbooks are removed."""
    state, sheet, swap = _plan(folder, number)
    if not swap and _unfinished(folder, sheet):  # stopped while writing its papers: run again, it completes them
        return draw_next(folder, papers=papers, known=state.rounds)
    if not swap:
        raise TournamentError([f"第{number}轮的参赛组与第{number - 1}轮现在的晋级组一致，不需要 --redo"])
    corrected = _substituted(sheet.round, swap)
    replaced = _replaced(sheet.round, corrected)
    touched = {t for t, _, _ in replaced}
    with Ledger.open(folder) as book:
        voided = _later_rounds(folder, book, number)
        path = round_path(folder, number)
        backups = [_backup(path), *(_backup(round_path(folder, n)) for n in reversed(voided)
                                    if round_path(folder, n).exists())]
        old = book.draws().get(number)
        teams = with_recorded_names(state.team_map, old)
        meanwhile("recording")
        with book.atomic():  # no reader sees round N without a draw, or the new draw without its codes and entries
            _void_later(book, number)
            book.log("redo", round=number, replaced=[list(r) for r in replaced], backup=backups[0].name,
                     voided_entries={str(m.table): _entries(m) for m in sheet.matches if m.table in touched},
                     voided_rounds=list(voided))
            if old is not None:
                book.void_draw(old.id, f"--redo {number}")
            draw_id = book.record_draw(corrected, {t: teams[t].players for t in corrected.pool if t in teams},
                                       format=old.format if old is not None else None,
                                       apart=old.apart if old is not None else NOTHING_APART)
            codes = _carry_tables(book, old, draw_id, corrected, _changed(old, corrected))
        meanwhile("recorded")
        _remove_later(folder, voided)  # only now: a redo stopped before this is still named by its recorded draw
        # the voided rounds' papers (their codes no longer work, their results no longer count), also those a
        # stopped run of this redo voided
        sheets = qr_sheets.remove_voided(folder, (*voided, *_voided_by_redo(book, number)), book, papers=True)
        kept = workbook.carried(sheet, [p.table for p in corrected.pairings if p.table not in touched])
        workbook.write_round(path, corrected, teams, rules_note=rules_note(state.rules), typed=kept, force=True,
                             digits=state.digits,
                             record=functools.partial(book.record_bytes, path))
        title = knockout.round_title(number, len(corrected.pool))
        report = DrawReport(round=corrected, path=path, seed_generated=False, backup=backups[0], title=title,
                            note=prize_note(corrected, state.event.third_place, digits=state.digits), teams=teams,
                            event=state.event, digits=state.digits,
                            redo=Redo(number, replaced, voided, tuple(backups), sheets), codes=codes)
        if papers is not None:
            try:
                report = replace(report, papers=papers(report))
            except UserError as exc:
                return replace(report, papers_problems=tuple(exc.messages))
        book.draw_done(draw_id)
    return report


def _plan(folder: Path, number: int) -> tuple[EventFolder, RoundSheet, dict[str, str]]:
    """The folder read for `--redo number`, round `number`'s sheet and who replaces whom in it."""
    state = open_folder(folder, up_to=number, drawing=True)
    if not 2 <= number <= len(state.rounds):
        have = f"已有第1–{len(state.rounds)}轮" if state.rounds else "还没有抽签"
        raise TournamentError([f"{folder}：--redo 要给第2轮或以后已抽签的一轮（{have}）"])
    scores = state.scores()
    before, sheet = scores[number - 2], state.rounds[number - 1]
    if not before.advancement.decided:
        raise TournamentError([b.message for b in before.advancement.blockers],
                              heading=f"第{number - 1}轮还有比赛没有决出胜负：",
                              hint=f"先补全或改正它并运行 {command_line('score', folder)}，再 --redo {number}")
    return state, sheet, _substitution(before, sheet.round)


def _replaced(drawn: Round, corrected: Round) -> tuple[tuple[int, str, str], ...]:
    """(table, team out, team in) for each place the correction changes."""
    return tuple((new.table, team, new_team) for old, new in zip(drawn.pairings, corrected.pairings, strict=True)
                 for team, new_team in ((old.a, new.a), (old.b, new.b)) if team != new_team)


@dataclass(frozen=True)
class RedoPreview:
    """What `draw --redo number` would do, before anything is written: the places it changes (table, team out,
    team in; those tables' entries are voided) and the later rounds it voids."""

    number: int
    replaced: tuple[tuple[int, str, str], ...]
    voided: tuple[int, ...]


def redo_preview(folder: Path, number: int) -> RedoPreview | None:
    """What `--redo number` would change now; None when round `number` already holds the teams it should (no redo
    needed); TournamentError when it cannot be done now (the round before not decided)."""
    _, sheet, swap = _plan(folder, number)
    if not swap:
        return None
    replaced = _replaced(sheet.round, _substituted(sheet.round, swap))
    with Ledger.open(folder) as book:
        voided = _later_rounds(folder, book, number)
    return RedoPreview(number, replaced, voided)


def _changed(old: DrawRecord | None, corrected: Round) -> set[int]:
    """The tables whose teams the redo changes in the draw in force: those `touched` in the workbook, except when a
    stopped redo already recorded `corrected` (its codes were in force meanwhile, and may have been entered with)."""
    before = {p.table: p for p in old.round.pairings} if old is not None else {}
    return {p.table for p in corrected.pairings if before.get(p.table) != p}


def _unfinished(folder: Path, sheet: RoundSheet) -> bool:
    """`sheet`'s round is the latest drawn, its draw (the one the workbook holds) not complete yet."""
    draws = recorded_draws(folder)
    record = draws.get(sheet.round.number)
    return (record is not None and not record.done and sheet.round.number == max(draws)
            and same_draw(record.round, sheet.round))


def _carry_tables(book: Ledger, old: DrawRecord | None, draw_id: int, drawn: Round,
                  touched: set[int]) -> dict[int, str]:
    """`--redo`: the tables it did not change keep their entry codes (the cards on them stay good) and their
    phone entries; the tables it changed get new codes (the old ones stop working) and start with no entries. The
    round clock goes on as it was (the round's hour, not a table's)."""
    if old is not None:
        kept = {t: c for t, c in book.codes(old.id).items() if t not in touched}
        book.set_codes(draw_id, kept)
        book.carry_entries(old.id, draw_id, sorted(kept))
        book.carry_clock(old.id, draw_id)
    return table_codes(book, draw_id, drawn)


def _entries(match: MatchSheet) -> dict[str, object]:
    """A table's entries as logged when they are voided: the walkover, and each hand's fields."""
    import dataclasses
    import enum

    def plain(value: object) -> object:
        return value.name if isinstance(value, enum.Enum) else value

    hands = [{k: plain(v) for k, v in dataclasses.asdict(h).items()} for h in match.record.hands]
    return {"walkover": plain(match.walkover), "hands": hands}


def _later_rounds(folder: Path, book: Ledger, number: int) -> tuple[int, ...]:
    """Every round after `number` that has a draw in force or a workbook (`--redo number` voids them)."""
    draws = book.draws()
    return tuple(sorted({n for n in draws if n > number} | {n for n in range(number + 1, number + 8)
                                                             if round_path(folder, n).exists()}))


def _voided_by_redo(book: Ledger, number: int) -> list[int]:
    """The rounds after `number` whose draw a `--redo number` voided (a stopped run of it, say)."""
    return [n for n in range(number + 1, number + 8) if book.voided_rounds(n, f"--redo {number}")]


def _remove_later(folder: Path, later: Sequence[int]) -> None:
    """The workbooks of the rounds `--redo` voided removed (backed up before its recording)."""
    for n in reversed(later):
        try:
            round_path(folder, n).unlink(missing_ok=True)
        except OSError as exc:  # open in Excel on Windows: said; `draw --redo` again removes it
            raise files.CannotWrite(round_path(folder, n), exc) from None


def _void_later(book: Ledger, number: int) -> None:
    """The draw of every round after `number` voided in event.db (inside the redo's transaction)."""
    for n, record in sorted(book.draws().items(), reverse=True):
        if n > number:
            book.void_draw(record.id, f"--redo {number}")


def _backup(path: Path) -> Path:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = backup_name(path, stamp)
    n = 1
    while target.exists():  # a second re-draw within the same second keeps the earlier backup too
        n += 1
        target = backup_name(path, stamp, n)
    return files.write_bytes(target, files.read_user_file(path, files.WORKBOOK))  # atomic, like every output
