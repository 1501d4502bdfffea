"""The font layer: choosing, embedding, per-character fallback, and the warnings that name the person."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest
import reportlab
from reportlab.pdfbase.ttfonts import TTFont

from shuangsheng.render.materials.fonts import (
    CID_FALLBACK,
    FontLoadError,
    FontSet,
    FontSpec,
    choose_fonts,
    choose_formal,
    formal_candidates,
    load_ttf,
    system_candidates,
)
from tests.pdfcheck import assert_fonts_embedded, text_of

INSTALLED = [s for s in system_candidates() if s.path.is_file()]
DEJAVU = FontSpec(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
NOT_IN_ANY_FONT = "\U0002a6a5"  # 𪚥, CJK extension B: WenQuanYi, AR PL UMing and the Windows/macOS fonts lack it

needs_font = pytest.mark.skipif(not INSTALLED, reason="no Chinese TrueType font installed (apt install fonts-wqy-microhei)")


def _has(spec: FontSpec, ch: str) -> bool:
    return ord(ch) in load_ttf(spec).face.charToGlyph


def _fallback_pair() -> tuple[FontSpec, FontSpec, str] | None:
    """A main font and a second installed font, and a character only the second has."""
    if not INSTALLED:
        return None
    main = INSTALLED[0]
    for other, ch in [*((s, "\u3400") for s in INSTALLED[1:]), (DEJAVU, "\u0180")]:
        if other.path.is_file() and other.path != main.path and _has(other, ch) and not _has(main, ch):
            return main, other, ch
    return None


def test_font_spec_parses_collection_index():
    assert FontSpec.parse("C:/Windows/Fonts/msyh.ttc#1") == FontSpec(Path("C:/Windows/Fonts/msyh.ttc"), 1)
    assert FontSpec.parse("/fonts/a#b.ttf") == FontSpec(Path("/fonts/a#b.ttf"), 0)
    assert FontSpec.parse(" /fonts/simhei.ttf ") == FontSpec(Path("/fonts/simhei.ttf"), 0)


def test_system_candidates_cover_the_three_systems():
    names = {s.path.name for s in system_candidates()}
    assert {"STHeiti Light.ttc", "Songti.ttc", "wqy-microhei.ttc", "wqy-zenhei.ttc", "uming.ttc"} <= names


def test_formal_candidates_are_kai_then_song_on_the_three_systems(monkeypatch):
    monkeypatch.setenv("WINDIR", "C:/Windows")
    names = [s.path.name for s in formal_candidates()]
    assert names.index("simkai.ttf") < names.index("simsun.ttc")
    assert {"Kaiti.ttc", "Songti.ttc", "gkai00mp.ttf", "gbsn00lp.ttf"} <= set(names)
    assert names.index("gkai00mp.ttf") < names.index("gbsn00lp.ttf")
    assert choose_formal(candidates=()) is None


@needs_font
def test_explicit_font_with_index_wins():
    spec = next(s for s in INSTALLED if s.path.suffix == ".ttc")
    fonts = choose_fonts(f"{spec.path}#1")
    assert fonts.embedded and fonts.warnings == ()
    assert f"{spec.path.stem}-1-" in fonts.name  # the face at index 1 of the collection


@needs_font
def test_missing_explicit_font_warns_and_falls_back_to_the_system_font(tmp_path):
    fonts = choose_fonts(str(tmp_path / "msyh.ttc"))
    assert fonts.embedded
    assert any("msyh.ttc" in w and "不存在" in w and "自动查找" in w for w in fonts.warnings)


@needs_font
def test_a_font_without_chinese_is_skipped_with_one_warning_not_one_per_character():
    latin = FontSpec(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf")
    fonts = choose_fonts(str(latin.path))
    assert fonts.embedded and "Vera" not in fonts.name
    fonts.runs("离退休教职工双升级（双扣）比赛")
    assert fonts.warnings == (f"字体 {latin}（Bitstream Vera Sans）不含中文，已跳过；改为自动查找中文字体",)


def test_cff_font_is_skipped_with_a_clear_message(tmp_path):
    otf = tmp_path / "NotoSansCJK-Regular.otf"
    otf.write_bytes(b"OTTO" + b"\x00\x0a\x00\x80\x00\x03\x00\x20" + bytes(200))
    with pytest.raises(FontLoadError, match="CFF"):
        load_ttf(FontSpec(otf))
    fonts = choose_fonts(str(otf), candidates=INSTALLED)
    assert any("CFF" in w and "NotoSansCJK" in w for w in fonts.warnings)


def test_without_chinese_fonts_falls_back_to_stsong_loudly():
    fonts = choose_fonts(candidates=[])
    assert not fonts.embedded and fonts.name == CID_FALLBACK
    (warning,) = fonts.warnings
    assert "没有嵌入" in warning and "不宜拿到别处打印" in warning


@needs_font
def test_character_missing_everywhere_is_reported_with_the_person():
    fonts = choose_fonts(candidates=INSTALLED)
    if any(_has(s, NOT_IN_ANY_FONT) for s in INSTALLED):
        pytest.skip("an installed font has U+2A6A5")
    runs = fonts.runs(f"王{NOT_IN_ANY_FONT}", who="第03组队员“王𪚥”")
    assert "".join(seg for _, seg in runs) == "王"
    (warning,) = fonts.warnings
    assert "第03组队员“王𪚥”" in warning and "“𪚥”（U+2A6A5）" in warning and "手写" in warning


@needs_font
def test_common_name_characters_are_in_the_main_font():
    fonts = choose_fonts(candidates=INSTALLED)
    names = "堃 喆 赟 玥 昇 琇 镕 垚 犇 翀 珺"
    assert [name for name, _ in fonts.runs(names)] == [fonts.name]
    assert fonts.warnings == ()


def test_character_another_font_has_is_drawn_with_that_font():
    pair = _fallback_pair()
    if pair is None:
        pytest.skip("needs two installed fonts where only the second has some character")
    main, other, ch = pair
    fonts = choose_fonts(str(main), candidates=[other])
    runs = fonts.runs(f"李{ch}明", who="第05组队员“李明”")
    assert [seg for _, seg in runs] == ["李", ch, "明"]
    assert runs[1][0] == load_ttf(other).fontName
    (warning,) = fonts.warnings
    assert "第05组队员“李明”" in warning and f"“{ch}”" in warning and "改用" in warning
    # markup wraps the fallback run, everything else is escaped text
    assert fonts.markup(f"<{ch}>") == f'&lt;<font name="{runs[1][0]}">{ch}</font>&gt;'


@needs_font
def test_markup_escapes_user_text():
    fonts = choose_fonts(candidates=INSTALLED)
    assert fonts.markup("<b>&王</b>") == "&lt;b&gt;&amp;王&lt;/b&gt;"


@needs_font
def test_warnings_are_not_repeated():
    fonts = FontSet(load_ttf(INSTALLED[0]), [])
    for _ in range(3):
        fonts.runs(NOT_IN_ANY_FONT, who="张三")
    assert len(fonts.warnings) <= 1
    assert isinstance(load_ttf(INSTALLED[0]), TTFont)


@needs_font
def test_font_file_name_never_breaks_paragraph_markup(tmp_path):
    import re
    import shutil

    spec = INSTALLED[0]
    weird = tmp_path / f'we"ird> <字体>{spec.path.suffix}'
    shutil.copy(spec.path, weird)
    fonts = choose_fonts(f"{weird}#{spec.index}")
    assert fonts.embedded and re.fullmatch(r"[0-9A-Za-z_-]+", fonts.name)


def test_a_damaged_font_file_is_skipped_with_its_name(tmp_path):
    junk = tmp_path / "坏字体.ttf"
    junk.write_bytes(b"\x00\x01\x00\x00" + b"\x00" * 64)  # a TrueType header and no tables
    with pytest.raises(FontLoadError, match="坏字体.ttf.*无法读取"):
        load_ttf(FontSpec(junk))


def _damaged_copy(tmp_path: Path, name: str, damage) -> Path:
    """A copy of the first installed Chinese font with `damage(data, table offsets)` applied to its bytes."""
    if not INSTALLED:
        pytest.skip("no Chinese TrueType font installed")
    data = bytearray(INSTALLED[0].path.read_bytes())
    base = struct.unpack_from(">L", data, 12)[0] if data[:4] == b"ttcf" else 0  # the first face of a collection
    entries = {}
    for n in range(struct.unpack_from(">H", data, base + 4)[0]):
        entry = base + 12 + 16 * n
        entries[data[entry: entry + 4].decode("latin-1")] = entry
    damage(data, entries)
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return path


def _cmap_format_99(data: bytearray, entries: dict[str, int]) -> None:
    cmap = struct.unpack_from(">L", data, entries["cmap"] + 8)[0]
    for n in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, _, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * n)
        if platform == 3:
            data[cmap + offset: cmap + offset + 2] = struct.pack(">H", 99)  # no such format


def _loca_past_the_end(data: bytearray, entries: dict[str, int]) -> None:
    data[entries["loca"] + 8: entries["loca"] + 12] = struct.pack(">L", len(data) - 64)


@pytest.mark.parametrize("damage", [_cmap_format_99, _loca_past_the_end], ids=["cmap", "loca"])
def test_a_damaged_font_is_refused_when_it_loads_and_the_next_font_is_used(tmp_path, damage):
    """Refused at once, naming the file — not when a PDF is saved, where nothing would catch it."""
    broken = _damaged_copy(tmp_path, f"坏{damage.__name__}.ttf", damage)
    with pytest.raises(FontLoadError, match=f"坏{damage.__name__}.ttf.*无法读取"):
        load_ttf(FontSpec(broken))
    fonts = choose_fonts(str(broken), candidates=INSTALLED)
    assert fonts.embedded and broken.name not in fonts.description
    assert any(broken.name in w and "自动查找" in w for w in fonts.warnings)


@needs_font
def test_a_pdf_drawn_with_the_chosen_font_embeds_its_glyphs():
    from reportlab.pdfgen.canvas import Canvas

    fonts = choose_fonts(candidates=INSTALLED)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, initialFontName=fonts.name)
    fonts.draw(canvas, 72, 720, "第3桌甲方胜级数：A", 20)
    canvas.save()
    assert "第3桌甲方胜级数：A" in text_of(buffer.getvalue())
    assert_fonts_embedded(buffer.getvalue())
