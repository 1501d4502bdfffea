"""Reading a filled `round-N.xlsx` into the drawn round and each table's match record (reads files).

The 加赛 column, not the row, decides what is a tie-break hand, so 加赛 hands may also be typed right after the
regular ones. Rows with 庄家 and 台下得分 both blank are skipped, unless another data cell holds a non-default value
(then an error: typed data is never dropped silently); a blank 台下得分 beside a filled 庄家 is an error, not 0 (docs/workbooks.md),
unless the row's 违规 or 级牌抠底 makes the points irrelevant. 弃权 (对阵 sheet) wins over any hands typed for that table.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from shuangsheng.game.hands import Hand, HandError, MatchRecord, check_hand
from shuangsheng.game.levels import Levels, Side
from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import id_key
from shuangsheng.storage.workbook.guard import MAX_ROWS
from shuangsheng.storage.workbook.loading import Grid, read_file, read_grids
from shuangsheng.storage.workbook.parsers import (
    blank,
    parse_level,
    parse_side,
    parse_team_id,
    parse_whole,
    quoted,
    show,
    squeeze,
)
from shuangsheng.storage.workbook.problems import Cell, Problem, WorkbookError, column_letter
from shuangsheng.storage.workbook.schema import (
    A_ROW,
    B_ROW,
    BYE_LABEL,
    CHECK_SHEET,
    COLUMN_BY_FIELD,
    FINAL_LABELS,
    FORFEIT_LABEL,
    HAND_COLUMNS,
    HEADER,
    LOT_LABEL,
    MATCHES_HEADER,
    MATCHES_SHEET,
    NO_BYE,
    NO_SEED,
    NUMBER_LABEL,
    OTHER_DATA_FIELDS,
    PLAYOFF_ROWS,
    POOL_HEADER,
    REGULAR_ROWS,
    REMARK_LABEL,
    ROUND_LABEL,
    SEED_LABEL,
    SIDE_LABELS,
    TABLE_LABEL,
    TEAM_ID_LABEL,
    THIRD_PLACE,
    Column,
    sheet_name,
)
from shuangsheng.table.log import Entry
from shuangsheng.vocabulary.errors import Place
from shuangsheng.vocabulary.fields import FIELD_CN, FIELDS


@dataclass(frozen=True)
class FinalCard:
    """A lost or illegible card's match given by the 对阵 sheet's 终局 cells: both final levels (unequal) and why."""

    levels: Levels
    reason: str
    cell: Cell  # the 终局甲方级 cell of the match's row

    @property
    def winner(self) -> Side:
        return Side.A if self.levels.a.value > self.levels.b.value else Side.B


@dataclass(frozen=True, kw_only=True)
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
    final: FinalCard | None = None  # the 终局 cells of the 对阵 sheet, when filled (and readable)

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

    def cell(self, hand: int | None, field: str | None = None) -> Cell | None:
        """Cell(9, 4) (D9) for hand 3's 台下得分; the 局 cell when `field` has no column; None without a hand."""
        if hand is None or not 1 <= hand <= len(self.rows):
            return None
        col = self.columns.get(field or NUMBER_LABEL) or self.columns.get(NUMBER_LABEL)
        return Cell(self.rows[hand - 1], col) if col else None

    def locate(self, error: HandError) -> Problem:
        """An engine error (hand position, field) as a problem at its cell: `round-1.xlsx 第3桌!D9：…`."""
        return Problem(Place(self.file, self.sheet, self.cell(error.hand, error.field), error.hand, error.field),
                       error.detail)


@dataclass(frozen=True)
class RoundSheet:
    """A round workbook as read: the drawn round, each match's sheet, and every problem found."""

    path: Path
    sha256: str
    round: Round
    matches: tuple[MatchSheet, ...]
    grids: Mapping[str, Grid] = field(default_factory=dict, compare=False, repr=False)  # every sheet's values
    # how wide the 对阵 sheet writes a numbered 组号 (3 in a field over 99: '007'); the ids above are canonical
    digits: int = field(default=2, compare=False)
    # each table's phone entries (event.db), attached by whoever opens the folder (shuangsheng.usecases.folder)
    entries: Mapping[int, tuple[Entry, ...]] = field(default_factory=dict, compare=False, repr=False)

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


def read_round(path: Path, known: RoundSheet | None = None) -> RoundSheet:
    """Read a filled `round-N.xlsx`. Raises WorkbookError only when the round itself (file, 对阵 sheet) cannot be
    read; problems of single match sheets are collected in the result so the other matches can still be scored.
    `known`: the caller's earlier reading of `path`, given back as it is while the file holds the same bytes (the
    file is read and hashed every time, so a changed file is parsed anew)."""
    path = Path(path)
    data = read_file(path)
    digest = hashlib.sha256(data).hexdigest()
    if known is not None and known.path == path and known.sha256 == digest:
        return known
    return _parse_round(path, data, digest)


def _parse_round(path: Path, data: bytes, digest: str) -> RoundSheet:
    name = path.name
    grids = read_grids(data, name)
    round_, walkovers, bad_forfeits, finals, digits = _read_matches_sheet(grids, name)
    matches = []
    expected = {MATCHES_SHEET, CHECK_SHEET, *(sheet_name(p.table) for p in round_.pairings)}
    strays = [title for title in grids if title not in expected]
    for pairing in round_.pairings:
        grid = grids.get(sheet_name(pairing.table))
        match = _read_match_sheet(grid, name, pairing, walkovers.get(pairing.table), strays)
        if pairing.table in bad_forfeits:  # a bad 弃权 cell stops its own match only, not the whole round
            match = replace(match, problems=(bad_forfeits[pairing.table], *match.problems))
        if pairing.table in finals:
            match = _with_final(match, *finals[pairing.table])
        matches.append(match)
    return RoundSheet(path, digest, round_, tuple(matches), grids, digits=digits)


Finals = dict[int, tuple[FinalCard | None, tuple[Problem, ...]]]


def _read_matches_sheet(
    grids: Mapping[str, Grid], name: str
) -> tuple[Round, dict[int, Side], dict[int, Problem], Finals, int]:
    """The drawn round, the walkovers, each bad 弃权 cell by table, each table's filled 终局 cells (the card or
    its problems), and how wide the 抽签名单 writes its 组号; WorkbookError if the round is unusable."""
    grid = grids.get(MATCHES_SHEET)
    if grid is None:
        raise WorkbookError([Problem.of_cell(name, None, None, f"找不到工作表“{MATCHES_SHEET}”，这不像是 draw 生成的轮次工作簿")])
    sheet = _Sheet(grid, name)
    number, seed, byes = sheet.info()
    found = grid.find_header(MATCHES_HEADER[:4])
    if found is None:
        sheet.fail(None, f"找不到对阵表头（{' | '.join(MATCHES_HEADER[:4])}）")
        raise WorkbookError(sheet.fatal)
    pairings, walkovers, bad_forfeits, end = sheet.pairings(*found)
    finals = {p.table: final for p, r in zip(pairings, sheet.rows, strict=True)
              if (final := sheet.final(r, found[1])) is not None}
    pool, lots = sheet.pool(end)
    if sheet.fatal:
        raise WorkbookError(sheet.fatal + list(bad_forfeits.values()))
    return (Round(number, tuple(pool), tuple(pairings), byes, seed, tuple(lots)), walkovers, bad_forfeits, finals,
            sheet.digits)


class _Sheet:
    """The 对阵 sheet being read, and the problems that make the round unusable; `_read_matches_sheet` is the
    only user."""

    def __init__(self, grid: Grid, name: str):
        self.grid = grid
        self.name = name
        self.fatal: list[Problem] = []
        self.rows: list[int] = []  # the row of each pairing read
        self.digits = 2  # the widest numbered 组号 of the 抽签名单 as written ('007': 3)

    def fail(self, cell: Cell | None, message: str) -> None:
        self.fatal.append(Problem.of_cell(self.name, self.grid.name, cell, message))

    def labelled(self, label: str) -> tuple[object, Cell | None]:
        at = self.grid.find_label(label)
        if at is None:
            self.fail(None, f"找不到“{label}”一栏")
            return None, None
        return self.grid.get(at[0], at[1] + 1), Cell(at[0], at[1] + 1)

    def info(self) -> tuple[int, int | None, tuple[str, ...]]:
        """轮次, 随机种子 (None for paper lots) and 轮空 from the labelled cells above the matches."""
        raw_number, number_cell = self.labelled(ROUND_LABEL)
        number = 0
        if number_cell:
            try:
                number = parse_whole(raw_number)
                if number < 1:
                    raise ValueError(raw_number)
            except ValueError:
                self.fail(number_cell, f"轮次应为正整数，实际为“{show(raw_number)}”")
        raw_seed, seed_cell = self.labelled(SEED_LABEL)
        seed: int | None = None
        if seed_cell and not (isinstance(raw_seed, str) and squeeze(raw_seed) == squeeze(NO_SEED)):
            try:
                seed = parse_whole(raw_seed) if not blank(raw_seed) else None
            except ValueError:
                self.fail(seed_cell, f"随机种子应为整数或“{NO_SEED}”，实际为“{show(raw_seed)}”")
        raw_bye, bye_cell = self.labelled(BYE_LABEL)
        byes: tuple[str, ...] = ()
        if bye_cell:
            parts = re.split(r"[、，,]", raw_bye) if isinstance(raw_bye, str) else [raw_bye]
            try:
                byes = tuple(t for t in map(parse_team_id, parts) if t and t != NO_BYE)
            except ValueError:
                self.fail(bye_cell, f"轮空应为组号（几组用“、”隔开）或“{NO_BYE}”，实际为“{show(raw_bye)}”")
        return number, seed, byes

    def pairings(self, header_row: int, cols: Mapping[str, int]
                 ) -> tuple[list[Pairing], dict[int, Side], dict[int, Problem], int]:
        """The match rows below the header down to the first blank 桌号, the walkovers, each bad 弃权 cell by table,
        and the row after the last match."""
        grid = self.grid
        pairings: list[Pairing] = []
        walkovers: dict[int, Side] = {}
        bad_forfeits: dict[int, Problem] = {}
        r = header_row + 1
        while not blank(raw_table := grid.get(r, cols[TABLE_LABEL])):
            try:
                table = parse_whole(raw_table)
                ids = [parse_team_id(grid.get(r, cols[label])) for label in SIDE_LABELS]
                if table < 1 or not all(ids):
                    raise ValueError(raw_table)
            except ValueError:
                self.fail(Cell(r, cols[TABLE_LABEL], last_column=cols[SIDE_LABELS[-1]]), "对阵行应有桌号和甲乙双方组号（此处由 draw 生成，请不要改动）")
                r += 1
                continue
            note = grid.get(r, cols[REMARK_LABEL]) if REMARK_LABEL in cols else None
            pairing = Pairing(table, ids[0], ids[1], third_place=isinstance(note, str) and THIRD_PLACE in squeeze(note))
            pairings.append(pairing)
            self.rows.append(r)
            raw_forfeit = grid.get(r, cols[FORFEIT_LABEL])
            if not blank(raw_forfeit):
                try:
                    walkovers[table] = parse_forfeit(raw_forfeit, pairing)
                except ValueError:
                    bad_forfeits[table] = Problem.of_cell(
                        self.name, grid.name, Cell(r, cols[FORFEIT_LABEL]),
                        f"弃权应为空，或弃权的一方“甲”或“乙”（也可写组号 {pairing.a} 或 {pairing.b}），实际为“{show(raw_forfeit)}”",
                    )
            r += 1
        return pairings, walkovers, bad_forfeits, r

    def final(self, r: int, cols: Mapping[str, int]) -> tuple[FinalCard | None, tuple[Problem, ...]] | None:
        """Row r's 终局 cells: None when all blank (or the columns are absent: a workbook drawn before them)."""
        if not all(label in cols for label in FINAL_LABELS):
            return None
        cells = [Cell(r, cols[label]) for label in FINAL_LABELS]
        raw = [self.grid.get(c.row, c.column) for c in cells]
        if all(blank(v) for v in raw):
            return None
        found: list[Problem] = []
        levels = []
        for label, cell, value in zip(FINAL_LABELS[:2], cells, raw, strict=False):
            try:
                level = parse_level(value)
                if level is None:
                    raise ValueError(value)
                levels.append(level)
            except ValueError:
                found.append(self.problem(cell, f"{label}应为 2…10、J、Q、K、A，实际为{quoted(value)}"))
        if len(levels) == 2 and levels[0] == levels[1]:
            found.append(self.problem(cells[0], f"终局两方同为{levels[0].label}级；终局只记分出胜负的比赛，"
                                                "级数相同要打加赛，请改正或在记分表记录"))
        reason = squeeze(raw[2]) if isinstance(raw[2], str) else "" if blank(raw[2]) else show(raw[2])
        if not reason:
            found.append(self.problem(cells[2], "填了终局级数，请在终局原因写明为什么不能逐局记录（如“记分卡遗失”）"))
        if found:
            return None, tuple(found)
        return FinalCard(Levels(levels[0], levels[1]), reason, cells[0]), ()

    def problem(self, cell: Cell, message: str) -> Problem:
        return Problem.of_cell(self.name, self.grid.name, cell, message)

    def pool(self, start: int) -> tuple[list[str], list[tuple[str, int]]]:
        """The 抽签名单 below the matches: the pool in its drawn order, and the paper lots where recorded."""
        pool: list[str] = []
        lots: list[tuple[str, int]] = []
        pool_found = self.grid.find_header(POOL_HEADER[:2], start=start)
        if pool_found is None:
            self.fail(None, f"找不到抽签名单（{' | '.join(POOL_HEADER)}）")
            return pool, lots
        pool_row, pcols = pool_found
        r = pool_row + 1
        while not blank(raw_id := self.grid.get(r, pcols[TEAM_ID_LABEL])):
            try:
                team_id = parse_team_id(raw_id)
            except ValueError:
                self.fail(Cell(r, pcols[TEAM_ID_LABEL]), f"组号应为文字或整数，实际为“{show(raw_id)}”")
                r += 1
                continue
            pool.append(team_id)
            if isinstance(raw_id, str) and raw_id.strip().isdigit():
                self.digits = max(self.digits, len(raw_id.strip()))
            raw_lot = self.grid.get(r, pcols[LOT_LABEL]) if LOT_LABEL in pcols else None
            if not blank(raw_lot):
                try:
                    lots.append((team_id, parse_whole(raw_lot, suffixes=("号",))))
                except ValueError:
                    self.fail(Cell(r, pcols[LOT_LABEL]), f"签号应为正整数，实际为“{show(raw_lot)}”")
            r += 1
        return pool, lots


def _with_final(match: MatchSheet, card: FinalCard | None, problems: tuple[Problem, ...]) -> MatchSheet:
    """The 终局 cells on a match: a lost card's record, unless they are wrong or the match has another record."""
    if card is not None and match.walkover is not None:
        problems = (Problem.of_cell(match.file, MATCHES_SHEET, card.cell,
                                    f"第{match.table}桌填了弃权，又填了终局；请只留一种"),)
    elif card is not None and match.record.hands:
        problems = (Problem.of_cell(match.file, MATCHES_SHEET, card.cell,
                                    f"第{match.table}桌的记分表已有{len(match.record.hands)}局记录，又填了终局；"
                                    "终局只用于记分卡遗失、无法逐局录入的比赛，请清空一种"),)
    if problems:
        return replace(match, problems=(*problems, *match.problems))
    return replace(match, final=card)


def parse_forfeit(raw: object, pairing: Pairing) -> Side:
    try:
        return parse_side(raw)
    except ValueError:
        team_id = parse_team_id(raw)
        if team_id == pairing.a:
            return Side.A
        if team_id == pairing.b:
            return Side.B
        # 3 for 03, A1 for A01: teams.xlsx never holds both (shuangsheng.knockout.teams.id_key), so one of the two at most
        same = [side for side, tid in ((Side.A, pairing.a), (Side.B, pairing.b)) if id_key(tid) == id_key(team_id)]
        if len(same) == 1:
            return same[0]
        raise


def _read_match_sheet(grid: Grid | None, name: str, pairing: Pairing, walkover: Side | None,
                      strays: Sequence[str] = ()) -> MatchSheet:
    sheet = sheet_name(pairing.table)
    empty = MatchRecord(())

    def broken(message: str) -> MatchSheet:
        return MatchSheet(file=name, sheet=sheet, pairing=pairing, record=empty, rows=(), columns={}, header_row=None,
                          walkover=walkover, problems=(Problem.of_cell(name, sheet, None, message),),
                          extra_column=len(HAND_COLUMNS) + 1)

    if grid is None:
        if strays:
            advice = f"；文件中另有工作表“{'”“'.join(strays)}”，如是改了名，请改回“{sheet}”"
        else:  # the hand table is found by its header's text: another table's sheet, corrected, serves
            a, b = (f"{column_letter(2)}{row}" for row in (A_ROW, B_ROW))
            advice = (f"；如是误删：在 Excel/WPS 里右键另一桌的工作表标签（本轮只有一桌时，可从上一轮的工作簿里取），"
                      f"选“移动或复制”并勾选“建立副本”，把副本改名为“{sheet}”；点“审阅→撤销工作表保护”（没有密码），"
                      f"把 {a}、{b} 改为本桌甲方“{pairing.a}”、乙方“{pairing.b}”，清空已录的各局，"
                      f"再照第{pairing.table}桌的记分卡录入")
        return broken(f"找不到工作表“{sheet}”（对阵表第{pairing.table}桌的记分表）{advice}")
    required = tuple(c.label for c in HAND_COLUMNS if c.field) + (NUMBER_LABEL,)
    found = grid.find_header(required)
    if found is None:
        return broken(f"找不到记分表头行（应为 {' | '.join(HEADER)}）")
    header_row, labels = found
    columns = {c.key: labels[c.label] for c in HAND_COLUMNS if c.label in labels}
    extra_column = max(labels.values()) + 1
    problems = [Problem.of_cell(name, sheet, cell, message) for cell, message in (
        *_merged_problems(grid, header_row, columns),
        *_team_block_problems(grid, header_row, pairing),
    )]
    hands: list[Hand] = []
    rows: list[int] = []
    below: list[Problem] = []  # problems in rows under the last 加赛 row: said once for the sheet
    last_row = header_row + REGULAR_ROWS + PLAYOFF_ROWS
    for r in range(header_row + 1, grid.max_row + 1):
        hand, row_problems = _read_hand_row({f: grid.get(r, columns[f]) for f in FIELDS}, len(hands) + 1)
        (problems if r <= last_row else below).extend(
            Problem.of_cell(name, sheet, Cell(r, columns[f]), message) for f, message in row_problems)
        if hand is not None:
            hands.append(hand)
            rows.append(r)
    if below:
        problems.append(_below_the_table(below, last_row))
    return MatchSheet(file=name, sheet=sheet, pairing=pairing, record=MatchRecord(tuple(hands)), rows=tuple(rows),
                      columns=columns, header_row=header_row, walkover=walkover, problems=tuple(problems),
                      extra_column=extra_column)


def _merged_problems(grid: Grid, header_row: int, columns: Mapping[str, int]) -> list[tuple[Cell, str]]:
    """Merged cells in the hand table (header and every row below): a merged cell keeps only its first value."""
    table_columns = range(min(columns.values()), max(columns.values()) + 1)
    return [(span.cell, "这几个单元格被合并了；记分表的每一格要单独填写，请选中它们，点“合并后居中”取消合并，再把每一格填好")
            for span in grid.merged if span.touches(range(header_row, MAX_ROWS + 1), table_columns)]


def _team_block_problems(grid: Grid, header_row: int, pairing: Pairing) -> list[tuple[Cell, str]]:
    """The team block above the header: 甲方 | id, 乙方 | id must match the 对阵 sheet."""
    found = []
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
            found.append((Cell(at[0], at[1] + 1),
                          f"记分表{side.team}组号为“{show(raw)}”，与对阵表第{pairing.table}桌{side.team}“{expected}”不一致"))
    return found


def _below_the_table(below: Sequence[Problem], last_row: int) -> Problem:
    """One problem for everything wrong under the hand table (at the first bad cell): a page pasted there would
    otherwise be a problem per cell."""
    first = below[0]
    more = f"等 {len(below)} 处错误" if len(below) > 1 else "有错误"
    return replace(first, detail=f"记分表最后一个加赛行（第{last_row}行）下面还填了内容，{more}，第一处：{first.detail}；"
                                  "请改正，不属于比赛记录的内容请删去")


BLANK_POINTS = "台下得分不能空着：台下方一分未得请填 0"


def _read_hand_row(raw: Mapping[str, object], position: int) -> tuple[Hand | None, list[tuple[str, str]]]:
    """One row of the hand table: its hand (None for a skipped or unreadable row) and its problems as (field,
    message), left to right. A row with 庄家 and 台下得分 both blank is skipped, unless other data was typed in it;
    a blank 台下得分 beside a 庄家 is an error (docs/workbooks.md) unless a 违规 or a 级牌抠底 makes the points irrelevant."""
    if blank(raw["dealer"]) and blank(raw["points"]):
        typed = [FIELD_CN[f] for f in OTHER_DATA_FIELDS if not _is_default(f, raw[f])]
        if not typed:
            return None, []
        return None, [("dealer", f"这一行填了{'、'.join(typed)}，但庄家和台下得分都是空的；"
                                 "请补上庄家和台下得分，如这一局没有打请清空这一行")]
    values: dict[str, object] = {}
    problems: list[tuple[str, str]] = []
    for column in HAND_COLUMNS:  # in column order, so a row's problems read left to right
        f = column.field
        if f is None:
            continue
        try:
            values[f] = _parse(column, raw[f])
        except ValueError:
            problems.append((f, f"{column.label}{column.expect}，实际为{quoted(raw[f])}"))
    if values.get("points", 0) is None:  # blank: parse_trick_points keeps it apart from a written 0
        if values.get("offense") is None and not values.get("level_card_capture"):
            problems.append(("points", BLANK_POINTS))
        values["points"] = 0
    if problems:
        return None, sorted(problems, key=lambda p: _ORDER[p[0]])
    hand = Hand(**values)  # type: ignore[arg-type]  # each value read by its column's parser above
    return hand, [(error.field or "dealer", error.in_hand) for error in check_hand(position, hand)]


LONGEST_VALUE = 40  # no value of a parsed column is longer: a longer text is refused before it is parsed


def _parse(column: Column, raw: object) -> object:
    """The column's value of `raw`; ValueError if it has none (a pasted page of text among them, at once)."""
    if isinstance(raw, str) and len(raw) > LONGEST_VALUE:
        raise ValueError(raw[:LONGEST_VALUE])
    assert column.parse is not None  # each column of a hand field has its parser (schema.py)
    return column.parse(raw)


_ORDER = {c.field: i for i, c in enumerate(HAND_COLUMNS) if c.field}


def _is_default(field: str, raw: object) -> bool:
    """Blank, or a value that means the default (0, not captured, no); an unparsable value counts as typed."""
    if blank(raw):
        return True
    try:
        return not _parse(COLUMN_BY_FIELD[field], raw)
    except ValueError:
        return False

