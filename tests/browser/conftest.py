"""A real headless Chromium for the venue display tests, driven by Playwright.

Playwright's own browser download cannot be used: the browser is the system's (Debian: `apt-get install chromium`,
which `.ci/run` does), passed to Playwright through `executable_path`. Without it (or without the `playwright`
package) these tests are skipped and say why. Chromium runs in its own processes: the tests' guard against
reading outside the repository watches this Python process and the `show` server it starts, not the browser.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_ENV = "SHUANGSHENG_CHROMIUM"  # a browser elsewhere (e.g. Windows or macOS): its full path
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SIZES = [(1920, 1080), (1280, 720)]
ALL_SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]  # a 4K TV shows the same layout as 1080p


def find_chromium() -> str | None:
    if os.environ.get(CHROMIUM_ENV):
        return os.environ[CHROMIUM_ENV]
    for name in CHROMIUM_NAMES:
        if found := shutil.which(name):
            return found
    return None


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need the playwright package: pip install -e '.[test]'"
    )
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "no Chromium installed: the venue display's browser tests need one "
            f"(Debian/Ubuntu: apt-get install chromium; elsewhere set {CHROMIUM_ENV} to the browser's path)"
        )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where the tests put their screenshots: tmp_path, or SHUANGSHENG_SCREENSHOTS to keep and look at them."""
    folder = Path(os.environ.get("SHUANGSHENG_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


CLOCK_START = 1_796_083_200_000  # 2026-12-01 00:00 UTC, in ms


def frozen_clock(page) -> None:
    """Playwright's clock in the page, standing still: time moves only by page.clock.run_for (no real waiting,
    and none of the real time a test spends tapping counted by the page)."""
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + 1000)


def jump(page, ms: int) -> None:
    """Move the page's frozen clock on by `ms` in one jump, every timer then due fired once, at the end (Playwright's
    `clock.fast_forward`). For a page about to ask its server (a poll, a press sent again): the request goes out at
    the end of the jump and the clock stands still until its answer, which is real and may land at any later moment
    (much later on a busy machine), is taken. `clock.run_for` instead fires the timers one after the other and lets
    the page run between them: an answer landing in the middle of the run is counted down by the rest of it (the
    server's 00:07 shown as 时间到)."""
    page.clock.fast_forward(ms)


@contextlib.contextmanager
def serving_round_1(folder: Path, teams: int = 8, **options: object) -> Iterator[tuple[dict[int, str], str]]:
    """An event of `teams` teams with round 1 drawn in `folder`, served by the real hall on 127.0.0.1 (a free port)
    until the block ends: the tables' entry codes and the base address. `options` go to `hall.make_hall` (pin,
    clock)."""
    from shuangsheng.hall import hall
    from shuangsheng.storage.ledger.connection import Ledger
    from tests.events import played_rounds

    played_rounds(folder, teams=teams, rounds=0)  # start_event, then round 1 drawn
    with Ledger.open(folder) as book:
        codes = book.codes(book.draws()[1].id)
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, **options)
    server.start()
    try:
        yield codes, f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


def desk_entered(page, base: str, pin: str, *, timeout: float = 5.0) -> None:
    """The desk of the hall at `base` opened in `page` and its PIN typed, as the organiser does: back once the desk
    has read the round."""
    from tests.browser.test_show_page import wait_until

    page.goto(f"{base}/desk")
    page.fill("#pinInput", pin)
    page.click("#pinSubmit")
    wait_until(page, "window.deskPage.doc() !== null", timeout=timeout)
