"""The commands of the hall: `show` (the venue display, or its `--export` file) and `serve` (the venue display and
the phones' table entry, the desk, the 扫码单 kept in step with the draws). Each parses, starts the server, prints
its addresses and serves until Ctrl+C."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from shuangsheng.cli.shared import FolderArg, PortOpt, app, fail, hold
from shuangsheng.cli_help import a_file, a_folder
from shuangsheng.vocabulary.errors import UserError

WSA_PORT_TAKEN = (10048, 10013)  # Windows' WSAEADDRINUSE and WSAEACCES, as a socket error's number

if TYPE_CHECKING:  # imported inside the commands, for speed
    from shuangsheng.hall.console import Console
    from shuangsheng.hall.console_gate import Running
    from shuangsheng.hall.hall import Hall
    from shuangsheng.hall.qr_watch import QrWatch


@app.command()
def show(
    folder: FolderArg = Path("."),
    port: PortOpt = 8000,
    lan: Annotated[bool, typer.Option("--lan", help="让同一局域网中的电视也能打开（默认只有本机能打开）")] = False,
    export: Annotated[
        Path | None,
        typer.Option("--export", metavar="文件", help="不启动网页，把同样的内容导出为一个 HTML 文件", parser=a_file),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="覆盖已有的导出文件")] = False,
) -> None:
    """场地大屏：在电视上显示本轮对阵、成绩、晋级图和名次，随计分自动更新（只读网页）。"""
    from shuangsheng.hall import server
    from shuangsheng.hall.export import export as export_views
    from shuangsheng.hall.lan import lan_address
    from shuangsheng.storage.event import missing_folder
    from shuangsheng.storage.ledger.lost import lost_ledger

    if (missing := missing_folder(folder)) is not None:
        fail(missing)
    if (lost := lost_ledger(folder)) is not None:  # a lost event.db is refused here as by every command
        fail(lost.messages)
    if export is not None:
        try:
            with hold(folder):
                written = export_views(folder, export, force=force)
        except UserError as exc:
            fail(exc.messages)
        typer.echo(f"已导出 {written}（可直接用浏览器打开，不需要联网）")
        return
    host = "127.0.0.1"
    if lan:
        host = lan_address() or ""
        if not host:
            fail("找不到这台电脑的局域网地址：请确认电脑已连上路由器（网线或无线网络）；只在本机显示请去掉 --lan")
    try:
        httpd = server.make_server(folder, host, port, log=lambda line: typer.echo(line, err=True))
    except OSError as exc:
        other = port + 1 if 0 < port < 65535 else 8001
        reason = "端口已被占用" if port_taken(exc) else bind_reason(exc)
        fail(f"无法在 {host}:{port} 上启动网页（{reason}）；请换一个端口，如 --port {other}")
    url = f"http://{host}:{httpd.server_address[1]}/"
    typer.echo(f"场地大屏已启动：{url}")
    if lan:
        typer.echo(f"在电视的浏览器中输入：{url}")
        typer.echo("（Windows 防火墙询问是否允许 Python 访问网络时，请选“允许”，并勾选“专用网络”）")
    else:
        typer.echo("在这台电脑的浏览器中打开上面的地址（按 F11 全屏）；要让电视也能打开，请加 --lan")
    try:  # Ctrl+C is offered inside the `try` that catches it (pressed on reading the line, it is caught too)
        typer.echo("计分后页面会自动更新；按 Ctrl+C 停止")
        httpd.serve_forever()
    except KeyboardInterrupt:
        typer.echo("场地大屏已停止")
    finally:
        httpd.server_close()


@app.command()
def serve(
    folder: FolderArg = Path("."),
    port: PortOpt = 8000,
    lan: Annotated[bool, typer.Option("--lan", help="让同一局域网中的手机和电视也能打开（默认只有本机能打开）")] = False,
    address: Annotated[
        str | None,
        typer.Option("--address", metavar="IP地址", help="电脑有多个网络时，指定用哪个局域网地址（含 --lan）"),
    ] = None,
) -> None:
    """现场服务：场地大屏和各桌手机录分（录分码见计分卡），打印地址和裁判台密码。"""
    from shuangsheng.hall import hall
    from shuangsheng.hall.console import make_console
    from shuangsheng.storage.event import is_ipv4, load, missing_folder
    from shuangsheng.usecases.serve import ensure_codes

    if (missing := missing_folder(folder)) is not None:
        fail(missing)
    if address is not None and not is_ipv4(address):
        fail(f"--address：应为本机的局域网 IP 地址，如 192.168.1.20，实际为“{address}”")
    try:
        event = load(folder)
        with hold(folder):
            coded = ensure_codes(folder)
    except UserError as exc:
        fail(exc.messages)
    hosts = ["127.0.0.1"]
    if lan or address is not None:
        hosts += _lan_host(address or event.serve.address)
    try:
        pin = event.serve.pin or hall.new_pin()
        console = make_console(None, folder, hosts=hosts, port=port, pin=pin,
                               log=lambda line: typer.echo(line, err=True), desk_lan=event.serve.desk_lan)
        server = console.hall
    except OSError as exc:
        other = port + 1 if 0 < port < 65535 else 8001
        if port_taken(exc):
            fail(f"无法在 {port} 端口上启动（端口已被占用）；请换一个端口，如 --port {other}")
        fail(f"无法在 {'、'.join(hosts)} 的 {port} 端口上启动（{bind_reason(exc)}）；指定的地址须是这台电脑的局域网地址")
    for number in coded:
        typer.echo(f"第{number}轮抽签时还没有录分码，已为各桌生成（已打印的计分卡上没有录分码）", err=True)
    urls = server.addresses()
    typer.echo(f"现场服务已启动：{urls[0]}（本机）")
    for url in urls[1:]:
        typer.echo(f"局域网地址：{url}（同一网络中的电视和手机用这个地址）")
    sheets = None
    if len(urls) > 1:
        typer.echo("（Windows 防火墙询问是否允许 Python 访问网络时，请选“允许”，并勾选“专用网络”；点了“取消”的话手机都连不上："
                   "在“控制面板 → Windows Defender 防火墙 → 允许应用通过 Windows 防火墙”里给 Python 勾选“专用”）")
        sheets = _qr_sheets(folder, urls[1])
    where = f"（局域网中也可打开：{urls[-1]}desk）" if event.serve.desk_lan and len(urls) > 1 else "（在这台电脑上打开）"
    typer.echo(f"裁判台：{urls[0]}desk{where}")
    typer.echo(f"组织者控制台：{urls[0]}console （本场比赛；在这台电脑上打开）")
    typer.echo(f"裁判台和控制台的密码：{pin}")
    _until_stopped(server, sheets)


def port_taken(exc: OSError) -> bool:
    """Whether a bind's refusal means the port is in use: EADDRINUSE, or EACCES (Windows refuses a port another
    program holds exclusively with WSAEACCES, raised as PermissionError; elsewhere a port reserved for the system)."""
    import errno

    return exc.errno in {errno.EADDRINUSE, errno.EACCES, *WSA_PORT_TAKEN} or isinstance(exc, PermissionError)


def bind_reason(exc: OSError) -> str:
    """Any other refusal of a bind in plain words: never the file wording (no file is involved in a bind)."""
    import errno

    not_ours = {code for name in ("EADDRNOTAVAIL", "WSAEADDRNOTAVAIL") if (code := getattr(errno, name, None))}
    if exc.errno in not_ours:
        return "这个地址不是这台电脑的"
    return f"系统拒绝（{exc.strerror or type(exc).__name__}）"


def _until_stopped(server: Hall, sheets: QrWatch | None) -> None:
    """Serve until Ctrl+C, then stop the 扫码单's watch and the servers. Ctrl+C is offered once the servers
    run, inside the `try` that catches it (a script that presses it on reading the line is caught too)."""
    _long_lived()
    server.start()
    try:
        typer.echo("各桌录入的每一局都存入 event.db；按 Ctrl+C 停止")
        while True:
            time.sleep(3600)  # the servers answer in their threads; Ctrl+C ends the sleep
    except KeyboardInterrupt:
        typer.echo("现场服务已停止")
    finally:
        if sheets is not None:
            sheets.stop()
        server.stop()


def _long_lived() -> None:
    """Before the servers start: what the process has made so far (the program and its libraries, the event as
    first read) is set aside from the garbage collector (`gc.freeze`). It lives as long as the process, and each
    collection of the oldest generation — which a hall of phones sets off again and again as the kept tables grow —
    would otherwise go through all of it, every request thread waiting meanwhile (bench/run.py --only load256)."""
    import gc

    gc.collect()
    gc.freeze()


def _qr_sheets(folder: Path, url: str) -> QrWatch:
    """第N轮扫码单.pdf at the LAN address: the newest round's now, and each round's again when it is drawn while
    serve runs (shuangsheng/hall/qr_watch.py); a sheet a person edited is kept and said. Returns the watch to stop."""
    from shuangsheng.hall.qr_watch import QrWatch

    sheets = QrWatch(folder, url, say=typer.echo, warn=lambda line: typer.echo(line, err=True))
    sheets.start()
    return sheets


def _lan_host(chosen: str | None) -> list[str]:
    """The LAN address to listen on besides 127.0.0.1: the one chosen (--address, [serve] address) or found."""
    from shuangsheng.hall.lan import lan_address

    found = chosen or lan_address()
    if not found:
        fail("找不到这台电脑的局域网地址：请确认电脑已连上路由器或热点；或用 --address 指定；只在本机使用请去掉 --lan")
    return [] if found == "127.0.0.1" else [found]


@app.command()
def start(
    root: Annotated[
        Path | None,
        typer.Argument(metavar="根文件夹", help="各场比赛所在的文件夹（默认：“文档”里的“双升级比赛”）", parser=a_folder),
    ] = None,
    port: PortOpt = 8000,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="不自动打开浏览器（脚本和测试用）")] = False,
) -> None:
    """组织者控制台：在这台电脑的浏览器里办整场比赛（新建、设置、报名、材料、抽签、本轮、更正、颁奖），不用输入命令。"""
    from shuangsheng.hall import console_gate
    from shuangsheng.storage.home import events_root

    root = root or events_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"无法建立文件夹 {root}（{exc.strerror or exc}）；请换一个文件夹：shuangsheng start 文件夹")
    running = console_gate.read_state()
    if running is not None and (url := _running_console(running)) is not None:
        typer.echo(f"组织者控制台已在运行（{running.root}），已在浏览器中打开")
        _browse(url, no_browser)
        return
    console, state = _start_console(root, port)
    _long_lived()
    console.hall.start()
    url = f"http://127.0.0.1:{console.hall.port}/console/enter?token={console.gate.one_time_token()}"
    typer.echo(f"组织者控制台已启动：http://127.0.0.1:{console.hall.port}/console （比赛都在 {root}）")
    typer.echo(f"控制台密码：{console.gate.pin}（在别的浏览器里进入控制台、打开裁判台时输入）")
    _browse(url, no_browser)
    typer.echo("这个窗口就是控制台：关闭它（或按 Ctrl+C），控制台和现场服务就停止了；已经录入的都已保存")
    try:
        while True:
            time.sleep(3600)  # the servers answer in their threads; Ctrl+C ends the sleep
    except KeyboardInterrupt:
        typer.echo("控制台已停止")
    finally:
        console.stop()
        console_gate.forget_state(state)


def _start_console(root: Path, port: int) -> tuple[Console, Running]:
    """The console on `port` (or the next free one of the ten after it), serving; its state file written."""
    from shuangsheng.hall import console_gate
    from shuangsheng.hall.console import make_console
    from shuangsheng.hall.hall import new_pin
    from shuangsheng.storage.names import EVENT_FILE

    one = (root / EVENT_FILE).is_file()  # ROOT is an event folder itself: that event alone, as `serve` has it
    last: OSError | None = None
    for tried in range(port, port + 10) if port else (0,):
        try:
            console = make_console(None if one else root, root if one else None, hosts=["127.0.0.1"], port=tried,
                                   pin=new_pin(), log=lambda line: typer.echo(line, err=True))
            break
        except OSError as exc:
            last = exc
    else:
        reason = "端口已被占用" if last is not None and port_taken(last) else bind_reason(last or OSError())
        fail(f"无法在 {port}–{port + 9} 端口上启动控制台（{reason}）；请换一个端口，如 --port {port + 100}")
    state = console_gate.Running(console.hall.port, console.gate.launch_secret, str(root))
    try:
        console_gate.write_state(state)
    except OSError as exc:  # only a second start cannot find this one
        typer.echo(f"（无法记下控制台的端口：{exc.strerror or exc}；再次启动时会另开一个）", err=True)
    return console, state


def _running_console(running: Running) -> str | None:
    """The running console's enter URL with a fresh one-time token, when it answers as ours; else None."""
    import json
    import urllib.request

    from shuangsheng.hall.console_gate import SECRET_HEADER

    request = urllib.request.Request(f"http://127.0.0.1:{running.port}/console/token", data=b"", method="POST",
                                     headers={SECRET_HEADER: running.secret, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=3) as answer:
            token = json.loads(answer.read().decode("utf-8"))["token"]
    except (OSError, ValueError, KeyError):
        return None
    return f"http://127.0.0.1:{running.port}/console/enter?token={token}"


def _browse(url: str, no_browser: bool) -> None:
    if no_browser:
        typer.echo(f"在浏览器中打开：{url}")
        return
    import webbrowser

    if not webbrowser.open(url):
        typer.echo(f"请在浏览器中打开：{url}")
