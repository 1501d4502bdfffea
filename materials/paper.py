"""The day's own paper: 计分卡 (score cards), 对阵表 (draw sheet), 加赛单 (playoff slips), 第N轮成绩 (round results).

Each `*_pdf` function takes domain objects (a drawn `Round`, `RoundResults`, teams, the `Event`) and returns PDF
bytes; nothing is recomputed here. Wording comes from `templates/*.j2` (an event folder's own `templates/` wins).
The score card's hand columns are the workbook's (`scoring.workbook.schema.HAND_COLUMNS`): one definition, two
renderers. `write_draw_papers` and `write_score_papers` put the files into the event folder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from materials.flow import flow_pdf, sizes
from materials.fonts import FontSet, choose_fonts
from materials.results import Papers, quoted, team_context
from materials.page import RULE, SHADE, break_lines
from materials.style import HouseStyle, Para, build_pdf
from materials.wording import MaterialsError, render_lines
from scoring.event import Event
from scoring.files import write_generated
from scoring.knockout import Pairing, Round, round_title
from scoring.levels import LABELS, Level
from scoring.results import RoundResults, TableResult
from scoring.rules import RuleSet
from scoring.teams import Team, team_name
from scoring.tournament import DrawReport
from scoring.workbook.schema import HAND_COLUMNS, NUMBER_LABEL, PLAYOFF_PREFIX

# --- the score card's layout -----------------------------------------------------------------------------------

REGULAR_ROWS = 16  # hand rows on a card (at least 16 regular and 4 加赛 rows)
PLAYOFF_ROWS = 4
SLIP_ROWS = 6  # 加赛 rows on a playoff slip
PEN_ROW = 8.1 * mm  # rows meant for a pen: at least 8 mm
CARD_TEXT = 12.0  # table text on cards and slips (≥ 12 pt)
CARD_PADDING = 3
LEVEL_COLUMNS = ("甲方级", "乙方级")  # after the workbook's columns: both sides' level after the hand
# Relative widths of the workbook's columns on paper (by label), then the two level columns.
CARD_WIDTHS = {
    "局": 26, "庄家": 32, "庄家级": 32, "台下得分": 34, "底牌分": 32, "抠底倍数": 32, "级牌抠底": 32,
    "台上罚张": 32, "台下罚张": 32, "违规": 48, "加赛": 30, "备注": 36, "甲方级": 32, "乙方级": 32,
}  # fmt: skip
TEAM_ROW = 11 * mm
LEVEL_BOX = 19.0  # width of one level in the level track (pt)
SIDE_LABEL = 42.0


def card_labels() -> tuple[str, ...]:
    """The card's hand-table header: exactly the workbook's columns in order, then the two level columns."""
    return tuple(c.label for c in HAND_COLUMNS) + LEVEL_COLUMNS


def card_widths(total: float) -> list[float]:
    labels = card_labels()
    weights = [CARD_WIDTHS.get(label, 30) for label in labels]
    scale = total / sum(weights)
    return [w * scale for w in weights]


# --- text that fits its box ------------------------------------------------------------------------------------


def team_lines(fonts: FontSet, team: str, players: Sequence[str], width: float, *,
               who: str | None = None) -> tuple[float, list[str]]:
    """A team's 组号 and players in a box `width` wide: one line, shrunk from 15 pt to 12 pt if need be; else two
    lines (组号 | players, or 组号 and the first player | the second player); else wrapped at 12 pt (a taller
    box, never smaller print)."""
    names = "、".join(players)
    one = f"{team}　{names}"
    sizes = [tenths / 10 for tenths in range(150, 119, -5)]
    options = [[one], [team, names]]
    if len(players) == 2:
        options.append([f"{team}　{players[0]}、", players[1]])
    for lines in options:
        for size in sizes:
            if all(fonts.width(line, size, who) <= width - 0.01 for line in lines):
                return size, lines
    return CARD_TEXT, break_lines(fonts, one, CARD_TEXT, [width], who)


@functools.lru_cache(maxsize=1024)
def _cell_text(style: HouseStyle, text: str, width: float, *, size: float = CARD_TEXT, align: str = "centre",
               who: str | None = None) -> Paragraph:
    # Remembered: every card repeats the same labels (2 … A twice, 甲方, 乙方), and a paragraph laid out at the
    # same width can be drawn in any number of cells.
    st = ParagraphStyle(
        f"cell{size}{align}", parent=style.styles["cell"], fontSize=size, leading=size * 1.15,
        alignment=TA_CENTER if align == "centre" else TA_LEFT,
    )
    lines = break_lines(style.fonts, text, size, [width - 2 * CARD_PADDING], who) or [""]
    return Para("<br/>".join(style.fonts.markup(line, who) for line in lines), st)


def _grid_style(style: HouseStyle, header_rows: int = 0) -> list[tuple]:
    commands: list[tuple] = [
        ("FONTNAME", (0, 0), (-1, -1), style.fonts.name),  # else empty cells reference Helvetica
        ("GRID", (0, 0), (-1, -1), 0.8, RULE),
        ("BOX", (0, 0), (-1, -1), 1.6, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (0, 0), (-1, -1), CARD_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CARD_PADDING),
    ]
    if header_rows:
        commands += [
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), SHADE),
            ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 1.6, RULE),
        ]
    return commands


# --- pieces of the card ----------------------------------------------------------------------------------------


def sides_table(style: HouseStyle, rules: RuleSet, pairing: Pairing | None, teams: Mapping[str, Team],
                headings: Sequence[str] = ()) -> Table:
    """甲方 / 乙方: 组号 and players (shrunk or wrapped to fit), and a level track 2 … A per side with the
    must-play levels shaded; `headings` (from the template) head the team column and the level track."""
    total = style.frame_width
    team_width = total - SIDE_LABEL - LEVEL_BOX * len(LABELS)
    track = LEVEL_BOX * len(LABELS)
    rows: list[list[object]] = []
    if headings:
        first, second = (list(headings) + ["", ""])[:2]
        rows.append(["", _cell_text(style, first, team_width, align="left"),
                     _cell_text(style, second, track, align="left")] + [""] * (len(LABELS) - 1))
    heights: list[float] = []
    for side_label, team_id in (("甲方", pairing.a if pairing else None), ("乙方", pairing.b if pairing else None)):
        inner = team_width - 2 * CARD_PADDING
        if team_id is None:
            size, lines, who = 15.0, ["第＿＿组　　队员："], None
        else:
            who = f"{team_name(team_id)}的队员"
            team = teams.get(team_id)
            size, lines = team_lines(style.fonts, team_name(team_id), team.players if team else (), inner, who=who)
        heights.append(max(TEAM_ROW, len(lines) * size * 1.15 + 2))
        st = ParagraphStyle(f"team{size}", parent=style.styles["cell"], fontSize=size, leading=size * 1.15)
        name = Para("<br/>".join(style.fonts.markup(line, who) for line in lines), st)
        rows.append([_cell_text(style, side_label, SIDE_LABEL, size=14), name,
                     *(_cell_text(style, label, LEVEL_BOX + 2 * CARD_PADDING) for label in LABELS)])
    top = 1 if headings else 0
    table = Table(rows, colWidths=[SIDE_LABEL, team_width] + [LEVEL_BOX] * len(LABELS),
                  rowHeights=[None] * top + heights)
    commands = _grid_style(style)
    commands += [("LEFTPADDING", (2, top), (-1, -1), 0), ("RIGHTPADDING", (2, top), (-1, -1), 0)]
    if headings:
        commands += [("SPAN", (2, 0), (-1, 0)), ("TOPPADDING", (0, 0), (-1, 0), 0),
                     ("BOTTOMPADDING", (0, 0), (-1, 0), 1)]
    for i, level in enumerate(Level):
        if level in rules.must_play:
            col = 2 + i
            commands += [("BACKGROUND", (col, top), (col, -1), SHADE), ("BOX", (col, top), (col, top), 1.6, RULE),
                         ("BOX", (col, top + 1), (col, top + 1), 1.6, RULE)]
    table.setStyle(TableStyle(commands))
    return table


def hand_rows_table(style: HouseStyle, *, regular: int, playoff: int, first_playoff: int = 1) -> Table:
    """The hand table: the workbook's columns, then both sides' level; `regular` numbered rows and `playoff`
    rows 加1… with 加赛 prefilled “是”, each at least 8 mm high for a pen."""
    labels = card_labels()
    widths = card_widths(style.frame_width)
    header = [_cell_text(style, label, w) for label, w in zip(labels, widths)]
    playoff_col = next(i for i, c in enumerate(HAND_COLUMNS) if c.field == "playoff")
    number_col = next(i for i, c in enumerate(HAND_COLUMNS) if c.label == NUMBER_LABEL)
    rows = [header]
    for i in range(regular + playoff):
        row: list[object] = [""] * len(labels)
        if i < regular:
            row[number_col] = _cell_text(style, str(i + 1), widths[number_col])
        else:
            k = i - regular + first_playoff
            row[number_col] = _cell_text(style, f"{PLAYOFF_PREFIX}{k}", widths[number_col])
            row[playoff_col] = _cell_text(style, "是", widths[playoff_col])
        rows.append(row)
    table = Table(rows, colWidths=widths, rowHeights=[None] + [PEN_ROW] * (regular + playoff))
    commands = _grid_style(style, header_rows=1)
    commands.append(("BACKGROUND", (number_col, 1), (number_col, -1), SHADE))
    first_level = len(HAND_COLUMNS)
    commands.append(("LINEBEFORE", (first_level, 0), (first_level, -1), 1.6, RULE))
    if regular and playoff:
        commands.append(("LINEABOVE", (0, 1 + regular), (-1, 1 + regular), 1.6, RULE))
    table.setStyle(TableStyle(commands))
    return table


def points_table(style: HouseStyle, rules: RuleSet) -> Table:
    """The points → levels table in force, compact: a row of dealer-keeps ranges, a row of take-over ranges."""
    rows = rules.points_table()
    keeps = [r for r in rows if r.dealer_keeps]
    takes = [r for r in rows if not r.dealer_keeps]
    columns = max(len(keeps), len(takes))
    label_width = 70.0
    width = (style.frame_width - label_width) / columns

    def span(r) -> str:
        return f"{r.low}" if r.low == r.high else f"{r.low}–{r.high}"

    def gain(r) -> str:
        return f"升{r.levels}级" if r.levels else "不升级"

    body = []
    for label, group in (("庄家保庄", keeps), ("台下方上台", takes)):
        pad = [""] * (columns - len(group))
        body.append([_cell_text(style, "台下得分", label_width), *(_cell_text(style, span(r), width) for r in group), *pad])
        body.append([_cell_text(style, label, label_width), *(_cell_text(style, gain(r), width) for r in group), *pad])
    table = Table(body, colWidths=[label_width] + [width] * columns)
    commands = _grid_style(style)
    commands += [("BACKGROUND", (0, 0), (-1, 0), SHADE), ("BACKGROUND", (0, 2), (-1, 2), SHADE),
                 ("LINEABOVE", (0, 2), (-1, 2), 1.6, RULE)]
    table.setStyle(TableStyle(commands))
    return table


class Stamp(Flowable):
    """A flowable that is the same on every page of a document (the score card's hand table and points table):
    laid out once, drawn once into a PDF form XObject, and placed on each page by reference. Text inside stays
    extractable; a page that cannot hold it whole gets it split like the flowable itself."""

    BLEED = 2.0  # the form's box reaches past the flowable by this much: room for the outer rule's half-width

    def __init__(self, name: str, flowable: Flowable):
        super().__init__()
        self.name = name
        self.flowable = flowable
        self.hAlign = getattr(flowable, "hAlign", "LEFT")
        self._wrapped: tuple[float, float, float] | None = None  # (available width, width, height)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self._wrapped is None or self._wrapped[0] != availWidth:
            self._wrapped = (availWidth, *self.flowable.wrap(availWidth, availHeight))
        self.width, self.height = self._wrapped[1:]
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        self._wrapped = None
        return self.flowable.split(availWidth, availHeight)

    def getSpaceBefore(self) -> float:
        return self.flowable.getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self.flowable.getSpaceAfter()

    def draw(self) -> None:
        canvas = self.canv
        if not canvas.hasForm(self.name):
            b = self.BLEED
            canvas.beginForm(self.name, -b, -b, self.width + b, self.height + b)
            self.flowable.drawOn(canvas, 0, 0)
            canvas.endForm()
        canvas.doForm(self.name)


# --- rendering from templates ----------------------------------------------------------------------------------


def _style(event: Event, fonts: FontSet | None) -> HouseStyle:
    return HouseStyle(fonts or choose_fonts(event.print.font), large=event.print.large_print)


Insert = list[Flowable] | Callable[[list[str]], list[Flowable]]


def _compact(lines: Sequence[str], style: HouseStyle, inserts: Mapping[str, Insert]) -> list[Flowable]:
    """A card or slip: '#' a title line, '<' a line of text, '@key' an insert; '@key a | b' hands the insert
    the texts a and b (headings from the template). Set tighter than a letter."""
    title = ParagraphStyle("card_title", parent=style.styles["title"], fontSize=19, leading=22, spaceAfter=2)
    line_style = ParagraphStyle("card_line", parent=style.styles["plain"], fontSize=14, leading=17, spaceAfter=2)
    story: list[Flowable] = []
    for line in lines:
        if line.startswith("#"):
            lines_ = break_lines(style.fonts, line[1:].strip(), title.fontSize, [style.frame_width])
            story.append(Para("<br/>".join(style.fonts.markup(x) for x in lines_), title))
        elif line.startswith("@"):
            key, _, args = line.partition(" ")
            if key not in inserts:
                raise MaterialsError(f"模板中的“{key}”不认识（可用：{'、'.join(inserts)}）")
            insert = inserts[key]
            story.extend(insert([a.strip() for a in args.split("|")] if args else []) if callable(insert) else insert)
        else:
            text = line[1:].strip() if line.startswith("<") else line
            lines_ = break_lines(style.fonts, text, 14, [style.frame_width])
            story.append(Para("<br/>".join(style.fonts.markup(x) for x in lines_), line_style))
    return story


def _card(event: Event, style: HouseStyle, round_: Round | None, pairing: Pairing | None,
          teams: Mapping[str, Team], template_dir: Path | None, hand_rows: Flowable, points: Flowable) -> list[Flowable]:
    extra = {
        "blank": pairing is None,
        "round_title": round_title(round_.number, len(round_.pool)) if round_ else "",
        "table": pairing.table if pairing else "",
        "third_place": bool(pairing and pairing.third_place),
    }
    lines = render_lines("score_card.j2", event, template_dir, extra)
    gap = Spacer(1, 1.5 * mm)
    inserts = {
        "@对阵": lambda headings: [gap, sides_table(style, event.rules, pairing, teams, headings), gap],
        "@记分": [hand_rows, gap],
        "@得分表": [points, gap],
    }
    return _compact(lines, style, inserts)


def score_cards_pdf(
    event: Event,
    round_: Round | None,
    teams: Mapping[str, Team],
    *,
    blank: bool = True,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """计分卡: one A4 page per table of `round_` (none for `round_` None), then a blank card if `blank`."""
    style = _style(event, fonts)
    story: list[Flowable] = []
    cards = [p for p in round_.pairings] if round_ is not None else []
    # The hand table and the points table are the same on every card: laid out and drawn once.
    same = (Stamp("hand_rows", hand_rows_table(style, regular=REGULAR_ROWS, playoff=PLAYOFF_ROWS)),
            Stamp("points", points_table(style, event.rules)))
    for pairing in cards:
        story += _card(event, style, round_, pairing, teams, template_dir, *same) + [PageBreak()]
    if blank:
        story += _card(event, style, None, None, teams, template_dir, *same)
    elif story:
        story.pop()
    title = f"{event.title} 第{round_.number}轮计分卡" if round_ is not None else f"{event.title} 空白计分卡"
    return build_pdf(story, style, title=title, invariant=invariant, numbered=False)


def draw_sheet_pdf(
    event: Event,
    round_: Round,
    teams: Mapping[str, Team],
    *,
    command: str,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """对阵表 for the wall: every table with both teams and players in large print, the byes, and how to check
    the draw (the seed and `command`, or which 签号 met which)."""
    extra = {
        **team_context(teams),
        "round_title": round_title(round_.number, len(round_.pool)),
        "number": round_.number,
        "pairings": round_.pairings,
        "byes": round_.byes,
        "lot_plan": round_.lot_plan.text,
        "seed": round_.seed,
        "lots": bool(round_.lots),
        "lot": dict(round_.lots),
        "command": command,
    }
    fonts = fonts or choose_fonts(event.print.font)
    return flow_pdf(render_lines("draw_sheet.j2", event, template_dir, extra), fonts, sizes(event),
                    title=f"{event.title} 第{round_.number}轮对阵表", invariant=invariant)


def playoff_slip_pdf(
    event: Event,
    results: RoundResults,
    table: TableResult,
    *,
    workbook: str,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """加赛单 for a table tied when time was up: the teams, the tied level, who deals first, rows for 加赛 hands."""
    if table.playoff is None:
        raise ValueError(f"table {table.table} does not need a playoff")
    style = _style(event, fonts)
    extra = {**team_context(results.teams), "round_title": results.title, "t": table, "workbook": workbook}
    first = table.playoff.played + 1
    inserts = {"@加赛记录": [Spacer(1, 2 * mm),
                             hand_rows_table(style, regular=0, playoff=SLIP_ROWS, first_playoff=first),
                             Spacer(1, 2 * mm)]}
    story = _compact(render_lines("playoff_slip.j2", event, template_dir, extra), style, inserts)
    return build_pdf(story, style, title=f"{event.title} 第{results.number}轮第{table.table}桌加赛单",
                     invariant=invariant, numbered=False)


# --- files in the event folder ---------------------------------------------------------------------------------


def draw_sheet_name(number: int) -> str:
    return f"第{number}轮对阵表.pdf"


def score_cards_name(number: int) -> str:
    return f"第{number}轮计分卡.pdf"


def write_draw_papers(report: DrawReport, *, font: str | None = None, force: bool = False,
                      invariant: bool = False) -> Papers:
    """The draw sheet and the score cards (one per table, then a blank one) of a freshly drawn round, next to
    its workbook."""
    folder, event, round_, teams = report.path.parent, report.event, report.round, report.teams
    fonts = choose_fonts(font, event.print.font)
    where = quoted(folder)
    if round_.seed is not None:
        command = f"shuangsheng draw {where} --seed {round_.seed}"
    else:
        command = f"shuangsheng draw {where} --lots {quoted(report.lots) if report.lots else '签号表.xlsx'}"
    common = {"fonts": fonts, "template_dir": folder / "templates", "invariant": invariant}
    paths = (
        write_generated(folder / draw_sheet_name(round_.number),
               draw_sheet_pdf(event, round_, teams, command=command, **common), force=force),
        write_generated(folder / score_cards_name(round_.number), score_cards_pdf(event, round_, teams, **common), force=force),
    )
    return Papers(paths, fonts.warnings)
