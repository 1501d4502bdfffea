"""The day's own paper: 计分卡 (score cards), 对阵表 (draw sheet), 加赛单 (playoff slips); the round results are in
`shuangsheng.render.materials.results`.

Each `*_pdf` function takes domain objects (a drawn `Round`, `RoundResults`, teams, the `Event`) and returns PDF
bytes; nothing is recomputed here. Wording comes from `shuangsheng/render/templates/*.j2` (an event folder's own `templates/` wins).
The score card's hand columns are the workbook's (`shuangsheng.storage.workbook.schema.HAND_COLUMNS`): one definition, two
renderers. The card's tables are `Grid`s drawn on the canvas; the hand table and the points table, the same on
every card, once into a form that each page places. `shuangsheng.usecases.papers.draw` puts the files into the
event folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.units import mm

from shuangsheng.game.levels import LABELS, Level
from shuangsheng.game.rules import STEP, NegativePoints, RuleSet
from shuangsheng.knockout.checkin import Field
from shuangsheng.knockout.knockout import Pairing, Round, round_title
from shuangsheng.knockout.teams import Team, canonical_id, team_name
from shuangsheng.render.materials.conventions import in_order, team_context
from shuangsheng.render.materials.flow import LEFT, WIDTH, Flow, Insert, Piece, baseline, flow_pdf, sizes
from shuangsheng.render.materials.fonts import Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import INK, RULE, SHADE, break_lines
from shuangsheng.render.materials.wording import NEGATIVE_LOW, render, signed_points
from shuangsheng.render.results import RoundResults
from shuangsheng.storage.event import Event
from shuangsheng.storage.workbook.schema import HAND_COLUMNS, NUMBER_LABEL, PLAYOFF_PREFIX, YES_MARK
from shuangsheng.table.record import TableRecord

# --- the score card's layout -----------------------------------------------------------------------------------

REGULAR_ROWS = 16  # hand rows on a card (at least 16 regular and 4 加赛 rows)
PLAYOFF_ROWS = 4
SLIP_ROWS = 10  # 加赛 rows on a playoff slip
SLIP_BIG = 26.0  # the slip's table and tied level
SLIP_TITLE = 30.0  # the slip's title: its largest text
RING_MARGIN = 3.0  # between the ringed level's text and its ring
SLIP_LINE = 18.0  # the slip's line saying who deals first
PEN_ROW = 8.05 * mm  # rows meant for a pen: at least 8 mm
CARD_TEXT = 12.0  # table text on cards and slips (≥ 12 pt)
CARD_PADDING = 3
LEADING = 1.1  # line height of the cards' grids, in em
LEVEL_COLUMNS = ("甲方级", "乙方级")  # after the workbook's columns: both sides' level after the hand
LEVEL_WEIGHT = 30  # relative width of each level column (the workbook's columns: Column.widths.card)
TEAM_ROW = PEN_ROW
LEVEL_BOX = 15.5  # width of one level in the level track (pt): "10" at 12 pt with room to tick it
GROUP = 4  # a heavier rule every GROUP hand rows, so the eye keeps its row
SIDE_LABEL = 42.0


def card_labels() -> tuple[str, ...]:
    """The card's hand-table header: exactly the workbook's columns in order, then the two level columns."""
    return tuple(c.label for c in HAND_COLUMNS) + LEVEL_COLUMNS


def card_widths(total: float) -> list[float]:
    weights = [c.widths.card for c in HAND_COLUMNS] + [LEVEL_WEIGHT] * len(LEVEL_COLUMNS)
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


# --- ruled grids drawn on the canvas --------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """What a grid cell says: lines at one size, centred or from the left, for glyph warnings naming `who`."""

    lines: tuple[str, ...]
    size: float = CARD_TEXT
    align: Align = Align.CENTRE
    who: str | None = None


def _text(fonts: FontSet, text: str, width: float, *, size: float = CARD_TEXT, align: Align = Align.CENTRE) -> Text:
    return Text(tuple(break_lines(fonts, text, size, [width - 2 * CARD_PADDING]) or [""]), size, align)


@dataclass
class Grid:
    """A ruled table of fixed column widths and row heights (pt): thin rules between the cells, a heavy frame,
    and what the card needs besides: shaded ranges (row, col, last row, last col), cells spanning several
    columns, heavy rules below some rows and before some columns, heavy boxes around some cells."""

    widths: list[float]
    heights: list[float]
    cells: dict[tuple[int, int], Text] = field(default_factory=dict)
    shaded: list[tuple[int, int, int, int]] = field(default_factory=list)
    spans: dict[tuple[int, int], int] = field(default_factory=dict)
    heavy_rows: set[int] = field(default_factory=set)  # a heavy rule below these rows
    heavy_columns: set[int] = field(default_factory=set)  # a heavy rule before these columns
    boxed: set[tuple[int, int]] = field(default_factory=set)
    ringed: set[tuple[int, int]] = field(default_factory=set)  # a ring drawn around these cells' text
    bottom_padding: float = 1.5

    @property
    def height(self) -> float:
        return sum(self.heights)

    def draw(self, canvas, fonts: FontSet, x: float, top: float) -> None:
        xs = [x + sum(self.widths[:i]) for i in range(len(self.widths) + 1)]
        ys = [top - sum(self.heights[:i]) for i in range(len(self.heights) + 1)]
        canvas.setFillColor(SHADE)
        for r0, c0, r1, c1 in self.shaded:
            canvas.rect(xs[c0], ys[r1 + 1], xs[c1 + 1] - xs[c0], ys[r0] - ys[r1 + 1], stroke=0, fill=1)
        canvas.setFillColor(INK)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.8)
        for y in ys[1:-1]:
            canvas.line(xs[0], y, xs[-1], y)
        covered = {(r, c + k) for (r, c), n in self.spans.items() for k in range(1, n)}
        for r in range(len(self.heights)):
            for c in range(1, len(self.widths)):
                if (r, c) not in covered:
                    canvas.line(xs[c], ys[r + 1], xs[c], ys[r])
        for (r, c), text in self.cells.items():
            left, right = xs[c], xs[c + self.spans.get((r, c), 1)]
            leading = text.size * LEADING
            first = ys[r] - (self.heights[r] - len(text.lines) * leading + self.bottom_padding) / 2
            for i, line in enumerate(text.lines):
                y = baseline(first - i * leading, leading, text.size)
                if text.align is Align.CENTRE:
                    fonts.draw(canvas, (left + right) / 2, y, line, text.size, align=Align.CENTRE, who=text.who)
                else:
                    fonts.draw(canvas, left + CARD_PADDING, y, line, text.size, who=text.who)
        self._draw_heavy(canvas, xs, ys)
        self._draw_rings(canvas, fonts, xs, ys)

    def _draw_rings(self, canvas, fonts: FontSet, xs: Sequence[float], ys: Sequence[float]) -> None:
        """A ring around the text of each ringed cell (the slip's tied level), centred on the text and wide
        enough to enclose it ("10" too, wider than its narrow cell), within its row."""
        canvas.setLineWidth(1.6)
        for r, c in self.ringed:
            text = self.cells.get((r, c))
            lines = text.lines if text else ("",)
            size = text.size if text else CARD_TEXT
            leading = size * LEADING
            first = ys[r] - (self.heights[r] - len(lines) * leading + self.bottom_padding) / 2
            middle = first - len(lines) * leading / 2
            wide = max(max(fonts.width(line, size) for line in lines) + RING_MARGIN * 2, size + RING_MARGIN)
            high = min(len(lines) * leading + RING_MARGIN, self.heights[r] - 1)
            x = (xs[c] + xs[c + 1]) / 2
            canvas.ellipse(x - wide / 2, middle - high / 2, x + wide / 2, middle + high / 2, stroke=1, fill=0)

    def _draw_heavy(self, canvas, xs: Sequence[float], ys: Sequence[float]) -> None:
        """The heavy rules, boxes and rings, and the frame."""
        canvas.setLineWidth(1.6)
        for r in self.heavy_rows:
            canvas.line(xs[0], ys[r + 1], xs[-1], ys[r + 1])
        for c in self.heavy_columns:
            canvas.line(xs[c], ys[-1], xs[c], ys[0])
        for r, c in self.boxed:
            canvas.rect(xs[c], ys[r + 1], xs[c + 1] - xs[c], ys[r] - ys[r + 1], stroke=1, fill=0)
        canvas.rect(xs[0], ys[-1], xs[-1] - xs[0], ys[0] - ys[-1], stroke=1, fill=0)


def _row_height(texts: Sequence[Text], padding: float = 1.5) -> float:
    return max(len(t.lines) * t.size * LEADING for t in texts) + padding


def _piece(grid: Grid, fonts: FontSet) -> Piece:
    return Piece(grid.height, lambda canvas, top: grid.draw(canvas, fonts, LEFT, top))


BLEED = 2.0  # a stamp's form reaches past its grid by this much: room for the outer rule's half-width


def _stamp(name: str, grid: Grid, fonts: FontSet) -> Piece:
    """A grid that is the same on every page of a document (the card's hand table and points table): drawn once
    into a PDF form XObject and placed on each page by reference. Its text stays extractable."""
    width, height = sum(grid.widths), grid.height

    def draw(canvas, top: float) -> None:
        if not canvas.hasForm(name):
            canvas.beginForm(name, -BLEED, -BLEED, width + BLEED, height + BLEED)
            grid.draw(canvas, fonts, 0, height)
            canvas.endForm()
        canvas.saveState()
        canvas.translate(LEFT, top - height)
        canvas.doForm(name)
        canvas.restoreState()

    return Piece(height, draw)


# --- pieces of the card ----------------------------------------------------------------------------------------


def sides_grid(fonts: FontSet, rules: RuleSet, pairing: Pairing | None, teams: Mapping[str, Team],
               headings: Sequence[str] = (), *, mark: Level | None = None) -> Grid:
    """甲方 / 乙方: 组号 and players (shrunk or wrapped to fit), and a level track 2 … A per side with the
    must-play levels shaded; `headings` (from the template) head the team column and the level track; `mark`:
    a level ringed on both sides' track (the level a playoff starts from)."""
    team_width = WIDTH - SIDE_LABEL - LEVEL_BOX * len(LABELS)
    track = LEVEL_BOX * len(LABELS)
    grid = Grid([SIDE_LABEL, team_width] + [LEVEL_BOX] * len(LABELS), [])
    if headings:
        first, second = (list(headings) + ["", ""])[:2]
        grid.cells[(0, 1)] = _text(fonts, first, team_width, align=Align.LEFT)
        grid.cells[(0, 2)] = _text(fonts, second, track, align=Align.LEFT)
        grid.spans[(0, 2)] = len(LABELS)
        grid.heights.append(max(PEN_ROW, _row_height([grid.cells[(0, 1)], grid.cells[(0, 2)]], 1.0)))
    top = len(grid.heights)
    for r, (side_label, team_id) in enumerate((("甲方", pairing.a if pairing else None),
                                               ("乙方", pairing.b if pairing else None)), start=top):
        inner = team_width - 2 * CARD_PADDING
        who = None
        if team_id is None:
            size, lines = 15.0, ["第＿＿组　　队员："]
        else:
            who = f"{team_name(team_id)}的队员"
            team = teams.get(team_id)
            size, lines = team_lines(fonts, team_name(team_id), team.players if team else (), inner, who=who)
        grid.heights.append(max(TEAM_ROW, len(lines) * size * LEADING + 2))
        grid.cells[(r, 0)] = _text(fonts, side_label, SIDE_LABEL, size=14)
        grid.cells[(r, 1)] = Text(tuple(lines), size, Align.LEFT, who)
        for c, label in enumerate(LABELS, start=2):
            grid.cells[(r, c)] = Text((label,))
    for i, level in enumerate(Level):
        if level in rules.must_play:
            grid.shaded.append((top, 2 + i, top + 1, 2 + i))
            grid.boxed |= {(top, 2 + i), (top + 1, 2 + i)}
        if level is mark:
            grid.ringed |= {(top, 2 + i), (top + 1, 2 + i)}
    return grid


def hand_rows_grid(fonts: FontSet, *, regular: int, playoff: int, first_playoff: int = 1,
                   numbered: bool = True) -> Grid:
    """The hand table: the workbook's columns, then both sides' level (what each takes is said under the points
    table, `card_key`); `regular` numbered rows (unnumbered unless `numbered`: a spare or continuation card)
    and `playoff` rows 加1… with 加赛 prefilled “是”, each at least 8 mm high for a pen, a heavier rule every
    four rows."""
    widths = card_widths(WIDTH)
    header = [_text(fonts, label, w) for label, w in zip(card_labels(), widths, strict=True)]
    grid = Grid(widths, [_row_height(header)])
    grid.cells.update({(0, c): text for c, text in enumerate(header)})
    first = len(grid.heights)
    grid.heights += [PEN_ROW] * (regular + playoff)
    playoff_col = next(i for i, c in enumerate(HAND_COLUMNS) if c.field == "playoff")
    number_col = next(i for i, c in enumerate(HAND_COLUMNS) if c.label == NUMBER_LABEL)
    for i in range(regular + playoff):
        if i < regular:
            if numbered:
                grid.cells[(first + i, number_col)] = Text((str(i + 1),))
        else:
            grid.cells[(first + i, number_col)] = Text((f"{PLAYOFF_PREFIX}{i - regular + first_playoff}",))
            grid.cells[(first + i, playoff_col)] = Text((YES_MARK,))
    last = first + regular + playoff - 1
    grid.shaded += [(0, 0, first - 1, len(widths) - 1), (first, number_col, last, number_col)]
    grid.heavy_rows.add(first - 1)
    grid.heavy_rows |= {first + i - 1 for i in range(GROUP, regular, GROUP)}  # every four regular rows
    grid.heavy_columns.add(len(HAND_COLUMNS))
    if regular and playoff:
        grid.heavy_rows.add(first + regular - 1)
    return grid


def points_grid(fonts: FontSet, rules: RuleSet) -> Grid:
    """The points → levels table in force, whole and compact: a row of dealer-keeps ranges (the negative totals
    included, or 'below 0 counts as 0'), a row of take-over ranges, each with the levels gained; then a row with
    the card's key (`card_key`)."""
    clamp = rules.negative_points is NegativePoints.CLAMP
    rows = rules.points_table() if clamp else rules.points_table(low=NEGATIVE_LOW)
    keeps = [r for r in rows if r.dealer_keeps]
    takes = [r for r in rows if not r.dealer_keeps]
    columns = max(len(keeps) + clamp, len(takes))
    label_width = 68.0
    width = (WIDTH - label_width) / columns

    def span(r) -> str:
        if r.low == r.high:
            return signed_points(r.low)
        return f"{signed_points(r.low)}–{signed_points(r.high)}"

    def gain(r) -> str:
        return f"升{r.levels}级" if r.levels else "不升级"

    first = (["0以下按0"], [f"升{keeps[0].levels}级"]) if clamp else ([], [])
    grid = Grid([label_width] + [width] * columns, [])
    for label, group, (lows, gains) in (("庄家保庄", keeps, first), ("台下方上台", takes, ([], []))):
        for texts in (["台下得分", *lows, *map(span, group)], [label, *gains, *map(gain, group)]):
            row = len(grid.heights)
            cells = [_text(fonts, t, label_width if c == 0 else width) for c, t in enumerate(texts)]
            grid.cells.update({(row, c): cell for c, cell in enumerate(cells)})
            grid.heights.append(_row_height(cells, 1.0))
    grid.shaded += [(0, 0, 0, columns), (2, 0, 2, columns)]
    grid.heavy_rows.add(1)
    note = _text(fonts, card_key(rules), WIDTH, align=Align.LEFT)
    grid.cells[(4, 0)] = note
    grid.spans[(4, 0)] = columns + 1
    grid.heights.append(_row_height([note], 3.0))
    return grid


def card_key(rules: RuleSet) -> str:
    """The card's key, under its points table: what each column takes (the workbook's 填写说明 in brief), the
    rule past either end of the table, and what the shading of the level track means."""
    low = "" if rules.negative_points is NegativePoints.CLAMP else f"低于{signed_points(NEGATIVE_LOW)}分或"
    two = "，2只在开局时必打" if Level.TWO in rules.must_play else ""
    return (f"填法：庄家填甲或乙；台下得分、底牌分填5的倍数，台下得分0分也写0；抠底倍数填×2、×4…；"
            f"级牌抠底、加赛填“是”；罚张填张数；违规填台上／台下扣错底、出错牌。"
            f"{low}超过{rules.points_table()[-1].high}分时每差{STEP}分多升一级。灰底为必打级{two}。")


def result_grid(fonts: FontSet, headings: Sequence[str], code: str | None = None) -> Grid:
    """One pen row at the foot of the card: the start and end time, 胜方 (甲方 乙方 to ring), 终局级数 (the
    template's words), and the table's 录分码 at its right end when the table has one (shuangsheng.table.codes). Each
    cell as wide as its words; the room left goes to the cell where the winner is ringed or written."""
    time, winner, final = (*headings, "", "", "")[:3]
    texts = [time, winner, "甲方　乙方", final, "甲＿ 乙＿", *([f"录分码 {code}"] if code else [])]
    if code:
        texts[2] = ""  # no room to print both sides: the winner is written in
    natural = [fonts.width(text, CARD_TEXT) + 2 * CARD_PADDING + 4 for text in texts]
    spare = WIDTH - sum(natural)
    widths = [w + (spare if c == 2 else 0.0) for c, w in enumerate(natural)] if spare > 0 else \
        [WIDTH * w / sum(natural) for w in natural]
    grid = Grid(widths, [])
    cells = [_text(fonts, text, w, align=Align.LEFT if c == 0 else Align.CENTRE)
             for c, (text, w) in enumerate(zip(texts, widths, strict=True))]
    grid.cells.update({(0, c): cell for c, cell in enumerate(cells)})
    grid.heights.append(max(PEN_ROW, _row_height(cells)))
    grid.shaded += [(0, 1, 0, 1), (0, 3, 0, 3)]
    return grid


# --- rendering from templates ----------------------------------------------------------------------------------


def _card(event: Event, flow: Flow, round_: Round | None, pairing: Pairing | None, teams: Mapping[str, Team],
          template_dir: Path | None, hand_rows: Piece, points: Piece, *, code: str | None = None,
          gap: float = 0.8 * mm) -> list[Piece]:
    extra = {
        "blank": pairing is None,
        "round_title": round_title(round_.number, len(round_.pool)) if round_ else "",
        "table": pairing.table if pairing else "",
        "third_place": bool(pairing and pairing.third_place),
    }
    fonts = flow.fonts
    inserts: dict[str, Insert] = {
        "对阵": lambda headings: [flow.space(gap), _piece(sides_grid(fonts, event.rules, pairing, teams, headings),
                                                          fonts), flow.space(gap)],
        "记分": lambda _: [hand_rows, flow.space(gap)],
        "得分表": lambda _: [points, flow.space(gap)],
        "结果": lambda headings: [_piece(result_grid(fonts, headings, code), fonts), flow.space(gap)],
    }
    return flow.markup(render("score_card.j2", event, template_dir, extra), inserts, compact=True)


def score_cards_pdf(
    event: Event,
    round_: Round | None,
    teams: Mapping[str, Team],
    *,
    blank: bool = True,
    codes: Mapping[int, str] | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """计分卡: one A4 page per table of `round_` (none for `round_` None), then a blank card if `blank` (备用／续页:
    its rows unnumbered). `codes`: each table's 录分码 (shuangsheng.table.codes), printed in the result row when given."""
    flow = Flow(fonts or choose_fonts(event.print.font), sizes(event), footer=False)
    # The hand tables and the points table are the same on every card: laid out and drawn once.
    numbered = _stamp("hand_rows", hand_rows_grid(flow.fonts, regular=REGULAR_ROWS, playoff=PLAYOFF_ROWS), flow.fonts)
    spare = _stamp("spare_rows", hand_rows_grid(flow.fonts, regular=REGULAR_ROWS + PLAYOFF_ROWS, playoff=0,
                                                numbered=False), flow.fonts)
    points = _stamp("points", points_grid(flow.fonts, event.rules), flow.fonts)
    pairings: list[Pairing | None] = list(round_.pairings) if round_ is not None else []
    pieces: list[Piece] = []
    for pairing in pairings + ([None] if blank else []):
        hands = numbered if pairing else spare
        code = (codes or {}).get(pairing.table) if pairing else None
        card = _card(event, flow, round_, pairing, teams, template_dir, hands, points, code=code)
        if sum(p.height + p.after for p in card) > flow.top - flow.bottom:  # long names: closer, still one sheet
            card = _card(event, flow, round_, pairing, teams, template_dir, hands, points, code=code, gap=0.3 * mm)
        pieces += [flow.page_break(), *card]
    title = f"{event.title} 第{round_.number}轮计分卡" if round_ is not None else f"{event.title} 空白计分卡"
    return flow.pdf(pieces, title=title, invariant=invariant)


def draw_sheet_pdf(
    event: Event,
    round_: Round,
    teams: Mapping[str, Team],
    *,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
    apart: str = "",
    field: Field | None = None,
) -> bytes:
    """对阵表 for the wall: every table with both teams and players in large print, the byes, an index 组号 →
    桌号 in number order, and the seed (or which 签号 met which) that staff can check the draw by, and `apart`, the line saying which units and
    seeds the draw kept apart (`DrawReport.apart`; blank: none), and round 1's check-in (`field`: the pairs 弃权
    and the reserves who came in). No command
    or path: `draw` prints those in the terminal."""
    title = round_title(round_.number, len(round_.pool))
    extra = {
        **team_context(teams),
        "round_title": title,
        "number": round_.number,
        "pairings": round_.pairings,
        "byes": round_.byes,
        "index": table_index(round_),
        "lot_plan": round_.lot_plan.text,
        "seed": round_.seed,
        "lots": bool(round_.lots),
        "lot": dict(round_.lots),
        "apart": apart,
        "absent": field.absent if field is not None else (),
        "reserves_in": field.reserves_in if field is not None else (),
    }
    fonts = fonts or choose_fonts(event.print.font)
    return flow_pdf(render("draw_sheet.j2", event, template_dir, extra), fonts, sizes(event),
                    title=f"{event.title} 第{round_.number}轮对阵表", running=f"{title}　对阵表", invariant=invariant)


BYE = "轮空"


def table_index(round_: Round) -> list[tuple[str, str]]:
    """(组号, 桌号) of every team of the round in number order; a bye's table is 轮空."""
    tables = {team: str(p.table) for p in round_.pairings for team in (p.a, p.b)}
    tables.update({team: BYE for team in round_.byes})
    return [(canonical_id(team), tables[team]) for team in in_order(tables)]


def playoff_slip_pdf(
    event: Event,
    results: RoundResults,
    table: TableRecord,
    *,
    workbook: str = "",
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """加赛单 for a table tied when time was up, for the referee: the table and the tied level large, both teams
    with the level track (the tied level ringed), who deals first, rows for 加赛 hands, the points table and its
    key, the result row and signatures. Nothing for the computer operator (`score` tells them in the terminal);
    `workbook` is offered to a template that wants it."""
    if (playoff := table.playoff) is None:
        raise ValueError(f"table {table.table} does not need a playoff")
    flow = Flow(fonts or choose_fonts(event.print.font), sizes(event), footer=False)
    fonts = flow.fonts
    extra = {**team_context(results.teams), "round_title": results.title, "t": table, "workbook": workbook}
    rows = hand_rows_grid(fonts, regular=0, playoff=SLIP_ROWS, first_playoff=playoff.played + 1)
    pairing = Pairing(table.table, table.a, table.b)
    gap = flow.space(2 * mm)

    def head(args: tuple[str, ...]) -> list[Piece]:
        big, level, dealer = (*args, "", "", "")[:3]
        top = _big_line(fonts, [big, level])
        sides = sides_grid(fonts, event.rules, pairing, results.teams, mark=playoff.level)
        lines = flow.lines(break_lines(fonts, dealer, SLIP_LINE, [WIDTH]), SLIP_LINE, 1.3, after=2) if dealer else None
        return [top, gap, _piece(sides, fonts), gap, *([lines] if lines else [])]

    inserts: dict[str, Insert] = {
        "加赛": head,
        "加赛记录": lambda _: [gap, _piece(rows, fonts), gap],
        "得分表": lambda _: [_piece(points_grid(fonts, event.rules), fonts), gap],
        "结果": lambda headings: [_piece(result_grid(fonts, headings), fonts), gap],
    }
    pieces = flow.markup(render("playoff_slip.j2", event, template_dir, extra), inserts, compact=True,
                         title_size=SLIP_TITLE)  # the title its largest text
    return flow.pdf(pieces, title=f"{event.title} 第{results.number}轮第{table.table}桌加赛单", invariant=invariant)


def _big_line(fonts: FontSet, texts: Sequence[str]) -> Piece:
    """Words in large type side by side, each in an equal share of the width (the slip's 第N桌 and tied level)."""
    texts = [t for t in texts if t]
    share = WIDTH / max(len(texts), 1)
    size = SLIP_BIG
    while size > CARD_TEXT and any(fonts.width(t, size) > share - 2 * CARD_PADDING for t in texts):
        size -= 1
    leading = size * 1.25

    def draw(canvas, top: float) -> None:
        for i, text in enumerate(texts):
            fonts.draw(canvas, LEFT + share * (i + 0.5), baseline(top, leading, size), text, size, align=Align.CENTRE)

    return Piece(leading, draw, after=2, text=tuple((t,) for t in texts))
