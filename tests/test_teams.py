"""Teams (issue 3): ids unique, two different players per team, no player in two teams, names trimmed;
every problem with its row."""

from __future__ import annotations

from scoring.teams import Team, TeamProblem, TeamRow, clean_name, validate_teams


def test_names_are_trimmed_and_inner_spaces_folded():
    assert clean_name("  张 三 ") == "张 三"
    assert clean_name("\u3000李\u3000\u3000四\u3000") == "李 四"
    assert clean_name("   ") == ""


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
    from scoring.teams import canonical_id, team_label, team_name
    from scoring.workbook.parsers import parse_team_id

    assert [canonical_id(t) for t in ("9", "09", "009", "12", "123", "A1", "")] == ["09", "09", "09", "12", "123",
                                                                                     "A1", ""]
    assert team_name("9") == team_name("09") == "第09组" and team_name("1") == "第01组"
    assert [parse_team_id(v) for v in (9, 9.0, "9", " 09 ", "０９", "第9组", "第 09 组")] == ["09"] * 7
    teams, problems = validate_teams([TeamRow(2, "9", "张三", "李四"), TeamRow(3, "10", "王五", "赵六")])
    assert problems == () and [t.id for t in teams] == ["09", "10"]
    assert team_label({t.id: t for t in teams}, "09") == "第09组（张三、李四）"
    _, problems = validate_teams([TeamRow(2, "3", "张三", "李四"), TeamRow(3, "03", "王五", "赵六")])
    assert problems == (TeamProblem(3, "组号", "组号“03”与第2行重复"),)
