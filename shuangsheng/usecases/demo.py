"""A whole sample event, simulated: the seed notice, N teams, every round drawn, filled and scored, the placings.

The printed papers are written by the writers the CLI passes in (`shuangsheng/usecases/papers/`), so this module
stays free of reportlab.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from shuangsheng.game.hands import MatchRecord
from shuangsheng.game.rules import RuleSet
from shuangsheng.game.simulate import simulate_match
from shuangsheng.knockout import knockout
from shuangsheng.knockout.knockout import Round
from shuangsheng.knockout.placings import Placings
from shuangsheng.knockout.teams import Team
from shuangsheng.render.reports import DrawReport, RoundScore, ScoreReport
from shuangsheng.storage import event as event_file
from shuangsheng.storage import files, workbook
from shuangsheng.storage.files import Written
from shuangsheng.storage.ledger.connection import Ledger, kept_open
from shuangsheng.storage.ledger.generated import is_generated
from shuangsheng.storage.names import (
    DB_NAME,
    DEMO_RECORD,
    EVENT_FILE,
    HOLDER_NAME,
    LEGACY_RECORD,
    LOCK_NAME,
    TEAMS_FILE,
    checked_path,
)
from shuangsheng.storage.workbook.round_reader import MatchSheet, RoundSheet
from shuangsheng.usecases.awards import awards_in, bracket_in, rounds_results
from shuangsheng.usecases.draw import draw_in
from shuangsheng.usecases.folder import EventFolder, open_folder
from shuangsheng.usecases.holding import held
from shuangsheng.usecases.papers.draw import write_draw_papers
from shuangsheng.usecases.papers.ending import write_awards
from shuangsheng.usecases.papers.materials import build_all
from shuangsheng.usecases.papers.score import write_playoff_slips, write_score_papers
from shuangsheng.usecases.score import score_in, write_checked_copy
from shuangsheng.vocabulary.errors import Issue, UserError
from shuangsheng.vocabulary.text import typed_path

# What the demo wrote (name → sha256 and size) is kept in event.db (a "demo" log entry), so that a later demo
# replaces only those files, unchanged. DEMO_RECORD is where demos before event.db kept it (read, then removed).
# The ledger itself, its journal files and the lock: the program's own bookkeeping, never the demo's output.
BOOKKEEPING = frozenset({DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", DB_NAME + "-journal",
                         LEGACY_RECORD})
HELD = frozenset({LOCK_NAME, HOLDER_NAME})  # this command's own lock on the folder stays
SHOWN_NAMES = 8  # a refusal names this many files, then says how many more
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢"
GIVEN = (
    "建国", "秀英", "桂兰", "志明", "玉珍", "德华", "淑芬", "国庆", "文静", "振华", "丽华", "永福", "素梅", "家豪",
    "春生", "美玲", "海涛", "凤英", "宝山", "兰芳", "子堃", "玥", "喆", "立新", "惠敏", "长青", "翠萍", "荣", "明",
)


class DemoError(UserError, ValueError):
    """The demo cannot run here: the folder is somebody's, or the team count is out of range."""


@dataclass(frozen=True)
class RoundFiles:
    """What the demo wrote for one round: its workbook, the checked copy and the round's papers in print order."""

    number: int
    seed: int | None
    workbook: Path
    checked: Path
    papers: tuple[Path, ...]


@dataclass(frozen=True, kw_only=True)
class DemoReport:
    folder: Path
    settings_path: Path  # event.toml
    teams_path: Path  # teams.xlsx
    event: event_file.Event
    teams: tuple[Team, ...]
    rounds: tuple[RoundScore, ...]
    files: tuple[RoundFiles, ...]  # round by round
    warnings: tuple[str, ...]  # the papers' (each once)
    placings: Placings
    state: EventFolder  # the folder as read round by round, for what the caller builds next


def make_teams(rng: random.Random, count: int) -> tuple[Team, ...]:
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < 2 * count:
        name = rng.choice(SURNAMES) + rng.choice(GIVEN)
        if name not in seen:
            seen.add(name)
            names.append(name)
    return tuple(
        Team(f"{i + 1:02d}", (names[2 * i], names[2 * i + 1])) for i in range(count)  # no made-up phone numbers
    )


def _recorded(folder: Path) -> dict[str, object] | None:
    """The files an earlier demo wrote here, by name, with their fingerprints (event.db's latest "demo" entry, or
    the record of a demo from before event.db); None without a readable record."""
    import json

    book = Ledger.existing(folder)
    if book is not None:
        with book:
            entries = book.entries("demo")
        if entries and isinstance(entries[-1][1].get("files"), dict):
            return entries[-1][1]["files"]
    try:
        data = json.loads((folder / DEMO_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    written = data.get("files") if isinstance(data, dict) else None
    return written if isinstance(written, dict) else None


def is_demo_folder(folder: Path) -> bool:
    """A folder an earlier demo wrote (it recorded what it wrote there)."""
    return _recorded(folder) is not None


def _names(names: list[str]) -> str:
    shown = "、".join(names[:SHOWN_NAMES])
    return shown + (f" 等 {len(names)} 个" if len(names) > SHOWN_NAMES else "")


def _refusal(folder: Path, foreign: list[str], changed: list[str], *, old_record: bool) -> list[Issue]:
    elsewhere = f"请用 --out 另选一个空文件夹，例如 shuangsheng demo --out {typed_path(folder.parent / '示例')}"
    if EVENT_FILE in foreign:  # somebody's real event
        return [Issue.plain(f"{folder} 是一个真实的活动文件夹（有 {EVENT_FILE}），示例不能放在这里，"
                            f"也不会改动其中的任何文件；{elsewhere}")]
    lines = []
    if foreign:
        why = ("（这个示例文件夹是旧版本生成的，没有记下它写了哪些文件）" if old_record else "")
        lines.append(Issue.of_file(folder, f"里面有不是示例生成的文件{why}：{_names(foreign)}"))
    if changed:
        lines.append(Issue.of_file(folder, f"这些文件是示例生成的，但之后被改动过：{_names(changed)}"))
    lines.append(Issue.plain("示例只替换它自己生成、之后没有改动过的文件，不会删除或覆盖上面这些文件。"
                             f"{elsewhere}；确定不要这些文件时，先把它们删除或移走，再运行 demo"))
    return lines


def _replaceable(path: Path, recorded: dict[str, object]) -> bool:
    """Written by the demo and unchanged; or an output the program regenerates (a PDF or checked copy that
    `awards`, `bracket` or `score` wrote again in the demo folder) exactly as it last wrote it, or the ledger."""
    if path.name in recorded and files.unchanged(path, recorded[path.name]):
        return True
    return path.name in BOOKKEEPING or is_generated(path)


def prepare_folder(folder: Path) -> None:
    """An empty folder, or a demo folder holding only files the program wrote and nobody changed since (they are
    removed, to be written again); anything else is refused (DemoError naming the files) and left untouched."""
    if not folder.exists():
        folder.mkdir(parents=True)
        return
    if not folder.is_dir():
        raise DemoError([f"{folder} 是一个文件，不是文件夹；请用 --out 另选一个空文件夹"])
    recorded = _recorded(folder)
    entries = sorted((p for p in folder.iterdir() if p.name != DEMO_RECORD and p.name not in HELD), key=lambda p: p.name)
    left = [p for p in entries if recorded is None or not _replaceable(p, recorded)]
    foreign = [p.name for p in left if p.name not in (recorded or {})]
    changed = [p.name for p in left if p.name in (recorded or {})]
    if foreign or changed:
        raise DemoError(_refusal(folder, foreign, changed, old_record=recorded is None and (folder / DEMO_RECORD).exists()))
    for path in [*entries, folder / DEMO_RECORD]:
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:  # on Windows: a PDF or workbook of the old demo open in a viewer
            raise files.CannotWrite(path, exc) from None


def record_folder(folder: Path) -> Path:
    """Write down in event.db every file now in `folder` (all of them the demo's) with its fingerprint, so that
    the next demo knows what it may replace: a file changed since, or any other file, it leaves alone."""
    import stat

    written = {}
    for path in sorted(folder.iterdir()):
        skip = path.name in (DEMO_RECORD, *BOOKKEEPING, *HELD)
        if not skip and stat.S_ISREG(path.lstat().st_mode):
            written[path.name] = files.fingerprint(path)
    with Ledger.open(folder) as book:
        book.log("demo", files=written)
    (folder / DEMO_RECORD).unlink(missing_ok=True)
    return folder / DB_NAME


class Referee:
    """SIMULATION: the referees of one round, called by the draw with the round it drew (`shuangsheng.usecases.draw.Referee`):
    every match is played (`records`, in table order from the demo's random numbers) and typed whole, 加赛 hands in
    their rows, written by the draw into the round workbook it writes: one workbook per round instead of a blank
    one written again filled. `tied`: some table was tied when time was up (its 加赛单 is printed)."""

    def __init__(self, rng: random.Random, rules: RuleSet):
        self.rng, self.rules = rng, rules
        self.drawn: Round | None = None  # the round it was called with
        self.records: dict[int, MatchRecord] = {}

    def __call__(self, drawn: Round) -> dict[str, dict[tuple[int, int], object]]:
        self.drawn = drawn
        self.records = {p.table: simulate_match(self.rng, rules=self.rules)[0] for p in drawn.pairings}
        return workbook.typed_cells(self.records)

    @property
    def tied(self) -> bool:
        return any(h.playoff for r in self.records.values() for h in r.hands)


def as_at_time(sheet: RoundSheet) -> RoundSheet:
    """SIMULATION: the round's sheets as they stood when time was up — each match without its 加赛 hands — as
    read, never written: the demo prints the 加赛单 from them (what `score` prints at time on the day) without
    writing the round workbook twice and without recording in event.db an outcome of a sheet no file held."""
    def regular(match: MatchSheet) -> MatchSheet:
        kept = [i for i, hand in enumerate(match.record.hands) if not hand.playoff]
        return replace(match, record=replace(match.record, hands=tuple(match.record.hands[i] for i in kept)),
                       rows=tuple(match.rows[i] for i in kept))
    return replace(sheet, matches=tuple(regular(m) for m in sheet.matches))


def _note(written: Written | None, papers: dict[Path, None], warnings: dict[str, None]) -> None:
    papers.update(dict.fromkeys(written.paths if written else ()))
    warnings.update(dict.fromkeys(written.warnings if written else ()))


def run_demo(
    folder: Path,
    *,
    teams: int = 11,
    seed: int = 2026,
    after_draw: Callable[[DrawReport], Written] | None = None,
    after_score: Callable[[ScoreReport], Written] | None = None,
    finish: Callable[[DemoReport], None] | None = None,
    at_time: Callable[[ScoreReport], Written] | None = None,
) -> DemoReport:
    """The whole event, round by round as on the day: draw, play, score. `after_draw` and `after_score` are
    called where the CLI's `draw` and `score` would print (the papers of each round; what they write is recorded
    in `files`), `finish` once the event is over (the printed materials). A round with a match tied when time was
    up has its 加赛单 printed (`at_time`, by default `after_score`) from its sheets as they stood then
    (`as_at_time`: scored, not recorded); the round is scored with its 加赛 hands.

    The folder must be empty or hold only what an earlier demo wrote, unchanged (see `prepare_folder`); whatever
    is written, even when a step fails, is recorded as the demo's own (`record_folder`)."""
    if not knockout.MIN_TEAMS <= teams <= knockout.MAX_TEAMS:
        raise DemoError([f"参赛组数应为 {knockout.MIN_TEAMS}–{knockout.MAX_TEAMS}，实际为 {teams}"])
    prepare_folder(folder)
    try:
        with kept_open(folder):  # event.db opened once for the dozens of files written
            report = _play(folder, random.Random(seed), teams, after_draw=after_draw, after_score=after_score,
                           at_time=at_time or after_score)
            if finish is not None:
                finish(report)
    finally:
        record_folder(folder)
    return report


def _play(
    folder: Path,
    rng: random.Random,
    teams: int,
    *,
    after_draw: Callable[[DrawReport], Written] | None,
    after_score: Callable[[ScoreReport], Written] | None,
    at_time: Callable[[ScoreReport], Written] | None = None,
) -> DemoReport:
    settings_path = files.write_text(folder / EVENT_FILE, event_file.default_text())
    event = event_file.load(folder)
    team_list = make_teams(rng, teams)
    teams_path = folder / TEAMS_FILE
    workbook.write_teams(teams_path, team_list)
    scores: list[RoundScore] = []
    written: list[RoundFiles] = []
    warnings: dict[str, None] = {}
    state = open_folder(folder)  # once; each round is read once, right after it is filled
    while not (scores and knockout.is_final(scores[-1].round)):
        referee = Referee(rng, event.rules)
        drawn = draw_in(state, seed=rng.randrange(10**6, 10**9), referee=referee)
        papers: dict[Path, None] = {}  # in the order they were printed, each once
        if after_draw is not None:
            _note(after_draw(drawn), papers, warnings)
        assert referee.drawn == drawn.round, "a demo starts from an empty folder: each draw is new, typed as drawn"
        sheet = workbook.read_round(drawn.path)  # what the referees filled is what is scored
        if at_time is not None and referee.tied:
            earlier = state.with_round(as_at_time(sheet))
            _note(at_time(ScoreReport(score=earlier.score_of(drawn.round.number), checked=checked_path(drawn.path),
                                      teams=earlier.team_map, event=earlier.event, digits=earlier.digits)),
                  papers, warnings)
        state = state.with_round(sheet)
        report = score_in(state, drawn.round.number)
        scores.append(report.score)
        checked = write_checked_copy(report)
        if after_score is not None:
            _note(after_score(report), papers, warnings)
        written.append(RoundFiles(drawn.round.number, drawn.round.seed, drawn.path, checked, tuple(papers)))
    placings, _ = awards_in(state)
    return DemoReport(folder=folder, settings_path=settings_path, teams_path=teams_path, event=event, teams=team_list,
                      rounds=tuple(scores), files=tuple(written), warnings=tuple(warnings), placings=placings,
                      state=state)


@dataclass(frozen=True)
class DemoMade:
    """`demo` as one call: the event played (`report`), its printed materials (`built`) and its ending (`ending`)."""

    report: DemoReport
    built: Written
    ending: Written


def make_demo(out: Path, *, teams: int = 11, seed: int = 2026,
              step: Callable[[str, int, int], None] | None = None, patience: float | None = None,
              waiting: Callable[[str], None] | None = None) -> DemoMade:
    """The whole sample event in `out` with every paper, held as one file-writing command (only when the demo may
    use the folder: another folder is refused untouched, no lock file left). `step(label, done, total)` hears each
    round drawn and scored (the console's progress bar)."""
    rounds = max(1, (teams - 1).bit_length())
    tell = step or (lambda label, done, total: None)
    done: dict[str, Written] = {}

    def drawn(report: DrawReport) -> Written:
        tell(f"第{report.round.number}轮：抽签、打印对阵表和计分卡", 2 * report.round.number - 1, 2 * rounds + 1)
        return write_draw_papers(report, force=True)

    def scored(report: ScoreReport) -> Written:
        number = report.score.round.number
        tell(f"第{number}轮：模拟记分、打印成绩", 2 * number, 2 * rounds + 1)
        return write_score_papers(report, force=True)

    def tied(report: ScoreReport) -> Written:  # when time was up: the 加赛单 (the results come once decided)
        return write_playoff_slips(report, force=True)

    def finish(report: DemoReport) -> None:
        tell("打印材料、晋级图、成绩公告和荣誉证书", 2 * rounds, 2 * rounds + 1)
        done["built"] = build_all(out, report.event, report.teams, force=True)
        done["ending"] = write_awards(out, bracket_in(report.state)[0], report.event,
                                      day=report.event.print.award_date, rounds=rounds_results(report.state),
                                      force=True)

    ours = not out.exists() or (out.is_dir() and (not any(out.iterdir()) or is_demo_folder(out)))
    if ours:
        with contextlib.suppress(OSError):  # held from the start: the lock file is there on the next run too
            out.mkdir(parents=True, exist_ok=True)
    with held(out, patience=patience, waiting=waiting) if ours else contextlib.nullcontext():
        report = run_demo(out, teams=teams, seed=seed, finish=finish, after_draw=drawn, after_score=scored, at_time=tied)
    return DemoMade(report, done["built"], done["ending"])
