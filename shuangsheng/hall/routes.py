"""Every URL `serve` and `show` answer, in one table (`ROUTES`): a method and a path pattern, and who answers it —
the TV's pages (`board`: `show` answers these alone), the phones' and the desk's pages (`page`), the table API
(`table`, `shuangsheng.hall.hall.TableApi`), the desk API (`desk`, `shuangsheng.hall.desk_api.DeskApi`) and the
organiser's console (`console`, `shuangsheng.hall.console`) — with the name of its answer there. `resolve` decides from the table alone what a request gets: its route, or 404 (no
route has the path) or 405 with the methods the path has (`Allow`). docs/table-api.md lists the same table.
Standard library only; nothing here reads a request's body or the folder."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Route:
    """`method`: GET (a HEAD is answered as the GET, without the body) or POST. `pattern`: the path, a `{name}`
    standing for one segment (anything but `/`, not empty), `{name:a|b}` for one of the words given. `who`
    answers it (board, page, table, desk) and `answer` names which of its answers."""

    method: str
    pattern: str
    who: str
    answer: str

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        def part(text: str) -> str:
            if not text.startswith("{"):
                return re.escape(text)
            name, _, words = text[1:-1].partition(":")
            return f"(?P<{name}>{'|'.join(map(re.escape, words.split('|')))})" if words else f"(?P<{name}>[^/]+)"

        return re.compile("".join(part(p) for p in re.split(r"(\{[^}]+\})", self.pattern) if p))

    @cached_property
    def _fixed(self) -> str:
        """The pattern's text before its first `{name}` (the whole pattern when it has none)."""
        return self.pattern.partition("{")[0]

    def match(self, path: str) -> dict[str, str] | None:
        """The path's `{name}` segments when the pattern fits the whole path, else None. (Its fixed start is looked
        at first: every request is matched against the whole table.)"""
        fixed = self._fixed
        if fixed == self.pattern:
            return {} if path == fixed else None
        if not path.startswith(fixed):
            return None
        found = self._regex.fullmatch(path)
        return found.groupdict() if found is not None else None

    @property
    def methods(self) -> tuple[str, ...]:
        return ("GET", "HEAD") if self.method == "GET" else (self.method,)


CONSOLE_PAGES = "events|settings|teams|materials|draw|round|correct|awards"  # the console's pages, in its order

ROUTES: tuple[Route, ...] = (
    Route("GET", "/", "board", "page"),  # the TV's page
    Route("GET", "/board.json", "board", "board"),  # what the TV's page polls
    Route("GET", "/favicon.ico", "board", "favicon"),  # 204: nothing, and no 404 in the browser's console
    Route("GET", "/t/{code}", "page", "table_page"),  # a table's phone page (a code that is none: 404)
    Route("GET", "/desk", "page", "desk_page"),  # the organiser's page (only on the PC unless desk_lan: 403)
    Route("GET", "/api/t/{code}", "table", "read"),
    Route("POST", "/api/t/{code}/{action:hands|end|undo|amend|confirm}", "table", "act"),
    Route("GET", "/api/desk", "desk", "read"),
    Route("GET", "/api/desk/", "desk", "read"),
    Route("POST", "/api/desk/clock", "desk", "clock"),
    Route("POST", "/api/desk/t/{table}/{action:minutes|reopen|confirm|early_end|paper_rules}", "desk", "act"),
    Route("GET", "/api/desk/checkin", "desk", "checkin_read"),  # 报到: the check-in before round 1
    Route("POST", "/api/desk/checkin", "desk", "checkin"),  # a team arrived, or its arrival taken back
    Route("POST", "/api/desk/checkin/{action:forfeit|close|open}", "desk", "checkin"),
    Route("GET", "/api/desk/replace", "desk", "replace_read"),  # 换人: the players replaced so far
    Route("POST", "/api/desk/replace", "desk", "replace"),  # a player replaced mid-event
    # the organiser's console (`shuangsheng.hall.console`): only the PC itself, behind its session
    Route("GET", "/console", "console", "home"),
    Route("GET", "/console/enter", "console", "enter"),  # ?token=…: the launcher's browser let in
    Route("GET", "/console/login", "console", "login_page"),
    Route("POST", "/console/login", "console", "login"),
    Route("POST", "/console/token", "console", "token"),  # a second start asks for a one-time token
    Route("GET", "/console/guide", "console", "guide"),
    Route("POST", "/console/{page:guide}/{action:open}", "console", "act"),  # a guide of docs/ in the PC's program
    Route("GET", f"/console/{{page:{CONSOLE_PAGES}}}", "console", "page"),
    Route("POST", f"/console/{{page:{CONSOLE_PAGES}}}/{{action}}", "console", "act"),
    Route("GET", "/console/jobs/{job}", "console", "job_page"),
    Route("GET", "/api/console/jobs/{job}", "console", "job"),
    Route("GET", "/console/files/{name}", "console", "file"),
)
SHOW_ROUTES = tuple(r for r in ROUTES if r.who == "board")  # `show`: the TV alone

# The paths of each API, all of them answered in its JSON and its order of refusals, a path of no route included
# (the desk's 403 comes before its 404): a prefix, or a path (`exact`).
API_PATHS: Mapping[str, tuple[str, ...]] = {"table": ("/api/t/",), "desk": ("/api/desk/", "/api/desk")}


def api_of(path: str) -> str | None:
    """The API whose paths `path` is among (`API_PATHS`: `/api/t/…`, `/api/desk`, `/api/desk/…`), None for a page."""
    for who, prefixes in API_PATHS.items():
        if any(path.startswith(p) if p.endswith("/") else path == p for p in prefixes):
            return who
    return None


@dataclass(frozen=True)
class Match:
    route: Route
    params: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Refused:
    """404 (no route has the path), or 405 with `allow`, the methods the path has (for a method no route has at
    all: every method the table answers)."""

    status: int
    allow: str = ""

    @property
    def wanted(self) -> str:
        """The method a 405 asks for: GET where the path is read, else POST."""
        return "GET" if "GET" in self.allow.split(", ") else "POST"


def allowed(routes: Sequence[Route]) -> str:
    """The methods of `routes`, as an `Allow` header says them (GET, HEAD, POST in that order)."""
    methods = {m for r in routes for m in r.methods}
    return ", ".join(m for m in ("GET", "HEAD", "POST") if m in methods)


def resolve(method: str, path: str, routes: Sequence[Route] = ROUTES) -> Match | Refused:
    """The route of `method` on `path` (a path without its query), or why there is none."""
    on_path = [(r, params) for r in routes if (params := r.match(path)) is not None]
    for route, params in on_path:
        if method in route.methods:
            return Match(route, params)
    if on_path:
        return Refused(405, allowed([r for r, _ in on_path]))
    if not any(method in r.methods for r in routes):  # a method this server answers nowhere: it changes nothing
        return Refused(405, allowed(routes))
    return Refused(404)
