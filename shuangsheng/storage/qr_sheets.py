"""The 扫码单 files of rounds whose draw is no longer in force. `serve --lan` writes `第N轮扫码单.pdf` for each round
drawn while it runs (shuangsheng/usecases/papers/qr_sheet.py, shuangsheng/hall/qr_watch.py); `draw --redo N` voids every round after N, and
the codes on those rounds' sheets stop working. Such a sheet is removed while it is exactly what the program wrote
(event.db's fingerprint), so nobody prints and hands out dead codes; one a person edited, or one the system will not
let go of now (open in a PDF reader on Windows), is kept and said in one line naming it.

Touches those files and event.db (through `shuangsheng.storage.ledger`); their names are in
`shuangsheng.storage.names`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.generated import Removal, discard_generated
from shuangsheng.storage.names import qr_sheet_name, qr_sheet_round, round_papers, score_cards_name
from shuangsheng.vocabulary.errors import Issue


@dataclass(frozen=True)
class VoidedSheet:
    """The 扫码单 of a voided round found in the folder, and what became of it (REMOVED, EDITED or REFUSED)."""

    number: int
    path: Path
    removal: Removal

    @property
    def kept(self) -> bool:
        return self.removal is not Removal.REMOVED

    def line(self) -> str:
        """One line for the command's output or serve's console."""
        if self.removal is Removal.REMOVED:
            return f"已删除 {self.path}（第{self.number}轮的抽签已作废{self._dead_codes}）"
        dead = f"第{self.number}轮的抽签已作废，{self._this}"
        if self.removal is Removal.EDITED:
            detail = f"{dead}；它和本程序生成的不一样（可能有人改动过），所以没有删除。请不要打印或发放它，把它删掉或移走"
        else:
            viewer = " Excel " if self.path.suffix == ".xlsx" else " PDF 阅读器"
            detail = f"{dead}，但现在无法删除（可能正在{viewer}中打开）。请关闭后把它删掉，不要打印或发放"
        return str(Issue.of_file(self.path, detail))

    @property
    def _dead_codes(self) -> str:
        if qr_sheet_round(self.path.name) is not None:
            return "，上面的二维码已不能用"
        return "，上面的录分码已不能用" if self.path.name == score_cards_name(self.number) else ""

    @property
    def _this(self) -> str:
        if qr_sheet_round(self.path.name) is not None:
            return "这张扫码单上的二维码已不能用"
        return "这份文件也已作废" + self._dead_codes


def remove_voided(folder: Path, rounds: Iterable[int], book: Ledger | None = None, *,
                  papers: bool = False) -> tuple[VoidedSheet, ...]:
    """The 扫码单 of each voided round in `rounds` (with `papers`, every file the program made for it:
    `names.round_papers`) removed while it is ours and unedited (recorded in `book`, the folder's event.db when the
    caller has it open); one record per file found."""
    found = []
    for number in sorted(set(rounds)):
        paths = round_papers(folder, number) if papers else [folder / qr_sheet_name(number)]
        for path in paths:
            removal = discard_generated(path, book) if path.exists() else Removal.ABSENT
            if removal is not Removal.ABSENT:
                found.append(VoidedSheet(number, path, removal))
    return tuple(found)


def recorded_rounds(folder: Path) -> set[int]:
    """The rounds whose 扫码单 event.db records as written by the program and not removed since (empty when there
    is no readable event.db)."""
    book = Ledger.existing(folder)
    if book is None:
        return set()
    try:
        with book:
            names = book.generated()
    except sqlite3.Error:
        return set()
    return {n for n in map(qr_sheet_round, names) if n is not None}
