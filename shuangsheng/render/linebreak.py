"""Chinese line breaking (禁则), one rule for the terminal's help and the printed pages (pure).

Greedy: as much as fits, then the break moves back until it splits no unit: no closing mark at a line start, no
opening mark at a line end, no ASCII word, number, time, file name, option or command split (event.toml, 2026,
12:30, --force, `shuangsheng draw 活动`), no team id, table, level or round split (第09组, 第12桌, 10级, 第3轮),
no short bracketed aside split (（保庄）, （加赛1局）). Then a paragraph whose last line would hold one character
(and its marks) takes a few more characters from the line before, where that breaks no unit and fits.
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
SHORT_ASIDE = 8  # a bracketed aside of at most this many characters inside its marks is never split
ORPHAN = 1  # a paragraph's last line with this many characters or fewer (marks not counted) stands alone
ORPHAN_TAKE = 8  # the most characters the line before gives up to it


def _ascii_word(ch: str) -> bool:
    return "!" <= ch <= "~"


def _alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def can_break(before: str, after: str) -> bool:
    """May a line end after `before` and the next begin with `after`? (The rule for a pair of characters;
    `breakable` adds what needs more context.)"""
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    if _ascii_word(before) and _ascii_word(after):
        return False
    if before in "第×过：" and (after in NUMERALS or _alnum(after)):  # 第09组, 第一轮, ×2, 打过A, 电话：2973620
        return False
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
    for i in range(1, len(chars) - 1):  # a space inside an ASCII run (a command and its options) holds it together
        if chars[i] == " ":
            j = i
            while j < len(chars) and chars[j] == " ":
                j += 1
            if j < len(chars) and _ascii_word(chars[i - 1]) and _ascii_word(chars[j]):
                out.update(range(i, j + 1))
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


def _cuts(chars: Sequence[str], sizes: Sequence[float], widths: Sequence[float]) -> list[list[int]]:
    """[start, end] of each line; the spaces between one line's end and the next one's start are dropped."""
    no: set[int] | None = None  # where no line may begin, found once a line must be cut (most texts fit in one)
    lines: list[list[int]] = []
    start = 0
    while start < len(chars):
        end = _fits(sizes, start, widths[min(len(lines), len(widths) - 1)])
        if end >= len(chars):
            lines.append([start, len(chars)])
            break
        no = forbidden(chars) if no is None else no
        cut = end
        while cut > start + 1 and cut in no:
            cut -= 1
        if cut in no:  # a unit longer than the line: split it where the weaker rules allow, else where it is full
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


def _no_orphan(chars: Sequence[str], sizes: Sequence[float], widths: Sequence[float], lines: list[list[int]]) -> None:
    """Move the start of a last line of one character (marks aside) or two (marks counted) back, to a break that
    splits no unit and leaves the line before at least four characters, while the last line still fits; failing
    that, to where the last line holds two characters at least."""
    if len(lines) < 2 or not _alone(chars[lines[-1][0]:], strict=True):
        return
    no = forbidden(chars)
    limit = widths[min(len(lines) - 1, len(widths) - 1)]
    (before, _), (start, _) = lines[-2], lines[-1]
    cuts = [cut for cut in range(start - 1, max(start - ORPHAN_TAKE, before + 4) - 1, -1)
            if cut not in no and chars[cut] != " " and sum(sizes[cut:]) <= limit]
    for strict in (True, False):
        cut = next((cut for cut in cuts if not _alone(chars[cut:], strict)), None)
        if cut is not None:
            lines[-2][1] = lines[-1][0] = cut
            return


def break_lines(text: str, advance: Callable[[str], float], widths: Sequence[float], *,
                orphans: bool = True) -> list[str]:
    """`text` as lines: `advance(ch)` is a character's width, `widths` the lines' widths (first line, then the
    rest). A space where a line breaks is dropped at the start of the next line; nothing else is lost.
    `orphans`: a last line of one character (and its marks) takes a few from the line before."""
    chars = [ch for ch in text if ch != "\r"]
    sizes = [advance(ch) for ch in chars]
    lines = _cuts(chars, sizes, widths)
    if orphans:
        _no_orphan(chars, sizes, widths, lines)
    return ["".join(chars[a:b]) for a, b in lines]
