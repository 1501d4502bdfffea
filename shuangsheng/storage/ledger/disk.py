"""Where the event folder lives: on a local disk event.db's journal is SQLite's WAL, elsewhere (a network share,
where WAL's shared memory does not work) its rollback journal. Reads /proc/self/mountinfo on Linux; asks Windows
what kind of drive a folder is on."""

from __future__ import annotations

import os
from pathlib import Path

# File systems where SQLite's WAL mode cannot work (no shared memory across machines).
NETWORK_FILESYSTEMS = frozenset({
    "nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "afs", "ncpfs", "9p", "ceph", "glusterfs", "davfs",
    "fuse.sshfs", "fuse.rclone", "fuse.davfs2", "fuse.glusterfs", "fuse.s3fs", "lustre", "gpfs", "beegfs",
})


def _mount_types(mountinfo: str) -> list[tuple[str, str]]:
    """(mount point, file-system type) from /proc/self/mountinfo's text (Linux)."""
    mounts = []
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, after = left.split(), right.split()
        if len(fields) >= 5 and after:
            mounts.append((fields[4].replace("\\040", " "), after[0]))
    return mounts


def filesystem_type(folder: Path, mountinfo: str | None = None) -> str | None:
    """The type of the file system holding `folder` on Linux (longest mount point that contains it)."""
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
    target = str(folder.resolve())
    best, kind = "", None
    for point, fs in _mount_types(mountinfo):
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fs
    return kind


def _windows_remote(folder: Path) -> bool:
    anchor = folder.resolve().anchor
    if anchor.startswith(("\\\\", "//")):  # \\server\share
        return True
    import ctypes

    drive_remote = 4
    return ctypes.windll.kernel32.GetDriveTypeW(anchor) == drive_remote  # type: ignore[attr-defined]  # windll: Windows only


def on_local_disk(folder: Path) -> bool:
    if os.name == "nt":
        try:
            return not _windows_remote(folder)
        except (OSError, AttributeError):
            return False  # unsure: the rollback journal works everywhere
    kind = filesystem_type(folder)
    return kind is None or kind not in NETWORK_FILESYSTEMS
