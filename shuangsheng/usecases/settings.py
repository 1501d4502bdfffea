"""The console's 设置 page: event.toml as a form and the form saved (`shuangsheng.storage.settings`), the save made
while holding the event folder as every file-writing command does (a command running meanwhile is waited for, then
named). Reads and writes event.toml (and its dated copy) only."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from shuangsheng.storage import settings
from shuangsheng.storage.ledger.lock import exclusive
from shuangsheng.storage.settings import SavedSettings, SettingsForm


def settings_form(folder: Path) -> SettingsForm:
    """Every key of event.toml as a field (`storage.settings.read_settings`)."""
    return settings.read_settings(folder)


def save_settings(folder: Path, values: Mapping[str, str], fingerprint: str, *, wait: float | None = None) -> SavedSettings:
    """The form's values written into event.toml (`storage.settings.save_settings`), holding the folder (`wait`:
    seconds to wait for a command holding it, then `FolderBusy` naming it). A change of `[rules]` after a round
    was scored is written all the same: the rounds scored keep the rules they were scored with until `score
    --accept-rules` (`SavedSettings.rules_changed` says which keys changed, for the page to explain it)."""
    with exclusive(folder, wait=wait):
        return settings.save_settings(folder, values, fingerprint)
