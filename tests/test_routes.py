"""The hall's one route table (shuangsheng.hall.routes, docs/table-api.md): read from the table itself, every route is
reachable on `serve` (and the TV's on `show`), answered by its handler; every other path is 404, a known path with a
wrong method 405 with the path's methods in `Allow`."""

from __future__ import annotations

import http.client
import json
import re
import threading
from pathlib import Path

import pytest

from shuangsheng.hall import routes
from shuangsheng.hall.server import make_server
from shuangsheng.storage.ledger.connection import Ledger
from tests.events import played_rounds

PIN = "135790"
TABLE = "1"  # the table number a desk route is asked for


DOC_NAMES = {"action": "<操作>", "job": "<编号>", "name": "<文件名>"}  # the console's segments as the docs write them


def paths_of(route: routes.Route, code: str, table: str = TABLE, others: dict[str, str] | None = None) -> list[str]:
    """The route's pattern written out: `{code}` a code in force, `{table}` table 1 (and any other segment, unless
    `others` names it), `{name:a|b}` each word."""
    paths = [route.pattern]
    while any("{" in p for p in paths):
        done = []
        for path in paths:
            found = re.search(r"\{([^}:]+)(?::([^}]+))?\}", path)
            if found is None:
                done.append(path)
                continue
            name = found.group(1)
            one = code if name == "code" else (others or {}).get(name, table)
            words = found.group(2).split("|") if found.group(2) else [one]
            done += [path[:found.start()] + word + path[found.end():] for word in words]
        paths = done
    return paths


def near_misses(code: str) -> list[str]:
    """Paths of no route: each route's path with a segment added, cut off or changed, and files a server might
    be expected to have."""
    misses = {"/event.toml", "/round-1.xlsx", "/index.html", "/api", "/api/", "/api/t", "/api/t/", "/t", "/t/",
              "/desk/", "/desk/x", "/api/desk/tables", "/api/desk/t/1", "/api/desk/t/1/undo", "/api/desk/clock/x",
              f"/api/t/{code}/delete", f"/api/t/{code}/hands/1", "/board.json/../event.toml"}
    for route in routes.ROUTES:
        literal = not route.pattern.rstrip("/").endswith("}")  # a `{code}` takes any segment: the API says 404
        for path in paths_of(route, code):
            misses.add(path.rstrip("/") + "/x/y")
            if literal and path.count("/") > 1:
                misses |= {path.rstrip("/") + ".bak", path.rstrip("/").rsplit("/", 1)[0] + "/nothing"}
    known = {p for r in routes.ROUTES for p in paths_of(r, code)}
    return sorted(misses - known)


# --- the table itself ---


def test_every_route_of_the_table_resolves_to_itself_and_head_to_the_get():
    for route in routes.ROUTES:
        for path in paths_of(route, "ABCD2345"):
            for method in route.methods:
                found = routes.resolve(method, path)
                assert isinstance(found, routes.Match) and found.route == route, (method, path)


def methods_of(path: str) -> str:
    """The methods the routes of `path` answer, as `Allow` says them (a path may have a GET and a POST)."""
    return routes.allowed([r for r in routes.ROUTES if r.match(path) is not None])


def test_a_wrong_method_is_405_with_the_methods_of_the_path():
    for route in routes.ROUTES:
        for path in paths_of(route, "ABCD2345"):
            for wrong in ("GET", "POST"):
                if wrong not in methods_of(path):
                    assert routes.resolve(wrong, path) == routes.Refused(405, methods_of(path)), path


def test_a_path_of_no_route_is_404_and_a_method_no_route_has_is_405():
    for path in near_misses("ABCD2345"):
        assert routes.resolve("GET", path) == routes.Refused(404), path
        assert routes.resolve("POST", path) == routes.Refused(404), path
        assert routes.resolve("PUT", path) == routes.Refused(405, "GET, HEAD, POST"), path
        assert routes.resolve("POST", path, routes.SHOW_ROUTES) == routes.Refused(405, "GET, HEAD"), path


def test_a_segment_never_spans_a_slash_and_a_word_is_one_of_those_given():
    assert routes.resolve("GET", "/t/a/b") == routes.Refused(404)
    assert routes.resolve("POST", "/api/t/CODE/handsx") == routes.Refused(404)
    found = routes.resolve("POST", "/api/desk/t/12/reopen")
    assert isinstance(found, routes.Match) and found.params == {"table": "12", "action": "reopen"}


def test_a_route_looking_at_its_fixed_start_first_matches_exactly_as_its_whole_pattern():
    """`Route.match` looks at the pattern's text before its first segment, then at the whole pattern: the same
    answer as the whole pattern alone, for every path of the table and its near misses."""
    paths = {p for r in routes.ROUTES for p in paths_of(r, "ABCD2345")}
    paths |= {q for p in set(paths) for q in (p + "/", p + "x", p[:-1], p.upper(), "/" + p, p.replace("/", "//", 1))}
    paths |= {"", "/", "//", "/api", "/api/t", "/api/t/", "/api/t//hands", "/console/", "/t/"}
    for route in routes.ROUTES:
        for path in paths:
            whole = route._regex.fullmatch(path)
            assert route.match(path) == (whole.groupdict() if whole else None), (route.pattern, path)


def test_each_api_path_is_answered_by_its_api_and_every_other_path_by_the_pages():
    assert [routes.api_of(p) for p in ("/api/t/x", "/api/t/", "/api/desk", "/api/desk/x", "/api/desktop", "/api/t",
                                       "/desk", "/")] == ["table", "table", "desk", "desk", None, None, None, None]
    for route in routes.ROUTES:
        if route.who in ("table", "desk"):
            assert all(routes.api_of(p) == route.who for p in paths_of(route, "C"))


def test_table_api_md_lists_every_route_and_no_other():
    """docs/table-api.md "全部地址": one row per answer, every path of the table written out (`<录分码>`, `<桌号>`
    for the segments), `show`'s routes the first rows."""
    from tests.test_docs import page, section

    listed = section(page("table-api.md"), "## 全部地址")
    rows = [re.findall(r"`([A-Z]+) (/[^`]*)`", line.split("|")[1]) for line in listed.splitlines()
            if line.startswith("| `")]
    written = [cell for row in rows for cell in row]
    table = [(route.method, path) for route in routes.ROUTES
             for path in paths_of(route, "<录分码>", "<桌号>", DOC_NAMES)]
    assert sorted(written) == sorted(table) and len(set(written)) == len(written)
    assert [row[0] for row in rows[:len(routes.SHOW_ROUTES)]] == [("GET", r.pattern) for r in routes.SHOW_ROUTES]


# --- end to end: serve and show on a port ---


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> tuple[Path, str]:
    """An event with round 1 drawn and table 1's code."""
    folder = tmp_path_factory.mktemp("routes") / "event"
    played_rounds(folder, teams=8, rounds=0)
    with Ledger.open(folder) as book:
        return folder, book.codes(book.draws()[1].id)[1]


@pytest.fixture(scope="module")
def serving(event):
    """`serve` as the command starts it: the hall with the console of its one event."""
    from shuangsheng.hall.console import make_console

    server = make_console(None, event[0], hosts=["127.0.0.1"], port=0, pin=PIN, log=lambda line: None,
                          settle=0.0).hall
    server.start()
    yield server.port
    server.stop()


def ask(port: int, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """One request as a page would send it: a POST with an empty JSON body, the desk's PIN."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        body = b"{}" if method == "POST" else None
        conn.request(method, path, body=body, headers={"Content-Type": "application/json", "X-Desk-PIN": PIN})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


# What each handler answers this request: the handler's own answer, never the router's.
ANSWERED = {("board", "page"): 200, ("board", "board"): 200, ("board", "favicon"): 204, ("page", "table_page"): 200,
            ("page", "desk_page"): 200, ("table", "read"): 200, ("table", "act"): 422, ("desk", "read"): 200,
            ("desk", "clock"): 422, ("desk", "act"): 422, ("desk", "checkin_read"): 200, ("desk", "checkin"): 422,
            ("desk", "replace_read"): 200, ("desk", "replace"): 422,
            # the console: without its session a page goes to the login (303), its JSON is 401, a POST not a form
            # 415, the ways in refuse what they were not given
            ("console", "home"): 303, ("console", "enter"): 403, ("console", "login_page"): 200,
            ("console", "login"): 415, ("console", "token"): 403, ("console", "guide"): 303, ("console", "page"): 303,
            ("console", "act"): 401, ("console", "job_page"): 303, ("console", "job"): 401, ("console", "file"): 303}


def test_every_route_is_reachable_on_serve(event, serving):
    assert set(ANSWERED) == {(r.who, r.answer) for r in routes.ROUTES}  # a new route gets its line here
    for route in routes.ROUTES:
        for path in paths_of(route, event[1]):
            for method in route.methods:
                status, headers, body = ask(serving, method, path)
                assert status == ANSWERED[route.who, route.answer], (method, path, body[:200])
                assert "Allow" not in headers and (method != "HEAD" or not body)
                if route.who in ("table", "desk") and status == 422:
                    assert json.loads(body)["errors"][0]["field"] in ("id", "hand", "action"), body  # the body's


def test_every_route_with_a_wrong_method_is_405_with_allow_on_serve(event, serving):
    for route in routes.ROUTES:
        for path in paths_of(route, event[1]):
            for wrong in ("GET", "POST", "PUT", "DELETE"):
                if wrong in methods_of(path):
                    continue
                status, headers, body = ask(serving, wrong, path)
                assert (status, headers.get("Allow")) == (405, methods_of(path)), (wrong, path)
                if route.who in ("table", "desk"):
                    assert "只能用" in json.loads(body)["errors"][0]["message"]
                else:
                    assert "只能查看" in body.decode("utf-8")


def test_every_other_path_is_404_on_serve(event, serving):
    for path in near_misses(event[1]):
        for method in ("GET", "HEAD", "POST"):
            status, headers, body = ask(serving, method, path)
            assert status == 404 and "Allow" not in headers, (method, path, status)
            if method != "HEAD" and routes.api_of(path) is not None:
                assert json.loads(body)["errors"][0]["message"].endswith("没有这个地址")
            elif method != "HEAD":
                assert "这里没有这个页面" in body.decode("utf-8")
        assert ask(serving, "PUT", path)[0] == 405  # a method no route has: nothing changes anything


def test_show_answers_the_tv_s_routes_alone(event):
    server = make_server(event[0], "127.0.0.1", 0, log=lambda line: None, settle=0.0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        for route in routes.ROUTES:
            for path in paths_of(route, event[1]):
                status, headers, _ = ask(port, "GET", path)
                if route.who == "board":
                    assert status == ANSWERED[route.who, route.answer], path
                else:  # the hall's routes: no such page on show; and nothing that writes
                    assert status == 404, path
                    status, headers, _ = ask(port, "POST", path)
                    assert (status, headers["Allow"]) == (405, "GET, HEAD"), path
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
