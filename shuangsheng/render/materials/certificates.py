"""荣誉证书, the certificates of the end of the event: one per prize-winning team, or one per player.

`certificates_pdf` takes the placings, the teams and the event and returns PDF bytes; nothing here decides a result.
Wording comes from `shuangsheng/render/templates/certificate.j2` (an event folder's own `templates/` wins).

The certificate (A4 landscape, to be framed) is set in a formal face (楷, else 宋) when the PC has one: a line the
face cannot set whole (the recipients' names: the whole line) is set whole in the main font. It has a red title, a
red-and-gold border, a number (in the main font, whose digits are the papers'), the event's date (or month) and room for the seal over the organiser's name, with
nothing printed there."""

from __future__ import annotations

import datetime as dt
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.knockout.placings import Placings
from shuangsheng.knockout.teams import Team, team_name
from shuangsheng.render.materials.announcement import award_date_text
from shuangsheng.render.materials.conventions import event_width, prize_rows
from shuangsheng.render.materials.fonts import Align, FontSet, FontSpec, choose_fonts, choose_formal
from shuangsheng.render.materials.page import INK, MARGIN, break_lines
from shuangsheng.render.materials.wording import Block, BlockKind, MaterialsError, check_kinds, render
from shuangsheng.storage.event import Event


@dataclass(frozen=True)
class Certificate:
    """One certificate: the prize and who receives it (a team's two players, or one player)."""

    prize: str
    team: str
    names: tuple[str, ...]
    also: tuple[str, ...] = ()  # players replaced mid-event who played for the pair before (named besides)


def certificates(placings: Placings, teams: Sequence[Team], *, per_player: bool = False,
                 replaced: Mapping[str, Sequence[str]] | None = None) -> tuple[Certificate, ...]:
    """One per prize-winning team (一等奖, 二等奖, each 三等奖), or one per player of those teams. `teams` are the pairs
    as they finished; `replaced`, by team, the players who played for a pair and were replaced mid-event: a team's
    certificate names them besides, and with `per_player` each gets one too."""
    by_id = {t.id: t for t in teams}
    replaced = replaced or {}
    out = []
    for prize, team_id in prize_rows(placings):
        if team_id is None:
            continue
        players = by_id[team_id].players if team_id in by_id else ()
        also = tuple(replaced.get(team_id, ()))
        if per_player:
            out += [Certificate(prize, team_id, (name,)) for name in (*players, *also)]
        else:
            out.append(Certificate(prize, team_id, tuple(players), also))
    return tuple(out)


TITLE_SIZE = 56.0  # the size steps: title, names, prize, text, the certificate number
NAME_SIZE = 40.0
NAME_MIN = 26.0  # a long name shrinks to this, then wraps
PRIZE_SIZE = 30.0
BODY_SIZE = 22.0
NUMBER_SIZE = 14.0
SCALE_FLOOR = 0.8  # long names may scale the certificate's text down to this, no further
RED = colors.Color(0.78, 0.07, 0.07)  # the title and the border
GOLD = colors.Color(0.80, 0.60, 0.16)  # the ornaments in the border's band
SEAL_RADIUS = 21 * mm  # the usual 42 mm round seal: room kept for it over the organiser, nothing printed there
BAND = 7 * mm  # the border's ornamented band
CERT_NAMES = "获奖者"  # the insert `@获奖者`: the recipients' names, largest
CERT_PRIZE = "奖项"  # the insert `@奖项`: the prize, large
CERTIFICATE_KINDS = (BlockKind.TITLE, BlockKind.PLAIN, BlockKind.BODY, BlockKind.GAP, BlockKind.SIGNATURE,
                     BlockKind.INSERT)


def certificate_number(event: Event, day: dt.date | None, k: int) -> str:
    """'2026-001': the event's year and the certificate's place in the order of the prizes (1-based)."""
    year = day.year if day is not None else int(award_date_text(event, None)[:4])
    return f"{year}-{k:03d}"


class _Faces:
    """The certificate's typefaces: the formal face (楷/宋) for every line it can set whole, else the main (sans)
    font for the whole of it, so a line (the recipients' names: both of them) is never set in two faces."""

    def __init__(self, sans: FontSet, formal: FontSet | None):
        self.sans, self.formal = sans, formal

    def of(self, text: str, who: str | None = None) -> FontSet:
        if self.formal is None or self.formal.covers(text):
            return self.formal or self.sans
        if who:
            self.sans.warn(f"{who}“{text}”中有证书字体{self.formal.family}没有的字，"
                           f"荣誉证书上这一行姓名整个改用{self.sans.family}")
        return self.sans


@dataclass(frozen=True)
class _Row:
    """A centred line of the certificate: its runs (face, text), size, advance (in sizes), whose text it is."""

    runs: tuple[tuple[FontSet, str], ...]
    size: float
    advance: float
    who: str | None = None
    title: bool = False

    def width(self, scale: float = 1.0) -> float:
        return sum(face.width(text, self.size * scale, self.who) for face, text in self.runs) + self.spacing(scale) * (
            sum(len(text) for _, text in self.runs) - 1)

    def spacing(self, scale: float = 1.0) -> float:
        return self.size * scale * 0.35 if self.title else 0.0


def certificates_pdf(
    placings: Placings, teams: Sequence[Team], event: Event, *, day: dt.date | None, per_player: bool = False,
    replaced: Mapping[str, Sequence[str]] | None = None, fonts: FontSet | None = None, formal: Sequence[FontSpec] | None = None, template_dir: Path | None = None,
    invariant: bool = False, digits: int | None = None,
) -> bytes:
    """荣誉证书, A4 landscape, one page each, to be framed: a red-and-gold border, the title in red, the recipients'
    names large (long names shrink, then wrap), the prize, the wording of `certificate.j2` in the formal face
    (楷/宋 when the PC has one; `formal` replaces the list of candidates), the organiser and the date under
    room for the seal (nothing printed there), and a certificate number. `day`: `[print] award_date`; None prints the event's
    month. `digits`: how wide the 组号 are printed, the event's width (`Bracket.digits`)."""
    if not placings.complete:
        raise MaterialsError(["比赛尚未结束，名次还不完整，不能打印荣誉证书"])
    fonts = fonts or choose_fonts(event.print.font)
    faces = _Faces(fonts, choose_formal(formal))
    page_w, page_h = landscape(A4)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(page_w, page_h), invariant=1 if invariant else 0, initialFontName=fonts.name,  # type: ignore[arg-type]  # types-reportlab has it float
                    initialFontSize=16, pageCompression=1)
    canvas.setTitle(f"{event.title}荣誉证书")
    canvas.setAuthor("shuangsheng")
    canvas.setCreator("shuangsheng")
    date = award_date_text(event, day)
    digits = event_width(teams, digits)  # 组号 as wide as the event's
    for k, cert in enumerate(certificates(placings, teams, per_player=per_player, replaced=replaced), start=1):
        number = certificate_number(event, day, k)
        context = {"prize": cert.prize, "team": team_name(cert.team, digits), "names": "、".join(cert.names),
                   "also": "、".join(cert.also), "date": date, "number": number}
        wording = render("certificate.j2", event, template_dir, context)
        check_kinds(wording, CERTIFICATE_KINDS, (CERT_NAMES, CERT_PRIZE))
        _certificate_border(canvas, page_w, page_h)
        _certificate_page(canvas, faces, cert, wording, (page_w, page_h), number, digits)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


INSET = 5 + BAND + 3  # from the margin to the inside of the border
PADDING = 9 * mm  # from the border to the text


def _certificate_border(canvas: Canvas, page_w: float, page_h: float) -> None:
    """A heavy red rule at the margin, a thin one inside it, a band of gold lozenges between thin rules with red
    corner blocks, and a second thin rule inside: a frame like a printed certificate's."""
    canvas.setStrokeColor(RED)
    canvas.setFillColor(RED)
    canvas.setLineWidth(3)
    canvas.rect(MARGIN + 1.5, MARGIN + 1.5, page_w - 2 * MARGIN - 3, page_h - 2 * MARGIN - 3)
    canvas.setLineWidth(0.8)
    for inset in (5.0, 5 + BAND, INSET):
        canvas.rect(MARGIN + inset, MARGIN + inset, page_w - 2 * (MARGIN + inset), page_h - 2 * (MARGIN + inset))
    low, high = MARGIN + 5, MARGIN + 5 + BAND  # the band, from the page's edges inward
    corners = [(low, low), (page_w - high, low), (low, page_h - high), (page_w - high, page_h - high)]
    for x, y in corners:
        canvas.rect(x, y, BAND, BAND, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        canvas.rect(x + BAND * 0.3, y + BAND * 0.3, BAND * 0.4, BAND * 0.4, stroke=0, fill=1)
        canvas.setFillColor(RED)
    canvas.setFillColor(GOLD)
    middle = (low + high) / 2
    for start, end, fixed, across in ((high, page_w - high, middle, False), (high, page_w - high, page_h - middle,
                                      False), (high, page_h - high, middle, True), (high, page_h - high,
                                                                                  page_w - middle, True)):
        count = max(1, round((end - start) / (BAND * 1.6)))
        pitch = (end - start) / count
        for i in range(count):
            centre = start + (i + 0.5) * pitch
            x, y = (fixed, centre) if across else (centre, fixed)
            _lozenge(canvas, x, y, pitch * 0.36 if not across else BAND * 0.28,
                     BAND * 0.28 if not across else pitch * 0.36)
    canvas.setFillColor(INK)
    canvas.setStrokeColor(INK)


def _lozenge(canvas: Canvas, x: float, y: float, half_w: float, half_h: float) -> None:
    path = canvas.beginPath()
    path.moveTo(x - half_w, y)
    path.lineTo(x, y + half_h)
    path.lineTo(x + half_w, y)
    path.lineTo(x, y - half_h)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _certificate_page(canvas: Canvas, faces: _Faces, cert: Certificate, wording: Sequence[Block],
                      page: tuple[float, float], number: str, digits: int = 2) -> None:
    """certificate.j2 inside the border: `#` the title (red), `@获奖者` the names, `@奖项` the prize, `>` the
    signature block (bottom right, under the seal's place), paragraphs and `~` gaps in the body size; the number at
    the bottom left. Everything above the signature is centred; when long names take several lines, all of it is
    scaled down together (never below SCALE_FLOOR)."""
    page_w, page_h = page
    edge = MARGIN + INSET + PADDING  # the text stays inside this
    inner = page_w - 2 * edge
    signature = [line for b in wording if b.kind is BlockKind.SIGNATURE for line in b.lines]
    rows = [row for block in wording for row in _certificate_rows(faces, cert, block, inner, digits)]
    base = edge + 4  # the last signature line's baseline
    seal_y = base + BODY_SIZE * 1.6 * max(len(signature) - 1, 0) + BODY_SIZE * 0.38  # over the organiser
    top = page_h - edge + 6
    floor = max(seal_y + SEAL_RADIUS, base + BODY_SIZE * 1.6 * len(signature)) + 6
    need = sum(row.size * row.advance for row in rows)
    scale = max(SCALE_FLOOR, min(1.0, (top - floor) / need)) if need else 1.0
    y = top
    for row in rows:
        _draw_row(canvas, row, page_w / 2, y - row.size * scale * 0.9, scale)
        y -= row.size * scale * row.advance
    widths = [faces.of(text).width(text, BODY_SIZE) for text in signature]
    centre = page_w - edge - 18 * mm - max(widths, default=0.0) / 2  # the seal goes over it: nothing drawn there
    for k, text in enumerate(signature):
        y = base + (len(signature) - 1 - k) * BODY_SIZE * 1.6
        faces.of(text).draw(canvas, centre, y, text, BODY_SIZE, align=Align.CENTRE)
    label = f"证书编号：{number}"  # in the sans face: the formal face's old-style serif digits read as another hand
    faces.sans.draw(canvas, edge, base, label, NUMBER_SIZE)


def _draw_row(canvas: Canvas, row: _Row, centre: float, y: float, scale: float) -> None:
    size = row.size * scale
    x = centre - row.width(scale) / 2
    if row.title:
        canvas.setFillColor(RED)
        canvas.setStrokeColor(RED)
    for face, text in row.runs:
        face.draw(canvas, x, y, text, size, who=row.who, char_space=row.spacing(scale), bold=row.title)
        x += face.width(text, size, row.who) + row.spacing(scale) * len(text)
    canvas.setFillColor(INK)
    canvas.setStrokeColor(INK)


def _certificate_rows(faces: _Faces, cert: Certificate, block: Block, inner: float, digits: int) -> list[_Row]:
    """A block's rows above the signature."""
    if block.kind is BlockKind.TITLE:
        return [_Row(((faces.of(line), line),), TITLE_SIZE, 1.45, title=True) for line in block.lines]
    if block.kind is BlockKind.INSERT and block.name == CERT_NAMES:
        return _name_rows(faces, cert, inner, digits)
    if block.kind is BlockKind.INSERT:
        return [_Row(((faces.of(cert.prize), cert.prize),), PRIZE_SIZE, 1.7)]
    if block.kind is BlockKind.GAP:
        return [_Row((), BODY_SIZE, 1.6)]
    if block.kind is BlockKind.SIGNATURE:
        return []
    face = faces.of(block.text)
    return [_Row(((face, part),), BODY_SIZE, 1.6) for part in break_lines(face, block.text, BODY_SIZE, [inner])]


def _name_rows(faces: _Faces, cert: Certificate, inner: float, digits: int) -> list[_Row]:
    """The recipients, large, the whole line in one face (the formal face when it has every character of both
    names, else the sans face for both): NAME_SIZE, shrunk towards NAME_MIN when long; then one name a line; a
    name still too long is wrapped."""
    who = f"{team_name(cert.team, digits)}的队员"  # the warning names the 组号 as the papers print it
    present = [name for name in cert.names if name]
    if not present:
        return []
    face = faces.of("、".join(present), who)
    names = [(face, name) for name in present]
    runs: list[tuple[FontSet, str]] = []
    for _, name in names:
        runs += [(face, "、"), (face, name)] if runs else [(face, name)]
    together = _Row(tuple(runs), NAME_SIZE, 1.5, who)
    size = max(NAME_MIN, NAME_SIZE * min(1.0, inner / together.width()))
    if together.width(size / NAME_SIZE) <= inner:
        return [_Row(tuple(runs), size, 1.5, who)]
    fit = min(NAME_SIZE * inner / face.width(n, NAME_SIZE, who) for face, n in names)
    size = max(NAME_MIN, min(NAME_SIZE, math.floor(fit * 10) / 10))  # a tenth under: the line keeps clear
    return [_Row(((face, part),), size, 1.5, who)
            for face, name in names for part in break_lines(face, name, size, [inner], who)]
