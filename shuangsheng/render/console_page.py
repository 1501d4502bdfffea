"""The organiser's console pages (`shuangsheng.hall.console`), rendered with jinja2 from
`shuangsheng/render/templates/console*.html.j2`: the records they show (a job's `Step` and `Outcome`, the buttons
`Action`, a table of rows `Grid`, the page's `Context`) and one function per kind of page. Deciding nothing: what a
page shows is read by the hall (`shuangsheng.hall.console_work`) and handed in.

Every message a use-case wrote for the terminal may name a command ("运行 shuangsheng score 比赛 --round 1"); on
these pages it names the console's button instead (`console_words`): no page asks the organiser to type a command.
Pure: no files but the templates."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from shuangsheng.render.show_page import html_env
from shuangsheng.vocabulary.errors import UserError

PAGES = (("events", "活动"), ("settings", "设置"), ("teams", "报名"), ("materials", "材料"), ("draw", "抽签"),
         ("round", "本轮"), ("correct", "更正"), ("awards", "颁奖"))
POLL_MS = 700  # how often a job's page asks how far it is


@dataclass(frozen=True)
class Step:
    """What a job is doing now: `label`, and `done` of `total` (0 of 0: no measure yet)."""

    label: str
    done: int = 0
    total: int = 0

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


@dataclass(frozen=True)
class Action:
    """A button of the console: a page to go to next (`href`), with its label; with `form` a button that POSTs
    those fields to `href` (the page adds its form token and id)."""

    label: str
    href: str
    form: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    problems: tuple[object, ...] = ()  # Issue records
    flag: str = ""  # a row's look: "bad", "done", "" (plain)


@dataclass(frozen=True)
class Grid:
    header: tuple[str, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """What a job came to: `ok` or not, what it says (`lines`), the files it wrote (`files`, each with an open
    button), the problems found (`problems`, the one error record, with `heading` and `hint` when they have one)
    and where to go next (`next`)."""

    title: str
    ok: bool = True
    lines: tuple[str, ...] = ()
    files: tuple[Path, ...] = ()
    problems: tuple[object, ...] = ()  # Issue records
    heading: str | None = None
    hint: str | None = None
    next: tuple[Action, ...] = ()
    grid: Grid | None = None  # a row per table (a round scored)


@dataclass(frozen=True, kw_only=True)
class Context:
    """What every page of the console shows around its own content."""

    folder: Path | None  # the event open now
    root: Path | None  # the events root (None: `serve DIR`, one event only)
    pin: str
    csrf: str
    lan: str | None = None  # the address the phones use, once opened
    busy: object | None = None  # a job running now (its page is linked on every page)
    facts: Mapping[str, object] = field(default_factory=dict)  # what the page itself shows


# --- commands in the terminal's messages, said as the console's buttons ---

_COMMAND = re.compile(r'(?:运行\s*)?shuangsheng (\w+)(?: (?:"[^"]*"|[^\s，。；、）)—-][^\s，。；、）)]*))?'
                      r'((?: --[\w-]+(?: [^\s，。；、）)-][^\s，。；、）)]*)?)*)')
_WHERE = {
    "score": "在控制台“本轮”页点“计分”",
    "draw": "在控制台“抽签”页点“抽签”",
    "materials": "在控制台“材料”页点“生成材料”",
    "awards": "在控制台“颁奖”页点“生成成绩公告、证书和成绩册”",
    "bracket": "在控制台“颁奖”页点“生成成绩公告、证书和成绩册”",
    "init": "在控制台“活动”页点“新建比赛”",
    "serve": "在控制台打开“本轮”页",
    "show": "在控制台打开“本轮”页",
    "rebuild": "点下面的“重建比赛记录”",
    "checkin": "在控制台“本轮”页点“报到”",
    "replace": "在控制台“本轮”页点“换人”",
}


def _said(match: re.Match[str]) -> str:
    command, options = match.group(1), match.group(2) or ""
    number = re.search(r"--(round|redo|check) (\d+)", options)
    if command == "score" and number:
        return f"在控制台“更正”页点“第{number.group(2)}轮计分”"
    if command == "draw" and number and number.group(1) == "redo":
        return f"在控制台“更正”页点“重排第{number.group(2)}轮”"
    if command == "draw" and number and number.group(1) == "check":
        return f"在控制台“抽签”页点第{number.group(2)}轮的“复核”"
    return _WHERE.get(command, "在控制台里操作")


def console_words(text: object) -> str:
    """A message as the console says it: each command it names replaced by the console's button for it."""
    return _COMMAND.sub(_said, str(text))


# --- the pages ---


def _env() -> jinja2.Environment:
    env = html_env()
    env.filters["words"] = console_words
    env.globals["pages"] = PAGES
    env.globals["new_id"] = lambda: secrets.token_urlsafe(12)
    return env


def page(name: str, context: Context) -> bytes:
    """The console page `name` (one of PAGES, or "guide")."""
    return _env().get_template(f"console_{name}.html.j2").render(c=context, page=name,
                                                                  poll_ms=POLL_MS).encode("utf-8")


def job(found: object, context: Context) -> bytes:
    """A job's page: its progress while it runs, its outcome once done."""
    return _env().get_template("console_job.html.j2").render(c=context, page="job", job=found,
                                                             poll_ms=POLL_MS).encode("utf-8")


def problems(error: UserError, context: Context, *, back: str, rebuild: bool = False) -> bytes:
    """What the user can fix, as the error's records (each at its place), and the way back (`rebuild`: and the
    button that builds a lost event.db again)."""
    return _env().get_template("console_problems.html.j2").render(c=context, page="problems", error=error,
                                                                  back=back, rebuild=rebuild).encode("utf-8")


def refusal(message: str, back: str) -> bytes:
    """A request refused (no session, another origin, a stale page): what happened and where to go."""
    return _env().get_template("console_refusal.html.j2").render(message=message, back=back).encode("utf-8")


def login(error: str = "") -> bytes:
    return _env().get_template("console_login.html.j2").render(error=error).encode("utf-8")

