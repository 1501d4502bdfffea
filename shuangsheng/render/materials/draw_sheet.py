"""对阵表 (the draw sheet for the wall): every table with both teams and players in large print, the byes, the index
组号 → 桌号, the seed or the paper lots, what the draw kept apart and round 1's check-in. Takes the drawn `Round`
and returns PDF bytes; wording from `shuangsheng/render/templates/draw_sheet.j2`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from shuangsheng.knockout.checkin import Field
from shuangsheng.knockout.knockout import Round, round_title
from shuangsheng.knockout.teams import Team, shown_id
from shuangsheng.render.materials.conventions import in_order, team_context
from shuangsheng.render.materials.flow import ROOM, Flow, is_lead_in, sizes
from shuangsheng.render.materials.fonts import FontSet, choose_fonts
from shuangsheng.render.materials.wording import Block, render
from shuangsheng.storage.event import Event


def draw_sheet_pdf(
    event: Event,
    round_: Round,
    teams: Mapping[str, Team],
    *,
    digits: int,
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
    fonts = fonts or choose_fonts(event.print.font)
    flow = Flow(fonts, sizes(event))
    return flow.pdf(flow.markup(draw_sheet_blocks(event, round_, teams, digits=digits, flow=flow,
                                                  template_dir=template_dir, apart=apart, field=field)),
                    title=f"{event.title} 第{round_.number}轮对阵表", running=f"{title}　对阵表", invariant=invariant)


def draw_sheet_blocks(event: Event, round_: Round, teams: Mapping[str, Team], *, digits: int, flow: Flow | None = None,
                      template_dir: Path | None = None, apart: str = "", field: Field | None = None) -> list[Block]:
    """The draw sheet's wording rendered (its PDF, and the 秩序册's first draw), each 组号 `digits` wide (the
    event's width, `EventFolder.digits`). With the `flow` it is laid out in, the index 组号 → 桌号 takes more
    pairs a row (`INDEX_PAIRS`, the template setting them a size smaller) where fewer would not put it whole on
    one page and more do."""
    tried = (_rendered(event, round_, teams, digits, template_dir, apart, field, pairs) for pairs in INDEX_PAIRS)
    first = next(tried)
    if flow is None or _index_fits(flow, first):
        return first
    return next((blocks for blocks in tried if _index_fits(flow, blocks)), first)


def _index_fits(flow: Flow, blocks: list[Block]) -> bool:
    """Whether the document's last group (the index under its caption) fits whole on a continuation page, every
    cell of it on one line."""
    lead = max((k for k, block in enumerate(blocks) if is_lead_in(block)), default=0)
    pieces = flow.markup(blocks[lead:])  # from the last lead-in on (the index's caption): the rest is not measured
    group = pieces[-1].group if pieces else None
    if group is None:
        return True
    index = [piece for piece in pieces if piece.group == group]
    height = sum(piece.height + piece.after for piece in index) - index[-1].after
    one_line = all(len(cell) <= 1 for piece in index if piece.table is not None for cell in piece.text)
    return one_line and height <= ROOM - flow.head_height()


def _rendered(event: Event, round_: Round, teams: Mapping[str, Team], digits: int, template_dir: Path | None,
              apart: str, field: Field | None, pairs: int) -> list[Block]:
    extra = {
        **team_context(teams, digits),
        "round_title": round_title(round_.number, len(round_.pool)),
        "number": round_.number,
        "pairings": round_.pairings,
        "byes": round_.byes,
        "index": table_index(round_, digits),
        "index_pairs": pairs,
        "lot_plan": round_.lot_plan.text,
        "seed": round_.seed,
        "lots": bool(round_.lots),
        "lot": dict(round_.lots),
        "apart": apart,
        "absent": field.absent if field is not None else (),
        "reserves_in": field.reserves_in if field is not None else (),
    }
    return render("draw_sheet.j2", event, template_dir, extra)


BYE = "轮空"
INDEX_PAIRS = (4, 5, 6)  # 组号–桌号 pairs a row of the index, as few as put it whole on one page (draw_sheet.j2: 18, 16, 14 pt)


def table_index(round_: Round, digits: int = 2) -> list[tuple[str, str]]:
    """(组号, 桌号) of every team of the round in number order, each 组号 `digits` wide; a bye's table is 轮空."""
    tables = {team: str(p.table) for p in round_.pairings for team in (p.a, p.b)}
    tables.update({team: BYE for team in round_.byes})
    return [(shown_id(team, digits), tables[team]) for team in in_order(tables)]
