"""Documents of the desk contract (docs/table-api.md, desk section) for the page tests, and a fake desk API that
answers the page through Playwright's `page.route` (no port): a 64-table round holding every state, quiet tables,
extra minutes, desk logs, long and hostile names. The real `serve` is tested end to end in test_desk_served.py."""

from __future__ import annotations

import copy
import json
from urllib.parse import urlsplit

from shuangsheng.hall.server import SECURITY_HEADERS
from shuangsheng.render.desk_page import desk_page
from shuangsheng.vocabulary.errors import Issue, issues_json

ORIGIN = "http://hall.test"  # never reached: every request is answered by `route`
PIN = "205318"
EVIL = "<img src=x onerror=window.pwned=1>"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
GIVEN = ("建国", "秀英", "桂兰", "志强", "玉梅", "德明", "淑珍", "国华", "丽华", "永福", "凤英", "长顺")
LONG = ("欧阳·买买提艾力江", "诸葛亮亮亮亮", "爱新觉罗·玄烨烨", "阿卜杜热合曼·阿不都")
LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LABELS = {"not_started": "未开始", "to_confirm": "待确认", "confirmed": "已确认", "needs_playoff": "需加赛",
          "invalid": "有误", "paper": "纸质录入", "final_only": "终局录入"}
# The contract's example: 64 tables, every state.
STATES = (["playing"] * 40 + ["not_started"] * 3 + ["to_confirm"] * 5 + ["confirmed"] * 10 + ["needs_playoff"]
          + ["invalid"] + ["paper"] * 3 + ["final_only"])
QUIET = {9: 1140, 23: 960, 41: None}  # table → seconds since its last entry (41: not started, nothing entered)
NOW = "2026-12-01T15:04:05+08:00"


def name(i: int) -> str:
    return SURNAMES[i % len(SURNAMES)] + GIVEN[(i * 7) % len(GIVEN)]


def players(team: int) -> list[str]:
    if team == 5:
        return [EVIL, "张<b>三</b>"]
    if team in (11, 12, 13, 14):
        return [LONG[team - 11], name(team * 2)]
    return [name(team * 2), name(team * 2 + 1)]


def clock(left_s: int = 1800, *, running: bool = True) -> dict:
    return {"minutes": 60, "started_at": "2026-12-01T14:34:05+08:00", "left_s": left_s, "running": running}


def _time(minutes_ago: int) -> str:
    total = 15 * 60 + 4 - minutes_ago
    return f"2026-12-01T{total // 60:02d}:{total % 60:02d}:05+08:00"


def table(number: int, state: str) -> dict:
    """Table `number` of the round in `state`, shaped as GET /api/desk gives it."""
    hands = {"not_started": 0, "playing": (number * 5) % 14, "paper": 0, "final_only": 0}.get(state, 9 + number % 6)
    idle = QUIET.get(number, (number * 37) % 300 if hands else None)
    a, b = 2 * number - 1, 2 * number
    played = hands > 0
    levels = {"A": LEVELS[(number * 3 + hands) % 13], "B": LEVELS[(number + hands * 2) % 13]} if played else None
    winner = {"to_confirm": "A", "confirmed": "B"}.get(state)
    doc = {
        "table": number, "state": state, "label": f"第{hands + 1}局进行中" if state == "playing" else LABELS[state],
        "hands": hands, "last_entry": _time(idle // 60) if idle is not None else None, "idle_s": idle,
        "quiet": number in QUIET and state in ("playing", "not_started"), "extra_minutes": 0, "early_end": None,
        "left_s": 1800,
        "A": {"team": f"{a:02d}", "players": players(a)}, "B": {"team": f"{b:02d}", "players": players(b)},
        "levels": levels, "winner": winner,
        "confirmed": {"A": state == "confirmed" or number == 45, "B": state == "confirmed"}, "log": [],
        "paper_rules": None,
    }
    if number == 7:  # more time once, for a deck changed mid-match
        doc["extra_minutes"], doc["left_s"] = 10, 2400
        doc["log"] = [{"time": _time(20), "action": "minutes", "add": 10, "reason": "换牌耽误", "address": "127.0.0.1"}]
    if state == "confirmed" and number == 50:  # a disputed table, reopened and then accepted for a team
        doc["log"] = [
            {"time": _time(30), "action": "reopen", "reason": "乙方对第6局有异议，裁判长复核", "address": "127.0.0.1"},
            {"time": _time(12), "action": "confirm", "side": "A", "reason": "甲方拒绝签字，比赛负责人裁定",
             "address": "127.0.0.1"},
        ]
    return doc


def round_document(*, decided: bool = False) -> dict:
    """GET /api/desk for round 2 of 128 teams: 64 tables in every state (all decided with `decided`)."""
    states = ["confirmed"] * 59 + ["paper"] * 4 + ["final_only"] if decided else STATES
    tables = [table(n, state) for n, state in enumerate(states, start=1)]
    counts = {key: 0 for key in ("not_started", "playing", "to_confirm", "confirmed", "needs_playoff", "invalid",
                                 "paper", "final_only")}
    for t in tables:
        counts[t["state"]] += 1
    return {
        "round": 2, "title": "第2轮", "now": NOW, "clock": clock(), "counts": {"total": len(tables), **counts},
        "next": {"action": "score", "round": 2, "then": "draw",
                 "text": "第2轮各桌结果都已确认：请计分（扫码录分的各局写入检查副本），然后抽下一轮"} if decided else None,
        "tables": tables, "tv_sound": {"on": 1, "off": 0},
    }


NO_REASON = "请写明原因：重新开放、加时和代为确认都要写原因，记入本桌记录"


class FakeDesk:
    """The desk API of the contract over one document, answering `page.route`: the PIN (401; 429 after 5 wrong),
    the clock, and the four table actions (400 without a reason); a press's `id` seen before is answered 200 with
    nothing done (409 for another action or content). `drop` names POST paths whose next answer is lost after the
    action was done (the Wi-Fi dropped it on the way back); `unavailable` POST paths answered 503 meanwhile."""

    def __init__(self, document: dict | None = None):
        self.document = document or round_document()
        self.pin = PIN
        self.wrong = 0
        self.down = False  # the server out of reach
        self.drop: set[str] = set()
        self.unavailable: set[str] = set()  # POST paths answered 503 (the server redrawing) until removed
        self.cut: set[str] = set()  # POST paths whose next 200 comes with its body cut short (done at the server)
        self.done: dict[str, tuple[str, dict]] = {}  # id → (path, body) of the press done with it
        self.requests: list[tuple[str, str, dict | None]] = []

    def attach(self, page) -> None:
        page.route(f"{ORIGIN}/**", self.answer)

    def answer(self, route, request) -> None:
        path = urlsplit(request.url).path
        if path == "/desk":
            route.fulfill(status=200, body=desk_page(),
                          headers={"Content-Type": "text/html; charset=utf-8", **SECURITY_HEADERS})
            return
        if self.down:
            route.abort("connectionrefused")
            return
        body = request.post_data_json if request.method == "POST" else None
        self.requests.append((request.method, path, body))
        if request.method == "POST" and path in self.unavailable:
            route.fulfill(status=503, body=json.dumps(refusal("本轮正在重新抽签，请稍后再操作一次"), ensure_ascii=False),
                          headers={"Content-Type": "application/json; charset=utf-8", **SECURITY_HEADERS})
            return
        status, document = self.decide(request.method, path, request.headers.get("x-desk-pin"), body)
        if path in self.drop:
            self.drop.discard(path)
            route.abort("connectionreset")
            return
        if path in self.cut:
            self.cut.discard(path)
            route.fulfill(status=status, body=json.dumps(document, ensure_ascii=False)[:40],
                          headers={"Content-Type": "application/json; charset=utf-8", **SECURITY_HEADERS})
            return
        route.fulfill(status=status, body=json.dumps(document, ensure_ascii=False),
                      headers={"Content-Type": "application/json; charset=utf-8", **SECURITY_HEADERS})

    def decide(self, method: str, path: str, pin: str | None, body: dict | None) -> tuple[int, dict]:
        if self.wrong >= 5:
            return 429, refusal("密码输错的次数太多，请一分钟后再试")
        if pin != self.pin:
            self.wrong += 1
            return 401, refusal("请输入裁判台密码（运行 serve 的电脑上显示的 6 位数字）")
        if method == "GET" and path == "/api/desk":
            return 200, self.document
        press = body.get("id")
        if press in self.done:
            if self.done[press] == (path, body):
                return 200, copy.deepcopy(self.document)
            return 409, refusal("操作编号已用于另一项操作", field="id")
        status, document = self.act_on(path, body)
        if status == 200 and press is not None:
            self.done[press] = (path, body)
        return status, document

    def act_on(self, path: str, body: dict) -> tuple[int, dict]:
        if path == "/api/desk/clock":
            return self.clock(body["action"])
        parts = path.split("/")  # /api/desk/t/<table>/<action>
        found = [t for t in self.document["tables"] if str(t["table"]) == parts[4]]
        if not found:
            return 404, refusal(f"本轮没有第{parts[4]}桌")
        if not (body.get("reason") or "").strip():
            return 400, refusal(NO_REASON, field="reason")
        return self.act(found[0], parts[5], body)

    def clock(self, action: str) -> tuple[int, dict]:
        now = self.document["clock"]
        if now is None:
            self.document["clock"] = clock(3600)
        else:
            now["running"] = action == "start"
        return 200, self.document

    def act(self, t: dict, action: str, body: dict) -> tuple[int, dict]:
        entry = {"time": NOW, "action": action, "reason": body["reason"], "address": "127.0.0.1"}
        if action == "minutes":
            entry["add"] = body["add"]
            t["extra_minutes"] += body["add"]
            t["left_s"] += 60 * body["add"]
        elif action == "early_end":
            t["early_end"] = {"reason": body["reason"], "time": NOW[11:16]}
        elif action == "confirm":
            if t["state"] not in ("to_confirm", "confirmed"):
                return 409, refusal("这一桌的比赛还没有结束，不能代为确认")
            entry["side"] = body["side"]
            t["confirmed"][body["side"]] = True
        elif action == "paper_rules":  # the signed card overrules the phones (or, undone, back to them)
            entry["undo"] = body.get("undo", False)
            t["paper_rules"] = None if entry["undo"] else {"reason": body["reason"], "time": NOW[11:16]}
        t["log"].append(entry)
        return 200, copy.deepcopy(self.document)


def refusal(message: str, *, field: str | None = None) -> dict:
    """As the desk API refuses: the one error object (docs/README.md)."""
    return issues_json([Issue.of_hand(None, field, message)])
