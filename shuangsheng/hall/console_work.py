"""What the console's pages show and what their buttons do, through the same use-cases as the command line
(`shuangsheng.usecases`): each page's facts read from the event folder (`*_facts`), and each long button's work
(`*_work`) as a function of a progress report that returns an `Outcome` record — the files written, the problems
found (the one error record), where to go next. Nothing here is rendered: `shuangsheng.render.console_page` is."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from shuangsheng.hall.console_jobs import Report
from shuangsheng.knockout.teams import shown_id, team_label, team_name
from shuangsheng.render.console_page import Action, Grid, Outcome, Row, Step
from shuangsheng.storage import names
from shuangsheng.storage.files import write_text
from shuangsheng.vocabulary.errors import Issue, UserError

PATIENCE = 600.0  # seconds a button waits for a command holding the folder (said on the progress bar meanwhile)
DEMO_NAME = "示例比赛"  # the demo event's folder under the root
DEMO_TEAMS = 16

Work = Callable[[Report], Outcome]

if TYPE_CHECKING:
    from shuangsheng.render.reports import DrawReport, RoundScore
    from shuangsheng.storage.files import Written
    from shuangsheng.usecases.score_step import ScoreStep


def waiting(report: Report) -> Callable[[str], None]:
    """What the progress bar says while another command holds the folder."""
    return lambda holder: report(Step(f"正在等待：{holder}（它结束后自动继续）"))


def made_files(folder: Path, found: Sequence[Path]) -> tuple[Path, ...]:
    """The files of `found` that are in the event folder (the ones the console can open), in their order."""
    return tuple(p for p in found if p.parent == folder and p.exists())


# --- materials ---


def materials_work(folder: Path) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.usecases.materials import make_materials

        report(Step("正在排版通知、规则、报名表、签条、签收表和秩序册……", 1, 2))
        made = make_materials(folder, patience=PATIENCE, waiting=waiting(report))
        lines = [f"字体：{made.written.note}", *made.written.warnings]
        if made.blank:
            lines.append("报名表还没有填写参赛组，报名表、抽签签条和签收表按空白打印")
        return Outcome(title="打印材料", ok=not made.team_problems, lines=tuple(lines),
                       files=made_files(folder, made.written.paths), problems=made.team_problems,
                       heading="报名表有错误，报名表、抽签签条和签收表这次按空白打印；请改正：" if made.team_problems else None,
                       next=(Action("去报名页改正", "/console/teams"),) if made.team_problems else
                       (Action("去抽签", "/console/draw"),))
    return work


def materials_facts(folder: Path) -> tuple[Path, ...]:
    return tuple(folder / n for n in (*names.MATERIALS, names.PROGRAMME) if (folder / n).exists())


# --- the draw ---


@dataclass(frozen=True, kw_only=True)
class DrawFacts:
    drawn: int  # rounds drawn
    next_number: int | None  # the round a draw would draw now
    next_title: str
    pool: tuple[str, ...]  # its teams (for paper lots)
    teams: Mapping[str, str]  # team id → label
    shown: Mapping[str, str]  # team id → its 组号 as printed ('007' in a field over 99)
    refusal: UserError | None  # why no round can be drawn now
    papers: tuple[tuple[int, tuple[Path, ...]], ...]  # each drawn round's papers


def draw_facts(folder: Path) -> DrawFacts:
    from shuangsheng.usecases.draw import next_draw
    from shuangsheng.usecases.folder import open_folder

    drawn = names.rounds_drawn(folder)
    papers = tuple((n, tuple(names.round_papers(folder, n))) for n in range(1, drawn + 1))
    try:
        nxt = next_draw(folder)
        state = open_folder(folder)
    except UserError as exc:
        return DrawFacts(drawn=drawn, next_number=None, next_title="", pool=(), teams={}, shown={}, refusal=exc,
                         papers=papers)
    teams, digits = {t.id: t for t in state.teams}, state.digits  # the event's one width, as the papers print it
    return DrawFacts(drawn=drawn, next_number=nxt.number, next_title=nxt.title, pool=nxt.pool,
                     teams={t: team_label(teams, t, digits) for t in teams}, shown={t: shown_id(t, digits) for t in teams},
                     refusal=None, papers=papers)


def lots_file(folder: Path, number: int, lots: Mapping[str, str]) -> Path | None:
    """The paper lots typed in the page, kept as `第N轮签号.csv` beside the round (the record of what was typed), in
    the form `draw --lots` reads; None when no lot was typed (a draw by seed)."""
    typed = {team: lot.strip() for team, lot in lots.items() if lot.strip()}
    if not typed:
        return None
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["组号", "签号"])
    for team, lot in typed.items():
        writer.writerow([team, lot])
    return write_text(folder / f"第{number}轮签号.csv", out.getvalue(), force=True)


def draw_work(folder: Path, *, seed: int | None, lots: Mapping[str, str], number: int) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.render.report import draw_text
        from shuangsheng.usecases.draw import draw_next
        from shuangsheng.usecases.holding import held
        from shuangsheng.usecases.papers.draw import write_draw_papers

        with held(folder, patience=PATIENCE, waiting=waiting(report)):
            report(Step(f"正在抽第{number}轮……", 1, 3))
            path = lots_file(folder, number, lots)

            def papers(drawn: DrawReport) -> Written:
                report(Step("正在排版对阵表和计分卡……", 2, 3))
                return write_draw_papers(drawn, force=False)

            done = draw_next(folder, seed=seed, lots=path, papers=papers)
        written = done.papers.paths if done.papers is not None else ()
        told = done.papers.warnings if done.papers is not None else ()  # the 秩序册 kept, the font's notes
        problems = tuple(Issue.plain(f"对阵表/计分卡没有更新：{line}") for line in done.papers_problems)
        return Outcome(title=f"抽签：{done.title}", ok=not problems, lines=(*draw_text(done, folder).splitlines(),
                                                                            *done.notes, *told),
                       files=made_files(folder, (*written, done.path)), problems=problems,
                       hint="抽签已经记下；解决上面的问题后再点一次“抽签”，会按同一抽签补全" if problems else None,
                       next=(Action("去本轮", "/console/round"), Action("回抽签页", "/console/draw")))
    return work


def check_work(folder: Path, number: int) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.render.report import check_text
        from shuangsheng.usecases.draw import check_draw

        report(Step(f"正在按记下的随机种子重抽第{number}轮……", 1, 2))
        checked = check_draw(folder, number)
        return Outcome(title=f"复核第{number}轮抽签", ok=checked.agrees, lines=tuple(check_text(checked).splitlines()),
                       next=(Action("回抽签页", "/console/draw"),))
    return work


# --- scoring ---


def score_work(folder: Path, number: int | None, *, accept_rules: bool = False) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.usecases.holding import held
        from shuangsheng.usecases.papers.score import write_score_papers
        from shuangsheng.usecases.score_step import score_and_write

        with held(folder, patience=PATIENCE, waiting=waiting(report)):
            report(Step("正在读取记分表和扫码录分，逐局计算……", 1, 2))
            step = score_and_write(folder, number, accept_rules=accept_rules,
                                   write_papers=lambda scored: write_score_papers(scored, force=False))
        return scored_outcome(folder, step)
    return work


def scored_outcome(folder: Path, step: ScoreStep) -> Outcome:
    """A round scored (`ScoreStep`) as the page shows it: a row per table, every problem at its place."""
    score = step.report.score
    number = score.round.number
    if step.empty:
        return Outcome(title=f"第{number}轮计分", lines=(f"第{number}轮还没有录入任何一桌：各桌录入后再点“计分”",),
                       next=(Action("回本轮", "/console/round"),))
    problems = (*score.problems, *(i for item in step.not_written for i in item.reasons))
    lines = [*step.report.notes, *step.warnings]
    if step.report.rules_held:
        lines.append("计分规则在计分后改过：已计分的轮次仍按原来的规则；要按新规则重新计算，请到“设置”页确认新规则")
    nxt: list[Action] = []
    if step.report.redo is not None:
        nxt.append(Action(f"更正：按新成绩重抽第{step.report.redo}轮", "/console/correct"))
    elif not problems and score.advancement.decided:
        nxt.append(Action("抽下一轮" if not _final(score) else "颁奖", "/console/draw" if not _final(score)
                          else "/console/awards"))
    nxt.append(Action("回本轮", "/console/round"))
    files = made_files(folder, (*step.papers, *((step.checked,) if step.checked else ())))
    return Outcome(title=f"第{number}轮计分", ok=not problems, lines=tuple(lines), files=files, problems=problems,
                   heading="这些地方需要改正（改好记分表并保存、关闭后再点“计分”）：" if problems else None,
                   next=tuple(nxt), grid=results_grid(score))


def _final(score: RoundScore) -> bool:
    from shuangsheng.knockout.knockout import is_final

    return is_final(score.round)


def results_grid(score: RoundScore) -> Grid:
    """The round's tables as rows: 桌号, 甲方, 乙方, 状态, 级数, 胜方 — each row with its problems."""
    from shuangsheng.table.desk import desk_state, label

    digits = score.sheet.digits  # as wide as the round workbook writes them
    rows = []
    for m in score.matches:
        r = m.record
        levels = f"{r.levels.a.label}：{r.levels.b.label}" if r.levels is not None else ""
        said = "弃权" if r.forfeit is not None else label(desk_state(r), r.hands)
        rows.append(Row((str(r.table), team_name(r.a, digits), team_name(r.b, digits), said,
                         levels, team_name(r.winner, digits) if r.winner else ""), r.problems,
                        "bad" if r.problems else "done" if r.winner else ""))
    return Grid(("桌号", "甲方", "乙方", "状态", "级数", "胜方"), tuple(rows))


# --- corrections ---


def redo_work(folder: Path, number: int) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.render.report import draw_text
        from shuangsheng.usecases.holding import held
        from shuangsheng.usecases.papers.draw import write_draw_papers
        from shuangsheng.usecases.redo import redo_draw

        with held(folder, patience=PATIENCE, waiting=waiting(report)):
            report(Step(f"正在按更正后的成绩重排第{number}轮……", 1, 2))
            done = redo_draw(folder, number, papers=lambda drawn: write_draw_papers(drawn, force=False))
        written = done.papers.paths if done.papers is not None else ()
        return Outcome(title=f"更正：重排第{number}轮", lines=tuple(draw_text(done, folder).splitlines()),
                       files=made_files(folder, (*written, done.path)),
                       next=(Action("去本轮", "/console/round"), Action("回更正页", "/console/correct")))
    return work


def rebuild_work(folder: Path) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.storage.ledger.lock import exclusive
        from shuangsheng.usecases.papers.draw import write_draw_papers
        from shuangsheng.usecases.papers.qr_sheet import reprint_qr_sheet
        from shuangsheng.usecases.rebuild import rebuild, rebuilt_lines

        report(Step("正在按比赛文件夹里的记分表重建比赛记录……", 1, 2))
        with exclusive(folder):  # held, but not prepared: preparing is what refuses a lost ledger
            done = rebuild(folder, papers=lambda drawn: write_draw_papers(drawn, force=True), sheet=reprint_qr_sheet)
        papers = getattr(done.papers, "paths", ())
        return Outcome(title="重建比赛记录", ok=not done.papers_problems, lines=tuple(rebuilt_lines(done)),
                       files=made_files(folder, papers), next=(Action("去本轮", "/console/round"),))
    return work


# --- awards ---


def awards_work(folder: Path, *, per_player: bool) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.render.report import placings_text
        from shuangsheng.usecases.awards import bracket, rounds_results
        from shuangsheng.usecases.holding import held
        from shuangsheng.usecases.papers.ending import write_awards, write_bracket

        with held(folder, patience=PATIENCE, waiting=waiting(report)):
            report(Step("正在读取各轮成绩……", 1, 3))
            chart, state = bracket(folder)
            report(Step("正在排版晋级图、成绩公告、荣誉证书和成绩册……", 2, 3))
            if chart.placings.complete:
                written = write_awards(folder, chart, state.event, day=state.event.print.award_date,
                                       per_player=per_player, replaced=state.replaced, rounds=rounds_results(state))
            else:
                written = write_bracket(folder, chart, state.event)
        lines = [*placings_text(chart.placings, state.team_map, state.digits).splitlines(), *state.notes, *written.warnings]
        return Outcome(title="颁奖", ok=True, lines=tuple(lines), files=made_files(folder, written.paths),
                       next=(Action("回颁奖页", "/console/awards"),))
    return work


def ending_files(folder: Path) -> tuple[Path, ...]:
    stems = (names.BRACKET, names.ANNOUNCEMENT, names.CERTIFICATES, names.RESULTS_BOOK, "成绩公告.png")
    return tuple(p for n in stems if (p := folder / n).exists())


# --- the demo ---


def demo_work(root: Path, *, teams: int = DEMO_TEAMS) -> Work:
    def work(report: Report) -> Outcome:
        from shuangsheng.usecases.demo import make_demo

        out = root / DEMO_NAME
        report(Step(f"正在生成示例比赛（{teams}组）……", 0, 1))
        made = make_demo(out, teams=teams, seed=2026, patience=PATIENCE, waiting=waiting(report),
                         step=lambda label, done, total: report(Step(label, done, total)))
        return Outcome(title="示例比赛", lines=(f"示例比赛已生成：{len(made.report.teams)}组，{len(made.report.rounds)}轮",
                                              f"文件夹：{out}"),
                       next=(Action("打开示例比赛", "/console/events/open", (("name", DEMO_NAME),)),))
    return work


# --- what each page shows ---


def events_facts(folder: Path | None, root: Path | None) -> dict[str, object]:
    from shuangsheng.usecases.events import events_under, summary

    if root is None:
        return {"events": (summary(folder),) if folder is not None else (), "demo": None}
    demo = root / DEMO_NAME
    return {"events": events_under(root), "demo": demo if (demo / names.EVENT_FILE).is_file() else None}


def settings_facts(folder: Path, root: Path | None) -> dict[str, object]:
    from shuangsheng.usecases.settings import settings_form

    return {"form": settings_form(folder), "typed": {}, "error": None}


def teams_facts(folder: Path, root: Path | None) -> dict[str, object]:
    from shuangsheng.storage.workbook.schema import TEAMS_HEADER
    from shuangsheng.usecases.teams import team_table

    return {"table": team_table(folder), "drawn": names.rounds_drawn(folder), "labels": TEAMS_HEADER[1:],
            "typed": {}, "error": None}


def round_facts(folder: Path, root: Path | None) -> dict[str, object]:
    from shuangsheng.storage.names import results_name

    drawn = names.rounds_drawn(folder)
    slips = tuple(sorted(p for p in folder.glob(f"第{drawn}轮第*桌加赛单.pdf"))) if drawn else ()
    results = tuple(p for p in (folder / results_name(drawn),) if drawn and p.exists())
    return {"number": drawn, "workbook": names.round_file(drawn) if drawn else None, "slips": slips,
            "results": results, "papers": tuple(names.round_papers(folder, drawn)) if drawn else ()}


@dataclass(frozen=True)
class PhoneTable:
    """A table of a round with phone entries, as the desk's reopen takes it: its teams and its mark (entries)."""

    table: int
    a: str
    b: str
    mark: int
    shown: tuple[str, str] = ("", "")  # a and b as printed ('007' in a field over 99)


@dataclass(frozen=True, kw_only=True)
class RoundFix:
    """One drawn round on the 更正 page: scoring it again, reopening a phone table of it, and carrying a correction
    of the round before into it."""

    number: int
    workbook: str
    redo: object | None  # the RedoPreview of carrying round number−1's correction into it, when it needs one
    redo_problem: str | None  # why it cannot be carried now (a match of the round before undecided)
    phones: tuple[PhoneTable, ...] = ()
    rules_held: tuple[int, ...] = ()  # tables a [rules] change since it was scored would alter (held until accepted)


def phone_tables(folder: Path, digits: int) -> dict[int, tuple[PhoneTable, ...]]:
    """Each round's tables with phone entries, from event.db; `digits`: the event's 组号 width
    (`EventFolder.digits`)."""
    from shuangsheng.storage.ledger.connection import Ledger

    found: dict[int, tuple[PhoneTable, ...]] = {}
    with Ledger.open(folder) as book:
        for number, record in book.draws().items():
            found[number] = tuple(PhoneTable(p.table, p.a, p.b, len(entries),
                                             (shown_id(p.a, digits), shown_id(p.b, digits)))
                                  for p in record.round.pairings
                                  if (entries := book.table_entries(record.id, p.table)))
    return found


def correct_facts(folder: Path, root: Path | None) -> dict[str, object]:
    from shuangsheng.usecases.folder import open_folder
    from shuangsheng.usecases.redo import redo_preview

    drawn = names.rounds_drawn(folder)
    state = open_folder(folder)
    digits = state.digits
    phones = phone_tables(folder, digits)
    held = {c.number: c.tables for c in state.rules_changes}
    rounds = []
    for number in range(1, drawn + 1):
        preview, problem = None, None
        if number >= 2:
            try:
                preview = redo_preview(folder, number)
            except UserError as exc:
                problem = "；".join(exc.messages)
        rounds.append(RoundFix(number=number, workbook=names.round_file(number), redo=preview, redo_problem=problem,
                               phones=phones.get(number, ()), rules_held=held.get(number, ())))
    shown = {t: shown_id(t, digits) for t in state.team_map}  # each 组号 as the papers print it
    return {"rounds": tuple(rounds), "drawn": drawn, "shown": shown}


def awards_facts(folder: Path, root: Path | None) -> dict[str, object]:
    from shuangsheng.render.report import placings_text
    from shuangsheng.usecases.awards import bracket

    try:
        chart, state = bracket(folder)
    except UserError as exc:
        return {"lines": (), "complete": False, "problem": exc, "award_date": None, "files": ending_files(folder)}
    from shuangsheng.storage.files import sha256

    return {"lines": tuple(placings_text(chart.placings, state.team_map, state.digits).splitlines()),
            "complete": chart.placings.complete, "problem": None, "award_date": state.event.print.award_date,
            "files": ending_files(folder), "settings_mark": sha256((folder / names.EVENT_FILE).read_bytes())}


def draw_page_facts(folder: Path, root: Path | None) -> dict[str, object]:
    return {"draw": draw_facts(folder)}


def materials_page_facts(folder: Path, root: Path | None) -> dict[str, object]:
    return {"files": materials_facts(folder)}


GUIDES = {"console.md": "组织者控制台", "README.md": "比赛当天的顺序和全部说明", "checkin.md": "报到、弃权和候补、换人",
          "hall-setup.md": "手机扫码录分的场地设置", "event-toml.md": "比赛设置的每一项", "workbooks.md": "报名表和记分表各列填什么",
          "ledger.md": "比赛记录、中断后接着做、更正", "windows-installer.md": "Windows 安装、防火墙、卸载"}


def guides() -> tuple[tuple[str, str], ...]:
    """The guides of docs/ there are beside the program, (file name, what it is about), the console's first."""
    from shuangsheng.storage.home import docs_folder

    docs = docs_folder()
    return tuple((name, about) for name, about in GUIDES.items() if docs is not None and (docs / name).is_file())


FACTS: dict[str, Callable[..., dict[str, object]]] = {
    "events": events_facts, "settings": settings_facts, "teams": teams_facts, "materials": materials_page_facts,
    "draw": draw_page_facts, "round": round_facts, "correct": correct_facts, "awards": awards_facts,
    "guide": lambda folder, root: {"docs": guides()},
}
