"""Running `shuangsheng show` in its own process, as the organiser does, for the server and browser tests."""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start_show(folder: Path, *args: str, file_limit: int | None = None) -> tuple[subprocess.Popen, str, list[str]]:
    """`shuangsheng show FOLDER --port 0 …` in its own process; returns it, the address and the lines it printed
    on starting (up to the one saying how to stop it). `file_limit` (POSIX): its open-file limit, soft and hard."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "from shuangsheng import cli; cli.main()", "show", str(folder), "--port", "0", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        preexec_fn=None if file_limit is None else functools.partial(_limit_files, file_limit),
    )
    lines = [proc.stdout.readline()]
    match = re.search(r"http://[\d.]+:\d+/", lines[0])
    if not match:
        proc.kill()
        raise AssertionError(f"no address in {lines[0]!r}; stderr: {proc.stderr.read()}")
    while "Ctrl+C" not in lines[-1] and lines[-1]:
        lines.append(proc.stdout.readline())
    return proc, match.group(0), lines


def stop(proc: subprocess.Popen) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    return proc.returncode, out, err


def _limit_files(limit: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
