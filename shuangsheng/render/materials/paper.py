"""The day's own paper: 计分卡 (score cards) and 加赛单 (playoff slips); the 对阵表 (draw sheet) is
`shuangsheng.render.materials.draw_sheet`, the round results `shuangsheng.render.materials.results`.

Each `*_pdf` function takes domain objects (a drawn `Round`, `RoundResults`, teams, the `Event`) and returns PDF
bytes; nothing is recomputed here. Wording comes from `shuangsheng/render/templates/*.j2` (an event folder's own `templates/` wins).
The score card's hand columns are the workbook's (`shuangsheng.storage.workbook.schema.HAND_COLUMNS`): one definition, two
renderers. A card is one sheet printed on both sides: the card (teams and level track, hand table, result row,
signatures) and on its back the points table in force and the key; every cell keeps its text `PAD` (1.5 mm) clear
of its rules. The card's tables are `Grid`s drawn on the canvas; the hand table and the points table, the same on
every card, once into a form that each page places. `shuangsheng.usecases.papers.draw` puts the files into the
event folder.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm

from shuangsheng.game.levels import LABELS, Level
from shuangsheng.game.rules import STEP, NegativePoints, RuleSet
from shuangsheng.knockout.knockout import Pairing, Round, round_title
from shuangsheng.knockout.teams import Team, team_name
from shuangsheng.render.materials.card_grid import (
    CARD_LEFT,
    CARD_TEXT,
    CARD_WIDTH,
    LEADING,
    PAD,
    Grid,
    Stamps,
    Text,
    cell_text,
    grid_piece,
    ringed_width,
    row_height,
    signature_grid,
    stamp,
    stamped,
    stamped_rows,
    team_lines,
)
from shuangsheng.render.materials.conventions import team_context
from shuangsheng.render.materials.flow import LEFT, WIDTH, Flow, Insert, Piece, baseline, sizes
from shuangsheng.render.materials.fonts import Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import INK, break_lines
from shuangsheng.render.materials.wording import NEGATIVE_LOW, Block, BlockKind, render, signed_points
from shuangsheng.render.results import RoundResults
from shuangsheng.storage.event import Event
from shuangsheng.storage.workbook.schema import (
    COLUMN_BY_FIELD,
    HAND_COLUMNS,
    NOTE_LABEL,
    NUMBER_LABEL,
    PLAYOFF_PREFIX,
    SIDE_MARKS,
    YES_MARK,
)
from shuangsheng.table.record import TableRecord

# --- the score card's layout -----------------------------------------------------------------------------------

REGULAR_ROWS = 16  # hand rows on a card (at least 16 regular and 4 加赛 rows)
PLAYOFF_ROWS = 4
SLIP_ROWS = 10  # 加赛 rows on a playoff slip
SLIP_BIG = 26.0  # the slip's table and tied level
SLIP_TITLE = 30.0  # the slip's title: its largest text
SLIP_LINE = 18.0  # the slip's line saying who deals first
LINE_TO_RULE = 2 * mm  # below a line of text standing over a grid (the slip's key over its result box): its em box
# ends this far above the grid's rule, and a little more
SLIP_KEY = "各格的填法见计分卡背面。"  # the slip is one page: its key is the card's
PEN_ROW = 9.02 * mm  # rows meant for a pen: at least 9 mm
RESULT_BOX = 12.1 * mm  # the boxes 胜方 and 终局级数 are written in: at least 12 mm each way
GROUP = 4  # a heavier rule every GROUP hand rows, so the eye keeps its row
LEVELS_HEAD = "级数"  # over both sides' level after each hand, the columns after the workbook's
MUST_PLAY = "必打"  # over each must-play level of the track
BAND_GAP = PAD + 1.5  # below the band of 必打 and 录分码 over the track: the same room as in a cell
BACK = "背面"
SIGN_ON_BACK = "签名栏在背面"  # on a card set `Fit.BARE`, beside its 录分码
BACK_TEXT = 14.0  # the back of the card has room: its points table and key in larger type


@dataclass(frozen=True)
class CardColumn:
    """A column of the card's hand table: its header `label` (under `group` when it shares one with its
    neighbours), the workbook cell it is typed into (`source`: a hand column's label, or for the four tick boxes the
    违规 value it stands for), and whether it is a box to tick."""

    label: str
    source: str
    group: str = ""
    tick: bool = False


def card_columns() -> tuple[CardColumn, ...]:
    """The card's hand columns: exactly the workbook's (shuangsheng.storage.workbook.schema.HAND_COLUMNS) in order,
    违规 as one tick box per offence, then both sides' level after the hand."""
    out: list[CardColumn] = []
    for column in HAND_COLUMNS:
        tick = column.field == "offense"  # one box per offence (rules 十三 and 十四; docs/workbooks.md)
        sources = column.choices if tick else (column.label,)
        heads = column.card or (("", column.label),)
        out += [CardColumn(label, source, group, tick) for source, (group, label) in zip(sources, heads, strict=True)]
    out += [CardColumn(side, LEVELS_HEAD, LEVELS_HEAD) for side in SIDE_MARKS]
    return tuple(out)


def card_labels() -> tuple[str, ...]:
    """Each card column's header in full: its group's label and its own ("罚张上"), or its own."""
    return tuple(f"{c.group}{c.label}" if c.group else c.label for c in card_columns())


def _head_lines(label: str) -> list[str]:
    """A header on one line, or a four-character one on two (台下/得分): never a character alone."""
    return [label[:2], label[2:]] if len(label) == 4 else [label]


def card_widths(fonts: FontSet, total: float = CARD_WIDTH) -> list[float]:
    """Each hand column as wide as its header (and its printed contents) with `PAD` either side, a group's
    columns together as wide as the group's label; what is left of `total` goes to 备注."""
    columns = card_columns()
    contents = [f"{PLAYOFF_PREFIX}{SLIP_ROWS}", str(REGULAR_ROWS), YES_MARK]  # 加10: a slip's rows go on

    def least(c: CardColumn) -> float:
        texts = _head_lines(c.label) + (contents if c.source in (NUMBER_LABEL, COLUMN_BY_FIELD["playoff"].label)
                                        else [])
        return max(fonts.width(t, CARD_TEXT) for t in texts) + 2 * PAD + 0.5

    widths = [least(c) for c in columns]
    for group in dict.fromkeys(c.group for c in columns if c.group):
        members = [i for i, c in enumerate(columns) if c.group == group]
        short = fonts.width(group, CARD_TEXT) + 2 * PAD + 0.5 - sum(widths[i] for i in members)
        for i in members:
            widths[i] += max(short, 0.0) / len(members)
    spare = total - sum(widths)
    if spare < 0:  # a font wider than the usual Chinese faces: everything in proportion
        return [w * total / sum(widths) for w in widths]
    note = next(i for i, c in enumerate(columns) if c.source == NOTE_LABEL)
    widths[note] += spare
    return widths


# --- pieces of the card ----------------------------------------------------------------------------------------


SIDE_LABEL_SIZE = 14.0


def level_widths(fonts: FontSet) -> list[float]:
    """The level track's boxes: each as wide as the widest single label with its padding, "10" as its own."""
    one = max(fonts.width(label, CARD_TEXT) for label in LABELS if len(label) == 1) + 2 * PAD + 0.5
    return [max(one, fonts.width(label, CARD_TEXT) + 2 * PAD + 0.5) for label in LABELS]


def sides_grid(fonts: FontSet, rules: RuleSet, pairing: Pairing | None, teams: Mapping[str, Team],
               headings: Sequence[str] = (), *, digits: int, mark: Level | None = None) -> Grid:
    """甲方 / 乙方: 组号 and players (shrunk or wrapped to fit), and a level track 2 … A per side with the
    must-play levels shaded and framed (labelled by `must_play_labels`); `headings` (from the template) head the
    team column and the level track; `mark`: a level ringed on both sides' track (the level a playoff starts
    from); each 组号 `digits` wide (the event's width)."""
    label_width = fonts.width("甲方", SIDE_LABEL_SIZE) + 2 * PAD + 0.5
    boxes = level_widths(fonts)
    if mark is not None:  # the ringed level's box holds its ring clear of the rules
        boxes[list(Level).index(mark)] = max(boxes[list(Level).index(mark)], ringed_width(fonts, mark.label))
    team_width = CARD_WIDTH - label_width - sum(boxes)
    grid = Grid([label_width, team_width, *boxes], [])
    if headings:
        first, second = (list(headings) + ["", ""])[:2]
        grid.cells[(0, 1)] = cell_text(fonts, first, team_width, align=Align.LEFT)
        grid.cells[(0, 2)] = cell_text(fonts, second, sum(boxes), align=Align.LEFT)
        grid.spans[(0, 2)] = len(LABELS)
        grid.heights.append(row_height([grid.cells[(0, 1)], grid.cells[(0, 2)]], PEN_ROW))
    top = len(grid.heights)
    for r, (side_label, team_id) in enumerate((("甲方", pairing.a if pairing else None),
                                               ("乙方", pairing.b if pairing else None)), start=top):
        inner = team_width - 2 * PAD
        who = None
        if team_id is None:
            size, lines = 15.0, ["第＿＿组　　队员："]
        else:
            who = f"{team_name(team_id, digits)}的队员"
            team = teams.get(team_id)
            size, lines = team_lines(fonts, team_name(team_id, digits), team.players if team else (), inner, who=who)
        grid.cells[(r, 0)] = cell_text(fonts, side_label, label_width, size=SIDE_LABEL_SIZE)
        grid.cells[(r, 1)] = Text(tuple(lines), size, Align.LEFT, who)
        grid.heights.append(row_height([grid.cells[(r, 1)], grid.cells[(r, 0)]], PEN_ROW))
        for c, label in enumerate(LABELS, start=2):
            grid.cells[(r, c)] = Text((label,))
    for i, level in enumerate(Level):
        if level in rules.must_play:
            grid.shaded.append((top, 2 + i, top + 1, 2 + i))
            grid.boxed.append((top, 2 + i, top + 1, 2 + i))
        if level is mark:
            grid.ringed |= {(top, 2 + i), (top + 1, 2 + i)}
    return grid


def _label_rights(fonts: FontSet, rules: RuleSet, grid: Grid) -> list[float]:
    """Where each 必打 over a run of must-play levels of `grid`'s track ends: centred over its run, inside the card."""
    xs = [CARD_LEFT + sum(grid.widths[:i]) for i in range(len(grid.widths) + 1)]
    runs: list[list[int]] = []
    for i, level in enumerate(Level):
        if level in rules.must_play:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    half = fonts.width(MUST_PLAY, CARD_TEXT) / 2
    return [min((xs[2 + run[0]] + xs[3 + run[-1]]) / 2 + half, xs[-1]) for run in runs]


def labels_left(fonts: FontSet, rules: RuleSet, grid: Grid) -> float:
    """Where the first 必打 over `grid`'s track begins (the card's right edge when no level is must-play)."""
    rights = _label_rights(fonts, rules, grid)
    return min(rights) - fonts.width(MUST_PLAY, CARD_TEXT) if rights else CARD_LEFT + sum(grid.widths)


def must_play_labels(fonts: FontSet, rules: RuleSet, grid: Grid) -> Piece:
    """必打 over each run of must-play levels of the track of `grid` (a `sides_grid`), just above it: what the
    framed boxes mean, said where they are."""
    size = CARD_TEXT
    rights = _label_rights(fonts, rules, grid)

    def draw(canvas, top: float) -> None:
        canvas.setFillColor(INK)
        for right in rights:
            fonts.draw(canvas, right, baseline(top, size * LEADING, size), MUST_PLAY, size, align=Align.RIGHT)

    return Piece(size * LEADING + BAND_GAP, draw, text=tuple((MUST_PLAY,) for _ in rights))


def _head_cells(grid: Grid, columns: Sequence[CardColumn]) -> None:
    """The hand table's two header rows: a group's label over its columns' own, a column of no group in both."""
    c = 0
    while c < len(columns):
        column = columns[c]
        if not column.group:
            grid.cells[(0, c)] = Text(tuple(_head_lines(column.label)))
            grid.tall[(0, c)] = 2
            c += 1
            continue
        n = 1
        while c + n < len(columns) and columns[c + n].group == column.group:
            n += 1
        grid.cells[(0, c)] = Text((column.group,))
        grid.spans[(0, c)] = n
        grid.cells.update({(1, c + k): Text((columns[c + k].label,)) for k in range(n)})
        c += n


def hand_rows_grid(fonts: FontSet, *, regular: int, playoff: int, first_playoff: int = 1,
                   numbered: bool = True) -> Grid:
    """The hand table: the workbook's columns (`card_columns`: 违规 as a box to tick per offence), then both
    sides' level (what each takes is said on the back, `card_key`); `regular` numbered rows (unnumbered unless
    `numbered`: a spare or continuation card) and `playoff` rows 加1… with 加赛 prefilled “是”, each at least
    9 mm high for a pen, a heavier rule every four rows."""
    columns = card_columns()
    widths = card_widths(fonts)
    head = row_height([Text(("",))])
    grid = Grid(widths, [head, head])
    _head_cells(grid, columns)
    first = len(grid.heights)
    grid.heights += [PEN_ROW] * (regular + playoff)
    sources = [c.source for c in columns]
    playoff_col = sources.index(COLUMN_BY_FIELD["playoff"].label)
    number_col = sources.index(NUMBER_LABEL)
    for i in range(regular + playoff):
        if i < regular:
            if numbered:
                grid.cells[(first + i, number_col)] = Text((str(i + 1),))
        else:
            grid.cells[(first + i, number_col)] = Text((f"{PLAYOFF_PREFIX}{i - regular + first_playoff}",))
            grid.cells[(first + i, playoff_col)] = Text((YES_MARK,))
        grid.ticks |= {(first + i, c) for c, column in enumerate(columns) if column.tick}
    last = first + regular + playoff - 1
    grid.shaded += [(0, 0, first - 1, len(widths) - 1), (first, number_col, last, number_col)]
    grid.heavy_rows.add(first - 1)
    grid.heavy_rows |= {first + i - 1 for i in range(GROUP, regular, GROUP)}  # every four regular rows
    ticks = [c for c, column in enumerate(columns) if column.tick]
    grid.heavy_columns |= {ticks[0], ticks[-1] + 1, sources.index(LEVELS_HEAD)}
    if regular and playoff:
        grid.heavy_rows.add(first + regular - 1)
    return grid


def _ranges(rules: RuleSet) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The points → levels table in force as (台下得分, gain) pairs: the dealer-keeps rows (the negative totals
    included, or 'below 0 counts as 0' first), then the take-over rows."""
    clamp = rules.negative_points is NegativePoints.CLAMP
    rows = rules.points_table() if clamp else rules.points_table(low=NEGATIVE_LOW)

    def span(r) -> str:
        return signed_points(r.low) if r.low == r.high else f"{signed_points(r.low)}–{signed_points(r.high)}"

    def gain(r) -> str:
        return f"升{r.levels}级" if r.levels else "不升级"

    keeps = [(span(r), gain(r)) for r in rows if r.dealer_keeps]
    if clamp:
        keeps.insert(0, ("0以下按0", keeps[0][1]))
    return keeps, [(span(r), gain(r)) for r in rows if not r.dealer_keeps]


POINTS_HEADS = ("台下得分", "庄家保庄", "台下得分", "台下方上台")


def points_grid(fonts: FontSet, rules: RuleSet) -> Grid:
    """The points → levels table in force, whole and compact (a playoff slip's): a row of dealer-keeps ranges, a
    row of take-over ranges, each with the levels gained."""
    keeps, takes = _ranges(rules)
    columns = max(len(keeps), len(takes))
    label_width = fonts.width(POINTS_HEADS[3], CARD_TEXT) + 2 * PAD + 0.5
    cell = (CARD_WIDTH - label_width) / columns
    grid = Grid([label_width] + [cell] * columns, [])
    for label, group in ((POINTS_HEADS[1], keeps), (POINTS_HEADS[3], takes)):
        for texts in ([POINTS_HEADS[0], *(p for p, _ in group)], [label, *(g for _, g in group)]):
            row = len(grid.heights)
            cells = [cell_text(fonts, t, label_width if c == 0 else cell) for c, t in enumerate(texts)]
            grid.cells.update({(row, c): text for c, text in enumerate(cells)})
            grid.heights.append(row_height(cells))
    grid.shaded += [(0, 0, 0, columns), (2, 0, 2, columns)]
    grid.heavy_rows.add(1)
    return grid


def points_columns_grid(fonts: FontSet, rules: RuleSet, size: float) -> Grid:
    """The same table down the page in larger type (the card's back): 台下得分 and what the dealer keeps beside
    台下得分 and what the defenders take over with, one range a row."""
    keeps, takes = _ranges(rules)
    grid = Grid([CARD_WIDTH / 4] * 4, [])
    heads = [cell_text(fonts, head, CARD_WIDTH / 4, size=size) for head in POINTS_HEADS]
    grid.cells.update({(0, c): text for c, text in enumerate(heads)})
    grid.heights.append(row_height(heads))
    for r in range(max(len(keeps), len(takes))):
        texts = [*(keeps[r] if r < len(keeps) else ("", "")), *(takes[r] if r < len(takes) else ("", ""))]
        cells = [cell_text(fonts, t, CARD_WIDTH / 4, size=size) for t in texts]
        grid.cells.update({(r + 1, c): text for c, text in enumerate(cells)})
        grid.heights.append(row_height(cells))
    grid.shaded.append((0, 0, 0, 3))
    grid.heavy_rows.add(0)
    grid.heavy_columns.add(2)
    return grid


def beyond_the_table(rules: RuleSet) -> str:
    """The rule past either end of the points table."""
    low = "" if rules.negative_points is NegativePoints.CLAMP else f"低于{signed_points(NEGATIVE_LOW)}分或"
    return f"{low}超过{rules.points_table()[-1].high}分时，每差{STEP}分多升一级。"


def card_key(rules: RuleSet) -> tuple[str, ...]:
    """The card's key, on its back (and on the playoff slip): what each column and box takes (the workbook's
    填写说明 in brief), and what the framed levels of the track mean."""
    two = "；2只在开局时必打" if Level.TWO in rules.must_play else ""
    return (
        "庄家：坐庄的一方，填甲或乙；庄家级：庄家这一局打几就填几。",
        "分数：台下、底牌两格都填5的倍数，台下得分0分也写0。",
        "抠底倍数：台下方抠到底牌时填×2、×4、×8…，庄家保住底牌不填。",
        "级牌抠底：打J或A时台下方用这张级牌抠底，填“是”。",
        "罚张：台上方（上）、台下方（下）各罚几张，填张数。",
        "扣错底、出错牌：在犯规一方的格里打√，上为台上方，下为台下方。",
        "加赛：加赛局已印好“是”。级数：每局打完后，甲方、乙方各是几级。",
        "胜方：填甲或乙。终局级数：填双方最后的级数。",
        f"级数格里加粗框、标“{MUST_PLAY}”的是必打级{two}。",
    )


def result_grid(fonts: FontSet, headings: Sequence[str]) -> Grid:
    """The row at the foot of the card, the same on every card and slip: the start and end time (the template's
    words), 胜方 and a box to write it in, 终局级数 and a box for each side's, each box at least 12 mm square."""
    time, winner, final = (*headings, "", "", "")[:3]
    labels = [time, winner, "", final, "甲方", "", "乙方", ""]
    boxes = {2, 5, 7}
    widths = [RESULT_BOX if c in boxes else fonts.width(text, CARD_TEXT) + 2 * PAD + 0.5
              for c, text in enumerate(labels)]
    widths[0] += max(CARD_WIDTH - sum(widths), 0.0)
    if sum(widths) > CARD_WIDTH:  # long wording: the labels give way, the boxes keep their size
        scale = (CARD_WIDTH - RESULT_BOX * len(boxes)) / sum(w for c, w in enumerate(widths) if c not in boxes)
        widths = [w if c in boxes else w * scale for c, w in enumerate(widths)]
    grid = Grid(widths, [])
    cells = [cell_text(fonts, text, w, align=Align.LEFT if c == 0 else Align.CENTRE)
             for c, (text, w) in enumerate(zip(labels, widths, strict=True)) if c not in boxes]
    for c, cell in zip([c for c in range(len(labels)) if c not in boxes], cells, strict=True):
        grid.cells[(0, c)] = cell
    grid.heights.append(row_height(cells, RESULT_BOX))
    grid.shaded += [(0, 1, 0, 1), (0, 3, 0, 3)]
    grid.boxed += [(0, c, 0, c) for c in sorted(boxes)]
    return grid


# --- rendering from templates ----------------------------------------------------------------------------------


def _sides(fonts: FontSet, event: Event, pairing: Pairing | None, teams: Mapping[str, Team],
           headings: Sequence[str], code: str | None, *, digits: int, mark: Level | None = None,
           note: str = "") -> list[Piece]:
    """The sides grid with 必打 over its framed levels and, in the same band on the left, the table's 录分码 and
    `note` (where the signatures went); the band's text from the card's left rule when it would otherwise come
    within an em of the first 必打."""
    grid = sides_grid(fonts, event.rules, pairing, teams, headings, digits=digits, mark=mark)
    labels = must_play_labels(fonts, event.rules, grid)
    text = "　".join(t for t in (f"录分码 {code}" if code else "", note) if t)
    track = stamped_rows(grid, fonts, [len(grid.heights) - 2, len(grid.heights) - 1], 2)  # both sides' 2 … A
    if not text:
        return [labels, track]
    x = CARD_LEFT + grid.widths[0] + PAD
    if x + fonts.width(text, CARD_TEXT) + CARD_TEXT > labels_left(fonts, event.rules, grid):
        x = CARD_LEFT + PAD

    def draw(canvas, top: float) -> None:
        fonts.draw(canvas, x, baseline(top, CARD_TEXT * LEADING, CARD_TEXT), text, CARD_TEXT)

    band = Piece(0.0, draw, text=((text,),))  # beside the labels, in their band
    return [band, labels, track]


class Fit(enum.IntEnum):
    """How closely a card's front is set to stay on one page (names of many lines): `ROOMY`, with a little space
    between its parts; `CLOSE`, none (its lines' own leading apart); `LEAN`, and the lines between its title and
    the teams (the event's name) moved to the back, under its title; `BARE` (names of three lines on both sides),
    and the signature row moved there too, `SIGN_ON_BACK` saying so beside the 录分码. Every fit keeps the 录分码,
    the 必打 over the framed levels, and every pen row's height."""

    ROOMY = 0
    CLOSE = 1
    LEAN = 2
    BARE = 3


@dataclass(frozen=True)
class _Alike:
    """What every card of a document prints alike, laid out and drawn once: the hand rows, the points table and
    the key on the back, and the rows the template names (`stamps`: the result row, the signatures)."""

    points: Piece
    key: Piece
    stamps: Stamps


def _card(event: Event, flow: Flow, round_: Round | None, pairing: Pairing | None, teams: Mapping[str, Team],
          template_dir: Path | None, hand_rows: Piece, alike: _Alike, *, digits: int,
          code: str | None = None, fit: Fit = Fit.ROOMY) -> list[Piece]:
    """One card: its front as the template has it, and on the back of the sheet (a page of its own, printed
    double-sided) the points table and the key, wherever the template puts `@得分表`."""
    extra = {
        "blank": pairing is None,
        "round_title": round_title(round_.number, len(round_.pool)) if round_ else "",
        "table": pairing.table if pairing else "",
        "third_place": bool(pairing and pairing.third_place),
    }
    fonts = flow.fonts
    gap = 0.5 * mm if fit is Fit.ROOMY else 0.0
    back: list[Piece] = []
    signatures: list[Piece] = []  # the signature row, when the front has no room for it (`Fit.BARE`)

    def on_back(_: tuple[str, ...]) -> list[Piece]:
        back.extend([flow.space(3 * mm), alike.points, flow.space(2 * mm), alike.key])
        return []

    def sign(labels: tuple[str, ...]) -> list[Piece]:
        row = alike.stamps("signatures", labels, lambda: signature_grid(fonts, labels, PEN_ROW))
        if fit < Fit.BARE:
            return [row]
        signatures.extend([flow.space(3 * mm), row])
        return []

    note = SIGN_ON_BACK if fit >= Fit.BARE else ""
    inserts: dict[str, Insert] = {
        "对阵": lambda headings: [*_sides(fonts, event, pairing, teams, headings, code, digits=digits, note=note),
                                  flow.space(gap)],
        "记分": lambda _: [hand_rows, flow.space(gap)],
        "得分表": on_back,
        "结果": lambda headings: [alike.stamps("result", headings, lambda: result_grid(fonts, headings)), flow.space(gap)],
        "签名": sign,
    }
    blocks = render("score_card.j2", event, template_dir, extra)
    lead = next((i for i, b in enumerate(blocks) if b.kind is BlockKind.INSERT), 0)
    moved = [i for i in range(lead) if blocks[i].kind is not BlockKind.TITLE] if fit >= Fit.LEAN else []
    front = flow.markup([b for i, b in enumerate(blocks) if i not in moved], inserts, compact=True)
    if fit >= Fit.CLOSE:
        for piece in front:
            piece.after = 0.0
    if not back and not moved and not signatures:
        return front
    titles = [f"{line}　{BACK}" for block in blocks if block.kind is BlockKind.TITLE for line in block.lines]
    heading = [Block(BlockKind.TITLE, tuple(titles))] if titles else []
    return [*front, flow.page_break(), *flow.markup([*heading, *(blocks[i] for i in moved)], compact=True),
            *signatures, *back]


def key_pieces(flow: Flow, rules: RuleSet, size: float = 14.0) -> list[Piece]:
    """The key (`card_key`) as lines of text, each item its own paragraph, under the rule past the table's ends."""
    fonts = flow.fonts
    pieces = [flow.lines(break_lines(fonts, beyond_the_table(rules), size, [CARD_WIDTH]), size, 1.3, after=6,
                         x=CARD_LEFT, width=CARD_WIDTH)]
    pieces.append(flow.lines(["填法"], size + 2, 1.3, after=2, x=CARD_LEFT, width=CARD_WIDTH))
    for item in card_key(rules):
        lines = break_lines(fonts, item, size, [CARD_WIDTH - size, CARD_WIDTH - size])
        pieces.append(flow.lines(lines, size, 1.35, after=3, x=CARD_LEFT + size, width=CARD_WIDTH - size))
    return pieces


def score_cards_pdf(
    event: Event,
    round_: Round | None,
    teams: Mapping[str, Team],
    *,
    digits: int,
    blank: bool = True,
    codes: Mapping[int, str] | None = None,
    fonts: FontSet | None = None,
    template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """计分卡: one A4 sheet per table of `round_` (none for `round_` None), then a blank card if `blank` (备用／续页:
    its rows unnumbered); each sheet two pages, printed double-sided: the card, and on its back the points table
    and the key. `codes`: each table's 录分码 (shuangsheng.table.codes), printed above the team names when given;
    `digits`: how wide the 组号 are printed (the event's width, `EventFolder.digits`)."""
    flow = Flow(fonts or choose_fonts(event.print.font), sizes(event), footer=False)
    # The hand tables and the points table are the same on every card: laid out and drawn once.
    numbered = stamp("hand_rows", hand_rows_grid(flow.fonts, regular=REGULAR_ROWS, playoff=PLAYOFF_ROWS), flow.fonts)
    spare = stamp("spare_rows", hand_rows_grid(flow.fonts, regular=REGULAR_ROWS + PLAYOFF_ROWS, playoff=0,
                                                numbered=False), flow.fonts)
    alike = _Alike(points=stamp("points", points_columns_grid(flow.fonts, event.rules, BACK_TEXT), flow.fonts),
                   key=stamped("key", key_pieces(flow, event.rules)), stamps=Stamps(flow.fonts))
    pairings: list[Pairing | None] = list(round_.pairings) if round_ is not None else []
    pieces: list[Piece] = []
    least = Fit.ROOMY  # how closely the cards so far were set: the next starts there (the cards alike, each built once)
    for pairing in pairings + ([None] if blank else []):
        hands = numbered if pairing else spare
        code = (codes or {}).get(pairing.table) if pairing else None
        for fit in Fit:  # long names: set closer, still one sheet
            if fit < least:
                continue
            card = _card(event, flow, round_, pairing, teams, template_dir, hands, alike, digits=digits,
                         code=code, fit=fit)
            if _front_height(card) <= flow.top - flow.bottom:
                break
        least = max(least, min(fit, Fit.CLOSE))  # a card set LEAN or BARE (very long names) leaves the rest alone
        pieces += [flow.page_break(), *card]
    title = f"{event.title} 第{round_.number}轮计分卡" if round_ is not None else f"{event.title} 空白计分卡"
    return flow.pdf(pieces, title=title, invariant=invariant)


def _front_height(card: Sequence[Piece]) -> float:
    front = list(itertools.takewhile(lambda p: not p.new_page, card))
    return sum(p.height + p.after for p in front)


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
    extra = {**team_context(results.teams, results.digits), "round_title": results.title, "t": table, "workbook": workbook}
    rows = hand_rows_grid(fonts, regular=0, playoff=SLIP_ROWS, first_playoff=playoff.played + 1)
    pairing = Pairing(table.table, table.a, table.b)
    gap = flow.space(2 * mm)

    def head(args: tuple[str, ...]) -> list[Piece]:
        big, level, dealer = (*args, "", "", "")[:3]
        top = _big_line(fonts, [big, level])
        sides = _sides(fonts, event, pairing, results.teams, (), None, digits=results.digits, mark=playoff.level)
        lines = flow.lines(break_lines(fonts, dealer, SLIP_LINE, [WIDTH]), SLIP_LINE, 1.3, after=2) if dealer else None
        return [top, gap, *sides, gap, *([lines] if lines else [])]

    inserts: dict[str, Insert] = {
        "加赛": head,
        "加赛记录": lambda _: [gap, grid_piece(rows, fonts), gap],
        "得分表": lambda _: [grid_piece(points_grid(fonts, event.rules), fonts), gap,
                             flow.lines([beyond_the_table(event.rules) + SLIP_KEY], CARD_TEXT, 1.3, after=LINE_TO_RULE,
                                        x=CARD_LEFT, width=CARD_WIDTH)],
        "结果": lambda headings: [grid_piece(result_grid(fonts, headings), fonts), gap],
        "签名": lambda labels: [grid_piece(signature_grid(fonts, labels, PEN_ROW), fonts)],
    }
    pieces = flow.markup(render("playoff_slip.j2", event, template_dir, extra), inserts, compact=True,
                         title_size=SLIP_TITLE)  # the title its largest text
    return flow.pdf(pieces, title=f"{event.title} 第{results.number}轮第{table.table}桌加赛单", invariant=invariant)


def _big_line(fonts: FontSet, texts: Sequence[str]) -> Piece:
    """Words in large type side by side, each in an equal share of the width (the slip's 第N桌 and tied level)."""
    texts = [t for t in texts if t]
    share = WIDTH / max(len(texts), 1)
    size = SLIP_BIG
    while size > CARD_TEXT and any(fonts.width(t, size) > share - 2 * PAD for t in texts):
        size -= 1
    leading = size * 1.25

    def draw(canvas, top: float) -> None:
        for i, text in enumerate(texts):
            fonts.draw(canvas, LEFT + share * (i + 0.5), baseline(top, leading, size), text, size, align=Align.CENTRE)

    return Piece(leading, draw, after=2, text=tuple((t,) for t in texts))
