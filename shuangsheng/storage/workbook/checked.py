"""The checked copy `round-N-checked.xlsx`: the round workbook annotated hand by hand (reads and writes files).

A 检查结果 sheet first (each table's levels and result, then every problem with its place); then every sheet of
the round workbook with the values as they were read, each at its own cell, so `第3桌!D9` in a message is D9 in
the copy too. Right of each table's hands: the defenders' total, both levels, the next dealer and the
explanation; every bad cell is filled red, commented and marked ✗. The workbook the user filled is never written.

The copy is rendered from what the reader holds (`RoundSheet.grids`) with XlsxWriter (through `style`, so a value
beginning with `=` stays text), not by loading and re-saving the user's file with openpyxl: for a 64-table round
that took four times as long as all the rest of `score`. So it keeps values, not the user's own formatting. It
prints A4 landscape at a scale where its text is at least 10 pt, with each row as tall as its wrapped explanation.

The copy is laid out first (`CheckedCopy`: its sheets as plain records), then written. Its fingerprint — of the
layout and of the code that writes it — is kept in the file (a custom document property), so `score` run again
on a round that did not change leaves the copy already there as it is (`made_from`), when event.db says it is
the program's, unedited.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import io
import math
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from shuangsheng.game.levels import Side
from shuangsheng.knockout.teams import shown_id
from shuangsheng.storage.files import write_bytes
from shuangsheng.storage.workbook.loading import Grid, read_file
from shuangsheng.storage.workbook.problems import Problem, WorkbookError
from shuangsheng.storage.workbook.round_reader import MatchSheet, RoundSheet
from shuangsheng.storage.workbook.schema import (
    A_ROW,
    BAD_MARK,
    CHECK_COLUMNS,
    CHECK_SHEET,
    CHECK_SUMMARY_HEADER,
    CHECK_SUMMARY_HEADER_ROW,
    COLUMN_BY_KEY,
    GOOD_MARK,
    MATCHES_HEADER,
    NOTE_LABEL,
    NUMBER_LABEL,
    POOL_HEADER,
    UNCHECKED,
)
from shuangsheng.storage.workbook.style import (
    BAD_FILL,
    BOLD,
    BORDERED,
    CENTERED,
    HEADER_FILL,
    LABEL_FILL,
    WRAPPED,
    new_workbook,
    put,
    set_widths,
)
from shuangsheng.vocabulary.errors import SHOWN_PROBLEMS
from shuangsheng.vocabulary.text import width as display_width

if TYPE_CHECKING:
    from xlsxwriter.format import Format
    from xlsxwriter.worksheet import Worksheet

    from shuangsheng.game.match import MatchResult

# Column widths in the copy (characters; a Chinese character takes two; the hand table's: Column.widths.checked).
# Headers wrap, so the hand table and the check columns together fit A4 landscape at the print scale.
OTHER_WIDTH = 6  # a column of the user's that is not the schema's
CHECK_WIDTHS = {"检查": 4, "台下总分": 5, "甲方级": 4, "乙方级": 4, "下局庄家": 5, "说明": 28}
SUMMARY_WIDTHS = {1: 5, 2: 9, 3: 9, 4: 6, 5: 6, 6: 6, 7: 56}
CELL_TEXT_MAX = 200  # a longer text (a pasted page) is copied cut, with its length said: the copy stays small
PLAIN_MAX_WIDTH = 24  # longer texts in the 对阵 sheet run over their empty neighbours instead of widening a column
assert set(CHECK_WIDTHS) == set(CHECK_COLUMNS)

FONT = {"font_name": "宋体", "font_size": 12}  # the whole copy; printed at PRINT_SCALE it stays ≥ 10 pt
PRINT_SCALE = 85  # percent: 12 pt × 0.85 = 10.2 pt on paper
LINE_HEIGHT = 16.5  # points per line of wrapped 12 pt text
MAX_NOTES = 60  # comments per sheet: thousands of them (a pasted page of text) would make the copy huge and slow
NOTE = {"width": 320, "height": 120, "font_name": "宋体", "font_size": 10}  # a comment's box (pixels) and text


class Look(enum.Enum):
    """The cell formats of the copy, by their properties."""

    PLAIN = None
    HEADER = (("bold", True), ("bg_color", HEADER_FILL), *CENTERED.items(), ("text_wrap", True), *BORDERED.items())
    CELL = (*BORDERED.items(), *CENTERED.items())
    TEXT = (*BORDERED.items(), *WRAPPED.items())
    BAD = (*BORDERED.items(), *CENTERED.items(), ("bg_color", BAD_FILL))
    BOLD = tuple(BOLD.items())
    TITLE = (("bold", True), ("font_size", 16))
    LABEL = (("bold", True), ("bg_color", LABEL_FILL), *BORDERED.items())
    WRAP = tuple(WRAPPED.items())
    BAD_TEXT = (*BORDERED.items(), *WRAPPED.items(), ("bg_color", BAD_FILL))


@dataclass
class Sheet:
    """One worksheet being assembled: cells by (row, column), looks, widths, heights, merges, comments."""

    title: str
    values: dict[tuple[int, int], object] = field(default_factory=dict)
    looks: dict[tuple[int, int], Look] = field(default_factory=dict)
    widths: dict[int, float] = field(default_factory=dict)
    heights: dict[int, float] = field(default_factory=dict)
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)  # first row, col, last row, col
    comments: dict[tuple[int, int], str] = field(default_factory=dict)
    title_rows: tuple[int, int] | None = None  # rows repeated on every printed page
    selected: bool = False

    def put(self, row: int, col: int, value: object = None, look: Look | None = None) -> None:
        if value is not None:
            self.values[(row, col)] = value
        if look is not None:
            self.looks[(row, col)] = look

    def merge(self, row: int, first_col: int, last_col: int, last_row: int | None = None) -> None:
        self.merges.append((row, first_col, last_row or row, last_col))


def cut(value: object) -> object:
    """A cell's value as the copy holds it: a text longer than `CELL_TEXT_MAX` cut, with its length said."""
    if isinstance(value, str) and len(value) > CELL_TEXT_MAX:
        return _cut_text(value)
    return value


@functools.lru_cache(maxsize=256)
def _cut_text(text: str) -> str:  # one object per distinct text: a text shared by thousands of cells is cut once
    return f"{text[:CELL_TEXT_MAX]}…（共 {len(text)} 字，检查副本只抄前 {CELL_TEXT_MAX} 字）"


def match_problems(match: MatchSheet, result: MatchResult | None) -> tuple[Problem, ...]:
    """The reader's problems of a match plus the engine's errors, each at its cell."""
    engine = tuple(match.locate(e) for e in result.errors) if result is not None else ()
    return match.problems + engine


def write_checked(
    path: Path, source: RoundSheet, results: Mapping[int, MatchResult], *, force: bool = False
) -> Path:
    """Write the checked copy of `source` to `path` (never over the source itself). `results` maps table → the
    engine's MatchResult (absent for walkovers and unreadable sheets). WorkbookError if the source file changed
    since it was read."""
    path = Path(path)
    if path.resolve() == Path(source.path).resolve():
        raise ValueError("the checked copy must not overwrite the workbook that was read")
    return write_bytes(path, checked_bytes(source, results), force=force)


SOURCE_PROPERTY = "shuangsheng-source"  # the custom document property holding the copy's fingerprint


@dataclass(frozen=True)
class CheckedCopy:
    """The checked copy laid out, not yet written."""

    sheets: tuple[Sheet, ...]

    @property
    def source(self) -> str:
        """The fingerprint of what the copy holds and of the code that writes it (this module, `style`,
        XlsxWriter's version): equal fingerprints, equal copies."""
        digest = hashlib.sha256(_writer_fingerprint().encode("ascii"))
        for sheet in self.sheets:  # sheet by sheet, each look by its name: no text as large as the whole copy
            looks = {cell: look.name for cell, look in sheet.looks.items()}
            for part in (sheet.title, sheet.values, looks, sheet.widths, sheet.heights, sheet.merges, sheet.comments,
                         sheet.title_rows, sheet.selected):
                digest.update(repr(part).encode("utf-8"))
        return digest.hexdigest()

    def xlsx(self) -> bytes:
        return xlsx_bytes(self.sheets, source=self.source)


_WRITER: list[str] = []


def _writer_fingerprint() -> str:
    if not _WRITER:
        import xlsxwriter

        import shuangsheng.storage.workbook.style as style

        code = Path(__file__).read_bytes() + Path(style.__file__).read_bytes() + xlsxwriter.__version__.encode()
        _WRITER.append(hashlib.sha256(code).hexdigest())
    return _WRITER[0]


def made_from(path: Path) -> str | None:
    """The fingerprint (`CheckedCopy.source`) a checked copy this program wrote carries, or None."""
    from defusedxml import ElementTree

    try:
        with zipfile.ZipFile(path) as archive:
            root = ElementTree.fromstring(archive.read("docProps/custom.xml"))
    except (OSError, KeyError, zipfile.BadZipFile, ValueError, SyntaxError):  # no such part, or not ours
        return None
    for prop in root:
        if prop.get("name") == SOURCE_PROPERTY:
            return "".join(prop.itertext()).strip()
    return None


def checked_bytes(source: RoundSheet, results: Mapping[int, MatchResult]) -> bytes:
    """The checked copy of `source` as the bytes of an .xlsx file (see `write_checked`)."""
    return checked_copy(source, results).xlsx()


def checked_copy(source: RoundSheet, results: Mapping[int, MatchResult]) -> CheckedCopy:
    """The checked copy of `source` laid out (see `write_checked`)."""
    name = Path(source.path).name
    if hashlib.sha256(read_file(source.path)).hexdigest() != source.sha256:
        raise WorkbookError([Problem.of_cell(name, None, None, "文件在读取之后又被修改过，请重新运行 score")])
    everything: list[Problem] = []
    listed: list[Problem] = []  # on the 检查结果 sheet: the first few of each table, then how many more
    seen: set[int] = set()  # a problem may be both the reader's and the round's; by identity, in linear time
    summary_rows: list[tuple[object, ...]] = []
    by_sheet: dict[str, tuple[MatchSheet, MatchResult | None, str]] = {}
    for match in source.matches:
        result = results.get(match.table)
        problems = match_problems(match, result)
        fresh = [p for p in problems if id(p) not in seen]
        seen.update(id(p) for p in fresh)
        everything.extend(fresh)
        listed.extend(fresh[:SHOWN_PROBLEMS])
        if len(fresh) > SHOWN_PROBLEMS:
            listed.append(Problem.of_cell(name, match.sheet, None, f"还有 {len(fresh) - SHOWN_PROBLEMS} 处错误没有列在"
                                          f"这里，在工作表“{match.sheet}”里都已标红（✗），每格的批注写着错在哪里"))
        summary_rows.append(_summary_row(match, result, problems, source.digits))
        by_sheet[match.sheet] = (match, result, str(summary_rows[-1][-1]))
    bad: dict[str, dict[tuple[int, int], list[str]]] = {}
    for p in everything:
        if p.sheet and p.cell:  # a range (merged cells, a 对阵 row) is marked at its first cell
            messages = bad.setdefault(p.sheet, {}).setdefault((p.cell.row, p.cell.column), [])
            if p.message not in messages:
                messages.append(p.message)
    sheets = [_check_sheet(source, summary_rows, listed)]
    for title, grid in source.grids.items():
        if title == CHECK_SHEET:
            continue  # a checked copy given back as the round workbook: its old results are not copied
        marks = bad.get(title, {})
        if title in by_sheet and by_sheet[title][0].header_row is not None:
            sheets.append(_match_sheet(grid, *by_sheet[title], marks))
        else:
            sheets.append(_plain_sheet(grid, marks))
    return CheckedCopy(tuple(sheets))


def xlsx_bytes(sheets: Sequence[Sheet], *, source: str | None = None) -> bytes:
    """The copy as the bytes of an .xlsx file (XlsxWriter), sheets in the given order; `source`: its fingerprint,
    kept as a custom document property."""
    buffer = io.BytesIO()
    wb = new_workbook(buffer, **FONT)
    if source is not None:
        wb.set_custom_property(SOURCE_PROPERTY, source)
    formats: dict[Look | None, Format] = {look: wb.add_format(dict(look.value)) for look in Look if look.value is not None}
    used: set[str] = set()
    for sheet in sheets:
        ws = wb.add_worksheet(_sheet_title(sheet.title, used))
        _render(ws, sheet, formats)
    wb.close()
    return buffer.getvalue()


_NOT_IN_TITLE = re.compile(r"[\[\]:*?/\\]")


def _sheet_title(title: str, used: set[str]) -> str:
    """`title` if Excel allows it as a sheet name here, else the nearest name it allows (a file from another
    program may hold one Excel refuses: too long, a duplicate but for case, a character such as `/`)."""
    name = _NOT_IN_TITLE.sub("_", title).strip("'")[:31] or "工作表"
    candidate, n = name, 1
    while candidate.lower() in used:
        n += 1
        candidate = f"{name[:31 - len(str(n)) - 2]}({n})"
    used.add(candidate.lower())
    return candidate


def _render(ws: Worksheet, sheet: Sheet, formats: Mapping[Look | None, Format]) -> None:
    """One sheet of the copy: cells, merged ranges, comments, widths and heights, print setup."""
    ws.set_default_row(LINE_HEIGHT)
    set_widths(ws, sheet.widths)
    for r, height in sheet.heights.items():
        ws.set_row(r - 1, height)
    values, looks = sheet.values, sheet.looks
    for cell, value in values.items():
        put(ws, *cell, value, formats.get(looks.get(cell)))
    for (r, c), look in looks.items():  # the cells with a look and no value: blank, as `put` writes None
        fmt = formats.get(look)
        if fmt is not None and (r, c) not in values:
            ws.write_blank(r - 1, c - 1, None, fmt)
    for r1, c1, r2, c2 in sheet.merges:
        fmt = formats.get(sheet.looks.get((r1, c1)))
        ws.merge_range(r1 - 1, c1 - 1, r2 - 1, c2 - 1, "", fmt)
        put(ws, r1, c1, sheet.values.get((r1, c1)), fmt)
    if sheet.comments:
        ws.set_comments_author("shuangsheng")
        for (r, c), text in sheet.comments.items():
            ws.write_comment(r - 1, c - 1, text, NOTE)
    ws.set_landscape()
    ws.set_paper(9)  # A4
    ws.set_print_scale(PRINT_SCALE)
    ws.center_horizontally()
    ws.set_margins(left=0.5, right=0.5, top=0.6, bottom=0.6)
    if sheet.title_rows:
        ws.repeat_rows(sheet.title_rows[0] - 1, sheet.title_rows[1] - 1)
    if sheet.selected:
        ws.activate()


def _lines(text: object, width: float) -> int:
    """How many lines `text` wraps to in a column `width` characters wide (a column character is a little wider
    than half a Chinese character; rounded so that the row is rather too tall than cut off)."""
    if text is None:
        return 1
    per_line = max(1.0, width * 1.15 - 1)
    return max(1, sum(math.ceil(max(1, display_width(part)) / per_line) for part in str(text).split("\n")))


def _mark(sheet: Sheet, marks: Mapping[tuple[int, int], Sequence[str]], *, text_columns: Sequence[int] = ()) -> None:
    """Every bad cell red; the first `MAX_NOTES` of the sheet also commented (its row's 说明 says them all)."""
    for n, ((r, c), messages) in enumerate(sorted(marks.items())):
        sheet.put(r, c, look=Look.BAD_TEXT if c in text_columns else Look.BAD)
        if n < MAX_NOTES:
            sheet.comments[(r, c)] = "\n".join(messages)


def _result_text(match: MatchSheet, result: MatchResult | None, problems: Sequence[Problem], digits: int) -> str:
    from shuangsheng.game.match import (
        result_summary,  # the one place a result becomes a sentence
    )

    p = match.pairing
    a, b = shown_id(p.a, digits), shown_id(p.b, digits)
    if match.walkover is not None:
        winner = match.walkover.other
        return f"{match.walkover.team}弃权，{winner.team}（{a if winner is Side.A else b}）晋级"
    if problems:
        return f"有 {len(problems)} 处错误，请改正后重新检查"
    if result is None:
        return "尚无记录"
    text = result_summary(result)
    if match.final is not None:  # a lost card: its 终局 levels, no hand checked
        text = f"终局录入，{UNCHECKED}（{match.final.reason}）：{text}"
    if result.winner is not None:
        text += f"；胜者 {a if result.winner is Side.A else b}"
    return text


def _summary_row(match: MatchSheet, result: MatchResult | None, problems: Sequence[Problem], digits: int
                 ) -> tuple[object, ...]:
    """桌号 | 甲方 | 乙方 | 甲方级 | 乙方级 | 错误数 | 结果, the 组号 as wide as the 对阵 sheet writes them."""
    levels = result.levels if result is not None and (result.outcomes or match.final is not None) else None
    return (
        match.table,
        shown_id(match.pairing.a, digits),
        shown_id(match.pairing.b, digits),
        levels.a.label if levels else None,
        levels.b.label if levels else None,
        len(problems),
        _result_text(match, result, problems, digits),
    )


def _match_sheet(grid: Grid, match: MatchSheet, result: MatchResult | None, summary: str,
                 marks: Mapping[tuple[int, int], Sequence[str]]) -> Sheet:
    """A table's score sheet: its values where they were, the check columns right of the hands."""
    sheet = Sheet(grid.name)
    header = match.header_row
    assert header is not None
    first = match.extra_column
    schema_column = {col: COLUMN_BY_KEY[key] for key, col in match.columns.items()}
    number_col = match.columns.get(NUMBER_LABEL)
    prefilled = {number_col, match.columns.get("playoff")}
    last = max([header, *match.rows, *(r for r, _ in marks),
                *(r for (r, c) in grid.cells if r > header and c not in prefilled)])
    table_width = 0.0
    for col in range(1, first):
        width = schema_column[col].widths.checked if col in schema_column else OTHER_WIDTH
        sheet.widths[col] = width
        table_width += width
    for i, label in enumerate(CHECK_COLUMNS):
        sheet.widths[first + i] = CHECK_WIDTHS[label]
    for (r, c), value in grid.cells.items():
        if r <= last:
            sheet.put(r, c, cut(value))
    _wrap_above(sheet, grid, header, first, table_width)
    sheet.put(A_ROW, first, "结果", Look.BOLD)
    sheet.put(A_ROW, first + 1, summary, Look.BOLD)
    for col in range(1, first + len(CHECK_COLUMNS)):
        sheet.put(header, col, CHECK_COLUMNS[col - first] if col >= first else None, Look.HEADER)
    sheet.heights[header] = LINE_HEIGHT * max(_lines(sheet.values.get((header, c)), w) for c, w in sheet.widths.items())
    outcomes = {o.hand: o for o in result.outcomes} if result is not None else {}
    hand_of_row = {row: position for position, row in enumerate(match.rows, start=1)}
    note_col = match.columns.get(NOTE_LABEL)
    explain = first + len(CHECK_COLUMNS) - 1
    by_row: dict[int, list[str]] = {}
    for (mr, _), ms in sorted(marks.items()):
        by_row.setdefault(mr, []).extend(ms)
    for r in range(header + 1, last + 1):
        for col in range(1, first):
            sheet.put(r, col, look=Look.TEXT if col == note_col else Look.CELL)
        messages = by_row.get(r, [])
        o = outcomes.get(hand_of_row.get(r, 0))
        values: tuple[object, ...] = (
            BAD_MARK if messages else (GOOD_MARK if o else None),
            o.points if o else None,
            o.after.a.label if o else None,
            o.after.b.label if o else None,
            o.next_dealer.cn if o else None,
            "；".join(messages) if messages else (o.explanation if o else None),
        )
        for i, value in enumerate(values):
            sheet.put(r, first + i, value, Look.TEXT if first + i == explain else Look.CELL)
        lines = max(_lines(values[-1], CHECK_WIDTHS["说明"]),
                    _lines(sheet.values.get((r, note_col)), COLUMN_BY_KEY[NOTE_LABEL].widths.checked) if note_col else 1)
        if lines > 1:
            sheet.heights[r] = LINE_HEIGHT * lines
    _mark(sheet, marks, text_columns=(note_col,) if note_col else ())
    sheet.title_rows = (header, header)
    return sheet


def _wrap_above(sheet: Sheet, grid: Grid, header: int, first: int, table_width: float) -> None:
    """Title, teams, guide and rules note above the header: a lone long text wraps across the table."""
    for r in range(1, header):
        row = [c for (rr, c) in grid.cells if rr == r]
        if row == [1] and display_width(str(sheet.values.get((r, 1)))) > sheet.widths.get(1, 6) * 2:
            sheet.merge(r, 1, first - 1)
            sheet.put(r, 1, look=Look.TITLE if r == 1 else Look.WRAP)
            sheet.heights[r] = (24 if r == 1 else LINE_HEIGHT * _lines(sheet.values.get((r, 1)), table_width))


def _plain_sheet(grid: Grid, marks: Mapping[tuple[int, int], Sequence[str]]) -> Sheet:
    """The 对阵 sheet (or any other): values where they were; its tables bordered under grey headers."""
    sheet = Sheet(grid.name)
    for (r, c), value in grid.cells.items():
        sheet.put(r, c, cut(value))
    if (1, 1) in grid.cells:
        sheet.put(1, 1, look=Look.TITLE)
    for header_labels in (MATCHES_HEADER[:4], POOL_HEADER[:2]):
        found = grid.find_header(header_labels)
        if found is None:
            continue
        row, columns = found
        span = range(min(columns.values()), max(columns.values()) + 1)
        for c in span:
            sheet.put(row, c, look=Look.HEADER)
        r = row + 1
        while grid.get(r, span[0]) is not None:
            for c in span:
                sheet.put(r, c, look=Look.CELL)
            r += 1
    widths: dict[int, float] = {}
    for (_, c), value in sheet.values.items():
        need = display_width(str(value)) + 2
        if need <= PLAIN_MAX_WIDTH:
            widths[c] = max(widths.get(c, 6), need)
    sheet.widths = widths
    _mark(sheet, marks)
    return sheet


def _check_sheet(source: RoundSheet, summary_rows: Sequence[tuple[object, ...]], problems: Sequence[Problem]) -> Sheet:
    sheet = Sheet(CHECK_SHEET, selected=True)
    name = Path(source.path).name
    sheet.put(1, 1, f"第{source.round.number}轮 检查结果", Look.TITLE)
    sheet.heights[1] = 24
    sheet.put(2, 1, f"这是 {name} 的检查副本，仅供核对；如需改正，请在原文件 {name} 中修改后重新运行 score。")
    for col, label in enumerate(CHECK_SUMMARY_HEADER, start=1):
        sheet.put(CHECK_SUMMARY_HEADER_ROW, col, label, Look.HEADER)
    for r, values in enumerate(summary_rows, start=CHECK_SUMMARY_HEADER_ROW + 1):
        for col, value in enumerate(values, start=1):
            sheet.put(r, col, value, Look.TEXT if col == len(values) else Look.CELL)
        lines = _lines(values[-1], SUMMARY_WIDTHS[len(values)])
        if lines > 1:
            sheet.heights[r] = LINE_HEIGHT * lines
    r = CHECK_SUMMARY_HEADER_ROW + len(summary_rows) + 2
    sheet.put(r, 1, "错误清单" if problems else "没有发现错误", Look.BOLD)
    if problems:  # 位置 spans 桌号…乙方, 问题 spans 甲方级…结果
        message_width = sum(SUMMARY_WIDTHS[c] for c in range(4, 8))
        for col in range(1, 8):
            sheet.put(r + 1, col, {1: "位置", 4: "问题"}.get(col), Look.HEADER)
        sheet.merge(r + 1, 1, 3)
        sheet.merge(r + 1, 4, 7)
        for i, p in enumerate(problems, start=r + 2):
            for col in range(1, 8):
                sheet.put(i, col, {1: p.where, 4: p.message}.get(col), Look.TEXT)
            sheet.merge(i, 1, 3)
            sheet.merge(i, 4, 7)
            lines = max(_lines(p.message, message_width), _lines(p.where, sum(SUMMARY_WIDTHS[c] for c in range(1, 4))))
            sheet.heights[i] = LINE_HEIGHT * lines
    sheet.widths = dict(SUMMARY_WIDTHS)
    return sheet
