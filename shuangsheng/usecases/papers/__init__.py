"""The printed papers and the phone pictures, written into the event folder: each drawn by its renderer in
`shuangsheng/render/materials/` and written through the ledger's writer of generated files
(`shuangsheng.storage.ledger.generated`: replaced while it is what the program last wrote, kept once a person
edited it unless forced), under its name from `shuangsheng.storage.names`. One module per command's papers, so that
a command loads only its own renderers: `draw` (对阵表, 计分卡; with round 1 the 秩序册 again), `score` (第N轮成绩,
加赛单 and its picture), `ending` (晋级图, 成绩公告, 荣誉证书, 成绩册 and the announcement's picture), `materials`
(the seven printed materials and the 秩序册),
`pictures` (the PNGs of both) and `qr_sheet` (the 扫码单 `serve --lan` writes and `rebuild` prints again)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from shuangsheng.storage.files import OutputExists
from shuangsheng.storage.ledger.generated import check_regenerable

if TYPE_CHECKING:
    from shuangsheng.render.materials.fonts import FontSet


class PrintOptions(TypedDict):
    """What every printed document's renderer takes besides its content: the fonts, the folder of the wording
    organisers may edit, and `invariant` (the same bytes on every run)."""

    fonts: FontSet
    template_dir: Path
    invariant: bool


def edited(path: Path, *, force: bool) -> bool:
    """A booklet (秩序册, 成绩册) a person changed since it was written (or never ours), and not `force`: kept, and
    said (`kept_line`), without stopping the papers printed with it."""
    try:
        check_regenerable(path, force=force)
    except OutputExists:
        return True
    return False


def kept_line(name: str, *, what: str = "要重新生成", again: str = "再打印一次材料") -> str:
    """The line saying the booklet `name` a person changed was kept: `what` it misses, and how to print it again
    (move it away and `again`, or the command line's --force)."""
    return (f"{name} 和上次生成的不一样（可能有人改过），这次没有重写；{what}，请把它改名或移走后{again}"
            "（命令行也可以加 --force）")
