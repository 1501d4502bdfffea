"""The event documents: 通知, 比赛规则, 规则口径确认单, 报名表, 抽签签条, 纪念品领取签收表.

Each public function takes domain objects and returns PDF bytes; wording comes from `templates/*.j2`
(an event folder's own `templates/` wins). All text, wording and user data alike, is drawn as plain text
through `FontSet`, so `<`, `&` and `>` print literally and missing glyphs are reported, never dropped silently.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from reportlab.lib.units import mm
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from materials.fonts import FontSet, choose_fonts
from materials.style import (
    CELL_PADDING,
    INK,
    MARGIN,
    PAGE,
    RULE,
    SHADE,
    Cell,
    HouseStyle,
    Para,
    break_lines,
    build_pdf,
    new_canvas,
    no_orphan,
)
from scoring.errors import UserError, shown
from scoring.event import Event
from scoring.files import check_writable, decode_text, write_bytes
from scoring.knockout import lot_plan
from scoring.levels import Level, to_halfwidth
from scoring.rules import CARD_PENALTY, HOLD_LINE, POLICY_LINE, STEP, NegativePoints, PenaltyExcess, RuleSet, TieBreak
from scoring.teams import Team
from templates import TEMPLATE_DIR

NOTICE = "通知.pdf"
RULES = "比赛规则.pdf"
REGISTRATION = "报名表.pdf"
LOTS = "抽签签条.pdf"
SOUVENIR = "纪念品领取签收表.pdf"
SIGNOFF = "规则口径确认单.pdf"
FILE_NAMES = (NOTICE, RULES, REGISTRATION, LOTS, SOUVENIR, SIGNOFF)

LOTS_PER_PAGE_COLUMNS = 2
LOTS_PER_PAGE_ROWS = 6
DEFAULT_LOTS = LOTS_PER_PAGE_COLUMNS * LOTS_PER_PAGE_ROWS  # one sheet when the number of teams is not known
ROW_HEIGHT = 34  # room to write by hand
TABLE_MARK = "@得分表"


class MaterialsError(UserError, ValueError):
    """A wording template cannot be used; the message is Chinese and names the file and line."""


@dataclass(frozen=True)
class Built:
    """What `build_all` wrote, and every warning (Chinese) the CLI should show on stderr."""

    paths: tuple[Path, ...]
    warnings: tuple[str, ...]
    font: str


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


def _signed(n: int) -> str:
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
            points = _signed(row.low)
        elif row.low < 0:
            points = f"{_signed(row.low)}至{_signed(row.high)}"
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
            data = path.read_bytes()
            if len(data) > MAX_TEMPLATE_BYTES:
                raise MaterialsError(f"{path}：模板文件太大（{len(data) // 1024} KB），一页文字只有几 KB")
            text = decode_text(data)
            if text is None:
                raise MaterialsError(f"{path}：文件编码无法识别，请用记事本“另存为”，编码选 UTF-8")
            earlier = paths[:i]  # a file put there later takes over
            return text, str(path), lambda: _unchanged(path, data) and not any(p.is_file() for p in earlier)
        raise jinja2.TemplateNotFound(template)


def _unchanged(path: Path, data: bytes) -> bool:
    """Compared by content: a file rewritten within the file system's timestamp resolution is still noticed."""
    try:
        return path.read_bytes() == data
    except OSError:
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


def _story(lines: Sequence[str], style: HouseStyle, inserts: dict[str, list[Flowable]]) -> list[Flowable]:
    story: list[Flowable] = []
    block: list[str] = []  # consecutive lines of one kind: title ('#'), signature ('>') or table ('|') lines

    def flush() -> None:
        if block and block[0] == "#":
            story.append(style.para("\n".join(block[1:]), "title"))
        elif block and block[0] == "|":
            story.extend([grid(block[1:], style), Spacer(1, style.sizes.body * 0.5)])
        elif block:
            story.extend([_signature(block[1:], style), Spacer(1, style.sizes.body * 0.5)])
        block.clear()

    for line in lines:
        kind = line[0] if line[0] in "#>|" else ""
        if kind:
            if block and block[0] != kind:
                flush()
            block[:] = block or [kind]
            block.append(line[1:] if kind == "|" else line[1:].strip())
            continue
        flush()
        if line.startswith("<"):
            story.append(style.para(line[1:].strip(), "plain"))
        elif line == "~":
            story.append(Spacer(1, style.sizes.body * 0.8))
        elif line.startswith("+"):
            story.extend([aside(line[1:].strip(), style), Spacer(1, style.sizes.body * 0.4)])
        elif line.startswith("@"):
            if line not in inserts:
                raise MaterialsError(f"模板中的“{line}”不认识（可用：{'、'.join(inserts) or '无'}）")
            story.extend(inserts[line])
        else:
            story.append(style.para(line, "body"))
    flush()
    return story


ASIDE = colors.Color(0.93, 0.93, 0.93)


def aside(text: str, style: HouseStyle) -> Table:
    """A 补充说明: the organiser's words beside the original clauses, indented, on a light tint with a rule at
    its left, so the original text still reads as it was written."""
    indent = 2 * style.sizes.body
    width = style.frame_width - indent
    inner = width - 2 * CELL_PADDING - 3
    table = Table([[style.para(text, "note", width=inner)]], colWidths=[width], hAlign="RIGHT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), style.fonts.name),
                ("BACKGROUND", (0, 0), (-1, -1), ASIDE),
                ("LINEBEFORE", (0, 0), (0, -1), 3, RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING + 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
            ]
        )
    )
    return table


def grid(rows: Sequence[str], style: HouseStyle) -> Table:
    """A ruled table from template lines (their leading `|` removed): `# a | b` a shaded header row (repeated on
    every page), `a | b` a row, and optionally first `= 20 40 40 @22 h9`: column widths in percent of the text
    width, the text size in pt (default: table text) and a fixed height in mm for rows left blank (pen rows)."""
    widths: list[float] = []
    size = style.sizes.table
    pen_height: float | None = None
    body: list[tuple[bool, list[str]]] = []
    for row in rows:
        if row.startswith("="):
            for token in row[1:].split():
                try:
                    if token.startswith("@"):
                        size = max(float(token[1:]), style.sizes.table)
                    elif token.startswith("h"):
                        pen_height = float(token[1:]) * mm
                    else:
                        widths.append(float(token))
                except ValueError:
                    raise MaterialsError(f"模板中的表格设置“|{row}”有误（应如“|= 20 40 40 @22 h9”）") from None
            continue
        header = row.startswith("#")
        body.append((header, [cell.strip() for cell in (row[1:] if header else row).strip().strip("|").split("|")]))
    if not body:
        raise MaterialsError("模板中的表格（以“|”开头的行）没有内容")
    columns = max(len(cells) for _, cells in body)
    widths = (widths + [0.0] * columns)[:columns]
    widths = [w if w > 0 else 100 / columns for w in widths]
    scale = style.frame_width / sum(widths)
    widths = [w * scale for w in widths]
    leading = size * 1.3
    cell_style = ParagraphStyle("grid", parent=style.styles["cell"], fontSize=size, leading=leading)
    centre = ParagraphStyle("grid_centre", parent=cell_style, alignment=TA_CENTER)
    cells: list[list[Flowable]] = []
    heights: list[float | None] = []
    for header, texts in body:
        texts = texts + [""] * (columns - len(texts))
        row_cells = []
        for text, width in zip(texts, widths):
            inner = width - 2 * CELL_PADDING
            lines = [ln for hard in text.split(LINE_BREAK) for ln in no_orphan(break_lines(style.fonts, hard, size, [inner]))]
            lines = lines or [""]
            st = centre if len(lines) == 1 else cell_style
            row_cells.append(Para("<br/>".join(style.fonts.markup(line) for line in lines), st))
        cells.append(row_cells)
        heights.append(pen_height if pen_height and not header and not any(texts) else None)
    headers = 0
    while headers < len(body) and body[headers][0]:
        headers += 1
    table = Table(cells, colWidths=widths, rowHeights=heights, repeatRows=headers)
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), style.fonts.name),
        ("GRID", (0, 0), (-1, -1), 0.8, RULE),
        ("BOX", (0, 0), (-1, -1), 1.6, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ]
    for i, (header, _) in enumerate(body):
        if header:
            commands.append(("BACKGROUND", (0, i), (-1, i), SHADE))
    table.setStyle(TableStyle(commands))
    return table


def _signature(lines: Sequence[str], style: HouseStyle) -> Flowable:
    """落款: a block at the right margin, its lines centred on each other (organiser over date)."""
    size = style.sizes.body
    width = max(style.fonts.width(text, size) for text in lines) + 2 * size
    table = Table([[style.para(text, "centre", width=width)] for text in lines], colWidths=[width], hAlign="RIGHT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), style.fonts.name),  # else the table falls back to Helvetica
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return table


def _style(event: Event, fonts: FontSet | None) -> HouseStyle:
    return HouseStyle(fonts or choose_fonts(event.print.font), large=event.print.large_print)


# --- the documents ---------------------------------------------------------------------------------------------


def notice_pdf(
    event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False
) -> bytes:
    """通知: every fact of the notice, from event.toml."""
    style = _style(event, fonts)
    story = _story(render_lines("notice.j2", event, template_dir), style, {})
    return build_pdf(story, style, title=f"关于举办{event.title}的通知", invariant=invariant)


def rules_pdf(
    event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False
) -> bytes:
    """比赛规则: the rule text with the points → levels table computed from `event.rules`."""
    style = _style(event, fonts)
    w = style.frame_width
    rows = [("台下方得分", "结果", "升级"), *points_rows(event.rules, negative=True)]
    table = style.table(rows, [w * 0.3, w * 0.36, w * 0.34])
    rules = event.rules
    lower = (
        "低于0分的按0分计"
        if rules.negative_points is NegativePoints.CLAMP
        else f"低于{_signed(NEGATIVE_LOW)}分时，每再少{STEP}分庄家多升一级"
    )
    notes = [
        style.para(
            f"说明：超过{rules.points_table()[-1].high}分后每增加{STEP}分，台下方多升一级；{lower}。"
            "升级遇必打级时停在必打级（见第十一条）。",
            "note",
        )
    ]
    inserts = {TABLE_MARK: [Spacer(1, 4), KeepTogether([table, Spacer(1, 6), *notes]), Spacer(1, 10)]}
    story = _story(render_lines("rules.j2", event, template_dir), style, inserts)
    return build_pdf(story, style, title="双升级（双扣）比赛规则", invariant=invariant)


def signoff_pdf(
    event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False
) -> bytes:
    """规则口径确认单: every `[rules]` and `[format]` option in force in plain words beside the readings it
    excludes, how 十二 and 十三/十四 are applied, and lines for the 比赛负责人's signature and the date."""
    style = _style(event, fonts)
    story = _story(render_lines("signoff.j2", event, template_dir), style, {})
    return build_pdf(story, style, title=f"{event.title}规则口径确认单", invariant=invariant)


def registration_pdf(
    event: Event,
    teams: Sequence[Team] = (),
    *,
    rows: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """报名表: one row per pair (组号, two names, phone, 备注), prefilled with `teams`, then blank rows (no 组号)."""
    style = _style(event, fonts)
    story = _story(render_lines("registration.j2", event, template_dir), style, {})
    w = style.frame_width
    body: list[list[object]] = [["组号", "队员1", "队员2", "联系电话", "备注"]]
    for team in teams:
        body.append(
            [
                Cell(team.id, f"第{team.id}组的组号"),
                *(Cell(p, f"第{team.id}组队员“{p}”") for p in team.players),
                Cell(team.phone, f"第{team.id}组的联系电话"),
                Cell(team.note, f"第{team.id}组的备注", align="left"),
            ]
        )
    story.append(Spacer(1, 6))
    if rows is not None:
        blanks = rows
    else:
        fit = style.rows_that_fit(story, ROW_HEIGHT)
        blanks = fit - len(teams) if len(teams) + 2 <= fit else 2
    # Blank rows carry no 组号: the form may be printed twice, and the office numbers the pairs when it types them
    # into teams.xlsx, so no two copies can hand out the same number.
    body += [["", "", "", "", ""] for _ in range(blanks)]
    story.append(style.table(body, [w * 0.12, w * 0.2, w * 0.2, w * 0.22, w * 0.26], row_height=ROW_HEIGHT))
    return build_pdf(story, style, title=f"{event.title}报名表", invariant=invariant)


def souvenir_pdf(
    event: Event,
    teams: Sequence[Team] = (),
    *,
    blank_rows: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """纪念品领取签收表: every player with their team and a signature column (blank rows if no teams yet)."""
    style = _style(event, fonts)
    story = _story(render_lines("souvenir.j2", event, template_dir), style, {})
    w = style.frame_width
    body: list[list[object]] = [["序号", "组号", "姓名", "签名"]]
    number = 0
    for team in teams:
        for player in team.players:
            number += 1
            body.append(
                [
                    str(number),
                    Cell(team.id, f"第{team.id}组的组号"),
                    Cell(player, f"第{team.id}组队员“{player}”"),
                    "",
                ]
            )
    story.append(Spacer(1, 6))
    extra = blank_rows if blank_rows is not None else (2 if teams else style.rows_that_fit(story, ROW_HEIGHT))
    body += [[str(number + i + 1), "", "", ""] for i in range(extra)]
    story.append(style.table(body, [w * 0.12, w * 0.16, w * 0.27, w * 0.45], row_height=ROW_HEIGHT))
    return build_pdf(story, style, title=f"{event.title}纪念品领取签收表", invariant=invariant)


def lots_pdf(
    event: Event,
    count: int,
    *,
    field: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """抽签签条: slips numbered 1…count, 2 × 6 to an A4 sheet, with dashed cut lines and corner crop marks.
    With `field` (the number of teams, when known) the page head says which lots meet in round 1 and which are
    the byes (`[format] byes`)."""
    if count < 1:
        raise MaterialsError(f"抽签签条的张数应至少为1，实际为 {count}")
    style = _style(event, fonts)
    fonts = style.fonts
    plan = {"field": field, "lot_plan": lot_plan(field, event.byes).text if field and field >= 2 else ""}
    lines = render_lines("lots.j2", event, template_dir, plan) + ["", "", ""]
    top_label, bottom_label = lines[0], lines[1]
    size = style.sizes.note
    width, height = PAGE
    explain = break_lines(fonts, lines[2], size, [width - 2 * MARGIN]) if plan["lot_plan"] else []
    head = size * (2.2 + 1.35 * len(explain))
    cols, rows_ = LOTS_PER_PAGE_COLUMNS, LOTS_PER_PAGE_ROWS
    left, right = MARGIN + 4 * mm, width - MARGIN - 4 * mm
    bottom, top = MARGIN + 4 * mm, height - MARGIN - head
    cell_w, cell_h = (right - left) / cols, (top - bottom) / rows_
    pages = -(-count // (cols * rows_))

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, fonts, title=f"{event.title}抽签签条", invariant=invariant)
    for page in range(pages):
        canvas.setFillColor(INK)
        canvas.setStrokeColor(INK)
        heading = f"抽签签条（1–{count}号，共{count}张）　沿虚线剪开"
        if pages > 1:
            heading += f"　第{page + 1}页 共{pages}页"
        fonts.draw(canvas, width / 2, height - MARGIN - size, heading, size, align="centre")
        for i, text in enumerate(explain):
            fonts.draw(canvas, MARGIN, height - MARGIN - size * (2.4 + 1.35 * i), text, size)
        first = page * cols * rows_
        on_page = min(cols * rows_, count - first)
        slips = {divmod(k, cols) for k in range(on_page)}
        _cut_lines(canvas, slips, left=left, top=top, cell_w=cell_w, cell_h=cell_h)
        for k in range(on_page):
            number = first + k + 1
            r, c = divmod(k, cols)
            cx = left + (c + 0.5) * cell_w
            y0 = top - (r + 1) * cell_h
            # labels stay at least LOT_INSET inside the cut lines, descenders included; the number fills the middle
            shown = _wrap(fonts, bottom_label, size, cell_w - 2 * LOT_INSET)[:2] if bottom_label else []
            low_room = y0 + LOT_INSET + len(shown) * size * 1.25 + 2
            big = min(64.0, (y0 + cell_h - LOT_INSET - low_room) / 1.02)
            baseline = low_room + big * 0.24  # room below for the underline
            half = fonts.width(str(number), big) / 2
            # the small label (签号) on the number's baseline, to its left
            fonts.draw(canvas, cx - half - size * 0.5, baseline, top_label, size, align="right")
            fonts.draw(canvas, cx, baseline, str(number), big, align="centre")
            if rotation_ambiguous(number):  # 6 and 9 (16 and 91, …) read the other way up: underline them
                canvas.setLineWidth(max(big / 14, 2))
                canvas.line(cx - half, baseline - big * 0.14, cx + half, baseline - big * 0.14)
                canvas.setLineWidth(0.8)
            for i, text in enumerate(shown):
                y = y0 + LOT_INSET + size * 0.25 + (len(shown) - 1 - i) * size * 1.25
                fonts.draw(canvas, cx, y, text, size, align="centre")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


LOT_INSET = 4 * mm  # text on a slip keeps this far from its cut lines
ROTATED = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def rotation_ambiguous(number: int) -> bool:
    """A lot number that reads as another number upside down (6 ↔ 9, 16 ↔ 91, 68 ↔ 89): it gets underlined."""
    text = str(number)
    if any(ch not in ROTATED for ch in text):
        return False
    turned = "".join(ROTATED[ch] for ch in reversed(text))
    return turned != text and not turned.startswith("0")


def _cut_lines(canvas, slips: set[tuple[int, int]], *, left: float, top: float, cell_w: float,
               cell_h: float) -> None:
    """Dashed cut lines around every slip (row, column) on the page — only around slips, never around an empty
    cell — and solid crop marks where a cut line meets the outside of the slips."""
    edges: set[tuple[float, float, float, float]] = set()
    for r, c in slips:
        x0, x1 = left + c * cell_w, left + (c + 1) * cell_w
        y1, y0 = top - r * cell_h, top - (r + 1) * cell_h
        edges |= {(x0, y1, x1, y1), (x0, y0, x1, y0), (x0, y0, x0, y1), (x1, y0, x1, y1)}
    canvas.setLineWidth(0.8)
    canvas.setDash(6, 4)
    for x0, y0, x1, y1 in sorted(edges):
        canvas.line(x0, y0, x1, y1)
    canvas.setDash()
    tick = 3 * mm
    for r, c in slips:
        x0, x1 = left + c * cell_w, left + (c + 1) * cell_w
        y1, y0 = top - r * cell_h, top - (r + 1) * cell_h
        if (r, c - 1) not in slips:  # outside to the left
            canvas.line(x0 - tick, y1, x0 - 1, y1)
            canvas.line(x0 - tick, y0, x0 - 1, y0)
        if (r, c + 1) not in slips:
            canvas.line(x1 + 1, y1, x1 + tick, y1)
            canvas.line(x1 + 1, y0, x1 + tick, y0)
        if (r - 1, c) not in slips:
            canvas.line(x0, y1 + 1, x0, y1 + tick)
            canvas.line(x1, y1 + 1, x1, y1 + tick)
        if (r + 1, c) not in slips:
            canvas.line(x0, y0 - tick, x0, y0 - 1)
            canvas.line(x1, y0 - tick, x1, y0 - 1)


def _wrap(fonts: FontSet, text: str, size: float, width: float) -> list[str]:
    """Balanced character wrap for the short labels on lots: as few lines as fit, of about equal length."""
    lines = 1
    while lines < len(text) and fonts.width(text[: -(-len(text) // lines)], size) > width:
        lines += 1
    step = -(-len(text) // lines)
    return [text[i : i + step] for i in range(0, len(text), step)]


# --- everything at once ----------------------------------------------------------------------------------------


def build_all(
    folder: Path,
    event: Event,
    teams: Sequence[Team] | None,
    *,
    font: str | None = None,
    lots: int | None = None,
    force: bool = False,
    invariant: bool = False,
) -> Built:
    """Write the six documents into the event folder; refuse to overwrite any of them unless `force`.

    `font` (--font) wins over `[print] font`; `lots` defaults to the number of teams.
    """
    paths = [folder / name for name in FILE_NAMES]
    for path in paths:
        check_writable(path, force=force)
    fonts = choose_fonts(font, event.print.font)
    template_dir = folder / "templates"
    teams = tuple(teams or ())
    count = lots if lots is not None else len(teams)
    if not count:
        count = DEFAULT_LOTS
        fonts.warn(f"还没有报名名单，抽签签条先按{DEFAULT_LOTS}张打印；可用 --lots 指定张数")
    common = {"fonts": fonts, "template_dir": template_dir, "invariant": invariant}
    documents = {
        NOTICE: notice_pdf(event, **common),
        RULES: rules_pdf(event, **common),
        REGISTRATION: registration_pdf(event, teams, **common),
        LOTS: lots_pdf(event, count, field=count if count == len(teams) else None, **common),
        SOUVENIR: souvenir_pdf(event, teams, **common),
        SIGNOFF: signoff_pdf(event, **common),
    }
    written = tuple(write_bytes(folder / name, data, force=force) for name, data in documents.items())
    return Built(written, fonts.warnings, fonts.description)
