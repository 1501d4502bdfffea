"""`shuangsheng` run as a process of its own — `cli.main`, its real stdout and stderr, its exit code — forked from
one process per test worker that has imported the command line once: what a new `python -m shuangsheng` does once
its imports are done, without paying for a new Python each time. For the tests of what a user meets on the command
line (`tests/test_cli_usage.py`, `tests/test_cli_help.py`); what is imported on the way stays the business of a
new Python (`test_help_imports_no_heavy_library`)."""

from __future__ import annotations

import atexit
import json
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Mapping
from pathlib import Path

from tests.helpers import ROOT

FORKS = textwrap.dedent("""\
    import json, os, sys, traceback
    from shuangsheng import cli

    for line in sys.stdin:
        args, env, out = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            for fd, name in ((1, out + ".out"), (2, out + ".err")):
                os.dup2(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            os.environ.update(env)
            sys.argv = ["shuangsheng", *args]
            try:
                cli.main()
                code = 0
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
            except BaseException:  # as a new process would end: the traceback, exit 1 (never back to the loop)
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)
""")


class _Forks:
    def __init__(self) -> None:
        self.work = Path(tempfile.mkdtemp(prefix="forked-"))  # inside the test run's temporary folder
        self.runs = 0
        self.process = subprocess.Popen([sys.executable, "-c", FORKS], cwd=ROOT, text=True, encoding="utf-8",
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        atexit.register(self.close)

    def run(self, args: tuple[str, ...], env: Mapping[str, str]) -> subprocess.CompletedProcess:
        self.runs += 1
        out = self.work / f"run-{self.runs}"
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([list(args), dict(env), str(out)]) + "\n")
        self.process.stdin.flush()
        code = int(self.process.stdout.readline())
        return subprocess.CompletedProcess(["shuangsheng", *args], code,
                                           Path(f"{out}.out").read_text(encoding="utf-8"),
                                           Path(f"{out}.err").read_text(encoding="utf-8"))

    def close(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
            self.process.wait(timeout=60)


_forks: list[_Forks] = []


def shuangsheng(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess:
    """`shuangsheng ARGS…` as a process of its own (`env`: variables set for it), with its stdout, stderr and exit
    code."""
    if not _forks or _forks[0].process.poll() is not None:
        _forks[:] = [_Forks()]
    return _forks[0].run(tuple(str(a) for a in args), env or {})
