"""The `shuangsheng` command line: parse, make one library call, print. Heavy imports stay inside commands."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
import typer.core

from scoring.errors import UserError  # a tiny module; the heavy ones are imported inside each command

# Typer vendors click privately; its UsageError (wrong command, option or value) is BadParameter's base class,
# and ClickException the base of every error click itself reports.
_UsageError = typer.BadParameter.__mro__[1]
_ClickException = _UsageError.__mro__[1]
_FOLDER_PARAMS = ("folder", "out")  # where a command works: the crash report goes there


def crash(exc: BaseException, command: list[str], folder: Path | None = None) -> NoReturn:
    """The last line of defence: an unexpected exception becomes a short Chinese message and a saved report."""
    from scoring.crash import message, save_report

    for line in message(save_report(exc, command, folder), exc):
        typer.echo(line, err=True)
    raise typer.Exit(code=1)


class GuardedCommand(typer.core.TyperCommand):
    """Every command runs inside the last line of defence: never a traceback on the terminal."""

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, _ClickException):
            raise
        except Exception as exc:  # noqa: BLE001 - anything else is a bug: report it, do not show it
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
    help="双升级（双扣）淘汰赛：通知、规则、抽签、记分表、计分、名次与奖状。",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

FileArg = Annotated[Path, typer.Argument(help="对局记录 JSON 文件（格式见 SPEC §5）", dir_okay=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="输出 JSON（仅一个 JSON 文档）")]


@app.callback()
def _root() -> None:
    """双升级（双扣）淘汰赛：通知、规则、抽签、记分表、计分、名次与奖状。"""


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


@app.command()
def replay(file: FileArg, json_out: JsonOpt = False) -> None:
    """重演一场比赛的记录，逐局说明级数变化。"""
    from scoring.hands import RecordError, read_record
    from scoring.match import replay_record, result_as_json
    from scoring.report import replay_text

    try:
        result = replay_record(read_record(file))
    except RecordError as exc:  # not a record at all: missing, too large, not JSON
        fail([f"{file}：{e.message}" for e in exc.errors], as_json={"errors": [e.as_json() for e in exc.errors]}
             if json_out else None)
    if json_out:
        print_json(result_as_json(result))
    elif result.errors and not result.outcomes:
        fail([f"{file}：{e.message}" for e in result.errors])
    else:
        typer.echo(replay_text(result))
    if result.errors:
        if not json_out:
            typer.echo(f"{file}：记录有误，请按上面的提示改正", err=True)
        raise typer.Exit(code=1)


@app.command()
def materials(
    folder: Annotated[Path, typer.Argument(help="活动文件夹（含 event.toml）", file_okay=False)] = Path("."),
    font: Annotated[
        str | None, typer.Option("--font", help="中文字体文件，可加 #序号，如 C:/Windows/Fonts/msyh.ttc#0")
    ] = None,
    lots: Annotated[int | None, typer.Option("--lots", min=1, help="抽签签条张数（默认等于参赛组数）")] = None,
    force: Annotated[bool, typer.Option("--force", help="覆盖已有的 PDF")] = False,
) -> None:
    """打印材料：通知、比赛规则、报名表、抽签签条、纪念品领取签收表（PDF）。"""
    from materials import build_all
    from scoring.event import load
    from scoring.tournament import TEAMS_FILE
    from scoring.workbook import WorkbookError, read_teams

    try:
        event = load(folder)
    except UserError as exc:
        fail(exc.messages)
    teams = None
    notes: list[str] = []
    teams_file = folder / TEAMS_FILE
    if teams_file.exists():
        try:
            teams = read_teams(teams_file)
        except WorkbookError as exc:
            notes = [f"{teams_file} 暂不能使用，报名表、抽签签条和签收表按空白打印：", *exc.messages]
    try:
        built = build_all(folder, event, teams, font=font, lots=lots, force=force)
    except UserError as exc:
        fail(exc.messages)
    for path in built.paths:
        typer.echo(f"已生成 {path}")
    typer.echo(f"字体：{built.font}")
    for line in [*notes, *built.warnings]:
        typer.echo(line, err=True)


FolderArg = Annotated[Path, typer.Argument(help="活动文件夹（含 event.toml）", file_okay=False)]
ForceOpt = Annotated[bool, typer.Option("--force", help="覆盖已有文件")]


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", help="示例活动的文件夹", file_okay=False)] = Path("output/demo"),
    teams: Annotated[int, typer.Option("--teams", min=2, max=128, help="参赛组数")] = 11,
    seed: Annotated[int, typer.Option("--seed", help="随机种子（同一种子得到同一场示例比赛）")] = 2026,
    force: Annotated[bool, typer.Option("--force", help="清空一个不是示例活动的非空文件夹")] = False,
) -> None:
    """生成一场完整的示例比赛：设置、报名表、每轮抽签与模拟记分、检查副本、打印材料和最终名次。"""
    from materials import build_all
    from scoring.demo import run_demo
    from scoring.report import placings_text
    from scoring.tournament import TEAMS_FILE

    try:
        report = run_demo(out, teams=teams, seed=seed, force=force)
        built = build_all(out, report.event, report.teams, force=True)
    except UserError as exc:
        fail(exc.messages)
    team_map = {t.id: t for t in report.teams}
    typer.echo(f"示例比赛已生成在 {out}/ ：{len(report.teams)}组，{len(report.rounds)}轮")
    typer.echo(f"  活动设置      {out / 'event.toml'}")
    typer.echo(f"  报名表        {out / TEAMS_FILE}")
    for score in report.rounds:
        r = score.round
        typer.echo(f"  第{r.number}轮记分表  {out / f'round-{r.number}.xlsx'}（随机种子 {r.seed}），"
                   f"检查副本 round-{r.number}-checked.xlsx")
    for path in built.paths:
        typer.echo(f"  打印材料      {path}")
    typer.echo(placings_text(report.placings, team_map))
    for line in built.warnings:
        typer.echo(line, err=True)


@app.command()
def init(folder: FolderArg = Path("."), force: ForceOpt = False) -> None:
    """新建活动文件夹：event.toml（按通知预填）和空白报名表 teams.xlsx。"""
    from scoring.event import EVENT_FILE, default_text
    from scoring.files import OutputExists, write_text
    from scoring.tournament import TEAMS_FILE
    from scoring.workbook import write_teams_template

    # A file that is already there is kept (it may be a filled team list); only when both are there is that an
    # error, and --force replaces them.
    kept = [] if force else [name for name in (EVENT_FILE, TEAMS_FILE) if (folder / name).exists()]
    try:
        if len(kept) == 2:
            raise OutputExists(folder / EVENT_FILE)
        if EVENT_FILE not in kept:
            write_text(folder / EVENT_FILE, default_text(), force=force)
        if TEAMS_FILE not in kept:
            write_teams_template(folder / TEAMS_FILE, force=force)
    except UserError as exc:
        fail(exc.messages)
    for name in kept:
        typer.echo(f"{folder / name} 已存在，保留原文件不变（如要换成空白的新文件，请加 --force）")
    if EVENT_FILE not in kept:
        typer.echo(f"已生成 {folder / EVENT_FILE}（活动设置，请核对）")
    if TEAMS_FILE not in kept:
        typer.echo(f"已生成 {folder / TEAMS_FILE}（报名表：删除示例行后填写各组）")
    typer.echo(f"下一步：shuangsheng materials {folder}   （打印通知、规则、报名表、签条）")


@app.command()
def draw(
    folder: FolderArg = Path("."),
    seed: Annotated[
        int | None,
        # Stored as a number in round-N.xlsx: a spreadsheet keeps 15 digits, and the reader takes whole numbers ≥ 0.
        typer.Option("--seed", min=0, max=10**15 - 1, help="随机种子，0–999999999999999（不填则自动生成并打印）"),
    ] = None,
    lots: Annotated[
        Path | None, typer.Option("--lots", help="按纸签抽签：组号→签号的表格（xlsx 或 csv）", dir_okay=False)
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="作废并重新抽最近一轮（原文件另存为备份）")] = False,
) -> None:
    """抽下一轮：写出 round-N.xlsx（对阵表和每桌记分表）。"""
    from scoring.report import draw_text
    from scoring.tournament import draw_next

    try:
        report = draw_next(folder, seed=seed, lots=lots, force=force)
    except UserError as exc:
        fail(exc.messages)
    typer.echo(draw_text(report))


@app.command()
def score(
    folder: FolderArg = Path("."),
    round_number: Annotated[int | None, typer.Option("--round", min=1, help="第几轮（默认最近一轮）")] = None,
    json_out: JsonOpt = False,
    force: Annotated[bool, typer.Option("--force", help="覆盖已被改动过的检查副本")] = False,
) -> None:
    """读取填好的记分表，逐局计算级数，判定胜负、加赛和晋级；另存检查副本，不改动原文件。"""
    from scoring.files import OutputExists
    from scoring.report import score_text
    from scoring.tournament import score as run
    from scoring.tournament import score_as_json, write_checked_copy

    try:
        report = run(folder, round_number)
    except UserError as exc:
        fail(exc.messages, as_json={"errors": exc.messages} if json_out else None)
    not_written = None
    try:
        write_checked_copy(report, force=force)
    except OutputExists as exc:
        not_written = f"检查副本没有更新：{exc}（该文件在上次生成后被改动过）"
    except UserError as exc:  # e.g. the checked copy is open in Excel/WPS
        not_written = f"检查副本没有更新：{exc}"
    if json_out:
        doc = score_as_json(report.score)
        if not_written:
            doc.setdefault("errors", []).append(not_written)
        print_json(doc)
    else:
        typer.echo(score_text(report.score, report.teams))
        if not_written:
            typer.echo(not_written, err=True)
        else:
            typer.echo(f"检查副本（逐局级数与说明，错误处已标出）：{report.checked}")
    if report.score.problems or not_written:
        raise typer.Exit(code=1)


@app.command()
def awards(folder: FolderArg = Path("."), json_out: JsonOpt = False) -> None:
    """最终名次：一等奖、二等奖、三等奖。"""
    from scoring.knockout import placings_as_json
    from scoring.report import placings_text
    from scoring.tournament import awards as run

    try:
        placings, state = run(folder)
    except UserError as exc:
        fail(exc.messages, as_json={"errors": exc.messages} if json_out else None)
    if json_out:
        print_json(placings_as_json(placings))
    else:
        typer.echo(placings_text(placings, state.team_map))


_DETAILS = (  # the parts of click's and pydantic's English wording a user meets, in Chinese
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"应不小于 \1"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"应不大于 \1"),
    (re.compile(r"Input should be a valid integer.*"), "应为整数"),
    (re.compile(r"(?:File|file|Directory|directory|Path|path) '(.*)' does not exist\."), r"“\1”不存在"),
    (re.compile(r"(?:File|file) '(.*)' is a directory\."), r"“\1”是文件夹，这里应为文件"),
    (re.compile(r"(?:Directory|directory) '(.*)' is a file\."), r"“\1”是文件，这里应为文件夹"),
)


def usage_message(exc: Exception) -> str:
    """A command-line mistake (unknown command or option, bad or missing value) in Chinese, with where to look."""
    name = type(exc).__name__
    text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    param = getattr(exc, "param", None)
    where = "/".join(getattr(param, "opts", None) or []) or getattr(param, "name", "") or ""
    if name == "NoSuchOption":
        line = f"没有这个选项：{getattr(exc, 'option_name', '')}"
    elif name == "MissingParameter":
        line = f"缺少参数：{where}"
    elif name == "BadParameter":
        detail = text.split(": ", 1)[-1]
        for pattern, chinese in _DETAILS:
            detail = pattern.sub(chinese, detail)
        line = f"参数 {where} 的值不对：{detail}"
    elif m := re.match(r"No such command '(.*)'", text):
        commands = "、".join(sorted(typer.main.get_command(app).commands))  # type: ignore[attr-defined]
        line = f"没有这个命令：{m.group(1)}（可用的命令：{commands}）"
    elif m := re.match(r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", text):
        line = f"多余的参数：{m.group(1)}（文件夹或文件路径中有空格时，请用英文引号括起来）"
    else:
        line = f"命令用法有误：{text}"
    return f"{line}\n用法说明：shuangsheng --help，或 shuangsheng 命令 --help"


def main() -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stderr.reconfigure(encoding="utf-8")
    try:
        code = app(standalone_mode=False)
    except _UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # plain `shuangsheng`: show the help
            app(["--help"])
        typer.echo(usage_message(exc), err=True)
        sys.exit(2)
    except typer.Abort:
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - outside any command (parsing itself): same defence
        try:
            crash(exc, ["shuangsheng", *sys.argv[1:]])
        except typer.Exit as done:
            sys.exit(done.exit_code)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
