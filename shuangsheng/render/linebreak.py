"""Chinese line breaking (禁则), one rule for the terminal's help and the printed pages (pure).

Greedy: as much as fits, then the break moves back until it splits no unit: no closing mark at a line start, no
opening mark at a line end, no ASCII word, number, time, file name, option or command split (event.toml, 2026,
12:30, --force, `shuangsheng draw 活动`), no team id, table, level or round split (第09组, 第12桌, 10级, 第3轮),
no short bracketed aside split (（保庄）, （加赛1局）), no Chinese numeral split (第十四条) or parted from its
measure (一副, 三等奖, 四连对), no range split (60–75分, −40–−25, 100–115分), no id parted from its names' opening
bracket (第08组（…）), no word of the house's wording split (电话, 打过A, 罚分后 台下方, 页脚: `WORDS`). Where a line
would have to give up a character because a closing mark may not start the next, its full-width marks may be
pressed together (标点挤压, `squeeze`) to keep it. Then a paragraph whose last line would hold one character (and
its marks) takes a few more characters from the line before, where that breaks no unit and fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Never begin a line: Chinese and ASCII closing marks, small kana, and the rest of reportlab's ALL_CANNOT_START
# (written out here so that this module stays pure).
NO_LINE_START = frozenset(
    "，。、；：！？）》」』】〕〉”’…—·%‰℃,.;:!?)]}"
    "!\"'),.:;?]°‐―‰′″℃、。々」』】〕ぁぃぅぇぉっゃゅょゎ゛゜ゝゞァィゥェォッャュョヮヵヶ・ーヽヾ％）］￠"
)
NO_LINE_END = frozenset("（《「『【〔〈“‘([{")  # never end a line
PAIRS = {"（": "）", "《": "》", "「": "」", "『": "』", "【": "】", "〔": "〕", "〈": "〉", "“": "”", "‘": "’",
           "(": ")", "[": "]"}  # fmt: skip
NUMERALS = frozenset("0123456789０１２３４５６７８９一二三四五六七八九十百千两＿_")
# What follows a number as one unit: 第09组, 第12桌, 10级, 第3轮, 第2局, 3页, 第1名, 5号, 80分, 6张, 2026年3月15日 …
UNITS = frozenset("组桌级轮局页名号分张位人次届年月日时点倍条项")
CN_NUMERALS = frozenset("〇零一二三四五六七八九十百千两")  # 十四, 二十五: never split
# What follows a Chinese numeral as one word: 一副, 两副(牌), 三等奖, 四连对, 两场, 一级, 三人 … (副牌 in the papers is
# always a count of decks, 两副 / 牌, not the side suits: it is not a word of `WORDS`)
CN_MEASURES = frozenset("副等连场轮局张级名组桌人次个条项倍届页位对")
DASHES = frozenset("–−～~")  # a range's dash (60–75分) and a minus sign (−40) hold to the numbers beside them
# Words of the papers' wording that a break must not split; a break inside one reads as another word ("罚分 / 后台
# 下方" reads 后台). Two-character words are the most (电/话); where a text has none of these, any break may do.
WORDS = (
    "电话", "地点", "时间", "日期", "报名", "比赛", "规则", "罚分后", "罚分", "台下方", "台上方", "台下", "台上", "庄家",
    "级牌", "底牌", "抠底", "扣底", "得分", "升级", "晋级", "轮空", "加赛", "队员", "裁判", "签名", "签字", "负责人",
    "打过", "过A", "必打级", "必打", "保庄", "下台", "坐庄", "降至", "对方", "本方", "甲方", "乙方", "胜方", "终局", "级数",
    "录分码", "桌号", "组号", "名次", "冠军", "亚军", "季军", "成绩", "公告", "对阵", "计分卡", "领取", "纪念品",
    "补充说明", "一副", "每张", "分数", "首家", "出牌", "主牌", "联系人", "报名表",
    "到场", "方式", "抽签", "签号", "签条", "才能", "通过", "扣除", "作废", "零头", "不足", "不够", "每满", "继续",
    "直接", "进入", "下一轮", "对照", "核对", "执行", "计算", "计分", "以上", "以下", "对阵", "决出", "并列", "加升",
    "页脚", "剩下", "不再", "下一副", "不下台", "少升", "打其他级", "其他级", "等奖", "连对",
)  # fmt: skip
LEVEL_VERBS = frozenset("升加降扣减罚打")  # 升一级, 加1级, 降至…: the verb stays with the number and unit after it
LIST_MARKS = frozenset("、与和至")  # 2、J  签号1与2: two short numbers or levels joined by one of these hold together
SQUEEZABLE = frozenset("，。、；：！？）》」』】〕〉”’（《「『【〔〈“‘")  # full-width marks: much of each is blank
KEEP = 0.1  # of a mark's width, kept blank beside its ink on each side when pressed (about a character's own gap)
SHORT_ASIDE = 8  # a bracketed aside of at most this many characters inside its marks is never split
ORPHAN = 1  # a paragraph's last line with this many characters or fewer (marks not counted) stands alone
ORPHAN_TAKE = 8  # the most characters the line before gives up to it
PRESS_REACH = 6  # the most characters a line takes in past what fits as set by pressing its marks (标点挤压)


def _ascii_word(ch: str) -> bool:
    return "!" <= ch <= "~"


def _alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _number(ch: str) -> bool:
    return ch in NUMERALS or _alnum(ch)


def can_break(before: str, after: str) -> bool:
    """May a line end after `before` and the next begin with `after`? (The rule for a pair of characters;
    `breakable` adds what needs more context.)"""
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    if _ascii_word(before) and _ascii_word(after):
        return False
    if before in "第×过：" and (after in NUMERALS or _alnum(after)):  # 第09组, 第一轮, ×2, 打过A, 电话：2973620
        return False
    if before in CN_NUMERALS and after in CN_NUMERALS and (before in "十百千" or after in "十百千"):
        return False  # 十四, 二十五: a number with its place (a list 一二三 may break)
    if before in CN_NUMERALS and after in CN_MEASURES:
        return False  # 一副, 三等奖, 四连对: a Chinese numeral with its measure
    if (after in DASHES and _number(before)) or (before in DASHES and (_number(after) or after in DASHES)):
        return False  # 60–75分, −40–−25
    return not ((after in UNITS or after == "×") and (before in NUMERALS or _alnum(before)))  # 10级, A级


def _marks_allow(before: str, after: str) -> bool:
    return after not in NO_LINE_START and before not in NO_LINE_END


def _asides(chars: Sequence[str]) -> list[tuple[int, int]]:
    """(open, close) positions of the short bracketed asides in `chars`."""
    spans, stack = [], []
    for i, ch in enumerate(chars):
        if ch in PAIRS:
            stack.append(i)
        elif stack and ch == PAIRS[chars[stack[-1]]]:
            start = stack.pop()
            if i - start - 1 <= SHORT_ASIDE:
                spans.append((start, i))
    return spans


def forbidden(chars: Sequence[str]) -> set[int]:
    """The positions i where a line may not begin at chars[i] (1 ≤ i < len)."""
    out = {i for i in range(1, len(chars)) if not can_break(chars[i - 1], chars[i])}
    for start, end in _asides(chars):
        out.update(range(start + 1, end + 1))
    for i in range(2, len(chars)):  # an id with its names' opening bracket: 第08组（余桂兰、赵振华）
        if chars[i] in "（(" and chars[i - 1] in UNITS and _number(chars[i - 2]):
            out.add(i)
    out.update(_inside_words("".join(chars)))
    out.update(_numbers_held(chars))
    for i in range(1, len(chars) - 1):  # a space inside an ASCII run (a command and its options) holds it together
        if chars[i] == " ":
            j = i
            while j < len(chars) and chars[j] == " ":
                j += 1
            if j < len(chars) and _ascii_word(chars[i - 1]) and _ascii_word(chars[j]):
                out.update(range(i, j + 1))
    return out


def _numbers_held(chars: Sequence[str]) -> set[int]:
    """The breaks inside a verb with its level (升/一级, 加/1级), a short list of numbers or levels (2、/J, 签号1与/2,
    第1、2……/桌), a number's unit after an ellipsis (2……/桌) and a range of rounds (第5轮至/第7轮). An open list may
    break after its 、 (第1、/2……桌)."""
    out: set[int] = set()
    n = len(chars)
    for i in range(1, n):
        before, ch = chars[i - 1], chars[i]
        if before in LEVEL_VERBS and _number(ch) and i + 1 < n and (chars[i + 1] in UNITS or _number(chars[i + 1])):
            out.add(i)
        if ch in LIST_MARKS and _number(before) and i + 1 < n and _number(chars[i + 1]):
            out.add(i)
            if not (ch == "、" and _opens_ellipsis(chars, i + 1)):  # 第1、/2……桌 may break: an open list
                out.add(i + 1)
        if before == "…" and ch in UNITS and i >= 2 and (chars[i - 2] == "…" or _number(chars[i - 2])):
            out.add(i)
        if ch == "至" and before in UNITS and i >= 2 and _number(chars[i - 2]) and i + 1 < n and chars[i + 1] == "第":
            out.update((i, i + 1))  # 第1轮至第3轮: a range of rounds (pages, tables) is one
    return out


def _opens_ellipsis(chars: Sequence[str], start: int) -> bool:
    """Is the number at `start` followed by an ellipsis (第1、2……桌: a list left open)?"""
    end = start
    while end < len(chars) and _number(chars[end]):
        end += 1
    return end < len(chars) and chars[end] == "…"


def _inside_words(text: str) -> set[int]:
    """The positions inside a word of `WORDS` (a line may not begin there)."""
    out: set[int] = set()
    for word in WORDS:
        at = text.find(word)
        while at >= 0:
            out.update(range(at + 1, at + len(word)))
            at = text.find(word, at + 1)
    return out


def breakable(text: str, i: int) -> bool:
    """May a line of `text` begin at text[i]? (what `break_lines` holds to wherever a line is not too full)"""
    return 0 < i < len(text) and i not in forbidden(list(text))


def _fits(advance: Sequence[float], start: int, limit: float) -> int:
    """The end of the longest run from `start` within `limit` (at least one character)."""
    used, end = 0.0, start
    while end < len(advance) and used + advance[end] <= limit:
        used += advance[end]
        end += 1
    return max(end, start + 1)  # a character wider than the line still gets a line of its own


def _pressed(sizes: Sequence[float], gives: Sequence[float], start: int, end: int, limit: float, no: set[int],
             n: int, hangs: Sequence[float]) -> int | None:
    """Where a line from `start` may end past `end` (the most that fits as set) when its marks are pressed by
    their `gives`: the first break allowed within a few characters that fits so, else None. The line's last
    character is not pressed (it ends the line); a closing mark there may hang its right blank past the line by
    its `hangs`."""
    for cut in range(end + 1, min(end + PRESS_REACH, n) + 1):
        if sum(sizes[start:cut]) - sum(gives[start:cut - 1]) > limit + hangs[cut - 1]:
            return None
        if cut == n or cut not in no:
            return cut
    return None


def _cuts(chars: Sequence[str], sizes: Sequence[float], widths: Sequence[float],
          gives: Sequence[float] | None = None, hangs: Sequence[float] = ()) -> list[list[int]]:
    """[start, end] of each line; the spaces between one line's end and the next one's start are dropped.
    `gives`: what each character may be pressed by (the blank beside a full-width mark's ink); `hangs`: how far
    each may hang past a line it ends."""
    no: set[int] | None = None  # where no line may begin, found once a line must be cut (most texts fit in one)
    lines: list[list[int]] = []
    start = 0
    while start < len(chars):
        limit = widths[min(len(lines), len(widths) - 1)]
        end = _fits(sizes, start, limit)
        if end >= len(chars):
            lines.append([start, len(chars)])
            break
        no = forbidden(chars) if no is None else no
        pressed = _pressed(sizes, gives, start, end, limit, no, len(chars), hangs) if gives else None
        if pressed is not None:  # a closing mark kept on its line by pressing the line's marks (标点挤压)
            lines.append([start, pressed])
            start = pressed
            continue
        cut = end
        while cut > start + 1 and cut in no:
            cut -= 1
        if cut in no or (_weight(chars[start:cut]) <= ORPHAN < _weight(chars[start:end])):
            # a unit longer than the line (or one that would leave a character alone on its line, as 级 before
            # （第十三、十四条）): split it where the weaker rules allow, else where it is full
            cut = next((k for rule in (can_break, _marks_allow) for k in range(end, start, -1)
                        if k > start and rule(chars[k - 1], chars[k])), end)
        lines.append([start, cut])
        start = cut
        while start < len(chars) and chars[start] == " ":
            start += 1
    return lines


def _weight(chars: Sequence[str]) -> int:
    """The characters of a line that count against an orphan: not spaces, not marks."""
    return sum(1 for ch in chars if ch != " " and ch not in NO_LINE_START and ch not in NO_LINE_END)


def _alone(chars: Sequence[str], strict: bool) -> bool:
    """Does this last line stand alone: one character (marks aside), or with `strict` two counting marks?"""
    return _weight(chars) <= ORPHAN or (strict and len("".join(chars).strip()) <= ORPHAN + 1)


def _no_orphan(chars: Sequence[str], sizes: Sequence[float], widths: Sequence[float], lines: list[list[int]],
               gives: Sequence[float] | None = None, hangs: Sequence[float] = ()) -> None:
    """A last line of one character (marks aside) or two (marks counted): taken onto the line before when pressing
    that line's marks (`gives`) makes room; else its start moved back, to a break that splits no unit and leaves
    the line before at least four characters, while the last line still fits; failing that, to where the last
    line holds two characters at least."""
    if len(lines) < 2 or not _alone(chars[lines[-1][0]:], strict=True):
        return
    (before, _), (start, _) = lines[-2], lines[-1]
    room = widths[min(len(lines) - 2, len(widths) - 1)] + (hangs[-1] if gives else 0.0)
    if gives and sum(sizes[before:]) - sum(gives[before:len(chars) - 1]) <= room:
        lines[-2][1] = len(chars)
        del lines[-1]
        return
    no = forbidden(chars)
    limit = widths[min(len(lines) - 1, len(widths) - 1)]
    cuts = [cut for cut in range(start - 1, max(start - ORPHAN_TAKE, before + 4) - 1, -1)
            if cut not in no and chars[cut] != " " and sum(sizes[cut:]) <= limit]
    for strict in (True, False):
        cut = next((cut for cut in cuts if not _alone(chars[cut:], strict)), None)
        if cut is not None:
            lines[-2][1] = lines[-1][0] = cut
            return


Blanks = Callable[[str], tuple[float, float] | None]  # a character's blank left and right of its ink, if known


def gives(ch: str, size: float, blanks: Blanks | None = None) -> tuple[float, float]:
    """What a character set `size` wide may be pressed by on its left and on its right: nothing unless it is a
    full-width mark; else the blank really there beside its ink (`blanks`, from the font) less `KEEP` of its
    width on each side, at most half its width in all (shared by the sides as their blanks are). Without
    `blanks` (text measured in columns), the usual design: an opening mark's blank half on its left, every
    other mark's on its right."""
    if ch not in SQUEEZABLE:
        return (0.0, 0.0)
    found = blanks(ch) if blanks is not None else None
    if found is None:
        return (size / 2, 0.0) if ch in NO_LINE_END else (0.0, size / 2)
    left, right = (max(blank - KEEP * size, 0.0) for blank in found)
    scale = min(1.0, size / 2 / (left + right)) if left + right > 0 else 0.0
    return (left * scale, right * scale)


def break_lines(text: str, advance: Callable[[str], float], widths: Sequence[float], *,
                orphans: bool = True, squeeze: bool = False, hang: float = 0.0,
                blanks: Blanks | None = None) -> list[str]:
    """`text` as lines: `advance(ch)` is a character's width, `widths` the lines' widths (first line, then the
    rest). A space where a line breaks is dropped at the start of the next line; nothing else is lost.
    `orphans`: a last line of one character (and its marks) takes a few from the line before. `squeeze`: a
    line may be wider than its width by what pressing its full-width marks gives (`gives`, by the font's
    `blanks`; `pressing` says by how much to press each, to draw it); with `squeeze`, a closing mark ending a
    line may also hang its right blank past the line by at most `hang` (into a frame's padding)."""
    chars = [ch for ch in text if ch != "\r"]
    sizes = [advance(ch) for ch in chars]
    sides = [gives(ch, size, blanks) for ch, size in zip(chars, sizes, strict=True)] if squeeze else None
    totals = [left + right for left, right in sides] if sides else None
    hangs = [min(hang, right) for _, right in sides] if sides else []
    lines = _cuts(chars, sizes, widths, totals, hangs)
    if orphans:
        _no_orphan(chars, sizes, widths, lines, totals, hangs)
    return ["".join(chars[a:b]) for a, b in lines]


def pressing(line: str, advance: Callable[[str], float], width: float,
             blanks: Blanks | None = None) -> list[tuple[float, float]]:
    """How much to press each character of `line` on its left and on its right so that it fits `width`: nothing
    when it fits as set, else the same share of what each full-width mark `gives` (up to all of it), the last
    character excepted (nothing it sets reaches past the line's end)."""
    sizes = [advance(ch) for ch in line]
    over = sum(sizes) - width
    sides = [gives(ch, size, blanks) if i < len(line) - 1 else (0.0, 0.0)
             for i, (ch, size) in enumerate(zip(line, sizes, strict=True))]
    total = sum(left + right for left, right in sides)
    if over <= 0 or not total:
        return [(0.0, 0.0)] * len(line)
    share = min(over / total, 1.0)
    return [(left * share, right * share) for left, right in sides]
