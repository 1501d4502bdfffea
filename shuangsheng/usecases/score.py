"""`score`: a round scored from all its sources (and, with `--verify`, compared cell by cell with a second entry),
its outcomes recorded in event.db with the rules in force, and its checked copy round-N-checked.xlsx written
(`write_checked_copy`). `--accept-rules` records rounds scored before [rules] changed as scored under the current
rules. Reads the folder; writes event.db and the checked copy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from shuangsheng.game.rules import RuleSet
from shuangsheng.render.reports import RoundScore, ScoreReport
from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.generated import check_regenerable, is_generated, write_generated
from shuangsheng.storage.ledger.records import DrawRecord, ScoredRecord
from shuangsheng.storage.names import checked_path, copies_beside, round_path, rounds_drawn
from shuangsheng.storage.workbook import RoundSheet
from shuangsheng.storage.workbook import verify as double_entry
from shuangsheng.storage.workbook.phone import with_phone_hands
from shuangsheng.storage.workbook.verify import Verification
from shuangsheng.table.record import Source
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.draw import read_if_there
from shuangsheng.usecases.folder import (
    EventFolder,
    TournamentError,
    open_folder,
    recorded_draws,
    redo_hint,
    same_draw,
    verify_copies,
)
from shuangsheng.usecases.scoring import score_round, sheet_fingerprint
from shuangsheng.vocabulary.errors import Issue
from shuangsheng.vocabulary.text import command_line


def score(folder: Path, number: int | None = None, *, verify: Path | None = None,
          accept_rules: bool = False, known: Sequence[RoundSheet] = ()) -> ScoreReport:
    """Score round `number` (default: the latest); with `verify`, compare it cell by cell with that second,
    independent entry of the same round; with `accept_rules`, rounds scored before [rules] changed are scored
    again under the current rules (logged). The outcomes are recorded in event.db; the files are written by
    `write_checked_copy` and the papers. `known`: rounds the command has read already (`open_folder`)."""
    drawn = rounds_drawn(folder)
    up_to = number if number and number <= drawn else None
    if accept_rules:
        before = open_folder(folder, up_to=up_to, known=known)
        _accept_rules(before)
        known = before.rounds
    state = open_folder(folder, up_to=up_to, known=known)
    return score_in(state, number, verify=verify)


def _accept_rules(state: EventFolder) -> None:
    """`score --accept-rules`: each round the change alters is recorded as scored under the current rules."""
    if not state.rules_changes:
        return
    draws = recorded_draws(state.path)
    with Ledger.open(state.path) as book:
        for change in state.rules_changes:
            sheet = state.rounds[change.number - 1]
            book.log("accept_rules", round=change.number, tables=list(change.tables),
                     before=change.recorded.as_mapping(), after=state.rules.as_mapping())
            _record_scored(book, draws[change.number].id, sheet, score_round(sheet, state.rules), state.rules)


def _record_scored(book: Ledger, draw_id: int, sheet: RoundSheet, scored: RoundScore, rules: RuleSet) -> None:
    outcomes = [(m.match.table, m.outcome.status.value, m.outcome.winner, sheet_fingerprint(sheet, m.match.sheet))
                for m in scored.matches]
    book.record_scored(draw_id, rules=rules.as_mapping(), workbook=sheet.sha256, outcomes=outcomes)


def score_in(state: EventFolder, number: int | None = None, *, verify: Path | None = None) -> ScoreReport:
    """`score` on a folder already open."""
    folder = state.path
    if not state.rounds:
        raise TournamentError([Issue.of_file(folder, f"还没有抽签（没有 round-1.xlsx），请先运行 {command_line('draw', folder)}")])
    number = number or len(state.rounds)
    if not 1 <= number <= len(state.rounds):
        have = "只有第1轮" if len(state.rounds) == 1 else f"已有第1–{len(state.rounds)}轮"
        raise TournamentError([Issue.of_file(folder, f"没有第{number}轮（{have}）")])
    sheet = state.rounds[number - 1]
    verification = verify_entry(sheet, verify) if verify is not None else None
    if verify is not None:
        with Ledger.open(folder) as book:
            book.log("verify", round=number, file=Path(verify).name)
    rules = state.rules_for(number)
    scored = state.score_of(number)
    draws = recorded_draws(folder)
    if number in draws and same_draw(draws[number].round, sheet.round) and not nothing_entered(scored):
        with Ledger.open(folder) as book:
            _record_scored(book, draws[number].id, sheet, scored, rules)
    correction = _correction_note(folder, scored, _later_pool(folder, number), state.digits)
    earlier = _earlier_changes(state, number, draws) if number == len(state.rounds) else []
    notes = [*state.notes, *earlier, *_copies_note(sheet, verify), *correction]
    return ScoreReport(
        score=scored, checked=checked_path(sheet.path), teams=state.team_map, event=state.event, digits=state.digits,
        verification=verification, notes=tuple(notes), rules_held=bool(state.rules_changes),
        redo=number + 1 if correction else None,
        field=draws[1].field if number == 1 and 1 in draws else None,
    )


def nothing_entered(scored: RoundScore) -> bool:
    """No table of the round has anything yet: no hand (on paper or by phone), no walkover, no problem."""
    return bool(scored.matches) and all(m.outcome.status is TableStatus.OPEN and m.result is None and not m.problems
                                        for m in scored.matches)


def _earlier_changes(state: EventFolder, number: int, draws: Mapping[int, DrawRecord]) -> list[str]:
    """Scoring the latest round: each earlier round changed since it was last scored (a sheet's cells, a phone
    record, a table's outcome) named, with the command that takes the change in (which names `--redo` when the
    change sends other teams on)."""
    book = Ledger.readable(state.path)
    if book is None:
        return []
    with book:
        records = {n: book.last_scored(draws[n].id) for n in range(1, number) if n in draws}
    notes = []
    for sheet in state.rounds[: number - 1]:
        n = sheet.round.number
        record = records.get(n)
        if record is None or not same_draw(draws[n].round, sheet.round):
            continue
        scored = state.score_of(n)  # once per reading: the demo's every round reads the rounds before it again
        later = state.rounds[n].round.pool
        if tables := changed_tables(scored, record):
            notes.append(_changed_note(state.path, scored, tables, record.at, later))
        elif scored.advancement.decided and set(scored.advancement.advancing) != set(later):
            notes.append(redo_hint(state.path, n + 1, later, scored.advancement.advancing, state.digits))  # scored, not carried on
    return notes


def changed_tables(scored: RoundScore, record: ScoredRecord) -> tuple[int, ...]:
    """The tables whose sheet or outcome differs from what `score` recorded for the round."""
    changed = []
    for m in scored.matches:
        table = m.match.table
        fingerprint = record.sheets.get(table)
        now = sheet_fingerprint(scored.sheet, m.match.sheet)
        if (fingerprint is not None and fingerprint != now) or \
                record.outcomes.get(table) != (m.outcome.status.value, m.outcome.winner):
            changed.append(table)
    return tuple(changed)


def _changed_note(folder: Path, scored: RoundScore, tables: Sequence[int], at: str, later: Sequence[str]) -> str:
    n = scored.round.number
    said = (f"注意：第{n}轮第{'、'.join(str(t) for t in tables)}桌在上次计分（{at[:16].replace('T', ' ')}）之后改过"
            f"（记分表或扫码录分），第{n}轮的成绩还没有按改过的计算：请运行 {command_line('score', folder, '--round', n)}")
    adv = scored.advancement
    if adv.decided and set(adv.advancing) != set(later):
        said += f"；改过之后晋级的组与第{n + 1}轮抽签时不同，计分后它会提示运行 {command_line('draw', folder, '--redo', n + 1)}"
    return said


def _later_pool(folder: Path, number: int) -> tuple[str, ...] | None:
    """The pool round `number + 1` was drawn with, if it was drawn (event.db, or its workbook)."""
    draws = recorded_draws(folder)
    if number + 1 in draws:
        return draws[number + 1].round.pool
    try:
        sheet = read_if_there(round_path(folder, number + 1))
    except TournamentError:
        return None
    return sheet.round.pool if sheet is not None else None


def _correction_note(folder: Path, scored: RoundScore, later: tuple[str, ...] | None, digits: int) -> list[str]:
    adv = scored.advancement
    if later is None or not adv.decided or set(adv.advancing) == set(later):
        return []
    return [redo_hint(folder, scored.round.number + 1, later, adv.advancing, digits)]


def _copies_note(sheet: RoundSheet, verify: Path | None) -> list[str]:
    """Nothing entered in round-N.xlsx while a copy saved under another name sits beside it: the hands were
    probably typed into that one."""
    if not all(m.open for m in sheet.matches):
        return []
    folder, name = sheet.path.parent, sheet.path.name
    besides = [*verify_copies(folder), *([verify] if verify is not None else [])]
    if not (copies := copies_beside(folder, sheet.round.number, besides=besides)):
        return []
    return [f"注意：{name} 里还没有录入任何一局，而文件夹里还有 {'、'.join(copies)}。如果成绩录在那份里，请把空白的 "
            f"{name} 移走，再把那份改名为 {name}；如果那是第二个人的核对录入，请用 --verify 给出它"]


def verify_entry(sheet: RoundSheet, other: Path) -> Verification:
    """Double entry: `sheet` against a second, independent transcription of the same round."""
    name = sheet.path.name
    beside = sheet.path.parent / other
    if not Path(other).is_absolute() and not Path(other).exists() and beside.is_file():
        other = beside  # a bare name typed for a copy kept in the event folder, run from elsewhere
    if double_entry.same_file(other, sheet.path):  # the path itself, a link, or a hard link to it
        raise TournamentError([Issue.of_file(other, f"这就是 {name} 本身（同一个文件）；--verify 要给第二个人独立录入的另一份文件")])
    try:
        theirs = workbook.read_round(other)
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None
    try:
        return double_entry.compare(sheet, theirs)
    except double_entry.NotTheSameRound:
        raise TournamentError([Issue.of_file(
            other, f"对阵与 {name} 不同，不是同一轮、同一次抽签的另一份录入；"
                   f"请把 draw 生成的空白 {name} 复制一份，让第二个人在复制的那份里录入"
        )]) from None


def write_checked_copy(report: ScoreReport, *, force: bool = False) -> Path:
    """round-N-checked.xlsx beside the round workbook: replaced freely while it is exactly what we last wrote,
    kept (OutputExists) once a person edited it, unless `force`."""
    results = {m.match.table: m.result for m in report.score.matches if m.result is not None}
    check_regenerable(report.checked, force=force)  # before the work of building it
    copy = workbook.checked_copy(whole_record(report.score), results)
    if is_generated(report.checked) and workbook.made_from(report.checked) == copy.source:
        return report.checked  # already this copy, as the program wrote it: not written again
    return write_generated(report.checked, copy.xlsx(), force=force)


def whole_record(score: RoundScore) -> RoundSheet:
    """The round as the checked copy shows it: the phone's hands typed into the sheets of tables entered by phone,
    and the problems found between sources (paper and phone disagreeing) on their sheets."""
    hands = {m.match.table: m.phone_hands for m in score.matches if m.source is Source.PHONE}
    sheet = with_phone_hands(score.sheet, hands) if hands else score.sheet
    extra = {m.match.table: tuple(p for p in m.problems if p not in workbook.match_problems(m.match, m.result))
             for m in score.matches if m.source is Source.BOTH}
    if not any(extra.values()):
        return sheet
    return replace(sheet, matches=tuple(replace(match, problems=match.problems + extra.get(match.table, ()))
                                        for match in sheet.matches))
