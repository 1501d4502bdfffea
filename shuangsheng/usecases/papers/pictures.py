"""The phone pictures as generated files of the event folder (`stem`.png, `stem`-2.png, …): each written only when
the file there is not already this picture, unedited (the PNG carries the fingerprint of the page it was drawn
from, `shuangsheng.render.materials.picture.drawn_from`), and the parts of an earlier, taller picture removed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from shuangsheng.render.materials.picture import Picture, drawn_from
from shuangsheng.storage.ledger.generated import is_generated, remove_generated, write_generated
from shuangsheng.storage.names import picture_name


def write_pictures(folder: Path, stem: str, pictures: Sequence[Picture], *, force: bool = False) -> tuple[Path, ...]:
    """The pictures as generated files of the event folder (`stem`.png, `stem`-2.png, …), each drawn only when
    the file there is not already this picture, unedited."""
    paths = []
    for k, picture in enumerate(pictures, start=1):
        path = folder / picture_name(stem, k)
        if drawn_from(path) != picture.source or not is_generated(path):
            write_generated(path, picture.png(), force=force)
        paths.append(path)
    _remove_stale_parts(folder, stem, len(pictures) + 1)
    return tuple(paths)


def _remove_stale_parts(folder: Path, stem: str, first: int) -> None:
    """Parts from an earlier, taller picture (成绩公告-3.png when two parts are drawn now) are removed while they
    are ours and unedited, so the folder never holds a stale part beside the new ones."""
    part = first
    while remove_generated(folder / picture_name(stem, part)):
        part += 1
