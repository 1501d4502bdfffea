"""The organiser's console: the whole day in the PC's browser (`shuangsheng start`, and `serve DIR` for one event),
served by the hall's own server on the same port as the TV, the phones and the desk.

Who may use it is decided in this order for every console path of the route table (`routes.ROUTES`, who
"console"): a `Host` not ours 421 (the server's own check); an address other than the PC itself 403; then, except
for the way in (`/console/enter` with a one-time token, `/console/login` with the PIN, `/console/token` for a second
start), a session cookie (`shuangsheng.hall.console_gate`): a page without one is sent to the login (303), a POST
is 401; a POST must be a form (415), at most MAX_FORM bytes (413), of this origin (`Origin`/`Sec-Fetch-Site`, 403)
and carry the session's form token (403). Every form carries an `id`: the same form sent again finds what it did
the first time (its job, or where it led), never a second draw or score; and where a form acts on a state (a draw
on the rounds drawn when the page was shown), its `mark`: a page shown before a change is refused with 409 and
what it is now. Long work runs as a job (`shuangsheng.hall.console_jobs`) whose page shows its progress. What the
pages show and what their buttons do is `shuangsheng.hall.console_work`; how they look, `shuangsheng.render.console_page`."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from shuangsheng.hall import console_work as work
from shuangsheng.hall.api_common import Request
from shuangsheng.hall.console_gate import SECRET_HEADER, Gate, cookie_header
from shuangsheng.hall.console_jobs import Job, Jobs
from shuangsheng.hall.desk_api import desk_allowed
from shuangsheng.hall.hall import Hall, HallHandler, make_venue
from shuangsheng.hall.qr_watch import QrWatch
from shuangsheng.hall.routes import Match
from shuangsheng.render import console_page
from shuangsheng.render.console_page import Action
from shuangsheng.storage.ledger.lost import LedgerLost
from shuangsheng.storage.names import EVENT_FILE, rounds_drawn
from shuangsheng.vocabulary.errors import Issue, UserError, issues_json

MAX_FORM = 256 * 1024  # bytes of a console form
MAX_DONE = 1000  # forms remembered with where they led (a resend finds it)
FORM_TYPE = "application/x-www-form-urlencoded"
OPEN_ANSWERS = frozenset({"enter", "login_page", "login", "token"})  # the ways in: no session needed
EVENT_PAGES = frozenset({"settings", "teams", "materials", "draw", "round", "correct", "awards"})
CONSOLE_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
               "img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# the desk's page inside the console's 本轮 page (a frame of the same origin)
DESK_CSP = CONSOLE_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'").replace("form-action 'self'",
                                                                                            "form-action 'none'")

Opener = Callable[[Path], "str | None"]  # opens a file in the PC's own program; why not, or None


@dataclass(frozen=True)
class Refusal:
    """A console request refused: its status and what the page says (and where to go from there)."""

    status: int
    message: str
    back: str = "/console"


@dataclass
class Console:
    """One console: the hall it runs in, the events root (None for `serve DIR`: that event only), who may use it,
    its jobs, and how a file is opened in the PC's own program."""

    hall: Hall
    gate: Gate
    root: Path | None
    opener: Opener
    jobs: Jobs = field(default_factory=Jobs)
    inline: bool = False  # run the jobs in the request's thread (tests)
    done: dict[str, str] = field(default_factory=dict)  # form id → where its answer sent the browser
    lan: str | None = None  # the LAN address phones use, once opened
    sheets: QrWatch | None = None  # the open event's 扫码单 at the LAN address, kept in step with its draws

    @property
    def folder(self) -> Path | None:
        venue = self.hall.site.venue
        return venue.folder if venue is not None else None

    def admits(self, request: Request) -> bool:
        """The desk's API: the console's session cookie stands for the PIN."""
        return self.gate.session(request.headers.get("cookie")) is not None

    def open_event(self, folder: Path) -> None:
        """Serve `folder`'s hall from now on (the TV, the phones, the desk), closing the one before."""
        if self.folder == folder:
            return
        self.serve(folder)

    def serve(self, folder: Path) -> None:
        """The hall of `folder` made anew with the hall's options as they are now (the LAN address once opened)."""
        from shuangsheng.storage.event import load

        try:
            desk_lan = load(folder).serve.desk_lan
        except UserError:
            desk_lan = False  # the settings page says what is wrong with event.toml
        self.hall.site.replace(make_venue(folder, self.hall.options, desk_lan=desk_lan))
        self.watch_sheets()

    def watch_sheets(self) -> None:
        """Once the phones are let in: the open event's 扫码单 (QR codes of the LAN address), rewritten as it is drawn."""
        if self.sheets is not None:
            self.sheets.stop()
            self.sheets = None
        if self.lan is not None and self.folder is not None:
            self.sheets = QrWatch(self.folder, self.lan, say=self.jobs.log, warn=self.jobs.log)
            self.sheets.start()

    def stop(self) -> None:
        """Stop the 扫码单's watch and the servers (the open event's ledger checkpointed)."""
        if self.sheets is not None:
            self.sheets.stop()
        self.hall.stop()

    def start(self, form: Mapping[str, str], title: str, job: work.Work, back: str) -> str:
        """Start the job of `form` (or find the one it started) and send the browser to its page."""
        found = self.jobs.start(form.get("id", "") or secrets.token_hex(8), title, job,
                                back=Action("返回", back), inline=self.inline)
        return f"/console/jobs/{found.id}"


class ConsoleHandler(HallHandler):
    """The hall's handler with the console's routes answered here."""

    server_version = "shuangsheng-serve"

    @property
    def console(self) -> Console:
        console = self.site.console
        assert isinstance(console, Console)
        return console

    def security_headers(self) -> dict[str, str]:
        headers = dict(super().security_headers())
        path = urlsplit(getattr(self, "path", "")).path
        if path.startswith("/console"):
            headers["Content-Security-Policy"] = CONSOLE_CSP
            # a form's POST carries the page's origin (with no-referrer the browser sends "Origin: null")
            headers["Referrer-Policy"] = "same-origin"
        elif path == "/desk":
            headers["Content-Security-Policy"] = DESK_CSP
        return headers

    def _respond(self, found: Match) -> None:
        if found.route.who != "console":
            super()._respond(found)
            return
        try:
            self._console(found)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception:
            import traceback

            traceback.print_exc(file=sys.stderr)
            self._html(HTTPStatus.INTERNAL_SERVER_ERROR, console_page.refusal(
                "控制台出了意外的错误，这一步可能没有做完；请回到上一页再试一次", "/console"))

    # --- who may ask ---

    def _console(self, found: Match) -> None:
        console, answer = self.console, found.route.answer
        if not console_allowed(self.client_address[0], console.hall.options.bound):
            self._refuse(Refusal(HTTPStatus.FORBIDDEN, "组织者控制台只能在运行它的这台电脑上打开", "/"))
            return
        if answer in OPEN_ANSWERS:
            getattr(self, f"_c_{answer}")()
            return
        session = console.gate.session(self.headers.get("Cookie"))
        if session is None:
            if self.path.startswith("/api/"):
                self._json(HTTPStatus.UNAUTHORIZED, issues_json((Issue.plain("请先进入控制台（输入控制台密码）"),)))
            elif self.command == "POST":
                self._refuse(Refusal(HTTPStatus.UNAUTHORIZED, "请先进入控制台（输入控制台密码）", "/console/login"))
            else:
                self._redirect("/console/login")
            return
        if self.command == "POST":
            form = self._form(session)
            if isinstance(form, Refusal):
                self._refuse(form)
                return
            self._act(found.params["page"], found.params["action"], form, session)
            return
        getattr(self, f"_c_{answer}")(session=session, **found.params)

    def _form(self, session: str | None) -> dict[str, str] | Refusal:
        """The POSTed form, checked: a form (415), not too long (413), from a page of this console (403)."""
        if self.headers.get_content_type() != FORM_TYPE:
            return Refusal(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "请从控制台的页面上操作")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_FORM:
            self.close_connection = True
            return Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "提交的内容太长")
        origin = self.headers.get("Origin")
        site = self.headers.get("Sec-Fetch-Site")
        if (origin is not None and origin != f"http://{self.headers.get('Host', '')}") or site not in (
                None, "same-origin", "none"):
            return Refusal(HTTPStatus.FORBIDDEN, "这个操作不是从本控制台的页面发出的，没有执行")
        try:
            raw = self.rfile.read(length).decode("utf-8")
            fields = {k: v[-1] for k, v in parse_qs(raw, keep_blank_values=True, strict_parsing=bool(raw),
                                                     max_num_fields=2000).items()}
        except (UnicodeDecodeError, ValueError):
            return Refusal(HTTPStatus.BAD_REQUEST, "提交的内容无法识别，请刷新页面后再操作")
        if session is not None and not self.console.gate.form_token_ok(session, fields.get("csrf")):
            return Refusal(HTTPStatus.FORBIDDEN, "页面已过期（控制台重新启动过），请刷新页面后再操作")
        return fields

    # --- the ways in ---

    def _c_enter(self) -> None:
        token = parse_qs(urlsplit(self.path).query).get("token", [""])[-1]
        session = self.console.gate.enter(token)
        if session is None:
            self._refuse(Refusal(HTTPStatus.FORBIDDEN, "这个链接已经用过或过期了：请从开始菜单再打开一次“双升级比赛”，"
                                                       "或输入控制台密码进入", "/console/login"))
            return
        self._redirect("/console", cookie=session)

    def _c_login_page(self, error: str = "", status: int = HTTPStatus.OK) -> None:
        self._html(status, console_page.login(error))

    def _c_login(self) -> None:
        form = self._form(None)
        if isinstance(form, Refusal):
            self._refuse(form)
            return
        pins = self.console.hall.options.pins
        address = self.client_address[0]
        if pins.blocked(address):
            self._c_login_page("密码输错的次数太多，请一分钟后再试", HTTPStatus.TOO_MANY_REQUESTS)
            return
        session = self.console.gate.login(form.get("pin", ""))
        if session is None:
            pins.wrong(address)
            self._c_login_page("密码不对：控制台密码印在运行控制台的黑色窗口里，也显示在控制台的每一页上",
                               HTTPStatus.UNAUTHORIZED)
            return
        self._redirect("/console", cookie=session)

    def _c_token(self) -> None:
        """A second start asks for a one-time token with the launch secret (JSON)."""
        if not self.console.gate.launch_ok(self.headers.get(SECRET_HEADER)):
            self._json(HTTPStatus.FORBIDDEN, issues_json((Issue.plain("不是这个控制台的启动密钥"),)))
            return
        self._json(HTTPStatus.OK, {"token": self.console.gate.one_time_token(),
                                   "root": str(self.console.root or self.console.folder or "")})

    # --- pages ---

    def _c_home(self, *, session: str) -> None:
        self._redirect("/console/round" if self.console.folder is not None else "/console/events")

    def _c_guide(self, *, session: str) -> None:
        self._html(HTTPStatus.OK, console_page.page("guide", self._context(session)))

    def _c_page(self, *, session: str, page: str) -> None:
        console = self.console
        if page in EVENT_PAGES and console.folder is None:
            self._redirect("/console/events")
            return
        try:
            facts = work.FACTS[page](console.folder, console.root)
        except UserError as exc:  # the folder cannot be read as it is (event.db lost, a workbook broken): why
            self._html(HTTPStatus.CONFLICT, console_page.problems(exc, self._context(session), back="/console/events",
                                                                  rebuild=isinstance(exc, LedgerLost)))
            return
        self._html(HTTPStatus.OK, console_page.page(page, self._context(session, facts)))

    def _c_job_page(self, *, session: str, job: str) -> None:
        found = self.console.jobs.get(job)
        if found is None:
            self._refuse(Refusal(HTTPStatus.NOT_FOUND, "这项工作已经不在了（控制台重新启动过）", "/console"))
            return
        self._html(HTTPStatus.OK, console_page.job(found, self._context(session)))

    def _c_job(self, *, session: str, job: str) -> None:
        found = self.console.jobs.get(job)
        if found is None:
            self._json(HTTPStatus.NOT_FOUND, issues_json((Issue.plain("这项工作已经不在了（控制台重新启动过）"),)))
            return
        self._json(HTTPStatus.OK, job_json(found))

    def _c_file(self, *, session: str, name: str) -> None:
        """A PDF or picture of the open event, for the browser's own viewer (打开)."""
        folder = self.console.folder
        name = unquote(name)
        path = folder / name if folder is not None else None
        kind = {".pdf": "application/pdf", ".png": "image/png"}.get(Path(name).suffix.lower())
        if path is None or kind is None or "/" in name or "\\" in name or path.parent != folder or not path.is_file():
            self._refuse(Refusal(HTTPStatus.NOT_FOUND, "没有这个文件（也许刚被重新生成或删除了）", "/console"))
            return
        data = path.read_bytes()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Disposition", f"inline; filename*=UTF-8''{quote(name)}")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _context(self, session: str, facts: Mapping[str, object] | None = None) -> console_page.Context:
        console = self.console
        return console_page.Context(folder=console.folder, root=console.root, pin=console.gate.pin,
                                    csrf=console.gate.form_token(session), lan=console.lan, busy=console.jobs.busy(),
                                    facts=facts or {})

    # --- the buttons ---

    def _act(self, page: str, action: str, form: dict[str, str], session: str) -> None:
        console = self.console
        form_id = form.get("id", "")
        if form_id and form_id in console.done:  # the same form again: where it led the first time
            self._redirect(console.done[form_id])
            return
        try:
            result = act(console, page, action, form)
        except UserError as exc:
            self._html(HTTPStatus.UNPROCESSABLE_ENTITY, console_page.problems(
                exc, self._context(session), back=f"/console/{page}"))
            return
        if isinstance(result, Refusal):
            self._refuse(result)
            return
        if form_id:
            console.done[form_id] = result
            while len(console.done) > MAX_DONE:
                del console.done[next(iter(console.done))]
        self._redirect(result)

    # --- answers ---

    def _refuse(self, refusal: Refusal) -> None:
        self._html(refusal.status, console_page.refusal(refusal.message, refusal.back))

    def _html(self, status: int, html: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(html)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(html)

    def _json(self, status: int, document: object) -> None:
        import json

        data = json.dumps(document, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def _redirect(self, location: str, *, cookie: str | None = None) -> None:
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Location", location)
        if cookie is not None:
            self.send_header("Set-Cookie", cookie_header(cookie))
        self.send_header("Content-Length", "0")
        self.end_headers()


def console_allowed(address: str, bound: tuple[str, ...]) -> bool:
    """The console answers the PC itself only: 127.0.0.1, ::1, or one of the PC's own addresses the server is bound
    to (the PC opening its LAN address) — never another device, whatever `[serve] desk_lan` says."""
    return desk_allowed(address, False, bound)


def job_json(job: Job) -> dict[str, object]:
    return {"id": job.id, "title": job.title, "running": job.running, "label": job.step.label,
            "percent": job.step.percent, "ok": job.outcome.ok if job.outcome is not None else None}


# --- what each button does: where the browser goes next, or why not ---


def act(console: Console, page: str, action: str, form: Mapping[str, str]) -> str | Refusal:
    """The button `action` of `page`: the page (or job page) to show next; UserError for what the user can fix."""
    if page == "events":
        return _events_act(console, action, form)
    folder = console.folder
    if folder is None:
        return Refusal(HTTPStatus.CONFLICT, "还没有打开比赛：请在“活动”页打开一场比赛", "/console/events")
    handler = ACTIONS.get((page, action))
    if handler is None:
        return Refusal(HTTPStatus.NOT_FOUND, "控制台没有这个操作", f"/console/{page}")
    return handler(console, folder, form)


def _events_act(console: Console, action: str, form: Mapping[str, str]) -> str | Refusal:
    from shuangsheng.usecases.events import new_event_folder
    from shuangsheng.usecases.init import init_event

    root = console.root
    if root is None:
        return Refusal(HTTPStatus.CONFLICT, "这个控制台只管一场比赛（用 serve 打开的），不能新建或换别的比赛",
                       "/console/round")
    if action == "demo":
        return console.start(form, "生成示例比赛", work.demo_work(root), "/console/events")
    if action == "new":
        folder = new_event_folder(root, form.get("name", ""))
        init_event(folder)
        console.open_event(folder)
        return "/console/settings"
    if action == "open":
        name = form.get("name", "")
        folder = root / name
        if not name or "/" in name or "\\" in name or not (folder / EVENT_FILE).is_file():
            return Refusal(HTTPStatus.NOT_FOUND, f"没有找到比赛“{name}”（也许被移走或改名了）", "/console/events")
        console.open_event(folder)
        return "/console/round" if rounds_drawn(folder) else "/console/settings"
    return Refusal(HTTPStatus.NOT_FOUND, "控制台没有这个操作", "/console/events")


def _stale(folder: Path, form: Mapping[str, str], page: str) -> Refusal | None:
    """A form made on an earlier state of the rounds (its `mark`: the rounds drawn then): 409, what it is now."""
    try:
        mark = int(form.get("mark", ""))
    except ValueError:
        return Refusal(HTTPStatus.UNPROCESSABLE_ENTITY, "请刷新页面后再操作", f"/console/{page}")
    drawn = rounds_drawn(folder)
    if mark != drawn:
        return Refusal(HTTPStatus.CONFLICT, f"这一页打开之后比赛有了变化（当时抽到第{mark}轮，现在已抽到第{drawn}轮），"
                                            "这次没有执行；请看最新的页面再决定", f"/console/{page}")
    return None


def _whole(text: str | None, name: str) -> int:
    try:
        value = int((text or "").strip())
    except ValueError:
        raise UserError([Issue.of_hand(None, name, f"应为整数，实际为“{text or ''}”")]) from None
    if not 0 <= value < 10**15:
        raise UserError([Issue.of_hand(None, name, f"应为 0 到 999999999999999 之间的整数，实际为“{text}”")])
    return value


def _materials(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    return console.start(form, "打印材料", work.materials_work(folder), "/console/materials")


def _draw(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    stale = _stale(folder, form, "draw")
    if stale is not None:
        return stale
    seed = _whole(form["seed"], "seed") if form.get("seed", "").strip() else None
    lots = {k[4:]: v for k, v in form.items() if k.startswith("lot-")}
    number = rounds_drawn(folder) + 1
    return console.start(form, f"抽第{number}轮", work.draw_work(folder, seed=seed, lots=lots, number=number),
                         "/console/draw")


def _check(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    number = _whole(form.get("round"), "round")
    return console.start(form, f"复核第{number}轮", work.check_work(folder, number), "/console/draw")


def _score(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    number = _whole(form.get("round"), "round") if form.get("round") else None
    back = "/console/round" if number is None or number == rounds_drawn(folder) else "/console/correct"
    return console.start(form, "计分", work.score_work(folder, number, accept_rules=form.get("accept_rules") == "1"),
                         back)


def _redo(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    stale = _stale(folder, form, "correct")
    if stale is not None:
        return stale
    number = _whole(form.get("round"), "round")
    return console.start(form, f"重排第{number}轮", work.redo_work(folder, number), "/console/correct")


def _awards(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    return console.start(form, "颁奖", work.awards_work(folder, per_player=form.get("per_player") == "1"),
                         "/console/awards")


def _open(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    """打开: a file of the event (or the folder itself) in the PC's own program (Excel, WPS, Notepad, Explorer)."""
    name = form.get("name", "")
    back = form.get("back", "/console") if form.get("back", "").startswith("/console") else "/console"
    path = folder if name == "." else folder / name
    if "/" in name or "\\" in name or not path.exists():
        return Refusal(HTTPStatus.NOT_FOUND, f"没有找到 {name}", back)
    problem = console.opener(path)
    if problem is not None:
        return Refusal(HTTPStatus.SERVICE_UNAVAILABLE, problem, back)
    return back


def _rebuild(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    """event.db lost after rounds were drawn: built again from the workbooks (what `rebuild` does)."""
    return console.start(form, "重建比赛记录", work.rebuild_work(folder), "/console/round")


def _lan(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    """Let the phones and the TV in: the hall also answers on the PC's LAN address (the console never does)."""
    from shuangsheng.hall.lan import lan_address

    if console.lan is None:
        host = lan_address()
        if not host:
            return Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "找不到这台电脑的局域网地址：请确认电脑已连上场地的无线网络或路由器，"
                                                           "再点一次", "/console/round")
        try:
            console.lan = console.hall.listen(host)
        except OSError as exc:
            return Refusal(HTTPStatus.SERVICE_UNAVAILABLE, f"无法在 {host} 上开放（{exc.strerror or exc}）", "/console/round")
        console.serve(folder)
    return "/console/round"


# 更正's desk presses on a phone table of any round: what each is called in its refusals
DESK_PRESSES = {"reopen": "重新打开", "paper_rules": "以纸质为准"}


def _reopen(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    """更正: the desk reopens a phone table of any round (its press, through the desk's API, logged with the reason),
    so that its teams correct it on their phones (改这一局) and confirm again."""
    return _desk_press(console, "reopen", form)


def _paper_rules(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal:
    """更正: the desk gives a phone table of any round to its signed paper card (以纸质为准: the round workbook's sheet,
    or its 终局 cells, is the record; the phones' entries are kept, not counted), through the desk's API."""
    return _desk_press(console, "paper_rules", form)


def _desk_press(console: Console, press: str, form: Mapping[str, str]) -> str | Refusal:
    """The desk's `press` (docs/table-api.md) on the table the form names, with its round, reason, id and mark."""
    import json

    venue = console.hall.site.venue
    try:
        table, mark, a, b = form.get("table", "").split("|")
        body = {"round": _whole(form.get("round"), "round"), "reason": form.get("reason", "").strip(),
                "id": form.get("id") or secrets.token_hex(8), "mark": int(mark), "teams": [a, b]}
    except ValueError:
        return Refusal(HTTPStatus.UNPROCESSABLE_ENTITY, "请在列表里选一桌，再填写原因", "/console/correct")
    if not body["reason"]:
        return Refusal(HTTPStatus.UNPROCESSABLE_ENTITY, f"请填写{DESK_PRESSES[press]}的原因（会记入比赛记录）",
                       "/console/correct")
    assert venue is not None
    host = f"127.0.0.1:{console.hall.port}"
    reply = venue.desk.handle(Request("POST", f"/api/desk/t/{table}/{press}", "127.0.0.1",
                                      {"host": host, "content-type": "application/json", "x-desk-pin": console.gate.pin},
                                      json.dumps(body).encode("utf-8")))
    if reply.status >= 300:
        errors = reply.document.get("errors") if isinstance(reply.document, dict) else None
        said = "；".join(str(e.get("message")) for e in errors or () if isinstance(e, dict))
        return Refusal(reply.status, said or f"没有{DESK_PRESSES[press]}", "/console/correct")
    return f"/console/correct#round-{body['round']}"


ACTIONS: dict[tuple[str, str], Callable[[Console, Path, Mapping[str, str]], str | Refusal]] = {
    ("materials", "build"): _materials,
    ("draw", "draw"): _draw,
    ("draw", "check"): _check,
    ("round", "score"): _score,
    ("round", "lan"): _lan,
    ("round", "rebuild"): _rebuild,
    ("correct", "score"): _score,
    ("correct", "redo"): _redo,
    ("correct", "reopen"): _reopen,
    ("correct", "paper_rules"): _paper_rules,
    ("awards", "build"): _awards,
    **{(page, "open"): _open for page in EVENT_PAGES},
}


# --- starting it ---


def system_opener(path: Path) -> str | None:
    """Open `path` with the PC's own program for it (os.startfile on Windows, open on macOS, xdg-open elsewhere);
    why not, in plain words, or None."""
    import os
    import subprocess

    try:
        if sys.platform == "win32":
            os.startfile(path)  # type: ignore[attr-defined]
        else:
            command = "open" if sys.platform == "darwin" else "xdg-open"
            subprocess.Popen([command, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError as exc:
        return f"无法打开 {path.name}（{exc.strerror or exc}）：请在文件夹 {path.parent} 里双击打开它"
    return None


def make_console(root: Path | None, folder: Path | None, *, hosts: list[str], port: int, pin: str,
                 log: Callable[[str], None], opener: Opener = system_opener, **options: object) -> Console:
    """Bind the hall on `hosts` with the console's handler; the event in `folder` open (or none yet); not serving."""
    from shuangsheng.hall.hall import make_hall

    gate = Gate(pin)
    holder: dict[str, Console] = {}
    hall = make_hall(folder, hosts, port, log=log, pin=pin, handler=ConsoleHandler,
                     admitted=lambda request: holder["console"].admits(request), **options)  # type: ignore[arg-type]
    console = Console(hall, gate, root, opener, jobs=Jobs(log=log))
    holder["console"] = console
    hall.site.console = console
    return console

