"""Where everything sits in the event's workbooks: sheet names, labels, columns, fixed rows (docs/workbooks.md).

Pure (no openpyxl, no files): the workbook writer, its reader, the checked copy and the printed score card
(`materials/`) all lay out or find cells from these definitions, so they cannot drift apart. Rows and columns are
1-based, as in a spreadsheet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.fields import FIELD_CN, FIELDS
from scoring.hands import OFFENSE_CN
from scoring.levels import LABELS
from scoring.teams import Team
from scoring.workbook.parsers import (
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

# --- the hand table of a 第N桌 sheet: one column definition for writer, reader, checked copy and score card -----



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
YES_MARK = "是"  # what the workbook and the score card write in a yes-or-blank column (parsers.YES: what reads as yes)
FLAG_EXPECT = f"应为“{YES_MARK}”或空"
CAPTURE_EXPECT = f"应为空（庄家保底）或 ×2、×4、×8、×16、×32…（2 的乘方，两副牌最多 ×{MAX_CAPTURE}）"
HAND_COLUMNS: tuple[Column, ...] = (
    Column("局", None, width=7),
    Column("庄家", "dealer", "应为“甲”或“乙”", parse_side, choices=("甲", "乙")),
    Column("庄家级", "level", "应为 2…10、J、Q、K、A 或空", parse_level, choices=LABELS),
    Column("台下得分", "points", POINTS_EXPECT, parse_trick_points, whole=(0, 200)),
    Column("底牌分", "bottom", POINTS_EXPECT, parse_points, whole=(0, 200)),
    Column("抠底倍数", "capture", CAPTURE_EXPECT, parse_capture, choices=CAPTURE_CHOICES),
    Column("级牌抠底", "level_card_capture", FLAG_EXPECT, parse_flag, choices=(YES_MARK,)),
    Column("台上罚张", "dealer_wrong_cards", CARDS_EXPECT, parse_cards, whole=(0, MAX_CARDS)),
    Column("台下罚张", "defender_wrong_cards", CARDS_EXPECT, parse_cards, whole=(0, MAX_CARDS)),
    Column("违规", "offense", "应为空或 " + "、".join(OFFENSE_CN.values()) + " 之一", parse_offense,
           choices=tuple(OFFENSE_CN.values()), width=13),
    Column("加赛", "playoff", FLAG_EXPECT, parse_flag, choices=(YES_MARK,)),
    Column("备注", None, width=24),
)
HEADER = tuple(c.label for c in HAND_COLUMNS)
COLUMN_BY_FIELD = {c.field: c for c in HAND_COLUMNS if c.field}
assert set(COLUMN_BY_FIELD) == set(FIELDS) and all(FIELD_CN[c.field] == c.label for c in COLUMN_BY_FIELD.values())
NUMBER_LABEL = "局"
NOTE_LABEL = "备注"
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
TEAMS_HEADER = ("组号", "队员1", "队员2", "联系电话", "备注")
TEAMS_REQUIRED = ("组号", "队员1", "队员2")
EXAMPLE_MARK = "示例，请删除"
FINAL_LABELS = ("终局甲方级", "终局乙方级", "终局原因")  # a lost or illegible card's final levels, and why
MATCHES_HEADER = ("桌号", "甲方", "乙方", "弃权", "甲方队员", "乙方队员", "说明", *FINAL_LABELS)
UNCHECKED = "未逐局核对"  # the mark of a match given by its 终局 cells only ("source": "final_only")
POOL_TITLE = "抽签名单（按此顺序，用上面的随机种子可重现抽签）"
POOL_HEADER = ("序号", "组号", "队员", "签号")
ROUND_LABEL = "轮次"
SEED_LABEL = "随机种子"
BYE_LABEL = "轮空"
NO_SEED = "无（按纸签抽签）"
NO_BYE = "无"
BYE_SEPARATOR = "、"  # several byes in the 轮空 cell (byes = "first_round")
THIRD_PLACE = "三四名决赛"
LOTS_HEADER = ("组号", "签号")


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

