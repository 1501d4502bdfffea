"""What a user can fix, as records: an `Issue` is where (a `Place`: file, sheet!cell, hand, field) and what is
wrong (a Chinese sentence); `UserError` carries a tuple of them. Pure.

The place stays structured until the edge renders it: `str(issue)` for the terminal
('round-1.xlsx 第3桌!D9：…', '第3局台下得分：…', or the detail alone), `as_json()` — the one error object wherever
JSON goes out (`--json`, the table and desk APIs; docs/README.md): `{"message", "file", "sheet", "cell", "hand",
"field"}`, every key present, null where unknown. A `UserError` goes out as `UserError.as_json()`,
`{"errors": [...], "heading", "hint"}`. Nothing joins messages into text to split or search them later.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from shuangsheng.vocabulary.fields import FIELD_CN
from shuangsheng.vocabulary.places import Cell


@dataclass(frozen=True)
class Place:
    """Where an issue is: a file (as the user knows it: a name or a path), a sheet of it, a cell of that sheet (a
    cell without a sheet is a cell of a CSV file), and/or a hand (1-based) of a record and one of its fields (a
    FIELDS name, or another key of the record), or a setting of a settings file (event.toml's (section, key)).
    Every part is optional; an empty Place is no place at all."""

    file: str | None = None
    sheet: str | None = None
    cell: Cell | None = None
    hand: int | None = None
    field: str | None = None
    setting: tuple[str, str] | None = None

    @property
    def where(self) -> str:
        """The file part: 'round-1.xlsx 第3桌!D9', 'round-1.xlsx 第3桌', 'lots.csv 第3行第2列', 'round-1.xlsx', or ''."""
        file = self.file or ""
        if self.sheet and self.cell:
            return f"{file} {self.sheet}!{self.cell}".lstrip()
        if self.sheet:
            return f"{file} {self.sheet}".lstrip()
        if self.cell:
            return f"{file} 第{self.cell.row}行第{self.cell.column}列".lstrip()
        return file

    @property
    def in_words(self) -> str:
        """The sheet part in words, no file name (for papers on the wall, which carry no file names): '对阵表 H10 格', '第3桌记分表
        D9 格', '第3桌记分表', '第3行第2列', or ''. The terminal and the console keep `where`."""
        sheet = "" if not self.sheet else f"{self.sheet}表" if self.sheet == "对阵" else f"{self.sheet}记分表"
        if sheet and self.cell:
            return f"{sheet} {self.cell} 格"
        if self.cell:
            return f"第{self.cell.row}行第{self.cell.column}列"
        return sheet

    @property
    def label(self) -> str:
        """The field's Chinese name ('台下得分'), or '' for a field without a column (or no field)."""
        return FIELD_CN.get(self.field, "") if self.field else ""

    @property
    def in_record(self) -> str:
        """The hand part: '第3局台下得分', '第3局', the setting as written in its file ('[rules] must_play'), or ''
        for the record as a whole."""
        if self.setting is not None:
            return f"[{self.setting[0]}] {self.setting[1]}"
        return "" if self.hand is None else f"第{self.hand}局{self.label}"

    @property
    def key(self) -> str | None:
        """The field, or the setting as 'section.key' ('rules.must_play'): the error object's "field"."""
        return self.field if self.setting is None else ".".join(self.setting)


@dataclass(frozen=True)
class Issue:
    """One thing a user can fix: where (`place`) and what is wrong (`detail`, a Chinese sentence without the place)."""

    place: Place
    detail: str

    # --- constructors ---

    @classmethod
    def plain(cls, detail: str) -> Issue:
        """A sentence that names no place (or names it in its own words)."""
        return cls(Place(), detail)

    @classmethod
    def of_file(cls, file: object, detail: str) -> Issue:
        """About a file as a whole; `file` as the user gave it (a path is shown as given)."""
        return cls(Place(file=str(file)), detail)

    @classmethod
    def of_cell(cls, file: str, sheet: str | None, cell: Cell | None, detail: str) -> Issue:
        """About a sheet of a workbook (a cell of it, when known), or a cell of a CSV file (no sheet)."""
        return cls(Place(file=file, sheet=sheet, cell=cell), detail)

    @classmethod
    def of_setting(cls, file: object, section: str, key: str, detail: str) -> Issue:
        """About one setting of a settings file: `key` of `[section]` in event.toml (the detail without the key)."""
        return cls(Place(file=str(file), setting=(section, key)), detail)

    @classmethod
    def of_hand(cls, hand: int | None, field: str | None, detail: str) -> Issue:
        """About a hand of a match record (1-based; None: the record as a whole) and one of its fields."""
        return cls(Place(hand=hand, field=field), detail)

    def placed(self, **parts: object) -> Issue:
        """The same issue with parts of its place set: `issue.placed(hand=3)`, `issue.placed(file="bad.json")`."""
        return replace(self, place=replace(self.place, **parts))  # type: ignore[arg-type]  # Place's own fields, by name

    # --- the place's parts, read through ---

    @property
    def file(self) -> str | None:
        return self.place.file

    @property
    def sheet(self) -> str | None:
        return self.place.sheet

    @property
    def cell(self) -> Cell | None:
        return self.place.cell

    @property
    def hand(self) -> int | None:
        return self.place.hand

    @property
    def field(self) -> str | None:
        return self.place.field

    @property
    def setting(self) -> tuple[str, str] | None:
        return self.place.setting

    @property
    def row(self) -> int | None:
        return self.place.cell.row if self.place.cell else None

    @property
    def where(self) -> str:
        return self.place.where

    @property
    def in_words(self) -> str:
        return self.place.in_words

    @property
    def label(self) -> str:
        return self.place.label

    # --- rendering (at the edges only) ---

    @property
    def message(self) -> str:
        """The hand part and the detail: '第3局台下得分：<detail>', '第3局：<detail>', or the detail alone."""
        return f"{self.place.in_record}：{self.detail}" if self.place.in_record else self.detail

    @property
    def in_hand(self) -> str:
        """Where the hand is already named (its row in a score sheet): '台下得分：<detail>' or the detail alone."""
        return f"{self.label}：{self.detail}" if self.label else self.detail

    def __str__(self) -> str:
        """'round-1.xlsx 第3桌!D9：<detail>', 'bad.json：第3局台下得分：<detail>', '第3局台下得分：<detail>', or the
        detail alone."""
        return f"{self.where}：{self.message}" if self.where else self.message

    def as_json(self) -> dict[str, object]:
        """THE error object (docs/README.md): `{"message", "file", "sheet", "cell", "hand", "field"}`, every key
        present, None (null) where unknown. "message" is `message` (the hand part and the detail) and never names the
        file, sheet or cell — those are keys of their own (the terminal's `str(issue)` joins them); "cell" is the A1
        text ("D9", "A5:C5"; a CSV file's cell too, which the terminal shows as 第9行第4列); "field" is a setting's
        'section.key' ("rules.must_play") for an issue of a settings file."""
        return {"message": self.message, "file": self.file, "sheet": self.sheet,
                "cell": str(self.cell) if self.cell is not None else None, "hand": self.hand, "field": self.place.key}

    def order(self) -> tuple[str, int, int]:
        """Sheet, then reading order (row, column); issues without a cell first."""
        return (self.sheet or "", self.cell.row if self.cell else 0, self.cell.column if self.cell else 0)


ERROR_KEYS = ("message", "file", "sheet", "cell", "hand", "field")  # the error object's keys, in its order


def issues_json(issues: Iterable[Issue]) -> dict[str, object]:
    """`{"errors": [error object, …]}`: what the table and desk APIs answer when they refuse, and a match record
    that does not replay (`shuangsheng.game.match.result_as_json`)."""
    return {"errors": [issue.as_json() for issue in issues]}


def failure_json(issues: Iterable[Issue], *, heading: str | None = None, hint: str | None = None) -> dict[str, object]:
    """A command's `--json` failure (exit 1; docs/README.md): `{"errors": [error object, …], "heading", "hint"}`,
    both texts None (null) when the error has none."""
    return {**issues_json(issues), "heading": heading, "hint": hint}


def as_issues(items: Iterable[Issue | str]) -> tuple[Issue, ...]:
    """Records as they are; a sentence that names no place becomes an Issue with an empty Place."""
    return tuple(item if isinstance(item, Issue) else Issue.plain(item) for item in items)


class UserError(Exception):
    """The one base class of everything a user can fix: every `Issue` found (all at once), each field of its own —
    a `heading` over them ('第1轮的签号有误：'), `details` behind them (the problems that keep a match open, shown
    indented) and a `hint` after them (what to do) — when the error has one. The CLI renders `messages`, exits 1."""

    def __init__(self, issues: Iterable[Issue | str], *, heading: str | None = None,
                 details: Iterable[Issue] = (), hint: str | None = None):
        if isinstance(issues, str):
            raise TypeError("UserError takes a list of issues, not one text")
        self.issues: tuple[Issue, ...] = as_issues(issues)
        self.heading = heading
        self.details: tuple[Issue, ...] = tuple(details)
        self.hint = hint
        super().__init__()  # no args: OSError would read two of them as (errno, strerror); str() renders the issues

    @property
    def messages(self) -> list[str]:
        """The terminal's lines: the heading, each issue, each detail (indented), the hint."""
        return [*((self.heading,) if self.heading else ()), *(str(issue) for issue in self.issues),
                *(f"  {detail}" for detail in self.details), *((self.hint,) if self.hint else ())]

    def __str__(self) -> str:
        return "\n".join(self.messages)

    def as_json(self) -> dict[str, object]:
        """`failure_json`: every issue, then every detail, as error objects; the heading and the hint apart."""
        return failure_json((*self.issues, *self.details), heading=self.heading, hint=self.hint)


def located(issues: Sequence[Issue], file: str, sheet: str | None = None) -> tuple[Issue, ...]:
    """The issues, each placed in `file` (and `sheet`) where it named no file itself."""
    return tuple(i if i.file else i.placed(file=file, sheet=sheet or i.sheet) for i in issues)


SHOWN_CHARACTERS = 40
SHOWN_PROBLEMS = 20  # a table's problems listed in the terminal and on paper; the checked copy marks them all


def shown(value: object) -> str:
    """A value as quoted in a message: its repr cut to 40 characters; safe for a number of 5,000 digits (whose
    text Python refuses to build) and for a deeply nested list."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"一个约 {int(value.bit_length() * 0.30103) + 1} 位的数"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"
