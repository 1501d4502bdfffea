"""What each button of the console does (`act`, the table `ACTIONS`): the page or job page to show next, or why
not (`Refusal`); UserError for what the user can fix. Long work is started as a job
(`shuangsheng.hall.console_work`); the desk's presses go through the desk's own API."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from http import HTTPStatus
from pathlib import Path

from shuangsheng.hall import console_work as work
from shuangsheng.hall.api_common import Request
from shuangsheng.hall.console_app import Console, Refusal, Shown
from shuangsheng.storage.names import EVENT_FILE, rounds_drawn
from shuangsheng.vocabulary.errors import Issue, UserError

EVENT_PAGES = frozenset({"settings", "teams", "materials", "draw", "round", "correct", "awards"})


def act(console: Console, page: str, action: str, form: Mapping[str, str]) -> str | Refusal | Shown:
    """The button `action` of `page`: the page (or job page) to show next; UserError for what the user can fix."""
    if page == "events":
        return _events_act(console, action, form)
    if page == "guide":
        return _open_guide(console, form)
    folder = console.folder
    if folder is None:
        return Refusal(HTTPStatus.CONFLICT, "还没有打开比赛：请在“活动”页打开一场比赛", "/console/events")
    handler = ACTIONS.get((page, action))
    if handler is None:
        return Refusal(HTTPStatus.NOT_FOUND, "控制台没有这个操作", f"/console/{page}")
    return handler(console, folder, form)


def _open_guide(console: Console, form: Mapping[str, str]) -> str | Refusal:
    """使用说明: one of the guides in docs/ opened in the PC's own program (Notepad for a .md)."""
    from shuangsheng.storage.home import docs_folder

    docs, name = docs_folder(), form.get("name", "")
    path = docs / name if docs is not None else None
    if path is None or "/" in name or "\\" in name or not name.endswith(".md") or not path.is_file():
        return Refusal(HTTPStatus.NOT_FOUND, f"没有找到说明 {name}", "/console/guide")
    opening = console.opener(path)
    if opening.issue is not None:
        return Refusal(HTTPStatus.SERVICE_UNAVAILABLE, str(opening.issue), "/console/guide")
    return "/console/guide"


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
    opening = console.opener(path)
    if opening.issue is not None:
        return Refusal(HTTPStatus.SERVICE_UNAVAILABLE, str(opening.issue), back)
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


def _settings(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal | Shown:
    """设置 saved: every field of the form written into event.toml (its comments kept), or the page again with what
    was typed and each problem at its field."""
    from shuangsheng.storage.settings import SettingsRefused
    from shuangsheng.usecases.settings import save_settings

    values = {k[2:]: v for k, v in form.items() if k.startswith("s-")}
    try:
        saved = save_settings(folder, values, form.get("mark", ""), patience=work.PATIENCE)
    except SettingsRefused as exc:
        return Shown(HTTPStatus.UNPROCESSABLE_ENTITY, "settings", {"typed": values, "error": exc})
    rules = "&rules=1" if saved.rules_changed and rounds_drawn(folder) else ""
    return f"/console/settings?saved={len(saved.changed)}{rules}"


def _award_date(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal | Shown:
    """颁奖: the date the certificates and the announcement are signed on ([print] award_date), set from the page."""
    from shuangsheng.storage.settings import SettingsRefused
    from shuangsheng.usecases.settings import save_settings

    try:
        save_settings(folder, {"print.award_date": form.get("date", "")}, form.get("mark", ""), patience=work.PATIENCE)
    except SettingsRefused as exc:
        return Shown(HTTPStatus.UNPROCESSABLE_ENTITY, "awards", {"problem": exc})
    return "/console/awards"


def _team_row(form: Mapping[str, str]) -> dict[str, str]:
    return {k[2:]: v for k, v in form.items() if k.startswith("t-")}


def _team(console: Console, folder: Path, form: Mapping[str, str], team: str | None) -> str | Refusal | Shown:
    """报名: a team added (`team` None) or corrected in teams.xlsx, or the page again with what was typed and why."""
    from shuangsheng.storage.workbook.teams_edit import TeamsRefused
    from shuangsheng.usecases.teams import add_team, correct_team

    row = _team_row(form)
    try:
        if team is None:
            done = add_team(folder, row, form.get("mark", ""), patience=work.PATIENCE)
        else:
            done = correct_team(folder, team, row, form.get("mark", ""), patience=work.PATIENCE)
    except TeamsRefused as exc:
        query = {"edit": team} if team is not None else {}
        return Shown(HTTPStatus.UNPROCESSABLE_ENTITY, "teams", {"typed": row, "error": exc, "query": query})
    return f"/console/teams?{'added' if team is None else 'corrected'}={done.team_id}#team-{done.team_id}"


def _add_team(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal | Shown:
    if rounds_drawn(folder):
        return Refusal(HTTPStatus.CONFLICT, "已经抽过签了：新报名的组不能参加这场比赛（可以作为下一场的报名）", "/console/teams")
    return _team(console, folder, form, None)


def _correct_team(console: Console, folder: Path, form: Mapping[str, str]) -> str | Refusal | Shown:
    return _team(console, folder, form, form.get("team", ""))


ACTIONS: dict[tuple[str, str], Callable[[Console, Path, Mapping[str, str]], str | Refusal | Shown]] = {
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
    ("settings", "save"): _settings,
    ("awards", "date"): _award_date,
    ("teams", "add"): _add_team,
    ("teams", "correct"): _correct_team,
    **{(page, "open"): _open for page in EVENT_PAGES},
}


# --- starting it ---


