"""The wording: jinja2 templates organisers may edit (`templates/*.j2`; an event folder's own `templates/` wins),
rendered in a sandbox to lines of a small markup, and that markup's grammar. No reportlab here.

The markup, one line each: `# title`, `< plain paragraph`, a paragraph with no mark (indented, justified),
`> signature line`, `+ aside (补充说明)`, `~` a gap, `@name` an insert the document supplies, and tables:
`|= 20 40 40 @22 h9` (column widths in percent of the text width, text size in pt, height in mm of rows left
blank for a pen), `|# a | b` a header row (repeated on every page), `| a | b` a row; `{{ br }}` breaks a line
inside a cell.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from scoring import files
from scoring.errors import UserError, shown
from scoring.event import Event
from scoring.files import decode_text
from scoring.levels import Level, to_halfwidth
from scoring.rules import CARD_PENALTY, HOLD_LINE, POLICY_LINE, STEP, NegativePoints, PenaltyExcess, RuleSet, TieBreak
from templates import TEMPLATE_DIR


class MaterialsError(UserError, ValueError):
    """A wording template cannot be used; the message is Chinese and names the file and line."""


# --- wording helpers -------------------------------------------------------------------------------------------


def cn_date(day: dt.date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def cn_period(start: dt.date, end: dt.date) -> str:
    """2026年3月3日-9日, 2026年3月28日-4月3日, or both dates in full across a year end."""
    if start == end:
        return cn_date(start)
    if start.year != end.year:
        return f"{cn_date(start)}-{cn_date(end)}"
    if start.month != end.month:
        return f"{cn_date(start)}-{end.month}月{end.day}日"
    return f"{cn_date(start)}-{end.day}日"


def cn_clock(text: str) -> str:
    """'8:30' → '上午8:30', '14:00' → '下午2:00'; anything else as written."""
    m = re.fullmatch(r"\s*([0-9]{1,2})\s*:\s*([0-9]{2})\s*", to_halfwidth(text))
    if not m or int(m[1]) > 23:
        return text
    hour, minute = int(m[1]), m[2]
    if hour < 12:
        return f"上午{hour}:{minute}"
    return f"下午{hour - 12 if hour > 12 else hour}:{minute}"


def cn_minutes(minutes: int) -> str:
    return f"{minutes // 60}小时" if minutes % 60 == 0 else f"{minutes}分钟"


def prize_text(event: Event) -> str:
    parts = [
        f"{name}{count}名"
        for name, count in (("一等奖", event.prizes.first), ("二等奖", event.prizes.second), ("三等奖", event.prizes.third))
        if count
    ]
    return "设" + "、".join(parts) if parts else ""


NEGATIVE_LOW = -40  # the rule sheet's table starts here: penalties can push the defenders' points below 0


def signed_points(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def points_rows(rules: RuleSet, *, negative: bool = False) -> list[tuple[str, str, str]]:
    """The points → levels table in force, as printed: (points, who deals next, levels). With `negative`, the
    totals below 0 too (from −40, or one row 'below 0 counts as 0' when negative_points = "clamp")."""
    rows = []
    table = rules.points_table()
    if negative and rules.negative_points is NegativePoints.CLAMP:
        zero = table[0]
        rows.append(("0以下", "按0分计，庄家保庄", f"庄家升{zero.levels}级"))
    elif negative:
        table = rules.points_table(low=NEGATIVE_LOW)
    for row in table:
        if row.low == row.high:
            points = signed_points(row.low)
        elif row.low < 0:
            points = f"{signed_points(row.low)}至{signed_points(row.high)}"
        else:
            points = f"{row.low}–{row.high}"
        side, gainer = ("庄家保庄", "庄家") if row.dealer_keeps else ("台下方上台坐庄", "台下方")
        rows.append((points, side, f"{gainer}升{row.levels}级" if row.levels else "不升级"))
    return rows


def _context(event: Event) -> dict[str, object]:
    rules = event.rules
    reg = event.registration
    return {
        "event": event,
        "start_time": cn_clock(event.start_time),
        "match_length": cn_minutes(rules.match_minutes),
        "prize_text": prize_text(event),
        "registration_period": cn_period(reg.start, reg.end),
        "deadline": cn_date(reg.end),
        "notice_date": cn_date(event.notice_date),
        "must_play": "、".join(level.label for level in rules.must_play),
        "two_must_play": Level.TWO in rules.must_play,
        "hold_line": HOLD_LINE,
        "step": STEP,
        "policy_line": POLICY_LINE,
        "card_penalty": CARD_PENALTY,
        "penalty_deduct": rules.penalty_excess is PenaltyExcess.DEDUCT,
        "clamp": rules.negative_points is NegativePoints.CLAMP,
        "tie_playoff": rules.tie_break is TieBreak.PLAYOFF,
        "rules": rules,
        "br": _Break(),
    }


LINE_BREAK = "\u2028"  # a line break inside a table cell; user text never carries one (see _one_line)


class _Break:
    """`{{ br }}` in a template: a line break inside a table cell."""

    def __str__(self) -> str:
        return LINE_BREAK


def _one_line(value: object) -> object:
    """Every {{ value }} stays on its line and in its table cell: the line marks and the cell separator `|` of a
    template cannot come from user data (a `|` in a value prints as the full-width ｜)."""
    if value is None:
        return ""
    return " ".join(str(value).splitlines()).replace("|", "｜") if isinstance(value, str) else value


MAX_TEMPLATE_BYTES = 256 * 1024  # a wording template is a page of text
TEMPLATE_FILE = files.Kind("措辞模板文件", MAX_TEMPLATE_BYTES, "一页文字只有几 KB")


class _TemplateLoader(jinja2.BaseLoader):
    """The event folder's templates first, then ours; UTF-8 or GBK (as Notepad saves), a page long at most."""

    def __init__(self, folders: Sequence[Path]):
        self.folders = folders

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        from jinja2.loaders import split_template_path  # refuses names reaching outside the folder (..)

        paths = [folder.joinpath(*split_template_path(template)) for folder in self.folders]
        for i, path in enumerate(paths):
            if not path.is_file():
                continue
            try:  # regular files only (is_file), read up to the limit
                data = files.read_user_file(path, TEMPLATE_FILE)
            except files.Unreadable as exc:
                raise MaterialsError(str(exc)) from None
            text = decode_text(data)
            if text is None:
                raise MaterialsError(f"{path}：文件编码无法识别，请用记事本“另存为”，编码选 UTF-8")
            earlier = paths[:i]  # a file put there later takes over
            return text, str(path), lambda: _unchanged(path, data) and not any(p.is_file() for p in earlier)
        raise jinja2.TemplateNotFound(template)


def _unchanged(path: Path, data: bytes) -> bool:
    """Compared by content: a file rewritten within the file system's timestamp resolution is still noticed."""
    try:
        return files.read_user_file(path, TEMPLATE_FILE) == data
    except OSError:  # files.Unreadable included
        return False


@functools.lru_cache(maxsize=8)
def _environment(folders: tuple[Path, ...]) -> SandboxedEnvironment:
    """One environment per template search path, so each template is compiled once per process (a round's
    score cards render the same template 65 times); an edited, removed or newly overriding file is read again
    (jinja2 asks the loader whether the source is unchanged before each use)."""
    return SandboxedEnvironment(
        loader=_TemplateLoader(folders),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        lstrip_blocks=True,
        finalize=_one_line,
    )


def _template_line(exc: BaseException) -> tuple[str, int] | None:
    """Where in a template a rendering error happened: jinja2 maps its frames to the template's file and line."""
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(".j2") and frame.lineno:
            found = (frame.filename, frame.lineno)
    return found


def _template_problem(exc: Exception, name: str, names: Sequence[str]) -> str:
    """A template an organiser edited that cannot be used, in Chinese with its file and line."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = f"{exc.filename or name} 第{exc.lineno}行"
        return f"{where}：模板格式有误（{exc.message}）；{{{{ }}}} 与 {{% %}} 要成对，写法见原模板"
    at = _template_line(exc)
    where = f"{at[0]} 第{at[1]}行" if at else name
    detail = str(exc)
    if isinstance(exc, jinja2.UndefinedError):
        m = re.search(r"'([^']*)' is undefined", detail) or re.search(r"has no attribute '([^']*)'", detail)
        what = f"“{m.group(1)}”" if m else "其中的名字"
        return f"{where}：模板里的 {what} 不认识（可用的有：{'、'.join(names)}；event 之下的项见 event.toml）"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"{where}：模板引用的文件“{exc.name}”找不到"
    if isinstance(exc, jinja2.exceptions.SecurityError):
        return f"{where}：模板里有不允许的写法（{detail}）"
    return f"{where}：模板无法使用（{type(exc).__name__}：{shown(detail)}）"


def render_lines(
    name: str, event: Event, template_dir: Path | None = None, extra: Mapping[str, object] | None = None
) -> list[str]:
    """The wording template rendered as plain text lines (no markup; escaping happens when drawn); `extra` adds
    to the names the template can use (a round, its results, …). The template is run in jinja2's sandbox; a
    mistake in one an organiser edited is a MaterialsError naming its file and line."""
    folders = (template_dir,) if template_dir is not None and template_dir.is_dir() else ()
    env = _environment((*folders, TEMPLATE_DIR))
    context = {**_context(event), **(extra or {})}
    try:
        text = env.get_template(name).render(context)
    except MaterialsError:
        raise
    # A template is text an organiser wrote: whatever it does wrong at render time is said with its line.
    except (jinja2.TemplateError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError,
            RecursionError) as exc:
        raise MaterialsError(_template_problem(exc, name, list(context))) from None
    return [line.strip() for line in text.split("\n") if line.strip()]  # not splitlines: {{ br }} (U+2028) stays


# --- the markup's grammar --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One unit of a rendered template: `kind` is title, plain, body, signature, aside, gap, insert or table;
    `lines` the text (a title's or signature's lines, a table's rows with their leading `|` removed)."""

    kind: str
    lines: tuple[str, ...] = ()


_RUNS = {"#": "title", ">": "signature", "|": "table"}  # consecutive lines of these kinds form one block


def blocks(lines: Sequence[str]) -> list[Block]:
    """The rendered lines (see `render_lines`) grouped into blocks."""
    out: list[Block] = []
    run: list[str] = []
    run_kind = ""

    def flush() -> None:
        nonlocal run_kind
        if run:
            out.append(Block(_RUNS[run_kind], tuple(run)))
        run.clear()
        run_kind = ""

    for line in lines:
        mark = line[0]
        if mark in _RUNS:
            if run_kind and run_kind != mark:
                flush()
            run_kind = mark
            run.append(line[1:] if mark == "|" else line[1:].strip())
            continue
        flush()
        if mark == "<":
            out.append(Block("plain", (line[1:].strip(),)))
        elif line == "~":
            out.append(Block("gap"))
        elif mark == "+":
            out.append(Block("aside", (line[1:].strip(),)))
        elif mark == "@":
            out.append(Block("insert", (line,)))
        else:
            out.append(Block("body", (line,)))
    flush()
    return out


def unknown_insert(mark: str, known: Sequence[str]) -> MaterialsError:
    return MaterialsError(f"模板中的“{mark}”不认识（可用：{'、'.join(known) or '无'}）")


@dataclass(frozen=True)
class TableSpec:
    """A template table: column widths (fractions of the text width, summing to 1), the text size (None: the
    document's table size), the height of blank pen rows (mm, or None), and the rows as (is header, cells)."""

    widths: tuple[float, ...]
    size: float | None
    pen_height: float | None
    rows: tuple[tuple[bool, tuple[str, ...]], ...]

    @property
    def header_rows(self) -> int:
        count = 0
        while count < len(self.rows) and self.rows[count][0]:
            count += 1
        return count


def table_spec(rows: Sequence[str]) -> TableSpec:
    """A table block's rows parsed; a mistake in them is a MaterialsError saying how it should look."""
    widths: list[float] = []
    size: float | None = None
    pen_height: float | None = None
    body: list[tuple[bool, tuple[str, ...]]] = []
    for row in rows:
        if row.startswith("="):
            for token in row[1:].split():
                try:
                    if token.startswith("@"):
                        size = float(token[1:])
                    elif token.startswith("h"):
                        pen_height = float(token[1:])
                    else:
                        widths.append(float(token))
                except ValueError:
                    raise MaterialsError(f"模板中的表格设置“|{row}”有误（应如“|= 20 40 40 @22 h9”）") from None
            continue
        header = row.startswith("#")
        cells = (row[1:] if header else row).strip().strip("|").split("|")
        body.append((header, tuple(cell.strip() for cell in cells)))
    if not body:
        raise MaterialsError("模板中的表格（以“|”开头的行）没有内容")
    columns = max(len(cells) for _, cells in body)
    widths = (widths + [0.0] * columns)[:columns]
    widths = [w if w > 0 else 100 / columns for w in widths]
    total = sum(widths)
    rows_ = tuple((header, cells + ("",) * (columns - len(cells))) for header, cells in body)
    return TableSpec(tuple(w / total for w in widths), size, pen_height, rows_)
