"""Teams (issues 3 and 16): one normalisation for ids and names, the 组号 rule, ids unique, two different players
per team, no player in two teams; every problem with its row."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangsheng.knockout.teams import (
    ID_RULE,
    MAX_NAME_LENGTH,
    Team,
    TeamProblem,
    TeamRow,
    canonical_id,
    id_problem,
    normalize,
    validate_teams,
)


def test_names_are_trimmed_and_inner_spaces_folded():
    assert normalize("  张 三 ") == "张 三"
    assert normalize("\u3000李\u3000\u3000四\u3000") == "李 四"
    assert normalize("   ") == ""


INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\u202e"]


@pytest.mark.parametrize("mark", INVISIBLE, ids=lambda ch: f"U+{ord(ch):04X}")
def test_invisible_format_characters_are_removed_from_names(mark):
    assert normalize(f"{mark}张{mark}三{mark}") == "张三"


def test_nfkc_folds_full_width_and_compatibility_forms():
    assert normalize("Ａｂ３　李\uf9b4") == "Ab3 李" + unicodedata.normalize("NFKC", "\uf9b4")
    assert normalize("ｶﾀｶﾅ") == "カタカナ"


@given(st.text(st.characters(codec="utf-8"), max_size=20))
def test_normalize_is_idempotent_and_leaves_nothing_invisible(text):
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip() and "  " not in once
    assert not any(unicodedata.category(ch) in ("Cf", "Cc") for ch in once)


# --- the 组号 rule (issue 16 item 2): digits, optionally with ASCII letters ---

@pytest.mark.parametrize(("typed", "kept"), [
    ("01", "01"), ("9", "09"), ("０９", "09"), ("123456", "123456"), ("0000003", "03"), ("a3", "A3"),
    ("Ａ３", "A3"), ("3b", "3B"), (" 1\u200b2 ", "12"), ("①", "01"), ("第A3组", "A3"),
])
def test_team_ids_the_rule_accepts(typed, kept):
    assert canonical_id(typed) == kept and id_problem(kept) is None
    teams, problems = validate_teams([TeamRow(2, typed, "张三", "李四")])
    assert problems == () and teams[0].id == kept


@pytest.mark.parametrize("typed", ["无", "轮空", "A、B", "A,1", "1，2", "1 2", "AB", "1234567", "3.5", "第三组",
                                   "=1+1", "-1", "1/2"])
def test_team_ids_the_rule_refuses(typed):
    tid = canonical_id(typed)
    assert id_problem(tid) is not None
    assert id_problem(tid).startswith("组号只能由数字和英文字母组成")
    teams, problems = validate_teams([TeamRow(5, typed, "张三", "李四")])
    assert teams == () and [(p.row, p.column) for p in problems] == [(5, "组号")]


@pytest.mark.parametrize("typed", ["0", "000", "０", "第0组"])
def test_a_team_id_of_zeros_is_refused_as_no_team_number(typed):
    """'0' and '000' printed as 第00组: no team is numbered 0 (A0 is a name with a digit, and allowed)."""
    teams, problems = validate_teams([TeamRow(4, typed, "张三", "李四")])
    assert teams == () and problems == (TeamProblem(4, "组号", "组号不能全是 0（实际为“00”）：组号从 1 起编，如 01、12、A3"),)
    assert validate_teams([TeamRow(4, "A0", "张三", "李四")])[1] == ()


@pytest.mark.parametrize(("first", "second"), [("A01", "A1"), ("a1", "A001"), ("1B", "01b"), ("A3B07", "a03b7")])
def test_digits_inside_a_letter_id_are_compared_as_numbers(first, second):
    """As 01 and 1 are one 组号, so are A01 and A1; each prints as written (upper case)."""
    teams, problems = validate_teams([TeamRow(2, first, "张三", "李四"), TeamRow(3, second, "王五", "赵六")])
    assert [t.id for t in teams] == [first.upper()]
    assert problems == (TeamProblem(3, "组号", f"组号“{second.upper()}”与第2行的“{first.upper()}”"
                                               "（组号里的数字按数值比较，算同一个组号）重复"),)
    assert validate_teams([TeamRow(2, "A1", "张三", "李四"), TeamRow(3, "A10", "王五", "赵六")])[1] == ()


def test_team_id_refusal_says_why():
    assert "程序在对阵表里自己用的字" in id_problem("无")
    assert "实际为“A、B”" in id_problem("A、B") and "每行只填一组" in id_problem("A、B")


@given(st.text("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz０９Ａｚ 、,=", max_size=8))
def test_canonical_id_is_idempotent_and_the_rule_holds_of_its_result(typed):
    tid = canonical_id(typed)
    assert canonical_id(tid) == tid
    if id_problem(tid) is None:
        assert ID_RULE.fullmatch(tid) and any(ch.isdigit() for ch in tid) and len(tid) <= 6


def test_invisible_duplicate_player_is_the_same_person():
    rows = [TeamRow(2, "01", "张三", "李四"), TeamRow(3, "02", "张\u200b三", "王五"), TeamRow(4, "03", "赵\u2060六",
                                                                                          "\ufeff赵六")]
    teams, problems = validate_teams(rows)
    assert [t.id for t in teams] == ["01"]
    assert problems == (
        TeamProblem(3, "队员1", "队员“张三”已在第2行（第01组）报名，每人只能参加一组"),
        TeamProblem(4, "队员2", "两名队员是同一人“赵六”"),
    )


def test_names_print_clean():
    teams, _ = validate_teams([TeamRow(2, "01", "张\u200b三\u00ad", "李\ufeff四")])
    assert teams[0].players == ("张三", "李四") and teams[0].label == "第01组（张三、李四）"


def test_valid_rows_become_teams_in_row_order():
    rows = [
        TeamRow(2, " 03 ", " 张三", "李四 ", " 2973620 ", " 老同事 "),
        TeamRow(3, "01", "王五", "赵六"),
    ]
    teams, problems = validate_teams(rows)
    assert problems == ()
    assert teams == (Team("03", ("张三", "李四"), "2973620", "老同事"), Team("01", ("王五", "赵六")))
    assert teams[0].label == "第03组（张三、李四）"


def test_empty_id():
    teams, problems = validate_teams([TeamRow(2, "  ", "张三", "李四")])
    assert teams == ()
    assert problems == (TeamProblem(2, "组号", "组号不能为空"),)


def test_duplicate_id_names_the_first_row():
    teams, problems = validate_teams([TeamRow(2, "01", "张三", "李四"), TeamRow(5, " 01", "王五", "赵六")])
    assert [t.id for t in teams] == ["01"]
    assert problems == (TeamProblem(5, "组号", "组号“01”与第2行重复"),)


def test_missing_players():
    _, problems = validate_teams([TeamRow(4, "01", "", " "), TeamRow(6, "02", "王五", "")])
    assert problems == (
        TeamProblem(4, "队员1", "每组应有两名队员，此处为空"),
        TeamProblem(4, "队员2", "每组应有两名队员，此处为空"),
        TeamProblem(6, "队员2", "每组应有两名队员，此处为空"),
    )


def test_same_player_twice_in_a_team():
    teams, problems = validate_teams([TeamRow(3, "01", "张三", " 张三 ")])
    assert teams == ()
    assert problems == (TeamProblem(3, "队员2", "两名队员是同一人“张三”"),)


def test_player_in_two_teams_names_the_other_row_and_team():
    rows = [TeamRow(2, "01", "张三", "李四"), TeamRow(3, "02", "王五", "李四"), TeamRow(4, "03", "张三 ", "赵六")]
    teams, problems = validate_teams(rows)
    assert [t.id for t in teams] == ["01"]
    assert problems == (
        TeamProblem(3, "队员2", "队员“李四”已在第2行（第01组）报名，每人只能参加一组"),
        TeamProblem(4, "队员1", "队员“张三”已在第2行（第01组）报名，每人只能参加一组"),
    )


def test_every_problem_is_reported_not_just_the_first():
    rows = [
        TeamRow(2, "01", "张三", "李四"),
        TeamRow(3, "01", "王五", "王五"),
        TeamRow(4, "", "李四", ""),
    ]
    teams, problems = validate_teams(rows)
    assert [t.id for t in teams] == ["01"]
    assert problems == (
        TeamProblem(3, "组号", "组号“01”与第2行重复"),
        TeamProblem(3, "队员2", "两名队员是同一人“王五”"),
        TeamProblem(4, "组号", "组号不能为空"),
        TeamProblem(4, "队员2", "每组应有两名队员，此处为空"),
        TeamProblem(4, "队员1", "队员“李四”已在第2行（第01组）报名，每人只能参加一组"),
    )


def test_a_team_id_is_written_one_way_everywhere():
    from shuangsheng.knockout.teams import canonical_id, team_label, team_name
    from shuangsheng.storage.workbook.parsers import parse_team_id

    assert [canonical_id(t) for t in ("9", "09", "009", "12", "123", "A1", "")] == ["09", "09", "09", "12", "123",
                                                                                     "A1", ""]
    assert team_name("9") == team_name("09") == "第09组" and team_name("1") == "第01组"
    assert [parse_team_id(v) for v in (9, 9.0, "9", " 09 ", "０９", "第9组", "第 09 组")] == ["09"] * 7
    teams, problems = validate_teams([TeamRow(2, "9", "张三", "李四"), TeamRow(3, "10", "王五", "赵六")])
    assert problems == () and [t.id for t in teams] == ["09", "10"]
    assert team_label({t.id: t for t in teams}, "09", 2) == "第09组（张三、李四）"
    _, problems = validate_teams([TeamRow(2, "3", "张三", "李四"), TeamRow(3, "03", "王五", "赵六")])
    assert problems == (TeamProblem(3, "组号", "组号“03”与第2行重复"),)


def test_a_name_over_the_length_limit_is_refused_at_its_cell():
    """A pasted paragraph in a name cell would be cut in the workbook and fill a page of the draw sheet."""
    longest = "阿" * MAX_NAME_LENGTH
    teams, problems = validate_teams([TeamRow(2, "01", longest, "李四"), TeamRow(3, "02", "王五", "赵" * 40000)])
    assert [t.id for t in teams] == ["01"]
    assert problems == (TeamProblem(3, "队员2", f"姓名最多 {MAX_NAME_LENGTH} 个字，实际有 40000 个字（“赵赵赵赵赵赵赵赵…”）；每格只填一人的姓名"),)


@pytest.mark.parametrize(("written", "side"), [("A1", "A"), ("a001", "A"), ("3", "B"), ("03", "B"), ("乙", "B")])
def test_a_forfeit_written_as_the_team_id_is_read_with_its_digits_as_numbers(written, side):
    from shuangsheng.game.levels import Side
    from shuangsheng.knockout.knockout import Pairing
    from shuangsheng.storage.workbook.round_reader import parse_forfeit

    assert parse_forfeit(written, Pairing(1, "A01", "03")) is Side[side]
    with pytest.raises(ValueError):
        parse_forfeit("A10", Pairing(1, "A01", "03"))


def test_a_player_entered_twice_is_named_with_the_pair_as_wide_as_the_list_s_ids():
    """In a list reaching 100 the papers print 第007组: so does the check of teams.xlsx."""
    from shuangsheng.knockout.teams import TeamRow, validate_teams

    rows = [TeamRow(2, "7", "张7甲", "李7乙"), TeamRow(3, "100", "张7甲", "王五")]
    _, problems = validate_teams(rows)
    assert [p.message for p in problems] == ["队员“张7甲”已在第2行（第007组）报名，每人只能参加一组"]
    _, problems = validate_teams([rows[0], TeamRow(3, "8", "张7甲", "王五")])
    assert "（第07组）" in problems[0].message
