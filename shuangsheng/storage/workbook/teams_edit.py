"""`teams.xlsx` as the console's 报名 page shows and edits it (reads and writes teams.xlsx and its dated copy).

`read_team_table`: every row as text with each problem at its cell (the reader's own `Issue` records), even when the
file has errors. `add_team` and `correct_team`: the one exception to "never modify a file the user filled"
(docs/workbooks.md) — only when the file is unchanged since the page read it (its fingerprint) and not open in
Excel or WPS; edited with openpyxl (XlsxWriter cannot edit a file), so every other row, column, cell, style, comment
and data validation stays as openpyxl keeps it; text is stored as text, never as a formula; the result is read again
by the team list's reader before it replaces the file, and refused with the reader's problems when it brought new
ones; the file before is kept as a dated copy beside it, and the new one replaces it atomically.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from shuangsheng.storage import files
from shuangsheng.storage.workbook.loading import Grid, Uncached, open_workbook, read_file, read_grids
from shuangsheng.storage.workbook.parsers import parse_team_id, plain_text
from shuangsheng.storage.workbook.problems import Cell, Problem, WorkbookError
from shuangsheng.storage.workbook.schema import EXAMPLE_TEAMS, TEAM_ID_LABEL, TEAMS_HEADER, TEAMS_REQUIRED
from shuangsheng.storage.workbook.teams import team_sheet, teams_of
from shuangsheng.vocabulary.errors import Issue, UserError

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

EDITABLE = TEAMS_HEADER[1:]  # 队员1, 队员2, 联系电话, 备注, 单位, 种子, 候补: what a page may type (组号 is given)
OPTIONAL = TEAMS_HEADER[len(TEAMS_REQUIRED):]  # the columns a file may lack: added when a value needs one


# --- the table as the page shows it ---


@dataclass(frozen=True)
class TeamTableRow:
    """One filled row of the 报名表: its row in the sheet, the text of each of the table's columns, its 组号 as the
    reader writes it ('' when the cell holds none it takes) and the problems the reader finds in the row."""

    row: int
    cells: tuple[str, ...]
    team_id: str
    issues: tuple[Issue, ...] = ()


@dataclass(frozen=True)
class TeamTable:
    """teams.xlsx as the 报名 page shows it: the team columns the file has (`columns`, labels in TEAMS_HEADER
    order, at `positions` in the sheet), every filled row below the header, every problem the reader finds
    (`issues`, each at its file, sheet and cell; those of a row are also on it), and the file's fingerprint (the
    sha256 of its bytes, handed back to `add_team` and `correct_team`). `sheet` and `header_row` are None when the
    reader finds no 报名表 (its problem says so)."""

    path: Path
    sheet: str | None
    header_row: int | None
    columns: tuple[str, ...]
    positions: tuple[int, ...]
    rows: tuple[TeamTableRow, ...]
    issues: tuple[Issue, ...]
    fingerprint: str

    def row_of(self, team_id: str) -> TeamTableRow | None:
        found = [r for r in self.rows if r.team_id and r.team_id == _canonical(team_id)]
        return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class TeamEdit:
    """What `add_team` or `correct_team` wrote: the team's 组号 and its row, the columns added to the file for a
    value (labels), the dated copy of the file before, and the file as it is now."""

    team_id: str
    row: int
    added_columns: tuple[str, ...]
    backup: Path
    table: TeamTable

    @property
    def fingerprint(self) -> str:
        return self.table.fingerprint


class TeamsRefused(UserError):
    """Nothing was written: the file is as it was."""


class TeamsStale(TeamsRefused):
    """teams.xlsx changed since the page read it."""


class TeamsOpen(TeamsRefused):
    """teams.xlsx is open in Excel or WPS (its owner file beside it), or the system refused the write."""


class TeamsInvalid(TeamsRefused, ValueError):
    """The edit would leave the team list with problems it did not have (the reader's records), or asked for
    something the file cannot take (an unknown column, a 组号 that is not in it)."""


STALE = "报名表在别处被改过（可能在 Excel 或 WPS 里保存过），请点“重新读取”后再改"


def read_team_table(path: Path) -> TeamTable:
    """The team list as the page shows it, with every problem at its cell (`TeamTable`). A file that cannot be
    read at all (missing, no workbook) raises WorkbookError."""
    path = Path(path)
    return _table(path, read_file(path))


def _table(path: Path, data: bytes) -> TeamTable:
    name = path.name
    grids = read_grids(data, name)
    issues = _problems(grids, name)
    try:
        grid, header_row, found = team_sheet(grids, name)
    except WorkbookError:
        return TeamTable(path, None, None, (), (), (), issues, files.sha256(data))
    columns = tuple(label for label in TEAMS_HEADER if label in found)
    positions = tuple(found[label] for label in columns)
    filled = sorted({r for (r, c) in grid.cells if r > header_row and c in positions})
    rows = tuple(TeamTableRow(r, tuple(_text(grid.get(r, c)) for c in positions), _team_id(grid.get(r, found[TEAM_ID_LABEL])),
                              tuple(i for i in issues if i.row == r)) for r in filled)
    return TeamTable(path, grid.name, header_row, columns, positions, rows, issues, files.sha256(data))


def _problems(grids: Mapping[str, Grid], name: str) -> tuple[Issue, ...]:
    try:
        teams_of(grids, name)
    except WorkbookError as exc:
        return exc.issues
    return ()


def _text(raw: object) -> str:
    """A cell as the page shows it: a formula without a saved value by its formula."""
    return raw.formula if isinstance(raw, Uncached) else plain_text(raw)


def _team_id(raw: object) -> str:
    try:
        return parse_team_id(raw)
    except ValueError:
        return ""


def _canonical(team_id: str) -> str:
    return _team_id(team_id)


# --- editing ---


def add_team(path: Path, row: Mapping[str, str], fingerprint: str) -> TeamEdit:
    """A new team at the end of the list, numbered with the next free 组号 in the file's own style (after 07 comes
    08, after 7 comes 8, after A07 comes A08); `row` holds its cells by label (队员1, 队员2, 联系电话, 备注, 单位,
    种子, 候补; the missing ones left blank). A list that holds nothing but the template's untouched example rows
    has them replaced: its first team is the first row. Refused (nothing written) with `TeamsStale`, `TeamsOpen`,
    `TeamsInvalid` (the reader's problems with the new row, or new problems elsewhere, such as a player listed
    twice)."""
    return _edit(Path(path), row, fingerprint, team_id=None)


def correct_team(path: Path, team_id: str, row: Mapping[str, str], fingerprint: str) -> TeamEdit:
    """The row of 组号 `team_id` with the cells of `row` replaced (by label, as in `add_team`; an empty text
    clears the cell; a label not given is left as it is). Refused as `add_team` is, and with `TeamsInvalid` when no
    row or more than one holds that 组号, or when the row keeps a problem."""
    return _edit(Path(path), row, fingerprint, team_id=team_id)


@dataclass(frozen=True)
class _Sheet:
    """Where the team list sits: its sheet, header row and the column of each header label."""

    name: str
    header_row: int
    columns: dict[str, int]
    grid: Grid


def _edit(path: Path, row: Mapping[str, str], fingerprint: str, *, team_id: str | None) -> TeamEdit:
    name = path.name
    unknown = [label for label in row if label not in EDITABLE]
    if unknown:
        raise TeamsInvalid([Issue.of_file(name, f"报名表没有“{label}”这一栏（可填：{'、'.join(EDITABLE)}）") for label in unknown])
    data = _unchanged(path, fingerprint)
    grids = read_grids(data, name)
    try:
        grid, header_row, columns = team_sheet(grids, name)
    except WorkbookError as exc:
        raise TeamsInvalid(exc.issues) from None
    sheet = _Sheet(grid.name, header_row, dict(columns), grid)
    wb = open_workbook(data, name, read_only=False)
    ws = wb[sheet.name]
    if team_id is None:
        target, new_id = _new_row(ws, sheet)
    else:
        target, new_id = _row_of(sheet, team_id, name), _canonical(team_id)
    added = _write_row(ws, sheet, target, row, name)
    new = _saved(wb)
    _check(_problems(grids, name), _problems(read_grids(new, name), name), target)
    _unchanged(path, fingerprint)  # changed while this was being made: nothing written
    try:
        backup = files.keep_copy(path)
        files.write_bytes(path, new, force=True)
    except files.CannotWrite as exc:
        raise TeamsOpen(exc.issues) from None
    return TeamEdit(new_id, target, added, backup, _table(path, new))


def _unchanged(path: Path, fingerprint: str) -> bytes:
    """The file's bytes, if it is still the file of `fingerprint` and not open in Excel or WPS."""
    data = read_file(path)
    if files.sha256(data) != fingerprint:
        raise TeamsStale([Issue.of_file(path.name, STALE)])
    owner = next((p for p in owner_files(path) if p.exists()), None)
    if owner is not None:
        raise TeamsOpen([Issue.of_file(path.name, f"正在 Excel 或 WPS 中打开（旁边有 {owner.name}）；请在 Excel 或 WPS 中保存并关闭它，"
                                                  "再点“重新读取”")])
    return data


def owner_files(path: Path) -> tuple[Path, ...]:
    """The files Excel, WPS and LibreOffice leave beside a workbook while it is open: `~$teams.xlsx` (Excel and WPS;
    for a longer name Excel replaces its first two characters instead) and `.~lock.teams.xlsx#` (LibreOffice)."""
    name = path.name
    return (path.with_name(f"~${name}"), path.with_name(f"~${name[2:]}"), path.with_name(f".~lock.{name}#"))


def _row_of(sheet: _Sheet, team_id: str, name: str) -> int:
    wanted = _canonical(team_id)
    column = sheet.columns[TEAM_ID_LABEL]
    found = [r for (r, c), raw in sorted(sheet.grid.cells.items())
             if c == column and r > sheet.header_row and wanted and _team_id(raw) == wanted]
    if len(found) == 1:
        return found[0]
    where = "、".join(f"第{r}行" for r in found)
    detail = f"组号 {team_id} 在报名表里有 {len(found)} 行（{where}），请先在 Excel 里改正" if found else f"报名表里没有组号 {team_id}"
    raise TeamsInvalid([Problem.of_cell(name, sheet.name, None, detail)])


def _new_row(ws: Worksheet, sheet: _Sheet) -> tuple[int, str]:
    """The row a new team goes in, and its 组号 (written into the row here)."""
    positions = set(sheet.columns[label] for label in TEAMS_HEADER if label in sheet.columns)
    filled = sorted({r for (r, c) in sheet.grid.cells if r > sheet.header_row and c in positions})
    if filled and _examples_only(sheet, filled):
        for r in filled:  # the template's example rows, untouched: the first real team takes their place
            for c in positions:  # cleared, and as plain as the prepared row below them (not grey and italic)
                ws.cell(r, c).value = None
                _same_look(ws.cell(r, c), ws.cell(filled[-1] + 1, c))
        filled = []
    ids = [_text(sheet.grid.get(r, sheet.columns[TEAM_ID_LABEL])) for r in filled]
    target = (filled[-1] if filled else sheet.header_row) + 1
    new_id = next_id(ids)
    _put(ws, target, sheet.columns[TEAM_ID_LABEL], new_id)
    return target, new_id


def _examples_only(sheet: _Sheet, filled: Sequence[int]) -> bool:
    examples = {(t.id, *t.players, t.phone, t.note) for t in EXAMPLE_TEAMS}
    labels = TEAMS_HEADER[:5]
    for r in filled:
        row = tuple(_text(sheet.grid.get(r, sheet.columns[label])) if label in sheet.columns else "" for label in labels)
        rest = [sheet.grid.get(r, sheet.columns[label]) for label in TEAMS_HEADER[5:] if label in sheet.columns]
        if row not in examples or any(v is not None for v in rest):
            return False
    return True


_NUMBERED = re.compile(r"([A-Za-z]*)([0-9]+)")


def next_id(ids: Sequence[str]) -> str:
    """The next free 组号 after `ids` (as typed) in their style: the letters of the last numbered one, its number
    plus one past the highest with those letters, as wide as the zero-padded ones ('01'…'07' → '08', '1'…'9' →
    '10', 'A01', 'A02' → 'A03'); '01' for an empty list (the template's style)."""
    numbered = [m for text in ids if (m := _NUMBERED.fullmatch(text.strip()))]
    if not numbered:
        return "01"
    prefix = numbered[-1].group(1)
    same = [m.group(2) for m in numbered if m.group(1).upper() == prefix.upper()]
    width = max((len(d) for d in same if d.startswith("0")), default=1)
    taken = {_canonical(text) for text in ids}
    number = max(int(d) for d in same) + 1
    while _canonical(f"{prefix}{number:0{width}d}") in taken:
        number += 1
    return f"{prefix}{number:0{width}d}"


def _write_row(ws: Worksheet, sheet: _Sheet, target: int, row: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Put `row`'s cells into the sheet's row `target`; a column the file lacks is added (its header after the
    last one) only for a value that needs it. Returns the labels of the columns added."""
    added = []
    for label in EDITABLE:
        if label not in row:
            continue
        text = row[label].strip()
        if label not in sheet.columns:
            if not text:
                continue
            sheet.columns[label] = _add_column(ws, sheet, label)
            added.append(label)
        _put(ws, target, sheet.columns[label], text or None, name=name, sheet=sheet.name)
    return tuple(added)


def _add_column(ws: Worksheet, sheet: _Sheet, label: str) -> int:
    header = [c for (r, c) in sheet.grid.cells if r == sheet.header_row] + list(sheet.columns.values())
    column = max(header) + 1
    _put(ws, sheet.header_row, column, label)
    last = ws.cell(sheet.header_row, max(sheet.columns[label] for label in TEAMS_HEADER if label in sheet.columns))
    if last.has_style:
        _same_look(ws.cell(sheet.header_row, column), last)
    return column


def _same_look(cell: object, model: object) -> None:
    """`cell` formatted as `model` is: font, fill, border, alignment, protection and number format."""
    for part in ("font", "fill", "border", "alignment", "protection", "number_format"):
        setattr(cell, part, copy(getattr(model, part)))


def _put(ws: Worksheet, row: int, column: int, text: str | None, *, name: str = "", sheet: str = "") -> None:
    """A cell set to `text` as text (a leading =, +, - or @ stays text, never a formula), or cleared; a cell
    without a style of its own takes the one of the cell above (the row typed before it)."""
    from openpyxl.cell.cell import MergedCell
    from openpyxl.utils.exceptions import IllegalCharacterError

    cell = ws.cell(row, column)
    if isinstance(cell, MergedCell):
        raise TeamsInvalid([Problem.of_cell(name, sheet, Cell(row, column), "这一格和别的格合并了，请先在 Excel 里取消合并")])
    try:
        cell.value = text
    except IllegalCharacterError:
        raise TeamsInvalid([Problem.of_cell(name, sheet, Cell(row, column), "含有不能写进表格的控制字符，请重新输入")]) from None
    if text is not None:
        cell.data_type = "s"
    above = ws.cell(row - 1, column) if row > 1 else None
    if not cell.has_style and above is not None and above.has_style:
        _same_look(cell, above)


def _saved(wb: Workbook) -> bytes:
    buffer = io.BytesIO()
    wb.save(buffer)
    wb.close()
    return buffer.getvalue()


def _check(before: Sequence[Issue], after: Sequence[Issue], target: int) -> None:
    """Refuse the edit when the reader finds a problem in the edited row, or one it did not find before."""
    known = {(i.sheet, i.cell, i.detail) for i in before}
    new = [i for i in after if i.row == target or (i.sheet, i.cell, i.detail) not in known]
    if new:
        raise TeamsInvalid(new)
