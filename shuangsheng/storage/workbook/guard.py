"""Checking a user's .xlsx file before any spreadsheet parser sees it (bytes in memory; zipfile and defusedxml).

Refused here, each with a Chinese message saying what to do: a file that is not an .xlsx (an old .xls, a WPS .et,
a password-protected workbook, a Word or PDF file renamed, an .ods, a macro workbook), a truncated or damaged
package, a zip bomb (more than `MAX_ENTRIES` entries, or more than `MAX_UNZIPPED_BYTES` unpacked, declared or
actual), XML with a DOCTYPE (entity declarations: "billion laughs"), and a workbook larger than any event needs —
counted, while the parts are unpacked chunk by chunk, per sheet (its extent: `MAX_ROWS` rows, `MAX_COLUMNS`
columns, `MAX_SHEET_AREA` cells from corner to corner; its `<row>` and `<c>` elements) and over the whole workbook
(`MAX_TOTAL_ROWS` rows, `MAX_TOTAL_CELLS` cells), and text that a parser would copy into every cell that refers to
it (`MAX_SHARED_TEXT`). Within these limits `score` of a workbook stays below 400 MB (bench/run.py measures it;
docs/limits.md gives the reasons). What the check learns on the way — whether any cell holds a formula — is
returned. (Merged ranges are read by calamine, in `loading`.)
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from shuangsheng.storage import files
from shuangsheng.storage.workbook.problems import Problem, WorkbookError

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

# The largest real workbook, round 1 of a 512-team event, has 257 sheets, 12,553 rows, 141,339 cells, 5.2 MB
# unpacked (0.9 MB on disk); its largest sheet (对阵) 777 rows × 10 columns and 4,635 cells; a table's sheet 46 rows ×
# 12 columns and about 550 cells. The limits leave about twice that over the whole workbook (the margin is kept
# small because reading what they let through costs memory: score of a workbook filled up to them peaks at about
# 350 MB, bench/run.py) and more per sheet and in bytes.
MAX_FILE_BYTES = files.WORKBOOK.limit  # a 256-table round is about 0.9 MB
MAX_UNZIPPED_BYTES = 50 * 1024 * 1024  # ... and unpacks to about 5.2 MB
MAX_ENTRIES = 2000  # ... of 266 parts
MAX_ROWS = 2_000  # per sheet: a score sheet has about 50 rows, the team list and the 对阵 sheet under 800
MAX_COLUMNS = 1_000  # per sheet: column ALL; a score sheet with its check columns uses about 20
MAX_SHEET_AREA = 1_000_000  # per sheet: rows × columns of its extent (a parser may hold every cell in between)
MAX_SHEET_CELLS = 20_000  # per sheet: <c> elements
MAX_TOTAL_ROWS = 30_000  # the whole workbook: <row> elements of every sheet (2.4 × the largest real)
MAX_TOTAL_CELLS = 300_000  # the whole workbook: <c> elements of every sheet (2.1 × the largest real)
MAX_SHARED_TEXT = 32 * 1024 * 1024  # a sheet's cells × the longest shared string (a parser copies it per cell)
CHUNK = 64 * 1024

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
SAVE_AS = "请在 Excel 中“文件 → 另存为”，保存类型选“Excel 工作簿（*.xlsx）”；WPS 中选“文件 → 另存为 → Excel 文件（*.xlsx）”"
_BY_SUFFIX = {
    ".xls": "这是旧版 Excel 文件（.xls），本程序只读 .xlsx",
    ".xlt": "这是旧版 Excel 模板（.xlt），本程序只读 .xlsx",
    ".et": "这是 WPS 表格文件（.et），本程序只读 .xlsx",
    ".ett": "这是 WPS 表格模板（.ett），本程序只读 .xlsx",
    ".xlsm": "这是带宏的 Excel 工作簿（.xlsm），本程序只读不带宏的 .xlsx",
    ".xltm": "这是带宏的 Excel 模板（.xltm），本程序只读 .xlsx",
    ".xlsb": "这是 Excel 二进制工作簿（.xlsb），本程序只读 .xlsx",
    ".ods": "这是 OpenDocument 表格（.ods），本程序只读 .xlsx",
    ".numbers": "这是 Numbers 表格，本程序只读 .xlsx",
}
_DOCTYPES = tuple("<!DOCTYPE".encode(encoding) for encoding in ("utf-8", "utf-16-le", "utf-16-be"))
_Q = rb"[\"']"  # XML allows either quote around an attribute
_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\s+ref\s*=\s*" + _Q + rb"([A-Z]{1,4})(\d{1,9})(?::([A-Z]{1,4})(\d{1,9}))?" + _Q)
# <row r="7">, <c r="D7">; also matches the end of other attributes (header="1"), which can only add small numbers
_REF = re.compile(rb"r[ \t\r\n]*=[ \t\r\n]*" + _Q + rb"([A-Z]{0,6})(\d{1,12})" + _Q)
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")  # a <f> element: a cell with a formula
_ROW_TAG = re.compile(rb"<(?:\w{1,32}:)?row[\s/>]")  # a <row> element (or <x:row>)
_CELL_TAG = re.compile(rb"<(?:\w{1,32}:)?c[\s/>]")  # a <c> element: one cell
_STRING_TAG = re.compile(rb"<(?:\w{1,32}:)?si[\s/>]")  # a shared string
_CARRY = 512  # a tag cut by a chunk boundary is found in the next chunk


@dataclass(frozen=True)
class Inspection:
    formulas: bool  # some cell of some worksheet holds a formula (an <f> element)


def column_number(letters: bytes | str) -> int:
    text = letters.decode("ascii") if isinstance(letters, bytes) else letters
    number = 0
    for ch in text:
        number = number * 26 + ord(ch) - ord("A") + 1
    return number


def inspect(data: bytes, name: str) -> Inspection:
    """Refuse `data` (the file `name`) unless it is a sane .xlsx package; whether it holds a formula."""

    def refuse(message: str, sheet: str | None = None) -> WorkbookError:
        return WorkbookError([Problem.of_cell(name, sheet, None, message)])

    suffix = PurePath(name).suffix.lower()
    if suffix in _BY_SUFFIX:
        raise refuse(f"{_BY_SUFFIX[suffix]}；{SAVE_AS}")
    if len(data) > MAX_FILE_BYTES:
        raise refuse(f"文件太大（{len(data) // 1024 // 1024} MB），不像是本赛事的工作簿")
    if data.startswith(OLE_MAGIC):
        raise refuse(f"这是旧版 Excel（.xls）、WPS 表格（.et）或设置了打开密码的文件，不是 .xlsx；"
                     f"{SAVE_AS}（如有密码，请先取消密码）")
    if data.startswith(b"%PDF"):
        raise refuse("这是 PDF 文件，不是 Excel 工作簿；请找到原来的 .xlsx 文件")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        if data.startswith(b"PK\x03\x04"):
            raise refuse("文件不完整（可能没有复制或下载完）；请重新复制原文件，或在 Excel/WPS 中打开它后重新保存")
        raise refuse(f"不是 xlsx 工作簿（可能是改了扩展名的其他文件，或已损坏）；{SAVE_AS}")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _inspect_archive(archive, refuse)
    except WorkbookError:
        raise
    # zipfile reports a damaged package in many ways (bad CRC, bad header, unknown compression, short data)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, OSError, KeyError):
        raise refuse("文件已损坏，无法读取（压缩包内容有误）；请在 Excel/WPS 中打开它后重新保存，或找到原文件") from None


def _inspect_archive(archive: zipfile.ZipFile, refuse: Callable[..., WorkbookError]) -> Inspection:
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise refuse(f"压缩包里有 {len(infos)} 个部件，远多于任何工作簿（可能是恶意构造的文件），不予读取")
    declared = sum(info.file_size for info in infos)
    if declared > MAX_UNZIPPED_BYTES:
        raise refuse(f"解压后有 {declared // 1024 // 1024} MB，远大于本赛事的工作簿（最大的约 2 MB；可能粘贴了大量内容，"
                     f"或是恶意构造的文件），不予读取；请删去多余的内容后重新保存")
    names = {info.filename for info in infos}
    if "xl/workbook.xml" not in names:
        if "word/document.xml" in names:
            raise refuse("这是 Word 文档（改了扩展名），不是 Excel 工作簿；请找到原来的 .xlsx 文件")
        if any(n.startswith("ppt/") for n in names):
            raise refuse("这是 PowerPoint 演示文稿（改了扩展名），不是 Excel 工作簿；请找到原来的 .xlsx 文件")
        if "mimetype" in names or "content.xml" in names:
            raise refuse(f"这是 OpenDocument/WPS 的 .ods 表格（改了扩展名）；{SAVE_AS}")
        raise refuse(f"压缩包里没有 Excel 工作簿的内容（可能是改了扩展名的其他文件）；{SAVE_AS}")
    if "xl/vbaProject.bin" in names:
        raise refuse(f"这是带宏的工作簿（.xlsm，改了扩展名），本程序只读不带宏的 .xlsx；{SAVE_AS}")
    if any(info.flag_bits & 0x1 for info in infos):
        raise refuse("压缩包设置了密码，无法读取；请在 Excel/WPS 中取消密码后另存为 .xlsx")
    sheets = _sheet_paths(archive)
    tally = _Tally(refuse)
    for info in infos:  # every part, whatever its name: a parser follows relationships, not file extensions
        sheet = sheets.get(info.filename)
        part = _Part(sheet, sheet is not None or info.filename.startswith("xl/worksheets/"))
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK):
                tally.unpack(part, chunk)
        tally.finish(part)
    tally.check_shared_text()
    return Inspection(tally.formulas)


def _fresh(pattern: re.Pattern[bytes], text: bytes, fresh: int) -> int:
    """How many matches of `pattern` in `text` end after its first `fresh` bytes (the carry from the chunk before,
    whose matches were counted then): all of them from 64 bytes before that point (counted by `findall`, in C; a
    chunk holds thousands of cells), less the few leading ones that end within the carry."""
    start = max(0, fresh - 64)
    counted = 0
    for m in pattern.finditer(text, start):
        if m.end() > fresh:
            break
        counted += 1
    return len(pattern.findall(text, start)) - counted


class _Part:
    """One part of the package as it is unpacked, chunk by chunk: what a sheet claims and holds, and where each
    shared string starts (for the longest)."""

    def __init__(self, sheet: str | None, is_sheet: bool):
        self.sheet, self.is_sheet = sheet, is_sheet
        self.rows = self.cells = self.last_row = self.last_column = 0
        self.formulas = False
        self.carry = b""
        self.size = 0  # bytes unpacked so far
        self.string_at: int | None = None  # where the last shared string began
        self.longest_string = 0

    def feed(self, chunk: bytes) -> bytes:
        text, fresh = self.carry + chunk, len(self.carry)
        if self.is_sheet:
            self.last_row, self.last_column = _extent(text, self.last_row, self.last_column)
            self.formulas = self.formulas or ((b"<f" in text or b":f" in text) and bool(_FORMULA.search(text)))
            self.rows += _fresh(_ROW_TAG, text, fresh)
            self.cells += _fresh(_CELL_TAG, text, fresh)
        elif b"si" in text:
            base = self.size - fresh  # where `text` begins in the part
            for m in _STRING_TAG.finditer(text, max(0, fresh - 64)):
                if m.end() > fresh:
                    self.string_ended(base + m.start())
        self.size += len(chunk)
        self.carry = text[-_CARRY:]
        return text

    def string_ended(self, at: int) -> None:
        if self.string_at is not None:
            self.longest_string = max(self.longest_string, at - self.string_at)
        self.string_at = at


class _Tally:
    """The whole workbook's counts, checked after every chunk, so a file over a limit is refused as soon as the
    scan crosses it (no more than the limit is ever unpacked)."""

    def __init__(self, refuse: Callable[..., WorkbookError]) -> None:
        self.refuse = refuse
        self.unpacked = self.rows = self.cells = self.longest_string = 0
        self.formulas = False
        self.busiest: tuple[int, str] = (0, "")  # the sheet of most rows so far: (rows, name)
        self.fullest: tuple[int, str] = (0, "")  # the sheet of most cells so far: (cells, name)

    def unpack(self, part: _Part, chunk: bytes) -> None:
        self.unpacked += len(chunk)
        if self.unpacked > MAX_UNZIPPED_BYTES:
            raise self.refuse("解压后远大于本赛事的工作簿（可能是恶意构造的文件），不予读取")
        rows, cells = part.rows, part.cells
        text = part.feed(chunk)
        if any(doctype in text for doctype in _DOCTYPES):
            raise self.refuse("文件里含有 XML 实体声明（DOCTYPE），正常的工作簿没有这种内容（可能是恶意构造的文件），不予读取")
        if part.is_sheet:
            self.rows += part.rows - rows
            self.cells += part.cells - cells
            self._check_sheet(part)
            self._check_workbook(part)

    def finish(self, part: _Part) -> None:
        if part.string_at is not None:
            part.string_ended(part.size)
        self.longest_string = max(self.longest_string, part.longest_string)
        self.formulas = self.formulas or part.formulas

    def _check_sheet(self, part: _Part) -> None:
        area = part.last_row * part.last_column
        if part.last_row > MAX_ROWS or part.last_column > MAX_COLUMNS or area > MAX_SHEET_AREA:
            more = f"（共 {area} 格，本赛事的表格不会超过 {MAX_SHEET_AREA} 格）" if area > MAX_SHEET_AREA else ""
            raise self.refuse(
                f"工作表的范围写到了第 {part.last_row} 行、第 {part.last_column} 列{more}，本赛事的表格不会超过 "
                f"{MAX_ROWS} 行、{MAX_COLUMNS} 列（可能粘贴了别的表格，或文件是别的程序生成的、已损坏）；请删去多余的行和列后重新保存",
                part.sheet,
            )
        if part.rows > MAX_ROWS:
            raise self.refuse(f"工作表有超过 {MAX_ROWS} 行，本赛事的表格不会超过 {MAX_ROWS} 行（可能粘贴了别的表格）；"
                              "请删去多余的行后重新保存", part.sheet)
        if part.cells > MAX_SHEET_CELLS:
            raise self.refuse(f"工作表有超过 {MAX_SHEET_CELLS} 个单元格，本赛事的表格最多约 5000 个（可能粘贴了别的表格）；"
                              "请删去多余的内容后重新保存", part.sheet)

    def _check_workbook(self, part: _Part) -> None:
        name = part.sheet or "?"
        self.busiest = max(self.busiest, (part.rows, name))
        self.fullest = max(self.fullest, (part.cells, name))
        if self.rows > MAX_TOTAL_ROWS:
            raise self.refuse(
                f"整个工作簿（各工作表合计）有超过 {MAX_TOTAL_ROWS} 行，本赛事最大的工作簿（512 组的第1轮）约 12600 行；行数最多的是"
                f"“{self.busiest[1]}”（{self.busiest[0]} 行）。可能粘贴了别的表格；请删去多余的行后重新保存")
        if self.cells > MAX_TOTAL_CELLS:
            raise self.refuse(
                f"整个工作簿（各工作表合计）有超过 {MAX_TOTAL_CELLS} 个单元格，本赛事最大的工作簿（512 组的第1轮）约 141000 个；单元格最多的是"
                f"“{self.fullest[1]}”（{self.fullest[0]} 个）。可能粘贴了别的表格；请删去多余的内容后重新保存")

    def check_shared_text(self) -> None:
        """A parser copies a shared string into every cell that refers to it: the longest one times the cells of
        the fullest sheet bounds what that sheet can unpack to."""
        cells, sheet = self.fullest
        if cells * self.longest_string > MAX_SHARED_TEXT:
            raise self.refuse(
                f"工作簿里最长的一段文字约 {self.longest_string // 1024} KB，工作表有 {cells} 个单元格，"
                f"合起来远大于本赛事的工作簿（可能是恶意构造的文件），不予读取；如果是正常的文件，请删去很长的文字或多余的内容后重新保存",
                sheet or None)


def _extent(text: bytes, last_row: int, last_column: int) -> tuple[int, int]:
    """The furthest row and column the sheet XML claims (its dimension) or holds (its rows and cells)."""
    if b"dimension" in text:
        for m in _DIMENSION.finditer(text):
            last_column = max(last_column, column_number(m.group(3) or m.group(1)))
            last_row = max(last_row, int(m.group(4) or m.group(2)))
    refs = _REF.findall(text)
    if refs:  # a few distinct values, each converted once
        columns, rows = (set(values) for values in zip(*refs, strict=True))
        columns.discard(b"")
        last_row = max(last_row, max(map(int, rows)))
        if columns:  # of letters A–Z, a longer name is a later column, and of names as long, the later in order
            last_column = max(last_column, column_number(max(columns, key=lambda c: (len(c), c))))
    return last_row, last_column


def _sheet_paths(archive: zipfile.ZipFile) -> dict[str, str]:
    """Package path of each worksheet part → its sheet name, from xl/workbook.xml and its relationships."""
    from defusedxml import ElementTree  # both parts are small; read only after their DOCTYPE check below

    def load(part: str) -> Element:
        raw = archive.read(part)
        if any(doctype in raw for doctype in _DOCTYPES):
            raise zipfile.BadZipFile(part)  # reported as damaged; the main scan names the DOCTYPE
        return ElementTree.fromstring(raw)

    try:
        workbook = load("xl/workbook.xml")
        rels = load("xl/_rels/workbook.xml.rels") if "xl/_rels/workbook.xml.rels" in archive.namelist() else None
    except (zipfile.BadZipFile, SyntaxError, ValueError):  # defusedxml and ElementTree report bad XML as these
        return {}
    targets = {}
    if rels is not None:
        for rel in rels:
            target = rel.get("Target") or ""
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
            targets[rel.get("Id")] = path
    paths = {}
    for element in workbook.iter():
        if element.tag.rsplit("}", 1)[-1] != "sheet":
            continue
        rid = next((v for k, v in element.attrib.items() if k.rsplit("}", 1)[-1] == "id"), None)
        name = element.get("name")
        if rid in targets and name:
            paths[targets[rid]] = name
    return paths
