"""`event.toml`: the event's facts and options. Written (from the seed notice) and read here only."""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from shuangsheng.game.rules import RulesError, RuleSet
from shuangsheng.knockout.checkin import DEFAULT_LATE_MINUTES, LateRule, clock_time
from shuangsheng.knockout.formats import AvoidSameUnit, Byes, ThirdPlace  # re-exported: event.Byes, event.ThirdPlace
from shuangsheng.storage import files
from shuangsheng.storage.names import EVENT_FILE
from shuangsheng.vocabulary.errors import Issue, UserError, shown
from shuangsheng.vocabulary.text import command_line


class EventError(UserError, ValueError):
    """event.toml is unreadable or has bad values: every problem, each an `Issue` naming the file."""


@dataclass(frozen=True)
class Registration:
    mode: str
    start: dt.date
    end: dt.date
    place: str
    contact: str
    phone: str


@dataclass(frozen=True)
class Prizes:
    first: int = 1
    second: int = 1
    third: int = 2
    souvenir: str = "所有参赛选手均可获得纪念品一份"


@dataclass(frozen=True)
class PrintOptions:
    font: str | None = None
    large_print: bool = True
    award_date: dt.date | None = None  # the date on the announcement and certificates (None: the day they print)


@dataclass(frozen=True)
class ServeOptions:
    """[serve]: the hall server's desk PIN (None: a new one each start), the LAN address to use (None: found),
    and whether the desk page is answered on the LAN too."""

    pin: str | None = None
    address: str | None = None
    desk_lan: bool = False


@dataclass(frozen=True)
class Officials:
    """[officials]: the people the 秩序册 and the 成绩册 name, each list of "职务：姓名" texts as typed (empty:
    the booklet prints ruled blank lines to write them in)."""

    committee: tuple[str, ...] = ()  # 组委会
    arbitration: tuple[str, ...] = ()  # 仲裁委员会
    chief_referee: tuple[str, ...] = ()  # 裁判长
    referees: tuple[str, ...] = ()  # 裁判员

    @property
    def groups(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(key, names) of every list, in the order the booklets print them."""
        return (("committee", self.committee), ("arbitration", self.arbitration),
                ("chief_referee", self.chief_referee), ("referees", self.referees))


OFFICIAL_KEYS = ("committee", "arbitration", "chief_referee", "referees")
DEFAULT_ROUND_GAP = 10  # minutes between two rounds on the 秩序册's timetable


@dataclass(frozen=True)
class Event:
    title: str
    organiser: str
    addressee: str
    purpose: str
    notice_date: dt.date
    participants: str
    date: str
    date_note: str
    start_time: str
    venue: str
    registration: Registration
    prizes: Prizes = Prizes()
    rules: RuleSet = RuleSet()
    third_place: ThirdPlace = ThirdPlace.SHARED
    byes: Byes = Byes.FIRST_ROUND
    avoid_same_unit: AvoidSameUnit = AvoidSameUnit.FIRST_ROUND
    print: PrintOptions = field(default_factory=PrintOptions)
    serve: ServeOptions = field(default_factory=ServeOptions)
    late_minutes: int = DEFAULT_LATE_MINUTES  # [format]: a pair not there this long after start_time may be 弃权
    checkin_time: str = ""  # [event] H:MM when 报到 opens ('' : not set, the timetable has no 报到 line)
    round_gap_minutes: int = DEFAULT_ROUND_GAP  # [event] between the end of one round and the start of the next
    awards_time: str = ""  # [event] H:MM of the prize-giving ('' : right after the final)
    officials: Officials = field(default_factory=Officials)

    @property
    def late_rule(self) -> LateRule:
        """When a pair that has not checked in may be confirmed 弃权 (start_time is checked as H:MM when read; an
        Event made otherwise with another text counts from 8:30)."""
        return LateRule(clock_time(self.start_time) or dt.time(8, 30), self.late_minutes)


def default_text() -> str:
    """The commented event.toml that `init` writes, prefilled from the seed notice."""
    from shuangsheng.render import templates

    return templates.read("event.toml")


def default_event() -> Event:
    return parse(default_text(), source=EVENT_FILE)


def missing_folder(folder: Path) -> str | None:
    """The message for an event folder that is not there (a mistyped path), or None."""
    try:
        info = os.stat(folder)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            return f"文件夹 {folder} 不存在；请检查路径是否打错（新的活动先运行 {command_line('init', folder)}）"
        return f"{folder}：{files.os_reason(exc)}"
    if stat.S_ISDIR(info.st_mode):
        return None
    return f"{folder} 不是文件夹；请给出活动文件夹（里面有 {EVENT_FILE}）"


def load(folder: Path) -> Event:
    path = folder / EVENT_FILE
    if (missing := missing_folder(folder)) is not None:
        raise EventError([missing])
    try:
        data = files.read_user_file(path, files.EVENT_SETTINGS)
    except files.Unreadable as exc:
        if exc.missing:
            raise EventError([Issue.of_file(path, f"找不到活动设置文件，请先运行 {command_line('init', folder)}")]) from None
        raise EventError(exc.issues) from None
    return parse(settings_text(path, data), source=str(path))


SAVE_AS_UTF8 = "请用记事本打开，点“文件 → 另存为”，编码选 UTF-8，保存后再运行"


def settings_text(path: Path, data: bytes) -> str:
    """event.toml's text: UTF-8 only (with or without BOM). Another encoding (GBK, Big5) would be read as the wrong
    characters, and a NUL byte means it is no text file at all: refused, with how to save it right."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EventError([Issue.of_file(path, f"不是 UTF-8 编码的文字（可能存成了 GBK 或 Big5），里面的中文会读错；{SAVE_AS_UTF8}")]) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise EventError([Issue.of_file(path, f"第{line}行有空字符（NUL），这不是记事本保存的文字文件；{SAVE_AS_UTF8}")])
    return text


def parse(text: str, *, source: str) -> Event:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EventError([_syntax_message(text, str(exc), source)]) from None
    except (ValueError, RecursionError):  # a number of thousands of digits; brackets nested a thousand deep
        long = next((n for n, line in enumerate(text.splitlines(), 1) if re.search(r"\d{16}", line)), None)
        where = f"第{long}行的数字太长" if long else "方括号嵌套太深"
        raise EventError([Issue.of_file(source, f"{where}，不是活动设置的写法；请对照 shuangsheng init 生成的 event.toml 改正")]) from None
    reader = _Reader(data, source)
    ev = reader.table("event")
    reg = reader.table("registration")
    prizes = reader.table("prizes")
    fmt = reader.table("format")
    prn = reader.table("print")
    srv = reader.table("serve")
    off = reader.table("officials")
    rules = RuleSet()
    try:
        rules = RuleSet.from_mapping(reader.table("rules"))
    except RulesError as exc:
        reader.problems.extend(Issue.of_setting(source, "rules", key, msg) for key, msg in exc.problems)
    third = reader.text(fmt, "format", "third_place", "shared")
    try:
        third_place = ThirdPlace(third)
    except ValueError:
        reader.at("format", "third_place", f'应为 "shared" 或 "playoff"，实际为 {shown(third)}')
        third_place = ThirdPlace.SHARED
    bye_rule = reader.text(fmt, "format", "byes", Byes.FIRST_ROUND.value)
    try:
        byes = Byes(bye_rule)
    except ValueError:
        reader.at("format", "byes", f'应为 "first_round" 或 "each_round"，实际为 {bye_rule!r}')
        byes = Byes.FIRST_ROUND
    event = Event(
        title=reader.text(ev, "event", "title"),
        organiser=reader.text(ev, "event", "organiser"),
        addressee=reader.text(ev, "event", "addressee", ""),
        purpose=reader.text(ev, "event", "purpose", ""),
        notice_date=reader.date(ev, "event", "notice_date"),
        participants=reader.text(ev, "event", "participants"),
        date=reader.text(ev, "event", "date"),
        date_note=reader.text(ev, "event", "date_note", ""),
        start_time=_clock(reader, ev, "start_time"),
        venue=reader.text(ev, "event", "venue"),
        registration=Registration(
            mode=reader.text(reg, "registration", "mode", "两人一组，自由组合报名参赛"),
            start=reader.date(reg, "registration", "start"),
            end=reader.date(reg, "registration", "end"),
            place=reader.text(reg, "registration", "place"),
            contact=reader.text(reg, "registration", "contact", ""),
            phone=reader.text(reg, "registration", "phone"),
        ),
        prizes=Prizes(
            first=reader.count(prizes, "prizes", "first", 1),
            second=reader.count(prizes, "prizes", "second", 1),
            third=reader.count(prizes, "prizes", "third", 1 if third_place is ThirdPlace.PLAYOFF else 2),
            souvenir=reader.text(prizes, "prizes", "souvenir", Prizes.souvenir),
        ),
        rules=rules,
        third_place=third_place,
        byes=byes,
        avoid_same_unit=_avoid_same_unit(reader, fmt),
        print=PrintOptions(
            font=reader.text(prn, "print", "font", "") or None,
            large_print=reader.flag(prn, "print", "large_print", True),
            award_date=reader.optional_date(prn, "print", "award_date"),
        ),
        serve=_serve_options(reader, srv),
        late_minutes=reader.count(fmt, "format", "late_minutes", DEFAULT_LATE_MINUTES),
        checkin_time=_clock(reader, ev, "checkin_time", required=False),
        round_gap_minutes=reader.count(ev, "event", "round_gap_minutes", DEFAULT_ROUND_GAP),
        awards_time=_clock(reader, ev, "awards_time", required=False),
        officials=Officials(*(reader.names(off, "officials", key) for key in OFFICIAL_KEYS)),
    )
    reader.unknown_keys()
    if not reader.problems and event.registration.end < event.registration.start:
        reader.at("registration", "end", "报名截止日期早于开始日期 start")
    if reader.problems:
        raise EventError(reader.problems)
    return event


def _syntax_message(text: str, error: str, source: str) -> Issue:
    """tomllib's English message as a Chinese one: the line, what it holds, and the likely fix."""
    m = re.search(r"\(at line (\d+), column \d+\)", error)
    number = int(m.group(1)) if m else None
    lines = text.splitlines()
    line = lines[number - 1].strip() if number and number <= len(lines) else ""
    value = line.split("=", 1)[1] if "=" in line else line
    if value.strip()[:1] in ("“", "”", "‘", "’"):
        hint = "引号要用英文半角的 \" \"，不能用中文引号“ ”"
    elif "＝" in line:
        hint = "等号要用半角的 =，不能用全角的 ＝"
    elif "Cannot overwrite" in error:
        hint = "同一项写了两次，请删去其中一行"
    elif "Cannot declare" in error:
        hint = "同一节（方括号里的名字）出现了两次，请合并为一节"
    elif "hex value" in error or "escape" in error:
        hint = "引号里的反斜杠 \\ 有特殊含义；文件路径请改用 /，如 \"C:/Windows/Fonts/msyh.ttc\""
    elif re.match(r"\s*\d{4}\s*[-/.年]\s*\d", value):
        hint = "日期请写成 2026-03-09 这样（年四位，月、日各两位，用 - 连接，不加引号）"
    elif "Illegal character" in error or "Unterminated string" in error or "Expected \"'\"" in error:
        hint = "引号没有配对：文字两端都要有英文半角双引号 \""
    elif "table declaration" in error:
        hint = "节名两边要有半角方括号，如 [event]"
    elif "array" in error:
        hint = "列表写法有误，应如 [\"2\", \"J\", \"A\"]（英文逗号分隔，两端方括号）"
    elif "Invalid value" in error or "Expected newline" in error:
        hint = "等号右边的值写法有误：文字要放在英文双引号里，如 \"8:30\"；数字、true、false 和日期不加引号"
    elif "Invalid statement" in error or "Expected '='" in error:
        hint = "每一项应写成 名称 = 值（名称用英文，与原文件一致）；说明文字前面要加 #"
    else:
        hint = "请检查引号、等号和方括号"
    where = f"第{number}行" if number else "文件末尾"
    shown = f"（这一行是：{line[:60]}）" if line else ""
    return Issue.of_file(source, f"{where}格式有误{shown}；{hint}")


_MISSING = object()
_SECTIONS = ("event", "registration", "prizes", "rules", "format", "print", "serve", "officials")


def _avoid_same_unit(reader: _Reader, fmt: dict) -> AvoidSameUnit:
    rule = reader.text(fmt, "format", "avoid_same_unit", AvoidSameUnit.FIRST_ROUND.value)
    try:
        return AvoidSameUnit(rule)
    except ValueError:
        reader.at("format", "avoid_same_unit", f'应为 "round1" 或 "every_round"，实际为 {rule!r}')
        return AvoidSameUnit.FIRST_ROUND


def _clock(reader: _Reader, ev: dict, key: str, *, required: bool = True) -> str:
    """An [event] time of day as H:MM ('8:30'; full-width digits and colon are taken as typed): start_time (报到's
    late time counts from it), and the 秩序册's checkin_time and awards_time ('' when left out or empty)."""
    text = reader.text(ev, "event", key) if required else reader.text(ev, "event", key, "")
    start = clock_time(text)
    if start is None:
        if text:
            reader.at("event", key, f'应为时:分，如 "8:30" 或 "14:00"，实际为 {shown(text)}')
        return text if required else ""
    return f"{start.hour}:{start.minute:02d}"


def _serve_options(reader: _Reader, table: dict) -> ServeOptions:
    raw = table.get("pin")
    if isinstance(raw, int) and not isinstance(raw, bool):  # pin = 012345 loses its 0: must be quoted text
        reader.seen.setdefault("serve", set()).add("pin")
        reader.at("serve", "pin", f'请加引号写成 6 位数字，如 pin = "{raw:06d}"' if 0 <= raw < 10**6
                  else f"应为加引号的 6 位数字，实际为 {shown(raw)}")
        pin = ""
    else:
        pin = reader.text(table, "serve", "pin", "")
    if pin and not (len(pin) == 6 and pin.isascii() and pin.isdigit()):
        reader.at("serve", "pin", f'应为 6 位数字（如 "205318"），或留空（""）每次启动时新生成，实际为 {shown(pin)}')
        pin = ""
    address = reader.text(table, "serve", "address", "")
    if address and not is_ipv4(address):
        reader.at("serve", "address", f'应为本机的局域网 IP 地址（如 "192.168.1.20"），或留空自动查找，实际为 {shown(address)}')
        address = ""
    desk_lan = reader.flag(table, "serve", "desk_lan", False)
    return ServeOptions(pin=pin or None, address=address or None, desk_lan=desk_lan)


def is_ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isascii() and p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts)


MAX_TEXT = 2000  # characters of any text value of event.toml
TEXT_LIMITS = {("event", "title"): 100}  # the title heads every paper and certificate


class _Reader:
    """Typed look-ups that collect every problem instead of stopping at the first."""

    def __init__(self, data: dict, source: str):
        self.data = data
        self.source = source
        self.problems: list[Issue] = []
        self.seen: dict[str, set[str]] = {}

    def problem(self, detail: str) -> None:
        self.problems.append(Issue.of_file(self.source, detail))

    def at(self, section: str, key: str, detail: str) -> None:
        """A problem with one setting: its place names the key (`Issue.of_setting`), its detail does not."""
        self.problems.append(Issue.of_setting(self.source, section, key, detail))

    def unknown_keys(self) -> None:
        """A misspelt key or section would otherwise be ignored silently (and its default printed)."""
        for name, value in self.data.items():
            if name not in _SECTIONS:
                what = "一节" if isinstance(value, dict) else "设置项"
                known = "、".join(f"[{s}]" for s in _SECTIONS)
                self.problem(f"未知的{what}“{name}”，请检查拼写（可用的节：{known}）")
            elif name != "rules" and isinstance(value, dict):  # [rules] keys are checked by RuleSet
                for key in value:
                    if key not in self.seen.get(name, ()):
                        known = "、".join(sorted(self.seen.get(name, ())))
                        self.problem(f"[{name}] 未知的设置项“{key}”，请检查拼写（可用：{known}）")

    def table(self, name: str) -> dict:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            self.problem(f"[{name}] 应为一节设置")
            return {}
        return value

    def _get(self, table: dict, section: str, key: str, default: object) -> object:
        self.seen.setdefault(section, set()).add(key)
        value = table.get(key, default)
        if value is _MISSING:
            self.at(section, key, "缺少这一项")
        return value

    def text(self, table: dict, section: str, key: str, default: object = _MISSING) -> str:
        value = self._get(table, section, key, default)
        if value is _MISSING:
            return ""
        if not isinstance(value, str):
            self.at(section, key, f"应为加引号的文字，实际为 {shown(value)}")
            return ""
        limit = TEXT_LIMITS.get((section, key), MAX_TEXT)
        if len(value) > limit:  # a title of 900 KB would make every paper take minutes to lay out
            self.at(section, key, f"太长了（{len(value)} 个字），最多 {limit} 个字")
            return ""
        return value.strip()

    def date(self, table: dict, section: str, key: str) -> dt.date:
        value = self._get(table, section, key, _MISSING)
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return value
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value.strip())
            except ValueError:
                pass
        if value is not _MISSING:
            self.at(section, key, f"应为日期，如 2026-03-09，实际为 {shown(value)}")
        return dt.date(2000, 1, 1)

    def names(self, table: dict, section: str, key: str) -> tuple[str, ...]:
        """A list of texts, each one person ("职务：姓名"); a single text is a list of one, "" or [] none."""
        value = self._get(table, section, key, [])
        if isinstance(value, str):
            value = [value] if value.strip() else []
        if not isinstance(value, list):
            self.at(section, key, f'应为加引号的文字列表，如 ["主任：王发虎", "副主任：李秀英"]，实际为 {shown(value)}')
            return ()
        found: list[str] = []
        for number, item in enumerate(value, 1):
            if not isinstance(item, str) or not item.strip():
                what = "是空的" if isinstance(item, str) else f"应为加引号的文字，实际为 {shown(item)}"
                self.at(section, key, f"第{number}项{what}（每项写一个人，如 \"裁判员：赵振华\"）")
            elif len(item) > 100:
                self.at(section, key, f"第{number}项太长了（{len(item)} 个字），最多 100 个字")
            else:
                found.append(item.strip())
        return tuple(found)

    def optional_date(self, table: dict, section: str, key: str) -> dt.date | None:
        """A date, or None when the key is missing or left as ""."""
        value = table.get(key, "")
        if isinstance(value, str) and not value.strip():
            self.seen.setdefault(section, set()).add(key)
            return None
        return self.date(table, section, key)

    def count(self, table: dict, section: str, key: str, default: int) -> int:
        value = self._get(table, section, key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            self.at(section, key, f"应为 0–100 的整数，实际为 {shown(value)}")
            return default
        return value

    def flag(self, table: dict, section: str, key: str, default: bool) -> bool:
        value = self._get(table, section, key, default)
        if not isinstance(value, bool):
            self.at(section, key, f"应为 true 或 false，实际为 {shown(value)}")
            return default
        return value
