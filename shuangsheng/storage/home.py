"""Where the program keeps things in the user's own folders: the events root of the console (a folder `双升级比赛` in
the user's Documents, as Windows reports it — OneDrive may have moved it). Standard library only."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT_NAME = "双升级比赛"  # the events root in the user's Documents (the console's default root, issue 30)
FOLDERID_DOCUMENTS = "{FDD39AD0-238F-46AF-ADB4-6C85480369C7}"


def documents() -> Path:
    """The user's Documents folder: where Windows says it is (OneDrive may have moved it), else ~/Documents."""
    if sys.platform == "win32":
        found = _known_documents()
        if found is not None:
            return found
    return Path.home() / "Documents"


def _known_documents() -> Path | None:  # pragma: no cover - Windows only
    """FOLDERID_Documents through the shell's known-folder API; None when the shell refuses."""
    import ctypes
    import uuid

    guid = (ctypes.c_char * 16).from_buffer_copy(uuid.UUID(FOLDERID_DOCUMENTS).bytes_le)
    path = ctypes.c_wchar_p()
    windll = ctypes.windll  # type: ignore[attr-defined]
    if windll.shell32.SHGetKnownFolderPath(ctypes.byref(guid), 0, None, ctypes.byref(path)) != 0:
        return None
    try:
        return Path(path.value) if path.value else None
    finally:
        windll.ole32.CoTaskMemFree(path)


def events_root() -> Path:
    return documents() / ROOT_NAME


def docs_folder() -> Path | None:
    r"""The organisers' guides (docs/) beside the program: the repository's in a checkout, the installed copy's on
    Windows (the installer puts docs\ beside pkgs\shuangsheng); None where there are none (a plain pip install)."""
    package = Path(__file__).resolve().parents[1]
    for base in (package.parent, package.parent.parent):
        if (base / "docs" / "console.md").is_file():
            return base / "docs"
    return None
