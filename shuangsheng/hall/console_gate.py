"""Who may use the organiser's console (`shuangsheng.hall.console`), decided here and nowhere else.

- The browser the launcher opens comes in without typing anything: `start` makes a one-time token, opens
  `/console/enter?token=…`, and the token (good once, for TOKEN_SECONDS) is exchanged for a session: an HttpOnly
  SameSite=Strict cookie, which also stands for `X-Desk-PIN` on the desk's API.
- Any other browser on the PC logs in with the PIN, new at each start (or `[serve] pin`), shown on the console's
  own pages and in its window.
- Every POST of a console page carries the session's form token (`form_token`), which a page of another origin can
  neither read nor compute: no page open in the same browser can draw, score or correct.
- A second `start` finds the running console through a file in the user's own profile folder (`StateFile`: its
  port and a launch secret, readable by that user only) and asks it for a fresh one-time token.
Standard library only."""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from pathlib import Path

COOKIE = "shuangsheng_console"
TOKEN_SECONDS = 300.0  # a one-time token is good this long (the browser may be slow to start)
MAX_SESSIONS = 64  # sessions remembered (the oldest forgotten first)
SECRET_HEADER = "x-console-secret"  # a second start proves it may ask for a token
STATE_ENV = "SHUANGSHENG_STATE_DIR"  # where the state file lives instead of the profile folder (tests, portable use)


class Gate:
    """One-time tokens, sessions and form tokens of one console process. Safe from many threads at once."""

    def __init__(self, pin: str, *, clock: Callable[[], float] = time.monotonic):
        self.pin = pin
        self.launch_secret = secrets.token_urlsafe(32)  # written to the state file for a second start
        self._key = secrets.token_bytes(32)  # signs the form tokens
        self._clock = clock
        self._tokens: dict[str, float] = {}
        self._sessions: dict[str, None] = {}
        self._lock = threading.Lock()

    def one_time_token(self) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            now = self._clock()
            self._tokens = {t: until for t, until in self._tokens.items() if until > now}
            self._tokens[token] = now + TOKEN_SECONDS
        return token

    def enter(self, token: str) -> str | None:
        """A new session for a one-time token still good (used up now), else None."""
        with self._lock:
            until = self._tokens.pop(token, None)
            if until is None or until <= self._clock():
                return None
            return self._new_session()

    def login(self, pin: str) -> str | None:
        """A new session for the right PIN, else None (the caller counts wrong PINs)."""
        if not hmac.compare_digest(pin.strip().encode("utf-8"), self.pin.encode("utf-8")):
            return None
        with self._lock:
            return self._new_session()

    def _new_session(self) -> str:
        session = secrets.token_urlsafe(32)
        self._sessions[session] = None
        while len(self._sessions) > MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]
        return session

    def session(self, cookie_header: str | None) -> str | None:
        """The session a request's `Cookie` header carries, when it is one of ours."""
        if not cookie_header:
            return None
        cookies: SimpleCookie = SimpleCookie()
        try:
            cookies.load(cookie_header)
        except CookieError:
            return None
        morsel = cookies.get(COOKIE)
        if morsel is None:
            return None
        with self._lock:
            return morsel.value if morsel.value in self._sessions else None

    def form_token(self, session: str) -> str:
        return hmac.new(self._key, session.encode("ascii"), "sha256").hexdigest()

    def form_token_ok(self, session: str, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.form_token(session), given or "")

    def launch_ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.launch_secret.encode(), (given or "").encode())


def cookie_header(session: str) -> str:
    """The `Set-Cookie` value of a session: HttpOnly (no script reads it), SameSite=Strict (no other site's page
    sends it), for the whole server (the desk's API takes it too)."""
    return f"{COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/"


# --- the state file: how a second start finds the running console ---


@dataclass(frozen=True)
class Running:
    port: int
    secret: str
    root: str


def state_dir() -> Path:
    """The user's own folder for the program's state: %LOCALAPPDATA%\\shuangsheng on Windows, else
    $XDG_STATE_HOME/shuangsheng (~/.local/state/shuangsheng); `SHUANGSHENG_STATE_DIR` wins."""
    if given := os.environ.get(STATE_ENV):
        return Path(given)
    if sys.platform == "win32" and (local := os.environ.get("LOCALAPPDATA")):
        return Path(local) / "shuangsheng"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "shuangsheng"


def state_path() -> Path:
    return state_dir() / "console.json"


def write_state(running: Running, path: Path | None = None) -> Path:
    """Write the state file, readable by this user only (mode 0600 where the system has modes; under the user's
    own profile on Windows). A failure to write it only means a second start cannot find this one."""
    path = path or state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps({"port": running.port, "secret": running.secret, "root": running.root}).encode("utf-8")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
    os.replace(temporary, path)
    return path


def read_state(path: Path | None = None) -> Running | None:
    """The running console as the state file says (it may have stopped since: ask it), or None."""
    try:
        data = json.loads((path or state_path()).read_text(encoding="utf-8"))
        return Running(int(data["port"]), str(data["secret"]), str(data.get("root", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def forget_state(running: Running, path: Path | None = None) -> None:
    """Remove the state file when it is still this console's (another start may have written its own since)."""
    path = path or state_path()
    with contextlib.suppress(OSError):
        if read_state(path) == running:
            path.unlink()
