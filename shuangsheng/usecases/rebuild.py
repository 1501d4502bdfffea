"""`shuangsheng rebuild DIR` (docs/ledger.md): a lost ledger built again from the event folder's files.

event.db gone, emptied or damaged where rounds were drawn is refused by every command (`LedgerLost`): the
entry codes printed on the 计分卡, the phones' entries and the draws' records were only there. When no copy of it
can be put back, this builds a new one: the lost file is kept under another name (`Ledger.rebuilt`), the round
workbooks' draws are recorded as an old folder's are (`shuangsheng.usecases.folder.adopt_rounds`), every round gets new entry codes
(the printed ones are dead, and a new code never repeats one of this ledger), and the current round's 对阵表 and
计分卡 are printed again with them (its 扫码单 too, at the address it carried). What the phones entered is gone:
the signed paper cards are the record, typed into the round workbooks.

The reprint is the last step, logged when done (`rebuild_done`): stopped before it (a PDF open in a viewer), the
same command run again on the rebuilt ledger completes it. Touches event.db (through `shuangsheng.storage.ledger`) and the
current round's papers (through the writers it is given).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shuangsheng.knockout.knockout import Round
from shuangsheng.storage import event as event_file
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.generated import Removal, discard_generated
from shuangsheng.storage.ledger.lock import clean_temporary
from shuangsheng.storage.ledger.lost import LedgerLost, Loss
from shuangsheng.storage.names import DB_NAME, qr_sheet_name, round_file
from shuangsheng.storage.workbook import RoundSheet
from shuangsheng.usecases.draw import PapersWriter, complete_draw, table_codes
from shuangsheng.usecases.folder import TournamentError, adopt_rounds, open_folder
from shuangsheng.vocabulary.errors import Issue, UserError
from shuangsheng.vocabulary.text import command_line

# Prints the 扫码单 at `path` again for these codes at the address it carried; None when it shows no address
SheetWriter = Callable[[Path, Round, Mapping[int, str]], Path | None]


@dataclass(frozen=True)
class Sheet:
    """The current round's 扫码单 found in the folder, and what became of it."""

    path: Path
    written: bool  # printed again with the new codes, at the address it carried
    removal: Removal | None = None  # not written (no address on it): removed, or kept and why
    problems: tuple[str, ...] = ()  # why it could not be written

    def lines(self) -> list[str]:
        if self.written:
            return [f"已重新生成 {self.path}（新的二维码），请重新打印，换下各桌的旧扫码单"]
        if self.removal is Removal.REMOVED:
            return [f"已删除 {self.path}（上面的二维码已作废）；重新启动 serve --lan 时会生成新的扫码单"]
        return [*self.problems, str(Issue.of_file(self.path, "上面的二维码已作废，没能换成新的：请不要打印或发放它，"
                                                  "把它删掉或移走；重新启动 serve --lan 时会生成新的扫码单"))]


@dataclass(frozen=True, kw_only=True)
class Rebuilt:
    """What `rebuild` did: nothing when event.db was whole (`loss` None and nothing to complete)."""

    folder: Path
    loss: Loss | None = None
    aside: Path | None = None  # the lost file, kept under this name (None: it was not there)
    rounds: tuple[int, ...] = ()  # the rounds whose draws were taken from their workbooks
    number: int = 0  # the current round: its papers printed again with its new codes
    codes: Mapping[int, str] = field(default_factory=dict)
    papers: object = None  # what the papers writer returned
    papers_problems: tuple[str, ...] = ()  # why the papers were not written (run `rebuild` again)
    sheet: Sheet | None = None
    completed: bool = False  # an earlier rebuild's reprint completed (the ledger was rebuilt before)

    @property
    def needed(self) -> bool:
        return self.loss is not None or self.completed



def rebuild(folder: Path, *, papers: PapersWriter, sheet: SheetWriter | None = None) -> Rebuilt:
    """Build the lost event.db of `folder` again from its files and print the current round's papers with new
    codes (see the module's docstring); on a whole event.db, complete an earlier rebuild's reprint, else do nothing.
    The folder must be held. Raises TournamentError, changing nothing, when the folder cannot be read (a round
    workbook broken or missing): what the draws would be rebuilt from."""
    event_file.load(folder)  # an event folder (its event.toml readable): nowhere else is event.db made
    lost = _lost(folder)
    if lost is None:
        return _completed(folder, papers=papers, sheet=sheet)
    state = open_folder(folder)  # with the lost ledger unread: every problem named before any change
    if not state.rounds:
        raise TournamentError([Issue.of_file(folder, (
            f"找不到 {round_file(1)}：比赛记录要按各轮的记分表重建。请先把各轮的 round-N.xlsx 放回这个文件夹，"
            f"再运行 {command_line('rebuild', folder)}"))])
    book, aside = Ledger.rebuilt(folder)
    with book:
        clean_temporary(folder)
        adopt_rounds(folder, book, known=state.rounds)
        draws = book.draws()
        for record in draws.values():  # every round: the codes printed on its cards are dead
            table_codes(book, record.id, record.round)
        book.log("rebuild", loss=lost.loss.name, aside=aside.name if aside else None, rounds=sorted(draws))
    done = _reprint(folder, papers=papers, sheet=sheet, known=state.rounds)
    return Rebuilt(folder=folder, loss=lost.loss, aside=aside, rounds=tuple(sorted(draws)), number=done.number,
                   codes=done.codes, papers=done.papers, papers_problems=done.papers_problems, sheet=done.sheet)


def _lost(folder: Path) -> LedgerLost | None:
    """The lost ledger's refusal, None when event.db opens (an old folder's is built as any command would)."""
    try:
        with Ledger.open(folder):
            return None
    except LedgerLost as lost:
        return lost


def _completed(folder: Path, *, papers: PapersWriter, sheet: SheetWriter | None) -> Rebuilt:
    """A whole event.db: an earlier rebuild whose reprint did not finish is completed; otherwise nothing to do."""
    with Ledger.open(folder) as book:
        unfinished = len(book.entries("rebuild")) > len(book.entries("rebuild_done"))
    if not unfinished:
        return Rebuilt(folder=folder)
    done = _reprint(folder, papers=papers, sheet=sheet)
    return Rebuilt(folder=folder, number=done.number, codes=done.codes, papers=done.papers,
                   papers_problems=done.papers_problems, sheet=done.sheet, completed=True)


def _reprint(folder: Path, *, papers: PapersWriter, sheet: SheetWriter | None,
             known: Sequence[RoundSheet] = ()) -> Rebuilt:
    """The current round's 对阵表 and 计分卡 (and 扫码单) printed with its codes in force; logged once done (`known`:
    the rounds read already)."""
    state = open_folder(folder, known=known)
    with Ledger.open(folder) as book:
        draws = book.draws()
        record = draws[max(draws)]
        report = complete_draw(state, book, record)
        try:
            written = papers(report)
        except UserError as exc:  # a PDF open in a viewer, the disk full: `rebuild` again completes it
            return Rebuilt(folder=folder, number=record.round.number, codes=report.codes, papers_problems=tuple(exc.messages))
        found = _sheet(folder, book, record.round, report.codes, sheet)
        book.log("rebuild_done", round=record.round.number)
    return Rebuilt(folder=folder, number=record.round.number, codes=report.codes, papers=written, sheet=found)


def _sheet(folder: Path, book: Ledger, round_: Round, codes: Mapping[int, str],
           writer: SheetWriter | None) -> Sheet | None:
    """The current round's 扫码单, when there is one: printed again at its address, or removed (its codes are dead)."""
    path = folder / qr_sheet_name(round_.number)
    if not path.exists():
        return None
    problems: tuple[str, ...] = ()
    try:
        if writer is not None and writer(path, round_, codes) is not None:
            return Sheet(path, True)
    except UserError as exc:  # open in a PDF reader (Windows), the disk full
        problems = tuple(exc.messages)
    removal = discard_generated(path, book) if not problems else Removal.REFUSED
    return Sheet(path, False, removal, problems)


def rebuilt_lines(done: Rebuilt) -> list[str]:
    """What `rebuild` says, in order: what was rebuilt, the papers, the phones' entries lost, the next step."""
    folder = done.folder
    if not done.needed:
        return [f"{folder / DB_NAME} 完好，不需要重建（什么也没有改动）"]
    lines = []
    if done.loss is not None:
        kept = f"，已改名为 {done.aside.name} 保留" if done.aside is not None else ""
        rounds = "、".join(round_file(n) for n in done.rounds)
        lines.append(f"已按活动文件夹里的文件重建比赛记录 {folder / DB_NAME}（原来的 {DB_NAME} "
                     f"{done.loss.value}{kept}）；各轮抽签取自 {rounds}")
        lines.append("各轮都换了新的录分码，计分卡上原来印的录分码已作废（手机输入旧码会提示录分码不对）")
    n = done.number
    if done.papers_problems:
        return [*lines, *(f"第{n}轮的对阵表/计分卡没有重新生成：{line}" for line in done.papers_problems),
                f"解决上面的问题后再运行 {command_line('rebuild', folder)}，会用同样的新录分码补印"]
    lines.extend(f"已重新生成 {path}" for path in getattr(done.papers, "paths", ()))
    lines.append(f"第{n}轮计分卡印上了新的录分码：请重新打印（双面打印），换下各桌的旧计分卡")
    lines.extend(done.sheet.lines() if done.sheet is not None else ())
    return [*lines, *_after(folder, n)]


def _after(folder: Path, number: int) -> list[str]:
    return [
        "手机录入的各局随原来的记录一起丢失，无法找回：以双方签字的纸质计分卡为准，把各局录入记分表"
        f"（第{number}轮的 {round_file(number)}；之前各轮用手机录入的桌也一样）",
        "shuangsheng serve 如果正开着，请关掉后重新启动",
        f"下一步：录入之后运行 {command_line('score', folder)}",
    ]
