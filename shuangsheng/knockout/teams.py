"""Teams (参赛组): a 组号 and two players. Pure validation; reading teams.xlsx is `shuangsheng.storage.workbook`'s job.

Every 组号 and name goes through one normalisation (`normalize`) before it is compared or printed, and a 组号 must
then be digits, optionally with ASCII letters (`ID_RULE`), so it reads back the same from every workbook the
program writes (docs/workbooks.md).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from shuangsheng.vocabulary.errors import SHOWN_CHARACTERS

MAX_ID_LENGTH = 6
MAX_NAME_LENGTH = 20  # characters in one player's name: 欧阳·买买提江·艾尼瓦尔 has 11; a card's box holds 3 lines
ID_RULE = re.compile(rf"(?=.*[0-9])[0-9A-Z]{{1,{MAX_ID_LENGTH}}}")  # after canonical_id: at least one digit
ID_EXAMPLES = "01、12、A3"
# Words the 对阵 sheet itself writes where a 组号 could stand (the 轮空 cell says 无 when there is no bye).
RESERVED_IDS = ("无", "轮空", "待定")
ID_SEPARATORS = "、,，;；/／ "
_DIGITS = re.compile(r"[0-9]+")
_WRITTEN_OUT = re.compile(r"第? ?([0-9A-Za-z]+) ?组")  # '第3组', '第 03 组', '3组'


@dataclass(frozen=True)
class Team:
    id: str  # the 组号 as text, e.g. "03"
    players: tuple[str, str]
    phone: str = ""
    note: str = ""
    unit: str = ""  # 单位 (e.g. 分工会), blank: none given — a blank unit is no one's unit
    seed: int | None = None  # 种子 1, 2, …; None: not seeded
    reserve: bool = False  # 候补: listed apart, never drawn in round 1 (check-in will let reserves take free places)

    @property
    def label(self) -> str:
        """第03组（张三、李四）"""
        return f"{team_name(self.id)}（{'、'.join(self.players)}）"


def normalize(text: str) -> str:
    """A 组号 or a name as it is compared and printed: Unicode NFKC (full-width letters and digits become plain,
    compatibility forms their usual character), invisible format characters (category Cf: zero-width space, ZWNJ,
    ZWJ, word joiner, BOM, soft hyphen …) and control characters removed, every kind of space counted as one, and
    the ends trimmed: ' 张\u200b三　 ' → '张三', 'Ａ３' → 'A3', '张　 三' → '张 三'."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii() or not text.isprintable():
        text = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or not _invisible(ch))
    return " ".join(text.split())


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cf", "Cc")


def canonical_id(text: str) -> str:
    """A 组号 written one way everywhere (after `normalize`, and without a 第…组 around it): digits get at least two
    ('9' → '09', '009' → '09', '第9组' → '09', '12' and '123' stay); letters are upper case ('a3' → 'A3'); any
    other text is kept as normalised."""
    text = normalize(text)
    if (m := _WRITTEN_OUT.fullmatch(text)) is not None:
        text = m.group(1)
    if text.isascii() and text.isdigit():
        return text.lstrip("0").rjust(2, "0")
    return text.upper() if text.isascii() and text.isalnum() else text


def id_problem(team_id: str) -> str | None:
    """Why a 组号 (as `canonical_id` wrote it) is refused, or None: digits, optionally with ASCII letters, at least
    one digit, at most `MAX_ID_LENGTH` characters — so '无', 'A、B' or 'A,1' can never be mistaken for the 轮空
    cell's words or separators — and not all zeros ('0', '000': no team is numbered 0; they would print as 第00组)."""
    if not ID_RULE.fullmatch(team_id):
        return id_refused(team_id)
    if not team_id.strip("0"):
        return f"组号不能全是 0（实际为“{team_id}”）：组号从 1 起编，如 {ID_EXAMPLES}"
    return None


def id_key(team_id: str) -> str:
    """A 组号 (as `canonical_id` wrote it) as it is compared for duplicates: its digits as numbers, so that 'A01' and
    'A1' are the same 组号 as '01' and '1' are ('09' → '9', 'A01' → 'A1'); each is still printed as written."""
    return _DIGITS.sub(lambda m: str(int(m.group())), team_id)


def id_refused(team_id: str) -> str:
    """The message refusing a 组号 written as `team_id`."""
    rule = f"组号只能由数字和英文字母组成（至少一个数字，最多 {MAX_ID_LENGTH} 位，如 {ID_EXAMPLES}）"
    if team_id in RESERVED_IDS:
        return f"{rule}；“{team_id}”是程序在对阵表里自己用的字（如轮空栏的“无”），不能当组号"
    quoted = team_id if len(team_id) <= SHOWN_CHARACTERS else team_id[: SHOWN_CHARACTERS - 1] + "…"
    if any(ch in ID_SEPARATORS for ch in team_id):
        return f"{rule}，实际为“{quoted}”；每行只填一组，组号中间不要有空格或“、”“,”等符号"
    return f"{rule}，实际为“{quoted}”"


def number_key(team_id: str) -> tuple[int, str]:
    """Sort key of a 组号 in number order: 2 before 10 before 128 (letters after the number): every list of team
    ids printed or shown is in this order (byes, advancing, placings, the seat index)."""
    text = canonical_id(team_id)
    digits = "".join(ch for ch in text if ch.isdigit())
    return (int(digits) if digits else 0, text)


def in_order(team_ids: Iterable[str]) -> list[str]:
    """Team ids in number order (`number_key`)."""
    return sorted(team_ids, key=number_key)


def id_digits(team_ids: Iterable[str]) -> int:
    """How many digits a numbered 组号 is printed and shown with in a field of these ids (the event's whole team
    list, not one round's): three once any reaches 100, so that 001–512 line up; else two. (Renderers ask it for
    every label they print: the answer for a field is kept, not worked out again over 512 ids each time.)"""
    return _id_digits(tuple(team_ids))


@functools.lru_cache(maxsize=32)
def _id_digits(team_ids: tuple[str, ...]) -> int:
    return 3 if any(len(t) > 2 and t.isdigit() for t in map(canonical_id, team_ids)) else 2


def shown_id(team_id: str, digits: int = 2) -> str:
    """A 组号 as printed and shown: its canonical form, a number padded to `digits` ('34' → '034' in a field of
    more than 99, `id_digits`). JSON, event.db and every comparison keep the canonical form."""
    text = canonical_id(team_id)
    return text.rjust(digits, "0") if text.isdigit() else text


def team_name(team_id: str, digits: int = 2) -> str:
    """'03' → '第03组'; '9' → '第09组'; '34' → '第034组' with three `digits`."""
    return f"第{shown_id(team_id, digits)}组"


def team_label(teams: Mapping[str, Team], team_id: str | None, digits: int) -> str:
    """第03组（张三、李四）, the 组号 `digits` wide (the event's width, `id_digits`); just 第03组 for an id not in
    `teams`; （待定） for none yet."""
    if team_id is None:
        return "（待定）"
    name = team_name(team_id, digits)
    team = teams.get(team_id)
    return f"{name}（{'、'.join(team.players)}）" if team else name


@dataclass(frozen=True)
class TeamRow:
    """One row as typed, with where it came from (e.g. '报名表!A5' → row 5) for error messages."""

    row: int
    id: str
    player1: str
    player2: str
    phone: str = ""
    note: str = ""
    unit: str = ""
    seed: str = ""  # as typed: '1', '' …; checked by `validate_teams`
    reserve: str = ""  # as typed: '是' or ''


RESERVE_MARK = "是"
UNIT_LABEL, SEED_LABEL, RESERVE_LABEL = "单位", "种子", "候补"
MAX_UNIT_LENGTH = 30
_REFUSED = 0  # `_Check.seed`'s answer for a 种子 refused (no seed is 0)


@dataclass(frozen=True)
class TeamProblem:
    row: int
    column: str  # '组号', '队员1', '队员2', …
    message: str


def same_person(name: str) -> str:
    """The key two spellings of one name share: '张 一' (padded to line up with three-character names) is '张一',
    and '张\u200b三' (an invisible zero-width space) is '张三'."""
    return "".join(normalize(name).split())


def validate_teams(rows: Sequence[TeamRow]) -> tuple[tuple[Team, ...], tuple[TeamProblem, ...]]:
    """Teams in row order, and every problem with its row: each 组号 follows the rule (`id_problem`) and is unique
    (by `id_key`: A01 and A1 are one 组号), two different players, no player twice; a 种子 is a whole number from 1
    and each at most once, a 候补 is “是” or blank, a 单位 at most `MAX_UNIT_LENGTH` characters. Ids, names and
    units are normalised (`normalize`) first."""
    check = _Check(id_digits(i for r in rows if (i := normalize(r.id))))  # pairs named as the papers will
    teams = [team for r in rows if (team := check.row(r)) is not None]
    return tuple(teams), tuple(check.problems)


class _Check:
    """The walk through the rows; `validate_teams` is the only user."""

    def __init__(self, digits: int) -> None:
        self.digits = digits  # the width every 组号 in the list is named with (`id_digits` of them all)
        self.problems: list[TeamProblem] = []
        self.id_rows: dict[str, tuple[int, str]] = {}  # id_key → (row, 组号 as written)
        self.player_rows: dict[str, tuple[int, str]] = {}
        self.seed_rows: dict[int, int] = {}  # seed → row

    def row(self, r: TeamRow) -> Team | None:
        tid = canonical_id(r.id)
        p1, p2 = normalize(r.player1), normalize(r.player2)
        ok = self.team_id(r.row, tid)
        for column, name in (("队员1", p1), ("队员2", p2)):
            if not name:
                self.problems.append(TeamProblem(r.row, column, "每组应有两名队员，此处为空"))
                ok = False
            elif len(name) > MAX_NAME_LENGTH:
                self.problems.append(TeamProblem(
                    r.row, column, f"姓名最多 {MAX_NAME_LENGTH} 个字，实际有 {len(name)} 个字（“{name[:8]}…”）；每格只填一人的姓名"))
                ok = False
        if p1 and same_person(p1) == same_person(p2):
            self.problems.append(TeamProblem(r.row, "队员2", f"两名队员是同一人“{p1}”"))
            ok = False
        for column, name in (("队员1", p1), ("队员2", p2)):
            if not name or (column == "队员2" and same_person(name) == same_person(p1)):
                continue
            ok = self.player(r.row, column, name, tid) and ok
        unit, seed, reserve = self.unit(r), self.seed(r), self.reserve(r)
        if not ok or unit is None or seed == _REFUSED or reserve is None:
            return None
        return Team(tid, (p1, p2), normalize(r.phone), r.note.strip(), unit, seed, reserve)

    def unit(self, r: TeamRow) -> str | None:
        """The row's 单位 ('' when blank), None when refused (the problem added)."""
        unit = normalize(r.unit)
        if len(unit) > MAX_UNIT_LENGTH:
            self.problems.append(TeamProblem(r.row, UNIT_LABEL, f"单位最多 {MAX_UNIT_LENGTH} 个字，实际有 {len(unit)} 个字"))
            return None
        return unit

    def reserve(self, r: TeamRow) -> bool | None:
        """Whether the row is a 候补 pair, None when its cell is refused (the problem added)."""
        text = normalize(r.reserve)
        if text and text != RESERVE_MARK:
            self.problems.append(
                TeamProblem(r.row, RESERVE_LABEL, f"候补栏只能填“{RESERVE_MARK}”或不填，实际为“{text[:8]}”"))
            return None
        return text == RESERVE_MARK

    def seed(self, r: TeamRow) -> int | None:
        """The row's 种子 as a number, None when blank, `_REFUSED` when refused (the problem added)."""
        text = normalize(r.seed)
        if not text:
            return None
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            self.problems.append(TeamProblem(r.row, SEED_LABEL, f"种子应填 1、2、3… 或不填，实际为“{text[:8]}”"))
            return _REFUSED
        number = int(text)
        if number in self.seed_rows:
            self.problems.append(TeamProblem(
                r.row, SEED_LABEL, f"{number} 号种子已在第{self.seed_rows[number]}行，每个种子号只能用一次"))
            return _REFUSED
        self.seed_rows[number] = r.row
        return number

    def team_id(self, row: int, tid: str) -> bool:
        if not tid:
            self.problems.append(TeamProblem(row, "组号", "组号不能为空"))
            return False
        if (problem := id_problem(tid)) is not None:
            self.problems.append(TeamProblem(row, "组号", problem))
            return False
        if (key := id_key(tid)) in self.id_rows:
            other_row, other = self.id_rows[key]
            same = "" if other == tid else f"的“{other}”（组号里的数字按数值比较，算同一个组号）"
            self.problems.append(TeamProblem(row, "组号", f"组号“{tid}”与第{other_row}行{same}重复"))
            return False
        self.id_rows[key] = (row, tid)
        return True

    def player(self, row: int, column: str, name: str, tid: str) -> bool:
        key = same_person(name)
        if key in self.player_rows:
            other_row, other_team = self.player_rows[key]
            self.problems.append(
                TeamProblem(row, column, f"队员“{name}”已在第{other_row}行（{team_name(other_team, self.digits)}）报名，每人只能参加一组")
            )
            return False
        self.player_rows[key] = (row, tid)
        return True
