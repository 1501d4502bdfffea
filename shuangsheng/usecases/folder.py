"""Reading the event folder: event.toml, teams.xlsx, the round workbooks and the phone entries in event.db, checked
against what event.db remembers of the draws, as one `EventFolder` (`open_folder`), and every problem found named in
`TournamentError`. Also what every file-writing command does first (`prepare`: event.db opened or built, round
workbooks it does not know recorded as draws), and the check that a round was drawn from the teams the round before
it now sends on (`stop_if_stale`). Reads the folder; writes only event.db (`prepare`, `adopt_rounds`), and
removes the program's stale temporary files (`prepare`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypedDict

from shuangsheng.game.rules import RuleSet
from shuangsheng.knockout import knockout
from shuangsheng.knockout.apart import NOTHING_APART
from shuangsheng.knockout.draw import draw_round
from shuangsheng.knockout.formats import Byes, ThirdPlace
from shuangsheng.knockout.knockout import Round, names_of
from shuangsheng.knockout.replacement import Replacement, finished_pair, pair_in_round, replaced_players
from shuangsheng.knockout.teams import Team, id_digits, in_order, team_label, team_name
from shuangsheng.render.reports import RoundScore
from shuangsheng.storage import event as event_file
from shuangsheng.storage import workbook
from shuangsheng.storage.event import Event
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lock import clean_temporary
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.names import (
    DB_NAME,
    EVENT_FILE,
    TEAMS_FILE,
    copies_beside,
    round_file,
    round_files,
    round_number,
    round_path,
)
from shuangsheng.storage.workbook import MATCHES_SHEET, RoundSheet
from shuangsheng.usecases.scoring import score_round
from shuangsheng.vocabulary.errors import Issue, UserError, located
from shuangsheng.vocabulary.text import command_line


class TournamentError(UserError, ValueError):
    """Something in the folder stops the command: every `Issue` found, all of them (with a heading, details and
    a hint when the error has them)."""


@dataclass(frozen=True)
class RulesChange:
    """event.toml's [rules] changed after round `number` was scored, and the change alters these tables."""

    number: int
    tables: tuple[int, ...]
    recorded: RuleSet


@dataclass(frozen=True, kw_only=True)
class EventFolder:
    path: Path
    event: Event
    teams: tuple[Team, ...]
    rounds: tuple[RoundSheet, ...]
    notes: tuple[str, ...] = ()  # what every command should say (a team renamed or deleted after the draw, …)
    rules_changes: tuple[RulesChange, ...] = ()  # scored rounds kept under the rules they were scored with
    replacements: tuple[Replacement, ...] = ()  # players replaced mid-event (event.db), in the order made
    digits: int = 2  # how wide every 组号 of the event is printed and shown (`event_digits`), decided once here
    # round → (its draw's id, `Ledger.entries_mark` of the phone entries read with it): what a draw computed from
    # this reading checks in the transaction that records it (`_unchanged`)
    entry_marks: Mapping[int, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    # round number → the round scored from this reading (`score_of`): each round is scored once per reading, and
    # a reading made with `with_round` keeps the scores of the rounds it had; `replace` starts afresh
    _scored: dict[int, RoundScore] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def rules(self) -> RuleSet:
        return self.event.rules

    @property
    def team_map(self) -> dict[str, Team]:
        """Every team by id, each pair as it stands after the players replaced (as it finished: what the papers
        show); `teams` keeps the pairs as drawn."""
        return {t.id: finished_pair(t, self.replacements) for t in self.teams}

    def teams_in(self, number: int) -> dict[str, Team]:
        """Every team by id, each pair as it played round `number` (a player replaced from a later round still
        there): the 成绩册's record of that round."""
        return {t.id: pair_in_round(t, self.replacements, number) for t in self.teams}

    @property
    def replaced(self) -> dict[str, tuple[str, ...]]:
        """The players who played for a pair and were replaced, by team (the certificates name them)."""
        found = {t.id: replaced_players(t, self.replacements) for t in self.teams}
        return {team: players for team, players in found.items() if players}

    def rules_for(self, number: int) -> RuleSet:
        """The rules round `number` is scored under: the current ones, unless a change since it was scored would
        alter it and has not been accepted (`score --accept-rules`)."""
        return next((c.recorded for c in self.rules_changes if c.number == number), self.rules)

    def score_of(self, number: int) -> RoundScore:
        """Round `number` scored from this reading under the rules it is scored with (once per reading)."""
        if number not in self._scored:
            sheet = next(s for s in self.rounds if s.round.number == number)
            self._scored[number] = score_round(sheet, self.rules_for(number))
        return self._scored[number]

    def scores(self) -> list[RoundScore]:
        return [self.score_of(sheet.round.number) for sheet in self.rounds]

    def with_round(self, sheet: RoundSheet) -> EventFolder:
        """The folder with one more round, read once by whoever wrote it (the demo, round after round); the rounds
        it had keep their scores."""
        more = replace(self, rounds=(*self.rounds, sheet))
        more._scored.update((n, s) for n, s in self._scored.items() if n != sheet.round.number)
        return more


def open_folder(folder: Path, *, up_to: int | None = None, drawing: bool = False,
                accept_rules: bool = False, known: Sequence[RoundSheet] = ()) -> EventFolder:
    """Read event.toml, teams.xlsx and round-1.xlsx, round-2.xlsx, … (in order, up to the first missing one, or
    only up to round `up_to`: scoring a round needs neither the rounds after it nor their reading time). A round
    event.db records as drawn whose workbook is missing or holds another draw is named with what to do (`drawing`:
    an unfinished draw is `draw`'s own to complete, not a problem). A round scored before [rules] changed keeps
    the rules it was scored with while the change would alter it, unless `accept_rules`. `known`: rounds the caller
    read before (an earlier reading of the same command, or of the TV's), not parsed again while their files hold
    the same bytes."""
    problems: list[Issue | str] = []
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
    read_before = {sheet.path: replace(sheet, entries={}) for sheet in known}  # the entries are read again below
    number = 1
    while (path := round_path(folder, number)).exists():
        if up_to is None or number <= up_to:
            try:
                rounds.append(workbook.read_round(path, read_before.get(path)))
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
    digits = event_digits((t.id for t in teams), (s.round for s in rounds), draws.values())
    problems.extend(_draw_problems(rounds, draws, digits))
    problems.extend(_format_problems(folder, event, draws))
    teams, notes, unlisted = _teams_of_the_draw(teams, rounds, draws, digits)
    problems.extend(unlisted)
    if problems:
        raise TournamentError(problems)
    replacements = recorded_replacements(folder) if draws else ()
    notes += [f"换人：{made.said(digits)}" for made in replacements]
    state = EventFolder(path=folder, event=event, teams=teams, rounds=tuple(rounds), notes=tuple(notes),
                        entry_marks=marks, replacements=replacements, digits=digits)
    changes = _rules_changes(state, draws) if not accept_rules else ()
    if changes:
        state = replace(state, rules_changes=changes, notes=(*state.notes, rules_note_text(folder, changes)))
    return state


def event_digits(listed: Iterable[str], rounds: Iterable[Round], draws: Iterable[DrawRecord] = ()) -> int:
    """The one width every 组号 of the event is printed and shown with (papers, pictures, workbook cells, the TV,
    the desk and the phones): `id_digits` of every 组号 teams.xlsx lists (reserves and pairs withdrawn or absent
    too), and every id a round workbook or event.db names — so a reserve pair numbered 100 who never plays makes
    pair 7 第007组 on every paper of the day, before the draw and after it alike."""
    ids = list(listed)
    for r in rounds:
        ids += [*r.pool, *r.byes, *(t for p in r.pairings for t in (p.a, p.b))]
    for record in draws:
        ids += [*record.round.pool, *record.names]
        if record.field is not None:
            ids += [*record.field.absent, *record.field.reserves_in, *record.field.reserves_left]
    return id_digits(ids)


def _with_entries(folder: Path, rounds: Sequence[RoundSheet], draws: Mapping[int, DrawRecord],
                  problems: list[Issue | str]) -> tuple[list[RoundSheet], dict[int, tuple[int, int]]]:
    """Each round with its tables' phone entries (event.db), for the draw its workbook holds, and the mark of the
    entries read (round → (draw id, mark)); an entry event.db cannot read back is a problem."""
    wanted = {s.round.number: draws[s.round.number].id for s in rounds
              if s.round.number in draws and same_draw(draws[s.round.number].round, s.round)}
    if not wanted:
        return list(rounds), {}
    book = Ledger.readable(folder)
    if book is None:
        return list(rounds), {}
    found: dict[int, dict[int, tuple]] = {}
    marks: dict[int, tuple[int, int]] = {}
    with book:
        for number, draw_id in wanted.items():
            try:
                found[number], mark = book.draw_entries(draw_id)
            except ValueError as exc:
                problems.append(Issue.of_file(folder / DB_NAME, f"第{number}轮的扫码录分记录无法读取（{exc}）"))
                continue
            marks[number] = (draw_id, mark)
    return [replace(s, entries=found[s.round.number]) if found.get(s.round.number) else s for s in rounds], marks


def _format_problems(folder: Path, event: Event, draws: Mapping[int, DrawRecord]) -> list[str]:
    """[format] is frozen once the first round is drawn."""
    first = next((d.format for d in draws.values() if d.format), None)
    if first is None:
        return []
    now = {"third_place": event.third_place.value, "byes": event.byes.value,
           "avoid_same_unit": event.avoid_same_unit.value}  # a draw from before avoid_same_unit did not record it
    changed = [f'{k} 抽签时为 "{v}"，现在为 "{now[k]}"' for k, v in first.items() if k in now and now[k] != v]
    if not changed:
        return []
    return [f"{folder / EVENT_FILE}：[format] 在第1轮抽签之后改过（{'；'.join(changed)}）；"
            "赛制在抽签之后不能再改，请改回原来的值"]


def _teams_of_the_draw(listed: tuple[Team, ...], rounds: Sequence[RoundSheet], draws: Mapping[int, DrawRecord],
                       digits: int) -> tuple[tuple[Team, ...], list[str], list[str]]:
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
                notes.append(f"报名表中{team_label(now, team_id, digits)}的队员在抽签后改过（抽签时为{'、'.join(was)}），从现在起按报名表")
        elif was and len(was) == 2:
            teams.append(Team(team_id, (was[0], was[1])))
            notes.append(f"报名表中已没有{team_label({team_id: teams[-1]}, team_id, digits)}这一行，沿用抽签时记下的队员")
        else:
            problems.append(f"{TEAMS_FILE}：{team_name(team_id, digits)}已经抽签参赛，报名表里却没有这一行（也没有抽签时的记录）；"
                            "请把这一行补回报名表（没有队员姓名，不能打印对阵表和奖状）")
    absent = set(draws[1].field.absent) if 1 in draws and draws[1].field is not None else set()  # 弃权 at 报到
    added = [t for t in listed if t.id not in set(pool) and not t.reserve and t.id not in absent]  # nor a 候补 pair
    if added:
        notes.append(f"报名表里的{'、'.join(team_name(t.id, digits) for t in added)}是第1轮抽签之后加的，不在本次比赛的对阵里："
                     "已经抽签的淘汰赛不能再加组，这一组不参加本次比赛的抽签、名次和奖状；如果是误加，请从报名表删去这一行；"
                     "如果这一组一定要参赛，只能在另一个文件夹重新办一场（shuangsheng init），从第1轮重新抽签")
    return tuple(teams), notes, problems


def _rules_changes(state: EventFolder, draws: Mapping[int, DrawRecord]) -> tuple[RulesChange, ...]:
    """Scored rounds whose result the current [rules] would change (tables whose winner, status or levels
    differ from scoring under the rules recorded when the round was scored)."""
    if not draws or not state.rounds:
        return ()
    book = Ledger.readable(state.path)
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


def _draw_problems(rounds: Sequence[RoundSheet], draws: Mapping[int, DrawRecord], digits: int) -> list[Issue]:
    """Each round drawn by seed must come out the same when drawn again from its stored seed and list (with the
    units and seeds event.db recorded that its draw kept apart); a list that cannot be drawn names its teams
    `digits` wide (the event's)."""
    problems: list[Issue] = []
    for i, sheet in enumerate(rounds):
        r = sheet.round
        if r.seed is None:
            continue
        third = next(((p.a, p.b) for p in r.pairings if p.third_place), None)
        byes = knockout.byes_so_far([s.round for s in rounds[:i]])
        recorded = draws.get(r.number)
        apart = recorded.apart if recorded is not None and same_draw(recorded.round, r) else NOTHING_APART
        try:
            again = draw_round(
                r.number, r.pool, seed=r.seed, byes=len(r.byes), previous_byes=byes, third_place_match=third,
                apart=apart, digits=digits,
            )
        except knockout.KnockoutError as exc:
            problems.extend(located(exc.issues, sheet.path.name, MATCHES_SHEET))
            continue
        if (again.pairings, in_order(again.byes)) != (r.pairings, in_order(r.byes)):
            problems.append(Issue.of_cell(
                sheet.path.name, MATCHES_SHEET, None, f"按表中的随机种子 {r.seed} 和抽签名单重抽，结果与表中的对阵不同；"
                "对阵表可能被改动过，请核对或重新抽签（draw --force）"
            ))
    return problems


# --- what event.db remembers of the draws, against the files ---


def recorded_draws(folder: Path) -> dict[int, DrawRecord]:
    """The draws event.db holds (none for a folder without one, or with a damaged one: the next command that
    writes rebuilds it, or names it lost)."""
    book = Ledger.readable(folder)
    if book is None:
        return {}
    with book:
        return book.draws()


def recorded_replacements(folder: Path) -> tuple[Replacement, ...]:
    """The players replaced mid-event, as event.db holds them (none without a readable one)."""
    book = Ledger.readable(folder)
    if book is None:
        return ()
    with book:
        return book.replacements()


def _missing_round(folder: Path, number: int, record: DrawRecord) -> str:
    name = round_path(folder, number).name
    how = f"随机种子 {record.round.seed}" if record.round.seed is not None else "按纸签"
    said = f"{folder / name} 不见了：第{number}轮已于 {record.at[:16].replace('T', ' ')} 抽签（{how}）。"
    if copies := copies_beside(folder, number, besides=verify_copies(folder)):
        return (f"{said}文件夹里有 {'、'.join(copies)}：如果就是这一轮的记分表，请把它改名为 {name}"
                f"（不要重新抽签）")
    return (f"{said}如果它被移走或改了名，请放回这个文件夹并改名为 {name}；如果确实丢失，运行 "
            f"{command_line('draw', folder)} --force 按原抽签重新生成空白的 {name}（已录入的各局要重新录入）")


def _ledger_problems(folder: Path, draws: Mapping[int, DrawRecord], rounds: Sequence[RoundSheet], *,
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
                    problems.append(redo_unfinished(folder, number))
                continue
            problems.append(
                f"{path}：对阵与第{number}轮抽签时记下的不同，不是这次比赛抽出的那份记分表（可能从别处拷来，或被改动过）；"
                f"请换回第{number}轮抽签生成的 {path.name}（其对阵与对阵表相同）")
    return problems


def _redo_stopped(folder: Path, number: int, held: Round) -> bool:
    """round-N.xlsx holds a draw of round `number` that `draw --redo` voided: the redo stopped after recording the
    corrected draw and before writing its workbook (not a workbook a person put there)."""
    book = Ledger.readable(folder)
    if book is None:
        return False
    with book:
        return any(same_draw(voided, held) for voided in book.voided_rounds(number, f"--redo {number}"))


def redo_unfinished(folder: Path, number: int) -> str:
    """Round `number`'s latest draw is recorded but unfinished while its workbook holds the draw before it: a
    `draw --redo` stopped between recording the corrected draw and writing its workbook; running it again finishes."""
    return (f"{folder}：第{number}轮的重新抽签（--redo）被中断，{round_file(number)} 还是改正之前的对阵；请再运行 "
            f"{command_line('draw', folder)} --redo {number} 完成它")


def same_draw(a: Round, b: Round) -> bool:
    """The same draw, its byes compared as a set: event.db keeps them in draw order, round-N.xlsx in number order."""
    return (a.number, a.pool, a.pairings, in_order(a.byes)) == (b.number, b.pool, b.pairings, in_order(b.byes))


def verify_copies(folder: Path) -> list[Path]:
    """The files once given to `score --verify` (the second entries of double entry)."""
    book = Ledger.readable(folder)
    if book is None:
        return []
    with book:
        return [Path(detail["file"]) for _, detail, _ in book.entries("verify") if "file" in detail]


def prepare(folder: Path) -> list[str]:
    """At the start of every file-writing command, the folder held: event.db opened (built from the files for a
    folder from before it or where nothing was drawn, a damaged one there set aside; a lost one refused:
    `LedgerLost`), the program's stale temporary files removed, and each round workbook event.db does not
    know yet recorded as a draw. Returns what the user should hear."""
    if not (folder / EVENT_FILE).exists():
        return []
    with Ledger.open(folder) as book:
        notes = list(book.notes)
        clean_temporary(folder)
        adopt_rounds(folder, book)
    return notes


def adopt_rounds(folder: Path, book: Ledger, *, known: Sequence[RoundSheet] = ()) -> None:
    """Round workbooks from before event.db (or of a lost one, `rebuild`): their draws are recorded as done
    (`known`: rounds read already)."""
    draws = book.draws()
    read_before = {sheet.path: sheet for sheet in known}
    number = 1
    while (path := round_path(folder, number)).exists():
        if number not in draws:
            try:
                sheet = workbook.read_round(path, read_before.get(path))
            except workbook.WorkbookError:
                break  # the command reading it names the problem
            if any(same_draw(voided, sheet.round) for voided in book.voided_rounds(number)):
                break  # a draw event.db voided (`draw --redo` stopped before removing it), never drawn again
            book.record_draw(sheet.round, {}, done=True)
            book.record_file(path)
        number += 1


class FormatOptions(TypedDict):
    """The knockout's `[format]` options, as the knockout's functions take them."""

    third_place: ThirdPlace
    byes: Byes


def format_options(event: Event) -> FormatOptions:
    """The knockout's `[format]` options, as keyword arguments."""
    return {"third_place": event.third_place, "byes": event.byes}


# --- a round drawn from other teams than the round before it now sends on ---


def redo_hint(folder: Path, number: int, drawn_with: Sequence[str], should_be: Sequence[str], digits: int) -> str:
    """Round `number` was drawn from other teams than round number−1 now sends on: say so, and the way out (the
    teams named `digits` wide, the event's)."""
    extra = [t for t in drawn_with if t not in should_be]
    missing = [t for t in should_be if t not in drawn_with]
    return (f"第{number - 1}轮的成绩改过之后，晋级组与第{number}轮抽签时不同（第{number}轮有{names_of(extra, digits)}，"
            f"按现在的成绩应为{names_of(missing, digits)}）。运行 shuangsheng draw {folder} --redo {number}：第{number}轮各桌不变，"
            f"只把这几组换成应晋级的组（这几桌已录入的各局作废，原记分表另存备份；之后各轮的抽签作废）；然后照常计分、抽下一轮")


def stale_round(scores: Sequence[RoundScore]) -> tuple[int, tuple[str, ...], tuple[str, ...]] | None:
    """The first round drawn from other teams than the round before it now sends on: (round, its pool, the
    teams that should be there)."""
    for before, after in zip(scores, scores[1:], strict=False):
        adv = before.advancement
        if adv.decided and set(adv.advancing) != set(after.round.pool):
            return after.round.number, after.round.pool, adv.advancing
    return None


def stop_if_stale(state: EventFolder, scores: Sequence[RoundScore]) -> None:
    if (stale := stale_round(scores)) is not None:
        raise TournamentError([redo_hint(state.path, *stale, state.digits)])
