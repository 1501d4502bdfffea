"""What the Windows Start-menu and desktop entry "双升级比赛" runs (packaging/windows/): one double-click, no command.

Until the organiser's console (`shuangsheng start`, issue 30) exists, it runs the hall of the demo event: it makes
the events root (a folder `双升级比赛` in the user's Documents) if absent, the demo event `示例比赛` in it if absent
(`demo`), then `serve`s it on this PC and opens the browser at it. A second double-click finds the running hall
(it answers as ours on the port) and only opens the browser. When the console lands, `commands` is the one place to
change: it becomes `[["start", root]]`."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
import urllib.request
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT_NAME = "双升级比赛"  # the events root in the user's Documents (the console's default root, issue 30)
DEMO_NAME = "示例比赛"  # the demo event the hall serves until the console lands
PORT = 8000  # serve's default port
URL = f"http://127.0.0.1:{PORT}/"
SERVER_NAMES = ("shuangsheng-serve", "shuangsheng-show")  # the Server header our halls answer with
WAIT_SECONDS = 60.0  # how long the browser waits for the hall to answer before it is opened anyway
FOLDERID_DOCUMENTS = "{FDD39AD0-238F-46AF-ADB4-6C85480369C7}"


def documents() -> Path:
    """The user's Documents folder: where Windows says it is (OneDrive may have moved it), else ~/Documents."""
    if sys.platform == "win32":
        found = _known_documents()
        if found is not None:
            return found
    return Path.home() / "Documents"


def _known_documents() -> Path | None:  # pragma: no cover - Windows only
    """FOLDERID_Documents through the shell's known-folder API; None when the shell refuses."""
    import ctypes
    import uuid

    guid = (ctypes.c_char * 16).from_buffer_copy(uuid.UUID(FOLDERID_DOCUMENTS).bytes_le)
    path = ctypes.c_wchar_p()
    windll = ctypes.windll  # type: ignore[attr-defined]
    if windll.shell32.SHGetKnownFolderPath(ctypes.byref(guid), 0, None, ctypes.byref(path)) != 0:
        return None
    try:
        return Path(path.value) if path.value else None
    finally:
        windll.ole32.CoTaskMemFree(path)


def events_root() -> Path:
    return documents() / ROOT_NAME


def hall_running(url: str = URL, timeout: float = 2.0) -> bool:
    """Whether one of our halls answers at `url` (its Server header), not merely anything on the port."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout) as response:
            server = response.headers.get("Server", "")
    except OSError:  # nothing listening, refused, timed out — or an HTTP error from another program
        return False
    return server.strip().split("/")[0] in SERVER_NAMES  # "shuangsheng-serve " (an empty sys_version after it)


def commands(root: Path) -> list[list[str]]:
    """The command lines to run, in turn, for a start with no hall running (the last one serves until stopped)."""
    event = root / DEMO_NAME
    steps = [] if (event / "event.toml").is_file() else [["demo", "--out", str(event)]]
    return [*steps, ["serve", str(event), "--port", str(PORT)]]


def run_command(argv: Sequence[str]) -> int:
    """One command line of the program, in this process, as typed after `shuangsheng`; its exit code."""
    from shuangsheng.cli import main as cli_main

    saved = sys.argv
    sys.argv = ["shuangsheng", *argv]
    try:
        cli_main()
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.argv = saved
    return 0


def open_when_up(url: str, *, probe: Callable[[str], bool], open_browser: Callable[[str], object],
                 wait: float = WAIT_SECONDS, pause: float = 0.25) -> None:
    """Open the browser at `url` once the hall answers there (or after `wait` seconds, so it is never left unopened)."""
    deadline = time.monotonic() + wait
    while not probe(url) and time.monotonic() < deadline:
        time.sleep(pause)
    open_browser(url)


def launch(root: Path, *, run: Callable[[Sequence[str]], int] = run_command,
           probe: Callable[[str], bool] = hall_running, open_browser: Callable[[str], object] = webbrowser.open,
           in_background: Callable[[Callable[[], None]], object] | None = None) -> int:
    """The launcher's work; its exit code. Every effect is passed in, so tests record what it would do."""
    if probe(URL):
        print(f"双升级比赛已在运行，已在浏览器中打开 {URL}")
        open_browser(URL)
        return 0
    root.mkdir(parents=True, exist_ok=True)
    *first, last = commands(root)
    for argv in first:
        print(f"正在生成示例比赛（{root / DEMO_NAME}），请稍候……")
        if (code := run(argv)) != 0:
            return code
    start = in_background or (lambda work: threading.Thread(target=work, daemon=True).start())
    start(lambda: open_when_up(URL, probe=probe, open_browser=open_browser))
    print("关闭此窗口即停止现场服务")
    return run(last)


def main() -> None:
    """The entry point of the Start-menu entry (a console window): a failure stays on screen until Enter."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    code = launch(events_root())
    if code != 0:
        with contextlib.suppress(EOFError, KeyboardInterrupt):  # no console to read from: nothing to wait for
            input("按回车键关闭此窗口")
    sys.exit(code)
