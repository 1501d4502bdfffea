"""Scoring one round: each table from all its sources (its sheet, the phone entries attached to it, the 终局
cells) replayed by the engine, every problem at its cell, and who advances; the round as `score --json` gives it; a
sheet's fingerprint as `score` records it. Works on what `read_round` read and the entries attached to it: reads and
writes no file, and keeps nothing: a reading of the folder scores each round once (`EventFolder.score_of`).
`score_match` is the one place a table's record (`shuangsheng.table.record.TableRecord`) is built."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.game.levels import START
from shuangsheng.game.match import MatchResult, replay
from shuangsheng.game.rules import RuleSet
from shuangsheng.knockout.advance import advance
from shuangsheng.knockout.knockout import MatchOutcome, Pairing, is_final
from shuangsheng.render.reports import MatchScore, RoundScore
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_file
from shuangsheng.storage.workbook import MATCHES_SHEET, MatchSheet, Problem, RoundSheet
from shuangsheng.storage.workbook.loading import Grid
from shuangsheng.storage.workbook.round_reader import FinalCard
from shuangsheng.storage.workbook.schema import sheet_name
from shuangsheng.table import sources
from shuangsheng.table.record import Playoff, Source, TableRecord
from shuangsheng.table.status import TableStatus, table_status
from shuangsheng.vocabulary.errors import Place


def score_match(match: MatchSheet, rules: RuleSet, phone: sources.PhoneTable | None = None) -> MatchScore:
    """One table scored from all its sources (`shuangsheng.table.sources`): the engine's replay of its hands, every
    problem at its cell, and its one record (`shuangsheng.table.record.TableRecord`), which every reader shows.
    Once the desk has ruled that the paper is the record (`sources.paper_rules`), the table is scored from its
    workbook alone (its sheet, or its 终局 cells) and the record says so; the phones' entries stay in event.db."""
    ruling = sources.paper_rules(phone)
    if ruling is not None:
        scored = score_match(match, rules)
        return replace(scored, record=replace(scored.record, paper_rules=ruling))
    if match.final is not None and match.walkover is None:
        return _final_only(match, match.final, phone)
    if phone is not None and match.walkover is None and not (match.record.hands or match.problems):
        return _phone_only(match, phone)
    result, problems = _paper(match, rules)
    if phone is None or not phone.over or match.walkover is not None:
        return _scored(match, result, problems)
    problems = problems + sources.differences(match, phone) + sources.phone_problems(match, phone)
    return _scored(match, result, problems, Source.BOTH, confirmed=phone.state.log.locked)


def blank_match(pairing: Pairing, number: int) -> MatchSheet:
    """A table's sheet with nothing typed: what the desk scores a table against before the workbook is read."""
    return MatchSheet(file=round_file(number), sheet=sheet_name(pairing.table), pairing=pairing,
                      record=MatchRecord((), START), rows=(), columns={}, header_row=None, walkover=None, problems=(),
                      extra_column=0)


def _paper(match: MatchSheet, rules: RuleSet) -> tuple[MatchResult | None, tuple[Problem, ...]]:
    if match.walkover is not None or match.open:
        return None, match.problems
    if match.problems:
        return _readable_part(match, rules)
    result = replay(match.record, rules)
    return result, workbook.match_problems(match, result)


def _phone_only(match: MatchSheet, phone: sources.PhoneTable) -> MatchScore:
    """A table entered by phone only: its record once the match is over (or tied when time was up: 需加赛, or
    wrong); open (进行中, with its levels) before."""
    result = phone.state.result
    problems = sources.phone_problems(match, phone)
    counted = phone.over or problems or phone.state.status is TableStatus.NEEDS_PLAYOFF
    status = table_status(result, errors=bool(problems)) if counted else TableStatus.OPEN
    reason = "" if counted else f"扫码录分进行中，甲方{result.levels.a.label}级、乙方{result.levels.b.label}级"
    return _scored(match, result, problems, Source.PHONE, status=status, reason=reason, phone_hands=phone.hands,
                   confirmed=phone.state.log.locked)


def _final_only(match: MatchSheet, card: FinalCard, phone: sources.PhoneTable | None) -> MatchScore:
    """A lost card's match: decided by its 终局 levels, unless the phone holds its hands too (then one record too
    many, at the 终局 cell)."""
    problems: tuple[Problem, ...] = ()
    if phone is not None:
        problems = (Problem(Place(match.file, MATCHES_SHEET, card.cell),
                            f"第{match.table}桌已有扫码录分的{len(phone.hands)}局，又填了终局；终局只用于没有逐局记录的比赛："
                            "请清空终局，或者（计分卡遗失、双方认可终局的级数时）在控制台的“更正”页（或裁判台）对这一桌"
                            "按“以纸质为准”并写明原因（docs/table-api.md 的 paper_rules），终局就是这一桌的成绩，"
                            "扫码录分的各局保留但不再计入"),)
    return _scored(match, sources.final_result(card), problems, Source.FINAL_ONLY, note=sources.final_note(card))


def _scored(match: MatchSheet, result: MatchResult | None, problems: tuple[Problem, ...],
            source: Source = Source.PAPER, *, status: TableStatus | None = None, reason: str = "", note: str = "",
            phone_hands: tuple[Hand, ...] = (), confirmed: bool = False) -> MatchScore:
    """The one place a table's record is put together: its status (unless given: a phone table still playing),
    winner, levels, 加赛, and why there is no winner yet."""
    if status is None:
        status = table_status(result, walkover=match.walkover is not None, errors=bool(problems))
    p = match.pairing
    outcomes = result.outcomes if result is not None else ()
    winner, why = _winner(match, status, result, problems)
    record = TableRecord(
        table=p.table, third_place=p.third_place, a=p.a, b=p.b, status=status, source=source,
        levels=result.levels if result is not None and (outcomes or source is Source.FINAL_ONLY) else None,
        winner=winner, forfeit=match.walkover,
        hands=sum(not o.playoff for o in outcomes), playoff_hands=sum(o.playoff for o in outcomes),
        tied_at_time=bool(result is not None and result.time_up is not None and result.time_up.tied),
        playoff=_playoff(status, result), problems=problems, reason=reason or why or note, note=note,
        confirmed=confirmed,
    )
    return MatchScore(match=match, result=result, record=record, phone_hands=phone_hands)


def _winner(match: MatchSheet, status: TableStatus, result: MatchResult | None,
            problems: Sequence[Problem]) -> tuple[str | None, str]:
    """A table's winner's team id, or why there is none yet."""
    p = match.pairing
    if status is TableStatus.WALKOVER:
        assert match.walkover is not None
        return p.team(match.walkover.other), f"{match.walkover.team}弃权"
    if status is TableStatus.INVALID:
        return None, _errors_reason(problems)
    if status is TableStatus.NEEDS_PLAYOFF:
        assert result is not None
        return None, f"双方同为{result.levels.a}级，请在加赛行记录加赛局"
    if status is TableStatus.OPEN:
        return None, ""
    assert result is not None and result.winner is not None
    return p.team(result.winner), ""


def _playoff(status: TableStatus, result: MatchResult | None) -> Playoff | None:
    if status is not TableStatus.NEEDS_PLAYOFF:
        return None
    assert result is not None and result.next_dealer is not None
    return Playoff(result.levels.a, result.next_dealer, sum(o.playoff for o in result.outcomes))


def _readable_part(match: MatchSheet, rules: RuleSet) -> tuple[MatchResult | None, tuple[Problem, ...]]:
    """A sheet the reader found problems in: the hands above the first bad row are still replayed, so a wrong
    dealer or a hand after the end there is listed too — every problem of the sheet, in row order."""
    header = match.header_row
    if header is None:
        return None, match.problems
    bad_rows = [p.row for p in match.problems if p.sheet == match.sheet and p.row is not None and p.row > header]
    first_bad = min(bad_rows, default=None)
    hands = tuple(h for h, row in zip(match.record.hands, match.rows, strict=True) if first_bad is None or row < first_bad)
    if not hands:
        return None, match.problems
    result = replay(replace(match.record, hands=hands), rules)
    found = match.problems + tuple(match.locate(e) for e in result.errors)
    return result, tuple(sorted(found, key=lambda q: (q.sheet == match.sheet, q.order())))


def _errors_reason(problems: Sequence[Problem]) -> str:
    """'2处错误：round-1.xlsx 第3桌!D9、round-1.xlsx 第3桌!E12' — where to look, wherever the reason is shown."""
    shown = "、".join(p.where for p in problems[:3])
    return f"{len(problems)}处错误：{shown}{'等' if len(problems) > 3 else ''}"


def score_round(sheet: RoundSheet, rules: RuleSet) -> RoundScore:
    """Every table of a round from all its sources: the sheet, the phone entries attached to it, the 终局 cells."""
    matches = tuple(score_match(m, rules, _phone(sheet, m, rules)) for m in sheet.matches)
    return RoundScore(sheet, matches, advance(sheet.round, [m.outcome for m in matches]))


def _phone(sheet: RoundSheet, match: MatchSheet, rules: RuleSet) -> sources.PhoneTable | None:
    entries = sheet.entries.get(match.table)
    return sources.phone_table(match, entries, rules, sheet.round.number) if entries else None


def score_as_json(score: RoundScore) -> dict[str, object]:
    """docs/README.md (--json): {"round", "matches": [{"table", "A", "B", "levels", "status", "winner", "errors",
    "source"}], "byes", "advancing"} (a match also "note" for a lost card's 终局 cells, "paper_rules" once the desk gave
    its record to the paper), each of a match's "errors" the error object (`Issue.as_json`); while matches are undecided,
    "advancing" lists those known so far and "blockers" says why; in the final nobody advances ("advancing" is
    empty; the champion is the final's "winner")."""
    matches = []
    for m in score.matches:
        r = m.record
        matches.append(
            {
                "table": r.table,
                "A": r.a,
                "B": r.b,
                "levels": r.levels.as_json() if r.levels is not None else None,
                "status": r.status.value,
                "winner": r.winner,
                "errors": [p.as_json() for p in r.problems],
                "source": r.source.value,
            }
        )
        if r.note:
            matches[-1]["note"] = r.note
        if r.paper_rules is not None:  # the phones' entries overruled by the desk: kept in event.db, not counted
            matches[-1]["paper_rules"] = r.paper_rules.as_json()
    doc: dict[str, object] = {"round": score.round.number, "matches": matches, "byes": list(score.round.byes)}
    doc["advancing"] = [] if is_final(score.round) else list(score.advancement.advancing)  # the final: nobody goes on
    if not score.advancement.decided:
        doc["blockers"] = [b.message for b in score.advancement.blockers]
    return doc


def outcomes_by_round(scores: Sequence[RoundScore]) -> dict[int, tuple[MatchOutcome, ...]]:
    return {s.round.number: s.outcomes for s in scores}


def sheet_fingerprint(sheet: RoundSheet, name: str) -> str:
    """A match sheet's content as `score` read it (its cells): what the ledger records beside each outcome, and
    what the venue display compares to tell a scored table from one edited since (`Grid.fingerprint`; a sheet
    missing from the workbook has the fingerprint of no cells)."""
    grid = sheet.grids.get(name)
    return grid.fingerprint() if grid is not None else Grid.fingerprint_of({})
