"""Scoring one round: each table from all its sources (its sheet, the phone entries attached to it, the 终局
cells) replayed by the engine, every problem at its cell, and who advances; the round as `score --json` gives it; a
sheet's fingerprint as `score` records it. Works on what `read_round` read and the entries attached to it: reads and
writes no file (it keeps the last scoring of each workbook, `_LAST_SCORED`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from shuangsheng.game.match import MatchResult, replay
from shuangsheng.game.rules import RuleSet
from shuangsheng.knockout.advance import advance
from shuangsheng.knockout.knockout import MatchOutcome, is_final
from shuangsheng.render.reports import MatchScore, RoundScore
from shuangsheng.storage import workbook
from shuangsheng.storage.workbook import MATCHES_SHEET, MatchSheet, Problem, RoundSheet
from shuangsheng.storage.workbook.round_reader import FinalCard
from shuangsheng.table import sources
from shuangsheng.table.sources import Source
from shuangsheng.table.state import EntryStatus
from shuangsheng.table.status import TableStatus, table_status
from shuangsheng.vocabulary.errors import Place


def score_match(match: MatchSheet, rules: RuleSet, phone: sources.PhoneTable | None = None) -> MatchScore:
    """One table scored from all its sources (`shuangsheng.table.sources`): the engine's replay of its hands, every problem
    at its cell, its status and where its record came from."""
    if match.final is not None and match.walkover is None:
        return _final_only(match, match.final, phone)
    if phone is not None and match.walkover is None and not (match.record.hands or match.problems):
        return _phone_only(match, phone)
    scored = _paper(match, rules)
    if phone is None or not phone.over or match.walkover is not None:
        return scored
    problems = scored.problems + sources.differences(match, phone) + sources.phone_problems(match, phone)
    status = table_status(scored.result, errors=bool(problems))
    return replace(scored, problems=problems, outcome=_outcome(match, status, scored.result, problems),
                   source=Source.BOTH, confirmed=phone.state.log.locked)


def _paper(match: MatchSheet, rules: RuleSet) -> MatchScore:
    result: MatchResult | None = None
    if match.walkover is not None or match.open:
        problems = match.problems
    elif match.problems:
        result, problems = _readable_part(match, rules)
    else:
        result = replay(match.record, rules)
        problems = workbook.match_problems(match, result)
    status = table_status(result, walkover=match.walkover is not None, errors=bool(problems))
    return MatchScore(match=match, result=result, outcome=_outcome(match, status, result, problems), problems=problems)


def _phone_only(match: MatchSheet, phone: sources.PhoneTable) -> MatchScore:
    """A table entered by phone only: its record once the match is over; open (进行中, with its levels) before."""
    result = phone.state.result
    problems = sources.phone_problems(match, phone)
    counted = phone.over or problems or phone.state.status is EntryStatus.NEEDS_PLAYOFF  # 时间到, tied: 需加赛
    status = table_status(result, errors=bool(problems)) if counted else TableStatus.OPEN
    outcome = _outcome(match, status, result, problems)
    if status is TableStatus.OPEN:
        outcome = replace(outcome, reason=f"扫码录分进行中，甲方{result.levels.a.label}级、乙方{result.levels.b.label}级")
    return MatchScore(match=match, result=result, outcome=outcome, problems=problems, source=Source.PHONE,
                      phone_hands=phone.hands, confirmed=phone.state.log.locked)


def _final_only(match: MatchSheet, card: FinalCard, phone: sources.PhoneTable | None) -> MatchScore:
    """A lost card's match: decided by its 终局 levels, unless the phone holds its hands too (then one record too
    many, at the 终局 cell)."""
    result = sources.final_result(card)
    problems: tuple[Problem, ...] = ()
    if phone is not None:
        problems = (Problem(Place(match.file, MATCHES_SHEET, card.cell),
                            f"第{match.table}桌已有扫码录分的{len(phone.hands)}局，又填了终局；终局只用于没有逐局记录的比赛，"
                            "请清空终局"),)
    status = table_status(result, errors=bool(problems))
    note = sources.final_note(card)
    outcome = _outcome(match, status, result, problems)
    return MatchScore(match=match, result=result, outcome=replace(outcome, reason=outcome.reason or note),
                      problems=problems, source=Source.FINAL_ONLY, note=note)


def _outcome(match: MatchSheet, status: TableStatus, result: MatchResult | None,
             problems: Sequence[Problem]) -> MatchOutcome:
    """The knockout's view of a table: its winner's team id, or why there is none yet."""
    p = match.pairing
    if status is TableStatus.WALKOVER:
        assert match.walkover is not None
        return MatchOutcome(p.table, status, p.team(match.walkover.other), f"{match.walkover.team}弃权")
    if status is TableStatus.INVALID:
        return MatchOutcome(p.table, status, reason=_errors_reason(problems))
    if status is TableStatus.NEEDS_PLAYOFF:
        assert result is not None
        return MatchOutcome(p.table, status, reason=f"双方同为{result.levels.a}级，请在加赛行记录加赛局")
    if status is TableStatus.OPEN:
        return MatchOutcome(p.table, status)
    assert result is not None and result.winner is not None
    return MatchOutcome(p.table, status, p.team(result.winner))


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


# The last scoring of each round workbook: the same sheet (as read: `read_round` gives the same object for the same
# content) under the same rules scores the same, and the rounds before the latest are scored again by every
# draw, award and bracket of a process (the demo draws seven rounds in one).
_LAST_SCORED: dict[Path, tuple[RoundSheet, RuleSet, RoundScore]] = {}


def score_round(sheet: RoundSheet, rules: RuleSet) -> RoundScore:
    """Every table of a round from all its sources: the sheet, the phone entries attached to it, the 终局 cells."""
    last = _LAST_SCORED.get(sheet.path)
    if last is not None and last[0] is sheet and last[1] == rules:  # entries attached make another sheet object
        return last[2]
    matches = tuple(score_match(m, rules, _phone(sheet, m, rules)) for m in sheet.matches)
    scored = RoundScore(sheet, matches, advance(sheet.round, [m.outcome for m in matches]))
    _LAST_SCORED[sheet.path] = (sheet, rules, scored)
    return scored


def _phone(sheet: RoundSheet, match: MatchSheet, rules: RuleSet) -> sources.PhoneTable | None:
    entries = sheet.entries.get(match.table)
    return sources.phone_table(match, entries, rules, sheet.round.number) if entries else None


def score_as_json(score: RoundScore) -> dict[str, object]:
    """docs/README.md (--json): {"round", "matches": [{"table", "A", "B", "levels", "status", "winner", "errors"}], "byes",
    "advancing"}, each of a match's "errors" the error object (`Issue.as_json`); while matches are undecided,
    "advancing" lists those known so far and "blockers" says why; in the final nobody advances ("advancing" is
    empty; the champion is the final's "winner")."""
    matches = []
    for m in score.matches:
        shown = m.result is not None and (m.result.outcomes or m.unchecked)
        levels = m.result.levels.as_json() if m.result is not None and shown else None
        matches.append(
            {
                "table": m.match.table,
                "A": m.match.pairing.a,
                "B": m.match.pairing.b,
                "levels": levels,
                "status": m.outcome.status.value,
                "winner": m.outcome.winner,
                "errors": [p.as_json() for p in m.problems],
                "source": m.source.value,
            }
        )
        if m.note:
            matches[-1]["note"] = m.note
    doc: dict[str, object] = {"round": score.round.number, "matches": matches, "byes": list(score.round.byes)}
    doc["advancing"] = [] if is_final(score.round) else list(score.advancement.advancing)  # the final: nobody goes on
    if not score.advancement.decided:
        doc["blockers"] = [b.message for b in score.advancement.blockers]
    return doc


def outcomes_by_round(scores: Sequence[RoundScore]) -> dict[int, tuple[MatchOutcome, ...]]:
    return {s.round.number: s.outcomes for s in scores}


def sheet_fingerprint(sheet: RoundSheet, name: str) -> str:
    """A match sheet's content as `score` read it (its cells): what the ledger records beside each outcome, and
    what the venue display compares to tell a scored table from one edited since."""
    import hashlib

    grid = sheet.grids.get(name)
    cells = sorted((k, str(v)) for k, v in grid.cells.items()) if grid is not None else []
    # sha256 of repr(sorted (cell, text) pairs), fed piece by piece: a text shared by thousands of cells is quoted
    # once, and the list's repr is never built whole.
    quoted: dict[str, bytes] = {}
    digest = hashlib.sha256(b"[")
    for i, (cell, text) in enumerate(cells):
        if text not in quoted:
            quoted[text] = repr(text).encode("utf-8")
        digest.update(b"%s(%s, %s)" % (b", " if i else b"", repr(cell).encode(), quoted[text]))
    digest.update(b"]")
    return digest.hexdigest()
