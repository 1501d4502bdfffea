"""The 扫码单 as a file of the event folder: `第N轮扫码单.pdf` with event.toml's title and font, what `serve --lan`
writes when it starts and after each draw (shuangsheng/hall/qr_watch.py), and the sheet printed again for new
codes at the address it carries (`rebuild`). Reads event.toml and the sheet; writes the sheet."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from shuangsheng.knockout.knockout import Round
from shuangsheng.render.materials.fonts import choose_fonts
from shuangsheng.render.materials.qr_sheet import qr_sheet_pdf, sheet_address
from shuangsheng.storage import event as event_file
from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.generated import write_generated
from shuangsheng.storage.names import TEAMS_FILE, qr_sheet_name
from shuangsheng.usecases.folder import event_digits, recorded_draws
from shuangsheng.vocabulary.errors import UserError


def render_qr_sheet(folder: Path, round_: Round, codes: Mapping[int, str], base_url: str, *,
                    invariant: bool = False) -> tuple[Path, bytes]:
    """Where the 扫码单 of `round_` of the event in `folder` goes (`第N轮扫码单.pdf` in the folder) and its bytes,
    with the title and font of event.toml (raises its UserError). What `serve --lan` writes, through the ledger's
    generated-file writer, when it starts and after each draw (shuangsheng/hall/qr_watch.py)."""
    event = event_file.load(folder)
    data = qr_sheet_pdf(event, round_, codes, base_url, fonts=choose_fonts(None, event.print.font),
                        invariant=invariant, digits=field_digits(folder, round_))
    return folder / qr_sheet_name(round_.number), data


def field_digits(folder: Path, round_: Round) -> int:
    """How wide the event's 组号 are printed: the event's one width (`event_digits`) of teams.xlsx's list and
    event.db's draws, as every paper has it (of the round's own teams and the draws while teams.xlsx cannot be
    read). Written beside a running server, so the folder is not opened whole."""
    try:
        listed = [t.id for t in workbook.read_teams(folder / TEAMS_FILE)]
    except (UserError, OSError):
        listed = []
    return event_digits(listed, (round_,), recorded_draws(folder).values())


def reprint_qr_sheet(path: Path, round_: Round, codes: Mapping[int, str]) -> Path | None:
    """The 扫码单 at `path` (of the event in its folder) printed again for `codes`, at the address it carries (the
    LAN address `serve --lan` had when it wrote it): `rebuild` gives a lost ledger's tables new codes. Written
    through the ledger (raises its UserError); None, writing nothing, when no address can be read from it."""
    base_url = sheet_address(path.read_bytes())
    if base_url is None:
        return None
    folder = path.parent
    _, data = render_qr_sheet(folder, round_, codes, base_url)
    return write_generated(path, data, force=True)  # whatever it is: the codes on it are dead
