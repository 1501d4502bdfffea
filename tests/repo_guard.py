"""Fail loudly when anything run by the tests opens a file outside the repository.

A fresh clone has nothing beside it (no ../shared), so a test or module that reads outside the repository passes
on one machine and fails on the next. An audit hook (PEP 578) sees every `open`/`os.open` and every directory
listing in this process; a path outside the allowed places raises `OutsideRead` (not an OSError, so no
`except OSError` swallows it) and is remembered so the test that caused it fails even if something caught it.

Allowed: the repository, the test run's temporary folder (conftest.py points `tempfile` there too), the Python
installation and its site-packages, the places fonts are installed, the kernel's /dev, /proc and /sys, and the
few per-user or system settings files the libraries we use read when imported.
"""

from __future__ import annotations

import mimetypes
import os
import sys
import sysconfig
from collections.abc import Iterable

ENV = "SHUANGSHENG_GUARD_ALLOW"  # os.pathsep-joined allowed roots, for Python subprocesses (see guard/)
EVENTS = frozenset({"open", "os.listdir", "os.scandir"})


class OutsideRead(RuntimeError):
    pass


def python_dirs() -> list[str]:
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    dirs.update(p for p in sysconfig.get_paths().values() if p)
    dirs.update(p for p in sys.path if p and os.path.isdir(p) and "site-packages" in p)
    return sorted(dirs)


FONT_DIRS = (
    "/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.fonts"),
    os.path.expanduser("~/.local/share/fonts"), "/System/Library/Fonts", "/Library/Fonts",
    os.path.join(os.environ.get("WINDIR") or os.environ.get("SYSTEMROOT") or "C:/Windows", "Fonts"),  # any case on Windows
)
KERNEL_DIRS = ("/dev", "/proc", "/sys")
LIBRARY_FILES = (  # read on import: the stdlib's MIME table (by openpyxl), reportlab's per-user settings
    *mimetypes.knownfiles, os.path.expanduser("~/.reportlab_mods"), os.path.expanduser("~/.reportlab_settings"),
)


class Guard:
    def __init__(self, allowed: Iterable[str], files: Iterable[str] = ()):
        self.allowed: tuple[str, ...] = ()
        self.files = frozenset(os.path.realpath(p) for p in files)
        self.active = True
        self.seen: list[str] = []
        self.allow(*allowed)

    def allow(self, *folders: str) -> None:
        self.allowed = tuple(sorted({*self.allowed, *(os.path.realpath(p) for p in folders)}))

    def outside(self, path: object) -> str | None:
        if isinstance(path, int):  # an already open descriptor
            return None
        try:
            real = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return None
        if real in self.files:
            return None
        for root in self.allowed:
            if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
                return None
        return real

    def __call__(self, event: str, args: tuple) -> None:
        if event not in EVENTS or not self.active:
            return
        path = args[0] if args else None
        if path is None:
            path = "."
        real = self.outside(path)
        if real is not None:
            message = f"read outside the repository: {real} ({event})"
            self.seen.append(message)
            raise OutsideRead(message)


def install(allowed: Iterable[str]) -> Guard:
    guard = Guard([*allowed, *python_dirs(), *FONT_DIRS, *KERNEL_DIRS], LIBRARY_FILES)
    sys.addaudithook(guard)
    return guard
