"""The command of 报到 (check-in) before round 1: `checkin` — pairs marked arrived (or the mark taken back with a
reason), pairs absent after the late time confirmed 弃权, check-in closed (or opened again with a reason); without
an option, where check-in stands. The same decisions as the desk's (docs/checkin.md). Parses, calls the library,
prints."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shuangsheng.cli.shared import FolderArg, app, fail
from shuangsheng.vocabulary.errors import UserError


def team_ids(values: list[str] | None) -> tuple[str, ...]:
    """组号 as typed: each option value may hold several, separated by commas, 、 or spaces (`--arrived 03,05`)."""
    from shuangsheng.knockout.teams import ID_SEPARATORS

    found: list[str] = []
    for value in values or ():
        for sep in ID_SEPARATORS:
            value = value.replace(sep, " ")
        found += value.split()
    return tuple(found)


@app.command()
def checkin(
    folder: FolderArg = Path("."),
    arrived: Annotated[list[str] | None, typer.Option(
        "--arrived", metavar="组号", help="这些组已报到（多个组号用逗号隔开，如 03,05,12）")] = None,
    undo: Annotated[list[str] | None, typer.Option(
        "--undo", metavar="组号", help="撤销这些组的报到（点错了），须同时写 --reason")] = None,
    absent: Annotated[list[str] | None, typer.Option(
        "--absent", metavar="组号", help="这些组迟到超过规定时间，按弃权论（开始时间加 late_minutes 之后才能判）")] = None,
    close: Annotated[bool, typer.Option("--close", help="结束报到（没到的组须先判弃权）；然后运行 draw 抽第1轮")] = False,
    reopen: Annotated[bool, typer.Option("--reopen", help="重新开始报到（已结束、第1轮还没抽签时），须同时写 --reason；先于其他选项做")] = False,
    reason: Annotated[str | None, typer.Option(
        "--reason", metavar="原因", help="撤销报到、弃权后又来报到、重新开始报到的原因")] = None,
) -> None:
    """报到（第1轮抽签之前）：标记已到的组、撤销报到、判弃权、结束报到；不加选项时显示报到情况。"""
    from shuangsheng.render.report import checkin_text
    from shuangsheng.usecases.checkin import CheckinOrder, run_checkin

    order = CheckinOrder(team_ids(arrived), team_ids(undo), team_ids(absent), close, reopen, (reason or "").strip())
    try:
        report = run_checkin(folder, order)
    except UserError as exc:
        fail(exc.messages)
    typer.echo(checkin_text(report))
    if report.refused:
        raise typer.Exit(code=1)
