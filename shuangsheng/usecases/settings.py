"""The console's 设置 page: event.toml as a form and the form saved (`shuangsheng.storage.settings`), the save made
while holding the event folder as every file-writing command does (`shuangsheng.usecases.holding.held`). Reads and
writes event.toml (and its dated copy) only."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from shuangsheng.storage import settings
from shuangsheng.storage.settings import SavedSettings, SettingsForm
from shuangsheng.usecases.holding import held


def settings_form(folder: Path) -> SettingsForm:
    """Every key of event.toml as a field (`storage.settings.read_settings`)."""
    return settings.read_settings(folder)


def save_settings(folder: Path, values: Mapping[str, str], fingerprint: str, *, patience: float | None = None,
                  waiting: Callable[[str], None] | None = None) -> SavedSettings:
    """The form's values written into event.toml (`storage.settings.save_settings`), holding the folder as every
    front end does (`usecases.holding.held`: `patience` seconds for a command holding it, `waiting` told who holds
    it meanwhile, then `FolderBusy` naming it). A change of `[rules]` after a round
    was scored is written all the same: the rounds scored keep the rules they were scored with until `score
    --accept-rules` (`SavedSettings.rules_changed` says which keys changed, for the page to explain it)."""
    with held(folder, patience=patience, waiting=waiting):
        return settings.save_settings(folder, values, fingerprint)
