"""`teams.xlsx`: the team list, written for `init`/`demo` and read by every command (reads and writes files).

组号 is text (the column is text-formatted); digits are written one way (`shuangsheng.knockout.teams.canonical_id`): a number
cell 3, "3", "03" and full-width "０３" are all "03", so "3" next to "03" is the same 组号 twice. A 组号 is digits,
optionally with ASCII letters (`shuangsheng.knockout.teams.id_problem`); ids and names are normalised (`shuangsheng.knockout.teams.normalize`). Template example rows carry 备注
“示例，请删除” and are errors until removed, so no example team is ever drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from shuangsheng.knockout.knockout import MAX_TEAMS
from shuangsheng.knockout.teams import RESERVE_MARK, Team, TeamRow, id_digits, id_refused, validate_teams
from shuangsheng.storage.workbook.loading import Grid, Uncached, read_file, read_grids
from shuangsheng.storage.workbook.parsers import blank, parse_team_id, plain_text, show
from shuangsheng.storage.workbook.problems import Cell, Problem, WorkbookError
from shuangsheng.storage.workbook.schema import (
    EXAMPLE_MARK,
    EXAMPLE_TEAMS,
    TEAMS_HEADER,
    TEAMS_REQUIRED,
    TEAMS_ROWS,
    TEAMS_SHEET,
)

ID_LABEL, FIRST_LABEL, SECOND_LABEL, PHONE_LABEL, NOTE_LABEL, UNIT_LABEL, SEED_LABEL, RESERVE_LABEL = TEAMS_HEADER


def write_teams(path: Path, teams: Sequence[Team] = (), *, examples: bool = False, force: bool = False) -> Path:
    """`teams.xlsx`: sheet 报名表 with its header, text-formatted 组号 and 联系电话, validation, the given teams;
    with `examples`, a few example rows whose 备注 is “示例，请删除” (read_teams refuses them until removed).
    Every value is written as text (XlsxWriter, through `style.put`): an id or a name beginning with `=` stays
    what was typed; a numbered 组号 as wide as the field's (`padded`)."""
    import io

    from shuangsheng.storage.workbook.style import (
        EXAMPLE,
        HEADER,
        TEXT_FORMAT,
        TITLE,
        Formats,
        column_widths,
        new_workbook,
        print_setup,
        put,
        save,
        set_widths,
    )

    buffer = io.BytesIO()
    wb = new_workbook(buffer)
    fm = Formats(wb)
    ws = wb.add_worksheet(TEAMS_SHEET)
    for col, label in enumerate(TEAMS_HEADER, start=1):
        put(ws, 1, col, label, fm(HEADER))
    rows = list(EXAMPLE_TEAMS if examples else ()) + list(teams)
    text_columns = (1, 4, 7)  # 组号, 联系电话, 种子 as text: a typed 03 stays 03
    digits = id_digits(t.id for t in rows)  # 001–128 in a field over 99, not 01–99 then 100–128
    for r, team in enumerate(rows, start=2):
        look = EXAMPLE if team.note == EXAMPLE_MARK else {}
        values = (padded(team.id, digits), team.players[0], team.players[1], team.phone, team.note, team.unit,
                  str(team.seed) if team.seed is not None else "", RESERVE_MARK if team.reserve else "")
        for col, value in enumerate(values, start=1):
            put(ws, r, col, value or None, fm(look, TEXT_FORMAT if col in text_columns else {}))
    last = max(TEAMS_ROWS, len(rows) + 1)
    for col in text_columns:  # the prepared rows, as Excel would keep them after a column was formatted as text
        for r in range(len(rows) + 2, last + 1):
            put(ws, r, col, None, fm(TEXT_FORMAT))
    for col, (label, high, message) in enumerate(
        ((ID_LABEL, 10, f"{ID_LABEL}不能为空，最多 10 个字，如 01、02"), (FIRST_LABEL, 20, "请填写队员姓名（最多 20 个字）"),
         (SECOND_LABEL, 20, "请填写队员姓名（最多 20 个字）")),
        start=1,
    ):
        ws.data_validation(1, col - 1, last - 1, col - 1, {
            "validate": "length", "criteria": "between", "minimum": 1, "maximum": high, "ignore_blank": True,
            "error_type": "stop", "error_title": f"{label}填写有误", "error_message": message,
            "input_title": label, "input_message": message,
        })
    widths = column_widths([TEAMS_HEADER] + [(t.id, *t.players, t.phone, t.note, t.unit) for t in rows])
    widths[1], widths[4], widths[5] = max(widths.get(1, 6), 8), max(widths.get(4, 6), 14), max(widths.get(5, 6), 24)
    widths[6] = max(widths.get(6, 6), 12)
    set_widths(ws, widths)
    ws.freeze_panes(1, 0)
    print_setup(ws, title_row=1)
    guide = wb.add_worksheet("填写说明")
    for r, line in enumerate(
        (
            "报名表填写说明",
            "1. 每行一组：组号、队员1、队员2 必填；联系电话、备注可不填。",
            "2. 组号是文字，可写 01、02…；同一组号不能出现两次，3 和 03 也不要同时使用。",
            "3. 每位队员只能参加一组。",
            f"4. 备注为“{EXAMPLE_MARK}”的行是示例，抽签前请删除这些行。",
            "5. 请保留第一行的表头，不要改动工作表名“报名表”。",
            "6. 单位、种子、候补可不填：同一单位的组第1轮尽量不相遇；种子填 1、2、3…（每个号只用一次），种子之间第1轮尽量不相遇；",
            f"   候补填“{RESERVE_MARK}”：候补组不直接参加抽签；报到时有组弃权，到场的候补组按本表顺序补入空位。",
        ),
        start=1,
    ):
        put(guide, r, 1, line, fm(TITLE) if r == 1 else None)
    guide.set_column(0, 0, 80)
    return save(wb, buffer, path, force=force)


def padded(team_id: str, digits: int) -> str:
    """A 组号 as the team list writes it: a number as wide as the field's (`id_digits`: '34' → '034' in a field over
    99), anything else as given (reading takes either width: `canonical_id`)."""
    return team_id.rjust(digits, "0") if team_id.isascii() and team_id.isdigit() else team_id


def write_teams_template(path: Path, *, force: bool = False) -> Path:
    """The blank `teams.xlsx` of `init`: header, validation and example rows marked “示例，请删除”."""
    return write_teams(path, (), examples=True, force=force)


def read_teams(path: Path) -> tuple[Team, ...]:
    """Teams from `teams.xlsx` in row order; WorkbookError lists every problem (`teams.xlsx 报名表!B5：…`).

    Blank rows are skipped; rows still marked “示例，请删除” are errors (so no example team is ever drawn).
    """
    path = Path(path)
    return teams_of(read_grids(read_file(path), path.name), path.name)


def team_sheet(grids: Mapping[str, Grid], name: str) -> tuple[Grid, int, dict[str, int]]:
    """The 报名表 sheet of a team list read into `grids` (or the one sheet with its header, when it was renamed),
    its header row and the column of each label found there; WorkbookError when there is none."""
    grid = grids.get(TEAMS_SHEET)
    if grid is None:  # a renamed sheet: the one sheet with the header row is unambiguous
        with_header = [g for g in grids.values() if g.find_header(TEAMS_REQUIRED)]
        if len(with_header) == 1:
            grids = {with_header[0].name: with_header[0]}
        if len(grids) != 1:
            raise WorkbookError([Problem.of_cell(name, None, None, f"找不到工作表“{TEAMS_SHEET}”（现有：{'、'.join(grids)}）")])
        grid = next(iter(grids.values()))
    found = grid.find_header(TEAMS_REQUIRED)
    if found is None:
        raise WorkbookError(
            [Problem.of_cell(name, grid.name, None, f"找不到表头行（应有 {' | '.join(TEAMS_HEADER)}，其中组号、队员1、队员2 必须有）")]
        )
    header_row, columns = found
    return grid, header_row, columns


def teams_of(grids: Mapping[str, Grid], name: str) -> tuple[Team, ...]:
    """`read_teams` of a team list already read into `grids` (`name`: the file's name in messages)."""
    grid, header_row, columns = team_sheet(grids, name)
    sheet = grid.name
    filled = sorted({r for (r, c) in grid.cells if r > header_row and c in columns.values()})
    if len(filled) > MAX_TEAMS:  # thousands of rows: a pasted table, not a team list; no list of problems for each
        raise WorkbookError([Problem.of_cell(name, sheet, None, f"报名表第{filled[0]}–{filled[-1]}行填了 {len(filled)} 行，"
                                     f"本程序最多支持 {MAX_TEAMS} 组（每行一组）；请检查是否粘贴了别的表格")])
    problems: list[Problem] = []
    rows: list[TeamRow] = []
    for r in range(header_row + 1, grid.max_row + 1):
        raw = {label: grid.get(r, columns[label]) if label in columns else None for label in TEAMS_HEADER}
        if all(blank(v) for v in raw.values()):
            continue
        row, row_problems = _team_row(r, raw)
        problems.extend(Problem.of_cell(name, sheet, Cell(r, columns[label]), message) for label, message in row_problems)
        if row is not None:
            rows.append(row)
    teams, team_problems = validate_teams(rows)
    for p in team_problems:
        problems.append(Problem.of_cell(name, sheet, Cell(p.row, columns[p.column]), p.message))
    if not problems and not teams:
        problems.append(Problem.of_cell(name, sheet, None, "报名表中还没有任何参赛组"))
    if problems:
        raise WorkbookError(sorted(problems, key=Problem.order))
    return teams


def holds_no_teams(path: Path) -> bool:
    """`teams.xlsx` lists nobody yet: its 报名表 sheet has the header and, below it, nothing but the template's
    example rows exactly as `init` wrote them (or no rows at all). Not an error before registration: `materials`
    prints blank forms for it. A list that cannot be read, or holds anything else, is not this."""
    try:
        grid = read_grids(read_file(Path(path)), Path(path).name).get(TEAMS_SHEET)
    except WorkbookError:
        return False
    found = grid.find_header(TEAMS_REQUIRED) if grid is not None else None
    if grid is None or found is None:
        return False
    header_row, columns = found
    untouched = {(t.id, *t.players, t.phone, t.note, "", "", "") for t in EXAMPLE_TEAMS}
    for r in range(header_row + 1, grid.max_row + 1):
        row = tuple(plain_text(grid.get(r, columns[label])) if label in columns else "" for label in TEAMS_HEADER)
        if any(row) and row not in untouched:
            return False
    return True


def _team_row(r: int, raw: Mapping[str, object]) -> tuple[TeamRow | None, list[tuple[str, str]]]:
    """One filled row of the 报名表 as typed, or (None, its problems as (column label, message))."""
    uncached = [(label, f"{label}是{v}") for label, v in raw.items() if isinstance(v, Uncached)]
    if uncached:
        return None, uncached
    try:
        team_id = parse_team_id(raw[ID_LABEL])
    except ValueError:
        return None, [(ID_LABEL, id_refused(show(raw[ID_LABEL])))]
    note = plain_text(raw[NOTE_LABEL]).strip()
    if EXAMPLE_MARK in note or note.startswith("示例"):
        return None, [(NOTE_LABEL, f"这是模板里的示例行（备注为“{note}”）；请删除这一行，或填入真实报名并清空备注")]
    return TeamRow(r, team_id, plain_text(raw[FIRST_LABEL]), plain_text(raw[SECOND_LABEL]), plain_text(raw[PHONE_LABEL]),
                   note, plain_text(raw[UNIT_LABEL]), plain_text(raw[SEED_LABEL]), plain_text(raw[RESERVE_LABEL])), []
