"""The load budget of `shuangsheng serve`, run by bench/run.py (issue 20: 256 phones entering at once lose nothing
and duplicate nothing while the TV keeps updating).

A 128-team event is drawn (64 tables) and `serve` started in its own process on 127.0.0.1, as on the day. Four
clients per table (every player's phone: 256 in all, threads of this process) post the same simulated match at
once, step by step and with the same ids: its 8-12 regular hands, `end`, the 加赛 hands while tied, then both
`confirm`s; a TV client polls `/board.json` about once a second meanwhile, as the venue page does. The same
clients drive a floor by turns with the product (TURNS runs of each, each product run compared with the floor run
just before it; `serve` each time on a fresh copy of the drawn event), in its own process as well: a bare
`ThreadingHTTPServer` (listen backlog 256) that inserts each JSON body into SQLite (WAL, synchronous FULL as
event.db, one insert and commit per request) and answers 201.

Checked: every request answered (no connection error, no timeout), no 5xx and no other unexpected status, each
hand created (201) exactly once per table, and event.db holding per table exactly the match's hands in order,
one end (none for a match over before time was up) and both confirmations; the TV saw the board change while the
entries kept coming. Figures: p99 of a hand's POST (product and floor), p99 of the TV's requests.

Bounded: every socket has a timeout, every run a deadline, and whatever was started (servers, client threads) is
stopped in `finally`. Only 127.0.0.1. Only the standard library here; the event is built by the program's CLI
and library in subprocesses.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import queue
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

HOST = "127.0.0.1"
LOOPBACK_RANGE = sys.platform.startswith("linux")  # 127.0.0.2 … can be sent from (macOS and Windows: only .1)
TEAMS = 128
CLIENTS_PER_TABLE = 4  # every player's phone: 256 clients for 64 tables


@dataclass(frozen=True)
class Shape:
    """A hall's size: `teams` drawn into round 1, `per_table` phones at each of its tables."""

    teams: int
    per_table: int

    @property
    def clients(self) -> int:
        return self.teams // 2 * self.per_table


SHAPES = {
    "load": Shape(TEAMS, CLIENTS_PER_TABLE),  # issue 20: 64 tables, four phones each
    # issue 33: 128 tables, three phones each: 384 clients from 384 addresses, within the 512 connections of serve
    # beside the TV
    "load256": Shape(256, 3),
}
SOCKET_SECONDS = 30.0  # every client socket: connect, send, answer
START_SECONDS = 60.0  # a server has this long to say its port
RUN_SECONDS = 300.0  # one run (product or floor) is stopped after this, whatever its state
TV_EVERY = 1.0  # the TV page polls board.json about this often
LOAD_RATIO = 3.0  # p99 of a hand's POST ≤ this × the floor's p99
TV_P99 = 2.0  # seconds
TURNS = 5  # runs of the floor and of the product, by turns: each product run against the floor run just before

SETUP = r"""
import json, random, sys
from pathlib import Path

from shuangsheng.storage import event, workbook
from shuangsheng.storage.names import TEAMS_FILE
from shuangsheng.usecases.demo import make_teams
from shuangsheng.table.log import hand_as_json
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.game.match import Status
from shuangsheng.game.simulate import simulate_match

folder, mode = Path(sys.argv[1]), sys.argv[2]
rng = random.Random(20)
if mode == "teams":
    workbook.write_teams(folder / TEAMS_FILE, make_teams(rng, int(sys.argv[3])), force=True)
else:
    rules = event.load(folder).rules
    with Ledger.existing(folder) as book:
        record = book.draws()[1]
        codes = book.codes(record.id)
    tables = []
    for table, code in sorted(codes.items()):
        match, result = simulate_match(rng, rules=rules, hands=rng.randint(8, 12))
        ended = not (result.status is Status.PASSED_A and not any(h.playoff for h in match.hands))
        tables.append({"table": table, "code": code, "hands": [hand_as_json(h) for h in match.hands], "ended": ended})
    Path(sys.argv[3]).write_text(json.dumps({"draw": record.id, "tables": tables}), encoding="utf-8")
"""

FLOOR_SERVER = r"""
import json, signal, sqlite3, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

db = sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None, timeout=10)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = FULL")
db.execute("CREATE TABLE IF NOT EXISTS entry (id INTEGER PRIMARY KEY, path TEXT NOT NULL, body TEXT NOT NULL)")
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    timeout = 5

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        json.loads(body)
        with lock:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO entry (path, body) VALUES (?, ?)", (self.path, body.decode("utf-8")))
            db.execute("COMMIT")
        answer = b'{"stored": true}'
        self.send_response(201)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


httpd = Server(("127.0.0.1", 0), Handler)
signal.signal(signal.SIGINT, lambda *_: threading.Thread(target=httpd.shutdown).start())
print(f"floor http://127.0.0.1:{httpd.server_address[1]}/ Ctrl+C", flush=True)
httpd.serve_forever()
httpd.server_close()
db.close()
"""


# --- the event and its matches ---


@dataclass(frozen=True)
class Step:
    action: str  # hands, end, confirm
    body: Mapping[str, object]


@dataclass(frozen=True)
class Table:
    number: int
    code: str
    hands: tuple[Mapping[str, object], ...]  # the match's hands, input format (docs/match-record.md)
    ended: bool  # `end` makes an entry (False: a side passed A, the match was over before time was up)

    def steps(self) -> list[Step]:
        """What each of the table's clients posts, in order: the regular hands, end, the 加赛 hands, the two
        confirmations. Every client sends each press with the same id (hand n: `t<table>-h<n>`) and the mark of the
        table before it (the count of entries the presses before it made), as the table page does."""
        numbered = [Step("hands", {**h, "hand": n, "id": f"t{self.number}-h{n}"}) for n, h in enumerate(self.hands, 1)]
        regular = [s for s in numbered if not s.body.get("playoff")]
        playoff = [s for s in numbered if s.body.get("playoff")]
        ending = Step("end", {"id": f"t{self.number}-end"})
        confirms = [Step("confirm", {"side": side, "id": f"t{self.number}-ok{side}"}) for side in "AB"]
        marked, mark = [], 0
        for step in [*regular, ending, *playoff, *confirms]:
            marked.append(Step(step.action, {**step.body, "mark": mark}))
            mark += step.action != "end" or self.ended  # an end after passing A changes nothing
        return marked


@dataclass(frozen=True)
class Event:
    folder: Path
    draw: int
    tables: tuple[Table, ...]


def build_event(work: Path, run: Callable[[list[str]], object], cli: list[str], python: str,
                teams: int = TEAMS) -> Event:
    """`init`, `teams` teams typed, `draw` (round 1), then each table's code and a simulated match of 8-12 hands."""
    folder = work / "hall"
    run([*cli, "init", str(folder)])
    run([python, "-c", SETUP, str(folder), "teams", str(teams)])
    run([*cli, "draw", str(folder), "--seed", "1"])
    out = work / "matches.json"
    run([python, "-c", SETUP, str(folder), "matches", str(out)])
    data = json.loads(out.read_text(encoding="utf-8"))
    tables = tuple(Table(t["table"], t["code"], tuple(t["hands"]), t["ended"]) for t in data["tables"])
    return Event(folder, data["draw"], tables)


# --- servers in their own processes ---


@dataclass
class Served:
    port: int
    start_cpu: float | None  # the server's CPU seconds once it said its port (Linux: /proc)
    cpu: float | None = None  # its CPU seconds from then to the moment it is told to stop


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a running process from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def server_process(command: list[str], *, cwd: Path, env: Mapping[str, str], log: Path) -> Iterator[Served]:
    """Start `command` (a server printing `http://127.0.0.1:PORT/` and then a line with Ctrl+C), yield its port;
    stopped with Ctrl+C (SIGINT), killed if it has not ended 15 s later, whatever happened meanwhile."""
    with open(log, "wb") as errors:
        process = subprocess.Popen(command, cwd=cwd, env=dict(env), stdout=subprocess.PIPE, stderr=errors)
        try:
            served = Served(_port(process), cpu_seconds(process.pid))
            yield served
        finally:
            if process.poll() is None:
                end = cpu_seconds(process.pid)
                if end is not None and served.start_cpu is not None:
                    served.cpu = end - served.start_cpu
                process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)
            if process.stdout:
                process.stdout.close()


def _port(process: subprocess.Popen) -> int:
    """The port the server printed, read by a thread so that a server saying nothing cannot hang the bench."""
    lines: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(b"")

    threading.Thread(target=read, daemon=True).start()
    port = None
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic())).decode("utf-8", "replace")
        except queue.Empty:
            break
        if not line:
            break
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        port = int(found.group(1)) if found and port is None else port
        if port is not None and "Ctrl+C" in line:
            return port
    raise RuntimeError(f"the server did not start within {START_SECONDS:.0f} s (exit {process.poll()})")


# --- clients ---


@dataclass
class Tally:
    """What the clients of one run saw (each client appends to its own; merged afterwards)."""

    hands: list[float] = field(default_factory=list)  # seconds of each hand's POST
    statuses: Counter = field(default_factory=Counter)  # (action, status) → count
    created: Counter = field(default_factory=Counter)  # (table, hand) → 201s
    lost: list[str] = field(default_factory=list)  # requests without an answer
    unexpected: list[str] = field(default_factory=list)  # answers other than the ones the API gives here

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        self.statuses += other.statuses
        self.created += other.created
        self.lost += other.lost
        self.unexpected += other.unexpected


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: Mapping[str, str] | None = None, *, source: str | None = None) -> tuple[int, dict[str, str]]:
    """One request on a new connection (as a phone's page makes it), from the loopback address `source` (a phone's
    own; None: the PC's, 127.0.0.1); the status and the answer's headers."""
    conn = http.client.HTTPConnection(HOST, port, timeout=SOCKET_SECONDS,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        response = conn.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()


def own_address(n: int) -> str | None:
    """`phone_address(n)` where this system answers it (Linux: all of 127/8), else None (the PC's own address)."""
    return phone_address(n) if LOOPBACK_RANGE else None


def phone_address(n: int) -> str:
    """The n-th phone's own address (0-based): 127.0.1.2, 127.0.1.3, … — phones of a hall come from addresses of
    their own, each held to its share of serve's connections, not from the PC's (Linux answers all of 127/8)."""
    return f"127.0.{1 + n // 250}.{2 + n % 250}"


def client(port: int, table: Table, together: threading.Barrier, stop: threading.Event, floor: bool,
           source: str | None = None) -> Tally:
    """One of a table's phones, from `source`: each step posted at the same moment as the table's other phones
    (`together`, the table's barrier), waiting for the answer before the next."""
    tally = Tally()
    try:
        for step in table.steps():
            if stop.is_set():
                tally.lost.append(f"第{table.number}桌 {step.action}: stopped at the run's deadline")
                together.abort()  # the other phones of the table are not left waiting
                return tally
            together.wait()
            _post(port, table, step, tally, floor, source)
    except threading.BrokenBarrierError:
        tally.lost.append(f"第{table.number}桌: another phone of the table stopped")
    except BaseException:
        together.abort()
        raise
    return tally


EXPECTED = {"hands": {200, 201}, "end": {200}, "confirm": {200}}


def _post(port: int, table: Table, step: Step, tally: Tally, floor: bool, source: str | None) -> None:
    data = json.dumps(step.body, ensure_ascii=False).encode("utf-8")
    start = time.perf_counter()
    try:
        status, _ = request(port, "POST", f"/api/t/{table.code}/{step.action}", data,
                            {"Content-Type": "application/json"}, source=source)
    except (OSError, http.client.HTTPException) as exc:
        tally.lost.append(f"第{table.number}桌 {step.action} {step.body.get('hand', '')}: {exc!r}")
        return
    if step.action == "hands":
        tally.hands.append(time.perf_counter() - start)
        tally.created[table.number, step.body["hand"]] += status == 201
    tally.statuses[step.action, status] += 1
    if status not in ({201} if floor else EXPECTED[step.action]):
        tally.unexpected.append(f"第{table.number}桌 {step.action} {step.body.get('hand', '')}: {status}")


@dataclass
class TvLog:
    seconds: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    versions: set[str] = field(default_factory=set)
    lost: list[str] = field(default_factory=list)


def tv(port: int, stop: threading.Event, log: TvLog) -> None:
    """The venue page: board.json about every TV_EVERY seconds, revalidated with its ETag as a browser does."""
    etag = ""
    while not stop.is_set():
        start = time.perf_counter()
        try:
            status, headers = request(port, "GET", "/board.json", headers={"If-None-Match": etag} if etag else {})
        except (OSError, http.client.HTTPException) as exc:
            log.lost.append(repr(exc))
        else:
            log.seconds.append(time.perf_counter() - start)
            log.statuses[status] += 1
            etag = headers.get("etag", etag)
            log.versions.add(etag)
        stop.wait(max(0.0, TV_EVERY - (time.perf_counter() - start)))


@dataclass
class Run:
    tally: Tally
    seconds: float  # wall clock from the start to the last client's end
    tv: TvLog | None = None


def drive(port: int, event: Event, *, floor: bool, per_table: int = CLIENTS_PER_TABLE) -> Run:
    """`per_table` clients per table, all tables at once (and the TV unless `floor`); bounded by RUN_SECONDS."""
    stop = threading.Event()
    results: list[Tally] = []
    lock = threading.Lock()

    def phone(table: Table, together: threading.Barrier, source: str | None) -> None:
        tally = client(port, table, together, stop, floor, source)
        with lock:
            results.append(tally)

    threads = []
    for table in event.tables:
        together = threading.Barrier(per_table, timeout=2 * SOCKET_SECONDS)
        threads += [threading.Thread(target=phone, args=(table, together, own_address(len(threads) + k)), daemon=True)
                    for k in range(per_table)]
    tv_log = TvLog()
    watcher = None if floor else threading.Thread(target=tv, args=(port, stop, tv_log), daemon=True)
    start = time.perf_counter()
    try:
        if watcher:
            watcher.start()
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + RUN_SECONDS
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        seconds = time.perf_counter() - start
    finally:
        stop.set()  # the clients end at their next step, the TV at once; each request within SOCKET_SECONDS
        for thread in [*threads, *([watcher] if watcher else [])]:
            thread.join(SOCKET_SECONDS + 5)
    total = Tally()
    for tally in results:
        total.merge(tally)
    stuck = sum(t.is_alive() for t in threads)
    if stuck or len(results) < len(threads):
        total.lost.append(f"{len(threads) - len(results)} clients did not finish within {RUN_SECONDS:.0f} s")
    return Run(total, seconds, None if floor else tv_log)


# --- what event.db holds afterwards ---


def stored_problems(event: Event) -> list[str]:
    """Per table, event.db's entries must be the match's hands in order, each once, one end and the two
    confirmations; nothing else (read straight from event.db, read-only)."""
    problems = []
    uri = (event.folder / "event.db").resolve().as_uri() + "?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=10)) as db:
        rows = db.execute("SELECT tbl, body FROM entry WHERE draw = ? ORDER BY id", (event.draw,)).fetchall()
    by_table: dict[int, list[dict]] = {}
    for table, body in rows:
        by_table.setdefault(table, []).append(json.loads(body))
    for table in event.tables:
        entries = by_table.get(table.number, [])
        hands = [(e["hand"], e["id"]) for e in entries if e["action"] == "hand"]
        wanted = [(s.body["hand"], s.body["id"]) for s in table.steps() if s.action == "hands"]
        others = Counter(e["action"] + e.get("side", "") for e in entries if e["action"] != "hand")
        if hands != wanted:
            problems.append(f"第{table.number}桌: hands stored {[h for h, _ in hands]}, "
                            f"posted {[h for h, _ in wanted]}")
        if others != Counter({"end": int(table.ended), "confirmA": 1, "confirmB": 1}) + Counter():
            problems.append(f"第{table.number}桌: other entries {dict(others)}")
    return problems


# --- the budget ---


def p99(values: list[float], q: float = 0.99) -> float:
    """The 99th (or `q`) percentile, nearest rank (NaN for none)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def spread(values: list[float]) -> str:
    return "/".join(f"{p99(values, q):.3f}" for q in (0.5, 0.9, 1.0))


@dataclass(frozen=True)
class Verdict:
    ok: bool
    line: str


def load_budget(work: Path, *, python: str, cli: list[str], root: Path, env: Mapping[str, str],
                run: Callable[[list[str]], object], shape: Shape = SHAPES["load"]) -> list[Verdict | str]:
    """Build the event, then run the floor and the product by turns (each product run on a fresh copy of the
    drawn event), and say the verdicts (Verdict) and figures (str)."""
    began = time.perf_counter()
    event = build_event(work, run, cli, python, shape.teams)
    posts = sum(len(t.steps()) for t in event.tables) * shape.per_table
    hands = sum(len(t.hands) for t in event.tables)
    out: list[Verdict | str] = [
        f"      {len(event.tables)} tables, {shape.per_table * len(event.tables)} clients, {hands} hands "
        f"({posts} POSTs a run); built in {time.perf_counter() - began:.1f} s; {TURNS} runs of each, by turns"]
    floors: list[Run] = []
    products: list[tuple[Event, Run, Path]] = []
    for turn in range(1, TURNS + 1):
        with server_process([python, "-c", FLOOR_SERVER, str(work / f"floor-{turn}.db")], cwd=root, env=env,
                            log=work / f"floor-{turn}.log") as floor:
            floors.append(drive(floor.port, event, floor=True, per_table=shape.per_table))
        copy = replace(event, folder=work / f"hall-{turn}")
        shutil.copytree(event.folder, copy.folder)
        serve_log = work / f"serve-{turn}.log"
        with server_process([*cli, "serve", str(copy.folder), "--port", "0"], cwd=root, env=env,
                            log=serve_log) as serve:
            products.append((copy, drive(serve.port, copy, floor=False, per_table=shape.per_table), serve_log))
        out.append(figures(turn, floors[-1], products[-1][1], floor.cpu, serve.cpu))
    out += verdicts(floors, products, shape.clients)
    out.append(f"      the load part took {time.perf_counter() - began:.1f} s")
    return out


def figures(turn: int, floor: Run, product: Run, floor_cpu: float | None, serve_cpu: float | None) -> str:
    tv_log = product.tv or TvLog()
    cpu = (f"; server CPU floor {floor_cpu:.1f} s, serve {serve_cpu:.1f} s"
           if floor_cpu is not None and serve_cpu is not None else "")
    return (f"      run {turn}: floor p99 {p99(floor.tally.hands):.3f} s ({len(floor.tally.hands)} hand POSTs in "
            f"{floor.seconds:.1f} s; p50/p90/max {spread(floor.tally.hands)}); serve p99 {p99(product.tally.hands):.3f} s "
            f"(p50/p90/max {spread(product.tally.hands)}; {product.seconds:.1f} s{cpu}; "
            f"{dict(sorted(product.tally.statuses.items()))}); TV p99 {p99(tv_log.seconds):.3f} s "
            f"({len(tv_log.seconds)} polls {dict(tv_log.statuses)}, {len(tv_log.versions)} versions)")


def verdicts(floors: list[Run], products: list[tuple[Event, Run, Path]], clients: int) -> list[Verdict]:
    runs = [*floors, *(run_ for _, run_, _ in products)]
    tvs = [run_.tv or TvLog() for _, run_, _ in products]
    lost = [line for run_ in runs for line in run_.tally.lost] + [line for tv_log in tvs for line in tv_log.lost]
    server_errors = sum(n for run_ in runs for (_, status), n in run_.tally.statuses.items() if status >= 500)
    server_errors += sum(n for tv_log in tvs for status, n in tv_log.statuses.items() if status >= 500)
    unexpected = [line for run_ in runs for line in run_.tally.unexpected]
    unexpected += [f"board.json: {status}" for tv_log in tvs for status in tv_log.statuses if status not in (200, 304)]
    twice = sum(n != 1 for _, run_, _ in products for n in run_.tally.created.values())
    stored = [line for event, _, _ in products for line in stored_problems(event)]
    tracebacks = sum(log.read_text(encoding="utf-8", errors="replace").count("Traceback") for _, _, log in products)
    base = statistics.median(p99(run_.tally.hands) for run_ in floors)
    ours = statistics.median(p99(run_.tally.hands) for _, run_, _ in products)
    # each product run against the floor run just before it (the machine's other load changes between turns)
    ratios = [p99(run_.tally.hands) / p99(floor.tally.hands) if p99(floor.tally.hands) > 0 else math.inf
              for floor, (_, run_, _) in zip(floors, products, strict=True)]
    ratio = statistics.median(ratios)
    tv_p99 = p99([s for tv_log in tvs for s in tv_log.seconds])
    still = [len(tv_log.versions) for tv_log in tvs if len(tv_log.versions) < 2]
    return [
        Verdict(not lost, f"every request answered ({len(lost)} lost)" + (f": {lost[:3]}" if lost else "")),
        Verdict(server_errors == 0, f"no 5xx ({server_errors})"),
        Verdict(not unexpected, f"no unexpected status ({len(unexpected)})" + (f": {unexpected[:3]}" if unexpected else "")),
        Verdict(not twice, f"serve: each hand created (201) exactly once ({twice} hands not)"),
        Verdict(not stored, f"event.db: per table the match's hands exactly once, in order, its end, both "
                            f"confirmations ({len(stored)} tables not)" + (f": {stored[:3]}" if stored else "")),
        Verdict(tracebacks == 0, f"serve: no traceback in its log ({tracebacks})"),
        Verdict(ratio <= LOAD_RATIO, f"p99 of a hand's POST ({clients} clients) ≤ {LOAD_RATIO:g} × the floor's p99 of the "
                                     f"same turn, the median of {len(ratios)} turns [ratio {ratio:.2f}; each turn "
                                     f"{' '.join(f'{r:.2f}' for r in ratios)}; median p99 {ours:.3f} s against "
                                     f"{base:.3f} s]"),
        Verdict(tv_p99 <= TV_P99, f"p99 of the TV's board.json during the load {tv_p99:.3f} s ≤ {TV_P99:g} s"),
        Verdict(not still, f"the TV kept updating during the load (a new board version in every run: "
                           f"{[len(tv_log.versions) for tv_log in tvs]} versions)"),
    ]


if __name__ == "__main__":
    sys.exit("run through bench/run.py: python bench/run.py --only load")
