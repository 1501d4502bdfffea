"""The bulk reading of a font's character tables gives exactly what reportlab's own reading gives."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from materials.fonts import system_candidates
from materials.ttf import FastFace, open_font
from tests.pdfcheck import assert_fonts_embedded, text_of

CHINESE = [s.path for s in system_candidates() if s.path.is_file()]
FONTS = CHINESE + [p for p in (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),) if p.is_file()]
TABLES = ("charToGlyph", "charWidths", "defaultWidth", "glyphToChar", "hmetrics", "glyphPos")
READING = {"_pos", "_pdfScale", "_pairs", "_h_metrics", "_loca_format", *TABLES}  # cursor and lazy state

needs_fonts = pytest.mark.skipif(not FONTS, reason="no TrueType font installed (apt install fonts-wqy-microhei)")


def _same(ours: TTFont, theirs: TTFont) -> None:
    for name in TABLES:
        assert getattr(ours.face, name) == getattr(theirs.face, name), name
    rest = {k: v for k, v in vars(ours.face).items() if k not in READING}
    assert rest == {k: v for k, v in vars(theirs.face).items() if k not in READING}
    assert sorted(vars(ours)) == sorted(vars(theirs))  # TTFont.__init__ as reportlab has it
    assert {k: v for k, v in vars(ours).items() if k not in ("face", "encoding", "state")} == {
        k: v for k, v in vars(theirs).items() if k not in ("face", "encoding", "state")
    }


@needs_fonts
@pytest.mark.parametrize("path", sorted(set(FONTS)), ids=lambda p: p.name)
def test_every_installed_font_reads_as_reportlab_reads_it(path):
    for index in (0, 1) if path.suffix == ".ttc" else (0,):
        ours = open_font("ours", str(path), index)
        assert isinstance(ours.face, FastFace) and "_pairs" in vars(ours.face)  # the bulk reading was used
        _same(ours, TTFont("ours", str(path), subfontIndex=index))


def _chinese_font() -> Path:
    if not CHINESE:
        pytest.skip("no Chinese TrueType font installed")
    return CHINESE[0]


def _unicode_cmap(data: bytes, cmap: int) -> int:
    """Where the cmap subtable reportlab reads starts (the last Windows one, as both readers choose)."""
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    chosen = None
    for n in range(count):
        platform, _, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * n)
        if platform == 3:
            chosen = offset
    assert chosen is not None
    return cmap + chosen


def _tables(data: bytes) -> dict[str, int]:
    """Table offsets of the first face of a collection (or of a single font)."""
    base = struct.unpack_from(">L", data, 12)[0] if data[:4] == b"ttcf" else 0
    count = struct.unpack_from(">H", data, base + 4)[0]
    tables = {}
    for n in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sLLL", data, base + 12 + 16 * n)
        tables[tag.decode("latin-1")] = offset
    return tables


def test_a_cmap_format_it_does_not_read_is_left_to_reportlab(tmp_path):
    path = _chinese_font()
    data = bytearray(path.read_bytes())
    start = _unicode_cmap(data, _tables(data)["cmap"])
    data[start: start + 2] = struct.pack(">H", 6)  # claim format 6: reportlab reads it as such, and so must we
    broken = tmp_path / "format6.ttf"
    broken.write_bytes(bytes(data))
    ours = open_font("f6", str(broken))
    assert "_pairs" not in vars(ours.face)
    _same(ours, TTFont("f6", str(broken)))


def test_a_damaged_cmap_is_read_by_reportlab_which_says_what_is_wrong(tmp_path):
    path = _chinese_font()
    data = bytearray(path.read_bytes())
    start = _unicode_cmap(data, _tables(data)["cmap"])
    data[start: start + 2] = struct.pack(">H", 99)  # no such format
    broken = tmp_path / "format99.ttf"
    broken.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="Unsupported cmap encoding format 99"):
        TTFont("f99", str(broken))
    with pytest.raises(ValueError, match="Unsupported cmap encoding format 99"):
        open_font("f99", str(broken))


def test_a_table_past_the_end_of_the_file_is_refused_when_the_font_loads(tmp_path):
    """The lazily read tables must not move reportlab's error to the moment a PDF is saved (nothing catches it
    there): a damaged font is refused when it loads, so the next font is tried."""
    path = _chinese_font()
    data = bytearray(path.read_bytes())
    base = struct.unpack_from(">L", data, 12)[0] if data[:4] == b"ttcf" else 0
    for n in range(struct.unpack_from(">H", data, base + 4)[0]):
        entry = base + 12 + 16 * n
        if data[entry: entry + 4] == b"loca":
            data[entry + 8: entry + 12] = struct.pack(">L", len(data) - 64)  # the glyph locations run off the end
    broken = tmp_path / "loca.ttf"
    broken.write_bytes(bytes(data))
    with pytest.raises(Exception) as theirs:
        TTFont("loca", str(broken))
    with pytest.raises(type(theirs.value)):
        open_font("loca", str(broken))


def test_a_file_that_is_no_font_is_refused_as_reportlab_refuses_it(tmp_path):
    junk = tmp_path / "junk.ttf"
    junk.write_bytes(b"\x00\x01\x00\x00" + b"\x00" * 64)
    with pytest.raises(Exception) as theirs:
        TTFont("junk", str(junk))
    with pytest.raises(type(theirs.value)):
        open_font("junk", str(junk))


def test_a_pdf_drawn_with_it_embeds_the_glyphs():
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    path = _chinese_font()
    font = open_font("fast-check", str(path))
    pdfmetrics.registerFont(font)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, initialFontName="fast-check", initialFontSize=20)
    canvas.drawString(72, 720, "第3桌甲方胜级数：A")
    canvas.save()
    assert "第3桌甲方胜级数：A" in text_of(buffer.getvalue())
    assert_fonts_embedded(buffer.getvalue())
