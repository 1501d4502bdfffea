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

import sys
from collections.abc import Callable, Mapping
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from shuangsheng.hall import console_work as work
from shuangsheng.hall.console_app import Console, Refusal, Shown
from shuangsheng.hall.console_buttons import EVENT_PAGES, act
from shuangsheng.hall.console_gate import SECRET_HEADER, Gate, cookie_header
from shuangsheng.hall.console_jobs import Job, Jobs
from shuangsheng.hall.desk_api import desk_allowed
from shuangsheng.hall.hall import HallHandler
from shuangsheng.hall.routes import Match
from shuangsheng.render import console_page
from shuangsheng.storage.ledger.lost import LedgerLost
from shuangsheng.storage.opener import Opener, open_in_system
from shuangsheng.vocabulary.errors import Issue, UserError, issues_json

MAX_FORM = 256 * 1024  # bytes of a console form
MAX_DONE = 1000  # forms remembered with where they led (a resend finds it)
FORM_TYPE = "application/x-www-form-urlencoded"
OPEN_ANSWERS = frozenset({"enter", "login_page", "login", "token"})  # the ways in: no session needed
CONSOLE_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
               "img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# the desk's page inside the console's 本轮 page (a frame of the same origin)
DESK_CSP = CONSOLE_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'").replace("form-action 'self'",
                                                                                            "form-action 'none'")

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
        facts = work.FACTS["guide"](self.console.folder, self.console.root)
        self._html(HTTPStatus.OK, console_page.page("guide", self._context(session, facts)))

    def _c_page(self, *, session: str, page: str) -> None:
        console = self.console
        if page in EVENT_PAGES and console.folder is None:
            self._redirect("/console/events")
            return
        try:
            facts = work.FACTS[page](console.folder, console.root)
            facts["query"] = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
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
        if isinstance(result, Shown):
            facts = {**work.FACTS[result.page](console.folder, console.root), "query": {}, **result.facts}
            self._html(result.status, console_page.page(result.page, self._context(session, facts)))
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


# --- starting it ---


def make_console(root: Path | None, folder: Path | None, *, hosts: list[str], port: int, pin: str,
                 log: Callable[[str], None], opener: Opener = open_in_system, **options: object) -> Console:
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

