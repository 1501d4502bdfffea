"""Where everything sits in the event's workbooks: sheet names, labels, columns, fixed rows (docs/workbooks.md).

Pure (no openpyxl, no files): the workbook writer, its reader, the checked copy and the printed score card
(`shuangsheng/render/materials/`) all lay out or find cells from these definitions, so they cannot drift apart. Rows and columns are
1-based, as in a spreadsheet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shuangsheng.game.hands import OFFENSE_CN
from shuangsheng.game.levels import LABELS, Side
from shuangsheng.knockout.teams import RESERVE_LABEL, SEED_LABEL, UNIT_LABEL, Team
from shuangsheng.storage.workbook.parsers import (
    CAPTURE_CHOICES,
    MAX_CAPTURE,
    MAX_CARDS,
    parse_capture,
    parse_cards,
    parse_flag,
    parse_level,
    parse_offense,
    parse_points,
    parse_side,
    parse_trick_points,
)
from shuangsheng.vocabulary.fields import FIELD_CN, FIELDS

# --- the hand table of a 第N桌 sheet: one column definition for writer, reader, checked copy and score card -----

YES_MARK = "是"  # what the workbook and the score card write in a yes-or-blank column (parsers.YES: what reads as yes)
SIDE_MARKS = tuple(side.cn for side in Side)  # 甲, 乙: the 庄家 and 弃权 choices
NUMBER_LABEL = "局"
NOTE_LABEL = "备注"


@dataclass(frozen=True)
class Widths:
    """A hand column's width in each workbook: the round workbook and the checked copy in Excel's characters (a
    Chinese character takes two; the round workbook's None: the label's width plus room for the dropdown arrow).
    The printed score card sizes its columns by their headers (`shuangsheng.render.materials.paper.card_widths`)."""

    workbook: float | None
    checked: float


@dataclass(frozen=True)
class Column:
    label: str
    field: str | None  # a Hand field (shuangsheng.game.hands.FIELDS); None for 局 and 备注
    widths: Widths
    expect: str = ""  # what the cell should hold, as in '台下得分应为 …'
    parse: Callable[[object], object] | None = None
    choices: tuple[str, ...] = ()  # dropdown list
    whole: tuple[int, int] | None = None  # whole-number validation
    # The printed score card's header where the label is split to fit its column at 12 pt: (a group's label over
    # neighbouring columns, the column's own); 违规 one pair per choice, each a box to tick. () : the label whole.
    card: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        """How readers name the column (`MatchSheet.columns`): its field, or its label for 局 and 备注."""
        return self.field or self.label


POINTS_EXPECT = "应为 0–200 之间 5 的倍数"
CARDS_EXPECT = f"应为 0–{MAX_CARDS} 之间的整数（张数）"
CAPTURE_EXPECT = f"应为空（庄家保底）或 ×2、×4、×8、×16、×32…（2 的乘方，两副牌最多 ×{MAX_CAPTURE}）"
FLAG_EXPECT = f"应为“{YES_MARK}”或空"
HAND_COLUMNS: tuple[Column, ...] = (
    Column(NUMBER_LABEL, None, Widths(workbook=7, checked=4)),
    Column(FIELD_CN["dealer"], "dealer", Widths(workbook=None, checked=4),
           "应为" + "或".join(f"“{mark}”" for mark in SIDE_MARKS), parse_side, choices=SIDE_MARKS,
           card=(("庄家", "方"),)),
    Column(FIELD_CN["level"], "level", Widths(workbook=None, checked=5),
           "应为 2…10、J、Q、K、A 或空", parse_level, choices=LABELS, card=(("庄家", "级"),)),
    Column(FIELD_CN["points"], "points", Widths(workbook=None, checked=5),
           POINTS_EXPECT, parse_trick_points, whole=(0, 200), card=(("分数", "台下"),)),
    Column(FIELD_CN["bottom"], "bottom", Widths(workbook=None, checked=5),
           POINTS_EXPECT, parse_points, whole=(0, 200), card=(("分数", "底牌"),)),
    Column(FIELD_CN["capture"], "capture", Widths(workbook=None, checked=5),
           CAPTURE_EXPECT, parse_capture, choices=CAPTURE_CHOICES),
    Column(FIELD_CN["level_card_capture"], "level_card_capture", Widths(workbook=None, checked=5),
           FLAG_EXPECT, parse_flag, choices=(YES_MARK,)),
    Column(FIELD_CN["dealer_wrong_cards"], "dealer_wrong_cards", Widths(workbook=None, checked=5),
           CARDS_EXPECT, parse_cards, whole=(0, MAX_CARDS), card=(("罚张", "上"),)),
    Column(FIELD_CN["defender_wrong_cards"], "defender_wrong_cards", Widths(workbook=None, checked=5),
           CARDS_EXPECT, parse_cards, whole=(0, MAX_CARDS), card=(("罚张", "下"),)),
    Column(FIELD_CN["offense"], "offense", Widths(workbook=13, checked=8),
           "应为空或 " + "、".join(OFFENSE_CN.values()) + " 之一", parse_offense, choices=tuple(OFFENSE_CN.values()),
           card=(("扣错底", "上"), ("扣错底", "下"), ("出错牌", "上"), ("出错牌", "下"))),
    Column(FIELD_CN["playoff"], "playoff", Widths(workbook=None, checked=4),
           FLAG_EXPECT, parse_flag, choices=(YES_MARK,)),
    Column(NOTE_LABEL, None, Widths(workbook=24, checked=8)),
)
HEADER = tuple(c.label for c in HAND_COLUMNS)
COLUMN_BY_FIELD: dict[str, Column] = {c.field: c for c in HAND_COLUMNS if c.field}
COLUMN_BY_KEY = {c.key: c for c in HAND_COLUMNS}
assert set(COLUMN_BY_FIELD) == set(FIELDS) and all(FIELD_CN[f] == c.label for f, c in COLUMN_BY_FIELD.items())
# Filled cells in these columns make a row count as data even with 庄家 and 台下得分 blank: typed data is never
# dropped silently (docs/workbooks.md). 加赛 is prefilled in the 加赛 rows, so it does not count.
OTHER_DATA_FIELDS = ("level", "bottom", "capture", "level_card_capture", "dealer_wrong_cards",
                     "defender_wrong_cards", "offense")

REGULAR_ROWS = 30
PLAYOFF_ROWS = 10
PLAYOFF_PREFIX = "加"

MATCHES_SHEET = "对阵"
TEAMS_SHEET = "报名表"
CHECK_SHEET = "检查结果"
TEAM_ID_LABEL = "组号"
TEAMS_HEADER = (TEAM_ID_LABEL, "队员1", "队员2", "联系电话", NOTE_LABEL, UNIT_LABEL, SEED_LABEL, RESERVE_LABEL)
TEAMS_REQUIRED = TEAMS_HEADER[:3]  # the rest may be missing: a teams.xlsx from before 单位/种子/候补 reads as ever
EXAMPLE_MARK = "示例，请删除"
TABLE_LABEL = "桌号"
SIDE_LABELS = tuple(side.team for side in Side)  # 甲方, 乙方: the teams' 组号 in a match row
FORFEIT_LABEL = "弃权"
REMARK_LABEL = "说明"
FINAL_LABELS = ("终局甲方级", "终局乙方级", "终局原因")  # a lost or illegible card's final levels, and why
MATCHES_HEADER = (TABLE_LABEL, *SIDE_LABELS, FORFEIT_LABEL, *(f"{label}队员" for label in SIDE_LABELS), REMARK_LABEL,
                  *FINAL_LABELS)
UNCHECKED = "未逐局核对"  # the mark of a match given by its 终局 cells only ("source": "final_only")
POOL_TITLE = "抽签名单（按此顺序，用上面的随机种子可重现抽签）"
PLAYERS_LABEL = "队员"
LOT_LABEL = "签号"
POOL_HEADER = ("序号", TEAM_ID_LABEL, PLAYERS_LABEL, LOT_LABEL)
ROUND_LABEL = "轮次"
SEED_LABEL = "随机种子"
BYE_LABEL = "轮空"
NO_SEED = "无（按纸签抽签）"
NO_BYE = "无"
BYE_SEPARATOR = "、"  # several byes in the 轮空 cell (byes = "first_round")
THIRD_PLACE = "三四名决赛"
LOTS_HEADER = (TEAM_ID_LABEL, LOT_LABEL)


def sheet_name(table: int) -> str:
    return f"第{table}桌"


# --- a table's score sheet (第N桌): fixed rows above the hand table -------------------------------------------

TITLE_ROW = 1
A_ROW = 2
B_ROW = 3
GUIDE_ROW = 4
RULES_ROW = 5
HAND_HEADER_ROW = 6
GUIDE = (
    "填写说明：每局一行，按顺序填写。庄家填“甲”或“乙”；台下得分不含底牌，一分未得请填 0（不能空着）；底牌被抠时填底牌分和抠底倍数（×2、×4…），"
    f"庄家保底则倍数留空；罚张填张数（每张10分）；时间到后打完当前一局，级数相同时在后面的行继续填加赛局，加赛栏填“{YES_MARK}”。"
)

FIRST_HAND_ROW = HAND_HEADER_ROW + 1
FIRST_PLAYOFF_ROW = FIRST_HAND_ROW + REGULAR_ROWS

# --- the 对阵 sheet ---------------------------------------------------------------------------------------------

MATCHES_TITLE_ROW = 1
MATCHES_INFO_ROW = 2  # 轮次, 随机种子, 轮空, 弃权 labels in column A from here down
MATCHES_RULES_ROW = 6
MATCHES_HEADER_ROW = 8

# --- the checked copy: columns added right of the hand table, and its 检查结果 sheet ------------------------------

CHECK_COLUMNS = ("检查", "台下总分", "甲方级", "乙方级", "下局庄家", "说明")
CHECK_SUMMARY_HEADER = ("桌号", "甲方", "乙方", "甲方级", "乙方级", "错误数", "结果")
CHECK_SUMMARY_HEADER_ROW = 4
BAD_MARK = "✗"
GOOD_MARK = "✓"

# --- teams.xlsx -------------------------------------------------------------------------------------------------

EXAMPLE_TEAMS = (
    Team("01", ("张三", "李四"), "2973620", EXAMPLE_MARK),
    Team("02", ("王五", "赵六"), "", EXAMPLE_MARK),
)
TEAMS_ROWS = 200  # rows prepared with validation and text format

