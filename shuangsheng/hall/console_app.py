"""The organiser's console as it stands (`Console`): the hall it runs in, the events root, who may use it, its
jobs and the forms it has answered; and a console request refused (`Refusal`). The HTTP side is
`shuangsheng.hall.console`, the buttons `shuangsheng.hall.console_buttons`."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from shuangsheng.hall import console_work as work
from shuangsheng.hall.api_common import Request
from shuangsheng.hall.console_gate import Gate
from shuangsheng.hall.console_jobs import Jobs
from shuangsheng.hall.hall import Hall, make_venue
from shuangsheng.hall.qr_watch import QrWatch
from shuangsheng.render.console_page import Action
from shuangsheng.storage.opener import Opener
from shuangsheng.vocabulary.errors import UserError


@dataclass(frozen=True)
class Refusal:
    """A console request refused: its status and what the page says (and where to go from there)."""

    status: int
    message: str
    back: str = "/console"


@dataclass(frozen=True)
class Shown:
    """A button's answer shown on its own page again (a form refused with what was typed, each problem at its field):
    the page, its status and what it shows besides its own facts."""

    status: int
    page: str
    facts: Mapping[str, object]


@dataclass
class Console:
    """One console: the hall it runs in, the events root (None for `serve DIR`: that event only), who may use it,
    its jobs, and how a file is opened in the PC's own program."""

    hall: Hall
    gate: Gate
    root: Path | None
    opener: Opener
    jobs: Jobs = field(default_factory=Jobs)
    inline: bool = False  # run the jobs in the request's thread (tests)
    done: dict[str, str] = field(default_factory=dict)  # form id → where its answer sent the browser
    lan: str | None = None  # the LAN address phones use, once opened
    sheets: QrWatch | None = None  # the open event's 扫码单 at the LAN address, kept in step with its draws

    @property
    def folder(self) -> Path | None:
        venue = self.hall.site.venue
        return venue.folder if venue is not None else None

    def admits(self, request: Request) -> bool:
        """The desk's API: the console's session cookie stands for the PIN."""
        return self.gate.session(request.headers.get("cookie")) is not None

    def open_event(self, folder: Path) -> None:
        """Serve `folder`'s hall from now on (the TV, the phones, the desk), closing the one before."""
        if self.folder == folder:
            return
        self.serve(folder)

    def serve(self, folder: Path) -> None:
        """The hall of `folder` made anew with the hall's options as they are now (the LAN address once opened)."""
        from shuangsheng.storage.event import load

        try:
            desk_lan = load(folder).serve.desk_lan
        except UserError:
            desk_lan = False  # the settings page says what is wrong with event.toml
        self.hall.site.replace(make_venue(folder, self.hall.options, desk_lan=desk_lan))
        self.watch_sheets()

    def watch_sheets(self) -> None:
        """Once the phones are let in: the open event's 扫码单 (QR codes of the LAN address), rewritten as it is drawn."""
        if self.sheets is not None:
            self.sheets.stop()
            self.sheets = None
        if self.lan is not None and self.folder is not None:
            self.sheets = QrWatch(self.folder, self.lan, say=self.jobs.log, warn=self.jobs.log)
            self.sheets.start()

    def stop(self) -> None:
        """Stop the 扫码单's watch and the servers (the open event's ledger checkpointed)."""
        if self.sheets is not None:
            self.sheets.stop()
        self.hall.stop()

    def start(self, form: Mapping[str, str], title: str, job: work.Work, back: str) -> str:
        """Start the job of `form` (or find the one it started) and send the browser to its page."""
        found = self.jobs.start(form.get("id", "") or secrets.token_hex(8), title, job,
                                back=Action("返回", back), inline=self.inline)
        return f"/console/jobs/{found.id}"


