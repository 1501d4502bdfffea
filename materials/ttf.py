"""Reading a TrueType font's character tables faster than reportlab does, with the same result.

reportlab parses a font's cmap, hmtx and loca tables two bytes at a time in Python: for a Chinese font of
30,000–50,000 glyphs (wqy-microhei, msyh) that is about 0.1 s, paid by every command that prints, and a
large share of `score`. `FastFace` lets reportlab read everything else (names, head, OS/2, post, hhea, maxp:
small tables, and its checks of them) and reads those three tables in bulk with `struct`, producing the very
dictionaries and lists reportlab would (`charToGlyph`, `glyphToChar`, `charWidths`, `defaultWidth`, `hmetrics`,
`glyphPos`). cmap formats 4 and 12 — what Chinese TrueType fonts carry — are read here; any other format, or a
table that does not parse, is left to reportlab's own code, which then says what is wrong with the font.
A test compares both readings, table by table, for every font installed on the test machine.
"""

from __future__ import annotations

import functools
import gc
import struct
from fnmatch import fnmatch
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, TTFontFace, unShapedFontGlob


class FastFace(TTFontFace):
    """A TTFontFace whose character tables are read in bulk (see the module's docstring). `charToGlyph`,
    `charWidths` and `defaultWidth` are read at once (every string drawn asks them); `glyphToChar`, `hmetrics`
    and `glyphPos`, which only embedding the subset of used glyphs needs, when first asked."""

    def extractInfo(self, charInfo=1):
        super().extractInfo(charInfo=0)  # everything but the character tables; sets _pdfScale and numGlyphs
        if not charInfo:
            return
        collecting = gc.isenabled()
        gc.disable()  # some 100,000 small objects at once: the collector would walk them again and again
        try:
            read = self._read_character_tables()
        except (struct.error, IndexError, KeyError, ValueError, OverflowError):
            read = False
        finally:
            if collecting:
                gc.enable()
        if not read:  # a format read only by reportlab, or a damaged table: its own reading and errors
            super().extractInfo(charInfo=1)

    def _read_character_tables(self) -> bool:
        data: bytes = self._ttf_data
        table = self.table
        head = table["head"]["offset"]
        if _ushort(data, head + 52) != 0 or "loca" not in table:  # glyphDataFormat; reportlab says what is wrong
            return False
        self._loca_format = _ushort(data, head + 50)
        if self._loca_format not in (0, 1):
            return False
        self._h_metrics = h_metrics = _ushort(data, table["hhea"]["offset"] + 34)
        entry = 2 if self._loca_format == 0 else 4
        if (h_metrics == 0
                or table["hmtx"]["offset"] + 4 * h_metrics + 2 * max(self.numGlyphs - h_metrics, 0) > len(data)
                or table["loca"]["offset"] + entry * (self.numGlyphs + 1) > len(data)):
            return False  # a table cut short: reportlab's reading says so now, not when a PDF is saved
        pairs = _cmap(data, table["cmap"]["offset"])
        if pairs is None:
            return False
        self._pairs = pairs
        mapping = dict(pairs)
        advances = struct.unpack_from(f">{2 * h_metrics}H", data, table["hmtx"]["offset"])[0::2]
        scale = self._pdfScale
        last = scale(advances[-1])
        measured = max(h_metrics, self.numGlyphs)
        if len(mapping) == len(pairs):  # each character in one cmap entry (always, in a sound font)
            widths = {code: scale(advances[glyph]) if glyph < h_metrics else last
                      for code, glyph in pairs if glyph < measured}
        else:  # reportlab's order: the width of the highest glyph a character is listed under
            widths = {}
            for glyph in sorted(g for g in self.glyphToChar if g < measured):
                for code in self.glyphToChar[glyph]:
                    widths[code] = scale(advances[glyph]) if glyph < h_metrics else last
        for have, lack in ((0x20, 0xA0), (0xA0, 0x20)):  # as reportlab: a space and a no-break space alike
            if have in mapping:
                mapping[lack] = mapping[have]
                widths[lack] = widths[have]
                break
        self.charToGlyph, self.charWidths, self.defaultWidth = mapping, widths, scale(advances[0])
        return True

    @functools.cached_property
    def glyphToChar(self) -> dict[int, list[int]]:
        glyph_to_char: dict[int, list[int]] = {}
        for code, glyph in self._pairs:
            glyph_to_char.setdefault(glyph, []).append(code)
        return glyph_to_char

    @functools.cached_property
    def hmetrics(self) -> list[tuple[float, int]]:
        """(advance, left side bearing) per glyph; past the last full metric reportlab repeats its advance,
        already scaled, and so does this."""
        data, offset, full = self._ttf_data, self.table["hmtx"]["offset"], self._h_metrics
        pairs = struct.unpack_from(f">{2 * full}H", data, offset)
        rest = struct.unpack_from(f">{max(self.numGlyphs - full, 0)}H", data, offset + 4 * full)
        last = self._pdfScale(pairs[-2])
        return list(zip(pairs[0::2], pairs[1::2])) + [(last, lsb) for lsb in rest]

    @functools.cached_property
    def glyphPos(self) -> list[int]:
        data, offset, count = self._ttf_data, self.table["loca"]["offset"], self.numGlyphs + 1
        if self._loca_format == 0:
            return [p << 1 for p in struct.unpack_from(f">{count}H", data, offset)]
        return list(struct.unpack_from(f">{count}L", data, offset))


def open_font(name: str, path: str, index: int = 0) -> TTFont:
    """What `TTFont(name, path, subfontIndex=index)` returns, its face read by `FastFace`."""
    font = TTFont.__new__(TTFont)
    # TTFont.__init__, with the face made here (a test checks the attributes match reportlab's own).
    font.fontName = name
    font.face = FastFace(path, validate=0, subfontIndex=index)
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, glob) for glob in unShapedFontGlob)
    return font


def _ushort(data: bytes, pos: int) -> int:
    return struct.unpack_from(">H", data, pos)[0]


def _cmap(data: bytes, cmap: int) -> list[tuple[int, int]] | None:
    """(character, glyph) in reportlab's order, from the subtable reportlab picks; None for a format left to it."""
    version, count = struct.unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:
        count = version
    chosen, enc = None, 0
    for n in range(count):  # reportlab's choice: the last record of the best kind seen so far
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * n)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            enc, chosen = 1, offset
        elif platform == 1 and encoding == 0 and enc != 1:
            enc, chosen = 2, offset
    if chosen is None:
        return None
    start = cmap + chosen
    fmt = _ushort(data, start)
    pairs: list[tuple[int, int]] = []
    if fmt == 4:
        length = _ushort(data, start + 2)
        limit = start + length
        segments = _ushort(data, start + 6) // 2
        ends = struct.unpack_from(f">{segments}H", data, start + 14)
        starts = struct.unpack_from(f">{segments}H", data, start + 16 + 2 * segments)
        deltas = struct.unpack_from(f">{segments}h", data, start + 16 + 4 * segments)
        range_start = start + 16 + 6 * segments
        ranges = struct.unpack_from(f">{segments}H", data, range_start)
        for n in range(segments):
            first, stop, delta, offset = starts[n], ends[n] + 1, deltas[n], ranges[n]
            if stop <= first:
                continue
            codes = range(first, stop)
            if offset == 0:
                pairs += [(code, (code + delta) & 0xFFFF) for code in codes]
                continue
            base = range_start + 2 * n + offset
            inside = max(0, min(len(codes), -(-(limit - base) // 2)))  # reportlab: an index past the table is 0
            raw = struct.unpack_from(f">{inside}H", data, base) if inside else ()
            glyphs = [(g + delta) & 0xFFFF if g else 0 for g in raw] + [0] * (len(codes) - inside)
            pairs += zip(codes, glyphs)
        return pairs
    if fmt == 12:
        groups = struct.unpack_from(">L", data, start + 12)[0]
        for n in range(groups):
            first, last, glyph = struct.unpack_from(">LLL", data, start + 16 + 12 * n)
            pairs += [(code, code + glyph - first) for code in range(first, last + 1)]
        return pairs
    return None
