"""What a user meets before a command runs, in Chinese: the help pages (wrapped by display width, the commands in
the order of the day), the checks of every value typed on the command line, and the message for a command line
that is wrong. Typer's public extension points only: our own command classes, `parser=` callables and
`typer.BadParameter`; nothing is translated from click's English. Light: every run imports it, --help included.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

import typer
import typer.core

if TYPE_CHECKING:  # the click that Typer vendors: its types, for the checker only
    from typer._click import Command, Context, HelpFormatter, Parameter

from shuangsheng.render.linebreak import break_lines
from shuangsheng.vocabulary.text import pad, width

# The order an organiser meets the commands on the day; a command not listed here is shown after these.
ORDER_OF_THE_DAY = ("start", "init", "materials", "checkin", "draw", "score", "replace", "bracket", "serve", "show",
                    "awards", "rebuild", "replay", "demo")
DOCS_HINT = ("文件格式（对局记录 JSON、event.toml、记分表各列）和退出码的说明：见程序文件夹里的 docs/"
             "（安装版在安装文件夹里；组织者控制台的“使用说明”页可以直接打开）")
USAGE_HINT = "用法说明：shuangsheng --help，或 shuangsheng 命令 --help"


# --- mistakes in the command line: our own, already in Chinese -------------------------------------------------------


class Mistake(typer.BadParameter):
    """A command line that is wrong (exit 2). `message` is Chinese; a value's mistake says what the value should
    be ("应为 2 到 512 之间的整数，实际为“600”") and gets its parameter attached by Typer."""

    def line(self) -> str:
        return f"参数 {parameter_name(self.param)} {self.message}" if self.param is not None else self.message


class NoSuchCommand(Mistake):
    """An unknown command, with the close matches and every command in the order of the day."""

    def __init__(self, name: str, commands: list[str]) -> None:
        suggestions = difflib.get_close_matches(name, commands, n=2)
        maybe = f"。您要的是不是 {' 或 '.join(suggestions)}？" if suggestions else "。"
        super().__init__(f"没有这个命令：{name}{maybe}\n可用的命令：{'、'.join(commands)}")
        self.suggestions = suggestions


def parameter_name(param: Parameter) -> str:
    """`--teams` for an option, its Chinese metavar (文件夹, 文件) for an argument."""
    if param.param_type_name == "argument":
        return param.metavar or param.name or ""
    return "/".join(param.opts)


def usage_message(exc: typer.TyperException) -> str:
    """A command-line mistake as Chinese lines, with where to read more."""
    if isinstance(exc, Mistake):
        line = exc.line()
    elif isinstance(exc, typer.BadParameter):  # every typed value is checked by our parsers: a value not given
        line = f"缺少参数：{parameter_name(exc.param)}" if exc.param is not None else exc.format_message()
    else:  # not expected: the commands check unknown options, missing values and extra arguments themselves
        line = f"命令用法有误：{exc.format_message()}"
    return f"{line}\n{USAGE_HINT}"


# --- values: every option's and argument's check, as `parser=` callables ------------------------------------------------


@dataclass(frozen=True)
class WholeNumber:
    """A whole number within [low, high] (either may be open); full-width digits are accepted."""

    low: int | None = None
    high: int | None = None

    def what(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{self.low} 到 {self.high} 之间的整数"
        if self.low is not None:
            return f"不小于 {self.low} 的整数"
        return f"不大于 {self.high} 的整数" if self.high is not None else "整数"

    def limits(self) -> str | None:
        """For the help: 范围：2–512, 至少 1, or nothing."""
        if self.low is not None and self.high is not None:
            return f"范围：{self.low}–{self.high}"
        if self.low is not None or self.high is not None:
            return f"至少 {self.low}" if self.low is not None else f"至多 {self.high}"
        return None

    def __call__(self, value: object) -> int:
        if isinstance(value, int):  # a default
            return value
        text = unicodedata.normalize("NFKC", str(value)).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            raise self.refuse(value)
        number = int(text)
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise self.refuse(value)
        return number

    def refuse(self, value: object) -> Mistake:
        what = self.what()
        return Mistake(f"应为{' ' if what[0].isdigit() else ''}{what}，实际为“{value}”")


def a_file(value: str | PathLike[str]) -> Path:
    """A file path (it need not exist yet: the command says so); a folder is refused."""
    path = Path(value)
    if _is(path, Path.is_dir):
        raise Mistake(f"应为文件，“{value}”是文件夹")
    return path


def a_folder(value: str | PathLike[str]) -> Path:
    """A folder path (it need not exist yet); a file is refused."""
    path = Path(value)
    if _is(path, Path.is_file):
        raise Mistake(f"应为文件夹，“{value}”是文件")
    return path


def _is(path: Path, test: Callable[[Path], bool]) -> bool:
    try:
        return bool(test(path))
    except OSError:  # e.g. a name too long: the command reports that path plainly
        return False


# --- the help pages ------------------------------------------------------------------------------------------------


def wrap(text: str, columns: int) -> list[str]:
    """Lines of at most `columns` display columns (CJK counts two), by the Chinese line-breaking rules."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        lines += [line.rstrip() for line in break_lines(paragraph.strip(), width, [columns])] or [""]
    return lines


def _definitions(rows: list[tuple[str, str]], columns: int) -> list[str]:
    """`  name   description` rows, descriptions aligned and wrapped, never cut off."""
    if not rows:
        return []
    indent = min(max(width(name) for name, _ in rows), 24) + 4
    lines = []
    for name, text in rows:
        body = wrap(text, max(columns - indent, 20))
        if width(name) + 4 > indent:
            lines += [f"  {name}", *(" " * indent + b for b in body)]
        else:
            lines += [pad(f"  {name}", indent) + body[0], *(" " * indent + b for b in body[1:])]
    return lines


def _metavar(param: Parameter) -> str:
    """What to type for a value, in Chinese: every value parameter declares its `metavar` (a test checks)."""
    return param.metavar or "值"


def _limits(param: Parameter) -> str | None:
    parser = getattr(param.type, "func", None)  # the `parser=` a parameter was declared with
    return parser.limits() if isinstance(parser, WholeNumber) else None


def _extras(param: Parameter, ctx: Context) -> str:
    """[必填] / [默认：…] / [范围：2–512] after a parameter's help."""
    parts = []
    if param.required:
        parts.append("必填")
    default = param.get_default(ctx, call=False)
    if getattr(param, "show_default", None) is not False and default not in (None, False, ()) and not getattr(param, "is_flag", False):
        parts.append("默认：" + ("当前文件夹" if str(default) == "." else str(default)))
    if limits := _limits(param):
        parts.append(limits)
    return f"  [{'；'.join(parts)}]" if parts else ""


def _param_rows(command: Command, ctx: Context, kind: str) -> list[tuple[str, str]]:
    rows = []
    for param in command.get_params(ctx):
        if param.param_type_name != kind or getattr(param, "hidden", False):
            continue
        if kind == "argument":
            name = _metavar(param)
        elif set(param.opts) <= set(ctx.help_option_names):
            rows.append(("/".join(param.opts), "显示帮助并退出"))
            continue
        else:
            name = "/".join([*param.opts, *param.secondary_opts])
            if not getattr(param, "is_flag", False):
                name += f" {_metavar(param)}"
        rows.append((name, (getattr(param, "help", None) or "") + _extras(param, ctx)))
    return rows


def _usage(command: Command, ctx: Context) -> str:
    if isinstance(command, typer.core.TyperGroup):
        return f"{ctx.command_path} 命令 [选项] [参数]..."
    args = []
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            meta = _metavar(param) + ("..." if param.nargs == -1 else "")
            args.append(meta if param.required else f"[{meta}]")
    return " ".join([ctx.command_path, "[选项]", *args])


def _command_rows(group: typer.core.TyperGroup, ctx: Context) -> list[tuple[str, str]]:
    rows = []
    for name in group.list_commands(ctx):
        sub = group.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            rows.append((name, sub.get_short_help_str(limit=1000)))
    return rows


def help_text(command: Command, ctx: Context, columns: int) -> str:
    """The whole help page of the app or of one command, in Chinese, lines at most `columns` wide."""
    lines = [f"用法：{_usage(command, ctx)}", ""]
    lines += ["  " + line for line in wrap((command.help or "").strip(), columns - 2)]
    sections = [("参数", _param_rows(command, ctx, "argument"))]
    if isinstance(command, typer.core.TyperGroup):
        sections.append(("命令（按比赛当天的顺序）", _command_rows(command, ctx)))
    sections.append(("选项", _param_rows(command, ctx, "option")))
    for title, rows in sections:
        if rows:
            lines += ["", f"{title}：", *_definitions(rows, columns)]
    if command.epilog:
        lines += ["", *wrap(command.epilog, columns)]
    return "\n".join(lines) + "\n"


# --- the command classes -------------------------------------------------------------------------------------------

def _option_mistake(command: Command, ctx: Context, args: list[str]) -> Mistake | None:
    """An unknown option, or an option whose value is missing at the end, before the parser meets it."""
    takes_value, names = set[str](), set[str]()
    for param in command.get_params(ctx):
        if param.param_type_name == "option":
            names.update((*param.opts, *param.secondary_opts))
            if not getattr(param, "is_flag", False):
                takes_value.update((*param.opts, *param.secondary_opts))
    waiting = None  # the option whose value comes next
    for arg in args:
        if arg == "--":
            break
        if waiting:
            waiting = None
        elif arg.startswith("-") and arg != "-":
            name = arg.split("=", 1)[0]
            if name not in names:
                return Mistake(f"没有这个选项：{name}")
            waiting = name if name in takes_value and "=" not in arg else None
    return Mistake(f"选项 {waiting} 后面缺少值") if waiting else None


class ChineseCommand(typer.core.TyperCommand):
    """A command whose --help is in Chinese and wrapped by display width, and whose command-line mistakes are
    named in Chinese: an unknown option, an option without its value, an extra argument."""

    allow_extra_args = True  # extra arguments are named by parse_args below, not refused by the parser

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        formatter.write(help_text(self, ctx, formatter.width))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if mistake := _option_mistake(self, ctx, args):
            raise mistake
        rest = super().parse_args(ctx, args)
        if ctx.args:
            raise Mistake(f"多余的参数：{' '.join(ctx.args)}（文件夹或文件路径中有空格时，请用英文引号括起来）")
        return rest


class ChineseGroup(typer.core.TyperGroup):
    """The app: Chinese help, commands in the order of the day, a clean hint for a mistyped command or option."""

    def list_commands(self, ctx: Context) -> list[str]:
        names = list(self.commands)
        rank = {name: i for i, name in enumerate(ORDER_OF_THE_DAY)}
        return sorted(names, key=lambda n: (rank.get(n, len(rank)), names.index(n)))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if args and args[0].startswith("-") and args[0] not in ctx.help_option_names:
            raise Mistake(f"没有这个选项：{args[0].split('=', 1)[0]}（选项写在命令后面，如 shuangsheng draw --seed 1）")
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        if args and self.get_command(ctx, args[0]) is None:
            raise NoSuchCommand(args[0], self.list_commands(ctx))
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        formatter.write(help_text(self, ctx, formatter.width))
