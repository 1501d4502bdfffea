"""`score` as the command runs it, as one record: the round scored, its checked copy written (or kept because a
person edited it, or not writable), the round's papers written by the writer passed in (shuangsheng/usecases/papers/score.py, so
that this module stays free of reportlab), and what was not written and why. Writes files (through its writers)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.render.report import edited_checked_copy
from shuangsheng.render.reports import ScoreReport
from shuangsheng.render.results import NextStep, round_results
from shuangsheng.storage.files import OutputExists, Written
from shuangsheng.storage.ledger.connection import kept_open
from shuangsheng.usecases import score
from shuangsheng.usecases.scoring import score_as_json
from shuangsheng.vocabulary.errors import Issue, UserError


@dataclass(frozen=True)
class NotWritten:
    """An output left as it was, and why (the writer's issues: which file, what refused it)."""

    what: str  # 检查副本, 本轮成绩/加赛单
    reasons: tuple[Issue, ...]

    def lines(self) -> list[str]:
        """The terminal's lines: the first reason after what was not written."""
        first, *rest = [str(reason) for reason in self.reasons] or [""]
        return [f"{self.what}没有更新：{first}", *rest]

    def as_json(self) -> list[dict[str, object]]:
        """`score --json`'s "errors": each reason as the error object, its message after what was not written."""
        return [reason.as_json() | {"message": f"{self.what}没有更新：{reason.message}"}
                for reason in self.reasons or (Issue.plain(""),)]


@dataclass(frozen=True, kw_only=True)
class ScoreStep:
    report: ScoreReport
    checked: Path | None  # the checked copy written now; None when kept or not writable
    checked_edited: bool  # kept: a person changed it since we wrote it (and no --force)
    papers: tuple[Path, ...]
    warnings: tuple[str, ...]  # the papers' (fonts: a name the font cannot print)
    not_written: tuple[NotWritten, ...]
    next_step: NextStep
    empty: bool = False  # nothing entered at any table yet: nothing written, nothing recorded

    @property
    def book(self) -> str:
        return self.report.score.sheet.path.name

    @property
    def failed(self) -> bool:
        """Exit 1: the round has problems, an output was not written, a second entry disagrees, or a [rules]
        change would alter a scored round and was not accepted."""
        verification = self.report.verification
        return bool(self.report.score.problems or self.not_written or self.report.rules_held
                    or (verification is not None and not verification.agree))


def score_and_write(folder: Path, number: int | None = None, *, verify: Path | None = None, force: bool = False,
                    accept_rules: bool = False, write_papers: Callable[[ScoreReport], Written]) -> ScoreStep:
    """Score round `number` (default: the latest) and write what comes of it (`accept_rules`: see
    shuangsheng.usecases.score.score). Raises UserError only when the round cannot be scored at all; a file that cannot be written
    is recorded in `not_written`. event.db is opened once for all of it (`kept_open`), not by each step."""
    with kept_open(folder):
        return _score_and_write(folder, number, verify=verify, force=force, accept_rules=accept_rules,
                                write_papers=write_papers)


def _score_and_write(folder: Path, number: int | None, *, verify: Path | None, force: bool, accept_rules: bool,
                     write_papers: Callable[[ScoreReport], Written]) -> ScoreStep:
    report = score.score(folder, number, verify=verify, accept_rules=accept_rules)
    if verify is None and score.nothing_entered(report.score):
        next_step = round_results(report.score, report.teams, None, digits=report.digits).next_step
        return ScoreStep(report=report, checked=None, checked_edited=False, papers=(), warnings=(), not_written=(),
                         next_step=next_step, empty=True)
    checked: Path | None = None
    edited = False
    not_written: list[NotWritten] = []
    try:
        checked = score.write_checked_copy(report, force=force)
    except OutputExists:  # somebody edited the checked copy: kept, and that alone is not an input error
        edited = True
    except UserError as exc:  # e.g. the checked copy is open in Excel/WPS
        not_written.append(NotWritten("检查副本", exc.issues))
    paths: Sequence[Path] = ()
    warnings: Sequence[str] = ()
    try:
        papers = write_papers(report)
        paths, warnings = papers.paths, papers.warnings
    except UserError as exc:  # a PDF open in a viewer, or one a person changed (kept unless --force)
        not_written.append(NotWritten("本轮成绩/加赛单", exc.issues))
    next_step = round_results(report.score, report.teams, report.verification, digits=report.digits).next_step
    return ScoreStep(report=report, checked=checked, checked_edited=edited, papers=tuple(paths), warnings=tuple(warnings),
                     not_written=tuple(not_written), next_step=next_step)


def score_step_json(step: ScoreStep, folder: Path) -> dict[str, object]:
    """`score --json` (docs/README.md): the round, plus "errors" (error objects) for outputs not written, "warnings"
    for a kept checked copy, and "verify" for a second entry."""
    report = step.report
    doc = score_as_json(report.score)
    if step.empty:
        doc["empty"] = True
    if step.not_written:
        errors = doc.setdefault("errors", [])
        assert isinstance(errors, list)
        errors.extend(error for item in step.not_written for error in item.as_json())
    warnings = [edited_checked_copy(report.checked, step.book, folder)] if step.checked_edited else []
    if warnings or report.notes:
        doc["warnings"] = [*warnings, *report.notes]
    if (checked := report.verification) is not None:
        doc["verify"] = {"file": checked.other, "agree": checked.agree, "differences": [
            {"where": d.where, "ours": d.ours, "theirs": d.theirs} for d in checked.differences]}
    return doc
