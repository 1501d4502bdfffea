"""The `shuangsheng` command line: parse, make one library call, print. Heavy imports stay inside commands."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from shuangsheng.cli_help import (
    DOCS_HINT,
    ChineseCommand,
    ChineseGroup,
    WholeNumber,
    a_file,
    a_folder,
    usage_message,
)
from shuangsheng.vocabulary.errors import UserError  # tiny modules; the heavy ones are imported inside each command
from shuangsheng.vocabulary.text import command_line

_FOLDER_PARAMS = ("folder", "out")  # where a command works: the crash report goes there


def crash(exc: BaseException, command: list[str], folder: Path | None = None) -> NoReturn:
    """The last line of defence: an unexpected exception becomes a short Chinese message and a saved report."""
    from shuangsheng.storage.crash import message, save_report

    for line in message(save_report(exc, command, folder), exc):
        typer.echo(line, err=True)
    raise typer.Exit(code=1)


class GuardedCommand(ChineseCommand):
    """Every command runs inside the last line of defence: never a traceback on the terminal."""

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException, KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        # Anything else is a bug: reported, not shown. BaseException, because a library written in Rust reports a
        # panic as pyo3's PanicException, which is not an Exception.
        except BaseException as exc:
            from shuangsheng.storage.files import plain_os_error

            if (plain := plain_os_error(exc)) is not None:  # a path the system refuses (a name too long): not a bug
                fail([plain])
            params = {k: v for k, v in ctx.params.items() if v not in (None, False)}
            folder = next((Path(params[k]) for k in _FOLDER_PARAMS if k in params), None)
            command = [ctx.command_path, *(f"{k}={v}" for k, v in params.items())]
            crash(exc, command, folder)


class _App(typer.Typer):
    def command(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("cls", GuardedCommand)
        return super().command(*args, **kwargs)


app = _App(
    name="shuangsheng",
    cls=ChineseGroup,
    help="双升级（双扣）淘汰赛：通知、规则、抽签、记分表、计分、名次与奖状。",
    epilog=DOCS_HINT,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

FileArg = Annotated[Path, typer.Argument(metavar="文件", help="对局记录 JSON 文件（格式见 docs/match-record.md）", parser=a_file)]
JsonOpt = Annotated[bool, typer.Option("--json", help="输出 JSON（仅一个 JSON 文档）")]


@app.callback(invoke_without_command=True)
def _root(ctx: typer.Context) -> None:
    """双升级（双扣）淘汰赛：通知、规则、抽签、记分表、计分、名次与奖状。"""
    if ctx.invoked_subcommand is None:  # plain `shuangsheng`: the help, once
        typer.echo(ctx.get_help())
        raise typer.Exit()


def fail(messages: list[str] | str, *, as_json: dict | None = None) -> NoReturn:
    """Report input errors and exit 1: JSON on stdout when asked, else Chinese lines on stderr."""
    if as_json is not None:
        print_json(as_json)
    else:
        for line in [messages] if isinstance(messages, str) else messages:
            typer.echo(line, err=True)
    raise typer.Exit(code=1)


def print_json(document: object) -> None:
    typer.echo(json.dumps(document, ensure_ascii=False, indent=2))


@contextlib.contextmanager
def settled() -> Iterator[None]:
    """Around the work of a long command, once its modules are imported: what is alive then (the modules'
    functions, classes and tables) lives until the command ends, so it is kept out of the cyclic garbage
    collector's sight (`gc.freeze`) and given back afterwards. Otherwise each full collection, which the tens of
    thousands of cells of a round's workbooks set off several times, walks all of it again (`demo --teams 128`:
    about a tenth of a second)."""
    import gc

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def hold(folder: Path) -> contextlib.ExitStack:
    """One file-writing command at a time: the folder's lock (waits briefly, then names the holder: exit 1),
    then event.db opened or built and the program's stale temporary files removed. A folder that is not there
    yet is not held (the command says so, or creates it)."""
    from shuangsheng.storage.ledger.lock import exclusive
    from shuangsheng.usecases.folder import prepare

    stack = contextlib.ExitStack()
    if not folder.is_dir():
        return stack
    try:
        stack.enter_context(exclusive(folder))
        notes = prepare(folder)
    except UserError as exc:
        stack.close()
        fail(exc.messages)
    except OSError as exc:  # a folder that cannot be written to at all
        stack.close()
        fail(f"{folder}：无法写入（{exc.strerror or exc}）。请确认这个文件夹可以写入、磁盘还有空间")
    for line in notes:
        typer.echo(line, err=True)
    return stack


@app.command()
def replay(file: FileArg, json_out: JsonOpt = False) -> None:
    """重演一场比赛的记录，逐局说明级数变化。"""
    from shuangsheng.game.hands import RecordError, read_record
    from shuangsheng.game.match import replay_record, result_as_json
    from shuangsheng.render.report import replay_text
    from shuangsheng.vocabulary.errors import issues_json, located

    try:
        result = replay_record(read_record(file))
    except RecordError as exc:  # not a record at all: missing, too large, not JSON
        fail([str(e) for e in located(exc.errors, str(file))], as_json=issues_json(exc.errors) if json_out else None)
    if json_out:
        print_json(result_as_json(result))
    elif result.errors and not result.outcomes:
        fail([str(e) for e in located(result.errors, str(file))])
    else:
        typer.echo(replay_text(result))
    if result.errors:
        if not json_out:
            typer.echo(f"{file}：记录有误，请按上面的提示改正", err=True)
        raise typer.Exit(code=1)


@app.command()
def materials(
    folder: Annotated[Path, typer.Argument(metavar="文件夹", help="活动文件夹（含 event.toml）", parser=a_folder)] = Path("."),
    font: Annotated[
        str | None, typer.Option("--font", metavar="字体文件", help="中文字体文件，可加 #序号，如 C:/Windows/Fonts/msyh.ttc#0")
    ] = None,
    lots: Annotated[int | None, typer.Option("--lots", metavar="张数", parser=WholeNumber(1, 512), help="抽签签条张数，1–512（默认等于参赛组数）")] = None,
    force: Annotated[bool, typer.Option("--force", help="覆盖被改动过的 PDF")] = False,
) -> None:
    """打印材料：通知、比赛规则、规则口径确认单、报名表、抽签签条、纪念品领取签收表（PDF）。"""
    from shuangsheng.render.report import next_after_materials
    from shuangsheng.storage.event import load
    from shuangsheng.storage.names import TEAMS_FILE
    from shuangsheng.storage.workbook import WorkbookError, holds_no_teams, read_teams
    from shuangsheng.usecases.papers.materials import build_all
    from shuangsheng.usecases.progress import progress

    try:
        event = load(folder)
    except UserError as exc:
        fail(exc.messages)
    teams = None
    blank: list[str] = []
    errors: list[str] = []
    teams_file = folder / TEAMS_FILE
    if teams_file.exists():
        try:
            teams = read_teams(teams_file)
        except WorkbookError as exc:  # nobody listed yet is no error; a list with mistakes is (exit 1)
            if holds_no_teams(teams_file):
                blank = [f"{teams_file} 还没有填写参赛组（只有模板的示例行），报名表、抽签签条和签收表按空白打印"]
            else:
                errors = [f"{teams_file} 有错误，报名表、抽签签条和签收表这次按空白打印；请改正：", *exc.messages]
    try:
        with hold(folder):
            built = build_all(folder, event, teams, font=font, lots=lots, force=force)
    except UserError as exc:
        fail(exc.messages)
    for line in [*(f"已生成 {path}" for path in built.paths), f"字体：{built.note}", *blank]:
        typer.echo(line)
    for line in [*errors, *built.warnings]:
        typer.echo(line, err=True)
    typer.echo(next_after_materials(folder, len(teams or ()), progress=progress(folder), team_errors=bool(errors)))
    if errors:
        raise typer.Exit(code=1)


FolderArg = Annotated[Path, typer.Argument(metavar="文件夹", help="活动文件夹（含 event.toml）", parser=a_folder)]
PortOpt = Annotated[
    int, typer.Option("--port", metavar="端口", parser=WholeNumber(0, 65535), help="网页端口（0 表示自动选一个空闲端口）")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="覆盖已有文件")]


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", metavar="文件夹", help="示例活动的文件夹", parser=a_folder)] = Path("output/demo"),
    teams: Annotated[int, typer.Option("--teams", metavar="组数", parser=WholeNumber(2, 128), help="参赛组数")] = 11,
    seed: Annotated[int, typer.Option("--seed", metavar="整数", parser=WholeNumber(), help="随机种子（同一种子得到同一场示例比赛）")] = 2026,
) -> None:
    """生成一场完整的示例比赛：设置、报名表、每轮抽签与模拟记分、检查副本、每轮的对阵表、计分卡、成绩和加赛单、打印材料和最终名次。"""
    from shuangsheng.render.report import next_after_demo, placings_text
    from shuangsheng.usecases.awards import bracket_in
    from shuangsheng.usecases.demo import run_demo
    from shuangsheng.usecases.papers.draw import write_draw_papers
    from shuangsheng.usecases.papers.ending import write_awards
    from shuangsheng.usecases.papers.materials import build_all
    from shuangsheng.usecases.papers.score import write_score_papers

    done = {}  # the printed materials and the ending, written once the event is over

    def finish(report) -> None:
        done["built"] = build_all(out, report.event, report.teams, force=True)
        done["ending"] = write_awards(out, bracket_in(report.state)[0], report.event,
                                      day=report.event.print.award_date, force=True)

    from shuangsheng.usecases.demo import is_demo_folder

    # The folder is held only when the demo may use it: another folder is refused untouched (no lock file left)
    ours = not out.exists() or (out.is_dir() and (not any(out.iterdir()) or is_demo_folder(out)))
    if ours:
        with contextlib.suppress(OSError):  # held from the start: the lock file is there on the next run too
            out.mkdir(parents=True, exist_ok=True)
    try:  # the demo writes only into a folder that is empty or holds nothing but an earlier demo's files
        with hold(out) if ours else contextlib.nullcontext(), settled():
            report = run_demo(
                out, teams=teams, seed=seed, finish=finish,
                after_draw=lambda drawn: write_draw_papers(drawn, force=True),
                after_score=lambda scored: write_score_papers(scored, force=True),
            )
    except UserError as exc:
        fail(exc.messages)
    built, ending = done["built"], done["ending"]
    typer.echo(f"示例比赛已生成在 {out}/ ：{len(report.teams)}组，{len(report.rounds)}轮")
    typer.echo(f"  活动设置      {report.settings_path}")
    typer.echo(f"  报名表        {report.teams_path}")
    for r in report.files:
        typer.echo(f"  第{r.number}轮记分表  {r.workbook}（随机种子 {r.seed}），检查副本 {r.checked.name}")
        typer.echo(f"  第{r.number}轮打印件  {'、'.join(path.name for path in r.papers)}")
    for path in built.paths:
        typer.echo(f"  打印材料      {path}")
    for path in ending.paths:
        typer.echo(f"  比赛结束      {path}")
    typer.echo(placings_text(report.placings, {t.id: t for t in report.teams}))
    for line in dict.fromkeys([*report.warnings, *built.warnings, *ending.warnings]):
        typer.echo(line, err=True)
    typer.echo(next_after_demo(out))


@app.command()
def init(folder: FolderArg = Path("."), force: ForceOpt = False) -> None:
    """新建活动文件夹：event.toml（按通知预填）和空白报名表 teams.xlsx。"""
    from shuangsheng.render.report import next_after_init
    from shuangsheng.storage.event import default_text
    from shuangsheng.storage.files import keep_copy, write_text
    from shuangsheng.storage.names import EVENT_FILE, TEAMS_FILE
    from shuangsheng.storage.workbook import write_teams_template
    from shuangsheng.usecases.folder import prepare

    # A file that is already there is kept (it may be a filled team list); only when both are there is that an
    # error, and --force replaces them.
    kept = [] if force else [name for name in (EVENT_FILE, TEAMS_FILE) if (folder / name).exists()]
    if len(kept) == 2:  # an event folder already: --force would blank a filled team list
        fail([f"{folder} 已经是活动文件夹（{EVENT_FILE} 和 {TEAMS_FILE} 都在），不需要再 init；"
              f"接着运行 {command_line('materials', folder)} 或 {command_line('draw', folder)}。"
              f"只有要从头重来时才加 --force：两个文件都会换成空白的（原文件另存为备份）"])
    backups = []
    with contextlib.suppress(OSError):  # held from the start (the lock file lives in it); a failure is said below
        folder.mkdir(parents=True, exist_ok=True)
    try:
        with hold(folder):
            for name in (EVENT_FILE, TEAMS_FILE):
                if force and (folder / name).exists():
                    backups.append((folder / name, keep_copy(folder / name)))
            if EVENT_FILE not in kept:
                write_text(folder / EVENT_FILE, default_text(), force=force)
            if TEAMS_FILE not in kept:
                write_teams_template(folder / TEAMS_FILE, force=force)
            prepare(folder)  # event.db
    except UserError as exc:
        fail(exc.messages)
    for name in kept:
        typer.echo(f"{folder / name} 已存在，保留原文件不变（如要换成空白的新文件，请加 --force）")
    for original, backup in backups:
        typer.echo(f"原来的 {original} 已另存为 {backup}")
    if EVENT_FILE not in kept:
        typer.echo(f"已生成 {folder / EVENT_FILE}（活动设置，请核对）")
    if TEAMS_FILE not in kept:
        typer.echo(f"已生成 {folder / TEAMS_FILE}（报名表：删除示例行后填写各组）")
    typer.echo(next_after_init(folder))


@app.command()
def draw(
    folder: FolderArg = Path("."),
    seed: Annotated[
        int | None,
        # Stored as a number in round-N.xlsx: a spreadsheet keeps 15 digits, and the reader takes whole numbers ≥ 0.
        typer.Option("--seed", metavar="整数", parser=WholeNumber(0, 10**15 - 1), help="随机种子（不填则自动生成并打印）"),
    ] = None,
    lots: Annotated[
        Path | None, typer.Option("--lots", metavar="文件", help="按纸签抽签：组号→签号的表格（xlsx 或 csv）", parser=a_file)
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="重新生成被改动过的对阵表和计分卡；不会重新抽签")
    ] = False,
    check: Annotated[
        int | None,
        typer.Option("--check", metavar="轮次", min=1, help="按记下的随机种子和抽签名单重抽第几轮，核对是否一致（不写任何文件）"),
    ] = None,
    redo: Annotated[
        int | None,
        typer.Option("--redo", metavar="轮次", min=2,
                     help="上一轮的成绩在这一轮抽签后改过：这一轮各桌不变，只换上应晋级的组（之后各轮作废，原文件另存备份）"),
    ] = None,
) -> None:
    """抽下一轮：写出 round-N.xlsx（对阵和每桌记分表）、对阵表和计分卡（PDF）；上次被中断的抽签按原对阵补全。"""
    from shuangsheng.render.report import check_text, draw_text, next_after_draw
    from shuangsheng.usecases.draw import check_draw, draw_next
    from shuangsheng.usecases.papers.draw import write_draw_papers
    from shuangsheng.usecases.redo import redo_draw

    if check is not None:
        try:
            checked = check_draw(folder, check)
        except UserError as exc:
            fail(exc.messages)
        typer.echo(check_text(checked))
        raise typer.Exit(code=0 if checked.agrees else 1)
    if redo is not None and (seed is not None or lots is not None):
        fail("--redo 沿用这一轮原来的抽签，不能同时给 --seed 或 --lots")
    try:
        with hold(folder):
            if redo is not None:
                report = redo_draw(folder, redo, papers=lambda drawn: write_draw_papers(drawn, force=force))
            else:
                report = draw_next(folder, seed=seed, lots=lots, force=force,
                                   papers=lambda drawn: write_draw_papers(drawn, force=force))
    except UserError as exc:
        fail(exc.messages)
    typer.echo(draw_text(report, folder))
    for line in report.notes:
        typer.echo(line, err=True)
    if report.papers_problems:
        fail([*(f"对阵表/计分卡没有更新：{line}" for line in report.papers_problems),
              f"抽签已经记下；解决上面的问题后再运行 shuangsheng draw {folder}，会按同一抽签补全"])
    for path in report.papers.paths:
        typer.echo(f"已生成 {path}")
    for line in report.papers.warnings:
        typer.echo(line, err=True)
    typer.echo(next_after_draw(report, folder))


@app.command()
def score(
    folder: FolderArg = Path("."),
    round_number: Annotated[int | None, typer.Option("--round", metavar="轮次", parser=WholeNumber(1), help="第几轮（默认最近一轮）")] = None,
    json_out: JsonOpt = False,
    force: Annotated[bool, typer.Option("--force", help="覆盖已被改动过的检查副本")] = False,
    verify: Annotated[
        Path | None,
        typer.Option("--verify", metavar="另一份.xlsx", parser=a_file,
                     help="双人录入核对：与另一个人独立录入的同一轮记分表逐格比较，列出每处不一致"),
    ] = None,
    accept_rules: Annotated[
        bool, typer.Option("--accept-rules", help="计分规则在计分后改过：按新规则重新计算已计分的轮次（记入日志）")
    ] = False,
) -> None:
    """读取填好的记分表，逐局计算级数，判定胜负、加赛和晋级；另存检查副本、本轮成绩和加赛单（PDF），不改动原文件。"""
    with hold(folder):
        _score(folder, round_number, json_out=json_out, force=force, verify=verify, accept_rules=accept_rules)


def _score(folder: Path, round_number: int | None, *, json_out: bool, force: bool, verify: Path | None,
           accept_rules: bool) -> None:
    from shuangsheng.render.report import edited_checked_copy, score_text, verification_text
    from shuangsheng.usecases.papers.score import write_score_papers
    from shuangsheng.usecases.score_step import score_and_write, score_step_json

    try:
        step = score_and_write(folder, round_number, verify=verify, force=force, accept_rules=accept_rules,
                               write_papers=lambda report: write_score_papers(report, force=force))
    except UserError as exc:
        fail(exc.messages, as_json={"errors": exc.messages} if json_out else None)
    report = step.report
    if json_out:
        print_json(score_step_json(step, folder))
    else:
        typer.echo(score_text(report.score, report.teams))
        if report.verification is not None:
            typer.echo(verification_text(report.verification, step.book, folder, other_path=verify,
                                         round_number=report.score.round.number))
        for item in step.not_written:
            typer.echo("\n".join(item.lines()), err=True)
        if step.checked_edited:
            typer.echo(edited_checked_copy(report.checked, step.book, folder), err=True)
        for line in report.notes:
            typer.echo(line, err=True)
        if step.checked is not None:
            typer.echo(f"检查副本（逐局级数与说明，错误处已标出）：{step.checked}")
        for path in step.papers:
            typer.echo(f"已生成 {path}")
        typer.echo(_score_next(step, folder))
    for line in step.warnings:
        typer.echo(line, err=True)
    if step.failed:
        raise typer.Exit(code=1)


def _score_next(step, folder: Path) -> str:  # type: ignore[no-untyped-def]
    """The 下一步 line of `score`: for an earlier round than the latest, from where the event stands now."""
    from shuangsheng.render.report import next_after_score
    from shuangsheng.storage.names import rounds_drawn
    from shuangsheng.usecases.progress import progress

    number = step.report.score.round.number
    if step.report.redo is not None:  # a correction after the next draw: the one way forward
        return f"下一步：运行 {command_line('draw', folder)} --redo {step.report.redo}"
    later = progress(folder) if rounds_drawn(folder) > number else None
    return next_after_score(step.next_step, step.book, folder, number=number, later=later)


@app.command()
def awards(
    folder: FolderArg = Path("."),
    json_out: JsonOpt = False,
    per_player: Annotated[bool, typer.Option("--per-player", help="荣誉证书每位队员一张（默认每组一张）")] = False,
    force: Annotated[bool, typer.Option("--force", help="覆盖被改动过的成绩公告、荣誉证书和晋级图")] = False,
) -> None:
    """最终名次：一等奖、二等奖、三等奖；比赛结束后另有成绩公告、荣誉证书和晋级图 PDF。"""
    from shuangsheng.knockout.placings import placings_as_json
    from shuangsheng.render.report import next_after_awards, placings_text
    from shuangsheng.usecases.awards import bracket
    from shuangsheng.usecases.papers.ending import write_awards

    try:
        with hold(folder):
            chart, state = bracket(folder)
            written = None
            if chart.placings.complete:
                written = write_awards(folder, chart, state.event, day=state.event.print.award_date,
                                       per_player=per_player, force=force)
    except UserError as exc:
        fail(exc.messages, as_json={"errors": exc.messages} if json_out else None)
    if json_out:
        print_json(placings_as_json(chart.placings))
    else:
        typer.echo(placings_text(chart.placings, state.team_map))
    for line in state.notes:
        typer.echo(line, err=True)
    for path in written.paths if written else ():
        typer.echo(f"已生成 {path}", err=json_out)
    for line in written.warnings if written else ():
        typer.echo(line, err=True)
    for line in written.notes if written else ():
        typer.echo(line, err=json_out)
    if not json_out:
        typer.echo(next_after_awards(chart.placings.complete, folder))


@app.command()
def bracket(
    folder: FolderArg = Path("."),
    force: Annotated[bool, typer.Option("--force", help="覆盖被改动过的晋级图")] = False,
) -> None:
    """晋级图：到目前为止的每一轮、每场比赛和名次，A3 纸的 PDF，组数多时分几张拼接。"""
    from shuangsheng.render.report import next_after_bracket
    from shuangsheng.usecases.awards import bracket as run
    from shuangsheng.usecases.papers.ending import write_bracket

    try:
        with hold(folder):
            chart, state = run(folder)
            written = write_bracket(folder, chart, state.event, force=force)
    except UserError as exc:
        fail(exc.messages)
    for line in state.notes:
        typer.echo(line, err=True)
    for path in written.paths:
        typer.echo(f"已生成 {path}（{written.note}）")
    for line in written.warnings:
        typer.echo(line, err=True)
    typer.echo(next_after_bracket(chart.placings.complete, folder))


@app.command()
def rebuild(folder: FolderArg = Path(".")) -> None:
    """比赛记录 event.db 丢失、清空或损坏后（已经抽过签）：按文件夹里的文件重建，换新的录分码，重新生成当前一轮的计分卡。"""
    from shuangsheng.storage.event import missing_folder
    from shuangsheng.storage.ledger.lock import exclusive
    from shuangsheng.usecases.papers.draw import write_draw_papers
    from shuangsheng.usecases.papers.qr_sheet import reprint_qr_sheet
    from shuangsheng.usecases.rebuild import rebuild as run
    from shuangsheng.usecases.rebuild import rebuilt_lines

    if (missing := missing_folder(folder)) is not None:
        fail(missing)
    try:
        with exclusive(folder):  # held, but not prepared: preparing is what refuses a lost ledger
            # the papers replaced whatever they are: the codes printed on them are dead
            done = run(folder, papers=lambda drawn: write_draw_papers(drawn, force=True), sheet=reprint_qr_sheet)
    except UserError as exc:
        fail(exc.messages)
    if done.papers_problems:  # rebuilt, but the cards with the new codes not printed: `rebuild` again completes it
        fail(rebuilt_lines(done))
    for line in rebuilt_lines(done):
        typer.echo(line)
    for line in getattr(done.papers, "warnings", ()):
        typer.echo(line, err=True)


@app.command()
def show(
    folder: FolderArg = Path("."),
    port: PortOpt = 8000,
    lan: Annotated[bool, typer.Option("--lan", help="让同一局域网中的电视也能打开（默认只有本机能打开）")] = False,
    export: Annotated[
        Path | None,
        typer.Option("--export", metavar="文件", help="不启动网页，把同样的内容导出为一个 HTML 文件", parser=a_file),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="覆盖已有的导出文件")] = False,
) -> None:
    """场地大屏：在电视上显示本轮对阵、成绩、晋级图和名次，随计分自动更新（只读网页）。"""
    from shuangsheng.hall import server
    from shuangsheng.hall.export import export as export_views
    from shuangsheng.hall.lan import lan_address
    from shuangsheng.storage.event import missing_folder
    from shuangsheng.storage.ledger.lost import lost_ledger

    if (missing := missing_folder(folder)) is not None:
        fail(missing)
    if (lost := lost_ledger(folder)) is not None:  # a lost event.db is refused here as by every command
        fail(lost.messages)
    if export is not None:
        try:
            with hold(folder):
                written = export_views(folder, export, force=force)
        except UserError as exc:
            fail(exc.messages)
        typer.echo(f"已导出 {written}（可直接用浏览器打开，不需要联网）")
        return
    host = "127.0.0.1"
    if lan:
        host = lan_address() or ""
        if not host:
            fail("找不到这台电脑的局域网地址：请确认电脑已连上路由器（网线或无线网络）；只在本机显示请去掉 --lan")
    try:
        httpd = server.make_server(folder, host, port, log=lambda line: typer.echo(line, err=True))
    except OSError as exc:
        other = port + 1 if 0 < port < 65535 else 8001
        import errno

        from shuangsheng.storage.files import os_reason

        reason = "端口已被占用" if exc.errno == errno.EADDRINUSE else os_reason(exc)
        fail(f"无法在 {host}:{port} 上启动网页（{reason}）；请换一个端口，如 --port {other}")
    url = f"http://{host}:{httpd.server_address[1]}/"
    typer.echo(f"场地大屏已启动：{url}")
    if lan:
        typer.echo(f"在电视的浏览器中输入：{url}")
        typer.echo("（Windows 防火墙询问是否允许 Python 访问网络时，请选“允许”，并勾选“专用网络”）")
    else:
        typer.echo("在这台电脑的浏览器中打开上面的地址（按 F11 全屏）；要让电视也能打开，请加 --lan")
    try:  # Ctrl+C is offered inside the `try` that catches it (pressed on reading the line, it is caught too)
        typer.echo("计分后页面会自动更新；按 Ctrl+C 停止")
        httpd.serve_forever()
    except KeyboardInterrupt:
        typer.echo("场地大屏已停止")
    finally:
        httpd.server_close()


@app.command()
def serve(
    folder: FolderArg = Path("."),
    port: PortOpt = 8000,
    lan: Annotated[bool, typer.Option("--lan", help="让同一局域网中的手机和电视也能打开（默认只有本机能打开）")] = False,
    address: Annotated[
        str | None,
        typer.Option("--address", metavar="IP地址", help="电脑有多个网络时，指定用哪个局域网地址（含 --lan）"),
    ] = None,
) -> None:
    """现场服务：场地大屏和各桌手机录分（录分码见计分卡），打印地址和裁判台密码。"""
    from shuangsheng.hall import hall
    from shuangsheng.storage.event import is_ipv4, load, missing_folder

    if (missing := missing_folder(folder)) is not None:
        fail(missing)
    if address is not None and not is_ipv4(address):
        fail(f"--address：应为本机的局域网 IP 地址，如 192.168.1.20，实际为“{address}”")
    try:
        event = load(folder)
        with hold(folder):
            coded = hall.ensure_codes(folder)
    except UserError as exc:
        fail(exc.messages)
    hosts = ["127.0.0.1"]
    if lan or address is not None:
        hosts += _lan_host(address or event.serve.address)
    try:
        pin = event.serve.pin or hall.new_pin()
        server = hall.make_hall(folder, hosts, port, log=lambda line: typer.echo(line, err=True), pin=pin,
                                desk_lan=event.serve.desk_lan)
    except OSError as exc:
        import errno

        from shuangsheng.storage.files import os_reason

        other = port + 1 if 0 < port < 65535 else 8001
        if exc.errno == errno.EADDRINUSE:
            fail(f"无法在 {port} 端口上启动（端口已被占用）；请换一个端口，如 --port {other}")
        fail(f"无法在 {'、'.join(hosts)} 的 {port} 端口上启动（{os_reason(exc)}）；指定的地址须是这台电脑的局域网地址")
    for number in coded:
        typer.echo(f"第{number}轮抽签时还没有录分码，已为各桌生成（已打印的计分卡上没有录分码）", err=True)
    urls = server.addresses()
    typer.echo(f"现场服务已启动：{urls[0]}（本机）")
    for url in urls[1:]:
        typer.echo(f"局域网地址：{url}（同一网络中的电视和手机用这个地址）")
    sheets = None
    if len(urls) > 1:
        typer.echo("（Windows 防火墙询问是否允许 Python 访问网络时，请选“允许”，并勾选“专用网络”）")
        sheets = _qr_sheets(folder, urls[1])
    where = f"（局域网中也可打开：{urls[-1]}desk）" if event.serve.desk_lan and len(urls) > 1 else "（在这台电脑上打开）"
    typer.echo(f"裁判台：{urls[0]}desk{where}")
    typer.echo(f"裁判台密码：{pin}")
    _until_stopped(server, sheets)


def _until_stopped(server, sheets) -> None:  # type: ignore[no-untyped-def]
    """Serve until Ctrl+C, then stop the 扫码单's watch and the servers. Ctrl+C is offered once the servers
    run, inside the `try` that catches it (a script that presses it on reading the line is caught too)."""
    server.start()
    try:
        typer.echo("各桌录入的每一局都存入 event.db；按 Ctrl+C 停止")
        while True:
            time.sleep(3600)  # the servers answer in their threads; Ctrl+C ends the sleep
    except KeyboardInterrupt:
        typer.echo("现场服务已停止")
    finally:
        if sheets is not None:
            sheets.stop()
        server.stop()


def _qr_sheets(folder: Path, url: str):  # type: ignore[no-untyped-def]
    """第N轮扫码单.pdf at the LAN address: the newest round's now, and each round's again when it is drawn while
    serve runs (shuangsheng/hall/qr_watch.py); a sheet a person edited is kept and said. Returns the watch to stop."""
    from shuangsheng.hall.qr_watch import QrWatch

    sheets = QrWatch(folder, url, say=typer.echo, warn=lambda line: typer.echo(line, err=True))
    sheets.start()
    return sheets


def _lan_host(chosen: str | None) -> list[str]:
    """The LAN address to listen on besides 127.0.0.1: the one chosen (--address, [serve] address) or found."""
    from shuangsheng.hall.lan import lan_address

    found = chosen or lan_address()
    if not found:
        fail("找不到这台电脑的局域网地址：请确认电脑已连上路由器或热点；或用 --address 指定；只在本机使用请去掉 --lan")
    return [] if found == "127.0.0.1" else [found]


class QuietPipe:
    """Standard output that goes quiet once its reader has gone (`shuangsheng draw 比赛 | head -3`): the command
    still finishes its work, only the rest of its text is dropped — a closed pager is no crash."""

    def __init__(self, stream):  # type: ignore[no-untyped-def]
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._silence()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._silence()

    def _silence(self) -> None:
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)  # the interpreter's own last flush goes nowhere, quietly
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._stream, name)


def main() -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stderr.reconfigure(encoding="utf-8")
    sys.stdout = QuietPipe(sys.stdout)  # type: ignore[assignment]
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # the command line itself is wrong (click's UsageError and ours: exit 2)
        typer.echo(usage_message(exc), err=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        sys.exit(1)
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as exc:
        try:
            crash(exc, ["shuangsheng", *sys.argv[1:]])
        except typer.Exit as done:
            sys.exit(done.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
