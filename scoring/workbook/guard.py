"""Checking a user's .xlsx file before any spreadsheet parser sees it (bytes in memory; zipfile and defusedxml).

Refused here, each with a Chinese message saying what to do: a file that is not an .xlsx (an old .xls, a WPS .et,
a password-protected workbook, a Word or PDF file renamed, an .ods, a macro workbook), a truncated or damaged
package, a zip bomb (more than `MAX_ENTRIES` entries, or more than `MAX_UNZIPPED_BYTES` unpacked, declared or
actual), XML with a DOCTYPE (entity declarations: "billion laughs"), and a sheet claiming or holding cells beyond
`MAX_ROWS` rows or `MAX_COLUMNS` columns. What the check learns on the way — each sheet's merged ranges — is
returned, so the readers can name merged cells whichever parser reads the values.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath

from scoring.workbook.problems import Cell, Problem, WorkbookError

MAX_FILE_BYTES = 20 * 1024 * 1024  # a 64-table round is about 0.25 MB
MAX_UNZIPPED_BYTES = 200 * 1024 * 1024  # ... and unpacks to about 1.5 MB
MAX_ENTRIES = 2000  # ... of 73 parts
MAX_ROWS = 10_000  # a score sheet has about 50 rows, the team list a few hundred
MAX_COLUMNS = 1_000  # column ALL; a score sheet with its check columns uses about 20
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
_MERGE = re.compile(rb"<(?:\w+:)?mergeCell\b[^>]*?\sref\s*=\s*" + _Q + rb"([A-Z]{1,4})(\d{1,9}):([A-Z]{1,4})(\d{1,9})" + _Q)
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")  # a <f> element: a cell with a formula
_CARRY = 512  # a tag cut by a chunk boundary is found in the next chunk


@dataclass(frozen=True, order=True)
class Span:
    """A rectangle of cells, 1-based and inclusive (a merged range)."""

    row: int
    column: int
    last_row: int
    last_column: int

    @property
    def cell(self) -> Cell:
        return Cell(self.row, self.column, last_column=self.last_column, last_row=self.last_row)

    def __str__(self) -> str:
        return str(self.cell)

    def touches(self, rows: range, columns: range) -> bool:
        return self.row < rows.stop and self.last_row >= rows.start and self.column < columns.stop \
            and self.last_column >= columns.start


@dataclass(frozen=True)
class Inspection:
    merged: Mapping[str, tuple[Span, ...]]  # sheet name → its merged ranges
    formulas: bool  # some cell of some worksheet holds a formula (an <f> element)


def column_number(letters: bytes | str) -> int:
    text = letters.decode("ascii") if isinstance(letters, bytes) else letters
    number = 0
    for ch in text:
        number = number * 26 + ord(ch) - ord("A") + 1
    return number


def inspect(data: bytes, name: str) -> Inspection:
    """Refuse `data` (the file `name`) unless it is a sane .xlsx package; its merged ranges by sheet."""

    def refuse(message: str, sheet: str | None = None) -> WorkbookError:
        return WorkbookError([Problem(name, sheet, None, message)])

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


def _inspect_archive(archive: zipfile.ZipFile, refuse) -> Inspection:  # type: ignore[no-untyped-def]
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise refuse(f"压缩包里有 {len(infos)} 个部件，远多于任何工作簿（可能是恶意构造的文件），不予读取")
    declared = sum(info.file_size for info in infos)
    if declared > MAX_UNZIPPED_BYTES:
        raise refuse(f"解压后有 {declared // 1024 // 1024} MB，远大于本赛事的工作簿（可能是恶意构造的文件），不予读取")
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
    unpacked = 0
    merged: dict[str, tuple[Span, ...]] = {}
    formulas = False
    for info in infos:  # every part, whatever its name: a parser follows relationships, not file extensions
        sheet = sheets.get(info.filename)
        is_sheet = sheet is not None or info.filename.startswith("xl/worksheets/")
        spans: set[Span] = set()
        last_row = last_column = 0
        carry = b""
        with archive.open(info) as part:
            while chunk := part.read(CHUNK):
                unpacked += len(chunk)
                if unpacked > MAX_UNZIPPED_BYTES:
                    raise refuse("解压后远大于本赛事的工作簿（可能是恶意构造的文件），不予读取")
                text = carry + chunk
                if any(doctype in text for doctype in _DOCTYPES):
                    raise refuse("文件里含有 XML 实体声明（DOCTYPE），正常的工作簿没有这种内容（可能是恶意构造的文件），不予读取")
                if is_sheet:
                    last_row, last_column = _extent(text, last_row, last_column)
                    spans.update(_merges(text))
                    formulas = formulas or ((b"<f" in text or b":f" in text) and bool(_FORMULA.search(text)))
                carry = text[-_CARRY:]
        if not is_sheet:
            continue
        if last_row > MAX_ROWS or last_column > MAX_COLUMNS:
            raise refuse(
                f"工作表的范围写到了第 {last_row} 行、第 {last_column} 列，本赛事的表格不会超过 {MAX_ROWS} 行、"
                f"{MAX_COLUMNS} 列（文件可能是别的程序生成的，或已损坏）；请删去多余的行和列后重新保存",
                sheet,
            )
        if sheet is not None:
            merged[sheet] = tuple(sorted(spans))
    return Inspection(merged, formulas)


def _extent(text: bytes, last_row: int, last_column: int) -> tuple[int, int]:
    """The furthest row and column the sheet XML claims (its dimension) or holds (its rows and cells)."""
    if b"dimension" in text:
        for m in _DIMENSION.finditer(text):
            last_column = max(last_column, column_number(m.group(3) or m.group(1)))
            last_row = max(last_row, int(m.group(4) or m.group(2)))
    refs = _REF.findall(text)
    if refs:  # a few distinct values, each converted once
        columns, rows = (set(values) for values in zip(*refs))
        columns.discard(b"")
        last_row = max(last_row, max(map(int, rows)))
        if columns:
            last_column = max(last_column, max(map(column_number, columns)))
    return last_row, last_column


def _merges(text: bytes) -> list[Span]:
    spans: list[Span] = []
    start = text.find(b"mergeCell")
    if start == -1:
        return spans
    for m in _MERGE.finditer(text, max(0, start - 16)):
        rows = sorted((int(m.group(2)), int(m.group(4))))
        columns = sorted((column_number(m.group(1)), column_number(m.group(3))))
        spans.append(Span(rows[0], columns[0], rows[1], columns[1]))
    return spans


def _sheet_paths(archive: zipfile.ZipFile) -> dict[str, str]:
    """Package path of each worksheet part → its sheet name, from xl/workbook.xml and its relationships."""
    from defusedxml import ElementTree  # both parts are small; read only after their DOCTYPE check below

    def load(part: str):  # type: ignore[no-untyped-def]
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
        if rid in targets and element.get("name"):
            paths[targets[rid]] = element.get("name")
    return paths
