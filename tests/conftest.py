"""Shared pytest setup. Keep each concern in its own short, commented block."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.repo_guard import ENV, Guard, install

ROOT = Path(__file__).resolve().parents[1]

# --- Nothing reads outside the repository (a fresh clone has nothing beside it) ---------------------------------
# The guard is installed before collection, so module-level reads are caught too; Python subprocesses started by
# the tests get the same guard through tests/guard/sitecustomize.py on PYTHONPATH. Libraries' scratch files
# (openpyxl writes through `tempfile`) go into the test run's own temporary folder, which is allowed.

_guard: Guard | None = None


def _allow_in_subprocesses(*folders: str) -> None:
    os.environ[ENV] = os.pathsep.join(p for p in (os.environ.get(ENV), *folders) if p)


def pytest_configure(config: pytest.Config) -> None:
    global _guard
    hypothesis_db = os.path.join(os.getcwd(), ".hypothesis")  # hypothesis keeps its examples where pytest runs
    _guard = install([str(ROOT), hypothesis_db])
    os.environ.pop(ENV, None)
    _allow_in_subprocesses(str(ROOT), hypothesis_db)  # the repository first: the subprocess imports from it
    guard_site = str(ROOT / "tests" / "guard")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (guard_site, os.environ.get("PYTHONPATH")) if p)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    if _guard is not None:
        _guard.active = False  # the tests are over: pytest's own clean-up and reports (e.g. --junitxml) may follow


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_inside_the_test_run(tmp_path_factory: pytest.TempPathFactory):
    assert _guard is not None
    _guard.active = False  # pytest looks through {temp}/pytest-of-{user} for old runs to remove
    base = tmp_path_factory.getbasetemp()
    _guard.active = True
    scratch = base / "tempfile"
    scratch.mkdir(exist_ok=True)
    _guard.allow(str(base))
    _allow_in_subprocesses(str(base))
    saved = tempfile.tempdir, os.environ.get("TMPDIR")
    tempfile.tempdir = os.environ["TMPDIR"] = str(scratch)
    yield
    tempfile.tempdir = saved[0]
    if saved[1] is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = saved[1]


@pytest.fixture
def repo_guard() -> Guard:
    assert _guard is not None
    return _guard


@pytest.fixture(autouse=True)
def _no_reads_outside_repository():
    """Fail the test that read outside the repository, even when the code under test caught the error."""
    assert _guard is not None
    before = len(_guard.seen)
    yield
    if new := _guard.seen[before:]:
        del _guard.seen[before:]
        pytest.fail("\n".join(new), pytrace=False)


# --- Shared helpers: the command line, file fingerprints, a new event folder ------------------------------------
# Plain functions, imported by the test modules (`from tests.conftest import cli, new_event, sha`).


def cli(*args: object, code: int = 0):
    """Run `shuangsheng` in-process; assert the exit code and that nothing escaped, neither as a traceback nor
    through the last line of defence (an 错误报告)."""
    from typer.testing import CliRunner

    from cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output and "错误报告" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result


def sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def new_event(folder: Path, teams: int = 4, *, playoff: bool = False, each_round: bool = False) -> Path:
    """`shuangsheng init`, then a team list of `teams` teams (01 张1甲/李1乙, …); optionally a 三四名决赛 and byes
    in each round instead of the defaults."""
    from scoring import workbook
    from scoring.teams import Team

    cli("init", folder)
    listed = [Team(f"{i:02d}", (f"张{i}甲", f"李{i}乙")) for i in range(1, teams + 1)]
    workbook.write_teams(folder / "teams.xlsx", listed, force=True)
    toml = folder / "event.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'third_place = "shared"' in text and 'byes = "first_round"' in text
    if playoff:
        text = text.replace('third_place = "shared"', 'third_place = "playoff"')
    if each_round:
        text = text.replace('byes = "first_round"', 'byes = "each_round"')
    toml.write_text(text, encoding="utf-8")
    return folder
