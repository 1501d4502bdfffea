"""The commands before the rounds: `replay` (one match explained hand by hand), `materials` (the printed
materials), `demo` (a whole sample event) and `init` (a new event folder). Each parses, calls the library, prints."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shuangsheng.cli.shared import FileArg, FolderArg, ForceOpt, JsonOpt, app, fail, print_json, settled
from shuangsheng.cli_help import WholeNumber, a_folder
from shuangsheng.vocabulary.errors import UserError


@app.command()
def replay(file: FileArg, json_out: JsonOpt = False) -> None:
    """重演一场比赛的记录，逐局说明级数变化。"""
    from shuangsheng.game.hands import RecordError, read_record
    from shuangsheng.game.match import replay_record, result_as_json
    from shuangsheng.render.report import replay_text
    from shuangsheng.vocabulary.errors import failure_json, located

    try:
        result = replay_record(read_record(file))
    except RecordError as exc:  # not a record at all: missing, too large, not JSON
        errors = located(exc.errors, str(file))
        fail([str(e) for e in errors], as_json=failure_json(errors) if json_out else None)
    if json_out:
        print_json(failure_json(located(result.errors, str(file))) if result.errors else result_as_json(result))
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
    """打印材料：通知、比赛规则、规则口径确认单、报名表、抽签签条、纪念品领取签收表、签到表（PDF）。"""
    from shuangsheng.render.report import next_after_materials
    from shuangsheng.storage.names import TEAMS_FILE as TEAMS
    from shuangsheng.usecases.materials import make_materials

    try:
        made = make_materials(folder, font=font, lots=lots, force=force)
    except UserError as exc:
        fail(exc.messages)
    built = made.written
    blank = [f"{folder / TEAMS} 还没有填写参赛组（只有模板的示例行），报名表、抽签签条和签收表按空白打印"] if made.blank else []
    errors = ([f"{folder / TEAMS} 有错误，报名表、抽签签条和签收表这次按空白打印；请改正：",
               *(str(p) for p in made.team_problems)] if made.team_problems else [])
    for line in [*(f"已生成 {path}" for path in built.paths), f"字体：{built.note}", *blank]:
        typer.echo(line)
    for line in [*errors, *built.warnings]:
        typer.echo(line, err=True)
    typer.echo(next_after_materials(folder, made.teams, progress=made.progress, team_errors=bool(errors)))
    if errors:
        raise typer.Exit(code=1)


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", metavar="文件夹", help="示例活动的文件夹", parser=a_folder)] = Path("output/demo"),
    teams: Annotated[int, typer.Option("--teams", metavar="组数", parser=WholeNumber(2, 512), help="参赛组数")] = 11,
    seed: Annotated[int, typer.Option("--seed", metavar="整数", parser=WholeNumber(), help="随机种子（同一种子得到同一场示例比赛）")] = 2026,
) -> None:
    """生成一场完整的示例比赛：设置、报名表、每轮抽签与模拟记分、检查副本、每轮的对阵表、计分卡、成绩和加赛单、打印材料和最终名次。"""
    from shuangsheng.render.report import next_after_demo, placings_text
    from shuangsheng.usecases.demo import make_demo

    try:
        with settled():
            made = make_demo(out, teams=teams, seed=seed)
    except UserError as exc:
        fail(exc.messages)
    report, built, ending = made.report, made.built, made.ending
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
    typer.echo(placings_text(report.placings, {t.id: t for t in report.teams}, report.state.digits))
    for line in dict.fromkeys([*report.warnings, *built.warnings, *ending.warnings]):
        typer.echo(line, err=True)
    typer.echo(next_after_demo(out))


@app.command()
def init(folder: FolderArg = Path("."), force: ForceOpt = False) -> None:
    """新建活动文件夹：event.toml（按通知预填）和空白报名表 teams.xlsx。"""
    from shuangsheng.render.report import next_after_init
    from shuangsheng.storage.names import EVENT_FILE as EVENT
    from shuangsheng.usecases.init import init_event

    try:
        done = init_event(folder, force=force)
    except UserError as exc:
        fail(exc.messages)
    for path in done.kept:
        typer.echo(f"{path} 已存在，保留原文件不变（如要换成空白的新文件，请加 --force）")
    for original, backup in done.backups:
        typer.echo(f"原来的 {original} 已另存为 {backup}")
    for path in done.written:
        typer.echo(f"已生成 {path}（活动设置，请核对）" if path.name == EVENT else f"已生成 {path}（报名表：删除示例行后填写各组）")
    typer.echo(next_after_init(folder))
