"""An event folder on disk: event.toml, teams.xlsx, the round workbooks and event.db, and what they add up to.

The commands `draw`, `score` and `awards` are one call each into this module. It reads through
`shuangsheng.storage.workbook`, scores through the engine, decides through `shuangsheng.knockout.knockout` and remembers through
`shuangsheng.storage.ledger` (every draw, whether its files were all written); it never re-implements a rule.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from shuangsheng.game.hands import Hand
from shuangsheng.game.match import MatchResult, replay
from shuangsheng.game.rules import RuleSet, TieBreak
from shuangsheng.knockout import knockout
from shuangsheng.knockout.bracket import Bracket
from shuangsheng.knockout.bracket import build as build_bracket
from shuangsheng.knockout.knockout import Advancement, MatchOutcome, Placings, Round, is_final
from shuangsheng.knockout.teams import Team
from shuangsheng.storage import event as event_file
from shuangsheng.storage import files, ledger, qr_sheets, workbook
from shuangsheng.storage.event import Event
from shuangsheng.storage.workbook import MATCHES_SHEET, MatchSheet, Problem, RoundSheet
from shuangsheng.storage.workbook import verify as double_entry
from shuangsheng.storage.workbook.phone import with_phone_hands
from shuangsheng.storage.workbook.round_reader import FinalCard
from shuangsheng.storage.workbook.verify import Verification
from shuangsheng.table import codes as entry_codes
from shuangsheng.table import sources
from shuangsheng.table.entry import EntryStatus
from shuangsheng.table.sources import Source
from shuangsheng.table.status import TableStatus, table_status
from shuangsheng.vocabulary.errors import Issue, Place, UserError, located
from shuangsheng.vocabulary.text import command_line

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
    source: Source = Source.PAPER  # where the record came from (docs/README.md)
    note: str = ""  # '未逐局核对（记分卡遗失）' for a match given by its 终局 cells only
    phone_hands: tuple[Hand, ...] = ()  # the record's hands when it came from the phone only
    confirmed: bool = False  # the phone's record accepted by both teams (the table is locked)

    @property
    def unchecked(self) -> bool:
        return self.source is Source.FINAL_ONLY


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
    return MatchScore(match, result, _outcome(match, status, result, problems), problems)


def _phone_only(match: MatchSheet, phone: sources.PhoneTable) -> MatchScore:
    """A table entered by phone only: its record once the match is over; open (进行中, with its levels) before."""
    result = phone.state.result
    problems = sources.phone_problems(match, phone)
    counted = phone.over or problems or phone.state.status is EntryStatus.NEEDS_PLAYOFF  # 时间到, tied: 需加赛
    status = table_status(result, errors=bool(problems)) if counted else TableStatus.OPEN
    outcome = _outcome(match, status, result, problems)
    if status is TableStatus.OPEN:
        outcome = replace(outcome, reason=f"扫码录分进行中，甲方{result.levels.a.label}级、乙方{result.levels.b.label}级")
    return MatchScore(match, result, outcome, problems, Source.PHONE, phone_hands=phone.hands,
                      confirmed=phone.state.log.locked)


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
    return MatchScore(match, result, replace(outcome, reason=outcome.reason or note), problems,
                      Source.FINAL_ONLY, note)


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
    scored = RoundScore(sheet, matches, knockout.advance(sheet.round, [m.outcome for m in matches]))
    _LAST_SCORED[sheet.path] = (sheet, rules, scored)
    return scored


def _phone(sheet: RoundSheet, match: MatchSheet, rules: RuleSet) -> sources.PhoneTable | None:
    entries = sheet.entries.get(match.table)
    return sources.phone_table(match, entries, rules, sheet.round.number) if entries else None


def score_as_json(score: RoundScore) -> dict[str, object]:
    """docs/README.md (--json): {"round", "matches": [{"table", "A", "B", "levels", "status", "winner", "errors"}], "byes",
    "advancing"}; while matches are undecided, "advancing" lists those known so far and "blockers" says why; in the
    final nobody advances ("advancing" is empty; the champion is the final's "winner")."""
    matches = []
    for m in score.matches:
        shown = m.result is not None and (m.result.outcomes or m.unchecked)
        levels = m.result.levels.as_json() if shown else None
        matches.append(
            {
                "table": m.match.table,
                "A": m.match.pairing.a,
                "B": m.match.pairing.b,
                "levels": levels,
                "status": m.outcome.status.value,
                "winner": m.outcome.winner,
                "errors": [str(p) for p in m.problems],
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


# --- the folder ---


@dataclass(frozen=True)
class RulesChange:
    """event.toml's [rules] changed after round `number` was scored, and the change alters these tables."""

    number: int
    tables: tuple[int, ...]
    recorded: RuleSet


@dataclass(frozen=True)
class EventFolder:
    path: Path
    event: Event
    teams: tuple[Team, ...]
    rounds: tuple[RoundSheet, ...]
    notes: tuple[str, ...] = ()  # what every command should say (a team renamed or deleted after the draw, …)
    rules_changes: tuple[RulesChange, ...] = ()  # scored rounds kept under the rules they were scored with
    # round → (its draw's id, `Ledger.entries_mark` of the phone entries read with it): what a draw computed from
    # this reading checks in the transaction that records it (`_unchanged`)
    entry_marks: Mapping[int, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def rules(self) -> RuleSet:
        return self.event.rules

    @property
    def team_map(self) -> dict[str, Team]:
        return {t.id: t for t in self.teams}

    def rules_for(self, number: int) -> RuleSet:
        """The rules round `number` is scored under: the current ones, unless a change since it was scored would
        alter it and has not been accepted (`score --accept-rules`)."""
        return next((c.recorded for c in self.rules_changes if c.number == number), self.rules)

    def scores(self) -> list[RoundScore]:
        return [score_round(sheet, self.rules_for(sheet.round.number)) for sheet in self.rounds]

    def with_round(self, sheet: RoundSheet) -> EventFolder:
        """The folder with one more round, read once by whoever wrote it (the demo, round after round)."""
        return replace(self, rounds=(*self.rounds, sheet))


def open_folder(folder: Path, *, up_to: int | None = None, drawing: bool = False,
                accept_rules: bool = False) -> EventFolder:
    """Read event.toml, teams.xlsx and round-1.xlsx, round-2.xlsx, … (in order, up to the first missing one, or
    only up to round `up_to`: scoring a round needs neither the rounds after it nor their reading time). A round
    event.db records as drawn whose workbook is missing or holds another draw is named with what to do (`drawing`:
    an unfinished draw is `draw`'s own to complete, not a problem). A round scored before [rules] changed keeps
    the rules it was scored with while the change would alter it, unless `accept_rules`."""
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
    draws = recorded_draws(folder)
    problems.extend(_ledger_problems(folder, draws, rounds, drawing=drawing))
    rounds, marks = _with_entries(folder, rounds, draws, problems)
    strays = [p.name for p in round_files(folder) if (round_number(p.name) or 0) > number]
    if strays and number not in draws:
        problems.append(Issue.of_file(folder, f"缺少 {round_file(number)}，却有 {'、'.join(strays)}；轮次文件应从 round-1 起连续"))
    if problems:
        raise TournamentError(problems)
    assert event is not None
    problems.extend(_draw_problems(rounds))
    problems.extend(_format_problems(folder, event, draws))
    teams, notes, missing = _teams_of_the_draw(teams, rounds, draws)
    problems.extend(missing)
    if problems:
        raise TournamentError(problems)
    state = EventFolder(folder, event, teams, tuple(rounds), tuple(notes), entry_marks=marks)
    changes = _rules_changes(state, draws) if not accept_rules else ()
    if changes:
        state = replace(state, rules_changes=changes, notes=(*state.notes, rules_note_text(folder, changes)))
    return state


def _with_entries(folder: Path, rounds: Sequence[RoundSheet], draws: Mapping[int, ledger.DrawRecord],
                  problems: list[Issue]) -> tuple[list[RoundSheet], dict[int, tuple[int, int]]]:
    """Each round with its tables' phone entries (event.db), for the draw its workbook holds, and the mark of the
    entries read (round → (draw id, mark)); an entry event.db cannot read back is a problem."""
    wanted = {s.round.number: draws[s.round.number].id for s in rounds
              if s.round.number in draws and same_draw(draws[s.round.number].round, s.round)}
    if not wanted:
        return list(rounds), {}
    book = ledger.Ledger.readable(folder)
    if book is None:
        return list(rounds), {}
    found: dict[int, dict[int, tuple]] = {}
    marks: dict[int, tuple[int, int]] = {}
    with book:
        for number, draw_id in wanted.items():
            try:
                found[number], mark = book.draw_entries(draw_id)
            except ValueError as exc:
                problems.append(Issue.of_file(folder / ledger.DB_NAME, f"第{number}轮的扫码录分记录无法读取（{exc}）"))
                continue
            marks[number] = (draw_id, mark)
    return [replace(s, entries=found[s.round.number]) if found.get(s.round.number) else s for s in rounds], marks


def _format_problems(folder: Path, event: Event, draws: Mapping[int, ledger.DrawRecord]) -> list[str]:
    """[format] is frozen once the first round is drawn."""
    first = next((d.format for d in draws.values() if d.format), None)
    if first is None:
        return []
    now = {"third_place": event.third_place.value, "byes": event.byes.value}
    changed = [f'{k} 抽签时为 "{v}"，现在为 "{now[k]}"' for k, v in first.items() if k in now and now[k] != v]
    if not changed:
        return []
    return [f"{folder / event_file.EVENT_FILE}：[format] 在第1轮抽签之后改过（{'；'.join(changed)}）；"
            "赛制在抽签之后不能再改，请改回原来的值"]


def _teams_of_the_draw(listed: tuple[Team, ...], rounds: Sequence[RoundSheet],
                       draws: Mapping[int, ledger.DrawRecord]) -> tuple[tuple[Team, ...], list[str], list[str]]:
    """Once round 1 is drawn, the field is its pool: a team whose row was deleted from teams.xlsx keeps the names
    recorded at the draw (said); a name corrected for the same 组号 is used from then on (said); a team with
    no names at all is a problem (nothing is printed without names)."""
    pool = rounds[0].round.pool if rounds else (draws[1].round.pool if 1 in draws else None)
    if pool is None:
        return listed, [], []
    now = {t.id: t for t in listed}
    recorded: dict[str, tuple[str, ...]] = {}
    for record in draws.values():
        for team_id, players in record.names.items():
            recorded.setdefault(team_id, players)
    teams, notes, problems = [], [], []
    for team_id in pool:
        was = recorded.get(team_id)
        if team_id in now:
            teams.append(now[team_id])
            if was and tuple(was) != now[team_id].players:
                notes.append(f"报名表中{now[team_id].label}的队员在抽签后改过（抽签时为{'、'.join(was)}），从现在起按报名表")
        elif was and len(was) == 2:
            teams.append(Team(team_id, (was[0], was[1])))
            notes.append(f"报名表中已没有{teams[-1].label}这一行，沿用抽签时记下的队员")
        else:
            problems.append(f"{TEAMS_FILE}：{team_id_name(team_id)}已经抽签参赛，报名表里却没有这一行（也没有抽签时的记录）；"
                            "请把这一行补回报名表（没有队员姓名，不能打印对阵表和奖状）")
    added = [t for t in listed if t.id not in set(pool)]
    if added:
        notes.append(f"报名表里的{'、'.join(team_id_name(t.id) for t in added)}是第1轮抽签之后加的，不在本次比赛的对阵里")
    return tuple(teams), notes, problems


def team_id_name(team_id: str) -> str:
    from shuangsheng.knockout.teams import team_name

    return team_name(team_id)


def _rules_changes(state: EventFolder, draws: Mapping[int, ledger.DrawRecord]) -> tuple[RulesChange, ...]:
    """Scored rounds whose result the current [rules] would change (tables whose winner, status or levels
    differ from scoring under the rules recorded when the round was scored)."""
    if not draws or not state.rounds:
        return ()
    book = ledger.Ledger.readable(state.path)
    if book is None:
        return ()
    with book:
        scored = {n: book.last_scored(d.id) for n, d in draws.items()}
    changes = []
    for sheet in state.rounds:
        record = scored.get(sheet.round.number)
        if record is None or record.rules == state.rules.as_mapping():
            continue
        try:
            then = RuleSet.from_mapping(record.rules)
        except ValueError:
            continue
        if then != state.rules and (tables := _tables_changed(sheet, then, state.rules)):
            changes.append(RulesChange(sheet.round.number, tables, then))
    return tuple(changes)


def _tables_changed(sheet: RoundSheet, before: RuleSet, after: RuleSet) -> tuple[int, ...]:
    def view(rules: RuleSet) -> dict[int, object]:
        return {m.match.table: (m.outcome.status, m.outcome.winner, m.result.levels if m.result else None)
                for m in score_round(sheet, rules).matches}

    old, new = view(before), view(after)
    return tuple(t for t in old if old[t] != new.get(t))


def rules_note_text(folder: Path, changes: Sequence[RulesChange]) -> str:
    rounds = "、".join(f"第{c.number}轮（第{'、'.join(str(t) for t in c.tables)}桌）" for c in changes)
    return (f"event.toml 的计分规则 [rules] 在计分之后改过，按新规则 {rounds} 的结果会变。这些轮次仍按当时计分的规则计算，"
            f"没有改动；如确要按新规则重新计分，运行 shuangsheng score {folder} --accept-rules（会记入 event.db 的日志）")


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


# --- what event.db remembers of the draws, against the files ---


def recorded_draws(folder: Path) -> dict[int, ledger.DrawRecord]:
    """The draws event.db holds (none for a folder without one, or with a damaged one: the next command that
    writes rebuilds it, or names it lost)."""
    book = ledger.Ledger.readable(folder)
    if book is None:
        return {}
    with book:
        return book.draws()


COPY_SUFFIXES = (".xlsx", ".xls", ".xlsm", ".et")


def copies_beside(folder: Path, number: int, *, besides: Sequence[Path] = ()) -> list[str]:
    """Files that look like round-N.xlsx saved again under another name (`round-1 (1).xlsx`, `round-1 - 副本.xlsx`,
    `round-1.xls`, `round-1.xlsx.xlsx`): not the checked copy, not a backup, not one of `besides` (a copy given to
    --verify is the second entry, not a stray)."""
    own = f"round-{number}.xlsx"
    pattern = re.compile(rf"^round-{number}(?!\d)(?!-checked)(?!\.备份-)", re.IGNORECASE)
    skip = {Path(b).name for b in besides}
    found = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if (pattern.match(name) and name != own and name not in skip and path.is_file()
                and name.lower().endswith(COPY_SUFFIXES)):
            found.append(name)
    return found


def _missing_round(folder: Path, number: int, record: ledger.DrawRecord) -> str:
    name = round_path(folder, number).name
    how = f"随机种子 {record.round.seed}" if record.round.seed is not None else "按纸签"
    said = f"{folder / name} 不见了：第{number}轮已于 {record.at[:16].replace('T', ' ')} 抽签（{how}）。"
    if copies := copies_beside(folder, number, besides=verify_copies(folder)):
        return (f"{said}文件夹里有 {'、'.join(copies)}：如果就是这一轮的记分表，请把它改名为 {name}"
                f"（不要重新抽签）")
    return (f"{said}如果它被移走或改了名，请放回这个文件夹并改名为 {name}；如果确实丢失，运行 "
            f"{command_line('draw', folder)} --force 按原抽签重新生成空白的 {name}（已录入的各局要重新录入）")


def _ledger_problems(folder: Path, draws: Mapping[int, ledger.DrawRecord], rounds: Sequence[RoundSheet], *,
                     drawing: bool) -> list[str]:
    problems = []
    latest = max(draws, default=0)
    read = {sheet.round.number: sheet for sheet in rounds}
    for number, record in draws.items():
        path = round_path(folder, number)
        if not path.exists():
            if number == latest and not record.done:
                if not drawing:
                    problems.append(f"{folder}：第{number}轮的抽签被中断，还没有完成；请运行 {command_line('draw', folder)}"
                                    "，按原抽签补全记分表和打印件")
                continue
            problems.append(_missing_round(folder, number, record))
        elif number in read and not same_draw(read[number].round, record.round):
            if number == latest and not record.done and _redo_stopped(folder, number, read[number].round):
                if not drawing:
                    problems.append(_redo_unfinished(folder, number))
                continue
            problems.append(
                f"{path}：对阵与第{number}轮抽签时记下的不同，不是这次比赛抽出的那份记分表（可能从别处拷来，或被改动过）；"
                f"请换回第{number}轮抽签生成的 {path.name}（其对阵与对阵表相同）")
    return problems


def _redo_stopped(folder: Path, number: int, held: Round) -> bool:
    """round-N.xlsx holds a draw of round `number` that `draw --redo` voided: the redo stopped after recording the
    corrected draw and before writing its workbook (not a workbook a person put there)."""
    book = ledger.Ledger.readable(folder)
    if book is None:
        return False
    with book:
        return any(same_draw(voided, held) for voided in book.voided_rounds(number, f"--redo {number}"))


def _redo_unfinished(folder: Path, number: int) -> str:
    """Round `number`'s latest draw is recorded but unfinished while its workbook holds the draw before it: a
    `draw --redo` stopped between recording the corrected draw and writing its workbook; running it again finishes."""
    return (f"{folder}：第{number}轮的重新抽签（--redo）被中断，{round_file(number)} 还是改正之前的对阵；请再运行 "
            f"{command_line('draw', folder)} --redo {number} 完成它")


def same_draw(a: Round, b: Round) -> bool:
    return (a.number, a.pool, a.pairings, a.byes) == (b.number, b.pool, b.pairings, b.byes)


def verify_copies(folder: Path) -> list[Path]:
    """The files once given to `score --verify` (the second entries of double entry)."""
    book = ledger.Ledger.readable(folder)
    if book is None:
        return []
    with book:
        return [Path(detail["file"]) for _, detail, _ in book.entries("verify") if "file" in detail]


def prepare(folder: Path) -> list[str]:
    """At the start of every file-writing command, the folder held: event.db opened (built from the files for a
    folder from before it or where nothing was drawn, a damaged one there set aside; a lost one refused:
    `ledger.LedgerLost`), the program's stale temporary files removed, and each round workbook event.db does not
    know yet recorded as a draw. Returns what the user should hear."""
    if not (folder / event_file.EVENT_FILE).exists():
        return []
    with ledger.Ledger.open(folder) as book:
        notes = list(book.notes)
        ledger.clean_temporary(folder)
        adopt_rounds(folder, book)
    return notes


def adopt_rounds(folder: Path, book: ledger.Ledger) -> None:
    """Round workbooks from before event.db (or of a lost one, `rebuild`): their draws are recorded as done."""
    draws = book.draws()
    number = 1
    while (path := round_path(folder, number)).exists():
        if number not in draws:
            try:
                sheet = workbook.read_round(path)
            except workbook.WorkbookError:
                break  # the command reading it names the problem
            if any(same_draw(voided, sheet.round) for voided in book.voided_rounds(number)):
                break  # a draw event.db voided (`draw --redo` stopped before removing it), never drawn again
            book.record_draw(sheet.round, {}, done=True)
            book.record_file(path)
        number += 1


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
    resumed: bool = False  # an unfinished draw completed with its recorded pairings, not drawn anew
    papers: object = None  # what the `papers` writer returned
    papers_problems: tuple[str, ...] = ()  # why the papers were not written (the draw stays unfinished)
    restored: tuple[Path, ...] = ()  # blank workbooks of recorded draws written again (`--force`)
    redo: Redo | None = None  # `draw --redo N`: what changed
    codes: Mapping[int, str] = field(default_factory=dict)  # each table's entry code (录分码), by table number
    notes: tuple[str, ...] = ()  # what the folder says (teams.xlsx changed after the draw, rules held)


@dataclass(frozen=True)
class Redo:
    """`draw --redo N`: round N kept its tables; at each of `replaced` (table, team out, team in) the entries were
    voided; `voided` rounds after N were voided; `backups` keep every workbook replaced or removed."""

    number: int
    replaced: tuple[tuple[int, str, str], ...]
    voided: tuple[int, ...]
    backups: tuple[Path, ...]
    sheets: tuple[qr_sheets.VoidedSheet, ...] = ()  # the voided rounds' 扫码单: removed, or kept and why


PapersWriter = Callable[[DrawReport], object]


def draw_next(folder: Path, *, seed: int | None = None, lots: Path | None = None, force: bool = False,
              papers: PapersWriter | None = None) -> DrawReport:
    """Draw the next round into round-N.xlsx, recorded in event.db before any file is written; `papers` (the
    CLI's draw sheet and score cards) is called with the report, and the draw is complete once it returns.
    A draw left unfinished (stopped, disk full, a PDF open in a viewer) is completed instead, with the same
    pairings. With the last round not decided, refuse naming every match; with `force`, write its papers again
    (and a missing round workbook of a recorded draw, blank). Never draws a round again."""
    restored = restore_missing(folder) if force else ()

    def once() -> DrawReport:
        report = draw_in(open_folder(folder, drawing=True), seed=seed, lots=lots, force=force, papers=papers)
        return replace(report, restored=restored)

    for _ in range(DRAW_TRIES - 1):
        with contextlib.suppress(EntriesMoved):  # a phone entered something meanwhile: read and computed again
            return once()
    try:
        return once()
    except EntriesMoved as moved:  # the last try: its refusal is the user's, naming the command as typed
        typed = ("--seed", seed) if seed is not None else ("--lots", lots) if lots is not None else ()
        raise EntriesMoved(folder, moved.number, typed) from None


DRAW_TRIES = 3  # a draw whose round's phone entries moved while it was computed is computed again, in all this often


class EntriesMoved(TournamentError):
    """A phone entry of a round was accepted after `draw` read the round's results and before it recorded the new
    draw: nothing recorded, nothing written (`draw_next` reads everything again)."""

    def __init__(self, folder: Path, number: int, typed: Sequence[object] = ()):
        self.number = number
        super().__init__([f"抽签时，手机刚为第{number}轮录入了新的记录（扫码录分）；这次抽签用的是录入之前的成绩，"
                          "所以没有记下，也没有生成任何文件"],
                         hint=f"请再运行一次 {command_line('draw', folder, *typed)}，按最新的成绩抽签")


def _unchanged(book: ledger.Ledger, state: EventFolder) -> None:
    """Inside the write transaction that records a draw: EntriesMoved unless every round's phone entries are as
    `state` read them (what the draw was computed from); a phone's entry after this waits for the transaction, and
    then finds its round sealed (shuangsheng/hall/hall.py)."""
    for number, (draw_id, mark) in sorted(state.entry_marks.items()):
        if book.entries_mark(draw_id) != mark:
            raise EntriesMoved(state.path, number)


# SIMULATION ONLY (the demo): what a referee types into a newly drawn round, sheet → (row, column) → value, written
# into the round workbook in the same pass as the draw writes it (see `workbook.typed_cells`).
Referee = Callable[[Round], Mapping[str, Mapping[tuple[int, int], object]]]


def draw_in(state: EventFolder, *, seed: int | None = None, lots: Path | None = None, force: bool = False,
            papers: PapersWriter | None = None, referee: Referee | None = None) -> DrawReport:
    """`draw_next` on a folder already open. `referee` (the demo's simulation, never a real event): the values
    typed into a new draw's workbook, written with it."""
    entries = _read_lots(lots) if lots is not None else None  # a bad lots file is named before anything else
    with ledger.Ledger.open(state.path) as book:
        adopt_rounds(state.path, book)
        draws = book.draws()
        pending = _to_complete(state, draws, force=force)
        if pending is not None and not _holds(state, pending):
            raise TournamentError([_redo_unfinished(state.path, pending.round.number)])
        if pending is not None:
            if (seed is not None and seed != pending.round.seed) or lots is not None:  # the same seed: the same draw
                raise TournamentError([_no_second_draw(state.path, pending)])
            report, draw_id = complete_draw(state, book, pending), pending.id
        else:
            report, draw_id = _draw_new(state, book, seed=seed, lots=lots, entries=entries, referee=referee)
        report = replace(report, notes=state.notes)
        if papers is not None:
            try:
                report = replace(report, papers=papers(report))
            except UserError as exc:  # a PDF open in a viewer, the disk full: `draw` again completes it
                return replace(report, papers_problems=tuple(exc.messages))
        book.draw_done(draw_id)
    return report


def _to_complete(state: EventFolder, draws: Mapping[int, ledger.DrawRecord], *,
                 force: bool) -> ledger.DrawRecord | None:
    """The draw `draw` completes instead of drawing: the latest, when unfinished; with `force`, also a finished
    one whose round is not decided yet (its papers are written again)."""
    if not draws:
        return None
    latest = draws[max(draws)]
    if not latest.done:
        return latest
    undecided = force and latest.round.number == len(state.rounds) and not score_round(
        state.rounds[-1], state.rules).advancement.decided
    return latest if undecided else None


def _holds(state: EventFolder, record: ledger.DrawRecord) -> bool:
    """The round workbook read holds `record`'s draw, or there is none yet (`_complete` writes it)."""
    number = record.round.number
    return len(state.rounds) < number or same_draw(state.rounds[number - 1].round, record.round)


def _no_second_draw(folder: Path, record: ledger.DrawRecord) -> str:
    n = record.round.number
    how = f"随机种子 {record.round.seed}" if record.round.seed is not None else "按纸签"
    state = "抽签还没有完成（记分表或打印件没有全部生成）" if not record.done else "这一轮还没有决出胜负"
    return (f"第{n}轮已经抽过签（{how}），{state}；抽出的对阵不能重抽。请不加 --seed/--lots 运行 "
            f"{command_line('draw', folder)}，按原抽签补全。如果是第{n - 1}轮的成绩改正后要把它带进第{n}轮，"
            f"请用 {command_line('draw', folder)} --redo {n}" if n > 1 else
            f"第{n}轮已经抽过签（{how}），{state}；抽出的对阵不能重抽。请不加 --seed/--lots 运行 "
            f"{command_line('draw', folder)}，按原抽签补全")


def teams_at_draw(state: EventFolder, record: ledger.DrawRecord | None) -> dict[str, Team]:
    """The teams of a drawn round: as teams.xlsx has them now, and for a team no longer there, the names
    recorded at the draw."""
    return with_recorded_names(state.team_map, record)


def with_recorded_names(teams: Mapping[str, Team], record: ledger.DrawRecord | None) -> dict[str, Team]:
    found = dict(teams)
    for team_id, players in (record.names.items() if record is not None else ()):
        if team_id not in found and len(players) == 2:
            found[team_id] = Team(team_id, (players[0], players[1]))
    return found


def complete_draw(state: EventFolder, book: ledger.Ledger, record: ledger.DrawRecord) -> DrawReport:
    """An unfinished draw carried to its end: its workbook written if it is not there (never over one that is),
    the report the papers are printed from (with its tables' codes, made for those that have none); also the
    report `rebuild` prints the current round's papers again from."""
    drawn = record.round
    path = round_path(state.path, drawn.number)
    teams = teams_at_draw(state, record)
    if not path.exists():
        workbook.write_round(path, drawn, teams, rules_note=rules_note(state.rules))
        book.record_file(path)
    title = knockout.round_title(drawn.number, len(drawn.pool))
    note = knockout.prize_note(drawn, state.event.third_place)
    return DrawReport(drawn, path, False, None, title, note, teams, state.event, resumed=True,
                      codes=table_codes(book, record.id, drawn))


def _read_lots(lots: Path) -> object:
    try:
        return workbook.read_lots(lots)
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None


def _draw_new(state: EventFolder, book: ledger.Ledger, *, seed: int | None, lots: Path | None,
              entries: object = None, referee: Referee | None = None) -> tuple[DrawReport, int]:
    folder = state.path
    nxt = _next_round(state)
    generated = seed is None and lots is None
    try:
        if entries is not None:
            drawn = nxt.from_lots(entries)  # type: ignore[arg-type]
        else:
            drawn = nxt.draw(seed if seed is not None else knockout.new_seed())
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    path = round_path(folder, drawn.number)
    files.check_writable(path, force=False)
    teams = state.team_map
    with book.atomic():  # the draw and its codes, only on the results it was computed from: all or nothing
        _unchanged(book, state)
        draw_id = book.record_draw(drawn, {t: teams[t].players for t in drawn.pool if t in teams},
                                   format={"third_place": state.event.third_place.value, "byes": state.event.byes.value})
        codes = table_codes(book, draw_id, drawn)
    typed = referee(drawn) if referee is not None else None
    workbook.write_round(path, drawn, teams, rules_note=rules_note(state.rules), typed=typed)
    book.record_file(path)
    note = knockout.prize_note(drawn, state.event.third_place)
    return DrawReport(drawn, path, generated, None, nxt.title, note, teams, state.event, lots, codes=codes), draw_id


def _next_round(state: EventFolder) -> knockout.NextRound:
    """What to draw next; with the last round not decided, every match that holds it up and what to do."""
    folder = state.path
    scores = state.scores()
    stop_if_stale(folder, scores)
    rounds = [s.round for s in scores]
    ids = list(rounds[0].pool) if rounds else [t.id for t in state.teams]
    try:
        nxt = knockout.next_round(ids, rounds, outcomes_by_round(scores), **_format(state.event))
    except knockout.RoundNotDecided as exc:
        last = round_path(folder, exc.number)
        hint = (
            f"第{exc.number}轮已经抽签：各桌比赛结束后把每一局填入 {last.name}，再运行 {command_line('score', folder)}"
            f"（要重新打印这一轮的对阵表和计分卡，运行 {command_line('draw', folder)} --force）"
            if all(b.status is TableStatus.OPEN for b in exc.blockers)
            else f"请先在 {last.name} 中补全或改正这些比赛，再运行 {command_line('score', folder)}"
        )
        blocked = next(s for s in scores if s.round.number == exc.number)
        raise TournamentError(exc.issues, heading=exc.heading, details=blocked.problems, hint=hint) from None
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    if nxt is None:
        raise TournamentError([f"决赛（第{len(rounds)}轮）已经决出胜负，比赛已经结束，没有下一轮了；请运行 {command_line('awards', folder)} 打印成绩公告和荣誉证书"])
    return nxt


def restore_missing(folder: Path) -> tuple[Path, ...]:
    """`draw --force`: the blank workbook of each recorded, finished draw whose round-N.xlsx is missing, written
    again from the record (the same pairings; never a new draw)."""
    draws = recorded_draws(folder)
    missing = [n for n, r in draws.items() if r.done and not round_path(folder, n).exists()]
    if not missing:
        return ()
    event = event_file.load(folder)
    try:
        current = {t.id: t for t in workbook.read_teams(folder / TEAMS_FILE)}
    except (workbook.WorkbookError, OSError):
        current = {}
    written = []
    with ledger.Ledger.open(folder) as book:
        for number in missing:
            record = draws[number]
            teams = with_recorded_names(current, record)
            path = round_path(folder, number)
            workbook.write_round(path, record.round, teams, rules_note=rules_note(event.rules))
            book.record_file(path)
            book.log("restored", round=number, file=path.name)
            written.append(path)
    return tuple(written)


# --- a correction after the next draw: draw --redo N ---


def _names(teams: Sequence[str]) -> str:
    from shuangsheng.knockout.teams import team_name

    return "、".join(team_name(t) for t in teams)


def redo_hint(folder: Path, number: int, drawn_with: Sequence[str], should_be: Sequence[str]) -> str:
    """Round `number` was drawn from other teams than round number−1 now sends on: say so, and the way out."""
    extra = [t for t in drawn_with if t not in should_be]
    missing = [t for t in should_be if t not in drawn_with]
    return (f"第{number - 1}轮的成绩改过之后，晋级组与第{number}轮抽签时不同（第{number}轮有{_names(extra)}，"
            f"按现在的成绩应为{_names(missing)}）。运行 shuangsheng draw {folder} --redo {number}：第{number}轮各桌不变，"
            f"只把这几组换成应晋级的组（这几桌已录入的各局作废，原记分表另存备份；之后各轮的抽签作废）；然后照常计分、抽下一轮")


def stale_round(scores: Sequence[RoundScore]) -> tuple[int, tuple[str, ...], tuple[str, ...]] | None:
    """The first round drawn from other teams than the round before it now sends on: (round, its pool, the
    teams that should be there)."""
    for before, after in zip(scores, scores[1:], strict=False):
        adv = before.advancement
        if adv.decided and set(adv.advancing) != set(after.round.pool):
            return after.round.number, after.round.pool, adv.advancing
    return None


def stop_if_stale(folder: Path, scores: Sequence[RoundScore]) -> None:
    if (stale := stale_round(scores)) is not None:
        raise TournamentError([redo_hint(folder, *stale)])


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


def redo_draw(folder: Path, number: int, *, papers: PapersWriter | None = None) -> DrawReport:
    """`draw --redo N`: carry a correction of round N−1 into round N. Round N keeps its tables; each team that
    should not be there is replaced at the same table and side by the team that should; those tables' entries
    are voided (logged in event.db, the old workbook backed up), the other tables keep theirs; every round after N
    is voided (workbooks backed up, then removed)."""
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
    swap = _substitution(before, sheet.round)
    if not swap and _unfinished(folder, sheet):  # stopped while writing its papers: run again, it completes them
        return draw_next(folder, papers=papers)
    if not swap:
        raise TournamentError([f"第{number}轮的参赛组与第{number - 1}轮现在的晋级组一致，不需要 --redo"])
    corrected = _substituted(sheet.round, swap)
    replaced = tuple((new.table, team, new_team) for old, new in zip(sheet.round.pairings, corrected.pairings, strict=True)
                     for team, new_team in ((old.a, new.a), (old.b, new.b)) if team != new_team)
    touched = {t for t, _, _ in replaced}
    with ledger.Ledger.open(folder) as book:
        voided = _later_rounds(folder, book, number)
        path = round_path(folder, number)
        backups = [_backup(path), *(_backup(round_path(folder, n)) for n in reversed(voided)
                                    if round_path(folder, n).exists())]
        old = book.draws().get(number)
        teams = with_recorded_names(state.team_map, old)
        with book.atomic():  # no reader sees round N without a draw, or the new draw without its codes and entries
            _void_later(book, number)
            book.log("redo", round=number, replaced=[list(r) for r in replaced], backup=backups[0].name,
                     voided_entries={str(m.table): _entries(m) for m in sheet.matches if m.table in touched},
                     voided_rounds=list(voided))
            if old is not None:
                book.void_draw(old.id, f"--redo {number}")
            draw_id = book.record_draw(corrected, {t: teams[t].players for t in corrected.pool if t in teams},
                                       format=old.format if old is not None else None)
            codes = _carry_tables(book, old, draw_id, corrected, _changed(old, corrected))
        _remove_later(folder, voided)  # only now: a redo stopped before this is still named by its recorded draw
        # the voided rounds' 扫码单 (their codes no longer work), also those a stopped run of this redo voided
        sheets = qr_sheets.remove_voided(folder, (*voided, *_voided_by_redo(book, number)), book)
        kept = workbook.carried(sheet, [p.table for p in corrected.pairings if p.table not in touched])
        workbook.write_round(path, corrected, teams, rules_note=rules_note(state.rules), typed=kept, force=True)
        book.record_file(path)
        title = knockout.round_title(number, len(corrected.pool))
        report = DrawReport(corrected, path, False, backups[0], title, knockout.prize_note(corrected, state.event.third_place),
                            teams, state.event, redo=Redo(number, replaced, voided, tuple(backups), sheets), codes=codes)
        if papers is not None:
            try:
                report = replace(report, papers=papers(report))
            except UserError as exc:
                return replace(report, papers_problems=tuple(exc.messages))
        book.draw_done(draw_id)
    return report


def _changed(old: ledger.DrawRecord | None, corrected: Round) -> set[int]:
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


def _carry_tables(book: ledger.Ledger, old: ledger.DrawRecord | None, draw_id: int, drawn: Round,
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


def table_codes(book: ledger.Ledger, draw_id: int, drawn: Round) -> dict[int, str]:
    """The entry code in force of each table of a draw, made (and recorded) for the tables that have none: a
    new draw, or a round drawn before codes existed. A new code never repeats one given before in the event."""
    with book.atomic():  # the codes given so far, and the new ones, read and added as one
        have = book.codes(draw_id)
        missing = [p.table for p in drawn.pairings if p.table not in have]
        if missing:
            book.set_codes(draw_id, dict(zip(missing, entry_codes.codes_for_tables(
                len(missing), taken=book.all_codes()), strict=True)))
            have = book.codes(draw_id)
    return {p.table: have[p.table] for p in drawn.pairings}


def _entries(match: MatchSheet) -> dict[str, object]:
    """A table's entries as logged when they are voided: the walkover, and each hand's fields."""
    import dataclasses
    import enum

    def plain(value: object) -> object:
        return value.name if isinstance(value, enum.Enum) else value

    hands = [{k: plain(v) for k, v in dataclasses.asdict(h).items()} for h in match.record.hands]
    return {"walkover": plain(match.walkover), "hands": hands}


def _later_rounds(folder: Path, book: ledger.Ledger, number: int) -> tuple[int, ...]:
    """Every round after `number` that has a draw in force or a workbook (`--redo number` voids them)."""
    draws = book.draws()
    return tuple(sorted({n for n in draws if n > number} | {n for n in range(number + 1, number + 8)
                                                             if round_path(folder, n).exists()}))


def _voided_by_redo(book: ledger.Ledger, number: int) -> list[int]:
    """The rounds after `number` whose draw a `--redo number` voided (a stopped run of it, say)."""
    return [n for n in range(number + 1, number + 8) if book.voided_rounds(n, f"--redo {number}")]


def _remove_later(folder: Path, later: Sequence[int]) -> None:
    """The workbooks of the rounds `--redo` voided removed (backed up before its recording)."""
    for n in reversed(later):
        try:
            round_path(folder, n).unlink(missing_ok=True)
        except OSError as exc:  # open in Excel on Windows: said; `draw --redo` again removes it
            raise files.CannotWrite(round_path(folder, n), exc) from None


def _void_later(book: ledger.Ledger, number: int) -> None:
    """The draw of every round after `number` voided in event.db (inside the redo's transaction)."""
    for n, record in sorted(book.draws().items(), reverse=True):
        if n > number:
            book.void_draw(record.id, f"--redo {number}")


# --- draw --check ---


@dataclass(frozen=True)
class DrawCheck:
    """`draw --check N`: round N drawn again from its recorded seed (or lots) and pool."""

    number: int
    seed: int | None
    pool: tuple[str, ...]
    source: str  # where the seed and pool came from: event.db, or the round workbook (a folder from before)
    agrees: bool
    differences: tuple[str, ...]


def check_draw(folder: Path, number: int) -> DrawCheck:
    """Redo round `number`'s draw from the seed (or paper lots) and pool event.db recorded — from round-N.xlsx
    in a folder without event.db — and compare with the record and the workbook. Writes nothing."""
    if (missing := event_file.missing_folder(folder)) is not None:
        raise TournamentError([missing])
    draws = recorded_draws(folder)
    sheets = {n: _read_if_there(round_path(folder, n)) for n in range(1, number + 1)}
    rounds = {n: (draws[n].round if n in draws else sheets[n].round if sheets[n] else None) for n in sheets}
    target = rounds[number]
    if target is None:
        raise TournamentError([f"{folder}：第{number}轮还没有抽签（event.db 和 round-{number}.xlsx 里都没有）"])
    earlier = [r for n, r in sorted(rounds.items()) if n < number and r is not None]
    third = next(((p.a, p.b) for p in target.pairings if p.third_place), None)
    common = {"byes": len(target.byes), "previous_byes": knockout.byes_so_far(earlier), "third_place_match": third}
    try:
        if target.seed is not None:
            again = knockout.draw_round(number, target.pool, seed=target.seed, **common)
        else:
            again = knockout.draw_from_lots(number, target.lots, target.pool, **common)
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=f"第{number}轮：按记下的抽签名单重抽不成立：") from None
    differences = []
    if not same_draw(again, target):
        differences.append("重抽的对阵与" + ("event.db 记下的" if number in draws else f"round-{number}.xlsx 中的")
                           + "不同")
    sheet = sheets[number]
    if sheet is not None and number in draws and not same_draw(again, sheet.round):
        differences.append(f"重抽的对阵与 round-{number}.xlsx 中的不同")
    source = "event.db" if number in draws else f"round-{number}.xlsx"
    return DrawCheck(number, target.seed, target.pool, source, not differences, tuple(differences))


def _read_if_there(path: Path) -> RoundSheet | None:
    if not path.exists():
        return None
    try:
        return workbook.read_round(path)
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None


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
    notes: tuple[str, ...] = ()  # what the user should know (a filled copy saved beside the round workbook)
    rules_held: bool = False  # a [rules] change would alter a scored round and was not accepted
    redo: int | None = None  # the later round drawn with other teams than this round now sends on (`draw --redo`)


def score(folder: Path, number: int | None = None, *, verify: Path | None = None,
          accept_rules: bool = False) -> ScoreReport:
    """Score round `number` (default: the latest); with `verify`, compare it cell by cell with that second,
    independent entry of the same round; with `accept_rules`, rounds scored before [rules] changed are scored
    again under the current rules (logged). The outcomes are recorded in event.db; the files are written by
    `write_checked_copy` and the papers."""
    drawn = rounds_drawn(folder)
    up_to = number if number and number <= drawn else None
    if accept_rules:
        _accept_rules(open_folder(folder, up_to=up_to))
    state = open_folder(folder, up_to=up_to)
    return score_in(state, number, verify=verify)


def _accept_rules(state: EventFolder) -> None:
    """`score --accept-rules`: each round the change alters is recorded as scored under the current rules."""
    if not state.rules_changes:
        return
    draws = recorded_draws(state.path)
    with ledger.Ledger.open(state.path) as book:
        for change in state.rules_changes:
            sheet = state.rounds[change.number - 1]
            book.log("accept_rules", round=change.number, tables=list(change.tables),
                     before=change.recorded.as_mapping(), after=state.rules.as_mapping())
            _record_scored(book, draws[change.number].id, sheet, score_round(sheet, state.rules), state.rules)


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


def _record_scored(book: ledger.Ledger, draw_id: int, sheet: RoundSheet, scored: RoundScore, rules: RuleSet) -> None:
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
        with ledger.Ledger.open(folder) as book:
            book.log("verify", round=number, file=Path(verify).name)
    rules = state.rules_for(number)
    scored = score_round(sheet, rules)
    draws = recorded_draws(folder)
    if number in draws and same_draw(draws[number].round, sheet.round):
        with ledger.Ledger.open(folder) as book:
            _record_scored(book, draws[number].id, sheet, scored, rules)
    correction = _correction_note(folder, scored, _later_pool(folder, number))
    notes = [*state.notes, *_copies_note(sheet, verify), *correction]
    return ScoreReport(
        scored, workbook.checked_path(sheet.path), state.team_map, state.event, verification, tuple(notes),
        bool(state.rules_changes), number + 1 if correction else None,
    )


def _later_pool(folder: Path, number: int) -> tuple[str, ...] | None:
    """The pool round `number + 1` was drawn with, if it was drawn (event.db, or its workbook)."""
    draws = recorded_draws(folder)
    if number + 1 in draws:
        return draws[number + 1].round.pool
    try:
        return _read_if_there(round_path(folder, number + 1)).round.pool  # type: ignore[union-attr]
    except (AttributeError, TournamentError):
        return None


def _correction_note(folder: Path, scored: RoundScore, later: tuple[str, ...] | None) -> list[str]:
    adv = scored.advancement
    if later is None or not adv.decided or set(adv.advancing) == set(later):
        return []
    return [redo_hint(folder, scored.round.number + 1, later, adv.advancing)]


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
    ledger.check_regenerable(report.checked, force=force)  # before the work of building it
    copy = workbook.checked_copy(whole_record(report.score), results)
    if ledger.is_generated(report.checked) and workbook.made_from(report.checked) == copy.source:
        return report.checked  # already this copy, as the program wrote it: not written again
    return ledger.write_generated(report.checked, copy.xlsx(), force=force)


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


# --- awards ---


def awards(folder: Path) -> tuple[Placings, EventFolder]:
    return awards_in(open_folder(folder))


def awards_in(state: EventFolder) -> tuple[Placings, EventFolder]:
    """`awards` on a folder already open."""
    scores = state.scores()
    stop_if_stale(state.path, scores)
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
    stop_if_stale(state.path, scores)
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
            unchecked={(s.round.number, m.match.table) for s in scores for m in s.matches if m.unchecked},
            title=state.event.title,
            **_format(state.event),
        )
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    return chart, state
