"""Every 组号 and name the intake accepts survives the program's own round trip (issue 16 item 2): teams.xlsx as
people type it → read (normalised) → draw → round-N.xlsx → read back gives the same ids and the same names."""

from __future__ import annotations

import itertools
import unicodedata

import openpyxl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import ID_RULE, MAX_ID_LENGTH, Team, canonical_id, id_key, normalize, same_person
from shuangsheng.storage import event as event_file
from shuangsheng.storage.names import EVENT_FILE, TEAMS_FILE
from shuangsheng.storage.workbook import read_round, read_teams, write_round
from shuangsheng.storage.workbook.schema import MATCHES_HEADER, MATCHES_SHEET, POOL_HEADER, TEAMS_HEADER, TEAMS_SHEET
from shuangsheng.usecases.draw import draw_next

# Characters people paste into names: CJK, full-width and half-width forms, compatibility ideographs, ligatures,
# circled numbers, middle dots, every kind of space, and invisible format characters (zero-width space, ZWNJ, ZWJ,
# word joiner, BOM, soft hyphen). A leading = + - @ is issue 16 item 1 (formulas), not tested here.
ODD = ("张李王赵钱孙周吴郑冯陈褚卫蒋沈韩杨朱秦尤许何吕施" "ＡｂＣ１２３" "ｶﾞｷﾞ" "\uf900\uf9b4\uf9d1" "①㈱ﬁ㍿"
       "·・ '’" "\u3000\u00a0\u2003" "\u200b\u200c\u200d\u2060\ufeff\u00ad")
NAME_CHARACTERS = "".join(ch for ch in ODD if not (set(normalize(ch)) & set("=+-@")))
INVISIBLE = " \u3000\u200b\u2060\ufeff\u00ad"
SUFFIXES = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥"  # one per player: names stay distinct once normalised
assert not set(SUFFIXES) & set(NAME_CHARACTERS)


ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
accepted_ids = st.builds(lambda digit, rest, at: (rest[:at] + digit + rest[at:])[:MAX_ID_LENGTH],
                         st.sampled_from("0123456789"), st.text(ALNUM, max_size=MAX_ID_LENGTH - 1),
                         st.integers(0, 5)).filter(lambda tid: tid.strip("0"))  # all zeros: no team number


@st.composite
def typed_id(draw: st.DrawFn) -> str | int:
    """A 组号 the rule accepts, as someone might type it: lower case, full-width, padded with zeros or spaces,
    or a number cell."""
    tid = draw(accepted_ids)
    assert ID_RULE.fullmatch(tid)
    if tid.isdigit() and draw(st.booleans()):
        return int(tid)
    if draw(st.booleans()):
        tid = tid.lower()
    if draw(st.booleans()):
        tid = "".join(chr(ord(ch) + 0xFEE0) for ch in tid)  # full-width, as an IME types it
    pad = draw(st.sampled_from(["", " ", "\u3000", "\u200b"]))
    return f"{pad}{tid}{pad}"


@st.composite
def team_lists(draw: st.DrawFn) -> list[tuple[str | int, str, str]]:
    count = draw(st.integers(2, 9))
    ids = draw(st.lists(typed_id(), min_size=count, max_size=count, unique_by=lambda t: id_key(canonical_id(str(t)))))
    prefix = st.text(NAME_CHARACTERS, max_size=6)
    trailing = st.text(INVISIBLE, max_size=2)
    names = [draw(prefix) + SUFFIXES[i] + draw(trailing) for i in range(2 * count)]
    return [(tid, names[2 * i], names[2 * i + 1]) for i, tid in enumerate(ids)]


def write_typed(path, rows) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = TEAMS_SHEET
    ws.append(TEAMS_HEADER)
    for row in rows:
        ws.append(row)
    wb.save(path)


_folders = itertools.count()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=team_lists(), seed=st.integers(0, 10**6))
def test_ids_and_names_survive_teams_xlsx_draw_and_round_workbook(tmp_path, rows, seed):
    folder = tmp_path / f"event-{next(_folders)}"
    folder.mkdir()
    (folder / EVENT_FILE).write_text(event_file.default_text(), encoding="utf-8")
    write_typed(folder / TEAMS_FILE, rows)

    teams = read_teams(folder / TEAMS_FILE)
    expected = {canonical_id(str(tid)): (normalize(p1), normalize(p2)) for tid, p1, p2 in rows}
    assert {t.id: t.players for t in teams} == expected
    for t in teams:  # printed clean: nothing invisible, nothing full-width left
        assert all(unicodedata.category(ch) != "Cf" for name in t.players for ch in name)
        assert same_person(t.players[0]) != same_person(t.players[1])

    report = draw_next(folder, seed=seed)
    sheet = read_round(report.path)
    drawn = sheet.round
    assert sorted(drawn.pool) == sorted(expected)
    assert sorted([*(p.a for p in drawn.pairings), *(p.b for p in drawn.pairings), *drawn.byes]) == sorted(expected)
    assert all(m.ok for m in sheet.matches), [str(p) for m in sheet.matches for p in m.problems]

    grid = sheet.grids[MATCHES_SHEET]
    header, cols = grid.find_header(MATCHES_HEADER[:4])
    for r, p in enumerate(drawn.pairings, start=header + 1):
        assert grid.get(r, cols["甲方队员"]) == "、".join(expected[p.a])
        assert grid.get(r, cols["乙方队员"]) == "、".join(expected[p.b])
    pool_row, pcols = grid.find_header(POOL_HEADER[:2], start=header + len(drawn.pairings) + 1)
    for r, tid in enumerate(drawn.pool, start=pool_row + 1):
        assert grid.get(r, pcols["队员"]) == "、".join(expected[tid])


# A field over 99 (issue 34 item 4): the workbook's 组号 cells are written three digits wide ('007'), as every paper
# prints them; reading them back gives the canonical ids ('07'), and a cell typed '07' or 7 reads the same.
WIDE_TEAMS = {canonical_id(str(i)): Team(canonical_id(str(i)), (f"张{i}", f"李{i}")) for i in range(1, 106)}
WIDE_ROUND = Round(1, tuple(WIDE_TEAMS), (Pairing(1, "07", "103"), Pairing(2, "12", "99")), ("05", "100"), 7)


def _cells(path):
    wb = openpyxl.load_workbook(path)
    matches = wb[MATCHES_SHEET]
    return wb, matches


def test_ids_over_99_are_written_three_digits_wide_and_read_back_canonical(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", WIDE_ROUND, WIDE_TEAMS)
    wb, matches = _cells(path)
    values = [c for row in matches.iter_rows(values_only=True) for c in row if isinstance(c, str)]
    assert {"007", "103", "012", "099"} <= set(values) and "005、100" in values
    assert "07" not in values and "5" not in values
    assert wb["第1桌"]["B2"].value == "007" and wb["第1桌"]["B3"].value == "103"
    ids = [v for row in matches.iter_rows(min_row=9, values_only=True) for v in row[1:3]
           if isinstance(v, str) and v.isdigit()]
    assert len(ids) == 4 + 105 and all(len(v) == 3 for v in ids)  # the pool's 组号 too
    drawn = read_round(path)
    assert drawn.round == WIDE_ROUND
    assert all(m.ok for m in drawn.matches)


def test_ids_typed_two_digits_wide_or_as_numbers_read_back_the_same(tmp_path):
    """Someone retyping a cell as '07', 7 or '第7组' in a workbook written as '007' changes nothing."""
    path = write_round(tmp_path / "round-1.xlsx", WIDE_ROUND, WIDE_TEAMS)
    wb, matches = _cells(path)
    header = next(r for r in range(1, 30) if matches.cell(r, 1).value == MATCHES_HEADER[0])
    matches.cell(header + 1, 2).value = "07"
    matches.cell(header + 2, 2).value = 12
    wb["第1桌"]["B2"] = "第7组"
    wb["第2桌"]["B2"] = "12"
    bye_row = next(r for r in range(1, 30) if matches.cell(r, 1).value == "轮空")
    matches.cell(bye_row, 2).value = "5、100"
    wb.save(path)
    drawn = read_round(path)
    assert drawn.round == WIDE_ROUND
    assert all(m.ok for m in drawn.matches), [str(p) for m in drawn.matches for p in m.problems]


def test_a_small_field_keeps_two_digits(tmp_path):
    teams = {k: v for k, v in WIDE_TEAMS.items() if int(k) <= 13}
    drawn = Round(1, tuple(teams), (Pairing(1, "07", "03"),), ("05",), 7)
    path = write_round(tmp_path / "round-1.xlsx", drawn, teams)
    wb, matches = _cells(path)
    assert wb["第1桌"]["B2"].value == "07"
    assert read_round(path).round == drawn


def test_the_referees_typing_keeps_three_digits(tmp_path):
    """The demo's referee rewrites the workbook as drawn: still '007', still read back canonical."""
    from shuangsheng.game.hands import Hand, MatchRecord
    from shuangsheng.game.levels import Side
    from shuangsheng.storage.workbook.referee import fill_round

    path = write_round(tmp_path / "round-1.xlsx", WIDE_ROUND, WIDE_TEAMS)
    fill_round(path, {1: MatchRecord((Hand(Side.A, 35),))})
    wb, matches = _cells(path)
    assert wb["第1桌"]["B2"].value == "007" and wb["第2桌"]["B3"].value == "099"
    sheet = read_round(path)
    assert sheet.round == WIDE_ROUND
    assert sheet.match(1).ok


def test_the_checked_copy_shows_ids_as_the_round_workbook_writes_them(tmp_path):
    from shuangsheng.storage.workbook.checked import checked_copy

    path = write_round(tmp_path / "round-1.xlsx", WIDE_ROUND, WIDE_TEAMS)
    sheet = read_round(path)
    assert sheet.digits == 3
    summary = checked_copy(sheet, {}).sheets[0]
    texts = {v for v in summary.values.values() if isinstance(v, str)}
    assert {"007", "103", "012", "099"} <= texts and "07" not in texts
