"""What every command of the command line shares: the Typer `app` (Chinese help, `cli_help`), the last line of
defence around each command (`GuardedCommand`, `crash`: never a traceback on the terminal), `fail` and
`print_json`, `hold` (one file-writing command at a time in a folder, event.db opened first), `settled` and the
arguments several commands take. Imports nothing heavy: each command imports what it needs inside itself."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from shuangsheng.cli_help import DOCS_HINT, ChineseCommand, ChineseGroup, WholeNumber, a_file, a_folder

# tiny; the heavy modules are imported inside each command
from shuangsheng.vocabulary.errors import Issue, UserError, failure_json

if TYPE_CHECKING:
    from typer._click import Context

_FOLDER_PARAMS = ("folder", "out")  # where a command works: the crash report goes there


def crash(exc: BaseException, command: list[str], folder: Path | None = None, *, as_json: bool = False) -> NoReturn:
    """The last line of defence: an unexpected exception becomes a short Chinese message and a saved report (with
    `as_json`, also the `--json` failure document on stdout: one JSON document on every failure)."""
    from shuangsheng.storage.crash import message, save_report

    lines = message(save_report(exc, command, folder), exc)
    if as_json:
        print_json(failure_json([Issue.plain(line) for line in lines]))
    for line in lines:
        typer.echo(line, err=True)
    raise typer.Exit(code=1)


class GuardedCommand(ChineseCommand):
    """Every command runs inside the last line of defence: never a traceback on the terminal."""

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException, KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        # Anything else is a bug: reported, not shown. BaseException, because a library written in Rust reports a
        # panic as pyo3's PanicException, which is not an Exception.
        except BaseException as exc:
            params = {k: v for k, v in ctx.params.items() if v not in (None, False)}
            folder = next((Path(params[k]) for k in _FOLDER_PARAMS if k in params), None)
            if (plain := _not_a_bug(exc, folder)) is not None:
                fail([str(plain)], as_json=failure_json([plain]) if params.get("json_out") else None)
            command = [ctx.command_path, *(f"{k}={v}" for k, v in params.items())]
            crash(exc, command, folder, as_json=bool(params.get("json_out")))


def _not_a_bug(exc: BaseException, folder: Path | None) -> Issue | None:
    """A path the system refuses (a name too long), or a fault of the PC's disk or folder: said in plain words."""
    from shuangsheng.storage.faults import known_fault
    from shuangsheng.storage.files import plain_os_error

    if (plain := plain_os_error(exc)) is not None:
        return Issue.plain(plain)
    return known_fault(exc, folder)


class _App(typer.Typer):
    def command(self, *args: Any, **kwargs: Any) -> Any:  # typer.Typer.command, made with GuardedCommand
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


def hold(folder: Path, *, json_out: bool = False) -> contextlib.ExitStack:
    """One file-writing command at a time (`shuangsheng.usecases.holding.held`): waits briefly for another command,
    then names the holder (exit 1). `json_out`: a refusal as the `--json` failure."""
    from shuangsheng.usecases.holding import held

    stack = contextlib.ExitStack()
    try:
        notes = stack.enter_context(held(folder))
    except UserError as exc:
        stack.close()
        fail(exc.messages, as_json=exc.as_json() if json_out else None)
    for line in notes:
        typer.echo(line, err=True)
    return stack


FolderArg = Annotated[Path, typer.Argument(metavar="文件夹", help="活动文件夹（含 event.toml）", parser=a_folder)]
PortOpt = Annotated[
    int, typer.Option("--port", metavar="端口", parser=WholeNumber(0, 65535), help="网页端口（0 表示自动选一个空闲端口）")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="覆盖已有文件")]
