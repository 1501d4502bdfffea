"""The 扫码单 kept in step with the draws while `serve --lan` runs (docs/hall-setup.md: `第N轮扫码单.pdf` is written
when serve starts and whenever a round is drawn while it runs).

`QrWatch.start()` writes the newest round's sheet, then a daemon thread reads a cheap mark of event.db's draws and
codes (`draws_mark`) every `poll` seconds. When the mark moves (a `draw` of the next round, a `draw --redo N`
that gave tables new codes, codes made for a round drawn before codes existed) it reads the draws in force, renders
the sheet of each round whose draw or codes changed, and writes it through `write_generated` holding the folder
(`exclusive`) only while writing, waiting at most `wait` seconds: a folder held by another command (the
`draw` itself, while it writes its papers) is tried again on the next poll. A sheet a person edited is kept and said,
as at the start. The sheet of a round whose draw is voided (`draw --redo N` voids the rounds after N) is removed
while it is as written (shuangsheng/storage/qr_sheets.py), so nobody hands out its dead codes; one a person edited is kept and
said. What it could not do is said once on the console and tried again; it never blocks the server.

Touches event.db (through shuangsheng.storage.ledger), reads event.toml, writes (and removes) `第N轮扫码单.pdf` and the folder's
lock file.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.knockout.knockout import Round
from shuangsheng.storage import qr_sheets
from shuangsheng.storage.files import OutputExists
from shuangsheng.storage.ledger.generated import Removal, write_generated
from shuangsheng.storage.ledger.lock import FolderBusy, exclusive
from shuangsheng.storage.ledger.marks import draws_in_force, draws_mark
from shuangsheng.usecases.papers.qr_sheet import render_qr_sheet
from shuangsheng.vocabulary.errors import Issue, UserError

POLL_SECONDS = 2.0  # how often event.db's mark is read
LOCK_WAIT = 0.5  # how long a write waits for the folder before trying again on the next poll
JOIN_SECONDS = 10.0  # stop() waits this long for a write in progress (an atomic write: nothing half-written anyway)

KEPT = ("这个文件和本程序上次生成的不一样（可能有人改动过），为免丢失改动没有覆盖；要换成新的扫码单，请把它改名或移走，"
        "再重新启动 serve")

RETRY = "（扫码单没有写好；serve 每隔几秒会再试一次，写好后会在这里说明）"


class Poll(enum.Enum):
    """What one look at event.db did (for the tests; the console hears about writes and problems)."""

    UNCHANGED = "unchanged"  # the mark did not move since the last complete pass
    UNREADABLE = "unreadable"  # event.db or event.toml could not be read now: tried again
    BUSY = "busy"  # another command holds the folder: tried again
    MOVED = "moved"  # a draw was being recorded while the sheets were rendered: tried again
    DONE = "done"  # every changed round's sheet written and every voided round's removed (or a person's edited one kept)
    FAILED = "failed"  # a sheet could not be written (said): tried again


@dataclass(frozen=True)
class Drawn:
    """A round's draw in force and each table's code then: what a 扫码单 shows."""

    draw: int
    codes: Mapping[int, str]


@dataclass(frozen=True)
class Sheet:
    """A 扫码单 rendered, to be written: its round, what it shows now and what the last one written showed (None:
    a round not seen before), whether it is serve's start-up sheet."""

    number: int
    path: Path
    data: bytes
    drawn: Drawn
    before: Drawn | None
    start: bool = False

    def line(self) -> str:
        """What the serve console says once it is written."""
        n = self.number
        if self.start:
            return f"已生成 {self.path}（每桌一个二维码，打印后放在各桌）"
        if self.before is None:
            why = f"第{n}轮已抽签，请打印后放在各桌"
        else:
            changed = [t for t, code in sorted(self.drawn.codes.items()) if self.before.codes.get(t) != code]
            tables = f"第{'、'.join(str(t) for t in changed)}桌换了新录分码，旧码作废，请重新打印" if changed else "请重新打印"
            why = f"第{n}轮重新抽签：{tables}" if self.drawn.draw != self.before.draw else f"第{n}轮{tables}"
        return f"第{n}轮扫码单已更新：{self.path}（{why}）"


@dataclass
class _Plan:
    mark: tuple[int, int, int]
    drawn: dict[int, Drawn]
    sheets: tuple[Sheet, ...]
    voided: tuple[int, ...] = ()  # rounds whose sheet event.db records, without a draw in force: to be removed


class QrWatch:
    """Keeps `第N轮扫码单.pdf` of the event in `folder` at `base_url` (`http://IP:port`, the LAN address) in step with
    the draws. `say` gets the lines about sheets written, `warn` those about sheets that could not be; `poll` and
    `wait` in seconds."""

    def __init__(self, folder: Path, base_url: str, *, say: Callable[[str], None], warn: Callable[[str], None],
                 poll: float = POLL_SECONDS, wait: float = LOCK_WAIT, invariant: bool = False):
        self.folder = folder
        self.base_url = base_url.rstrip("/")
        self.say, self.warn = say, warn
        self.poll, self.wait = poll, wait
        self.invariant = invariant  # reportlab's repeatable output, for tests
        self._known: dict[int, Drawn] | None = None  # what the sheets written show; None until the start-up one
        self._done: tuple[int, int, int] | None = None  # the mark of the last complete pass
        self._plan: _Plan | None = None  # the sheets rendered for a mark, kept while the folder is busy
        self._said: dict[object, tuple[str, ...]] = {}  # the last problem said, by round (or "folder", "event")
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """The start-up sheet now (when the folder is free), then the watch in a daemon thread."""
        self.poll_once()
        self._thread = threading.Thread(target=self._run, name="qr-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(JOIN_SECONDS)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while not self._stopping.wait(self.poll):
            try:
                self.poll_once()
            except Exception as exc:  # a bug: reported as a command's is, and serve goes on without the watch
                self._give_up(exc)
                return

    def _give_up(self, exc: Exception) -> None:
        from shuangsheng.storage.crash import save_report

        report = save_report(exc, ["shuangsheng serve", f"扫码单 {self.folder}"], self.folder)
        where = f"，错误报告已保存在：{report}" if report is not None else ""
        self.warn(f"扫码单不再自动更新（程序出现了意外错误{where}）；录分不受影响。抽签后请重新启动 serve 以生成新的扫码单")

    def poll_once(self) -> Poll:
        """One look at event.db; the sheets of the rounds whose draw or codes changed written when it moved."""
        mark = draws_mark(self.folder)
        if mark is None:
            return Poll.UNREADABLE
        if mark == self._done:
            return Poll.UNCHANGED
        plan = self._plan if self._plan is not None and self._plan.mark == mark else self._render()
        if plan is None:
            return Poll.UNREADABLE
        self._plan = plan
        try:
            with exclusive(self.folder, wait=self.wait):
                if draws_mark(self.folder) != plan.mark:  # recorded meanwhile: render again from it
                    return Poll.MOVED
                written = [self._write(sheet) for sheet in plan.sheets]
                removed = self._remove_voided(plan.voided)
        except FolderBusy:
            return Poll.BUSY
        except OSError as exc:  # the lock file cannot be made (a folder that cannot be written to)
            self._problem("folder", [f"{self.folder}：扫码单无法写入（{exc.strerror or exc}）。请确认这个文件夹可以写入"])
            return Poll.FAILED
        self._said.pop("folder", None)
        self._plan = None
        unwritten = {s.number for s, ok in zip(plan.sheets, written, strict=True) if not ok}
        if unwritten and self._known is None:  # the start-up sheet: tried again as such
            return Poll.FAILED
        known = {**(self._known or {}), **{n: d for n, d in plan.drawn.items() if n not in unwritten}}
        self._known = {n: d for n, d in known.items() if n in plan.drawn}  # a voided round is new if drawn again
        self._done = None if unwritten or not removed else plan.mark
        return Poll.FAILED if unwritten or not removed else Poll.DONE

    def _render(self) -> _Plan | None:
        """The sheets to write for the draws in force: at the start the newest round's, then each round whose
        draw or codes differ from its last sheet's (a round without codes has no sheet)."""
        found = draws_in_force(self.folder)
        if found is None:
            return None
        mark, records = found
        drawn = {n: Drawn(record.id, codes) for n, (record, codes) in records.items()}
        if self._known is None:
            wanted = [max(drawn)] if drawn else []
        else:
            wanted = [n for n, d in drawn.items() if d != self._known.get(n)]
        try:
            sheets = tuple(self._sheet(records[n][0].round, drawn[n]) for n in wanted if drawn[n].codes)
        except UserError as exc:  # event.toml cannot be read now: said once, tried again
            self._problem("event", exc.messages)
            return None
        self._said.pop("event", None)
        return _Plan(mark, drawn, sheets, tuple(sorted(n for n in qr_sheets.recorded_rounds(self.folder) if n not in drawn)))

    def _sheet(self, round_: Round, drawn: Drawn) -> Sheet:
        path, data = render_qr_sheet(self.folder, round_, drawn.codes, self.base_url, invariant=self.invariant)
        before = None if self._known is None else self._known.get(round_.number)
        return Sheet(round_.number, path, data, drawn, before, start=self._known is None)

    def _write(self, sheet: Sheet) -> bool:
        """Write one sheet (the folder held); False when it could not be and should be tried again."""
        try:
            write_generated(sheet.path, sheet.data, force=False)
        except OutputExists:  # a person's edited sheet is kept and said, as at the start; not tried again
            self._said.pop(sheet.number, None)
            self.warn(str(Issue.of_file(sheet.path, KEPT)))
            return True
        except UserError as exc:  # open in a PDF reader (Windows), the disk full, event.db not writable
            self._problem(sheet.number, [*exc.messages, RETRY])
            return False
        self._said.pop(sheet.number, None)
        self.say(sheet.line())
        return True

    def _remove_voided(self, rounds: tuple[int, ...]) -> bool:
        """Remove the sheets of voided rounds (the folder held): each removed said, each kept said once; False when
        one could not be removed now and should be tried again."""
        again = False
        for sheet in qr_sheets.remove_voided(self.folder, rounds):
            if sheet.kept:
                self._problem(("voided", sheet.number), [sheet.line()])
                again = again or sheet.removal is Removal.REFUSED
            else:
                self._said.pop(("voided", sheet.number), None)
                self.say(sheet.line())
        return not again

    def _problem(self, key: object, lines: list[str]) -> None:
        """Say what went wrong, once: the same problem again on the next poll is not repeated."""
        if self._said.get(key) != tuple(lines):
            for line in lines:
                self.warn(line)
            self._said[key] = tuple(lines)
