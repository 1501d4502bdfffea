"""The event documents: 通知, 比赛规则, 规则口径确认单, 报名表, 抽签签条, 纪念品领取签收表, 签到表.

Each public function takes domain objects and returns PDF bytes; wording comes from `shuangsheng/render/templates/*.j2`
(an event folder's own `templates/` wins). All text, wording and user data alike, is drawn as plain text
through `FontSet`, so `<`, `&` and `>` print literally and missing glyphs are reported, never dropped silently.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.units import mm

from shuangsheng.game.rules import STEP, NegativePoints
from shuangsheng.knockout.knockout import lot_plan
from shuangsheng.knockout.teams import Team, number_key, shown_id, team_name
from shuangsheng.render.materials.conventions import event_width
from shuangsheng.render.materials.flow import Flow, Piece, sizes, together
from shuangsheng.render.materials.fonts import Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import INK, MARGIN, PAGE, Cell, break_lines, draw_line, new_canvas
from shuangsheng.render.materials.pagination import REFIT_SHARE, used
from shuangsheng.render.materials.wording import (
    NEGATIVE_LOW,
    Block,
    BlockKind,
    MaterialsError,
    check_kinds,
    points_rows,
    render,
    signed_points,
)
from shuangsheng.storage.event import Event
from shuangsheng.storage.workbook.schema import TEAMS_HEADER, UNIT_LABEL

LOTS_PER_PAGE_COLUMNS = 2
LOTS_PER_PAGE_ROWS = 6
LOTS_DENSER_ROWS = (7, 8)  # a sheet's rows when that saves a page, the fewer the better (13 lots: one sheet, not a
# second for one slip; 128 lots: 8 sheets of 16, not 10 of 14 ending on 2); the number stays 40 pt or more
DEFAULT_LOTS = LOTS_PER_PAGE_COLUMNS * LOTS_PER_PAGE_ROWS  # one sheet when the number of teams is not known
ROW_HEIGHT = 34  # room to write by hand
SIGNED_ROW_LEAST = 9 * mm  # a signature row refitted to save a page: never lower (SPEC's pen rows: 8 mm)
POINTS_TABLE = "得分表"  # the insert `@得分表`
LOT_SLIP = "签条"  # the insert `@签条 左边的小字 | 下方的小字`
SETTINGS_NOTE = "设置"  # the sign-off sheet's `@设置 文字`: the event.toml keys, for staff, small and grey
SETTINGS_SIZE = 10.0  # SPEC's floor for any text
EVERY_PAGE = "每页"  # the sign-off sheet's `@每页 文字`: in every page's footer (initials)


def _flow(event: Event, fonts: FontSet | None) -> Flow:
    return Flow(fonts or choose_fonts(event.print.font), sizes(event))


# --- the documents ---------------------------------------------------------------------------------------------


def notice_pdf(
    event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False
) -> bytes:
    """通知: every fact of the notice, from event.toml."""
    flow = _flow(event, fonts)
    return flow.pdf(notice_pieces(flow, event, template_dir), title=f"关于举办{event.title}的通知", invariant=invariant)


def notice_pieces(flow: Flow, event: Event, template_dir: Path | None) -> list[Piece]:
    """The notice laid out (its PDF, and the 秩序册's 竞赛规程)."""
    return flow.markup(render("notice.j2", event, template_dir))


def rules_pdf(
    event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False
) -> bytes:
    """比赛规则: the rule text with the points → levels table computed from `event.rules`."""
    flow = _flow(event, fonts)
    return flow.pdf(rules_pieces(flow, event, template_dir), title="双升级（双扣）比赛规则", invariant=invariant)


def rules_pieces(flow: Flow, event: Event, template_dir: Path | None) -> list[Piece]:
    """The rules in force laid out, with the points → levels table (their PDF, and the 秩序册's 竞赛规程)."""
    rules = event.rules
    lower = (
        "低于0分的按0分计"
        if rules.negative_points is NegativePoints.CLAMP
        else f"低于{signed_points(NEGATIVE_LOW)}分时，每再少{STEP}分庄家多升一级"
    )
    note = (f"说明：超过{rules.points_table()[-1].high}分后每增加{STEP}分，台下方多升一级；{lower}。"
            "升级遇必打级时停在必打级（见第十一条）。")

    made: list[Piece] = []

    def points_table() -> list[Piece]:
        rows = [("台下方得分", "结果", "升级"), *points_rows(rules, negative=True)]
        table = flow.table(rows, [0.3, 0.36, 0.34], after=6)
        made[:] = [flow.space(4), *together([*table, *flow.note(note)], loose=True)]
        return [*made, flow.space(10)]

    pieces = flow.markup(render("rules.j2", event, template_dir), {POINTS_TABLE: lambda _: points_table()})
    return _with_the_line_before(pieces, made)


def _with_the_line_before(pieces: list[Piece], grouped: Sequence[Piece]) -> list[Piece]:
    """The piece before a group (the line announcing a table: "…如下表：") made one of it, so that it never stays
    at a page's foot without it."""
    at = next((i for i, piece in enumerate(pieces) if grouped and piece is grouped[0]), 0)
    if at > 0 and grouped[-1].group is not None:
        for piece in (pieces[at - 1], *grouped):
            piece.group = grouped[-1].group
    return pieces


def signoff_pdf(
    event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False
) -> bytes:
    """规则口径确认单: every `[rules]` and `[format]` option in force in plain words beside the readings it
    excludes, how 十二 and 十三/十四 are applied, and lines for the 比赛负责人's signature and the date; the
    event.toml keys only in a grey note at 10 pt (`@设置`), and a line for initials on every page (`@每页`).
    One sheet printed on both sides: two pages at most."""
    flow = _flow(event, fonts)
    every_page: list[str] = []

    def on_every_page(args: tuple[str, ...]) -> list[Piece]:
        every_page.extend(args[:1])
        return []

    inserts = {SETTINGS_NOTE: lambda args: [flow.grey_note(args[0] if args else "", SETTINGS_SIZE)],
               EVERY_PAGE: on_every_page}
    pieces = flow.markup(render("signoff.j2", event, template_dir), inserts)
    return flow.pdf(pieces, title=f"{event.title}规则口径确认单", invariant=invariant,
                    page_note=every_page[0] if every_page else None)


def registration_pdf(
    event: Event,
    teams: Sequence[Team] = (),
    *,
    rows: int | None = None,
    digits: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """报名表: one row per pair (组号, two names, 单位, phone, 备注), prefilled with `teams`, then blank rows (no 组号).
    `digits`: how wide the 组号 are printed, the event's width (`event_width`)."""
    flow = _flow(event, fonts)
    pieces = [*flow.markup(render("registration.j2", event, template_dir)), flow.space(6)]
    header: list[Cell | str] = [*TEAMS_HEADER[:3], UNIT_LABEL, *TEAMS_HEADER[3:5]]  # teams.xlsx's columns a registering pair fills
    body: list[list[Cell | str]] = [header]
    digits = event_width(teams, digits)  # 001–128 in a field over 99, as every paper prints them
    for team in teams:
        body.append(
            [
                Cell(shown_id(team.id, digits), f"{team_name(team.id, digits)}的组号"),
                *(Cell(p, f"{team_name(team.id, digits)}队员“{p}”") for p in team.players),
                Cell(team.unit, f"{team_name(team.id, digits)}的单位"),
                Cell(team.phone, f"{team_name(team.id, digits)}的联系电话"),
                Cell(team.note, f"{team_name(team.id, digits)}的备注", align=Align.LEFT),
            ]
        )
    blanks = rows if rows is not None else _blank_rows(flow, pieces, body)
    # Blank rows carry no 组号: the form may be printed twice, and the office numbers the pairs when it types them
    # into teams.xlsx, so no two copies can hand out the same number.
    body += [[""] * len(header) for _ in range(blanks)]
    pieces += flow.table(body, [0.09, 0.15, 0.15, 0.18, 0.23, 0.2], row_height=ROW_HEIGHT)
    return flow.pdf(pieces, title=f"{event.title}报名表", invariant=invariant)


def souvenir_pdf(
    event: Event,
    teams: Sequence[Team] = (),
    *,
    blank_rows: int | None = None,
    digits: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """纪念品领取签收表: every player with their team and a signature column (blank rows if no teams yet)."""
    flow = _flow(event, fonts)
    pieces = [*flow.markup(render("souvenir.j2", event, template_dir)), flow.space(6)]
    body: list[list[Cell | str]] = [["序号", "组号", "姓名", "签名"]]
    number = 0
    digits = event_width(teams, digits)
    for team in sorted(teams, key=lambda t: number_key(t.id)):  # in 组号 order, as every list of teams
        for player in team.players:
            number += 1
            body.append(
                [
                    str(number),
                    Cell(shown_id(team.id, digits), f"{team_name(team.id, digits)}的组号"),
                    Cell(player, f"{team_name(team.id, digits)}队员“{player}”"),
                    "",
                ]
            )
    extra = blank_rows if blank_rows is not None else (2 if teams else _rows_that_fit(flow, pieces))
    body += [[str(number + i + 1), "", "", ""] for i in range(extra)]
    pieces += _signed_rows(flow, pieces, body, [0.12, 0.16, 0.27, 0.45])
    return flow.pdf(pieces, title=f"{event.title}纪念品领取签收表", invariant=invariant)


def _signed_rows(flow: Flow, above: Sequence[Piece], body: Sequence[Sequence[Cell | str]],
                 widths: Sequence[float]) -> list[Piece]:
    """A table of rows to sign in, ROW_HEIGHT high; lower, down to SIGNED_ROW_LEAST, where that saves a last page
    filled less than `REFIT_SHARE` (the 128-team 签收表's page 15 held 8 rows): the highest rows that save it."""
    def laid(height: float) -> list[Piece]:
        return flow.table(body, widths, row_height=height)

    def count(height: float) -> int:
        return len(flow.pages([*above, *laid(height)], fit=False))

    table = laid(ROW_HEIGHT)
    pages = flow.pages([*above, *table], fit=False)
    if len(pages) < 2 or used(pages[-1], flow.top - flow.head_height()) >= REFIT_SHARE * (flow.top - flow.bottom):
        return table
    fewer = len(pages) - 1
    if count(SIGNED_ROW_LEAST) > fewer:
        return table
    low, high = SIGNED_ROW_LEAST, float(ROW_HEIGHT)  # low saves the page, high does not
    while high - low > 0.25:
        middle = (low + high) / 2
        low, high = (middle, high) if count(middle) <= fewer else (low, middle)
    return laid(low)


SIGNIN_HEADER = ("组号", UNIT_LABEL, "队员1", "队员2", "签名", "到场时间")
SIGNIN_WIDTHS = (0.09, 0.23, 0.15, 0.15, 0.23, 0.15)
RESERVES_LINE = "候补组（有组弃权时，按下表顺序补入；到场也请签名）："


def signin_pdf(
    event: Event,
    teams: Sequence[Team] = (),
    *,
    digits: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """签到表 for 报到: one row per pair in 组号 order (单位, both players, a box for a signature and one for the
    time of arrival), the reserve pairs in a table of their own in the order they come in (teams.xlsx's row
    order); blank rows when no pair is listed yet."""
    flow = _flow(event, fonts)
    return flow.pdf(signin_pieces(flow, event, teams, template_dir, digits), title=f"{event.title}签到表",
                    invariant=invariant)


def signin_pieces(flow: Flow, event: Event, teams: Sequence[Team], template_dir: Path | None,
                  digits: int | None = None) -> list[Piece]:
    """The sign-in sheet laid out (its PDF, and the 秩序册's 签到表)."""
    pieces = [*flow.markup(render("signin.j2", event, template_dir)), flow.space(6)]
    regular = sorted((t for t in teams if not t.reserve), key=lambda t: number_key(t.id))
    reserves = [t for t in teams if t.reserve]
    header: list[Cell | str] = list(SIGNIN_HEADER)
    digits = event_width(teams, digits)
    body: list[list[Cell | str]] = [header, *(_signin_row(t, digits) for t in regular)]
    if not regular:
        body += [[""] * len(SIGNIN_HEADER) for _ in range(_rows_that_fit(flow, pieces))]
    pieces += flow.table(body, SIGNIN_WIDTHS, row_height=ROW_HEIGHT)
    if reserves:
        pieces += [flow.space(10), *together([*flow.paragraph(RESERVES_LINE),
                                              *flow.table([header, *(_signin_row(t, digits) for t in reserves)],
                                                          SIGNIN_WIDTHS, row_height=ROW_HEIGHT)])]
    return pieces


def _signin_row(team: Team, digits: int) -> list[Cell | str]:
    name = team_name(team.id, digits)  # in a font's warning: as the paper prints it
    return [Cell(shown_id(team.id, digits), f"{name}的组号"), Cell(team.unit, f"{name}的单位"),
            *(Cell(p, f"{name}队员“{p}”") for p in team.players), "", ""]


def _blank_rows(flow: Flow, pieces: Sequence[Piece], body: Sequence[Sequence[Cell | str]]) -> int:
    """Blank rows that fill the last page below the prefilled ones; when fewer than two would fit there, a
    whole page of them (never a page holding two stray rows)."""
    table = flow.table(body, [0.12, 0.2, 0.2, 0.22, 0.26], row_height=ROW_HEIGHT)
    fit = max(int(flow.room_left([*pieces, *table]) // ROW_HEIGHT), 0)
    if fit >= 2:
        return fit
    header = table[0].height
    return fit + int((flow.top - flow.bottom - flow.head_height() - header) // ROW_HEIGHT)


def _rows_that_fit(flow: Flow, pieces: Sequence[Piece]) -> int:
    """How many rows of ROW_HEIGHT (below a header row) fit on the page after `pieces`."""
    header = flow.table([["表头"]], [1.0])[0].height
    return max(int((flow.room_left(pieces) - header) // ROW_HEIGHT), 0)


def lots_pdf(
    event: Event,
    count: int,
    *,
    field: int | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """抽签签条: slips numbered 1…count, 2 × 6 to an A4 sheet (2 × 7 or 2 × 8 where that saves a sheet), with dashed cut lines and corner crop marks.
    With `field` (the number of teams, when known) the page head says which lots meet in round 1 and which are
    the byes (`[format] byes`)."""
    if count < 1:
        raise MaterialsError([f"抽签签条的张数应至少为1，实际为 {count}"])
    fonts = fonts or choose_fonts(event.print.font)
    plan = {"field": field, "lot_plan": lot_plan(field, event.byes).text if field and field >= 2 else ""}
    top_label, bottom_label, said = _lot_wording(render("lots.j2", event, template_dir, plan))
    size = sizes(event).note
    width, height = PAGE
    explain = [line for text in said for line in break_lines(fonts, text, size, [width - 2 * MARGIN], squeeze=True)]
    head = size * (2.2 + 1.35 * len(explain))
    cols = LOTS_PER_PAGE_COLUMNS
    left, right = MARGIN + 4 * mm, width - MARGIN - 4 * mm
    bottom, top = MARGIN + 4 * mm, height - MARGIN - head
    cell_w = (right - left) / cols
    layouts = [(r, _slip_fit(fonts, bottom_label, size, cell_w, (top - bottom) / r))
               for r in (LOTS_PER_PAGE_ROWS, *LOTS_DENSER_ROWS)]
    layouts = layouts[:1] + [(r, fit) for r, fit in layouts[1:] if fit[0] >= LOT_NUMBER_LEAST]
    fewest = min(-(-count // (cols * r)) for r, _ in layouts)
    rows_, (big, shown, label) = next((r, fit) for r, fit in layouts if -(-count // (cols * r)) == fewest)
    cell_h = (top - bottom) / rows_
    pages = -(-count // (cols * rows_))

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, fonts, title=f"{event.title}抽签签条", invariant=invariant)
    for page in range(pages):
        canvas.setFillColor(INK)
        canvas.setStrokeColor(INK)
        heading = f"抽签签条（1–{count}号，共{count}张）　沿虚线剪开"
        if pages > 1:
            heading += f"　第{page + 1}页 共{pages}页"
        fonts.draw(canvas, width / 2, height - MARGIN - size, heading, size, align=Align.CENTRE)
        for i, text in enumerate(explain):
            draw_line(fonts, canvas, MARGIN, height - MARGIN - size * (2.4 + 1.35 * i), text, size, width - 2 * MARGIN)
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
            baseline = y0 + LOT_INSET + len(shown) * label * 1.25 + 2 + big * 0.24  # room below for the underline
            half = fonts.width(str(number), big) / 2
            # the small label (签号) on the number's baseline, to its left
            fonts.draw(canvas, cx - half - size * 0.5, baseline, top_label, size, align=Align.RIGHT)
            fonts.draw(canvas, cx, baseline, str(number), big, align=Align.CENTRE)
            if rotation_ambiguous(number):  # 6 and 9 (16 and 91, …) read the other way up: underline them
                canvas.setLineWidth(max(big / 14, 2))
                canvas.line(cx - half, baseline - big * 0.14, cx + half, baseline - big * 0.14)
                canvas.setLineWidth(0.8)
            for i, text in enumerate(shown):
                y = y0 + LOT_INSET + label * 0.25 + (len(shown) - 1 - i) * label * 1.25
                fonts.draw(canvas, cx, y, text, label, align=Align.CENTRE)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _slip_fit(fonts: FontSet, label: str, size: float, width: float, height: float) -> tuple[float, list[str], float]:
    """A slip of `width` × `height`: its number's size, the lines of the label below it, and their size: `size`,
    or `LOT_LABEL_SMALLER` where that keeps the label on one line and the number would otherwise be less than
    `LOT_NUMBER_LEAST`."""
    fits = []
    for at in (size, min(size, LOT_LABEL_SMALLER)):
        shown = _wrap(fonts, label, at, width - 2 * LOT_INSET)[:2] if label else []
        room = height - 2 * LOT_INSET - len(shown) * at * 1.25 - 2
        fits.append((min(64.0, room / 1.02), shown, at))
    return fits[0] if fits[0][0] >= LOT_NUMBER_LEAST else max(fits, key=lambda fit: fit[0])


def _lot_wording(blocks: Sequence[Block]) -> tuple[str, str, list[str]]:
    """From lots.j2: the small label left of each number and the one below it (`@签条 签号 | 比赛名称`), and the
    paragraphs for the page head."""
    check_kinds(blocks, (BlockKind.INSERT, BlockKind.PLAIN, BlockKind.BODY), (LOT_SLIP,))
    labels = next((b.args for b in blocks if b.kind is BlockKind.INSERT), ())
    top_label, bottom_label = (*labels, "", "")[:2]
    return top_label, bottom_label, [b.text for b in blocks if b.kind is not BlockKind.INSERT]


LOT_INSET = 4 * mm  # text on a slip keeps this far from its cut lines
LOT_NUMBER_LEAST = 30.0  # a slip's number at least this size (pt): slips are cut apart and drawn from a box
LOT_LABEL_SMALLER = 12.0  # the label under it set this small where that keeps it on one line, the number larger
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
    """The short labels on lots, broken by the same rules as every other text (so 双升级（双扣） stays whole)."""
    return break_lines(fonts, text, size, [width])
