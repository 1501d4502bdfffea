"""Smoke test of the built Windows installer under Wine: `python packaging/windows/wine_smoke.py` (after build.py;
needs Debian's wine, wine32 and wine64 — the NSIS installer is 32-bit, so `dpkg --add-architecture i386` first — and
gcc-mingw-w64-x86-64 for the stand-in below). .ci/run runs it as a step of its own; docs/windows-installer.md.

In a fresh Wine prefix under build/windows/ it installs the installer silently (as a user, no admin rights), puts a
CJK font into the prefix's C:\\windows\\Fonts as msyh.ttc and simkai.ttf (the names the Windows font lookup tries,
so that lookup is what finds it), runs `shuangsheng.exe demo --teams 4` and checks its PDFs and PNGs, starts the
Start-menu entry's launcher and fetches its first page on 127.0.0.1, starts it a second time and checks that this
one finds the first and stops (Wine refuses a second bind either way, so it cannot show what Windows would allow),
makes the demo event from the console (生成示例比赛, as the office would), stops Wine, and uninstalls: the program and its entries go, the events in Documents stay. Exit status 1 on any failure.

What Wine 8 lacks and real Windows has: python-calamine's wheel imports `ProcessPrng` from bcryptprimitives.dll;
a stand-in DLL exporting it (RtlGenRandom underneath, built here with mingw) goes into the prefix's system32 for
this test only — it is never shipped. WINEDLLOVERRIDES keeps wineboot from fetching Mono and Gecko."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import build  # noqa: E402  (the build's names: where the installer is)

PREFIX = build.BUILD / "wine"
HOME = build.BUILD / "wine-home"  # Wine links the user's Documents and Desktop to $HOME: kept inside build/ too
URL = "http://127.0.0.1:8000/"
FONTS = {"msyh.ttc": "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
         "simkai.ttf": "/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf"}
STAND_IN = r"""
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) { return RtlGenRandom(data, (ULONG)size); }
"""
WAIT = 120.0  # seconds for the console to answer under Wine
DEMO_WAIT = 600.0  # seconds for the console's demo (16 teams, every paper) under Wine


def env() -> dict[str, str]:
    """Wine in its own prefix and home: no Mono or Gecko, no menu entries on this machine, the stand-in first."""
    return {**os.environ, "WINEPREFIX": str(PREFIX), "WINEDEBUG": "-all", "WINEARCH": "win64", "HOME": str(HOME),
            "XDG_CONFIG_HOME": str(HOME / ".config"), "XDG_DATA_HOME": str(HOME / ".local" / "share"),
            "WINEDLLOVERRIDES": "mscoree,mshtml=;winemenubuilder.exe=d;bcryptprimitives=n,b"}


def wine(*args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess[str]:
    print("+ wine", " ".join(args), flush=True)
    done = subprocess.run(["wine", *args], env=env(), capture_output=True, text=True, errors="replace",
                          timeout=timeout)
    if check and done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): wine {' '.join(args)}\n{done.stdout}\n{done.stderr}")
    return done


def prepare() -> Path:
    """A fresh prefix with the fonts and the stand-in; returns drive C:."""
    shutil.rmtree(PREFIX, ignore_errors=True)
    shutil.rmtree(HOME, ignore_errors=True)
    HOME.mkdir(parents=True)
    subprocess.run(["wineboot", "-i"], env=env(), check=True, capture_output=True, timeout=600)
    drive = PREFIX / "drive_c"
    for name, source in FONTS.items():
        shutil.copyfile(source, drive / "windows" / "Fonts" / name)
    code = build.BUILD / "processprng.c"
    code.write_text(STAND_IN, encoding="utf-8")
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", str(drive / "windows" / "system32" /
                    "bcryptprimitives.dll"), str(code), "-ladvapi32"], check=True)
    return drive


def installed(drive: Path) -> Path:
    """Install silently; the installation folder (under the user's %LOCALAPPDATA%\\Programs)."""
    installer = build.OUTPUT / build.installer_name(build.project_version())
    wine(str(installer), "/S")
    found = sorted(drive.glob("users/*/AppData/Local/Programs/双升级比赛/Python/python.exe"))
    if not found:
        sys.exit("installed nowhere under %LOCALAPPDATA%\\Programs\\双升级比赛")
    return found[0].parent.parent


def check_demo(folder: Path, drive: Path) -> None:
    out = drive / "demo"
    done = wine(str(folder / "bin" / "shuangsheng.exe"), "demo", "--teams", "4", "--out", "C:\\demo")
    pdfs, pngs = sorted(out.rglob("*.pdf")), sorted(out.rglob("*.png"))
    if len(pdfs) < 8 or not pngs:
        sys.exit(f"demo made {len(pdfs)} PDFs and {len(pngs)} PNGs\n{done.stdout}\n{done.stderr}")
    print(f"demo: {len(pdfs)} PDFs, {len(pngs)} PNGs", flush=True)


def first_page(deadline: float) -> str | None:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(URL, timeout=5) as response:
                return response.read().decode("utf-8", "replace")
        except OSError:
            time.sleep(1)
    return None


def check_launcher(folder: Path) -> None:
    python, script = str(folder / "Python" / "python.exe"), str(folder / "双升级比赛.launch.py")
    print("+ wine python.exe 双升级比赛.launch.py (the Start-menu entry)", flush=True)
    first = subprocess.Popen(["wine", python, script], env=env(), stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        page = first_page(time.monotonic() + WAIT)
        if page is None or "<html" not in page.lower():
            sys.exit(f"the launcher's console did not answer at {URL}")
        print(f"first page: {len(page)} characters from {URL}", flush=True)
        second = wine(python, script, timeout=120)
        if "已在运行" not in second.stdout:
            sys.exit(f"a second start did not find the first:\n{second.stdout}\n{second.stderr}")
        print("second start: found the running console", flush=True)
        if not sorted((PREFIX / "drive_c" / "users").glob("*/Documents/双升级比赛")):
            sys.exit("the launcher's console made no events root Documents\\双升级比赛")
        demo_by_clicks()
    finally:
        subprocess.run(["wineserver", "-k"], env=env(), check=False)
        first.kill()
        first.wait()


class Console:
    """The console as its page uses it: let in by a one-time token (asked for with the launch secret the console
    wrote to the user's LOCALAPPDATA, as a second start does), then forms with the page's token."""

    def __init__(self) -> None:
        (state,) = sorted((PREFIX / "drive_c" / "users").glob("*/AppData/Local/shuangsheng/console.json"))
        found = json.loads(state.read_text(encoding="utf-8"))
        self.port, self.cookie, self.csrf = found["port"], "", ""
        token = json.loads(self.ask("POST", "/console/token", headers={"X-Console-Secret": found["secret"]}))["token"]
        self.ask("GET", f"/console/enter?token={token}")
        self.ask("GET", "/console/events")

    def ask(self, method: str, path: str, form: dict[str, str] | None = None,
            headers: dict[str, str] | None = None) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Cookie": self.cookie, **(headers or {})}
        body = urllib.parse.urlencode(form).encode() if form is not None else None
        if form is not None:
            sent |= {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{self.port}"}
        conn.request(method, path, body=body, headers=sent)
        answer = conn.getresponse()
        text = answer.read().decode("utf-8", "replace")
        conn.close()
        if cookie := answer.getheader("Set-Cookie"):
            self.cookie = cookie.split(";")[0]
        if found := re.search(r'name="csrf" value="([^"]+)"', text):
            self.csrf = found.group(1)
        self.location = answer.getheader("Location") or ""
        return text


def demo_by_clicks() -> None:
    """生成示例比赛 pressed on the console's 活动 page: the demo event made from the console, every paper in it."""
    console = Console()
    print("+ the console's 生成示例比赛", flush=True)
    console.ask("POST", "/console/events/demo", {"csrf": console.csrf, "id": "wine-demo"})
    job = "/api" + console.location
    deadline = time.monotonic() + DEMO_WAIT
    while (state := json.loads(console.ask("GET", job)))["running"]:
        if time.monotonic() > deadline:
            sys.exit(f"the console's demo did not finish in {DEMO_WAIT:.0f} s: {state}")
        time.sleep(2)
    events = sorted((PREFIX / "drive_c" / "users").glob("*/Documents/双升级比赛/示例比赛"))
    pdfs = sorted(events[0].glob("*.pdf")) if events else []
    if not state["ok"] or not pdfs:
        sys.exit(f"the console's demo: {state}, {len(pdfs)} PDFs")
    print(f"the console's demo: {len(pdfs)} PDFs in Documents\\双升级比赛\\示例比赛", flush=True)


def check_uninstall(folder: Path, drive: Path) -> None:
    """The uninstaller removes the program and its entries and leaves the events in Documents alone. `_?=` runs it
    in place, so it has finished when wine returns (it cannot delete itself then: uninstall.exe stays)."""
    windows = "C:\\" + str(folder.relative_to(drive)).replace("/", "\\")
    wine(str(folder / "uninstall.exe"), "/S", f"_?={windows}")
    left = sorted(path.name for path in folder.iterdir())
    if left != ["uninstall.exe"]:
        sys.exit(f"the uninstaller left {left} in {folder}")
    entries = sorted(drive.glob("users/*/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/双升级比赛.lnk"))
    if entries or sorted(HOME.glob("双升级比赛.lnk")):
        sys.exit("the uninstaller left the Start-menu or desktop entry")
    if not sorted(drive.glob("users/*/Documents/双升级比赛/示例比赛/event.toml")):
        sys.exit("the uninstaller removed the events in Documents\\双升级比赛")
    print("uninstalled: the program and its entries gone, Documents\\双升级比赛 kept", flush=True)


def main() -> None:
    missing = [tool for tool in ("wine", "wineboot", "wineserver", "x86_64-w64-mingw32-gcc") if not shutil.which(tool)]
    if missing:
        sys.exit(f"missing: {', '.join(missing)}")
    try:
        drive = prepare()
        folder = installed(drive)
        print(f"installed in {folder.relative_to(PREFIX)}", flush=True)
        help_text = wine(str(folder / "bin" / "shuangsheng.exe"), "--help").stdout
        if "双升级" not in help_text or "用法" not in help_text:
            sys.exit(f"--help is not the Chinese help:\n{help_text}")
        check_demo(folder, drive)
        check_launcher(folder)
        check_uninstall(folder, drive)
    finally:  # nothing of Wine's left running after the test
        subprocess.run(["wineserver", "-k"], env=env(), check=False)
        subprocess.run(["wineserver", "-w"], env=env(), check=False)
    print("Wine smoke test passed")


if __name__ == "__main__":
    main()
