"""shuangsheng.render.materials.picture: 第N轮成绩.png and 成绩公告.png for the WeChat group, laid out for a phone."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from PIL import Image

from shuangsheng.render.materials import picture
from shuangsheng.render.materials.fonts import BOLD_STROKE, choose_fonts, system_candidates
from shuangsheng.render.results import round_results
from shuangsheng.storage.event import default_event
from shuangsheng.storage.names import picture_name
from shuangsheng.usecases.papers.pictures import write_pictures
from shuangsheng.usecases.score import score
from tests.helpers import cli
from tests.test_ending import play, team_list

INSTALLED = [s for s in system_candidates() if s.path.is_file()]
pytestmark = pytest.mark.skipif(not INSTALLED, reason="no Chinese TrueType font (apt install fonts-wqy-microhei)")


@pytest.fixture(scope="module")
def fonts():
    return choose_fonts(candidates=INSTALLED)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("picture") / "demo"
    cli("demo", "--out", out, "--teams", 5)
    return out


def layout_of(column: picture.Column) -> tuple[float, str, list[dict]]:
    """The column's page as a PDF: (pixels a point of the 1080 px picture, its text, its characters)."""
    with pdfplumber.open(io.BytesIO(column.pdf(column.items, title="t"))) as pdf:
        page = pdf.pages[0]
        kept = once(page.chars)
        page = page.filter(lambda obj: obj["object_type"] != "char" or _where(obj) in kept)
        return picture.PICTURE_PX / page.width, re.sub(r"\s+", "", page.extract_text()), list(page.chars)


def _where(char: dict) -> tuple:
    return char["text"], round(char["size"], 2), round(char["x0"], 3), round(char["top"], 3)


def once(chars: list[dict]) -> set[tuple]:
    """The characters less the copies of a bold line (`picture._draw`: four fills, each a fraction of a point
    from the others; the copies kept are those first drawn)."""
    kept: list[dict] = []
    for c in chars:
        near = 2 * c["size"] * BOLD_STROKE + 0.01
        if not any(k["text"] == c["text"] and abs(k["size"] - c["size"]) < 0.01 and abs(k["x0"] - c["x0"]) <= near
                   and abs(k["top"] - c["top"]) <= near for k in kept[-64:]):
            kept.append(c)
    return {_where(c) for c in kept}


def darkest_rows(data: bytes) -> list[tuple[int, int]]:
    """The picture's bands of rows holding dark pixels (text lines), as (first row, height)."""
    image = Image.open(io.BytesIO(data)).convert("L")
    width, height = image.size
    pixels = image.tobytes()
    inked = [min(pixels[y * width:(y + 1) * width]) < 128 for y in range(height)]
    bands, start = [], None
    for y, ink in enumerate([*inked, False]):
        if ink and start is None:
            start = y
        elif not ink and start is not None:
            bands.append((start, y - start))
            start = None
    return bands


def test_score_and_awards_write_pictures_1080_px_wide_as_generated_files(demo):
    for name in ("第1轮成绩.png", "第2轮成绩.png", "第3轮成绩.png", "成绩公告.png"):
        image = Image.open(demo / name)
        assert image.format == "PNG" and image.width == 1080 and image.height > 600, name
    (demo / "成绩公告.png").write_bytes(b"edited by hand")
    result = cli("awards", demo, code=1)  # an edited picture is kept, as an edited PDF would be
    assert "成绩公告.png" in result.output
    result = cli("awards", demo, "--force")
    assert "已生成" in result.output and "成绩公告.png" in result.output
    assert Image.open(demo / "成绩公告.png").width == 1080


def test_a_picture_is_drawn_again_only_when_its_page_changed(demo):
    """score run again on the same entries leaves 第1轮成绩.png as it is (not drawn, not written); a picture that
    differs from its page (a person's copy over it, keeping the fingerprint chunk) is not taken for ours."""
    path = demo / "第1轮成绩.png"
    source = picture.drawn_from(path)
    assert source is not None and len(source) == 64
    before = path.stat()
    assert "第1轮成绩.png" in cli("score", demo, "--round", 1).output  # still listed among what score made
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    data = path.read_bytes()
    path.write_bytes(data + b"edited")  # still a PNG with its chunk, but not what we wrote
    assert picture.drawn_from(path) == source
    assert "第1轮成绩.png" in cli("score", demo, "--round", 1, code=1).output  # kept as an edited file is
    cli("score", demo, "--round", 1, "--force")
    assert path.read_bytes() == data  # drawn again: the same picture


def test_round_picture_text_is_at_least_36_px_and_speaks_to_players(demo, fonts):
    report = score(demo, 1)
    results = round_results(report.score, report.teams, digits=report.digits)
    scale, text, chars = layout_of(picture.round_column(report.event, results, fonts=fonts))
    assert min(c["size"] for c in chars) * scale >= 36  # the smallest text: 13 pt × 3.2 px
    assert "第1轮成绩" in text and "shuangsheng" not in text and "/" not in text and "xlsx" not in text
    for t in results.tables:
        winner = report.teams[t.winner]
        assert f"{picture.MARK}{t.winner}{'、'.join(winner.players)}" in text  # the winner marked
    byes = re.search(r"轮空（直接进入下一轮）：(.*?)晋级", text).group(1)
    ids = re.findall(r"第(\d+)组", byes)
    assert ids == sorted(ids, key=int) and len(ids) == len(results.byes) == 3  # in number order
    for bye in results.byes:  # with their names, as the PDF gives them (the picture listed ids alone)
        assert "、".join(report.teams[bye].players) in byes, bye
    # measured on the picture itself: every line of text is taller than the 36 px the brief asks of the letters
    data = picture.round_picture(report.event, results, fonts=fonts)[0].png()
    lines = [h for _, h in darkest_rows(data) if h > 12]  # text lines, not the rules between matches
    assert lines and min(lines) >= 36  # the ink of a line of the smallest text (13 pt × 3.2 = 41.6 px type)


def test_announcement_picture_names_the_prizes_and_every_round(fonts):
    teams = team_list(11, long_names=False)
    chart = play(teams, passed_a=True)
    column = picture.announcement_column(chart, default_event(), date="2026年3月", fonts=fonts)
    scale, text, chars = layout_of(column)
    assert min(c["size"] for c in chars) * scale >= 36
    first = next(t for t in teams if t.id == chart.placings.first)
    assert f"一等奖第{first.id}组{'、'.join(first.players)}" in text
    for number in range(1, len(chart.columns) + 1):
        assert f"第{number}轮" in text
    assert text.count(picture.MARK) == 10 and "过A" in text and text.endswith("2026年3月")


def test_a_very_tall_announcement_is_cut_into_parts_each_saying_it_continues(fonts):
    chart = play(team_list(128, long_names=False))
    column = picture.announcement_column(chart, default_event(), date="2026年3月", fonts=fonts)
    parts = column.parts()
    assert len(parts) == 2 and sum(map(len, parts)) == len(column.items)
    heights = [sum(i.height for i in part) for part in parts]
    assert max(heights) <= picture.MAX_HEIGHT and min(heights) > 0.8 * max(heights)  # about equal
    assert not parts[0][-1].keep  # never cut after a heading
    pictures = column.pictures(event="测试比赛", name="成绩公告")
    assert [Image.open(io.BytesIO(p.png())).width for p in pictures] == [1080, 1080]
    assert picture_name("成绩公告", 2) == "成绩公告-2.png"


class _Drawn:
    """A picture as write_pictures takes it: its fingerprint source and its bytes."""

    def __init__(self, source: str):
        self.source = source

    def png(self) -> bytes:
        return f"png of {self.source}".encode()


def test_parts_of_an_earlier_taller_picture_are_removed_unless_a_person_edited_them(tmp_path):
    paths = write_pictures(tmp_path, "成绩公告", [_Drawn("a"), _Drawn("b"), _Drawn("c")])
    assert [p.name for p in paths] == ["成绩公告.png", "成绩公告-2.png", "成绩公告-3.png"]
    write_pictures(tmp_path, "成绩公告", [_Drawn("d")])  # shorter now: its old parts go
    assert sorted(p.name for p in tmp_path.glob("成绩公告*.png")) == ["成绩公告.png"]
    write_pictures(tmp_path, "成绩公告", [_Drawn("a"), _Drawn("b")])
    (tmp_path / "成绩公告-2.png").write_bytes(b"a person's own picture")
    write_pictures(tmp_path, "成绩公告", [_Drawn("e")])
    assert (tmp_path / "成绩公告-2.png").read_bytes() == b"a person's own picture"  # not ours any more: kept


@pytest.mark.parametrize("width", [1, 7, 1080])
def test_the_png_holds_the_same_pixels_as_pillow_would_write_and_the_fingerprint(tmp_path, width):
    """grey_png puts the PNG together itself (one zlib call, not one a row): Pillow reads back every pixel, the 16
    greys and the fingerprint chunk, as from a PNG Pillow's own writer made of the same image."""
    import random

    rng = random.Random(width)
    indices = [rng.randrange(16) for _ in range(width * 5)]
    levels = Image.new("P", (width, 5))
    levels.putdata(indices)
    levels.putpalette([g * picture.GREY_STEP for g in range(16) for _ in range(3)])
    ours = Image.open(io.BytesIO(picture.grey_png(width, 5, levels.tobytes("raw", "P;4"), source="abc123")))
    buffer = io.BytesIO()
    levels.save(buffer, format="PNG", bits=4)
    pillows = Image.open(buffer)
    assert (ours.mode, ours.size) == (pillows.mode, pillows.size) == ("P", (width, 5))
    assert ours.convert("L").tobytes() == pillows.convert("L").tobytes()
    assert list(ours.convert("L").tobytes()) == [g * 17 for g in indices]
    path = tmp_path / "p.png"
    path.write_bytes(picture.grey_png(width, 5, levels.tobytes("raw", "P;4"), source="abc123"))
    assert picture.drawn_from(path) == "abc123" and ours.text == {"shuangsheng-source": "abc123"}


def test_round_picture_marks_a_match_given_by_its_final_levels_only(demo, fonts):
    """A lost card's match (its 终局 cells only) is marked 未逐局核对 everywhere: the phone picture too."""
    import dataclasses

    from shuangsheng.table.record import Source

    report = score(demo, 1)
    results = round_results(report.score, report.teams, digits=report.digits)
    _, plain, _ = layout_of(picture.round_column(report.event, results, fonts=fonts))
    assert "未逐局核对" not in plain
    lost = dataclasses.replace(results.tables[0], source=Source.FINAL_ONLY)
    marked = dataclasses.replace(results, tables=(lost, *results.tables[1:]))
    _, text, _ = layout_of(picture.round_column(report.event, marked, fonts=fonts))
    assert text.count("未逐局核对") == 1


def test_three_digit_table_numbers_keep_clear_of_the_winner_mark(fonts):
    """Round 1 of 256 pairs has 128 tables: 第128桌 is as wide as its column allows, the ▶ and the names after it."""
    chart = play(team_list(256, long_names=False))
    column = picture.announcement_column(chart, default_event(), date="2026年3月", fonts=fonts)
    _, text, chars = layout_of(column)
    assert "第128桌" in text
    marks = [c for c in chars if c["text"] == picture.MARK]
    ends = [c for c in chars if c["text"] == "桌" and c["size"] == picture.BODY]
    assert len(marks) == 255
    for mark in marks:
        label = [c for c in ends if abs(c["top"] - mark["top"]) < picture.BODY * 0.6 and c["x0"] < mark["x0"]]
        assert all(c["x1"] + 2 <= mark["x0"] for c in label), mark
