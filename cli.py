"""The `shuangsheng` command line: parse, make one library call, print. Heavy imports stay inside commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

app = typer.Typer(
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
    from scoring.hands import HandError, RecordError, parse_record
    from scoring.match import replay as run, result_as_json
    from scoring.report import replay_text
    from scoring.rules import DEFAULT_RULES

    def bad(message: str) -> NoReturn:
        fail(message, as_json={"errors": [HandError(None, None, message).as_json()]} if json_out else None)

    try:
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        bad(f"{file}：找不到文件")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        bad(f"{file}：不是有效的 UTF-8 JSON（{exc}）")
    try:
        record, rules = parse_record(data)
    except RecordError as exc:
        if json_out:
            fail([], as_json={"errors": [e.as_json() for e in exc.errors]})
        fail([f"{file}：{e.message}" for e in exc.errors])
    result = run(record, rules or DEFAULT_RULES)
    if json_out:
        print_json(result_as_json(result))
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
    from materials import MaterialsError, build_all
    from scoring.event import EventError, load
    from scoring.files import OutputExists
    from scoring.workbook import WorkbookError, read_teams

    try:
        event = load(folder)
    except EventError as exc:
        fail(exc.problems)
    teams = None
    notes: list[str] = []
    teams_file = folder / "teams.xlsx"
    if teams_file.exists():
        try:
            teams = read_teams(teams_file)
        except WorkbookError as exc:
            notes = [f"{teams_file} 暂不能使用，报名表、抽签签条和签收表按空白打印：", *exc.messages]
    try:
        built = build_all(folder, event, teams, font=font, lots=lots, force=force)
    except (OutputExists, MaterialsError) as exc:
        fail(str(exc))
    for path in built.paths:
        typer.echo(f"已生成 {path}")
    typer.echo(f"字体：{built.font}")
    for line in [*notes, *built.warnings]:
        typer.echo(line, err=True)


def main() -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
        sys.stderr.reconfigure(encoding="utf-8")
    app()


if __name__ == "__main__":
    main()
