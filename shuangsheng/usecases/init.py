"""`init`: a new event folder — `event.toml` (prefilled from the notice, with comments) and a blank `teams.xlsx`,
and event.db. A file already there is kept (it may be a filled team list); a folder holding both is an event
already and is refused unless `force`, which keeps the old files as dated copies before writing blank ones."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.storage.event import default_text
from shuangsheng.storage.files import keep_copy, write_text
from shuangsheng.storage.names import EVENT_FILE, TEAMS_FILE
from shuangsheng.storage.workbook import write_teams_template
from shuangsheng.usecases.holding import held
from shuangsheng.vocabulary.errors import Issue, UserError
from shuangsheng.vocabulary.text import command_line


class AlreadyAnEvent(UserError, ValueError):
    """The folder holds event.toml and teams.xlsx already: `init` would blank a filled team list."""


@dataclass(frozen=True, kw_only=True)
class Initialised:
    folder: Path
    written: tuple[Path, ...]  # event.toml and/or teams.xlsx, new
    kept: tuple[Path, ...]  # there already, left as they were
    backups: tuple[tuple[Path, Path], ...]  # (original, its dated copy) for each file `force` replaced


def init_event(folder: Path, *, force: bool = False) -> Initialised:
    """Make `folder` an event folder (created if needed)."""
    kept = () if force else tuple(folder / n for n in (EVENT_FILE, TEAMS_FILE) if (folder / n).exists())
    if len(kept) == 2:
        raise AlreadyAnEvent([Issue.of_file(
            folder, f"已经是活动文件夹（{EVENT_FILE} 和 {TEAMS_FILE} 都在），不需要再 init；"
                    f"接着运行 {command_line('materials', folder)} 或 {command_line('draw', folder)}。"
                    f"只有要从头重来时才加 --force：两个文件都会换成空白的（原文件另存为备份）")])
    with contextlib.suppress(OSError):  # held from the start (the lock file lives in it); a failure is said by held
        folder.mkdir(parents=True, exist_ok=True)
    backups: list[tuple[Path, Path]] = []
    written: list[Path] = []
    with held(folder):
        for name in (EVENT_FILE, TEAMS_FILE):
            if force and (folder / name).exists():
                backups.append((folder / name, keep_copy(folder / name)))
        if folder / EVENT_FILE not in kept:
            written.append(write_text(folder / EVENT_FILE, default_text(), force=force))
        if folder / TEAMS_FILE not in kept:
            written.append(write_teams_template(folder / TEAMS_FILE, force=force))
        from shuangsheng.usecases.folder import prepare

        prepare(folder)  # event.db
    return Initialised(folder=folder, written=tuple(written), kept=kept, backups=tuple(backups))
