"""The events under the console's root folder (a folder `双升级比赛` in the user's Documents): each sub-folder
holding an `event.toml`, summed up for the 活动 page; and the folder a new event gets from the name typed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.storage.event import load
from shuangsheng.storage.names import EVENT_FILE, rounds_drawn
from shuangsheng.usecases.demo import is_demo_folder
from shuangsheng.vocabulary.errors import Issue, UserError

MAX_NAME = 40  # characters of an event's folder name
NOT_IN_NAME = re.compile(r'[<>:"/\\|?*\x00-\x1f]')  # what Windows refuses in a file name


@dataclass(frozen=True, kw_only=True)
class EventSummary:
    name: str  # the folder's name
    folder: Path
    title: str  # event.toml's title ('' when it cannot be read)
    rounds: int  # rounds drawn so far
    problem: str | None  # why event.toml cannot be read, when it cannot
    demo: bool  # a sample event the demo made


def summary(folder: Path) -> EventSummary:
    try:
        title, problem = load(folder).title, None
    except UserError as exc:
        title, problem = "", "；".join(exc.messages)
    return EventSummary(name=folder.name, folder=folder, title=title, rounds=rounds_drawn(folder), problem=problem,
                        demo=is_demo_folder(folder))


def events_under(root: Path) -> tuple[EventSummary, ...]:
    """Every event folder directly under `root`, by name; none when `root` is not there yet."""
    try:
        folders = sorted(p for p in root.iterdir() if (p / EVENT_FILE).is_file())
    except OSError:
        return ()
    return tuple(summary(p) for p in folders)


def new_event_folder(root: Path, name: str) -> Path:
    """The folder for a new event named `name` under `root`; UserError (field "name") when the name cannot be a
    folder's or is taken."""
    name = name.strip()
    problem = None
    if not name:
        problem = "请填写比赛的名称，例如 2026年秋季双升级比赛"
    elif len(name) > MAX_NAME:
        problem = f"名称太长（{len(name)}个字），请不超过{MAX_NAME}个字"
    elif NOT_IN_NAME.search(name) or name.strip(". ") != name:
        problem = '名称里不能有 < > : " / \\ | ? * 这些符号，也不能以点或空格开头、结尾'
    elif (root / name).exists():
        problem = f"“{name}”已经有了：请换一个名称，或在上面的列表里打开它"
    if problem is not None:
        raise UserError([Issue.of_hand(None, "name", problem)])
    return root / name
