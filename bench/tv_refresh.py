"""The TV's cost per phone entry (issue 28, item 5): a 128-team event is drawn (64 tables) and `serve` started in
its own process on 127.0.0.1; then, table after table, one phone hand is posted and the TV's next `/board.json`
timed (the poll that reads the entry into the board). The figures are wall-clock seconds of that GET: what one
phone entry costs the TV. Run: `python -m bench.tv_refresh [TABLES]` (default 32 entries). Only 127.0.0.1."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import load

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CLI = [PYTHON, "-m", "shuangsheng"]


def run(command: list[str]) -> None:
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)


def board_seconds(port: int) -> tuple[float, str]:
    """One TV poll: its seconds and the board's version (ETag)."""
    start = time.perf_counter()
    status, headers = load.request(port, "GET", "/board.json")
    assert status == 200, status
    return time.perf_counter() - start, headers.get("etag", "")


def main(entries: int = 32) -> int:
    with tempfile.TemporaryDirectory() as work:
        event = load.build_event(Path(work), run, CLI, PYTHON)
        env = dict(os.environ)
        with load.server_process([*CLI, "serve", str(event.folder), "--port", "0"], cwd=ROOT, env=env,
                                 log=Path(work) / "serve.log") as served:
            polls = [board_seconds(served.port) for _ in range(3)]  # the first reading, then nothing changed
            idle = [seconds for seconds, _ in polls]
            version, after, changed = polls[-1][1], [], 0
            for table in event.tables[:entries]:
                step = table.steps()[0]
                data = json.dumps(step.body, ensure_ascii=False).encode("utf-8")
                status, _ = load.request(served.port, "POST", f"/api/t/{table.code}/hands", data,
                                         {"Content-Type": "application/json"})
                assert status == 201, status
                seconds, now = board_seconds(served.port)
                changed += now != version  # a first hand shows nothing new until a result does
                version = now
                after.append(seconds)
    print(f"{len(event.tables)} tables; first board.json {idle[0]:.3f} s, unchanged {statistics.median(idle[1:]):.4f} s")
    print(f"board.json after one phone entry ({len(after)} entries): median {statistics.median(after):.3f} s, "
          f"min {min(after):.3f} s, max {max(after):.3f} s; the board changed {changed} times")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:])))
