"""Lenient cell parsers: what people really type in a score sheet, as values (pure; no openpyxl, no files).

Each raises ValueError on anything ambiguous; the callers turn that into a `Problem` naming the cell. Accepted:
digits full-width or not, spaces anywhere, 85.0; a trailing 分 (scores) or 张 (cards); ×4 x4 X4 *4 4 4倍;
甲 甲方 A; 是 √ ✓ Y yes 1 TRUE (and 否 N no 0 FALSE for no); levels 10, “10级”, j; offences by name.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time

from shuangsheng.game.hands import MAX_CAPTURE, MAX_CARDS, Offense
from shuangsheng.game.levels import Level, Side, to_halfwidth
from shuangsheng.knockout.teams import canonical_id
from shuangsheng.vocabulary.errors import SHOWN_CHARACTERS

YES = frozenset({"是", "是的", "对", "有", "√", "✓", "✔", "☑", "y", "yes", "true", "1"})
NO = frozenset({"否", "不是", "无", "没有", "n", "no", "false", "0"})
TIMES = ("×", "x", "*", "✕", "✖", "乘")  # after to_halfwidth and lower(): ｘ→x, Ｘ→x
CAPTURE_CHOICES = ("×2", "×4", "×8", "×16", "×32")


def blank(raw: object) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def squeeze(text: str) -> str:
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
        text = squeeze(raw)
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
    """底牌分 (and 台下得分 through `parse_trick_points`): 0–200, a multiple of 5; blank is 0; a trailing 分 is allowed."""
    value = parse_whole(raw, suffixes=("分",))
    if value > 200 or value % 5:
        raise ValueError(raw)
    return value


def parse_trick_points(raw: object) -> int | None:
    """台下得分: as `parse_points`, but blank is None, not 0 — a forgotten cell is an error in a played hand
    (docs/workbooks.md: 台下方一分未得请填 0), and a blank and a written 0 are not the same entry."""
    return None if blank(raw) else parse_points(raw)


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
        text = squeeze(raw).lower()
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
        text = squeeze(raw).lower()
        if text in YES:
            return True
        if text in NO:
            return False
    raise ValueError(raw)


def parse_side(raw: object) -> Side:
    """庄家: 甲/乙, 甲方/乙方, A/B (spaces and full-width forms allowed)."""
    if not isinstance(raw, str):
        raise ValueError(raw)
    return Side.parse(squeeze(raw))


def parse_level(raw: object) -> Level | None:
    """庄家级: blank, or 2…10, J, Q, K, A (also 'j', '10级', full-width)."""
    if blank(raw):
        return None
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError(raw)
        raw = int(raw)
    if isinstance(raw, str):
        raw = squeeze(raw)
    return Level.parse(raw)


def parse_offense(raw: object) -> Offense | None:
    """违规: blank or one of 台上扣错底, 台下扣错底, 台上出错牌, 台下出错牌 (spaces ignored)."""
    if blank(raw):
        return None
    if not isinstance(raw, str):
        raise ValueError(raw)
    return Offense.parse_cn(squeeze(raw))


def parse_team_id(raw: object) -> str:
    """A 组号 as text, written one way (`canonical_id`): 3 (a number cell), 3.0, '3', '03', '０３', '第3组' → '03',
    'a3' → 'A3'; blank → ''. Whether it is a 组号 the event may use is `shuangsheng.knockout.teams.id_problem`'s question."""
    if blank(raw):
        return ""
    if isinstance(raw, bool):
        raise ValueError(raw)
    if isinstance(raw, int):
        return canonical_id(str(raw))
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError(raw)
        return canonical_id(str(int(raw)))
    if isinstance(raw, str):
        return canonical_id(raw)
    raise ValueError(raw)


def plain_text(raw: object) -> str:
    """A free-text cell (names, phone, notes): numbers as integers where whole ('2973620', not '2973620.0')."""
    if blank(raw):
        return ""
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw))
    if isinstance(raw, (datetime, date, time)):
        return raw.isoformat()
    return str(raw)


def quoted(raw: object) -> str:
    return "空" if blank(raw) else f"“{show(raw)}”"


def show(raw: object) -> str:
    """A cell value as the user would recognise it, for quoting in a message."""
    if blank(raw):
        return "空"
    if raw is True:
        return "TRUE"
    if raw is False:
        return "FALSE"
    if isinstance(raw, float) and raw.is_integer() and abs(raw) < 1e15:  # larger: 1e+300, not 301 digits
        return str(int(raw))
    if isinstance(raw, (datetime, date, time)):
        return raw.isoformat(sep=" ") if isinstance(raw, datetime) else raw.isoformat()
    if isinstance(raw, str) and len(raw) > SHOWN_CHARACTERS:  # a pasted page of text is quoted by its start
        return raw[: SHOWN_CHARACTERS - 1] + "…"
    return str(raw)
