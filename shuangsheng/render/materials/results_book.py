"""成绩册 (the results booklet filed after the event): a cover, 目录, the prizes, every round's results as 第N轮成绩
prints them (levels, winners, 加赛, walkovers, lost cards marked 未逐局核对: the records `score` built, never
recomputed), the bracket scaled to A4 and turned sideways, the certificates with their numbers, and the officials.
Takes the chart, the rounds' results and the event and returns PDF bytes; the parts come from `results_book.j2`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from shuangsheng.knockout.bracket import Bracket
from shuangsheng.knockout.teams import shown_id
from shuangsheng.render.materials.announcement import award_date_text, prize_pieces
from shuangsheng.render.materials.booklet import OFFICIALS, Part, booklet_pdf, officials_part, plan, title_of
from shuangsheng.render.materials.bracket_chart import LINE, Tiles, chart_tiles, columns_across, draw_tile, later_rounds
from shuangsheng.render.materials.certificates import certificate_number, certificates
from shuangsheng.render.materials.flow import LEFT, WIDTH, Flow, Piece, sizes
from shuangsheng.render.materials.fonts import FontSet, choose_fonts
from shuangsheng.render.materials.page import Cell
from shuangsheng.render.materials.results import round_results_blocks
from shuangsheng.render.materials.wording import MaterialsError, render
from shuangsheng.render.results import RoundResults
from shuangsheng.storage.event import Event

CHART_LARGEST = 16.0  # points: a small field's chart is not set larger than this
CHART_SIZE = 10.0  # points: the chart's text as printed, at least (nothing printed is smaller)
SPLIT_NOTE = "组数多，晋级图分{count}部分印：{spans}（交界的一轮前后两部分都有）。"
_COUNTS = {2: "两", 3: "三", 4: "四", 5: "五", 6: "六"}
ORDINALS = "一二三四五六七八九"  # 第一部分, 第二部分, …
CHART_ROOM = 0.8  # of a page's text frame: a piece of the turned chart, below the part's heading on its first page
CAPTION = 12.0  # points: the line above each page of a chart over several pages, naming its part and page
CAPTION_LEADING = 1.6
RULE = 2.0  # points: room for the boxes' outer rules at the turned chart's edge


def results_book_pdf(chart: Bracket, rounds: Sequence[RoundResults], event: Event, *, day: dt.date | None,
                     per_player: bool = False, replaced: Mapping[str, Sequence[str]] | None = None,
                     fonts: FontSet | None = None, template_dir: Path | None = None, invariant: bool = False) -> bytes:
    """成绩册 of a finished event: `rounds` are the rounds' results as `score` recorded them, in order."""
    if not chart.placings.complete:
        raise MaterialsError(["比赛尚未结束，名次还不完整，不能打印成绩册"])
    flow = Flow(fonts or choose_fonts(event.print.font), sizes(event))
    makers = {
        "获奖名单": lambda args: Part(title_of(args, "获奖名单"), prize_pieces(flow, chart)),
        "各轮成绩": lambda args: rounds_part(flow, event, rounds, title_of(args, "各轮成绩"), template_dir),
        "晋级图": lambda args: Part(title_of(args, "晋级图"), chart_pieces(flow, chart)),
        "证书名单": lambda args: Part(title_of(args, "荣誉证书名单"),
                                  certificate_pieces(flow, chart, event, day, per_player, replaced)),
        OFFICIALS: lambda args: officials_part(flow, event.officials, args),
    }
    wording = render("results_book.j2", event, template_dir, {"date": award_date_text(event, day)})
    cover, parts = plan(flow, wording, makers)
    return booklet_pdf(flow, cover, parts, invariant=invariant)


def rounds_part(flow: Flow, event: Event, rounds: Sequence[RoundResults], title: str,
                template_dir: Path | None) -> Part:
    """Every round as 第N轮成绩 prints it (without its 下一步 line), each an entry of the 目录."""
    pieces: list[Piece] = []
    entries: list[tuple[Piece, str]] = []
    for results in rounds:
        laid = flow.markup(round_results_blocks(event, results, workbook="", template_dir=template_dir,
                                                booklet=True))
        if laid:
            entries.append((laid[0], results.title))
        pieces += [*laid, flow.space(flow.sizes.body * 1.2)]
    return Part(title, pieces, entries)


def chart_pieces(flow: Flow, chart: Bracket) -> list[Piece]:
    """The bracket turned sideways on the page (its top at the page's left), one piece a page; a tall chart over
    several pages, overlapping by a few lines. A chart too wide for the page at `CHART_SIZE` is shown in parts:
    its first rounds at that size over as many pages as they take, then the later rounds (from the last round of
    the part before, which both show) closed up, as many rounds as the page takes across at that size, and so on
    until the rest fits. A chart over more than one page says on each which part and page it is."""
    room = (flow.top - flow.bottom) * CHART_ROOM
    whole = _whole(flow, chart, room)
    if len(whole.starts) == 1 and whole.size >= CHART_SIZE:  # on one page, under the part's heading alone
        return _tile_pieces(flow, whole, room, "", centred=True)
    across = room - CAPTION * CAPTION_LEADING  # the caption's line above the turned chart
    tiles = _whole(flow, chart, across)
    if tiles.size >= CHART_SIZE or len(chart.columns) < 3:
        return _tile_pieces(flow, tiles, room, "晋级图", centred=len(tiles.starts) == 1)
    parts: list[Tiles] = []
    spans: list[str] = []
    rest = chart
    while (last := chart_tiles(rest, flow.fonts, across, WIDTH, CHART_SIZE)).scale < 1.0 and len(rest.columns) > 2:
        shown = min(columns_across(rest, flow.fonts, across, CHART_SIZE), len(rest.columns) - 1)
        parts.append(chart_tiles(rest, flow.fonts, across, WIDTH, CHART_SIZE, columns=shown))
        spans.append(f"{rest.columns[0].title}至{rest.columns[shown - 1].title}")
        rest = later_rounds(rest, shown - 1)
    spans.append(f"{rest.columns[0].title}至{rest.columns[-1].title}")
    count = _COUNTS.get(len(spans), str(len(spans)))
    note = SPLIT_NOTE.format(count=count, spans="、".join(spans))
    named = [f"晋级图第{ORDINALS[k - 1] if k <= len(ORDINALS) else k}部分：{span}" for k, span in enumerate(spans, 1)]
    return [*flow.note(note), *(piece for part, name in zip(parts, named, strict=False)
                                for piece in _tile_pieces(flow, part, room, name)),
            *_tile_pieces(flow, last, room, named[-1], centred=len(last.starts) == 1)]


def _whole(flow: Flow, chart: Bracket, across: float) -> Tiles:
    """The whole chart `across` the turned page: scaled down to it, or for a small field as large as it takes,
    up to CHART_LARGEST."""
    tiles = chart_tiles(chart, flow.fonts, across, WIDTH)
    if tiles.scale == 1.0:
        tiles = chart_tiles(chart, flow.fonts, across, WIDTH, min(CHART_LARGEST, tiles.size * across / tiles.width))
    return tiles


def _tile_pieces(flow: Flow, tiles: Tiles, room: float, name: str, *, centred: bool = False) -> list[Piece]:
    """The tiles, one a page, each under its caption: `name` (none when empty: the chart on one page), and which
    of its pages it is when there are more than one."""
    m = tiles.measure
    across = min(WIDTH, (m.size * LINE + m.content) * tiles.scale)  # a chart on one page is centred across it
    top = WIDTH - (WIDTH - across) / 2 if centred else WIDTH
    count = len(tiles.starts)
    pieces = []
    for k in range(count):
        caption = f"{name}　第{k + 1}张，共{count}张" if count > 1 else name  # 张: not the book's 第N页 共M页

        def draw(canvas: Canvas, y: float, k: int = k, caption: str = caption) -> None:
            below = y
            if caption:
                flow.fonts.draw(canvas, LEFT, y - CAPTION, caption, CAPTION)
                below -= CAPTION * CAPTION_LEADING
            canvas.saveState()
            # turned a quarter left: the chart's top at the page's left, its first round under the caption's line
            canvas.translate(LEFT + WIDTH, below - tiles.width * tiles.scale - RULE)
            canvas.rotate(90)
            draw_tile(canvas, tiles, k, 0.0, top)
            canvas.restoreState()

        pieces.append(Piece(room, draw, text=((caption or f"晋级图 {k + 1}/{count}",),)))
    return pieces


def certificate_pieces(flow: Flow, chart: Bracket, event: Event, day: dt.date | None, per_player: bool,
                       replaced: Mapping[str, Sequence[str]] | None) -> list[Piece]:
    """Every certificate `awards` prints, in its order, with its number, prize, 组号 and names."""
    digits = chart.digits  # the event's one width
    rows: list[list[Cell | str]] = [["证书编号", "奖项", "组号", "获奖者"]]
    for k, cert in enumerate(certificates(chart.placings, chart.teams, per_player=per_player, replaced=replaced), 1):
        names = "、".join(cert.names) + (f"（曾参赛：{'、'.join(cert.also)}）" if cert.also else "")
        rows.append([certificate_number(event, day, k), cert.prize, shown_id(cert.team, digits),
                     Cell(names, f"第{cert.team}组的队员")])
    return flow.table(rows, [0.22, 0.18, 0.14, 0.46])
