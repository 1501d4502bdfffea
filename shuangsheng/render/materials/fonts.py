"""The font layer: find a Chinese TrueType font, register it, and check every string drawn against it.

reportlab silently drops characters its font lacks, so every string goes through `FontSet.runs`, which
splits it into runs of one font each: the main font where it has the glyph, else the first other installed
candidate that has it; a character no font has is reported (naming the person) instead of vanishing.
Warnings are collected as Chinese sentences in `FontSet.warnings`; nothing is printed from here.
"""

from __future__ import annotations

import enum
import os
import re
import struct
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

CID_FALLBACK = "STSong-Light"


def escape(text: str) -> str:
    """`text` safe inside Paragraph markup: &, < and > as entities (what xml.sax.saxutils.escape does, without
    importing urllib.request, http.client and the email package with it)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Align(enum.Enum):
    """Where a line of text sits: starting at its x, centred on it, or ending at it. AUTO (a table cell): centred
    while the text takes one line, else from the left."""

    LEFT = "left"
    CENTRE = "centre"
    RIGHT = "right"
    AUTO = "auto"


@dataclass(frozen=True)
class FontSpec:
    """A font file and, for a .ttc collection, the index of the face inside it."""

    path: Path
    index: int = 0

    @classmethod
    def parse(cls, text: str) -> FontSpec:
        """'PATH' or 'PATH#index' (e.g. 'C:/Windows/Fonts/msyh.ttc#0')."""
        path, sep, index = text.strip().rpartition("#")
        if sep and index.strip().isdigit():
            return cls(Path(path).expanduser(), int(index))
        return cls(Path(text.strip()).expanduser(), 0)

    def __str__(self) -> str:
        return f"{self.path}#{self.index}" if self.index else str(self.path)


def system_candidates() -> tuple[FontSpec, ...]:
    """Known Chinese TrueType fonts of Windows, macOS and Linux, in order of preference."""
    specs: list[FontSpec] = []
    windir = os.environ.get("WINDIR") or os.environ.get("SYSTEMROOT")
    if windir or sys.platform == "win32":
        fonts = Path(windir or "C:/Windows") / "Fonts"
        specs += [FontSpec(fonts / "msyh.ttc"), FontSpec(fonts / "simhei.ttf"), FontSpec(fonts / "simsun.ttc")]
    for folder in ("/System/Library/Fonts", "/System/Library/Fonts/Supplemental", "/Library/Fonts"):
        specs += [FontSpec(Path(folder) / "STHeiti Light.ttc"), FontSpec(Path(folder) / "Songti.ttc")]
    linux = {
        "wqy-microhei.ttc": ("truetype/wqy", "wqy-microhei", "wenquanyi/wqy-microhei", "TTF"),
        "wqy-zenhei.ttc": ("truetype/wqy", "wqy-zenhei", "wenquanyi/wqy-zenhei", "TTF"),
        "uming.ttc": ("truetype/arphic", "arphic-uming", "TTF"),
    }
    for name, folders in linux.items():
        specs += [FontSpec(Path("/usr/share/fonts") / folder / name) for folder in folders]
    return tuple(specs)


def formal_candidates() -> tuple[FontSpec, ...]:
    """Formal Chinese faces for a certificate, 楷 before 宋, of Windows, macOS and Linux (Debian's
    fonts-arphic-gkai00mp and fonts-arphic-gbsn00lp, the AR PL UKai/UMing collections)."""
    specs: list[FontSpec] = []
    windir = os.environ.get("WINDIR") or os.environ.get("SYSTEMROOT")
    if windir or sys.platform == "win32":
        fonts = Path(windir or "C:/Windows") / "Fonts"
        specs += [FontSpec(fonts / name) for name in ("simkai.ttf", "STKAITI.TTF", "simsun.ttc", "STSONG.TTF")]
    for folder in ("/System/Library/Fonts/Supplemental", "/System/Library/Fonts", "/Library/Fonts"):
        specs += [FontSpec(Path(folder) / name) for name in ("Kaiti.ttc", "STKaiti.ttf", "Songti.ttc")]
    share = Path("/usr/share/fonts/truetype")
    specs += [FontSpec(share / "arphic-gkai00mp" / "gkai00mp.ttf"), FontSpec(share / "arphic" / "ukai.ttc"),
              FontSpec(share / "arphic-gbsn00lp" / "gbsn00lp.ttf"), FontSpec(share / "arphic" / "uming.ttc")]
    return tuple(specs)


CHINESE_PROBE = "比赛规则通知"  # a main font must have these: a font without them is not a Chinese font


BOLD_STROKE = 0.035  # a bold line's outline, in font sizes


class FontLoadError(ValueError):
    """A font file that cannot be used; the message is Chinese and names the file."""


def load_ttf(spec: FontSpec) -> TTFont:
    """Register the face with reportlab (once per process) and return it."""
    tag = zlib.crc32(str(spec.path.resolve()).encode("utf-8")) & 0xFFFF
    # The name goes into Paragraph markup (<font name="…">): keep only characters that cannot break it.
    stem = re.sub(r"[^0-9A-Za-z_-]", "", spec.path.stem)
    name = f"SS-{stem}-{spec.index}-{tag:04x}"
    try:
        registered = pdfmetrics.getFont(name)
    except KeyError:
        registered = None
    if isinstance(registered, TTFont):
        return registered
    if not spec.path.is_file():
        raise FontLoadError(f"字体文件 {spec} 不存在")
    try:
        font = TTFont(name, str(spec.path), subfontIndex=spec.index)
    except TTFError as exc:
        if "postscript outlines" in str(exc):
            raise FontLoadError(
                f"字体 {spec} 是 CFF（PostScript）轮廓字体（如思源黑体、Noto Sans CJK、苹方），"
                "本程序使用的 reportlab 不能嵌入这种字体，已跳过"
            ) from None
        raise FontLoadError(f"字体 {spec} 无法读取（{exc}），已跳过") from None
    except (OSError, LookupError, ValueError, struct.error) as exc:  # a damaged or truncated file
        raise FontLoadError(f"字体 {spec} 无法读取（{exc}），已跳过") from None
    pdfmetrics.registerFont(font)
    return font


def _family(font: TTFont) -> str:
    return font.face.familyName.decode("utf-8", "replace") if isinstance(font.face.familyName, bytes) else str(
        font.face.familyName
    )


_INK: dict[tuple[str, str], tuple[float, float] | None] = {}  # (font name, character) -> its blanks at 1 pt


def ink_blanks(font: TTFont, ch: str) -> tuple[float, float] | None:
    """The blank space left and right of `ch`'s ink in `font` at 1 pt (its advance less the glyph's box), read
    from the font itself: 'head' (units per em, 'loca' format), 'loca' (where the glyph is), and the glyph's
    header in 'glyf' (xMin, xMax). A glyph without outlines is all blank; None when the font has no such glyph
    or its tables cannot be read. Remembered per font and character."""
    key = (font.fontName, ch)
    if key not in _INK:
        _INK[key] = _read_blanks(font, ch)
    return _INK[key]


def _read_blanks(font: TTFont, ch: str) -> tuple[float, float] | None:
    face = font.face
    glyph = face.charToGlyph.get(ord(ch))
    if glyph is None:
        return None
    try:
        head, _ = face.get_table_pos("head")
        units = struct.unpack(">H", face.get_chunk(head + 18, 2))[0]
        long_loca = struct.unpack(">h", face.get_chunk(head + 50, 2))[0] == 1
        loca, _ = face.get_table_pos("loca")
        glyf, _ = face.get_table_pos("glyf")
        if long_loca:
            start, end = struct.unpack(">LL", face.get_chunk(loca + 4 * glyph, 8))
        else:
            start, end = (2 * n for n in struct.unpack(">HH", face.get_chunk(loca + 2 * glyph, 4)))
        advance = pdfmetrics.stringWidth(ch, font.fontName, 1)
        if end <= start:
            return (advance / 2, advance / 2)
        _, x_min, _, x_max, _ = struct.unpack(">hhhhh", face.get_chunk(glyf + start, 10))
    except (KeyError, struct.error):
        return None
    return (max(x_min / units, 0.0), max(advance - x_max / units, 0.0))


class FontSet:
    """The main font plus lazily loaded fallbacks; collects warnings (Chinese) about what it had to do."""

    def __init__(self, main: TTFont | None, others: Sequence[FontSpec], warnings: Sequence[str] = ()):
        self._main = main
        self._pending = list(others)
        self._fallbacks: list[TTFont] = []
        self._warnings: dict[str, None] = dict.fromkeys(warnings)
        self._widths: dict[tuple[str, float], float] = {}
        self._plain: set[str] = set()  # texts wholly in the main font (one run, nothing to warn about)
        if main is None:
            pdfmetrics.registerFont(UnicodeCIDFont(CID_FALLBACK))

    @property
    def name(self) -> str:
        """The reportlab font name to use by default."""
        return self._main.fontName if self._main is not None else CID_FALLBACK

    @property
    def embedded(self) -> bool:
        return self._main is not None

    @property
    def description(self) -> str:
        if self._main is None:
            return f"{CID_FALLBACK}（未嵌入）"
        return f"{_family(self._main)}（{self._main.face.filename}）"

    @property
    def family(self) -> str:
        """The main face's family name ('WenQuanYi Micro Hei')."""
        return _family(self._main) if self._main is not None else CID_FALLBACK

    def covers(self, text: str) -> bool:
        """Whether the main face has every character of `text` (spaces aside): it can set the text whole."""
        if self._main is None:
            return False
        if text in self._plain:
            return True
        glyphs = self._main.face.charToGlyph
        return all(ch.isspace() or ord(ch) in glyphs for ch in text)

    def blanks(self, ch: str, size: float) -> tuple[float, float] | None:
        """The blank space left and right of `ch`'s ink at `size`, in the face that draws it (`ink_blanks`); None
        where that cannot be known (the built-in CID font, a character no face has)."""
        if self._main is None:
            return None
        font = self._main if ord(ch) in self._main.face.charToGlyph else self._fallback_for(ch)
        found = ink_blanks(font, ch) if font is not None else None
        return (found[0] * size, found[1] * size) if found is not None else None

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(self._warnings)

    def warn(self, message: str) -> None:
        self._warnings.setdefault(message, None)

    def _fallback_for(self, ch: str) -> TTFont | None:
        code = ord(ch)
        for font in self._fallbacks:
            if code in font.face.charToGlyph:
                return font
        while self._pending:
            spec = self._pending.pop(0)
            try:
                font = load_ttf(spec)
            except FontLoadError:
                continue
            if self._main is not None and font.fontName == self._main.fontName:
                continue
            self._fallbacks.append(font)
            if code in font.face.charToGlyph:
                return font
        return None

    def runs(self, text: str, who: str | None = None) -> list[tuple[str, str]]:
        """Split text into (font name, segment) runs; warn about characters drawn with another font or lost.

        `who` names the person or item the text belongs to, for the warning (e.g. '第03组队员“王喆”').
        """
        if self._main is None:
            return [(CID_FALLBACK, text)] if text else []
        if text in self._plain:
            return [(self._main.fontName, text)]
        main_map = self._main.face.charToGlyph
        runs: list[tuple[str, str]] = []
        for ch in text:
            name = self._main.fontName
            if ord(ch) not in main_map and not ch.isspace():
                owner = who or f"文字“{text}”"
                fallback = self._fallback_for(ch)
                label = f"“{ch}”（U+{ord(ch):04X}）"
                if fallback is None:
                    self.warn(
                        f"{owner}中的{label}在本机所有中文字体中都没有，打印出来会是空白，请打印后手写补上，"
                        "或用 --font 指定含有此字的字体"
                    )
                    continue
                self.warn(f"{owner}中的{label}主字体{_family(self._main)}没有，已改用{_family(fallback)}")
                name = fallback.fontName
            if runs and runs[-1][0] == name:
                runs[-1] = (name, runs[-1][1] + ch)
            else:
                runs.append((name, ch))
        if len(runs) == 1 and runs[0] == (self._main.fontName, text):
            self._plain.add(text)
        return runs

    def markup(self, text: str, who: str | None = None) -> str:
        """Paragraph markup for plain text: every character escaped, fallback runs wrapped in <font>."""
        out = []
        for name, segment in self.runs(text, who):
            seg = escape(segment)
            out.append(seg if name == self.name else f'<font name="{name}">{seg}</font>')
        return "".join(out)

    def width(self, text: str, size: float, who: str | None = None) -> float:
        """The drawn width of `text` at `size` (line breaking asks this for every character of every line).
        Widths of text wholly in the main font are remembered: nothing to warn about, whoever it belongs to."""
        width = self._widths.get((text, size))
        if width is not None:
            return width
        runs = self.runs(text, who)
        width = sum(pdfmetrics.stringWidth(seg, name, size) for name, seg in runs)
        if len(runs) == 1 and runs[0] == (self.name, text) and self._main is not None:
            self._widths[(text, size)] = width
        return width

    def draw(self, canvas, x: float, y: float, text: str, size: float, *, align: Align = Align.LEFT,
             who: str | None = None, char_space: float = 0.0, bold: bool = False):
        """Draw one line of plain text on a canvas with per-character fallback, from, centred on or ending at `x`
        (`align`); `char_space` adds that much after every character (justified lines). `bold`: the glyphs are
        filled and outlined in the stroke colour (which the caller sets like the fill), as Chinese faces rarely
        come with a bold weight."""
        if bold:
            canvas.saveState()
            canvas.setLineWidth(size * BOLD_STROKE)
        runs = self.runs(text, who)
        whole = align in (Align.CENTRE, Align.RIGHT)  # else where the last run ends is not needed
        widths = [pdfmetrics.stringWidth(seg, name, size) if whole or k < len(runs) - 1 else 0.0
                  for k, (name, seg) in enumerate(runs)]  # each run measured once
        if align is Align.CENTRE:
            x -= sum(widths) / 2
        elif align is Align.RIGHT:
            x -= sum(widths)
        for (name, seg), width in zip(runs, widths, strict=True):
            canvas.setFont(name, size)
            canvas.drawString(x, y, seg, mode=2 if bold else None, charSpace=char_space)
            x += width + char_space * len(seg)
        if bold:
            canvas.restoreState()


def choose_formal(candidates: Sequence[FontSpec] | None = None) -> FontSet | None:
    """The first installed formal face (楷 or 宋) that has Chinese, alone (no fallbacks: text it cannot set whole
    is set in the main font instead); None when the PC has none. `candidates` replaces the system list."""
    for spec in formal_candidates() if candidates is None else candidates:
        if not spec.path.is_file():
            continue
        try:
            font = load_ttf(spec)
        except FontLoadError:
            continue
        if all(ord(ch) in font.face.charToGlyph for ch in CHINESE_PROBE + "荣誉证书"):
            return FontSet(font, [])
    return None


def choose_fonts(*preferred: str | None, candidates: Sequence[FontSpec] | None = None) -> FontSet:
    """Pick the font: the first usable of `preferred` (--font, then [print] font), else a known system font,
    else reportlab's built-in STSong-Light with a loud warning (not embedded).

    `candidates` replaces the system list (tests use it to simulate a machine without Chinese fonts).
    """
    explicit = [p for p in preferred if p]
    specs = [(FontSpec.parse(p), True) for p in explicit]
    system = system_candidates() if candidates is None else tuple(candidates)
    specs += [(s, False) for s in system]
    warnings: list[str] = []
    main: TTFont | None = None
    rest: list[FontSpec] = []
    for spec, is_explicit in specs:
        if main is not None:
            rest.append(spec)
            continue
        if not is_explicit and not spec.path.is_file():
            continue
        try:
            font = load_ttf(spec)
        except FontLoadError as exc:
            warnings.append(f"{exc}" + ("；改为自动查找中文字体" if is_explicit else ""))
            continue
        if not all(ord(ch) in font.face.charToGlyph for ch in CHINESE_PROBE):
            # A Latin font would draw every Chinese character from a fallback, one warning per character.
            warnings.append(
                f"字体 {spec}（{_family(font)}）不含中文，已跳过" + ("；改为自动查找中文字体" if is_explicit else "")
            )
            continue
        main = font
    if main is None:
        warnings.append(
            f"警告：本机没有找到可嵌入的中文 TrueType 字体，只能使用 reportlab 内置的 {CID_FALLBACK}。"
            "字体没有嵌入 PDF，换一台电脑或打印店打印时可能缺字或乱码，不宜拿到别处打印！"
            "请安装中文字体（如 Debian/Ubuntu 的 fonts-wqy-microhei），或用 --font 指定字体文件"
        )
    return FontSet(main, [s for s in rest if s.path.is_file()], warnings)
