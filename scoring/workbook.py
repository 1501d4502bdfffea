"""The event's workbooks: `teams.xlsx`, `round-N.xlsx`, its checked copy, and paper lots (SPEC §3).

The only module that imports openpyxl. Each format is written and read here from one column definition, so the
writer and the reader cannot drift apart. Readers are lenient about what people really type (full-width digits,
spaces, a trailing 分, ``x4``/``4倍``/``×4``, ``甲方``, ``√``) but never guess: anything else is a `Problem` naming
the file, ``sheet!cell``, the value and what was expected, and all problems of a workbook are reported together.

Workbooks are read from an in-memory copy (read-only); the file the user filled is never written. Files saved by
openpyxl carry no cached formula values, so nothing written here relies on a formula; a formula a user typed is
read by the value the spreadsheet application saved with it, and one without a saved value is an error.

Decisions:
- teams.xlsx: 组号 is text (the column is text-formatted; a number cell 3 reads as "3", "03" stays "03", full-width
  digits become plain; "3" next to "03" is an error because people cannot tell them apart). Template example rows
  carry 备注 “示例，请删除” and are errors until removed, so no example team is ever drawn.
- round-N.xlsx: 30 numbered hand rows then 10 rows 加1…加10 with 加赛 prefilled “是”; the 加赛 column, not the
  row, decides what is a tie-break hand, so 加赛 hands may also be typed right after the regular ones. Rows with
  庄家 and 台下得分 both blank are skipped, unless another data cell holds a non-default value (then an error:
  typed data is never dropped silently). 弃权 (对阵 sheet) wins over any hands typed for that table.
- Spellings: digits full-width or not, spaces anywhere, 85.0; a trailing 分 (scores) or 张 (cards); ×4 x4 X4 *4
  4 4倍; 甲 甲方 A; 是 √ ✓ Y yes 1 TRUE (and 否 N no 0 FALSE for no); levels 10, “10级”, j; offences by name.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import openpyxl
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection
from openpyxl.styles import Side as BorderSide
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from scoring.errors import UserError
from scoring.files import decode_text, write_bytes
from scoring.hands import FIELD_CN, FIELDS, OFFENSE_CN, Hand, HandError, MatchRecord, Offense, check_hand
from scoring.knockout import Pairing, Round
from scoring.levels import LABELS, Level, Side, to_halfwidth
from scoring.report import width as display_width
from scoring.teams import Team, TeamRow, clean_name, validate_teams

if TYPE_CHECKING:
    from scoring.match import MatchResult

# --- problems -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where (file, sheet, cell — each may be absent) and a Chinese message."""

    file: str
    sheet: str | None
    cell: str | None
    message: str

    @property
    def where(self) -> str:
        """'round-1.xlsx 第3桌!D9', 'round-1.xlsx 第3桌' or 'round-1.xlsx'."""
        if self.sheet and self.cell:
            return f"{self.file} {self.sheet}!{self.cell}"
        if self.sheet:
            return f"{self.file} {self.sheet}"
        if self.cell:
            return f"{self.file} {self.cell}"
        return self.file

    def __str__(self) -> str:
        return f"{self.where}：{self.message}"


class WorkbookError(UserError, ValueError):
    """A workbook that cannot be used as it is; `problems` lists every problem found (all at once)."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def messages(self) -> list[str]:
        return [str(p) for p in self.problems]


# --- lenient cell parsers (pure; each raises ValueError on anything ambiguous) ----------------------------------

YES = frozenset({"是", "是的", "对", "有", "√", "✓", "✔", "☑", "y", "yes", "true", "1"})
NO = frozenset({"否", "不是", "无", "没有", "n", "no", "false", "0"})
TIMES = ("×", "x", "*", "✕", "✖", "乘")  # after to_halfwidth and lower(): ｘ→x, Ｘ→x
CAPTURE_CHOICES = ("×2", "×4", "×8", "×16", "×32")
MAX_CAPTURE = 4096
MAX_CARDS = 50  # as check_hand


def blank(raw: object) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def _squeeze(text: str) -> str:
    """Full-width to plain, and every kind of space removed: ' ８５ 分 ' → '85分'."""
    return "".join(to_halfwidth(text).split())


def parse_whole(raw: object, *, suffixes: tuple[str, ...] = ()) -> int:
    """A whole number ≥ 0 as typed or stored: 85, 85.0, '８５', ' 85 分' (with suffix '分'). Blank is 0."""
    if blank(raw):
        return 0
    if isinstance(raw, bool):
        raise ValueError(raw)
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError(raw)
        value = int(raw)
    elif isinstance(raw, str):
        text = _squeeze(raw)
        for suffix in suffixes:
            text = text.removesuffix(suffix)
        if not re.fullmatch(r"\d+(\.0*)?", text):
            raise ValueError(raw)
        value = int(text.split(".")[0])
    else:
        raise ValueError(raw)
    if value < 0:
        raise ValueError(raw)
    return value


def parse_points(raw: object) -> int:
    """台下得分 / 底牌分: 0–200, a multiple of 5; blank is 0; a trailing 分 is allowed."""
    value = parse_whole(raw, suffixes=("分",))
    if value > 200 or value % 5:
        raise ValueError(raw)
    return value


def parse_cards(raw: object) -> int:
    """台上罚张 / 台下罚张: a whole number of cards, 0…50; blank is 0; a trailing 张 is allowed."""
    value = parse_whole(raw, suffixes=("张",))
    if value > MAX_CARDS:
        raise ValueError(raw)
    return value


def parse_capture(raw: object) -> int:
    """抠底倍数: blank (or 0) = not captured; else a power of two ≥ 2 written ×4, x4, X4, *4, 4, 4倍, 乘4."""
    if blank(raw):
        return 0
    if isinstance(raw, str):
        text = _squeeze(raw).lower()
        for sign in TIMES:
            if text.startswith(sign):
                text = text[len(sign) :]
                break
        raw_number: object = text.removesuffix("倍")
        if raw_number == "":
            raise ValueError(raw)
    else:
        raw_number = raw
    try:
        value = parse_whole(raw_number)
    except ValueError:
        raise ValueError(raw) from None
    if value == 0:
        return 0
    if value < 2 or value > MAX_CAPTURE or value & (value - 1):
        raise ValueError(raw)
    return value


def parse_flag(raw: object) -> bool:
    """级牌抠底 / 加赛: 是, √, ✓, Y, yes, 1, TRUE → True; blank, 否, N, no, 0, FALSE → False."""
    if blank(raw) or raw is False:
        return False
    if raw is True:
        return True
    if isinstance(raw, (int, float)) and raw in (0, 1):
        return bool(raw)
    if isinstance(raw, str):
        text = _squeeze(raw).lower()
        if text in YES:
            return True
        if text in NO:
            return False
    raise ValueError(raw)


def parse_side(raw: object) -> Side:
    """庄家: 甲/乙, 甲方/乙方, A/B (spaces and full-width forms allowed)."""
    if not isinstance(raw, str):
        raise ValueError(raw)
    return Side.parse(_squeeze(raw))


def parse_level(raw: object) -> Level | None:
    """庄家级: blank, or 2…10, J, Q, K, A (also 'j', '10级', full-width)."""
    if blank(raw):
        return None
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError(raw)
        raw = int(raw)
    if isinstance(raw, str):
        raw = _squeeze(raw)
    return Level.parse(raw)


def parse_offense(raw: object) -> Offense | None:
    """违规: blank or one of 台上扣错底, 台下扣错底, 台上出错牌, 台下出错牌 (spaces ignored)."""
    if blank(raw):
        return None
    if not isinstance(raw, str):
        raise ValueError(raw)
    return Offense.parse_cn(_squeeze(raw))


def parse_team_id(raw: object) -> str:
    """A 组号 as text: 3 (a number cell) → '3', 3.0 → '3', '03' stays '03', '０３' → '03', '第03组' → '03';
    blank → ''."""
    if blank(raw):
        return ""
    if isinstance(raw, bool):
        raise ValueError(raw)
    if isinstance(raw, int):
        return str(raw)
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError(raw)
        return str(int(raw))
    if isinstance(raw, str):
        text = clean_name(to_halfwidth(raw))
        m = re.fullmatch(r"第?\s*(\d+)\s*组", text)
        return m.group(1) if m else text
    raise ValueError(raw)


def _plain_text(raw: object) -> str:
    """A free-text cell (names, phone, notes): numbers as integers where whole ('2973620', not '2973620.0')."""
    if blank(raw):
        return ""
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw))
    if isinstance(raw, (datetime, date, time)):
        return raw.isoformat()
    return str(raw)


def show(raw: object) -> str:
    """A cell value as the user would recognise it, for quoting in a message."""
    if blank(raw):
        return "空"
    if raw is True:
        return "TRUE"
    if raw is False:
        return "FALSE"
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw))
    if isinstance(raw, (datetime, date, time)):
        return raw.isoformat(sep=" ") if isinstance(raw, datetime) else raw.isoformat()
    return str(raw)


# --- the hand table: one column definition for writer, reader and checked copy ---------------------------------


@dataclass(frozen=True)
class Column:
    label: str
    field: str | None  # a Hand field (scoring.hands.FIELDS); None for 局 and 备注
    expect: str = ""  # what the cell should hold, as in '台下得分应为 …'
    parse: Callable[[object], object] | None = None
    choices: tuple[str, ...] = ()  # dropdown list
    whole: tuple[int, int] | None = None  # whole-number validation
    width: float | None = None  # None: fit the label


POINTS_EXPECT = "应为 0–200 之间 5 的倍数"
CARDS_EXPECT = f"应为 0–{MAX_CARDS} 之间的整数（张数）"
HAND_COLUMNS: tuple[Column, ...] = (
    Column("局", None, width=7),
    Column("庄家", "dealer", "应为“甲”或“乙”", parse_side, choices=("甲", "乙")),
    Column("庄家级", "level", "应为 2…10、J、Q、K、A 或空", parse_level, choices=LABELS),
    Column("台下得分", "points", POINTS_EXPECT, parse_points, whole=(0, 200)),
    Column("底牌分", "bottom", POINTS_EXPECT, parse_points, whole=(0, 200)),
    Column("抠底倍数", "capture", "应为空（庄家保底）或 ×2、×4、×8、×16、×32", parse_capture, choices=CAPTURE_CHOICES),
    Column("级牌抠底", "level_card_capture", "应为“是”或空", parse_flag, choices=("是",)),
    Column("台上罚张", "dealer_wrong_cards", CARDS_EXPECT, parse_cards, whole=(0, MAX_CARDS)),
    Column("台下罚张", "defender_wrong_cards", CARDS_EXPECT, parse_cards, whole=(0, MAX_CARDS)),
    Column("违规", "offense", "应为空或 " + "、".join(OFFENSE_CN.values()) + " 之一", parse_offense,
           choices=tuple(OFFENSE_CN.values()), width=13),
    Column("加赛", "playoff", "应为“是”或空", parse_flag, choices=("是",)),
    Column("备注", None, width=24),
)
HEADER = tuple(c.label for c in HAND_COLUMNS)
COLUMN_BY_FIELD = {c.field: c for c in HAND_COLUMNS if c.field}
assert set(COLUMN_BY_FIELD) == set(FIELDS) and all(FIELD_CN[c.field] == c.label for c in COLUMN_BY_FIELD.values())
NUMBER_LABEL = "局"
NOTE_LABEL = "备注"
# Filled cells in these columns make a row count as data even with 庄家 and 台下得分 blank (SPEC §3 ignores such
# rows; we refuse to drop typed data silently). 加赛 is prefilled in the 加赛 rows, so it does not count.
OTHER_DATA_FIELDS = ("level", "bottom", "capture", "level_card_capture", "dealer_wrong_cards",
                     "defender_wrong_cards", "offense")

REGULAR_ROWS = 30
PLAYOFF_ROWS = 10
PLAYOFF_PREFIX = "加"

MATCHES_SHEET = "对阵"
TEAMS_SHEET = "报名表"
CHECK_SHEET = "检查结果"
TEAMS_HEADER = ("组号", "队员1", "队员2", "联系电话", "备注")
TEAMS_REQUIRED = ("组号", "队员1", "队员2")
EXAMPLE_MARK = "示例，请删除"
MATCHES_HEADER = ("桌号", "甲方", "乙方", "弃权", "甲方队员", "乙方队员", "说明")
POOL_TITLE = "抽签名单（按此顺序，用上面的随机种子可重现抽签）"
POOL_HEADER = ("序号", "组号", "队员", "签号")
ROUND_LABEL = "轮次"
SEED_LABEL = "随机种子"
BYE_LABEL = "轮空"
NO_SEED = "无（按纸签抽签）"
NO_BYE = "无"
THIRD_PLACE = "三四名决赛"
LOTS_HEADER = ("组号", "签号")

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_UNZIPPED_BYTES = 200 * 1024 * 1024
HEADER_SEARCH_ROWS = 30


def sheet_name(table: int) -> str:
    return f"第{table}桌"


# --- styles ----------------------------------------------------------------------------------------------------

_THIN = BorderSide(style="thin", color="808080")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_HEADER_FILL = PatternFill("solid", fgColor="D9D9D9")
_LABEL_FILL = PatternFill("solid", fgColor="F2F2F2")
_BAD_FILL = PatternFill("solid", fgColor="FFC7CE")
_BOLD = Font(bold=True)
_TITLE = Font(bold=True, size=14)
_EXAMPLE = Font(italic=True, color="808080")
_CENTER = Alignment(horizontal="center", vertical="center")
_WRAP = Alignment(wrap_text=True, vertical="top")
_UNLOCKED = Protection(locked=False)
_BAD_MARK = "✗"
_GOOD_MARK = "✓"


def _fit_columns(ws: Worksheet, widths: Mapping[int, float]) -> None:
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = width


def _widths(rows: Iterable[Sequence[object]], *, minimum: float = 6, maximum: float = 40) -> dict[int, float]:
    out: dict[int, float] = {}
    for row in rows:
        for col, value in enumerate(row, start=1):
            if value is None:
                continue
            need = display_width(str(value)) + 3
            out[col] = min(maximum, max(out.get(col, minimum), need))
    return out


def _header_cell(ws: Worksheet, row: int, col: int, label: str) -> None:
    cell = ws.cell(row, col, label)
    cell.font = _BOLD
    cell.fill = _HEADER_FILL
    cell.alignment = _CENTER
    cell.border = _BORDER


def _print_setup(ws: Worksheet, *, title_rows: str | None, one_page: bool = False) -> None:
    """A4 landscape, one page wide; `one_page` also fits the height (a table's score sheet on one sheet of paper)."""
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1 if one_page else 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    if title_rows:
        ws.print_title_rows = title_rows


def _protect(ws: Worksheet) -> None:
    """Sheet protection without a password: labels locked, input cells (marked unlocked) editable; columns and rows
    may still be resized."""
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False


def _validation(ws: Worksheet, column: Column, cells: str) -> None:
    if column.choices:
        dv = DataValidation(
            type="list",
            formula1='"' + ",".join(column.choices) + '"',
            allow_blank=True,
            showDropDown=False,  # openpyxl's flag is inverted: False shows the in-cell dropdown
            errorStyle="warning",  # accepted spellings typed by hand (x4, 甲方, √) may be kept after the warning
        )
    elif column.whole:
        low, high = column.whole
        dv = DataValidation(type="whole", operator="between", formula1=str(low), formula2=str(high),
                            allow_blank=True, errorStyle="stop")
    else:
        return
    dv.showErrorMessage = True
    dv.showInputMessage = True
    dv.errorTitle = f"{column.label}填写有误"
    dv.error = f"{column.label}{column.expect}。"
    dv.promptTitle = column.label
    dv.prompt = f"{column.label}{column.expect}"
    dv.add(cells)
    ws.add_data_validation(dv)


def _save(wb: openpyxl.Workbook, path: Path, *, force: bool) -> Path:
    buffer = io.BytesIO()
    wb.save(buffer)
    return write_bytes(Path(path), buffer.getvalue(), force=force)


# --- reading: a safe load into plain grids ---------------------------------------------------------------------


@dataclass
class _Grid:
    """One worksheet's non-blank values by (row, column), 1-based."""

    name: str
    cells: dict[tuple[int, int], object]

    def get(self, row: int, col: int) -> object:
        return self.cells.get((row, col))

    @property
    def max_row(self) -> int:
        return max((r for r, _ in self.cells), default=0)

    def find_header(self, required: Sequence[str], *, start: int = 1) -> tuple[int, dict[str, int]] | None:
        """The first row at or after `start` holding every label in `required` → (row, label → column)."""
        rows: dict[int, dict[str, int]] = {}
        for (r, c), value in self.cells.items():
            if r >= start and isinstance(value, str):
                rows.setdefault(r, {}).setdefault(_squeeze(value), c)
        for r in sorted(rows):
            if r > start + HEADER_SEARCH_ROWS:
                break
            if all(label in rows[r] for label in required):
                return r, rows[r]
        return None

    def find_label(self, label: str, *, before_row: int | None = None) -> tuple[int, int] | None:
        hits = sorted(
            (r, c)
            for (r, c), value in self.cells.items()
            if isinstance(value, str) and _squeeze(value) == label and (before_row is None or r < before_row)
        )
        return hits[0] if hits else None


def _cell(row: int, col: int) -> str:
    return f"{get_column_letter(col)}{row}"


OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _read_file(path: Path) -> bytes:
    name = Path(path).name
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            raise WorkbookError([Problem(name, None, None, f"文件太大（{size // 1024 // 1024} MB），不像是本赛事的工作簿")])
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise WorkbookError([Problem(name, None, None, f"找不到文件：{path}")]) from None
    except IsADirectoryError:
        raise WorkbookError([Problem(name, None, None, "这是一个文件夹，不是 xlsx 文件")]) from None
    except PermissionError:
        raise WorkbookError([Problem(name, None, None, "无法读取：没有权限，或文件正被其他程序（如 Excel/WPS）锁定")]) from None
    except OSError as exc:
        raise WorkbookError([Problem(name, None, None, f"无法读取：{exc.strerror or exc}")]) from None


def _open_workbook(data: bytes, name: str, *, read_only: bool = True, data_only: bool = False):  # -> Workbook
    def fail(message: str) -> WorkbookError:
        return WorkbookError([Problem(name, None, None, message)])

    if data.startswith(OLE_MAGIC):
        raise fail("这是旧版 Excel（.xls）或加密的文件，不是 .xlsx；请在 Excel 或 WPS 中“另存为” .xlsx 工作簿")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise fail("不是 xlsx 工作簿（文件已损坏，或是改了扩展名的其他文件）；请在 Excel 或 WPS 中“另存为” .xlsx 工作簿")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED_BYTES:
                raise fail("解压后过大，不像是本赛事的工作簿")
        return openpyxl.load_workbook(io.BytesIO(data), read_only=read_only, data_only=data_only)
    except WorkbookError:
        raise
    # openpyxl reports a broken package in many ways; each is a file we cannot read, said once in Chinese.
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, TypeError, SyntaxError, OSError) as exc:
        raise fail(f"无法作为 xlsx 工作簿打开（文件可能已损坏：{type(exc).__name__}）；请在 Excel 或 WPS 中重新保存") from None


@dataclass(frozen=True)
class Uncached:
    """A formula cell whose file holds no computed value (e.g. written by a program, never opened in Excel): no
    parser accepts it, so it is reported instead of being read as blank."""

    formula: str

    def __str__(self) -> str:
        return f"公式 {self.formula}（文件中没有计算结果；请在 Excel/WPS 中打开后保存，或直接填写数值）"


def _sheet_cells(wb) -> dict[str, dict[tuple[int, int], object]]:
    out: dict[str, dict[tuple[int, int], object]] = {}
    for ws in wb.worksheets:
        ws.reset_dimensions()  # do not trust the stored dimension: read every row there is
        cells: dict[tuple[int, int], object] = {}
        for row in ws.iter_rows():
            for cell in row:
                value = cell.value
                if value is None or (isinstance(value, str) and not value.strip()):
                    continue
                cells[(cell.row, cell.column)] = value
        out[ws.title] = cells
    return out


def _grids(data: bytes, name: str) -> dict[str, _Grid]:
    """Every worksheet's values. Formula cells take the value the spreadsheet application saved with them."""
    wb = _open_workbook(data, name, data_only=False)
    try:
        cells = _sheet_cells(wb)
    finally:
        wb.close()
    formulas = {
        (sheet, pos): value
        for sheet, sheet_cells in cells.items()
        for pos, value in sheet_cells.items()
        if isinstance(value, str) and value.startswith("=") and len(value) > 1
    }
    if formulas:  # only then parse a second time for the cached values
        wb = _open_workbook(data, name, data_only=True)
        try:
            cached = _sheet_cells(wb)
        finally:
            wb.close()
        for (sheet, pos), formula in formulas.items():
            value = cached.get(sheet, {}).get(pos)
            cells[sheet][pos] = Uncached(formula) if value is None else value
    return {title: _Grid(title, sheet_cells) for title, sheet_cells in cells.items()}


# --- teams.xlsx ------------------------------------------------------------------------------------------------

EXAMPLE_TEAMS = (
    Team("01", ("张三", "李四"), "2973620", EXAMPLE_MARK),
    Team("02", ("王五", "赵六"), "", EXAMPLE_MARK),
)
TEAMS_ROWS = 200  # rows prepared with validation and text format


def write_teams(path: Path, teams: Sequence[Team] = (), *, examples: bool = False, force: bool = False) -> Path:
    """`teams.xlsx`: sheet 报名表 with its header, text-formatted 组号 and 联系电话, validation, the given teams;
    with `examples`, a few example rows whose 备注 is “示例，请删除” (read_teams refuses them until removed)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = TEAMS_SHEET
    for col, label in enumerate(TEAMS_HEADER, start=1):
        _header_cell(ws, 1, col, label)
    rows = list(EXAMPLE_TEAMS if examples else ()) + list(teams)
    for r, team in enumerate(rows, start=2):
        values = (team.id, team.players[0], team.players[1], team.phone, team.note)
        for col, value in enumerate(values, start=1):
            cell = ws.cell(r, col, value or None)
            if team.note == EXAMPLE_MARK:
                cell.font = _EXAMPLE
    last = max(TEAMS_ROWS, len(rows) + 1)
    for col in (1, 4):  # 组号, 联系电话 as text: a typed 03 stays 03
        for r in range(2, last + 1):
            ws.cell(r, col).number_format = "@"
    for col, (label, high, message) in enumerate(
        (("组号", 10, "组号不能为空，最多 10 个字，如 01、02"), ("队员1", 20, "请填写队员姓名（最多 20 个字）"),
         ("队员2", 20, "请填写队员姓名（最多 20 个字）")),
        start=1,
    ):
        dv = DataValidation(type="textLength", operator="between", formula1="1", formula2=str(high),
                            allow_blank=True, errorStyle="stop", showErrorMessage=True, showInputMessage=True)
        dv.errorTitle, dv.error, dv.promptTitle, dv.prompt = f"{label}填写有误", message, label, message
        dv.add(f"{get_column_letter(col)}2:{get_column_letter(col)}{last}")
        ws.add_data_validation(dv)
    widths = _widths([TEAMS_HEADER] + [(t.id, *t.players, t.phone, t.note) for t in rows])
    widths[1], widths[4], widths[5] = max(widths.get(1, 6), 8), max(widths.get(4, 6), 14), max(widths.get(5, 6), 24)
    _fit_columns(ws, widths)
    ws.freeze_panes = "A2"
    _print_setup(ws, title_rows="1:1")
    guide = wb.create_sheet("填写说明")
    for r, line in enumerate(
        (
            "报名表填写说明",
            "1. 每行一组：组号、队员1、队员2 必填；联系电话、备注可不填。",
            "2. 组号是文字，可写 01、02…；同一组号不能出现两次，3 和 03 也不要同时使用。",
            "3. 每位队员只能参加一组。",
            f"4. 备注为“{EXAMPLE_MARK}”的行是示例，抽签前请删除这些行。",
            "5. 请保留第一行的表头，不要改动工作表名“报名表”。",
        ),
        start=1,
    ):
        guide.cell(r, 1, line).font = _TITLE if r == 1 else Font()
    guide.column_dimensions["A"].width = 80
    return _save(wb, path, force=force)


def write_teams_template(path: Path, *, force: bool = False) -> Path:
    """The blank `teams.xlsx` of `init`: header, validation and example rows marked “示例，请删除”."""
    return write_teams(path, (), examples=True, force=force)


def read_teams(path: Path) -> tuple[Team, ...]:
    """Teams from `teams.xlsx` in row order; WorkbookError lists every problem (`teams.xlsx 报名表!B5：…`).

    Blank rows are skipped; rows still marked “示例，请删除” are errors (so no example team is ever drawn).
    """
    path = Path(path)
    name = path.name
    grids = _grids(_read_file(path), name)
    grid = grids.get(TEAMS_SHEET)
    if grid is None:  # a renamed sheet: the one sheet with the header row is unambiguous
        with_header = [g for g in grids.values() if g.find_header(TEAMS_REQUIRED)]
        if len(with_header) == 1:
            grids = {with_header[0].name: with_header[0]}
        if len(grids) != 1:
            raise WorkbookError([Problem(name, None, None, f"找不到工作表“{TEAMS_SHEET}”（现有：{'、'.join(grids)}）")])
        grid = next(iter(grids.values()))
    sheet = grid.name
    found = grid.find_header(TEAMS_REQUIRED)
    if found is None:
        raise WorkbookError(
            [Problem(name, sheet, None, f"找不到表头行（应有 {' | '.join(TEAMS_HEADER)}，其中组号、队员1、队员2 必须有）")]
        )
    header_row, columns = found
    problems: list[Problem] = []
    rows: list[TeamRow] = []
    for r in range(header_row + 1, grid.max_row + 1):
        raw = {label: grid.get(r, columns[label]) if label in columns else None for label in TEAMS_HEADER}
        if all(blank(v) for v in raw.values()):
            continue
        uncached = [label for label, v in raw.items() if isinstance(v, Uncached)]
        if uncached:
            for label in uncached:
                problems.append(Problem(name, sheet, _cell(r, columns[label]), f"{label}是{raw[label]}"))
            continue
        try:
            team_id = parse_team_id(raw["组号"])
        except ValueError:
            problems.append(Problem(name, sheet, _cell(r, columns["组号"]), f"组号应为文字或整数（如 01、12），实际为“{show(raw['组号'])}”"))
            continue
        note = _plain_text(raw["备注"]).strip()
        if EXAMPLE_MARK in note or note.startswith("示例"):
            problems.append(
                Problem(name, sheet, _cell(r, columns["备注"]), f"这是模板里的示例行（备注为“{note}”）；请删除这一行，或填入真实报名并清空备注")
            )
            continue
        rows.append(TeamRow(r, team_id, _plain_text(raw["队员1"]), _plain_text(raw["队员2"]), _plain_text(raw["联系电话"]), note))
    teams, team_problems = validate_teams(rows)
    for p in team_problems:
        problems.append(Problem(name, sheet, _cell(p.row, columns[p.column]), p.message))
    by_number: dict[str, tuple[str, int]] = {}
    for row in rows:
        tid = clean_name(row.id)
        if tid.isdigit():
            key = tid.lstrip("0") or "0"
            if key in by_number and by_number[key][0] != tid:
                other, other_row = by_number[key]
                problems.append(
                    Problem(name, sheet, _cell(row.row, columns["组号"]), f"组号“{tid}”与第{other_row}行的“{other}”容易混淆，请统一写法")
                )
            else:
                by_number.setdefault(key, (tid, row.row))
    if not problems and not teams:
        problems.append(Problem(name, sheet, None, "报名表中还没有任何参赛组"))
    if problems:
        raise WorkbookError(sorted(problems, key=_problem_order))
    return teams


def _problem_order(p: Problem) -> tuple:
    if p.cell:
        m = re.fullmatch(r"([A-Z]+)(\d+)", p.cell)
        if m:
            return (p.sheet or "", int(m.group(2)), len(m.group(1)), m.group(1))
    return (p.sheet or "", 0, 0, "")


# --- round-N.xlsx: writing -------------------------------------------------------------------------------------

TITLE_ROW = 1
A_ROW = 2
B_ROW = 3
GUIDE_ROW = 4
RULES_ROW = 5
HAND_HEADER_ROW = 6
GUIDE = (
    "填写说明：每局一行，按顺序填写。庄家填“甲”或“乙”；台下得分不含底牌；底牌被抠时填底牌分和抠底倍数（×2、×4…），"
    "庄家保底则倍数留空；罚张填张数（每张10分）；时间到后打完当前一局，级数相同时在后面的行继续填加赛局，加赛栏填“是”。"
)


def _players(team: Team | None) -> str:
    return "、".join(team.players) if team else ""


def _team(teams: Mapping[str, Team], team_id: str) -> Team:
    try:
        return teams[team_id]
    except KeyError:
        raise ValueError(f"team {team_id!r} of the draw is not in the team list") from None


def write_round(
    path: Path, round: Round, teams: Mapping[str, Team], *, rules_note: str = "", force: bool = False
) -> Path:
    """`round-N.xlsx`: the 对阵 sheet (matches, 弃权 column, bye, seed, the ordered pool and lots) and one
    protected, printable 第{桌号}桌 score sheet per match with 30 hand rows and 10 加赛 rows."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = MATCHES_SHEET
    _write_matches_sheet(ws, round, teams, rules_note)
    for pairing in round.pairings:
        _write_match_sheet(wb.create_sheet(sheet_name(pairing.table)), round, pairing, teams, rules_note)
    return _save(wb, path, force=force)


def _write_matches_sheet(ws: Worksheet, round: Round, teams: Mapping[str, Team], rules_note: str) -> None:
    ws.cell(1, 1, f"第{round.number}轮 对阵表").font = _TITLE
    bye = _team(teams, round.bye) if round.bye else None
    info = (
        (ROUND_LABEL, round.number, ""),
        (SEED_LABEL, round.seed if round.seed is not None else NO_SEED, ""),
        (BYE_LABEL, round.bye or NO_BYE, f"{_players(bye)}（本轮轮空，直接晋级）" if bye else ""),
        ("弃权", "如有一方弃权，在该桌“弃权”栏选“甲”或“乙”（弃权的一方），该桌记分表不必填写", ""),
    )
    for r, (label, value, extra) in enumerate(info, start=2):
        ws.cell(r, 1, label).font = _BOLD
        ws.cell(r, 1).fill = _LABEL_FILL
        ws.cell(r, 2, value).alignment = Alignment(horizontal="left")
        if extra:
            ws.cell(r, 3, extra)
    if rules_note:
        ws.cell(6, 1, "规则").font = _BOLD
        ws.cell(6, 2, rules_note)
    header_row = 8
    for col, label in enumerate(MATCHES_HEADER, start=1):
        _header_cell(ws, header_row, col, label)
    rows: list[tuple[object, ...]] = [MATCHES_HEADER]
    for r, p in enumerate(round.pairings, start=header_row + 1):
        a, b = _team(teams, p.a), _team(teams, p.b)
        values = (p.table, p.a, p.b, None, _players(a), _players(b), THIRD_PLACE if p.third_place else None)
        rows.append(values)
        for col, value in enumerate(values, start=1):
            cell = ws.cell(r, col, value)
            cell.border = _BORDER
            if col <= 3:
                cell.alignment = _CENTER
        ws.cell(r, 4).protection = _UNLOCKED
    last_match = header_row + len(round.pairings)
    if round.pairings:
        dv = DataValidation(type="list", formula1='"甲,乙"', allow_blank=True, errorStyle="warning",
                            showErrorMessage=True, showInputMessage=True)
        dv.errorTitle, dv.error = "弃权填写有误", "弃权应为空，或弃权的一方“甲”或“乙”。"
        dv.promptTitle, dv.prompt = "弃权", "弃权的一方：甲或乙；未弃权留空"
        dv.add(f"D{header_row + 1}:D{last_match}")
        ws.add_data_validation(dv)
    pool_title = last_match + 2
    ws.cell(pool_title, 1, POOL_TITLE).font = _BOLD
    for col, label in enumerate(POOL_HEADER, start=1):
        _header_cell(ws, pool_title + 1, col, label)
    lots = dict(round.lots)
    for i, team_id in enumerate(round.pool, start=1):
        values = (i, team_id, _players(teams.get(team_id)), lots.get(team_id))
        rows.append(values)
        for col, value in enumerate(values, start=1):
            ws.cell(pool_title + 1 + i, col, value).border = _BORDER
    widths = _widths(rows)
    widths[2] = max(widths.get(2, 6), 12)
    _fit_columns(ws, widths)
    ws.freeze_panes = f"A{header_row + 1}"
    _print_setup(ws, title_rows=None)
    _protect(ws)


def _write_match_sheet(ws: Worksheet, round: Round, p: Pairing, teams: Mapping[str, Team], rules_note: str) -> None:
    n = len(HAND_COLUMNS)
    last_col = get_column_letter(n)
    title = f"第{round.number}轮 第{p.table}桌 记分表" + (f"（{THIRD_PLACE}）" if p.third_place else "")
    ws.cell(TITLE_ROW, 1, title).font = _TITLE
    ws.merge_cells(f"A{TITLE_ROW}:{last_col}{TITLE_ROW}")
    ws.cell(TITLE_ROW, 1).alignment = _CENTER
    for row, side, team_id in ((A_ROW, Side.A, p.a), (B_ROW, Side.B, p.b)):
        ws.cell(row, 1, side.team).font = _BOLD
        ws.cell(row, 1).fill = _LABEL_FILL
        ws.cell(row, 2, team_id).font = _BOLD
        ws.cell(row, 2).alignment = _CENTER
        ws.cell(row, 3, _players(_team(teams, team_id)))
        ws.merge_cells(f"C{row}:F{row}")
    ws.cell(GUIDE_ROW, 1, GUIDE).alignment = _WRAP
    ws.merge_cells(f"A{GUIDE_ROW}:{last_col}{GUIDE_ROW}")
    ws.row_dimensions[GUIDE_ROW].height = 45
    if rules_note:
        ws.cell(RULES_ROW, 1, rules_note).alignment = _WRAP
        ws.merge_cells(f"A{RULES_ROW}:{last_col}{RULES_ROW}")
    for col, column in enumerate(HAND_COLUMNS, start=1):
        _header_cell(ws, HAND_HEADER_ROW, col, column.label)
    first = HAND_HEADER_ROW + 1
    last = first + REGULAR_ROWS + PLAYOFF_ROWS - 1
    for i in range(REGULAR_ROWS + PLAYOFF_ROWS):
        r = first + i
        playoff = i >= REGULAR_ROWS
        for col, column in enumerate(HAND_COLUMNS, start=1):
            cell = ws.cell(r, col)
            cell.border = _BORDER
            if column.label == NUMBER_LABEL:
                cell.value = f"{PLAYOFF_PREFIX}{i - REGULAR_ROWS + 1}" if playoff else i + 1
                cell.alignment = _CENTER
                cell.fill = _LABEL_FILL
                continue
            cell.protection = _UNLOCKED
            if column.label != NOTE_LABEL:
                cell.alignment = _CENTER
            if playoff and column.field == "playoff":
                cell.value = "是"
    for col, column in enumerate(HAND_COLUMNS, start=1):
        letter = get_column_letter(col)
        _validation(ws, column, f"{letter}{first}:{letter}{last}")
        width = column.width or display_width(column.label) + 4
        ws.column_dimensions[letter].width = width
    ws.column_dimensions["B"].width = max(ws.column_dimensions["B"].width, display_width(p.a + p.b) + 6, 8)
    ws.freeze_panes = f"B{first}"
    _print_setup(ws, title_rows=f"{HAND_HEADER_ROW}:{HAND_HEADER_ROW}", one_page=True)
    _protect(ws)


def fill_round(
    path: Path, records: Mapping[int, MatchRecord], *, walkovers: Mapping[int, Side] | None = None
) -> Path:
    """Type hands into a drawn round workbook as a referee would (the demo's stand-in for the day): regular hands
    from hand row 1, 加赛 hands into the 加 rows; `walkovers` marks the 弃权 side on the 对阵 sheet. Only for a
    workbook this program drew for a simulated event: it rewrites `path`."""
    wb = _open_workbook(_read_file(Path(path)), Path(path).name, read_only=False)
    col = {c.field: i for i, c in enumerate(HAND_COLUMNS, start=1) if c.field}
    for table, record in records.items():
        ws = wb[sheet_name(table)]
        regular = [h for h in record.hands if not h.playoff]
        playoff = [h for h in record.hands if h.playoff]
        if len(regular) > REGULAR_ROWS or len(playoff) > PLAYOFF_ROWS:
            raise ValueError(f"{table}: {len(regular)} + {len(playoff)} hands do not fit the sheet")
        rows = [HAND_HEADER_ROW + 1 + i for i in range(len(regular))]
        rows += [HAND_HEADER_ROW + 1 + REGULAR_ROWS + i for i in range(len(playoff))]
        for r, hand in zip(rows, regular + playoff):
            for field, value in _typed(hand).items():
                ws.cell(r, col[field], value)
    if walkovers:
        ws = wb[MATCHES_SHEET]
        # Only the match rows: below the 桌号 header up to the first blank 桌号 (the pool table further down
        # also starts with a number, its 序号, and must not get a 弃权 mark in its 签号 column).
        header = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == MATCHES_HEADER[0])
        r = header + 1
        while (table := ws.cell(r, 1).value) is not None:
            if isinstance(table, int) and table in walkovers:
                ws.cell(r, 4, walkovers[table].cn)
            r += 1
    return _save(wb, path, force=True)


def _typed(hand: Hand) -> dict[str, object]:
    """What a referee writes in each column for a hand (blank where the default holds)."""
    cells: dict[str, object] = {"dealer": hand.dealer.cn, "points": hand.points}
    if hand.level is not None:
        cells["level"] = hand.level.label
    if hand.bottom:
        cells["bottom"] = hand.bottom
    if hand.capture:
        cells["capture"] = f"×{hand.capture}"
    for field in ("level_card_capture", "playoff"):
        if getattr(hand, field):
            cells[field] = "是"
    for field in ("dealer_wrong_cards", "defender_wrong_cards"):
        if getattr(hand, field):
            cells[field] = getattr(hand, field)
    if hand.offense is not None:
        cells["offense"] = hand.offense.cn
    return cells


# --- round-N.xlsx: reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSheet:
    """One table's score sheet as read: the record, and where each hand and field sits in the sheet."""

    file: str
    sheet: str
    pairing: Pairing
    record: MatchRecord
    rows: tuple[int, ...]  # rows[i] is the sheet row of record.hands[i]
    columns: Mapping[str, int]  # field (and '局') → column number
    header_row: int | None
    walkover: Side | None  # the side that forfeited (弃权)
    problems: tuple[Problem, ...]
    extra_column: int  # the first column right of the hand table (the checked copy writes there)

    @property
    def table(self) -> int:
        return self.pairing.table

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def open(self) -> bool:
        """Nothing recorded yet (and no walkover)."""
        return self.walkover is None and not self.record.hands and not self.problems

    def cell(self, hand: int | None, field: str | None = None) -> str | None:
        """'D9' for hand 3's 台下得分; the 局 cell when `field` has no column; None without a hand."""
        if hand is None or not 1 <= hand <= len(self.rows):
            return None
        col = self.columns.get(field or NUMBER_LABEL) or self.columns.get(NUMBER_LABEL)
        return _cell(self.rows[hand - 1], col) if col else None

    def locate(self, error: HandError) -> Problem:
        """An engine error (hand position, field) as a problem at its cell: `round-1.xlsx 第3桌!D9：…`."""
        return Problem(self.file, self.sheet, self.cell(error.hand, error.field), error.message)


@dataclass(frozen=True)
class RoundSheet:
    """A round workbook as read: the drawn round, each match's sheet, and every problem found."""

    path: Path
    sha256: str
    round: Round
    matches: tuple[MatchSheet, ...]

    def match(self, table: int) -> MatchSheet:
        for m in self.matches:
            if m.table == table:
                return m
        raise KeyError(table)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Every problem as the workbook reads: the 对阵 sheet's (bad 弃权 cells, kept with their table) first, then
        table by table."""
        every = [p for m in self.matches for p in m.problems]
        return tuple(sorted(every, key=lambda p: p.sheet != MATCHES_SHEET))


_ROUND_CACHE: dict[tuple[str, str], RoundSheet] = {}
_ROUND_CACHE_SIZE = 16


def read_round(path: Path) -> RoundSheet:
    """Read a filled `round-N.xlsx`. Raises WorkbookError only when the round itself (file, 对阵 sheet) cannot be
    read; problems of single match sheets are collected in the result so the other matches can still be scored.
    Parsing is the slow part, so a file read again with the same bytes is answered from a small cache."""
    path = Path(path)
    data = _read_file(path)
    digest = hashlib.sha256(data).hexdigest()
    key = (str(path.resolve()), digest)
    if key in _ROUND_CACHE:
        return _ROUND_CACHE[key]
    sheet = _parse_round(path, data, digest)
    if len(_ROUND_CACHE) >= _ROUND_CACHE_SIZE:
        _ROUND_CACHE.pop(next(iter(_ROUND_CACHE)))
    _ROUND_CACHE[key] = sheet
    return sheet


def _parse_round(path: Path, data: bytes, digest: str) -> RoundSheet:
    name = path.name
    grids = _grids(data, name)
    round_, walkovers, bad_forfeits = _read_matches_sheet(grids, name)
    matches = []
    expected = {MATCHES_SHEET, CHECK_SHEET, *(sheet_name(p.table) for p in round_.pairings)}
    strays = [title for title in grids if title not in expected]
    for pairing in round_.pairings:
        grid = grids.get(sheet_name(pairing.table))
        match = _read_match_sheet(grid, name, pairing, walkovers.get(pairing.table), strays)
        if pairing.table in bad_forfeits:  # a bad 弃权 cell stops its own match only, not the whole round
            match = replace(match, problems=(bad_forfeits[pairing.table], *match.problems))
        matches.append(match)
    return RoundSheet(path, digest, round_, tuple(matches))


def _read_matches_sheet(
    grids: Mapping[str, _Grid], name: str
) -> tuple[Round, dict[int, Side], dict[int, Problem]]:
    """The drawn round, the walkovers, and each bad 弃权 cell by table; WorkbookError if the round is unusable."""
    grid = grids.get(MATCHES_SHEET)
    if grid is None:
        raise WorkbookError([Problem(name, None, None, f"找不到工作表“{MATCHES_SHEET}”，这不像是 draw 生成的轮次工作簿")])
    sheet = grid.name
    fatal: list[Problem] = []
    bad_forfeits: dict[int, Problem] = {}

    def labelled(label: str) -> tuple[object, str | None]:
        at = grid.find_label(label)
        if at is None:
            fatal.append(Problem(name, sheet, None, f"找不到“{label}”一栏"))
            return None, None
        return grid.get(at[0], at[1] + 1), _cell(at[0], at[1] + 1)

    raw_number, number_cell = labelled(ROUND_LABEL)
    number = 0
    if number_cell:
        try:
            number = parse_whole(raw_number)
            if number < 1:
                raise ValueError(raw_number)
        except ValueError:
            fatal.append(Problem(name, sheet, number_cell, f"轮次应为正整数，实际为“{show(raw_number)}”"))
    raw_seed, seed_cell = labelled(SEED_LABEL)
    seed: int | None = None
    if seed_cell and not (isinstance(raw_seed, str) and _squeeze(raw_seed) == _squeeze(NO_SEED)):
        try:
            seed = parse_whole(raw_seed) if not blank(raw_seed) else None
        except ValueError:
            fatal.append(Problem(name, sheet, seed_cell, f"随机种子应为整数或“{NO_SEED}”，实际为“{show(raw_seed)}”"))
    raw_bye, bye_cell = labelled(BYE_LABEL)
    bye: str | None = None
    if bye_cell:
        try:
            bye = parse_team_id(raw_bye) or None
        except ValueError:
            fatal.append(Problem(name, sheet, bye_cell, f"轮空应为组号或“{NO_BYE}”，实际为“{show(raw_bye)}”"))
        if bye == NO_BYE:
            bye = None
    found = grid.find_header(MATCHES_HEADER[:4])
    if found is None:
        fatal.append(Problem(name, sheet, None, f"找不到对阵表头（{' | '.join(MATCHES_HEADER[:4])}）"))
        raise WorkbookError(fatal)
    header_row, cols = found
    pairings: list[Pairing] = []
    walkovers: dict[int, Side] = {}
    r = header_row + 1
    while not blank(grid.get(r, cols["桌号"])):
        raw_table = grid.get(r, cols["桌号"])
        try:
            table = parse_whole(raw_table)
            ids = [parse_team_id(grid.get(r, cols[label])) for label in ("甲方", "乙方")]
            if table < 1 or not all(ids):
                raise ValueError(raw_table)
        except ValueError:
            fatal.append(Problem(name, sheet, f"A{r}:C{r}", "对阵行应有桌号和甲乙双方组号（此处由 draw 生成，请不要改动）"))
            r += 1
            continue
        note = grid.get(r, cols["说明"]) if "说明" in cols else None
        pairing = Pairing(table, ids[0], ids[1], third_place=isinstance(note, str) and THIRD_PLACE in _squeeze(note))
        pairings.append(pairing)
        raw_forfeit = grid.get(r, cols["弃权"])
        if not blank(raw_forfeit):
            try:
                walkovers[table] = _parse_forfeit(raw_forfeit, pairing)
            except ValueError:
                bad_forfeits[table] = Problem(
                    name, sheet, _cell(r, cols["弃权"]),
                    f"弃权应为空，或弃权的一方“甲”或“乙”（也可写组号 {pairing.a} 或 {pairing.b}），实际为“{show(raw_forfeit)}”",
                )
        r += 1
    pool: list[str] = []
    lots: list[tuple[str, int]] = []
    pool_found = grid.find_header(POOL_HEADER[:2], start=r)
    if pool_found is None:
        fatal.append(Problem(name, sheet, None, f"找不到抽签名单（{' | '.join(POOL_HEADER)}）"))
    else:
        pool_row, pcols = pool_found
        r = pool_row + 1
        while not blank(grid.get(r, pcols["组号"])):
            raw_id = grid.get(r, pcols["组号"])
            try:
                team_id = parse_team_id(raw_id)
            except ValueError:
                fatal.append(Problem(name, sheet, _cell(r, pcols["组号"]), f"组号应为文字或整数，实际为“{show(raw_id)}”"))
                r += 1
                continue
            pool.append(team_id)
            raw_lot = grid.get(r, pcols["签号"]) if "签号" in pcols else None
            if not blank(raw_lot):
                try:
                    lots.append((team_id, parse_whole(raw_lot, suffixes=("号",))))
                except ValueError:
                    fatal.append(Problem(name, sheet, _cell(r, pcols["签号"]), f"签号应为正整数，实际为“{show(raw_lot)}”"))
            r += 1
    if fatal:
        raise WorkbookError(fatal + list(bad_forfeits.values()))
    return Round(number, tuple(pool), tuple(pairings), bye, seed, tuple(lots)), walkovers, bad_forfeits


def _parse_forfeit(raw: object, pairing: Pairing) -> Side:
    try:
        return parse_side(raw)
    except ValueError:
        team_id = parse_team_id(raw)
        if team_id == pairing.a:
            return Side.A
        if team_id == pairing.b:
            return Side.B
        if team_id.isdigit():  # 3 for 03: teams.xlsx never holds both, so one of the two at most
            same = [side for side, tid in ((Side.A, pairing.a), (Side.B, pairing.b))
                    if tid.isdigit() and int(tid) == int(team_id)]
            if len(same) == 1:
                return same[0]
        raise


def _read_match_sheet(grid: _Grid | None, name: str, pairing: Pairing, walkover: Side | None,
                      strays: Sequence[str] = ()) -> MatchSheet:
    sheet = sheet_name(pairing.table)
    empty = MatchRecord(())

    def broken(message: str) -> MatchSheet:
        return MatchSheet(name, sheet, pairing, empty, (), {}, None, walkover,
                          (Problem(name, sheet, None, message),), len(HAND_COLUMNS) + 1)

    if grid is None:
        others = f"；文件中另有工作表“{'”“'.join(strays)}”，如是改了名，请改回“{sheet}”" if strays else ""
        return broken(f"找不到工作表“{sheet}”（对阵表第{pairing.table}桌的记分表）{others}")
    required = tuple(c.label for c in HAND_COLUMNS if c.field) + (NUMBER_LABEL,)
    found = grid.find_header(required)
    if found is None:
        return broken(f"找不到记分表头行（应为 {' | '.join(HEADER)}）")
    header_row, labels = found
    columns = {c.field or c.label: labels[c.label] for c in HAND_COLUMNS if c.label in labels}
    extra_column = max(labels.values()) + 1
    problems: list[Problem] = []

    def bad(row: int, field: str, message: str) -> None:
        problems.append(Problem(name, sheet, _cell(row, columns[field]), message))

    # The team block above the header: 甲方 | id, 乙方 | id must match the 对阵 sheet.
    for side, expected in ((Side.A, pairing.a), (Side.B, pairing.b)):
        at = grid.find_label(side.team, before_row=header_row)
        if at is None:
            continue
        raw = grid.get(at[0], at[1] + 1)
        try:
            written = parse_team_id(raw)
        except ValueError:
            written = show(raw)
        if written != expected:
            problems.append(Problem(name, sheet, _cell(at[0], at[1] + 1),
                                    f"记分表{side.team}组号为“{show(raw)}”，与对阵表第{pairing.table}桌{side.team}“{expected}”不一致"))

    hands: list[Hand] = []
    rows: list[int] = []
    for r in range(header_row + 1, grid.max_row + 1):
        raw = {f: grid.get(r, columns[f]) for f in FIELDS}
        if blank(raw["dealer"]) and blank(raw["points"]):
            typed = [FIELD_CN[f] for f in OTHER_DATA_FIELDS if not _is_default(f, raw[f])]
            if typed:
                bad(r, "dealer", f"这一行填了{'、'.join(typed)}，但庄家和台下得分都是空的；"
                                 "请补上庄家和台下得分，如这一局没有打请清空这一行")
            continue
        values: dict[str, object] = {}
        row_ok = True
        for column in HAND_COLUMNS:  # in column order, so a row's problems read left to right
            f = column.field
            if f is None:
                continue
            try:
                values[f] = column.parse(raw[f])  # type: ignore[misc]
            except ValueError:
                row_ok = False
                actual = _quoted(raw[f])
                bad(r, f, f"{column.label}{column.expect}，实际为{actual}")
        if not row_ok:
            continue
        hand = Hand(**values)  # type: ignore[arg-type]
        position = len(hands) + 1
        for error in check_hand(position, hand):
            bad(r, error.field or "dealer", _strip_hand_prefix(error.message))
        hands.append(hand)
        rows.append(r)
    return MatchSheet(name, sheet, pairing, MatchRecord(tuple(hands)), tuple(rows), columns, header_row, walkover,
                      tuple(problems), extra_column)


def _is_default(field: str, raw: object) -> bool:
    """Blank, or a value that means the default (0, not captured, no); an unparsable value counts as typed."""
    if blank(raw):
        return True
    try:
        return not COLUMN_BY_FIELD[field].parse(raw)  # type: ignore[misc]
    except ValueError:
        return False


def _strip_hand_prefix(message: str) -> str:
    """check_hand says '第3局底牌分：…'; at a cell the place is already named, so keep '底牌分：…'."""
    return re.sub(r"^第\d+局", "", message)


# --- the checked copy ------------------------------------------------------------------------------------------

CHECK_COLUMNS = ("检查", "台下总分", "甲方级", "乙方级", "下局庄家", "说明")


def checked_path(path: Path) -> Path:
    """round-1.xlsx → round-1-checked.xlsx, next to it."""
    path = Path(path)
    return path.with_name(f"{path.stem}-checked{path.suffix}")


def match_problems(match: MatchSheet, result: MatchResult | None) -> tuple[Problem, ...]:
    """The reader's problems of a match plus the engine's errors, each at its cell."""
    engine = tuple(match.locate(e) for e in result.errors) if result is not None else ()
    return match.problems + engine


def write_checked(
    path: Path, source: RoundSheet, results: Mapping[int, MatchResult], *, force: bool = False
) -> Path:
    """A copy of the round workbook with, per hand row, the defenders' total P, both levels, the next dealer and
    the explanation; a 检查结果 sheet first; every bad cell filled, commented and marked ✗. Never writes the source.
    `results` maps table → the engine's MatchResult (absent for walkovers and unreadable sheets)."""
    path = Path(path)
    if path.resolve() == Path(source.path).resolve():
        raise ValueError("the checked copy must not overwrite the workbook that was read")
    data = _read_file(source.path)
    name = Path(source.path).name
    if hashlib.sha256(data).hexdigest() != source.sha256:
        raise WorkbookError([Problem(name, None, None, "文件在读取之后又被修改过，请重新运行 score")])
    wb = _open_workbook(data, name, read_only=False)
    everything: list[Problem] = []
    summary_rows: list[tuple[object, ...]] = []
    for match in source.matches:
        result = results.get(match.table)
        problems = match_problems(match, result)
        everything.extend(p for p in problems if all(p is not q for q in everything))
        summary_rows.append(_summary_row(match, result, problems))
        if match.sheet in wb.sheetnames and match.header_row is not None:
            _annotate_match(wb[match.sheet], match, result, problems, summary_rows[-1][-1])
    for problem in everything:
        if problem.sheet in wb.sheetnames and problem.cell and ":" not in problem.cell:
            _mark_bad(wb[problem.sheet][problem.cell], problem.message)
    _write_check_sheet(wb, source, summary_rows, everything)
    return _save(wb, path, force=force)


def _result_text(match: MatchSheet, result: MatchResult | None, problems: Sequence[Problem]) -> str:
    from scoring.match import result_summary  # the one place a result becomes a sentence

    p = match.pairing
    if match.walkover is not None:
        winner = match.walkover.other
        return f"{match.walkover.team}弃权，{winner.team}（{p.a if winner is Side.A else p.b}）晋级"
    if problems:
        return f"有 {len(problems)} 处错误，请改正后重新检查"
    if result is None:
        return "尚无记录"
    text = result_summary(result)
    if result.winner is not None:
        text += f"；胜者 {p.a if result.winner is Side.A else p.b}"
    return text


def _summary_row(match: MatchSheet, result: MatchResult | None, problems: Sequence[Problem]) -> tuple[object, ...]:
    """桌号 | 甲方 | 乙方 | 甲方级 | 乙方级 | 错误数 | 结果"""
    levels = result.levels if result is not None and result.outcomes else None
    return (
        match.table,
        match.pairing.a,
        match.pairing.b,
        levels.a.label if levels else None,
        levels.b.label if levels else None,
        len(problems),
        _result_text(match, result, problems),
    )


def _mark_bad(cell, message: str) -> None:
    cell.fill = _BAD_FILL
    if cell.comment is not None and message not in cell.comment.text:
        message = f"{cell.comment.text}\n{message}"
    elif cell.comment is not None:
        return
    comment = Comment(message, "shuangsheng")
    comment.width, comment.height = 320, 120
    cell.comment = comment


def _annotate_match(ws: Worksheet, match: MatchSheet, result: MatchResult | None,
                    problems: Sequence[Problem], summary: str) -> None:
    first = match.extra_column
    header = match.header_row
    assert header is not None
    for i, label in enumerate(CHECK_COLUMNS):
        _header_cell(ws, header, first + i, label)
        ws.column_dimensions[get_column_letter(first + i)].width = 60 if label == "说明" else display_width(label) + 4
    ws.cell(A_ROW, first, "结果").font = _BOLD
    ws.cell(A_ROW, first + 1, summary).font = _BOLD
    outcomes = {o.hand: o for o in result.outcomes} if result is not None else {}
    by_row: dict[int, list[str]] = {}
    for p in problems:
        m = re.fullmatch(r"[A-Z]+(\d+)", p.cell or "")
        if m and p.sheet == match.sheet:
            by_row.setdefault(int(m.group(1)), []).append(p.message)
    for position, row in enumerate(match.rows, start=1):
        o = outcomes.get(position)
        messages = by_row.pop(row, [])
        values: tuple[object, ...] = (
            _BAD_MARK if messages else (_GOOD_MARK if o else None),
            o.points if o else None,
            o.after.a.label if o else None,
            o.after.b.label if o else None,
            o.next_dealer.cn if o else None,
            "；".join(messages) if messages else (o.explanation if o else None),
        )
        for i, value in enumerate(values):
            cell = ws.cell(row, first + i, value)
            cell.border = _BORDER
            cell.alignment = _WRAP if i == len(values) - 1 else _CENTER
    for row, messages in by_row.items():  # bad rows that did not become hands
        ws.cell(row, first, _BAD_MARK).alignment = _CENTER
        ws.cell(row, first + len(CHECK_COLUMNS) - 1, "；".join(messages)).alignment = _WRAP


CHECK_SUMMARY_HEADER = ("桌号", "甲方", "乙方", "甲方级", "乙方级", "错误数", "结果")


def _write_check_sheet(wb, source: RoundSheet, summary_rows: Sequence[tuple[object, ...]],
                       problems: Sequence[Problem]) -> None:
    ws = wb.create_sheet(CHECK_SHEET, 0)
    wb.active = 0
    for other in wb.worksheets[1:]:
        other.sheet_view.tabSelected = False
    name = Path(source.path).name
    ws.cell(1, 1, f"第{source.round.number}轮 检查结果").font = _TITLE
    ws.cell(2, 1, f"这是 {name} 的检查副本，仅供核对；如需改正，请在原文件 {name} 中修改后重新运行 score。")
    for col, label in enumerate(CHECK_SUMMARY_HEADER, start=1):
        _header_cell(ws, 4, col, label)
    for r, values in enumerate(summary_rows, start=5):
        for col, value in enumerate(values, start=1):
            cell = ws.cell(r, col, value)
            cell.border = _BORDER
            cell.alignment = _WRAP if col == len(values) else _CENTER
    r = 5 + len(summary_rows) + 1
    ws.cell(r, 1, "错误清单" if problems else "没有发现错误").font = _BOLD
    if problems:  # 位置 spans 桌号…乙方, 问题 spans 甲方级…结果
        _header_cell(ws, r + 1, 1, "位置")
        _header_cell(ws, r + 1, 4, "问题")
        ws.merge_cells(start_row=r + 1, start_column=1, end_row=r + 1, end_column=3)
        ws.merge_cells(start_row=r + 1, start_column=4, end_row=r + 1, end_column=7)
        for i, p in enumerate(problems, start=r + 2):
            ws.cell(i, 1, p.where)
            ws.cell(i, 4, p.message).alignment = _WRAP
            ws.merge_cells(start_row=i, start_column=1, end_row=i, end_column=3)
            ws.merge_cells(start_row=i, start_column=4, end_row=i, end_column=7)
            ws.row_dimensions[i].height = 15 * (1 + display_width(p.message) // 90)
    _fit_columns(ws, {1: 8, 2: 12, 3: 12, 4: 8, 5: 8, 6: 8, 7: 60})
    _print_setup(ws, title_rows=None)


# --- paper lots (签号) ------------------------------------------------------------------------------------------


def read_lots(path: Path) -> tuple[tuple[str, int], ...]:
    """Paper lots as (team id, lot) in file order, from an xlsx sheet or a CSV (UTF-8 or GBK) with 组号 and 签号
    columns. Only parsing: whether the lots make a valid draw is the knockout's job. WorkbookError lists problems."""
    path = Path(path)
    name = path.name
    data = _read_file(path)
    csv_file = path.suffix.lower() == ".csv"
    candidates = [_csv_grid(data, name)] if csv_file else list(_grids(data, name).values())
    hit = next(((g, found) for g in candidates if (found := g.find_header(LOTS_HEADER))), None)
    if hit is None:
        raise WorkbookError([Problem(name, None, None, "找不到含“组号”“签号”两列的表头")])
    grid, (header_row, cols) = hit
    cell_name = _csv_cell if csv_file else _cell
    sheet = grid.name or None
    lots: list[tuple[str, int]] = []
    problems: list[Problem] = []
    for r in range(header_row + 1, grid.max_row + 1):
        raw_id, raw_lot = grid.get(r, cols["组号"]), grid.get(r, cols["签号"])
        if blank(raw_id) and blank(raw_lot):
            continue
        try:
            team_id = parse_team_id(raw_id)
            if not team_id:
                raise ValueError(raw_id)
        except ValueError:
            problems.append(Problem(name, sheet, cell_name(r, cols["组号"]), f"组号应为文字或整数，实际为{_quoted(raw_id)}"))
            continue
        try:
            lot = parse_whole(raw_lot, suffixes=("号",))
            if lot < 1:
                raise ValueError(raw_lot)
        except ValueError:
            problems.append(Problem(name, sheet, cell_name(r, cols["签号"]), f"签号应为正整数，实际为{_quoted(raw_lot)}"))
            continue
        lots.append((team_id, lot))
    if problems:
        raise WorkbookError(problems)
    return tuple(lots)


def _quoted(raw: object) -> str:
    return "空" if blank(raw) else f"“{show(raw)}”"


def _csv_cell(row: int, col: int) -> str:
    return f"第{row}行第{col}列"


def _csv_grid(data: bytes, name: str) -> _Grid:
    text = decode_text(data)
    if text is None:
        raise WorkbookError([Problem(name, None, None, "无法识别文件编码（应为 UTF-8 或 GBK）")])
    cells: dict[tuple[int, int], object] = {}
    for r, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        for c, value in enumerate(row, start=1):
            if value.strip():
                cells[(r, c)] = value
    return _Grid("", cells)
