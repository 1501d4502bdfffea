"""The console's long work (materials, a draw, a round scored, the awards, the demo) as jobs: each runs in a thread
of its own, reports its steps (`Step`: what it is doing, how far) for the page's progress bar, and ends as an
`Outcome` record (`shuangsheng.render.console_page`) that the page renders — never text decided here. A job is keyed by the id of the form that
started it, so the same form sent again (a reload, a double click) finds the job it started, never a second one.
Standard library only."""

from __future__ import annotations

import secrets
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace

from shuangsheng.render.console_page import Action, Outcome, Step
from shuangsheng.vocabulary.errors import UserError

MAX_JOBS = 200  # jobs remembered (the oldest finished ones forgotten first)


Report = Callable[[Step], None]


@dataclass
class Job:
    id: str
    key: str  # the form's id
    title: str
    step: Step
    started: float
    outcome: Outcome | None = None
    back: Action | None = None  # the page it was started from

    @property
    def running(self) -> bool:
        return self.outcome is None


def failed(title: str, exc: UserError) -> Outcome:
    """A refusal of the use-case, as its records; a lost event.db with the button that builds it again."""
    from shuangsheng.storage.ledger.lost import LedgerLost

    rebuild = (Action("重建比赛记录", "/console/round/rebuild", ()),) if isinstance(exc, LedgerLost) else ()
    return Outcome(title=title, ok=False, problems=(*exc.issues, *exc.details), heading=exc.heading, hint=exc.hint,
                   next=rebuild)


class Jobs:
    """Every job of this console, by id and by the id of the form that started it."""

    def __init__(self, *, log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)):
        self._jobs: dict[str, Job] = {}
        self._keys: dict[str, str] = {}
        self._lock = threading.Lock()
        self.log = log

    def start(self, key: str, title: str, work: Callable[[Report], Outcome], *, back: Action | None = None,
              inline: bool = False) -> Job:
        """The job of form `key`: started now, or the one it started before. `inline`: run in this thread (tests)."""
        with self._lock:
            if key in self._keys:
                return self._jobs[self._keys[key]]
            job = Job(secrets.token_urlsafe(9), key, title, Step("开始……"), time.monotonic(), back=back)
            self._jobs[job.id] = job
            self._keys[key] = job.id
            self._forget_old()
        if inline:
            self._run(job, work)
        else:
            threading.Thread(target=self._run, args=(job, work), daemon=True).start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def busy(self) -> Job | None:
        """A job still running (one at a time is what the page offers)."""
        with self._lock:
            return next((j for j in self._jobs.values() if j.running), None)

    def _run(self, job: Job, work: Callable[[Report], Outcome]) -> None:
        def report(step: Step) -> None:
            job.step = step

        try:
            outcome = work(report)
        except UserError as exc:
            outcome = failed(job.title, exc)
        except Exception as exc:  # the last line of defence: said in plain words, the details on the console
            self.log("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
            outcome = Outcome(title=job.title, ok=False, lines=(
                f"程序出了意外的错误，这一步可能没有做完（{type(exc).__name__}）。请再点一次；还不行的话，"
                "把控制台黑色窗口里的内容拍照发给技术人员",))
        job.outcome = replace(outcome, next=outcome.next or ((job.back,) if job.back else ()))

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if not j.running]
        for job in finished[: max(0, len(self._jobs) - MAX_JOBS)]:
            del self._jobs[job.id]
            self._keys.pop(job.key, None)


