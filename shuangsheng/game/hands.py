"""One hand as recorded, and the match record (docs/match-record.md), with field-by-field validation.

`read_record` reads a record file (the only file this module touches), refusing by size and nesting depth before
JSON parses it; numbers of more than 15 digits are kept as text and refused by field, never converted.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.game.levels import START, Level, Levels, Side
from shuangsheng.game.rules import CARD_PENALTY, RulesError, RuleSet
from shuangsheng.storage import files
from shuangsheng.storage.files import decode_text
from shuangsheng.vocabulary.errors import SHOWN_CHARACTERS, Issue, UserError, shown
from shuangsheng.vocabulary.fields import FIELDS

# 抠底倍数 (rule 九): a single ×2, a pair ×4, a tractor of two pairs ×8, each further pair doubling. With two decks
# each player holds 25 cards, so the longest tractor led to the last trick is 12 pairs (the trump chain with the
# jokers and level cards is 16 ranks long): ×2^13 = ×8192 is the most two decks allow.
MAX_CAPTURE = 2**13
MAX_CARDS = 50  # 台上罚张 / 台下罚张: every card one side holds (two players × 25)


def as_typed(value: object) -> str:
    """A value of a JSON record as it was typed in the record: "0" in quotes for a string, null, true — not as
    Python shows it ('0', None, True); cut to 40 characters like every quoted value."""
    if isinstance(value, LongNumber) or (isinstance(value, int) and not isinstance(value, bool)):
        return shown(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return shown(value)
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"


class Offense(str, enum.Enum):
    DEALER_WRONG_BURY = "dealer_wrong_bury"  # 台上扣错底 (十三)
    DEFENDER_WRONG_BURY = "defender_wrong_bury"  # 台下扣错底 (十三)
    DEALER_REVOKE = "dealer_revoke"  # 台上出错牌 (十四)
    DEFENDER_REVOKE = "defender_revoke"  # 台下出错牌 (十四)

    @property
    def cn(self) -> str:
        return OFFENSE_CN[self]

    @classmethod
    def parse_cn(cls, text: str) -> Offense:
        for offense, label in OFFENSE_CN.items():
            if text == label:
                return offense
        raise ValueError(text)


OFFENSE_CN = {
    Offense.DEALER_WRONG_BURY: "台上扣错底",
    Offense.DEFENDER_WRONG_BURY: "台下扣错底",
    Offense.DEALER_REVOKE: "台上出错牌",
    Offense.DEFENDER_REVOKE: "台下出错牌",
}

@dataclass(frozen=True)
class Hand:
    dealer: Side
    points: int = 0  # 台下得分: card points the defenders won in tricks, bottom excluded
    bottom: int = 0  # 底牌分
    capture: int = 0  # 抠底倍数; 0 = the dealer kept the bottom
    level_card_capture: bool = False  # 级牌抠底 (十二)
    dealer_wrong_cards: int = 0  # 台上罚张
    defender_wrong_cards: int = 0  # 台下罚张
    offense: Offense | None = None
    playoff: bool = False  # 加赛
    level: Level | None = None  # 庄家级 as written, a cross-check

    @property
    def raw_points(self) -> int:
        """P before any clamping: tricks + bottom × multiplier when captured + 10 per penalised card (八, 九, 十四)."""
        captured = self.bottom * self.capture if self.capture else 0
        return self.points + captured + CARD_PENALTY * (self.dealer_wrong_cards - self.defender_wrong_cards)


HandError = Issue  # a problem with a record: `Issue.of_hand(hand, field, detail)`; hand 1-based, None: the whole record


@dataclass(frozen=True)
class MatchRecord:
    hands: tuple[Hand, ...]
    start: Levels = START


class RecordError(UserError, ValueError):
    """A record that does not parse: every problem (`errors`, the same records as `issues`), and the hands before
    the first bad one (with the record's start and rules, when those parsed) so their sequence can still be checked
    (`shuangsheng.game.match.replay_record`)."""

    def __init__(self, errors: Sequence[Issue], readable: MatchRecord | None = None, rules: RuleSet | None = None):
        super().__init__(errors)
        self.readable = readable
        self.rules = rules

    @property
    def errors(self) -> tuple[Issue, ...]:
        return self.issues


def check_hand(number: int, hand: Hand) -> list[HandError]:
    """Impossible values in one hand, each naming the hand and field (points, bottom, capture, penalties)."""
    errors: list[HandError] = []

    def bad(field: str, message: str) -> None:
        errors.append(Issue.of_hand(number, field, message))

    for field in ("points", "bottom"):
        value = getattr(hand, field)
        if not 0 <= value <= 200 or value % 5:
            bad(field, f"应为 0–200 之间 5 的倍数，实际为 {as_typed(value)}")
    if not errors and hand.points + hand.bottom > 200:
        bad("bottom", f"台下得分 {hand.points} 加底牌分 {hand.bottom} 超过了两副牌的总分 200")
    capture = hand.capture
    if capture and (capture < 2 or capture > MAX_CAPTURE or capture & (capture - 1)):
        bad("capture", f"应为 ×2、×4、×8、×16、×32…（2 的乘方，两副牌最多 ×{MAX_CAPTURE}），实际为 {as_typed(capture)}")
    for field in ("dealer_wrong_cards", "defender_wrong_cards"):
        value = getattr(hand, field)
        if not 0 <= value <= MAX_CARDS:
            bad(field, f"应为 0–{MAX_CARDS} 之间的整数（张数），实际为 {as_typed(value)}")
    if hand.level_card_capture and not hand.capture:
        bad("level_card_capture", "写了级牌抠底，但没有填抠底倍数（底牌没有被抠）")
    return errors


# --- the JSON record (docs/match-record.md) ---


def parse_record(data: object) -> tuple[MatchRecord, RuleSet | None]:
    """A JSON match record → (record, the record's own rule overrides or None). RecordError lists every problem."""
    if not isinstance(data, Mapping):
        raise RecordError([Issue.of_hand(None, None, "记录应为 JSON 对象，如 {\"hands\": [...]}")])
    errors = [Issue.of_hand(None, None, f"未知的字段 {as_typed(key)}（可用：rules、start、hands）")
              for key in data if key not in ("rules", "start", "hands")]
    rules, rule_errors = _parse_rules(data)
    start, start_errors = _parse_start(data)
    errors += rule_errors + start_errors
    whole_record_ok = not errors  # start and rules parsed: the hands before a bad one can still be replayed
    hands, readable, hand_errors = _parse_hands(data.get("hands"))
    errors += hand_errors
    if errors:
        prefix = MatchRecord(readable, start) if whole_record_ok and readable else None
        raise RecordError(errors, prefix, rules)
    return MatchRecord(hands, start), rules


def _parse_rules(data: Mapping[str, object]) -> tuple[RuleSet | None, list[HandError]]:
    if "rules" not in data:
        return None, []
    if not isinstance(data["rules"], Mapping):
        return None, [Issue.of_hand(None, "rules", "rules 应为对象，如 {\"dealer_table\": \"ceil\"}")]
    try:
        return RuleSet.from_mapping(data["rules"]), []
    except RulesError as exc:
        return None, [Issue.of_hand(None, f"rules.{k}", f"规则 {k}：{m}") for k, m in exc.problems]


def _parse_start(data: Mapping[str, object]) -> tuple[Levels, list[HandError]]:
    if "start" not in data:
        return START, []
    raw = data["start"]
    if not isinstance(raw, Mapping) or set(raw) - {"A", "B"}:
        return START, [Issue.of_hand(None, "start", "start 应为 {\"A\": 级数, \"B\": 级数}")]
    levels, errors = {}, []
    for side in Side:
        try:
            levels[side] = Level.parse(raw.get(side.value, "2"))
        except ValueError:
            errors.append(Issue.of_hand(None, f"start.{side.value}",
                                    f"{side.team}起始级数应为 2…10、J、Q、K、A，实际为 {as_typed(raw[side.value])}"))
    return (Levels(levels[Side.A], levels[Side.B]) if len(levels) == 2 else START), errors


def _parse_hands(hands_raw: object) -> tuple[tuple[Hand, ...], tuple[Hand, ...] | None, list[HandError]]:
    """(the hands that parsed, the hands before the first one with a problem or None, every problem)."""
    if not isinstance(hands_raw, list):
        return (), None, [Issue.of_hand(None, "hands", "缺少 hands（每局一项的列表）")]
    if not hands_raw:
        return (), None, [Issue.of_hand(None, "hands", "hands 是空的：至少要有一局的记录")]
    hands: list[Hand] = []
    readable: tuple[Hand, ...] | None = None
    errors: list[HandError] = []
    for number, raw in enumerate(hands_raw, start=1):
        hand, hand_errors = _parse_hand(number, raw)
        if hand_errors and readable is None:
            readable = tuple(hands)
        errors.extend(hand_errors)
        if hand is not None:
            hands.append(hand)
    return tuple(hands), readable, errors


NUMBER_FIELDS = ("points", "bottom", "capture", "dealer_wrong_cards", "defender_wrong_cards")
FLAG_FIELDS = ("level_card_capture", "playoff")


def _parse_hand(number: int, raw: object) -> tuple[Hand | None, list[HandError]]:
    if not isinstance(raw, Mapping):
        return None, [Issue.of_hand(number, None, "应为对象，如 {\"dealer\": \"A\", \"points\": 35}")]
    errors = [Issue.of_hand(number, key, f"未知的字段 {as_typed(key)}（可用：{'、'.join(FIELDS)}）")
              for key in raw if key not in FIELDS]
    values: dict[str, object] = {}
    for field in ("dealer", *NUMBER_FIELDS, *FLAG_FIELDS, "offense", "level"):
        if field in ("offense", "level") and raw.get(field) is None:
            continue
        value, problem = _FIELD_READERS.get(field, _number)(raw, field)
        if problem is None:
            values[field] = value
        else:
            errors.append(Issue.of_hand(number, field, problem))
    if errors:
        return None, errors
    hand = Hand(**values)  # type: ignore[arg-type]  # each value read by its field's reader above
    return hand, check_hand(number, hand)


def _number(raw: Mapping[str, object], field: str) -> tuple[object, str | None]:
    value = raw.get(field, 0)
    if field == "capture" and value is None:
        value = 0
    if isinstance(value, LongNumber):
        return None, f"数字太长（{value.digits} 位），应为不超过 {MAX_NUMBER_DIGITS} 位的整数"
    if isinstance(value, bool) or not isinstance(value, int):
        return None, f"应为整数，实际为 {as_typed(value)}"
    return value, None


def _flag(raw: Mapping[str, object], field: str) -> tuple[object, str | None]:
    value = raw.get(field, False)
    return (value, None) if isinstance(value, bool) else (None, f"应为 true 或 false，实际为 {as_typed(value)}")


def _dealer(raw: Mapping[str, object], field: str) -> tuple[object, str | None]:
    try:
        return Side.parse(raw.get(field)), None
    except ValueError:
        return None, f"应为 \"A\"（甲）或 \"B\"（乙），实际为 {as_typed(raw.get(field))}"


def _offense(raw: Mapping[str, object], field: str) -> tuple[object, str | None]:
    try:
        return Offense(raw[field]), None
    except (ValueError, TypeError):  # TypeError: a list or object is not hashable as an enum value
        return None, f"应为 {'、'.join(o.value for o in Offense)} 之一，实际为 {as_typed(raw[field])}"


def _level(raw: Mapping[str, object], field: str) -> tuple[object, str | None]:
    try:
        return Level.parse(raw[field]), None
    except ValueError:
        return None, f"应为 2…10、J、Q、K、A，实际为 {as_typed(raw[field])}"


_FIELD_READERS = {"dealer": _dealer, "level_card_capture": _flag, "playoff": _flag, "offense": _offense,
                  "level": _level}


# --- the record file ---

MAX_RECORD_BYTES = files.MATCH_RECORD.limit  # a long match with every field filled is a few kB
MAX_RECORD_DEPTH = 16  # a record nests 4 deep ({"rules": {"must_play": [...]}})
MAX_NUMBER_DIGITS = 15


class LongNumber(str):
    """A JSON number longer than any record holds, kept as its text: converting it would be slow, and Python
    refuses to print one of more than 4,300 digits."""

    @property
    def digits(self) -> int:
        return len(self.lstrip("-"))

    def __repr__(self) -> str:
        return f"一个 {self.digits} 位的数"


def _integer(text: str) -> int | LongNumber:
    return LongNumber(text) if len(text.lstrip("-")) > MAX_NUMBER_DIGITS else int(text)


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_depth(text: str) -> int:
    """How deep [ and { nest in JSON text, outside strings (counted before parsing, so a deep file cannot
    exhaust the parser's recursion)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def read_record(path: Path) -> object:
    """A match record file's JSON data. RecordError (one message, without the file name) for a file that cannot
    be a record: missing, unreadable, too large, an Excel workbook, not UTF-8/GBK, nested too deep, not JSON."""

    def refuse(message: str) -> RecordError:
        return RecordError([Issue.of_hand(None, None, message)])

    try:
        raw = files.read_user_file(path, files.MATCH_RECORD)
    except files.Unreadable as exc:
        raise refuse(exc.reason) from None
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise refuse("这是 Excel 工作簿，不是对局记录（JSON 文件）；检查填好的记分表请用 shuangsheng score 活动文件夹")
    text = decode_text(raw)
    if text is None:
        raise refuse("文件编码无法识别，请用记事本“另存为”，编码选 UTF-8")
    if nesting_depth(text) > MAX_RECORD_DEPTH:
        raise refuse(f"括号嵌套超过 {MAX_RECORD_DEPTH} 层，不是对局记录的格式（见示例 examples/match.json）")
    try:
        return json.loads(text, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise refuse(f"第{exc.lineno}行第{exc.colno}列附近不是有效的 JSON（请检查英文半角的引号、逗号和括号）") from None
