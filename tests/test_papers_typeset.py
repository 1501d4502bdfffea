"""The day's papers as a typesetter checks them (issue 34): read back from the PDFs the demo prints at 5 and 13
teams (pdfplumber), no line letter-spaced and no break inside a number, a range, a level with its words, a word
of the wording or an id with its names' bracket."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from tests.pdfcheck import letter_spaced, line_texts

# Papers laid out as text (the score cards and slips are forms of boxes, checked in test_paper.py).
TEXT_PAPERS = ("通知.pdf", "比赛规则.pdf", "规则口径确认单.pdf", "报名表.pdf", "纪念品领取签收表.pdf", "成绩公告.pdf",
               "第1轮对阵表.pdf", "第1轮成绩.pdf", "第2轮成绩.pdf")  # fmt: skip
# A line ending so and the next beginning so: a break the reader misreads ("罚分 / 后台下方" reads 后台).
FORBIDDEN_JOINS = (
    (r"电$", r"^话"), (r"罚分$", r"^后"), (r"罚分后$", r"^台"), (r"第十$", r"^[一二三四五六七八九]条"), (r"打$", r"^过"),
    (r"第\d+组$", r"^（"), (r"\d$", r"^[–−]"), (r"[–−]$", r"^[\d−]"), (r"十$", r"^[一二三四五六七八九]"),
)  # fmt: skip


def demo(tmp_path_factory, teams: int):
    from shuangsheng.cli import app

    folder = tmp_path_factory.mktemp(f"demo{teams}")
    result = CliRunner().invoke(app, ["demo", "--out", str(folder), "--teams", str(teams)])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="module", params=[5, 13])
def papers(request, tmp_path_factory):
    return demo(tmp_path_factory, request.param)


def bad_joins(pages: list[list[str]]) -> list[str]:
    found = []
    for number, lines in enumerate(pages, start=1):
        for line, after in zip(lines, lines[1:], strict=False):
            for end, start in FORBIDDEN_JOINS:
                if re.search(end, line) and re.search(start, after):
                    found.append(f"p{number}: {line[-10:]!r} | {after[:10]!r}")
    return found


def test_no_paper_line_is_letter_spaced(papers):
    """'2 . 报 名 地 点 ：' on the notice, '4 0' on the rules: a line short of the width stays ragged (or has
    its marks pressed), never spread out."""
    for name in TEXT_PAPERS:
        assert not letter_spaced((papers / name).read_bytes()), name


def test_no_paper_breaks_inside_a_unit(papers):
    """电/话, 罚分/后台下方, 第十/四条, 打/过A, 第08组/（…）, 60–/75分, 100/–115分: none on any paper."""
    for name in TEXT_PAPERS:
        assert not bad_joins(line_texts((papers / name).read_bytes())), name


def test_the_named_texts_come_out_whole(papers):
    """The texts the print review found broken, read back whole from their lines."""
    def lines(name: str) -> list[str]:
        return [line for page in line_texts((papers / name).read_bytes()) for line in page]

    assert any("电话：" in line for line in lines("通知.pdf"))
    assert any("第十四条" in line for line in lines("比赛规则.pdf"))
    assert any("罚分后" in line for line in lines("比赛规则.pdf"))
    signoff = lines("规则口径确认单.pdf")
    assert any("第十六条" in line for line in signoff)
    assert any(re.search(r"\d+–\d+分", line) for line in signoff)
    ranges = "".join(lines("比赛规则.pdf"))
    assert "至−" not in ranges and re.search(r"−\d+–−\d+", ranges)  # one range notation: the en dash
    assert "—" in "".join(lines("通知.pdf"))  # between the dates of the registration period


def test_a_break_check_would_catch_what_the_review_found():
    """The checks themselves: the faults as the review saw them are caught."""
    assert bad_joins([["请打电", "话报名"], ["罚分", "后台下方"], ["比照第十", "四条罚分"], ["第08组", "（余桂兰）"],
                      ["0–", "75分"], ["100", "–115分"]]) and len(bad_joins([["罚分", "后台下方"]])) == 1
