"""The event documents: 通知, 比赛规则, 规则口径确认单, 报名表, 抽签签条, 纪念品领取签收表.

Each public function takes domain objects and returns PDF bytes; wording comes from `templates/*.j2`
(an event folder's own `templates/` wins). All text, wording and user data alike, is drawn as plain text
through `FontSet`, so `<`, `&` and `>` print literally and missing glyphs are reported, never dropped silently.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from materials.flow import flow_pdf, sizes
from materials.fonts import FontSet, choose_fonts
from materials.page import ASIDE, CELL_PADDING, INK, MARGIN, PAGE, RULE, SHADE, break_lines, new_canvas, no_orphan
from materials.style import Cell, HouseStyle, Para, build_pdf
from materials.wording import (
    LINE_BREAK,
    NEGATIVE_LOW,
    MaterialsError,
    blocks,
    points_rows,
    render_lines,
    signed_points,
    table_spec,
    unknown_insert,
)
from scoring.event import Event
from scoring.files import check_regenerable, write_generated
from scoring.knockout import lot_plan
from scoring.rules import STEP, NegativePoints
from scoring.teams import Team

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


@dataclass(frozen=True)
class Built:
    """What `build_all` wrote, and every warning (Chinese) the CLI should show on stderr."""

    paths: tuple[Path, ...]
    warnings: tuple[str, ...]
    font: str


def _story(lines: Sequence[str], style: HouseStyle, inserts: dict[str, list[Flowable]]) -> list[Flowable]:
    """The template's lines as platypus flowables (`materials.flow` draws the same markup without platypus)."""
    story: list[Flowable] = []
    gap = style.sizes.body
    for block in blocks(lines):
        text = block.lines[0] if block.lines else ""
        if block.kind == "title":
            story.append(style.para("\n".join(block.lines), "title"))
        elif block.kind == "table":
            story.extend([grid(block.lines, style), Spacer(1, gap * 0.5)])
        elif block.kind == "signature":
            story.extend([_signature(block.lines, style), Spacer(1, gap * 0.5)])
        elif block.kind == "plain":
            story.append(style.para(text, "plain"))
        elif block.kind == "gap":
            story.append(Spacer(1, gap * 0.8))
        elif block.kind == "aside":
            story.extend([aside(text, style), Spacer(1, gap * 0.4)])
        elif block.kind == "insert":
            if text not in inserts:
                raise unknown_insert(text, list(inserts))
            story.extend(inserts[text])
        else:
            story.append(style.para(text, "body"))
    return story


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
    """A ruled table from a template's table rows (see `materials.wording.table_spec`)."""
    spec = table_spec(rows)
    size = max(spec.size or style.sizes.table, style.sizes.table)
    pen_height = spec.pen_height * mm if spec.pen_height else None
    widths = [w * style.frame_width for w in spec.widths]
    body = spec.rows
    leading = size * 1.3
    cell_style = ParagraphStyle("grid", parent=style.styles["cell"], fontSize=size, leading=leading)
    centre = ParagraphStyle("grid_centre", parent=cell_style, alignment=TA_CENTER)
    cells: list[list[Flowable]] = []
    heights: list[float | None] = []
    for header, texts in body:
        row_cells = []
        for text, width in zip(texts, widths):
            inner = width - 2 * CELL_PADDING
            lines = [ln for hard in text.split(LINE_BREAK) for ln in no_orphan(break_lines(style.fonts, hard, size, [inner]))]
            lines = lines or [""]
            st = centre if len(lines) == 1 else cell_style
            row_cells.append(Para("<br/>".join(style.fonts.markup(line) for line in lines), st))
        cells.append(row_cells)
        heights.append(pen_height if pen_height and not header and not any(texts) else None)
    table = Table(cells, colWidths=widths, rowHeights=heights, repeatRows=spec.header_rows)
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
    lines = render_lines("notice.j2", event, template_dir)
    fonts = fonts or choose_fonts(event.print.font)
    return flow_pdf(lines, fonts, sizes(event), title=f"关于举办{event.title}的通知", invariant=invariant)


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
        else f"低于{signed_points(NEGATIVE_LOW)}分时，每再少{STEP}分庄家多升一级"
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
    lines = render_lines("signoff.j2", event, template_dir)
    fonts = fonts or choose_fonts(event.print.font)
    return flow_pdf(lines, fonts, sizes(event), title=f"{event.title}规则口径确认单", invariant=invariant)


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
    """Write the six documents into the event folder, replacing those we wrote last time; if a person changed
    one (or it was never ours), write none of them unless `force`.

    `font` (--font) wins over `[print] font`; `lots` defaults to the number of teams.
    """
    paths = [folder / name for name in FILE_NAMES]
    for path in paths:
        check_regenerable(path, force=force)  # all refused before any is written
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
    written = tuple(write_generated(folder / name, data, force=force) for name, data in documents.items())
    return Built(written, fonts.warnings, fonts.description)
