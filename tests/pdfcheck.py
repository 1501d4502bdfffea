"""Checks every printed document must pass, measured from the PDF itself (pypdf, pdfplumber, poppler)."""

from __future__ import annotations

import hashlib
import io
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pypdf

from shuangsheng.render.materials.page import BOTTOM, MARGIN, PAGE

BASE14 = {
    "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica", "Helvetica-Bold",
    "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
    "Symbol", "ZapfDingbats",
}  # fmt: skip


def text_of(data: bytes) -> str:
    """All extracted text with whitespace removed (line breaks may fall anywhere in Chinese)."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in reader.pages))


def page_texts(data: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", "", page.extract_text()) for page in reader.pages]


def pages(data: bytes) -> int:
    return len(pypdf.PdfReader(io.BytesIO(data)).pages)


def fonts_of(data: bytes) -> list[pypdf.generic.DictionaryObject]:
    """Every font the pages use, and the fonts a composite font descends to, each once."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    found = {}
    for page in reader.pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            font = ref.get_object()
            found[id(font)] = font
            for descendant in font.get("/DescendantFonts", []):
                found[id(descendant.get_object())] = descendant.get_object()
    return list(found.values())


def assert_fonts_embedded(data: bytes) -> None:
    """Some font is embedded, every one is, and none is one of the 14 a viewer substitutes."""
    seen = 0
    for f in fonts_of(data):
        name = str(f.get("/BaseFont", "")).lstrip("/")
        assert name.split("+")[-1] not in BASE14, name
        if f["/Subtype"] == "/Type0":
            continue  # checked through its descendant
        assert "/FontFile2" in f["/FontDescriptor"].get_object(), f"{name} is not embedded"
        seen += 1
    assert seen


def assert_inside_margins(data: bytes, tol: float = 0.5) -> None:
    """Every character and every drawn line or box stays inside the 20 mm margins, on A4 portrait."""
    width, height = PAGE
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            assert (page.width, page.height) == (round(width, 2), round(height, 2)) or abs(page.width - width) < 1
            assert page.chars
            for ch in page.chars:
                assert ch["x0"] >= MARGIN - tol and ch["x1"] <= width - MARGIN + tol, ch["text"]
                assert ch["top"] >= MARGIN - tol and ch["bottom"] <= height - MARGIN + tol, ch["text"]
            for obj in page.lines + page.rects:
                assert obj["x0"] >= MARGIN - tol and obj["x1"] <= width - MARGIN + tol, obj
                assert obj["top"] >= MARGIN - tol and obj["bottom"] <= height - MARGIN + tol, obj


def smallest_text(data: bytes) -> float:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return min(round(ch["size"], 2) for page in pdf.pages for ch in page.chars if ch["text"].strip())


def render_png(data: bytes, folder: Path, name: str) -> list[Path]:
    """pdftoppm the document at low resolution; the caller may look at the pictures."""
    if shutil.which("pdftoppm") is None:
        return []
    path = folder / f"{name}.pdf"
    path.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(path), str(folder / name)], check=True)
    return sorted(folder.glob(f"{name}*.png"))


def assert_printable(data: bytes, *, smallest: float) -> None:
    """Fonts embedded, Chinese text extractable, nothing outside the margins, no text below `smallest` pt."""
    assert_fonts_embedded(data)
    assert re.search(r"[\u4e00-\u9fff]", text_of(data))
    assert_inside_margins(data)
    assert smallest_text(data) >= smallest


def qr_codes(data: bytes, dpi: int) -> list[list[str]]:
    """The QR codes read from each page rendered at `dpi` (pypdfium2, as a printer would), top to bottom, by a
    QR reader (zxing-cpp). Callers skip when these test extras are missing (pytest.importorskip)."""
    import pypdfium2
    import zxingcpp

    document = pypdfium2.PdfDocument(data)
    found = []
    for page in document:
        image = page.render(scale=dpi / 72).to_pil()
        codes = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
        found.append([c.text for c in sorted(codes, key=lambda c: c.position.top_left.y)])
    document.close()
    return found


def text_lines(data: bytes) -> list[list[list[dict]]]:
    """Per page, the printed lines as runs of characters side by side (a run ends at a gap of an em or more:
    a table's next cell), top to bottom, left to right. Each PDF's lines are extracted once per test run (several
    checks read the same papers); the answer is shared, not to be changed."""
    key = hashlib.sha256(data).digest()
    if key not in _LINES:
        if len(_LINES) >= 64:
            _LINES.clear()
        _LINES[key] = _text_lines(data)
    return _LINES[key]


_LINES: dict[bytes, list[list[list[dict]]]] = {}  # by the PDF's SHA-256


def _text_lines(data: bytes) -> list[list[list[dict]]]:
    out = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            rows: dict[float, list[dict]] = {}
            for ch in page.chars:
                rows.setdefault(round(ch["top"], 1), []).append(ch)
            runs = []
            for _, chars in sorted(rows.items()):
                chars.sort(key=lambda c: c["x0"])
                run = [chars[0]]
                for a, b in itertools.pairwise(chars):
                    if b["x0"] - a["x1"] >= a["size"]:
                        runs.append(run)
                        run = []
                    run.append(b)
                runs.append(run)
            out.append(runs)
    return out


LETTER_SPACING = 0.06  # em: a gap between two characters of a line wider than this is letter-spacing


def letter_spaced(data: bytes) -> list[str]:
    """The lines set with letter-spacing: three gaps or more in a row wider than `LETTER_SPACING`."""
    found = []
    for number, runs in enumerate(text_lines(data), start=1):
        for run in runs:
            wide = 0
            for a, b in itertools.pairwise(run):
                wide = wide + 1 if b["x0"] - a["x1"] > LETTER_SPACING * a["size"] else 0
                if wide >= 3:
                    found.append(f"p{number}: {''.join(c['text'] for c in run)}")
                    break
    return found


def line_texts(data: bytes) -> list[list[str]]:
    """Per page, each run's text (a paragraph's line, or a cell's)."""
    return [["".join(c["text"] for c in run) for run in runs] for runs in text_lines(data)]


def page_fills(data: bytes) -> list[float]:
    """Per page, how far down its text, rules and boxes reach (the page footer aside), as a share of the height
    between the margins: pen rows count as much as printed ones. The footer is what starts below the text frame
    (第N页 共M页, the sign-off sheet's initials), so a sheet without one (a score card) is not measured here."""
    out = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            drawn = [o["bottom"] for o in (*page.chars, *page.lines, *page.rects) if o["top"] < page.height - BOTTOM]
            out.append((max(drawn, default=MARGIN) - MARGIN) / (page.height - 2 * MARGIN))
    return out


def _rules(page) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """The page's stroked rules, to their middle: horizontal as (x0, x1, y), vertical as (top, bottom, x)."""
    across, down = [], []
    for line in page.lines:
        if abs(line["top"] - line["bottom"]) < 0.5:
            across.append((line["x0"], line["x1"], line["top"]))
        elif abs(line["x0"] - line["x1"]) < 0.5:
            down.append((line["top"], line["bottom"], line["x0"]))
    for rect in page.rects:
        if rect.get("stroke"):
            across += [(rect["x0"], rect["x1"], rect["top"]), (rect["x0"], rect["x1"], rect["bottom"])]
            down += [(rect["top"], rect["bottom"], rect["x0"]), (rect["top"], rect["bottom"], rect["x1"])]
    return across, down


def cell_clearances(data: bytes) -> list[tuple[int, str, float]]:
    """Every character ruled in on all four sides (a table cell's), with the page and the least distance in mm
    from its em box (what pdfplumber reports) to the middle of any of the four rules nearest it."""
    out = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            across, down = _rules(page)
            for ch in page.chars:
                if not ch["text"].strip():
                    continue
                x, y = (ch["x0"] + ch["x1"]) / 2, (ch["top"] + ch["bottom"]) / 2
                above = [ch["top"] - r for a, b, r in across if a <= x <= b and r <= y]
                below = [r - ch["bottom"] for a, b, r in across if a <= x <= b and r >= y]
                left = [ch["x0"] - r for a, b, r in down if a <= y <= b and r <= x]
                right = [r - ch["x1"] for a, b, r in down if a <= y <= b and r >= x]
                if above and below and left and right:
                    least = min(min(above), min(below), min(left), min(right))
                    out.append((number, ch["text"], least * 25.4 / 72))
    return out
