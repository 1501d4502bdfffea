"""`event.toml` as a form (the console's 设置 page): every key with its Chinese label, its help and its current
value as text (`read_settings`), and a form's values written back into the file (`save_settings`), keeping its
comments, order and every value not changed (tomlkit). Reads and writes event.toml (and its dated copy) only.

The help of each key is docs/event-toml.md's: `SETTINGS` holds its table cells verbatim (an installed copy has no
docs/ folder), and tests/test_settings.py checks the page against this table, row by row. A value is checked by
the loader itself (`shuangsheng.storage.event.parse`) on the text that would be written: a form can save nothing
that a command would then refuse, and its messages are the command line's, each placed at its key."""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from shuangsheng.game.rules import DealerTable, NegativePoints, PenaltyExcess, TieBreak, must_play_items
from shuangsheng.knockout.formats import AvoidSameUnit, Byes, ThirdPlace
from shuangsheng.storage import event as event_file
from shuangsheng.storage import files
from shuangsheng.storage.names import EVENT_FILE, rounds_drawn
from shuangsheng.vocabulary.errors import Issue, Place, UserError
from shuangsheng.vocabulary.text import width

if TYPE_CHECKING:
    from tomlkit.toml_document import TOMLDocument


class Kind(str, enum.Enum):
    """What a setting takes, as the form asks for it."""

    TEXT = "text"
    INT = "int"
    CHOICE = "choice"
    BOOL = "bool"
    DATE = "date"
    LEVELS = "levels"  # a list of levels, typed as "2,J,A"
    LINES = "lines"  # a list of texts ([officials]: "职务：姓名"), typed one a line


@dataclass(frozen=True)
class Choice:
    """One value a CHOICE setting takes, as written in event.toml, and its Chinese words."""

    value: str
    label: str


def _choices(options: type[enum.Enum], labels: Mapping[enum.Enum, str]) -> tuple[Choice, ...]:
    """Every member of `options` with its words (a member without words is a bug found on import)."""
    assert set(labels) == set(options), options
    return tuple(Choice(str(member.value), labels[member]) for member in options)


@dataclass(frozen=True)
class Setting:
    """One key of event.toml: where it sits, its Chinese label, what it takes, and docs/event-toml.md's row for it:
    `required` (the 必填 column: True/False; None in the tables without one), `meaning` (含义) and `values` (the
    last column: 示例 where there is a 必填 column, else 取值), each cell verbatim. `default` is the value in force
    when the key is missing, as text ("" for a required key or an empty text)."""

    section: str
    key: str
    label: str
    kind: Kind
    required: bool | None
    meaning: str
    values: str
    choices: tuple[Choice, ...] = ()
    default: str = ""

    @property
    def name(self) -> str:
        """'section.key', as a form names the field: 'rules.must_play'."""
        return f"{self.section}.{self.key}"

    @property
    def help(self) -> str:
        """The help shown under the field: the meaning and the values (or an example), in plain text."""
        if not self.values:
            return _plain(self.meaning)
        return f"{_plain(self.meaning)}。{'示例' if self.required is not None else '取值'}：{_plain(self.values)}"


def _plain(markdown: str) -> str:
    """docs' cell as plain text: code marks dropped, a link as its text."""
    return _LINK.sub(r"\1", markdown).replace("`", "")


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


SETTINGS: tuple[Setting, ...] = (
    Setting("event", "title", "比赛名称", Kind.TEXT, True, "比赛名称（所有材料的标题）",
            '`"离退休教职工双升级（双扣）比赛"`'),
    Setting("event", "organiser", "主办单位", Kind.TEXT, True, "主办单位（通知落款）", '`"离退休教职工服务中心"`'),
    Setting("event", "addressee", "通知抬头", Kind.TEXT, False, "通知抬头（空）", '`"离退休教职工"`'),
    Setting("event", "purpose", "举办目的", Kind.TEXT, False, "通知的第一段：举办目的（空）", '`"为丰富……举办……比赛。"`'),
    Setting("event", "notice_date", "通知落款日期", Kind.DATE, True, "通知落款日期，日期格式", "`2026-03-03`"),
    Setting("event", "participants", "参赛人员", Kind.TEXT, True, "通知“一、参赛人员”",
            '`"身体健康、自愿报名的离退休教职工均可参加"`'),
    Setting("event", "date", "比赛时间", Kind.TEXT, True, "通知“二、比赛时间”（文字）", '`"2026年3月中旬"`'),
    Setting("event", "date_note", "比赛时间说明", Kind.TEXT, False, "比赛时间的补充说明（空）", '`"具体比赛时间另行通知"`'),
    Setting("event", "start_time", "开始时间", Kind.TEXT, True,
            "开始时间，写成“时:分”（24 小时制，全角数字也可以）；通知上印成“上午8:30”“下午2:00”；报到的迟到时间从它算起"
            "（见 `[format] late_minutes`）。写成别的样子（如 `\"上午八点半\"`）会报错", '`"8:30"`、`"14:00"`'),
    Setting("event", "checkin_time", "报到时间", Kind.TEXT, False,
            "报到开始的时间，写成“时:分”，印在秩序册的竞赛日程上（空：日程上不印报到）", '`"8:00"`'),
    Setting("event", "round_gap_minutes", "两轮之间休息（分钟）", Kind.INT, False,
            "两轮之间休息几分钟：秩序册的竞赛日程从开始时间起，每轮排 `match_minutes` 加这么多分钟（0–100 的整数，默认 10）",
            "`10`", default="10"),
    Setting("event", "awards_time", "颁奖时间", Kind.TEXT, False,
            "颁奖的时间，写成“时:分”，印在秩序册的竞赛日程上（空：印“决赛结束后”）", '`"11:30"`'),
    Setting("event", "venue", "比赛地点", Kind.TEXT, True, "通知“三、比赛地点”",
            '`"离退休教职工服务中心（后家属院体育馆201棋牌室）"`'),
    Setting("registration", "mode", "报名方式", Kind.TEXT, False, '报名方式（`"两人一组，自由组合报名参赛"`）', "",
            default="两人一组，自由组合报名参赛"),
    Setting("registration", "start", "报名开始日期", Kind.DATE, True, "报名开始日期", "`2026-03-03`"),
    Setting("registration", "end", "报名截止日期", Kind.DATE, True, "报名截止日期，不能早于 `start`", "`2026-03-09`"),
    Setting("registration", "place", "报名地点", Kind.TEXT, True, "报名地点", '`"办公室"`'),
    Setting("registration", "contact", "报名联系人", Kind.TEXT, False, "报名联系人（空）", '`"王发虎"`'),
    Setting("registration", "phone", "报名电话", Kind.TEXT, True, "报名电话（文字，放在引号里）", '`"2973620"`'),
    Setting("prizes", "first", "一等奖名额", Kind.INT, None, "一等奖名额", "0–100 的整数（1）", default="1"),
    Setting("prizes", "second", "二等奖名额", Kind.INT, None, "二等奖名额", "0–100 的整数（1）", default="1"),
    Setting("prizes", "third", "三等奖名额", Kind.INT, None, "三等奖名额",
            '0–100 的整数（2；`third_place = "playoff"` 时为 1）', default="2"),
    Setting("prizes", "souvenir", "纪念品说明", Kind.TEXT, None, "纪念品说明（印在通知和纪念品领取签收表上）",
            '文字（`"所有参赛选手均可获得纪念品一份"`）', default="所有参赛选手均可获得纪念品一份"),
    Setting("rules", "dealer_table", "庄家升级表", Kind.CHOICE, None, "庄家保庄（台下总分 P < 80）时升几级",
            '`"ceil"`：60–75 分升 1 级、40–55 升 2 级、20–35 升 3 级、0–15 升 4 级（⌈(80−P)/20⌉，默认）；`"floor"`：'
            "⌊(80−P)/20⌋，即 65–75 分不升级、45–60 升 1 级……；`\"plus_one\"`：1 + ⌊(80−P)/20⌋",
            _choices(DealerTable, {DealerTable.CEIL: "60–75 分升 1 级、40–55 升 2 级……（默认）",
                                   DealerTable.FLOOR: "65–75 分不升级、45–60 升 1 级……",
                                   DealerTable.PLUS_ONE: "1 + ⌊(80−P)/20⌋"}), default=DealerTable.CEIL.value),
    Setting("rules", "must_play", "必打级", Kind.LEVELS, None, "必打级：只有坐庄打这一级并保庄才能过",
            '级数列表（`["2", "J", "A"]`）；也可写成一个字符串 `"2,J,A"`。A 总是必打；2 只在第一次离开 2 之前是必打',
            default="2,J,A"),
    Setting("rules", "penalty_excess", "罚升遇必打级", Kind.CHOICE, None,
            "罚升 5 级（第十三、十四条）遇到必打级停下时，剩下的级数怎么办",
            '`"cap"`：停在必打级，不扣对方（默认）；`"deduct"`：余下的级数从对方扣除（不低于 2）',
            _choices(PenaltyExcess, {PenaltyExcess.CAP: "停在必打级，不扣对方（默认）",
                                     PenaltyExcess.DEDUCT: "余下的级数从对方扣除"}), default=PenaltyExcess.CAP.value),
    Setting("rules", "negative_points", "台下得分为负", Kind.CHOICE, None, "罚分后台下总分为负数时",
            '`"allow"`：照负数算（默认）；`"clamp"`：按 0 分算',
            _choices(NegativePoints, {NegativePoints.ALLOW: "照负数算（默认）", NegativePoints.CLAMP: "按 0 分算"}),
            default=NegativePoints.ALLOW.value),
    Setting("rules", "tie_break", "时间到级数相同", Kind.CHOICE, None, "时间到双方级数相同",
            '`"playoff"`：加赛，直到一局后级数不同（默认）；`"dealer"`：判最后一局的庄家方胜',
            _choices(TieBreak, {TieBreak.PLAYOFF: "加赛（默认）", TieBreak.DEALER: "判最后一局的庄家方胜"}),
            default=TieBreak.PLAYOFF.value),
    Setting("rules", "match_minutes", "每场比赛时间（分钟）", Kind.INT, None, "每场比赛时间（分钟），印在规则和记分表上",
            "10–300 的整数（60）", default="60"),
    Setting("format", "third_place", "三等奖", Kind.CHOICE, None, "三等奖怎么定",
            '`"shared"`：两场半决赛的负者并列三等奖（默认）；`"playoff"`：两名半决赛负者加赛一场（三四名决赛，与决赛同一轮），'
            "胜者获唯一的三等奖",
            _choices(ThirdPlace, {ThirdPlace.SHARED: "两名半决赛负者并列三等奖（默认）",
                                  ThirdPlace.PLAYOFF: "加赛一场，决出唯一的三等奖"}), default=ThirdPlace.SHARED.value),
    Setting("format", "byes", "轮空", Kind.CHOICE, None, "组数不是 2 的乘方时，轮空怎么安排",
            '`"first_round"`：轮空全部安排在第 1 轮，第 2 轮起不再轮空，保证有两场半决赛（默认）；`"each_round"`：'
            "每轮组数为单数时一组轮空（半决赛可能只有 3 组，三等奖只有 1 名）",
            _choices(Byes, {Byes.FIRST_ROUND: "轮空全部安排在第 1 轮（默认）", Byes.EACH_ROUND: "每轮组数为单数时一组轮空"}),
            default=Byes.FIRST_ROUND.value),
    Setting("format", "avoid_same_unit", "同单位、种子分开", Kind.CHOICE, None,
            "报名表填了“单位”“种子”时，哪几轮抽签让它们分开",
            '`"round1"`：只在第 1 轮（默认）；`"every_round"`：以后每轮抽签也是。分开的办法：轮空先给种子（1 号种子先），'
            "其余各组配对时同单位相遇的场数是人数允许的最少（例如某单位 10 组、全场 16 组要打比赛，至少有 10 − 8 = 2 场同单位相遇），"
            "在此之上种子相遇的场数尽量少。每轮都是在胜者中重新抽签，没有固定的“上下半区”，所以“种子分开”只管抽签的那一轮。"
            "没有填单位、种子的报名表，抽签和以前完全一样。用纸签抽签时不做这些调整，抽签结果里会列出同单位、"
            "种子相遇的桌。对阵表上有一行说明本轮抽签用了哪些调整",
            _choices(AvoidSameUnit, {AvoidSameUnit.FIRST_ROUND: "只在第 1 轮（默认）",
                                     AvoidSameUnit.EVERY_ROUND: "每轮抽签都分开"}),
            default=AvoidSameUnit.FIRST_ROUND.value),
    Setting("format", "late_minutes", "迟到按弃权的分钟数", Kind.INT, None,
            "报到：开始时间 `start_time` 之后过了多少分钟，还没有报到的组可以由比赛负责人确认按弃权论（“迟到10分钟按弃权论”；"
            "也可以再等）。不到这个时间，不能判弃权。见使用说明 [checkin.md](checkin.md)",
            "0–100 的整数（10）", default="10"),
    Setting("print", "font", "中文字体", Kind.TEXT, None, "中文字体文件；`.ttc` 字体集可加 `#序号`",
            '路径文字，如 `"C:/Windows/Fonts/msyh.ttc#0"`；留空 `""` 自动查找（Windows 依次找 微软雅黑 msyh.ttc、黑体 '
            "simhei.ttf、宋体 simsun.ttc；macOS 找 华文黑体、宋体；Linux 找文泉驿微米黑、文泉驿正黑、AR PL UMing）"
            "；命令行另外指定字体时，以命令行为准"),
    Setting("print", "large_print", "大字版", Kind.BOOL, None, "大字版",
            "`true`：正文 16 磅、表格 15 磅（默认，适合老年读者）；`false`：正文 12 磅", default="true"),
    Setting("print", "award_date", "颁奖落款日期", Kind.DATE, None, "成绩公告和荣誉证书的落款日期",
            '日期，如 `2026-03-15`（不加引号也可）；留空 `""` 则印比赛月份（取自 `date`，如“2026年3月”），颁奖时会提醒填写。'
            "填上颁奖那天，哪天打印日期都一样"),
    Setting("serve", "pin", "裁判台密码", Kind.TEXT, None, "裁判台密码（打开裁判台页面时要输入）",
            '加引号的 6 位数字，如 `"205318"`（不加引号时开头的 0 会丢失，所以必须加引号）；留空 `""` 则每次启动时新生成一个'
            "，并打印在电脑上（默认）"),
    Setting("serve", "address", "本机局域网地址", Kind.TEXT, None, "本机的局域网地址（让手机扫码录分、其他设备打开大屏时用它）",
            'IP 地址文字，如 `"192.168.1.20"`；电脑同时连着几个网络（如无线网和手机热点）时指定用哪一个；留空 `""` 自动查找'
            "；命令行另外指定地址时，以命令行为准"),
    Setting("serve", "desk_lan", "局域网设备可开裁判台", Kind.BOOL, None, "局域网中的其他设备能否打开裁判台页面",
            "`false`：只有运行本程序的这台电脑能打开（默认）；`true`：同一局域网中输入密码的设备也能打开",
            default="false"),
    *(Setting("officials", key, label, Kind.LINES, None,
              f"{label}名单，印在秩序册和成绩册上：每人一项，写成“职务：姓名”（设置页上每行写一人）；留空 `[]` 时秩序册上印空白横线，可以手写",
              f'文字列表，如 `{example}`（默认 `[]`）')
      for key, label, example in (
          ("committee", "组委会", '["主任：王发虎", "副主任：李秀英"]'),
          ("arbitration", "仲裁委员会", '["主任：张建华", "委员：刘桂兰"]'),
          ("chief_referee", "裁判长", '["裁判长：陈立新"]'),
          ("referees", "裁判员", '["裁判员：赵振华", "记分员：周玉梅"]'))),
)
SETTING_BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
FROZEN_SECTION = "format"  # [format] cannot change once the first round is drawn (docs/event-toml.md)
RULES_SECTION = "rules"


# --- the form ---


@dataclass(frozen=True)
class SettingField:
    """One field of the settings form: the key (`setting`: label, kind, choices, help), its value in the file as
    text ("" when the key is missing: `present` False, its `setting.default` in force), whether it may change
    (`frozen`: [format] after the first draw) and the loader's problems with it (each an `Issue` placed at the key,
    worded with the label)."""

    setting: Setting
    value: str
    present: bool
    frozen: bool = False
    issues: tuple[Issue, ...] = ()

    @property
    def name(self) -> str:
        return self.setting.name


@dataclass(frozen=True)
class SettingsForm:
    """event.toml as the 设置 page shows it: every field in SETTINGS order, the file's `fingerprint` (the sha256
    of its bytes, handed back to `save_settings`), every problem the loader finds in it (`issues`: those of one key
    are also on its field), whether its text could be read as TOML at all (`readable`; if not, the fields show
    nothing and nothing can be saved until the file is fixed) and whether a round was drawn (`drawn`: [format]
    frozen)."""

    path: Path
    fields: tuple[SettingField, ...]
    fingerprint: str
    issues: tuple[Issue, ...] = ()
    readable: bool = True
    drawn: bool = False

    def field(self, name: str) -> SettingField:
        """The field of 'section.key' (KeyError for a key no form has)."""
        found = [f for f in self.fields if f.name == name]
        if not found:
            raise KeyError(name)
        return found[0]


@dataclass(frozen=True)
class SavedSettings:
    """What `save_settings` wrote: the file, the dated copy of the file before (None when nothing changed and so
    nothing was written), the keys changed ('section.key', in SETTINGS order), the [rules] keys among them (a
    round already scored keeps its rules until `score --accept-rules`: the console explains the hold) and the new
    fingerprint."""

    path: Path
    backup: Path | None
    changed: tuple[str, ...]
    fingerprint: str

    @property
    def rules_changed(self) -> tuple[str, ...]:
        return tuple(name for name in self.changed if name.startswith(f"{RULES_SECTION}."))


class SettingsRefused(UserError):
    """The form was not saved; the file is as it was. Each issue names its key in Chinese (`Place.field` is the
    'section.key' of the form's field, when it is one key's)."""


class SettingsInvalid(SettingsRefused, ValueError):
    """A value the loader refuses (the same checks and messages as every command's reading of event.toml)."""


class SettingsStale(SettingsRefused):
    """event.toml changed since the form was read (in Notepad, or by another page)."""


class SettingsFrozen(SettingsRefused):
    """A [format] key changed after the first draw."""


STALE = "设置文件在别处被改过，请重新打开设置页"


def read_settings(folder: Path) -> SettingsForm:
    """The settings form of the event in `folder`. A file that cannot be read at all (missing, not a file, too
    large) raises `event.EventError`; one that is no UTF-8 text or no TOML is a form with its issue and no values
    (`readable` False); one with bad values is a form with the values as they are and each problem at its key."""
    path = folder / EVENT_FILE
    data = _read(folder)
    drawn = is_drawn(folder)
    try:
        text = event_file.settings_text(path, data)
        document = _parse(text, path)
    except event_file.EventError as exc:
        fields = tuple(SettingField(s, "", False, frozen=drawn and s.section == FROZEN_SECTION) for s in SETTINGS)
        return SettingsForm(path, fields, files.sha256(data), _in_chinese(exc.issues), readable=False, drawn=drawn)
    issues = _problems(text, path)
    fields = tuple(_field(document, s, issues, frozen=drawn and s.section == FROZEN_SECTION) for s in SETTINGS)
    return SettingsForm(path, fields, files.sha256(data), issues, drawn=drawn)


def save_settings(folder: Path, values: Mapping[str, str], fingerprint: str) -> SavedSettings:
    """Write the form's `values` ('section.key' → text as typed) into event.toml, if it is still the file of
    `fingerprint`: only the keys whose text differs from the file's are changed (a value left empty for a missing
    key stays missing; a number, choice, true/false or level list emptied is removed, so its default applies),
    comments, order and every other value kept. The text is checked by the loader before anything is written; the
    file before is kept as a dated copy beside it (`files.keep_copy`), and the new one replaces it atomically.
    Raises `SettingsStale`, `SettingsFrozen` or `SettingsInvalid` (nothing written; `event.EventError` when the file
    cannot be read at all, as `read_settings`)."""
    import tomlkit

    path = folder / EVENT_FILE
    data = _read(folder)
    if files.sha256(data) != fingerprint:
        raise SettingsStale([Issue.of_file(path, STALE)])
    unknown = [name for name in values if name not in SETTING_BY_NAME]
    if unknown:
        raise SettingsInvalid([Issue(Place(file=str(path), field=name), f"没有这一项设置（{name}）") for name in unknown])
    try:
        text = event_file.settings_text(path, data)
        document = _parse(text, path)
    except event_file.EventError as exc:  # no UTF-8 text, or no TOML: fixed in Notepad first
        raise SettingsInvalid(_in_chinese(exc.issues)) from None
    changed = tuple(s.name for s in SETTINGS
                    if s.name in values and not _same(s, values[s.name], _field(document, s, ()).value))
    if changed and is_drawn(folder):
        frozen = [SETTING_BY_NAME[name] for name in changed if name.startswith(f"{FROZEN_SECTION}.")]
        if frozen:
            raise SettingsFrozen([Issue(Place(file=str(path), field=s.name), f"{s.label}：第1轮已经抽签，赛制不能再改")
                                  for s in frozen])
    if not changed:
        return SavedSettings(path, None, (), fingerprint)
    for name in changed:
        _put(document, SETTING_BY_NAME[name], values[name])
    new_text = tomlkit.dumps(document)
    try:
        event_file.parse(new_text, source=str(path))
    except event_file.EventError as exc:
        raise SettingsInvalid(_in_chinese(exc.issues)) from None
    new = (b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b"") + new_text.encode("utf-8")
    if files.sha256(_read(folder)) != fingerprint:  # changed while this was being checked
        raise SettingsStale([Issue.of_file(path, STALE)])
    backup = files.keep_copy(path)
    files.write_bytes(path, new, force=True)
    return SavedSettings(path, backup, changed, files.sha256(new))


def is_drawn(folder: Path) -> bool:
    """Whether a round was drawn in `folder` (its workbook, or a draw event.db records): [format] is frozen then."""
    if rounds_drawn(folder):
        return True
    from shuangsheng.storage.ledger.connection import Ledger

    book = Ledger.readable(folder)
    if book is None:
        return False
    with book:
        return bool(book.draws())


# --- reading and writing one value ---


def _read(folder: Path) -> bytes:
    path = folder / EVENT_FILE
    if (missing := event_file.missing_folder(folder)) is not None:
        raise event_file.EventError([missing])
    try:
        return files.read_user_file(path, files.EVENT_SETTINGS)
    except files.Unreadable as exc:
        raise event_file.EventError(exc.issues) from None


def _parse(text: str, path: Path) -> TOMLDocument:
    """The file as tomlkit reads it (comments and layout kept); text that is no TOML is the loader's own message."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        return tomlkit.parse(text)
    except (TOMLKitError, ValueError, RecursionError):
        event_file.parse(text, source=str(path))  # raises the loader's message (line, what it holds, the fix)
        raise event_file.EventError([Issue.of_file(path, "格式有误；请对照 shuangsheng init 生成的 event.toml 改正")]) from None


def _problems(text: str, path: Path) -> tuple[Issue, ...]:
    try:
        event_file.parse(text, source=str(path))
    except event_file.EventError as exc:
        return _in_chinese(exc.issues)
    return ()


def _in_chinese(issues: tuple[Issue, ...]) -> tuple[Issue, ...]:
    """The loader's issues as the form shows them: one of a key known here is placed at its field ('rules.must_play')
    and worded with its label ('必打级：…'); any other is kept as it is."""
    out = []
    for issue in issues:
        setting = SETTING_BY_NAME.get(issue.place.key or "") if issue.setting is not None else None
        if setting is None:
            out.append(issue)
        else:
            out.append(Issue(Place(file=issue.file, field=setting.name), f"{setting.label}：{issue.detail}"))
    return tuple(out)


def _section(document: TOMLDocument, setting: Setting) -> object:
    return document.get(setting.section)


def _field(document: TOMLDocument, setting: Setting, issues: tuple[Issue, ...], *, frozen: bool = False) -> SettingField:
    section = _section(document, setting)
    own = tuple(i for i in issues if i.field == setting.name)
    if not isinstance(section, dict) or setting.key not in section:
        return SettingField(setting, "", False, frozen, own)
    value = section[setting.key]
    if setting.kind is Kind.LINES and isinstance(getattr(value, "unwrap", lambda: value)(), list):
        return SettingField(setting, "\n".join(as_text(item) for item in value), True, frozen, own)
    return SettingField(setting, as_text(value), True, frozen, own)


def as_text(value: object) -> str:
    """A TOML value as the form shows it: text as it is, true/false, a date as 2026-03-09, a list as 2,J,A."""
    if hasattr(value, "unwrap"):
        value = value.unwrap()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, list):
        return ",".join(as_text(item) for item in value)
    return str(value)


def _same(setting: Setting, typed: str, current: str) -> bool:
    """Whether a form's text is the file's value as it shows it (a list typed one a line: the same people, whatever
    the line ends and blank lines a browser sends)."""
    if setting.kind is Kind.LINES:
        return _lines(typed) == _lines(current)
    return typed == current


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _put(document: TOMLDocument, setting: Setting, text: str) -> None:
    """Set one key to the value `text` stands for; a text that is no such value is written as text, for the loader
    to refuse with its own message."""
    import tomlkit
    from tomlkit.items import Item, Table

    section = _section(document, setting)
    if section is None:
        document[setting.section] = section = tomlkit.table()
    if not isinstance(section, dict):
        return  # `[event] = 3`: the loader says "应为一节设置"
    value = _value(setting, text)
    if value is None:
        section.pop(setting.key, None)
        return
    old = section.item(setting.key) if isinstance(section, Table) and setting.key in section else None
    section[setting.key] = value
    new = section.item(setting.key) if isinstance(section, Table) else None
    if isinstance(old, Item) and isinstance(new, Item) and old.trivia.comment:
        # its comment where it was: in the column the file lines its comments up in (CJK characters two wide)
        gap = len(old.trivia.comment_ws) + width(old.as_string()) - width(new.as_string())
        new.trivia.comment_ws = " " * max(1, gap)


def _value(setting: Setting, text: str) -> object | None:
    """The TOML value of a form's text (None: remove the key, its default applies)."""
    typed, kind = text.strip(), setting.kind
    if kind is Kind.TEXT:
        return text
    if kind is Kind.LINES:  # one person a line; an emptied list stays, empty ([]: blank lines in the booklet)
        return _lines(text)
    if not typed:  # an emptied number, choice, true/false or level list: its default applies (a date stays "")
        return "" if kind is Kind.DATE or setting.required else None
    if kind is Kind.INT and re.fullmatch(r"[+-]?[0-9]+", typed):
        return int(typed)
    if kind is Kind.BOOL and typed.lower() in ("true", "false"):
        return typed.lower() == "true"
    if kind is Kind.DATE:
        try:
            return dt.date.fromisoformat(typed)
        except ValueError:
            return typed
    if kind is Kind.LEVELS:
        return must_play_items(typed)
    return typed
