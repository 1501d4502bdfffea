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
CHART_ROOM = 0.8  # of a page's text frame: a piece of the turned chart, below the part's heading on its first page


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
    until the rest fits."""
    room = (flow.top - flow.bottom) * CHART_ROOM
    tiles = chart_tiles(chart, flow.fonts, room, WIDTH)
    if tiles.scale == 1.0:  # a small field: as large as the page takes across, up to CHART_LARGEST
        tiles = chart_tiles(chart, flow.fonts, room, WIDTH, min(CHART_LARGEST, tiles.size * room / tiles.width))
    if tiles.size >= CHART_SIZE or len(chart.columns) < 3:
        return _tile_pieces(tiles, room, centred=len(tiles.starts) == 1)
    parts: list[Tiles] = []
    spans: list[str] = []
    rest = chart
    while (last := chart_tiles(rest, flow.fonts, room, WIDTH, CHART_SIZE)).scale < 1.0 and len(rest.columns) > 2:
        across = min(columns_across(rest, flow.fonts, room, CHART_SIZE), len(rest.columns) - 1)
        parts.append(chart_tiles(rest, flow.fonts, room, WIDTH, CHART_SIZE, columns=across))
        spans.append(f"{rest.columns[0].title}至{rest.columns[across - 1].title}")
        rest = later_rounds(rest, across - 1)
    spans.append(f"{rest.columns[0].title}至{rest.columns[-1].title}")
    note = SPLIT_NOTE.format(count=_COUNTS.get(len(spans), str(len(spans))), spans="、".join(spans))
    return [*flow.note(note), *(piece for part in parts for piece in _tile_pieces(part, room)),
            *_tile_pieces(last, room, centred=len(last.starts) == 1)]


def _tile_pieces(tiles: Tiles, room: float, *, centred: bool = False) -> list[Piece]:
    m = tiles.measure
    across = min(WIDTH, (m.size * LINE + m.content) * tiles.scale)  # a chart on one page is centred across it
    top = WIDTH - (WIDTH - across) / 2 if centred else WIDTH
    pieces = []
    for k in range(len(tiles.starts)):
        def draw(canvas: Canvas, y: float, k: int = k) -> None:
            canvas.saveState()
            canvas.translate(LEFT + WIDTH, y - room)  # turned a quarter left: the chart's top at the page's left
            canvas.rotate(90)
            draw_tile(canvas, tiles, k, 0.0, top)
            canvas.restoreState()

        pieces.append(Piece(room, draw, text=((f"晋级图 {k + 1}/{len(tiles.starts)}",),)))
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
