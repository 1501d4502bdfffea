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

if TYPE_CHECKING:
    from shuangsheng.render.materials.fonts import FontSet


class PrintOptions(TypedDict):
    """What every printed document's renderer takes besides its content: the fonts, the folder of the wording
    organisers may edit, and `invariant` (the same bytes on every run)."""

    fonts: FontSet
    template_dir: Path
    invariant: bool
