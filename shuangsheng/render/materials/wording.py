"""The wording: jinja2 templates organisers may edit (`shuangsheng/render/templates/*.j2`; an event folder's own `templates/` wins),
rendered in a sandbox to lines of one small markup, and that markup's grammar — the same for every document
(shuangsheng/render/templates/README.md explains it to organisers, in Chinese). No reportlab here.

One line each, its first character its `BlockKind`: `# title`, `< plain paragraph`, a paragraph with no mark
(indented, justified), `> signature line`, `+ aside (补充说明)`, `~` a gap, `@name a | b` a named insert (what the
document draws there: the points table, the score card's grids, a certificate's names; `a | b` are texts handed
to it), and tables: `|= 20 40 40 @22 h9` (column widths in percent of the text width, text size in pt, height in
mm of rows left blank for a pen), `|# a | b` a header row (repeated on every page), `| a | b` a row; `{{ br }}`
breaks a line inside a cell. Consecutive `#`, `>` and `|` lines form one block.

Only the template's own characters are markup. What `{{ }}` inserts (a title, a name, a venue from event.toml or
teams.xlsx) is data: it is marked as such while the lines are parsed, so a value beginning with `@` or `#`, or
holding `|`, `{{` or `{%`, prints as typed and never makes a mark, an insert or a cell.
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from shuangsheng.game.levels import Level, to_halfwidth
from shuangsheng.game.rules import (
    CARD_PENALTY,
    HOLD_LINE,
    POLICY_LINE,
    STEP,
    NegativePoints,
    PenaltyExcess,
    RuleSet,
    TieBreak,
)
from shuangsheng.render.templates import TEMPLATE_DIR
from shuangsheng.storage import files
from shuangsheng.storage.event import Event
from shuangsheng.storage.files import decode_text
from shuangsheng.vocabulary.errors import Issue, UserError, shown


class MaterialsError(UserError, ValueError):
    """A wording template cannot be used (or the papers cannot be made yet); each issue names the file and line."""


# --- wording helpers -------------------------------------------------------------------------------------------


def cn_date(day: dt.date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def cn_period(start: dt.date, end: dt.date) -> str:
    """2026年3月3日—9日, 2026年3月28日—4月3日, or both dates in full across a year end ("—" between dates,
    as the en dash is between numbers)."""
    if start == end:
        return cn_date(start)
    if start.year != end.year:
        return f"{cn_date(start)}—{cn_date(end)}"
    if start.month != end.month:
        return f"{cn_date(start)}—{end.month}月{end.day}日"
    return f"{cn_date(start)}—{end.day}日"


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
        else:  # one range notation everywhere: the en dash (60–75分, −40–−25)
            points = f"{signed_points(row.low)}–{signed_points(row.high)}"
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


LINE_BREAK = "\u2028"  # a line break inside a table cell; data never carries one (see _as_data)
# What `{{ }}` inserts is wrapped in these two noncharacters (code points Unicode reserves for a program's internal
# use; no text carries them) until the lines are parsed, so the parser can tell data from markup.
DATA_START, DATA_END = "\ufdd0", "\ufdd1"


class _Break:
    """`{{ br }}` in a template: a line break inside a table cell (markup, the one `{{ }}` that is not data)."""

    def __str__(self) -> str:
        return LINE_BREAK


def _as_data(value: object) -> str:
    """Every `{{ value }}` as data: on one line (a line break in it becomes a space), wrapped in the data marks."""
    if isinstance(value, _Break):
        return LINE_BREAK
    if value is None:
        return ""
    text = " ".join(str(value).splitlines()).replace(DATA_START, "").replace(DATA_END, "")
    return f"{DATA_START}{text}{DATA_END}" if text else ""


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
                raise MaterialsError(exc.issues) from None
            text = decode_text(data)
            if text is None:
                raise MaterialsError([Issue.of_file(path, "文件编码无法识别，请用记事本“另存为”，编码选 UTF-8")])
            earlier = paths[:i]  # a file put there later takes over
            return text, str(path), functools.partial(_up_to_date, path, data, tuple(earlier))
        raise jinja2.TemplateNotFound(template)


def _up_to_date(path: Path, data: bytes, earlier: Sequence[Path]) -> bool:
    """The file still holds `data` and no file has since appeared in a folder that takes precedence."""
    return _unchanged(path, data) and not any(p.is_file() for p in earlier)


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
        finalize=_as_data,
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


def _rendered(
    name: str, event: Event, template_dir: Path | None, extra: Mapping[str, object] | None
) -> tuple[str, str]:
    """(the template's text output, the file it came from). The template is run in jinja2's sandbox; a mistake
    in one an organiser edited is a MaterialsError naming its file and line."""
    folders = (template_dir,) if template_dir is not None and template_dir.is_dir() else ()
    env = _environment((*folders, TEMPLATE_DIR))
    context = {**_context(event), **(extra or {})}
    try:
        template = env.get_template(name)
        return template.render(context), template.filename or name
    except MaterialsError:
        raise
    # A template is text an organiser wrote: whatever it does wrong at render time is said with its line.
    except (jinja2.TemplateError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError,
            RecursionError) as exc:
        raise MaterialsError([_template_problem(exc, name, list(context))]) from None


def render_lines(
    name: str, event: Event, template_dir: Path | None = None, extra: Mapping[str, object] | None = None
) -> list[str]:
    """The wording template rendered as lines, what `{{ }}` inserted still marked as data (see `blocks`);
    `extra` adds to the names the template can use (a round, its results, …)."""
    text, _ = _rendered(name, event, template_dir, extra)
    return _lines(text)


def render(
    name: str, event: Event, template_dir: Path | None = None, extra: Mapping[str, object] | None = None
) -> list[Block]:
    """The wording template rendered and parsed into blocks (see `render_lines`, `blocks`)."""
    text, source = _rendered(name, event, template_dir, extra)
    return blocks(_lines(text), source=source)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]  # not splitlines: {{ br }} (U+2028) stays


# --- the markup's grammar --------------------------------------------------------------------------------------


class BlockKind(enum.Enum):
    """What a line is, by its first character (the template's own, never data's); the value is that mark."""

    TITLE = "#"  # centred; consecutive lines make one title of several lines
    PLAIN = "<"  # a paragraph from the left margin
    BODY = ""  # no mark: a paragraph, its first line indented two characters, justified
    SIGNATURE = ">"  # the organiser and date, bottom right; consecutive lines make one block
    ASIDE = "+"  # 补充说明, set apart on a tint
    GAP = "~"  # the line is just `~`: an empty line's height
    INSERT = "@"  # `@name a | b`: what the document draws there, handed the texts a and b
    TABLE = "|"  # a table row (`|=` its settings, `|#` a header row); consecutive rows make one table


_MARKS = {kind.value: kind for kind in BlockKind if kind.value}
_RUNS = (BlockKind.TITLE, BlockKind.SIGNATURE, BlockKind.TABLE)  # consecutive lines of these kinds: one block


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


@dataclass(frozen=True)
class Block:
    """One unit of a rendered template. `lines`: the text (a title's or signature's lines; one paragraph);
    an insert's `name` and `args`; a table's `table`; `source`: the template file, for messages."""

    kind: BlockKind
    lines: tuple[str, ...] = ()
    name: str = ""
    args: tuple[str, ...] = ()
    table: TableSpec | None = None
    source: str = ""

    @property
    def text(self) -> str:
        return "".join(self.lines)


@dataclass(frozen=True)
class _Line:
    """A rendered line with, for each character, whether it came from data (`{{ }}`): only the template's own
    characters are markup."""

    text: str
    data: tuple[bool, ...]

    @classmethod
    def read(cls, raw: str) -> _Line:
        chars: list[str] = []
        data: list[bool] = []
        inside = False
        for ch in raw:
            if ch in (DATA_START, DATA_END):
                inside = ch == DATA_START
            else:
                chars.append(ch)
                data.append(inside)
        return cls("".join(chars), tuple(data))

    def __getitem__(self, part: slice) -> _Line:
        return _Line(self.text[part], self.data[part])

    def mark(self) -> str:
        """The first character, when the template wrote it."""
        return self.text[0] if self.text and not self.data[0] else ""

    def strip(self, chars: str | None = None) -> _Line:
        """Without leading and trailing white space, or (with `chars`) those of the template's characters."""
        def drop(i: int) -> bool:
            return self.text[i].isspace() if chars is None else self.text[i] in chars and not self.data[i]

        start, end = 0, len(self.text)
        while start < end and drop(start):
            start += 1
        while end > start and drop(end - 1):
            end -= 1
        return self[start:end]

    def split(self, sep: str) -> list[_Line]:
        """Split at the template's `sep` characters; the same character in data stays text."""
        cuts = [i for i, ch in enumerate(self.text) if ch == sep and not self.data[i]]
        edges = [-1, *cuts, len(self.text)]
        return [self[a + 1 : b] for a, b in zip(edges, edges[1:], strict=False)]


def blocks(lines: Sequence[str], *, source: str = "") -> list[Block]:
    """The rendered lines (see `render_lines`) parsed into blocks; `source` names the template in messages."""
    out: list[Block] = []
    run: list[_Line] = []
    run_kind: BlockKind | None = None

    def flush() -> None:
        nonlocal run_kind
        if run_kind is not None:
            out.append(_run_block(run_kind, run, source))
        run.clear()
        run_kind = None

    for raw in lines:
        line = _Line.read(raw).strip()
        if not line.text:
            continue
        kind = _MARKS.get(line.mark(), BlockKind.BODY)
        if kind is BlockKind.GAP and line.text != "~":
            kind = BlockKind.BODY
        if kind in _RUNS:
            if run_kind is not kind:
                flush()
            run_kind = kind
            run.append(line[1:] if kind is BlockKind.TABLE else line[1:].strip())
            continue
        flush()
        out.append(_line_block(kind, line, source))
    flush()
    return out


def _run_block(kind: BlockKind, run: Sequence[_Line], source: str) -> Block:
    if kind is BlockKind.TABLE:
        return Block(kind, table=_table(run, source), source=source)
    return Block(kind, tuple(line.text for line in run), source=source)


def _line_block(kind: BlockKind, line: _Line, source: str) -> Block:
    if kind is BlockKind.BODY:
        return Block(kind, (line.text,), source=source)
    if kind is BlockKind.GAP:
        return Block(kind, source=source)
    if kind is not BlockKind.INSERT:
        return Block(kind, (line[1:].strip().text,), source=source)
    rest = line[1:]
    end = 0  # the name: the template's own characters right after `@`, up to a space
    while end < len(rest.text) and not rest.data[end] and not rest.text[end].isspace():
        end += 1
    args = rest[end:].strip()
    texts = tuple(part.strip().text for part in args.split("|")) if args.text else ()
    return Block(kind, name=rest.text[:end], args=texts, source=source)


def unknown_insert(block: Block, known: Sequence[str]) -> MaterialsError:
    where = f"{block.source}：" if block.source else ""
    listed = "、".join(f"@{name}" for name in known) or "无"
    if not block.name:
        return MaterialsError([f"{where}模板中“@”后面应紧跟要插入的内容的名字（这份文件可用：{listed}）"])
    return MaterialsError([f"{where}模板中的“@{block.name}”不认识（这份文件可用：{listed}）"])


def check_kinds(found: Sequence[Block], allowed: Sequence[BlockKind], inserts: Sequence[str]) -> None:
    """For a document drawn by its own layout (a certificate, the lots, the chart): refuse what it cannot draw,
    naming the template and the mark."""
    for block in found:
        if block.kind is BlockKind.INSERT and block.name not in inserts:
            raise unknown_insert(block, inserts)
        if block.kind not in allowed:
            where = f"{block.source}：" if block.source else ""
            usable = "、".join("无记号的段落" if k is BlockKind.BODY else f"“{k.value}”" for k in allowed)
            mark = block.kind.value
            raise MaterialsError([f"{where}这份文件的模板不能用“{mark}”开头的行（可用：{usable}）"])


def _table(rows: Sequence[_Line], source: str) -> TableSpec:
    """A table block's rows parsed; a mistake in them is a MaterialsError saying how it should look."""
    widths: list[float] = []
    size: float | None = None
    pen_height: float | None = None
    body: list[tuple[bool, tuple[str, ...]]] = []
    for row in rows:
        if row.mark() == "=":
            widths_, size_, pen_ = _table_settings(row[1:].text, source)
            widths += widths_
            size = size_ if size_ is not None else size
            pen_height = pen_ if pen_ is not None else pen_height
            continue
        header = row.mark() == "#"
        cells = (row[1:] if header else row).strip().strip("|").split("|")
        body.append((header, tuple(cell.strip().text for cell in cells)))
    if not body:
        where = f"{source}：" if source else ""
        raise MaterialsError([f"{where}模板中的表格（以“|”开头的行）没有内容"])
    columns = max(len(cells) for _, cells in body)
    widths = (widths + [0.0] * columns)[:columns]
    widths = [w if w > 0 else 100 / columns for w in widths]
    total = sum(widths)
    rows_ = tuple((header, cells + ("",) * (columns - len(cells))) for header, cells in body)
    return TableSpec(tuple(w / total for w in widths), size, pen_height, rows_)


def _table_settings(text: str, source: str) -> tuple[list[float], float | None, float | None]:
    """`20 40 40 @22 h9`: column widths, the text size, the height of blank pen rows."""
    widths: list[float] = []
    size = pen_height = None
    for token in text.split():
        try:
            if token.startswith("@"):
                size = float(token[1:])
            elif token.startswith("h"):
                pen_height = float(token[1:])
            else:
                widths.append(float(token))
        except ValueError:
            where = f"{source}：" if source else ""
            raise MaterialsError([f"{where}模板中的表格设置“|={text}”有误（应如“|= 20 40 40 @22 h9”）"]) from None
    return widths, size, pen_height
