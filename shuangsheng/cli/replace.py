"""The command of a player replaced mid-event: `replace` — a pair plays on with another player from a round on, with
the reason, logged in event.db (docs/checkin.md, 换人). Parses, calls the library, prints."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from shuangsheng.cli.shared import FolderArg, app, fail
from shuangsheng.cli_help import WholeNumber
from shuangsheng.vocabulary.errors import UserError


@app.command()
def replace(
    folder: FolderArg = Path("."),
    team: Annotated[str | None, typer.Option("--team", metavar="组号", help="换人的组")] = None,
    out: Annotated[str | None, typer.Option("--out", metavar="姓名", help="换下的队员")] = None,
    into: Annotated[str | None, typer.Option("--in", metavar="姓名", help="换上的队员")] = None,
    reason: Annotated[str | None, typer.Option("--reason", metavar="原因", help="换人的原因（必填，如 生病）")] = None,
    round_: Annotated[int | None, typer.Option("--round", metavar="轮次", parser=WholeNumber(1, 10),
                                               help="换上的队员从第几轮起参赛（默认：最近抽签的一轮）")] = None,
) -> None:
    """换人：比赛中一名队员因病等不能继续，经比赛负责人同意由另一人替换（记入 event.db，成绩和证书按换人后的组）。"""
    import secrets

    from shuangsheng.usecases.replacement import replace_in_folder

    body: dict[str, object] = {"team": team or "", "out": out or "", "in": into or "", "reason": reason or "",
                               "id": secrets.token_hex(8)}
    if round_ is not None:
        body["round"] = round_
    try:
        done = replace_in_folder(folder, body)
    except UserError as exc:
        fail(exc.messages)
    if done.issue is not None:
        fail(f"没有记下：{done.issue.message}")
    assert done.made is not None
    typer.echo(f"已记下换人：{done.made.said(done.digits)}")
    typer.echo("从现在起，成绩、成绩公告和荣誉证书按换人后的组；荣誉证书同时写明换下的队员也曾为本组参赛")
