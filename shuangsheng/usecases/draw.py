"""`draw`: the next round drawn (by seed or paper lots) into round-N.xlsx, recorded in event.db before any file is
written, with each table's entry code; an unfinished draw completed with its recorded pairings; `draw --force`'s
missing workbooks written again; and `draw --check`, a round drawn again from its record and compared (writes
nothing). Writes round-N.xlsx and event.db; the papers through the writer passed in."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from shuangsheng.game.rules import RuleSet, TieBreak
from shuangsheng.knockout import knockout
from shuangsheng.knockout.advance import NextRound, RoundNotDecided, next_round
from shuangsheng.knockout.apart import NOTHING_APART, Apart, meetings
from shuangsheng.knockout.checkin import Field
from shuangsheng.knockout.draw import draw_from_lots, draw_round
from shuangsheng.knockout.knockout import Round
from shuangsheng.knockout.placings import prize_note
from shuangsheng.knockout.teams import Team
from shuangsheng.render.reports import DrawCheck, DrawReport, Papers
from shuangsheng.storage import event as event_file
from shuangsheng.storage import files, workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lost import LedgerError
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.names import TEAMS_FILE, round_path
from shuangsheng.storage.workbook import RoundSheet
from shuangsheng.table import codes as entry_codes
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.checkin import field_for_draw
from shuangsheng.usecases.folder import (
    EventFolder,
    TournamentError,
    adopt_rounds,
    event_digits,
    format_options,
    open_folder,
    recorded_draws,
    redo_unfinished,
    same_draw,
    stop_if_stale,
)
from shuangsheng.usecases.scoring import outcomes_by_round, score_round
from shuangsheng.vocabulary.errors import UserError
from shuangsheng.vocabulary.text import command_line


def rules_note(rules: RuleSet) -> str:
    must = "、".join(m.label for m in rules.must_play)
    tie = "加赛，直至分出胜负" if rules.tie_break is TieBreak.PLAYOFF else "判最后一局的庄家胜"
    return f"每场{rules.match_minutes}分钟，时间到打完本副牌按级数判胜负；级数相同{tie}。必打级：{must}。"


PapersWriter = Callable[[DrawReport], Papers]  # the draw's papers, written from its report (usecases/papers/draw.py)
Meanwhile = Callable[[str], None]  # a moment of a command's work, by name (tests put another process's change there)


def nothing_meanwhile(moment: str) -> None:
    """The `meanwhile` of a real run: nothing happens between the steps."""


def draw_next(folder: Path, *, seed: int | None = None, lots: Path | None = None, force: bool = False,
              papers: PapersWriter | None = None, known: Sequence[RoundSheet] = (),
              meanwhile: Meanwhile = nothing_meanwhile) -> DrawReport:
    """Draw the next round into round-N.xlsx, recorded in event.db before any file is written; `papers` (the
    CLI's draw sheet and score cards) is called with the report, and the draw is complete once it returns.
    A draw left unfinished (stopped, disk full, a PDF open in a viewer) is completed instead, with the same
    pairings. With the last round not decided, refuse naming every match; with `force`, write its papers again
    (and a missing round workbook of a recorded draw, blank). Never draws a round again. `known`: rounds read
    already (`open_folder`); `meanwhile` (tests): called at "computed", each time the next round has been computed
    from what was read, before anything is recorded."""
    restored = restore_missing(folder) if force else ()

    def once() -> DrawReport:
        nonlocal known
        state = open_folder(folder, drawing=True, known=known)
        known = state.rounds  # a try again (phones entered meanwhile) reads the entries again, not the workbooks
        report = draw_in(state, seed=seed, lots=lots, force=force, papers=papers, meanwhile=meanwhile)
        return replace(report, restored=restored)

    for _ in range(DRAW_TRIES - 1):
        with contextlib.suppress(EntriesMoved, CheckinMoved):  # a phone or the desk meanwhile: computed again
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


class CheckinMoved(TournamentError):
    """A check-in mark was added after `draw` read the check-in and before it recorded round 1: nothing recorded,
    nothing written (`draw_next` reads everything again)."""

    def __init__(self, folder: Path):
        super().__init__(["抽签时，裁判台刚改了报到；这次抽签用的是改动之前的报到，所以没有记下，也没有生成任何文件"],
                         hint=f"请再运行一次 {command_line('draw', folder)}")


def _unchanged(book: Ledger, state: EventFolder) -> None:
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
            papers: PapersWriter | None = None, referee: Referee | None = None,
            meanwhile: Meanwhile = nothing_meanwhile) -> DrawReport:
    """`draw_next` on a folder already open. `referee` (the demo's simulation, never a real event): the values
    typed into a new draw's workbook, written with it."""
    entries = _read_lots(lots) if lots is not None else None  # a bad lots file is named before anything else
    with Ledger.open(state.path) as book:
        adopt_rounds(state.path, book, known=state.rounds)
        draws = book.draws()
        pending = _to_complete(state, draws, force=force)
        if pending is not None and not _holds(state, pending):
            raise TournamentError([redo_unfinished(state.path, pending.round.number)])
        if pending is not None:
            if (seed is not None and seed != pending.round.seed) or lots is not None:  # the same seed: the same draw
                raise TournamentError([_no_second_draw(state.path, pending)])
            report, draw_id = complete_draw(state, book, pending), pending.id
        else:
            report, draw_id = _draw_new(state, book, seed=seed, lots=lots, entries=entries, referee=referee,
                                        meanwhile=meanwhile)
        report = replace(report, notes=state.notes)
        if papers is not None:
            try:
                report = replace(report, papers=papers(report))
            except UserError as exc:  # a PDF open in a viewer, the disk full: `draw` again completes it
                return replace(report, papers_problems=tuple(exc.messages))
        book.draw_done(draw_id)
    return report


def _to_complete(state: EventFolder, draws: Mapping[int, DrawRecord], *,
                 force: bool) -> DrawRecord | None:
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


def _holds(state: EventFolder, record: DrawRecord) -> bool:
    """The round workbook read holds `record`'s draw, or there is none yet (`_complete` writes it)."""
    number = record.round.number
    return len(state.rounds) < number or same_draw(state.rounds[number - 1].round, record.round)


def _no_second_draw(folder: Path, record: DrawRecord) -> str:
    n = record.round.number
    how = f"随机种子 {record.round.seed}" if record.round.seed is not None else "按纸签"
    state = "抽签还没有完成（记分表或打印件没有全部生成）" if not record.done else "这一轮还没有决出胜负"
    return (f"第{n}轮已经抽过签（{how}），{state}；抽出的对阵不能重抽。请不加 --seed/--lots 运行 "
            f"{command_line('draw', folder)}，按原抽签补全。如果是第{n - 1}轮的成绩改正后要把它带进第{n}轮，"
            f"请用 {command_line('draw', folder)} --redo {n}" if n > 1 else
            f"第{n}轮已经抽过签（{how}），{state}；抽出的对阵不能重抽。请不加 --seed/--lots 运行 "
            f"{command_line('draw', folder)}，按原抽签补全")


def teams_at_draw(state: EventFolder, record: DrawRecord | None) -> dict[str, Team]:
    """The teams of a drawn round: as teams.xlsx has them now, and for a team no longer there, the names
    recorded at the draw."""
    return with_recorded_names(state.team_map, record)


def with_recorded_names(teams: Mapping[str, Team], record: DrawRecord | None) -> dict[str, Team]:
    found = dict(teams)
    for team_id, players in (record.names.items() if record is not None else ()):
        if team_id not in found and len(players) == 2:
            found[team_id] = Team(team_id, (players[0], players[1]))
    return found


def complete_draw(state: EventFolder, book: Ledger, record: DrawRecord) -> DrawReport:
    """An unfinished draw carried to its end: its workbook written if it is not there (never over one that is),
    the report the papers are printed from (with its tables' codes, made for those that have none); also the
    report `rebuild` prints the current round's papers again from."""
    drawn = record.round
    path = round_path(state.path, drawn.number)
    teams = teams_at_draw(state, record)
    if not path.exists():
        workbook.write_round(path, drawn, teams, rules_note=rules_note(state.rules), digits=state.digits,
                             record=functools.partial(book.record_bytes, path))
    title = knockout.round_title(drawn.number, len(drawn.pool))
    note = prize_note(drawn, state.event.third_place, digits=state.digits)
    apart = record.apart.description() if drawn.seed is not None else ""
    return DrawReport(round=drawn, path=path, seed_generated=False, backup=None, title=title, note=note, teams=teams,
                      event=state.event, digits=state.digits, resumed=True, codes=table_codes(book, record.id, drawn), apart=apart,
                      field=record.field)


def _listed(folder: Path) -> tuple[str, ...]:
    """Every 组号 of teams.xlsx (none while it cannot be read)."""
    try:
        return tuple(t.id for t in workbook.read_teams(folder / TEAMS_FILE))
    except (workbook.WorkbookError, OSError):
        return ()


def _read_lots(lots: Path) -> tuple[tuple[str, int], ...]:
    try:
        return workbook.read_lots(lots)
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None


def _draw_new(state: EventFolder, book: Ledger, *, seed: int | None, lots: Path | None,
              entries: Sequence[tuple[str, int]] | None = None, referee: Referee | None = None,
              meanwhile: Meanwhile = nothing_meanwhile) -> tuple[DrawReport, int]:
    folder = state.path
    field, checked_in = field_for_draw(folder, book, state.teams) if not state.rounds else (None, 0)
    nxt = _next_round(state, field)
    meanwhile("computed")
    generated = seed is None and lots is None
    try:
        if entries is not None:
            drawn = nxt.from_lots(entries, state.digits)
        else:
            drawn = nxt.draw(seed if seed is not None else knockout.new_seed(), state.digits)
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=exc.heading) from None
    path = round_path(folder, drawn.number)
    files.check_writable(path, force=False)
    teams = state.team_map
    with book.atomic():  # the draw and its codes, only on the results it was computed from: all or nothing
        _unchanged(book, state)
        if not state.rounds and len(book.checkin_rows()) != checked_in:
            raise CheckinMoved(folder)
        applied = nxt.apart if entries is None else NOTHING_APART  # paper lots are as drawn in the room
        draw_id = book.record_draw(drawn, {t: teams[t].players for t in drawn.pool if t in teams},
                                   format={"third_place": state.event.third_place.value, "byes": state.event.byes.value,
                                           "avoid_same_unit": state.event.avoid_same_unit.value}, apart=applied,
                                   field=field)
        codes = table_codes(book, draw_id, drawn)
    typed = referee(drawn) if referee is not None else None
    workbook.write_round(path, drawn, teams, rules_note=rules_note(state.rules), typed=typed, digits=state.digits,
                         record=functools.partial(book.record_bytes, path))
    note = prize_note(drawn, state.event.third_place, digits=state.digits)
    met = tuple(meetings(((p.a, p.b) for p in drawn.pairings), nxt.apart, state.digits)) if entries is not None else ()
    reserves = tuple(t.id for t in state.teams if t.reserve and t.id not in drawn.pool) if drawn.number == 1 else ()
    report = DrawReport(round=drawn, path=path, seed_generated=generated, backup=None, title=nxt.title, note=note,
                        teams=teams, event=state.event, digits=state.digits, lots=lots, codes=codes, apart=applied.description(),
                        meetings=met, reserves=reserves, field=field)
    return report, draw_id


def next_draw(folder: Path) -> NextRound:
    """What `draw` would draw next in `folder` (its number and pool: round 1's after 报到), or the TournamentError it
    would refuse with."""
    state = open_folder(folder, drawing=True)
    field = None
    book = Ledger.readable(folder) if not state.rounds else None
    if book is not None:
        with book:
            field, _ = field_for_draw(folder, book, state.teams)
    return _next_round(state, field)


def _next_round(state: EventFolder, field: Field | None = None) -> NextRound:
    """What to draw next; with the last round not decided, every match that holds it up and what to do. Round 1
    is drawn from `field` (check-in's), else from every pair that is not a reserve (候补)."""
    folder = state.path
    scores = state.scores()
    stop_if_stale(state, scores)
    rounds = [s.round for s in scores]
    ids = list(rounds[0].pool) if rounds else list(field.pool) if field is not None else [
        t.id for t in state.teams if not t.reserve]
    apart = Apart.of(t for t in state.teams if t.id in set(ids))
    try:
        nxt = next_round(ids, rounds, outcomes_by_round(scores), apart=apart, digits=state.digits,
                         avoid_same_unit=state.event.avoid_same_unit, **format_options(state.event))
    except RoundNotDecided as exc:
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
    digits = event_digits(current, (), draws.values())
    with Ledger.open(folder) as book:
        for number in missing:
            record = draws[number]
            teams = with_recorded_names(current, record)
            path = round_path(folder, number)
            workbook.write_round(path, record.round, teams, rules_note=rules_note(event.rules), digits=digits,
                                 record=functools.partial(book.record_bytes, path))
            book.log("restored", round=number, file=path.name)
            written.append(path)
    return tuple(written)


def table_codes(book: Ledger, draw_id: int, drawn: Round) -> dict[int, str]:
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


# --- draw --check ---


def check_draw(folder: Path, number: int) -> DrawCheck:
    """Redo round `number`'s draw from the seed (or paper lots) and pool event.db recorded — from round-N.xlsx
    in a folder without event.db — and compare with the record and the workbook. Writes nothing."""
    if (missing := event_file.missing_folder(folder)) is not None:
        raise TournamentError([missing])
    draws = _draws_to_check(folder)
    if number not in draws and not round_path(folder, number).exists():
        raise TournamentError([_not_drawn(folder, number, draws)])  # before any work: N may be any number typed
    sheets = {n: read_if_there(round_path(folder, n)) for n in range(1, number + 1)}
    rounds = {n: (draws[n].round if n in draws else sheet.round if sheet else None) for n, sheet in sheets.items()}
    target = rounds[number]
    if target is None:
        raise TournamentError([_not_drawn(folder, number, draws)])
    earlier = [r for n, r in sorted(rounds.items()) if n < number and r is not None]
    third = next(((p.a, p.b) for p in target.pairings if p.third_place), None)
    byes, previous_byes = len(target.byes), knockout.byes_so_far(earlier)
    apart = draws[number].apart if number in draws else NOTHING_APART  # as recorded: teams.xlsx may have changed
    note = apart.description()
    digits = event_digits(_listed(folder), (*earlier, target), draws.values())
    try:
        if target.seed is not None:
            again = draw_round(number, target.pool, seed=target.seed, byes=byes, previous_byes=previous_byes,
                               third_place_match=third, apart=apart, digits=digits)
            if not apart and not same_draw(again, target):
                again, note = _with_units_now(folder, again, target, previous_byes, third, digits)
        else:
            again = draw_from_lots(number, target.lots, target.pool, byes=byes, previous_byes=previous_byes,
                                   third_place_match=third, digits=digits)
    except knockout.KnockoutError as exc:
        raise TournamentError(exc.issues, heading=f"第{number}轮：按记下的抽签名单重抽不成立：") from None
    differences = []
    if not same_draw(again, target):
        differences.append("重抽的对阵与" + ("event.db 记下的" if number in draws else f"round-{number}.xlsx 中的")
                           + "不同")
    sheet = sheets[number]
    if sheet is not None and number in draws and not same_draw(again, sheet.round):
        differences.append(f"重抽的对阵与 round-{number}.xlsx 中的不同")
    if sheet is not None and number in draws and sheet.round.seed != target.seed:
        differences.append(f"round-{number}.xlsx 里写的随机种子（{_seed_text(sheet.round.seed)}）与 event.db "
                           f"记下的（{_seed_text(target.seed)}）不同")
    source = "event.db" if number in draws else f"round-{number}.xlsx"
    return DrawCheck(number, target.seed, target.pool, source, not differences, tuple(differences), note)


def _with_units_now(folder: Path, plain: Round, target: Round, previous_byes: Sequence[str],
                    third: tuple[str, str] | None, digits: int) -> tuple[Round, str]:
    """A seeded draw whose record keeps nothing apart (a folder without event.db, or one rebuilt) that the plain
    lot does not reproduce: drawn again with the units and seeds teams.xlsx has now, kept when that reproduces it
    (and said); else the plain lot, whose difference `check_draw` names."""
    try:
        now = Apart.of(workbook.read_teams(folder / TEAMS_FILE)).among(target.pool)  # a reserve who came in too
    except (workbook.WorkbookError, OSError):
        return plain, ""
    if not now:
        return plain, ""
    again = draw_round(target.number, target.pool, seed=target.seed or 0, byes=len(target.byes),
                       previous_byes=previous_byes, third_place_match=third, apart=now, digits=digits)
    if not same_draw(again, target):
        return plain, ""
    return again, f"没有记下这一轮抽签时的单位、种子（以前版本的文件夹，或 event.db 重建过），按现在报名表里的单位、种子重抽，{now.description()}"


def _draws_to_check(folder: Path) -> dict[int, DrawRecord]:
    """The draws event.db holds; a newer program's event.db is refused (never checked against the workbook instead),
    a damaged or missing one leaves the workbooks to check."""
    try:
        book = Ledger.existing(folder)
    except LedgerError as exc:
        raise TournamentError(exc.issues, heading=exc.heading, hint=exc.hint) from None
    if book is None:
        return {}
    with book:
        return book.draws()


def _not_drawn(folder: Path, number: int, draws: Mapping[int, DrawRecord]) -> str:
    most = knockout.MAX_TEAMS.bit_length()  # rounds of the largest field
    drawn = sorted(draws) or [n for n in range(1, most + 1) if round_path(folder, n).exists()]
    said = f"{folder}：第{number}轮还没有抽签（event.db 和 round-{number}.xlsx 里都没有）"
    if not drawn:
        return f"{said}；还没有抽过任何一轮，抽签请运行 {command_line('draw', folder)}"
    return f"{said}；已抽签的是第{_numbers(drawn)}轮，例如 {command_line('draw', folder, '--check', drawn[-1])}"


def _numbers(numbers: Sequence[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _seed_text(seed: int | None) -> str:
    return "空" if seed is None else str(seed)


def read_if_there(path: Path) -> RoundSheet | None:
    if not path.exists():
        return None
    try:
        return workbook.read_round(path)
    except workbook.WorkbookError as exc:
        raise TournamentError(exc.issues) from None
