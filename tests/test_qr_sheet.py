"""第N轮扫码单 (shuangsheng/render/materials/qr_sheet.py): every table's QR code, rendered as a printer would and read back by a QR
reader, is that table's address; table number, code and address are printed as text; nothing past the margins.
When serve writes it (at start, after each draw): tests/test_qr_watch.py."""

from __future__ import annotations

import io
import random
import re

import pdfplumber
import pytest

from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.render.materials.qr_sheet import HALF, qr_sheet_pdf, table_address
from shuangsheng.storage.event import default_event
from shuangsheng.storage.names import qr_sheet_name
from shuangsheng.table.codes import codes_for_tables, format_code
from tests.pdfcheck import assert_printable, page_texts, qr_codes, render_png

pytest.importorskip("pypdfium2", reason="the 扫码单 test renders pages with pypdfium2: pip install -e '.[test]'")
pytest.importorskip("zxingcpp", reason="the 扫码单 test reads QR codes with zxing-cpp: pip install -e '.[test]'")

BASE = "http://192.168.137.1:8080"


def round_of(tables: int) -> Round:
    pairings = tuple(Pairing(t, f"{2 * t - 1:02d}", f"{2 * t:02d}") for t in range(1, tables + 1))
    return Round(3, tuple(team for p in pairings for team in (p.a, p.b)), pairings, (), 7)


@pytest.fixture(scope="module")
def sheet():
    codes = dict(zip(range(1, 6), codes_for_tables(5, randbits=random.Random(5).getrandbits), strict=True))
    return codes, qr_sheet_pdf(default_event(), round_of(5), codes, BASE + "/", invariant=True)


def test_every_code_reads_back_as_its_tables_address(sheet):
    codes, data = sheet
    expected = [table_address(BASE, codes[t]) for t in range(1, 6)]
    assert expected[0] == f"{BASE}/t/{codes[1]}"
    pages = qr_codes(data, 150)
    assert pages == [expected[0:2], expected[2:4], expected[4:5]]
    # a cheap printer or a worn sheet: still read at a coarse 60 dpi
    assert sum(qr_codes(data, 60), []) == expected


def test_table_code_and_address_printed_as_text(sheet, tmp_path):
    codes, data = sheet
    texts = page_texts(data)
    assert len(texts) == 3
    for table, code in codes.items():
        page = texts[(table - 1) // 2]
        assert f"第{table}桌" in page
        assert f"录分码{format_code(code)}" in page
        assert f"{BASE}/t/{code}" in page
    assert_printable(data, smallest=14)
    render_png(data, tmp_path, "qr")  # look at qr-1.png when changing the layout
    # the two halves keep clear of the dashed cut line between them
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            assert not any(ch["top"] < page.height - HALF < ch["bottom"] for ch in page.chars)
    assert qr_sheet_name(3) == "第3轮扫码单.pdf"


def test_only_tables_with_a_code_and_a_long_title_kept_inside(sheet):
    event = default_event()
    event = type(event)(**{**event.__dict__, "title": "某某市某某区离退休教职工第十二届“夕阳红”双升级（双扣）友谊比赛暨联谊活动"})
    codes = {2: "ABCD2345"}
    data = qr_sheet_pdf(event, round_of(3), codes, BASE)
    assert qr_codes(data, 100) == [[f"{BASE}/t/ABCD2345"]]
    assert re.search("第2桌", page_texts(data)[0]) and "第1桌" not in page_texts(data)[0]
    assert_printable(data, smallest=9)


def test_ids_are_printed_as_wide_as_the_fields(tmp_path):
    """第07组 in a small field, 第007组 over 99 teams (as every other paper prints them); the event folder's
    sheet takes its width from teams.xlsx."""
    codes = {1: "ABCD2345"}
    assert "甲方第01组对乙方第02组" in page_texts(qr_sheet_pdf(default_event(), round_of(1), codes, BASE))[0]
    wide = page_texts(qr_sheet_pdf(default_event(), round_of(1), codes, BASE, digits=3))[0]
    assert "甲方第001组对乙方第002组" in wide
    from shuangsheng.usecases.papers.qr_sheet import field_digits
    from tests.events import new_event

    assert field_digits(new_event(tmp_path / "small", 13), round_of(1)) == 2
    assert field_digits(new_event(tmp_path / "wide", 100), round_of(1)) == 3
    assert field_digits(tmp_path / "no-team-list", round_of(50)) == 3  # the round's own teams: 01–100
