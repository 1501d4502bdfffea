"""The console's budget (issue 30), run by bench/run.py as its own process: `python bench/console.py EVENT RUNS`.

Every console action ≤ 1.1 × the same use-case called in-process, in the same run, on a 64-table round (the
128-team event of bench/run.py): `score` of round 1 and `materials`, each through the console's HTTP — the form
posted with its session and token, the job started, its progress polled as its page polls it until done — against the use-case's own
work (what the console's job calls, `shuangsheng.hall.console_work`) called directly. Both are timed as this
process's CPU time (the server's threads included), taking turns; the median of RUNS turns. Talks only to
127.0.0.1 and stops its server. Prints one JSON document: for each action, its two medians."""

from __future__ import annotations

import http.client
import json
import re
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shuangsheng.hall import console_work  # noqa: E402
from shuangsheng.hall.console import make_console  # noqa: E402
from shuangsheng.render.console_page import POLL_MS  # noqa: E402

POLL = POLL_MS / 1000  # seconds between a job's progress polls, as the job's page polls
WAIT = 600.0  # seconds a job may take at most


class Client:
    def __init__(self, port: int):
        self.port, self.cookie, self.csrf = port, "", ""

    def ask(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        headers = {"Cookie": self.cookie, "Host": f"127.0.0.1:{self.port}"}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers |= {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{self.port}"}
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        text = answer.read().decode("utf-8")
        conn.close()
        if cookie := answer.getheader("Set-Cookie"):
            self.cookie = cookie.split(";")[0]
        if found := re.search(r'name="csrf" value="([^"]+)"', text):
            self.csrf = found.group(1)
        return answer.status, answer.getheader("Location") or "", text

    def job(self, path: str, **fields: str) -> None:
        status, where, text = self.ask("POST", path, {"csrf": self.csrf, "id": f"bench-{time.monotonic_ns()}", **fields})
        assert status == 303 and where.startswith("/console/jobs/"), (status, text[:300])
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = json.loads(self.ask("GET", "/api" + where)[2])
            if not state["running"]:
                assert state["ok"], state
                return
            time.sleep(POLL)
        raise TimeoutError(path)


def cpu(work) -> float:  # type: ignore[no-untyped-def]
    start = time.process_time()
    work()
    return time.process_time() - start


def main() -> None:
    event, runs = Path(sys.argv[1]), int(sys.argv[2])
    console = make_console(event.parent, event, hosts=["127.0.0.1"], port=0, pin="000000", log=lambda line: None)
    console.hall.start()
    try:
        client = Client(console.hall.port)
        client.ask("GET", f"/console/enter?token={console.gate.one_time_token()}")
        client.ask("GET", "/console/round")

        def direct(work: console_work.Work) -> None:
            outcome = work(lambda step: None)
            assert outcome.ok, outcome

        actions = {
            "score": (lambda: direct(console_work.score_work(event, 1)),
                      lambda: client.job("/console/round/score", round="1")),
            "materials": (lambda: direct(console_work.materials_work(event)),
                          lambda: client.job("/console/materials/build")),
        }
        figures = {}
        for name, (in_process, through_console) in actions.items():
            in_process()
            through_console()  # once each unmeasured: imports and caches warm for both
            pairs = [(cpu(in_process), cpu(through_console)) for _ in range(runs)]
            figures[name] = {"in_process": statistics.median(p[0] for p in pairs),
                             "console": statistics.median(p[1] for p in pairs)}
        print(json.dumps(figures))
    finally:
        console.stop()


if __name__ == "__main__":
    main()
