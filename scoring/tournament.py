"""An event folder on disk: event.toml, teams.xlsx and the round workbooks, and what they add up to.

The commands `draw`, `score` and `awards` are one call each into this module. It reads through
`scoring.workbook`, scores through the engine and decides through `scoring.knockout`; it never re-implements a rule.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from scoring import event as event_file
from scoring import files, knockout, workbook
from scoring.bracket import Bracket
from scoring.bracket import build as build_bracket
from scoring.errors import Issue, UserError, located
from scoring.event import Event
from scoring.knockout import Advancement, MatchOutcome, Placings, Round
from scoring.match import MatchResult, replay
from scoring.rules import RuleSet, TieBreak
from scoring.status import TableStatus, table_status
from scoring.teams import Team
from scoring.text import command_line
from scoring.workbook import MATCHES_SHEET, MatchSheet, Problem, RoundSheet
from scoring.workbook import verify as double_entry
from scoring.workbook.verify import Verification

TEAMS_FILE = "teams.xlsx"


class TournamentError(UserError, ValueError):
    """Something in the folder stops the command: every `Issue` found, all of them (with a heading, details and
    a hint when the error has them)."""


ROUND_PREFIX, ROUND_SUFFIX = "round-", ".xlsx"


def round_file(number: int) -> str:
    """The name of round `number`'s workbook: round-1.xlsx (its checked copy and backups add to the stem)."""
    return f"{ROUND_PREFIX}{number}{ROUND_SUFFIX}"


def round_number(name: str) -> int | None:
    """12 for round-12.xlsx; None for any other name (round-1-checked.xlsx, a backup, round-x.xlsx)."""
    if not (name.startswith(ROUND_PREFIX) and name.endswith(ROUND_SUFFIX)):
        return None
    digits = name[len(ROUND_PREFIX):-len(ROUND_SUFFIX)]
    return int(digits) if digits.isascii() and digits.isdigit() else None


def round_files(folder: Path) -> list[Path]:
    """Every round workbook in the folder by its name (round-N.xlsx), in round order, gaps included."""
    found = [p for p in folder.glob(f"{ROUND_PREFIX}*{ROUND_SUFFIX}") if round_number(p.name) is not None]
    return sorted(found, key=lambda p: round_number(p.name) or 0)


def round_path(folder: Path, number: int) -> Path:
    return folder / round_file(number)


def rounds_drawn(folder: Path) -> int:
    """How many round workbooks there are, from round-1.xlsx on without a gap."""
    number = 0
    while round_path(folder, number + 1).exists():
        number += 1
    return number


# --- scoring one round ---


@dataclass(frozen=True)
class MatchScore:
    match: MatchSheet
    result: MatchResult | None  # None for a walkover, an open sheet or an unreadable one
    outcome: MatchOutcome
    problems: tuple[Problem, ...]  # the reader's and the engine's, each at its cell


@dataclass(frozen=True)
class RoundScore:
    sheet: RoundSheet
    matches: tuple[MatchScore, ...]
    advancement: Advancement

    @property
    def round(self) -> Round:
        return self.sheet.round

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(p for m in self.matches for p in m.problems)

    @property
    def outcomes(self) -> tuple[MatchOutcome, ...]:
        return tuple(m.outcome for m in self.matches)


def score_match(match: MatchSheet, rules: RuleSet) -> MatchScore:
    """One table scored: the engine's replay of its hands, every problem at its cell, and its status."""
    result: MatchResult | None = None
    if match.walkover is not None or match.open:
        problems = match.problems
    elif match.problems:
        result, problems = _readable_part(match, rules)
    else:
        result = replay(match.record, rules)
        problems = workbook.match_problems(match, result)
    status = table_status(result, walkover=match.walkover is not None, errors=bool(problems))
    return MatchScore(match, result, _outcome(match, status, result, problems), problems)


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


def score_round(sheet: RoundSheet, rules: RuleSet) -> RoundScore:
    matches = tuple(score_match(m, rules) for m in sheet.matches)
    return RoundScore(sheet, matches, knockout.advance(sheet.round, [m.outcome for m in matches]))


def score_as_json(score: RoundScore) -> dict[str, object]:
    """docs/README.md (--json): {"round", "matches": [{"table", "A", "B", "levels", "status", "winner", "errors"}], "byes",
    "advancing"}; while matches are undecided, "advancing" lists those known so far and "blockers" says why."""
    matches = []
    for m in score.matches:
        levels = m.result.levels.as_json() if m.result is not None and m.result.outcomes else None
        matches.append(
            {
                "table": m.match.table,
                "A": m.match.pairing.a,
                "B": m.match.pairing.b,
                "levels": levels,
                "status": m.outcome.status.value,
                "winner": m.outcome.winner,
                "errors": [str(p) for p in m.problems],
            }
        )
    doc: dict[str, object] = {"round": score.round.number, "matches": matches, "byes": list(score.round.byes)}
    doc["advancing"] = list(score.advancement.advancing)
    if not score.advancement.decided:
        doc["blockers"] = [b.message for b in score.advancement.blockers]
    return doc


# --- the folder ---


@dataclass(frozen=True)
class EventFolder:
    path: Path
    event: Event
    teams: tuple[Team, ...]
    rounds: tuple[RoundSheet, ...]

    @property
    def rules(self) -> RuleSet:
        return self.event.rules

    @property
    def team_map(self) -> dict[str, Team]:
        return {t.id: t for t in self.teams}

    def scores(self) -> list[RoundScore]:
        return [score_round(sheet, self.rules) for sheet in self.rounds]

    def with_round(self, sheet: RoundSheet) -> EventFolder:
        """The folder with one more round, read once by whoever wrote it (the demo, round after round)."""
        return replace(self, rounds=(*self.rounds, sheet))


def open_folder(folder: Path, *, up_to: int | None = None) -> EventFolder:
    """Read event.toml, teams.xlsx and round-1.xlsx, round-2.xlsx, … (in order, up to the first missing one, or
    only up to round `up_to`: scoring a round needs neither the rounds after it nor their reading time)."""
    problems: list[Issue] = []
    event = None
    if (missing := event_file.missing_folder(folder)) is not None:
        raise TournamentError([missing])
    try:
        event = event_file.load(folder)
    except event_file.EventError as exc:
        problems.extend(exc.issues)
    teams: tuple[Team, ...] = ()
    teams_path = folder / TEAMS_FILE
    if not teams_path.exists():
        problems.append(Issue.of_file(teams_path, f"找不到报名表，请先运行 {command_line('init', folder)} 并填写报名表"))
    else:
        try:
            teams = workbook.read_teams(teams_path)
        except workbook.WorkbookError as exc:
            problems.extend(exc.issues)
    rounds: list[RoundSheet] = []
    number = 1
    while round_path(folder, number).exists():
        if up_to is None or number <= up_to:
            try:
                rounds.append(workbook.read_round(round_path(folder, number)))
            except workbook.WorkbookError as exc:
                problems.extend(exc.issues)
        number += 1
    strays = [p.name for p in round_files(folder) if (round_number(p.name) or 0) > number]
    if strays:
        problems.append(Issue.of_file(folder, f"缺少 {round_file(number)}，却有 {'、'.join(strays)}；轮次文件应从 round-1 起连续"))
    if problems:
        raise TournamentError(problems)
    assert event is not None
    problems.extend(_draw_problems(rounds))
    if problems:
        raise TournamentError(problems)
    return EventFolder(folder, event, teams, tuple(rounds))


def _draw_problems(rounds: Sequence[RoundSheet]) -> list[Issue]:
    """Each round drawn by seed must come out the same when drawn again from its stored seed and list."""
    problems: list[Issue] = []
    for i, sheet in enumerate(rounds):
        r = sheet.round
        if r.seed is None:
            continue
        third = next(((p.a, p.b) for p in r.pairings if p.third_place), None)
        byes = knockout.byes_so_far([s.round for s in rounds[:i]])
        try:
            again = knockout.draw_round(
                r.number, r.pool, seed=r.seed, byes=len(r.byes), previous_byes=byes, third_place_match=third
            )
        except knockout.KnockoutError as exc:
            problems.extend(located(exc.issues, sheet.path.name, MATCHES_SHEET))
            continue
        if (again.pairings, again.byes) != (r.pairings, r.byes):
            problems.append(Issue.of_cell(
                sheet.path.name, MATCHES_SHEET, None, f"按表中的随机种子 {r.seed} 和抽签名单重抽，结果与表中的对阵不同；"
                "对阵表可能被改动过，请核对或重新抽签（draw --force）"
            ))
    return problems


def outcomes_by_round(scores: Sequence[RoundScore]) -> dict[int, tuple[MatchOutcome, ...]]:
    return {s.round.number: s.outcomes for s in scores}


def _format(event: Event) -> dict[str, object]:
    """The knockout's `[format]` options, as keyword arguments."""
    return {"third_place": event.third_place, "byes": event.byes}


def rules_note(rules: RuleSet) -> str:
    must = "、".join(m.label for m in rules.must_play)
    tie = "加赛，直至分出胜负" if rules.tie_break is TieBreak.PLAYOFF else "判最后一局的庄家胜"
    return f"每场{rules.match_minutes}分钟，时间到打完本副牌按级数判胜负；级数相同{tie}。必打级：{must}。"


# --- draw ---


@dataclass(frozen=True)
class DrawReport:
    round: Round
    path: Path
    seed_generated: bool
    backup: Path | None
    title: str
    note: str | None
    teams: Mapping[str, Team]
    event: Event
    lots: Path | None = None  # the paper lots file the round was drawn from


def draw_next(folder: Path, *, seed: int | None = None, lots: Path | None = None, force: bool = False) -> DrawReport:
    """Draw the next round into round-N.xlsx. With the last round not decided, refuse naming every match — or,
    with `force`, draw the last round again (the old workbook is kept as a backup)."""
    return draw_in(open_folder(folder), seed=seed, lots=lots, force=force)


def draw_in(state: EventFolder, *, seed: int | None = None, lots: Path | None = None, force: bool = False) -> DrawReport:
    """`draw_next` on a folder already open."""
    folder = state.path
    scores = state.scores()
    rounds = [s.round for s in scores]
    ids = [t.id for t in state.teams]
    redraw: int | None = None  # the round drawn again (its workbook is backed up once the new draw succeeded)
    try:
        nxt = knockout.next_round(ids, rounds, outcomes_by_round(scores), **_format(state.event))
    except knockout.RoundNotDecided as exc:
        if not force:
            last = round_path(folder, exc.number)
            hint = (
                f"如要作废并重新抽第{exc.number}轮，请加 --force（原文件 {last.name} 会另存为备份）"
                if all(b.status is TableStatus.OPEN for b in exc.blockers)
                else f"请先在 {last.name} 中补全或改正这些比赛，再运行 {command_line('score', folder)}"
            )
            blocked = next(s for s in scores if s.round.number == exc.number)
            raise TournamentError(exc.issues, heading=exc.heading, details=blocked.problems, hint=hint) from None
        rounds.pop()
        scores.pop()
        nxt = knockout.next_round(ids, rounds, outcomes_by_round(scores), **_format(state.event))
        redraw = exc.number
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    if nxt is None:
        raise TournamentError([f"决赛（第{len(rounds)}轮）已经抽签，没有下一轮了；比赛结束后请运行 {command_line('awards', folder)}"])
    generated = seed is None and lots is None
    try:
        if lots is not None:
            drawn = nxt.from_lots(workbook.read_lots(lots))
        else:
            drawn = nxt.draw(seed if seed is not None else knockout.new_seed())
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    path = round_path(folder, drawn.number)
    backup = _backup(round_path(folder, redraw)) if redraw is not None else None  # only once nothing can fail
    workbook.write_round(path, drawn, state.team_map, rules_note=rules_note(state.rules), force=backup is not None)
    note = knockout.prize_note(drawn, state.event.third_place)
    return DrawReport(drawn, path, generated, backup, nxt.title, note, state.team_map, state.event, lots)


def _backup(path: Path) -> Path:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.备份-{stamp}{path.suffix}")
    n = 1
    while target.exists():  # a second re-draw within the same second keeps the earlier backup too
        n += 1
        target = path.with_name(f"{path.stem}.备份-{stamp}-{n}{path.suffix}")
    return files.write_bytes(target, files.read_user_file(path, files.WORKBOOK))  # atomic, like every output


# --- score ---


@dataclass(frozen=True)
class ScoreReport:
    score: RoundScore
    checked: Path  # where the checked copy goes (written by `write_checked_copy`)
    teams: Mapping[str, Team]
    event: Event
    verification: Verification | None = None  # `score --verify`: the comparison with a second entry


def score(folder: Path, number: int | None = None, *, verify: Path | None = None) -> ScoreReport:
    """Score round `number` (default: the latest); with `verify`, compare it cell by cell with that second,
    independent entry of the same round. Nothing is written; see `write_checked_copy`."""
    drawn = rounds_drawn(folder)
    state = open_folder(folder, up_to=number if number and number <= drawn else None)
    return score_in(state, number, verify=verify)


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
    return ScoreReport(
        score_round(sheet, state.rules), workbook.checked_path(sheet.path), state.team_map, state.event, verification
    )


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
    files.check_regenerable(report.checked, force=force)
    results = {m.match.table: m.result for m in report.score.matches if m.result is not None}
    workbook.write_checked(report.checked, report.score.sheet, results, force=True)
    files.record_generated(report.checked)
    return report.checked


# --- awards ---


def awards(folder: Path) -> tuple[Placings, EventFolder]:
    return awards_in(open_folder(folder))


def awards_in(state: EventFolder) -> tuple[Placings, EventFolder]:
    """`awards` on a folder already open."""
    scores = state.scores()
    try:
        placings = knockout.placings([s.round for s in scores], outcomes_by_round(scores), **_format(state.event))
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    return placings, state


# --- bracket ---


def bracket(folder: Path) -> tuple[Bracket, EventFolder]:
    """The bracket chart of everything drawn and scored so far (levels for the decided matches)."""
    return bracket_in(open_folder(folder))


def bracket_in(state: EventFolder) -> tuple[Bracket, EventFolder]:
    """`bracket` on a folder already open."""
    scores = state.scores()
    levels = {
        (s.round.number, m.match.table): m.result.levels
        for s in scores
        for m in s.matches
        if m.result is not None and m.outcome.status in (TableStatus.DECIDED, TableStatus.PASSED_A)
    }
    try:
        chart = build_bracket(
            [s.round for s in scores],
            outcomes_by_round(scores),
            state.teams,
            levels=levels,
            title=state.event.title,
            **_format(state.event),
        )
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    return chart, state
