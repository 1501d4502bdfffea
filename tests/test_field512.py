"""Up to 512 pairs (issue 33, item 5): the knockout's shape for large fields (byes in round 1 only, two
semi-finals, two 三等奖), the bracket chart cut in parts when it does not fit across A3, and a 512-pair demo run
to the end with every paper."""

from __future__ import annotations

import io
import random
import time

import pypdf
import pytest

from shuangsheng.knockout import knockout
from shuangsheng.knockout.advance import next_round
from shuangsheng.knockout.bracket import split
from shuangsheng.knockout.knockout import MatchOutcome, Round
from shuangsheng.knockout.placings import placings
from shuangsheng.knockout.teams import shown_id
from shuangsheng.render.materials import bracket_chart
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.demo import make_demo
from tests.test_ending import check_printable, default_event, play, team_list


def ids(n: int) -> list[str]:
    return [f"{i:03d}" for i in range(1, n + 1)]


def knockout_of(n: int, seed: int = 1) -> tuple[list[Round], dict[int, list[MatchOutcome]]]:
    """A field of `n` through the knockout to the final, a random side winning each match."""
    rng = random.Random(seed)
    rounds: list[Round] = []
    outcomes: dict[int, list[MatchOutcome]] = {}
    while (nxt := next_round(ids(n), rounds, outcomes)) is not None:
        r = nxt.draw(rng.randrange(10**9))
        rounds.append(r)
        outcomes[r.number] = [MatchOutcome(p.table, TableStatus.DECIDED, rng.choice((p.a, p.b))) for p in r.pairings]
    return rounds, outcomes


@pytest.mark.parametrize("n", [175, 300, 500, 512])
def test_a_large_field_has_its_byes_in_round_1_two_semi_finals_and_two_third_prizes(n):
    rounds, outcomes = knockout_of(n)
    below = 1 << (n.bit_length() - 1)  # B: the largest power of two not above n
    byes = 0 if below == n else 2 * below - n
    assert len(rounds) == knockout.rounds_needed(n) == (n - 1).bit_length()
    first = rounds[0]
    assert len(first.byes) == byes and len(first.pairings) == (n - byes) // 2  # N − B matches, 2B − N byes
    assert len(first.pool) == n and len({t for p in first.pairings for t in (p.a, p.b)} | set(first.byes)) == n
    assert all(not r.byes for r in rounds[1:])  # no bye after round 1
    sizes = [len(r.pool) for r in rounds]
    assert sizes[1:] == [below >> k for k in range(len(rounds) - 1)] if byes else sizes == [n >> k for k in range(len(rounds))]
    semi, final = rounds[-2:]
    assert len(semi.pairings) == 2 and len(final.pairings) == 1  # two semi-finals, then the final
    assert [knockout.round_title(r.number, len(r.pool)) for r in (semi, final)] == [
        f"第{semi.number}轮（半决赛）", f"第{final.number}轮（决赛）"]
    result = placings(rounds, outcomes)
    assert result.complete and result.first and result.second and len(result.third) == 2
    losers = {p.b if o.winner == p.a else p.a for p, o in zip(semi.pairings, outcomes[semi.number], strict=True)}
    assert set(result.third) == losers and {result.first, result.second} == {final.pairings[0].a, final.pairings[0].b}


def test_the_largest_field_takes_a_tenth_of_a_second_to_draw_through():
    """Drawing and deciding 512 pairs through nine rounds is cheap (nothing quadratic in the knockout)."""
    start = time.process_time()
    knockout_of(512)
    assert time.process_time() - start < 2.0  # about 0.05 s when measured


@pytest.mark.parametrize("n", [256, 300, 512])
def test_a_chart_too_wide_for_a3_is_cut_in_parts_that_hold_every_match_once(n):
    chart = play(team_list(n, long_names=False))
    at = 7  # the parts of a 9-round chart end at round 7 (of an 8-round one: the semi-final)
    parts, rest = split(chart, at)
    assert len(parts) == len(chart.columns[at - 1].slots) == len(rest.columns[0].slots)
    for k, column in enumerate(chart.columns[:at]):  # every slot of those rounds in exactly one part
        seen = sorted((s.round, s.table or 0, s.entries[0].team or "") for p in parts for s in p.columns[k].slots)
        assert seen == sorted((s.round, s.table or 0, s.entries[0].team or "") for s in column.slots)
    for part in parts:
        assert len(part.columns[-1].slots) == 1 and part.third_place is None
        for before, after in zip(part.columns, part.columns[1:], strict=False):  # sources point into the part
            assert sorted(i for s in after.slots for i in s.sources) == list(range(len(before.slots)))
    assert [c.title for c in rest.columns] == [c.title for c in chart.columns[at - 1:]]
    assert len(rest.columns[-1].slots) == 1 and rest.placings == chart.placings


def test_the_chart_of_512_pairs_prints_in_parts_every_team_on_it_nothing_below_10_pt(fonts):
    teams = team_list(512, long_names=False)
    chart = play(teams)
    parts = bracket_chart.chart_parts(chart, fonts)
    assert len(parts) == 5 and [p.panel for p in parts] == [False] * 4 + [True]  # four parts to round 7, the rest
    assert all(p.layout.size >= bracket_chart.SPLIT_MIN_SIZE for p in parts)
    assert parts[-1].layout.sheets == 1 and parts[-1].name == "第7轮到决赛、获奖名单"
    data = bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True)
    reader = pypdf.PdfReader(io.BytesIO(data))
    total = sum(p.layout.sheets for p in parts)
    assert len(check_printable(data, smallest=bracket_chart.SPLIT_MIN_SIZE)) == total  # inside the margins too
    texts = [page.extract_text() for page in reader.pages]
    for k, text in enumerate(texts, start=1):
        assert f"本图共{total}张，这是第{k}张" in text.replace(" ", "").replace("\n", "")
    whole = "".join(texts).replace(" ", "").replace("\n", "")
    for team in teams:  # every team on some sheet, with both players
        assert f"{team.id}{team.players[0]}、{team.players[1]}" in whole, team
    assert "一等奖" in whole and whole.count("三等奖") >= 2
    assert "分 5 部分" in bracket_chart.layout_note(parts)


def test_a_chart_that_fits_across_is_printed_whole(fonts):
    parts = bracket_chart.chart_parts(play(team_list(128, long_names=False)), fonts)
    assert len(parts) == 1 and parts[0].panel and parts[0].name == ""


@pytest.mark.big  # about 20 s on one core: its own step of .ci/run (pytest -m big), beside the suite
def test_a_demo_of_512_pairs_runs_to_the_end_with_every_paper(tmp_path):
    """The whole day of the largest field, every paper printed: 256 tables in round 1 (no bye: 512 is a power of
    two), nine rounds, two semi-finals, two 三等奖; the papers of round 1 take every table. About 14 s of CPU when
    measured (of which the PDFs about half), so it stays in the default suite."""
    made = make_demo(tmp_path / "demo", teams=512, seed=7)
    report = made.report
    rounds = [score.round for score in report.rounds]
    assert len(report.teams) == 512 and len(rounds) == 9
    assert len(rounds[0].pairings) == 256 and not any(r.byes for r in rounds)
    assert [len(r.pairings) for r in rounds] == [256, 128, 64, 32, 16, 8, 4, 2, 1]
    assert report.placings.complete and len(report.placings.third) == 2
    folder = report.folder
    cards = pypdf.PdfReader(folder / "第1轮计分卡.pdf")
    assert len(cards.pages) == 2 * 256 + 2  # a sheet for every table, printed both sides, and a blank one
    draw_sheet = "".join(page.extract_text() for page in pypdf.PdfReader(folder / "第1轮对阵表.pdf").pages)
    draw_sheet = draw_sheet.replace(" ", "")
    assert all(f"第{shown_id(team.id, 3)}组" in draw_sheet for team in report.teams)  # every pair, 3-digit ids
    assert "组号桌号" in draw_sheet.replace("\n", "")  # and the index to find one's table
    names = {path.name for path in made.ending.paths}
    assert {"晋级图.pdf", "成绩公告.pdf", "荣誉证书.pdf"} <= names
    chart = pypdf.PdfReader(folder / "晋级图.pdf")
    assert len(chart.pages) > 5 and "第5部分（共5部分" in chart.pages[-1].extract_text().replace(" ", "")
