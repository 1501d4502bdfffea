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
    if not hasattr(config, "workerinput"):  # once per run (with xdist: in the process that starts the workers)
        _compile_for_subprocesses()
        if config.getoption("numprocesses", None):
            return  # xdist's controller runs no test (its workers do, each guarded), and makes their temporary folders
    hypothesis_db = os.path.join(os.getcwd(), ".hypothesis")  # hypothesis keeps its examples where pytest runs
    _guard = install([str(ROOT), hypothesis_db])
    os.environ.pop(ENV, None)
    _allow_in_subprocesses(str(ROOT), hypothesis_db)  # the repository first: the subprocess imports from it
    guard_site = str(ROOT / "tests" / "guard")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (guard_site, os.environ.get("PYTHONPATH")) if p)


# --- Python subprocesses start from bytecode ---------------------------------------------------------------------
# The tests start the program in child processes (show, serve, the killed commands of test_faults, …) about a hundred
# times. With PYTHONDONTWRITEBYTECODE set, as on the project's machines, none keeps the bytecode it compiles, so
# each compiled the package from its source again: 0.1 s of a 0.4 s start. Compiled once here (into __pycache__,
# which git ignores), each reads it; a source changed since is compiled afresh as usual (its mtime).


def _compile_for_subprocesses() -> None:
    import compileall

    for package in ("shuangsheng", "tests"):
        compileall.compile_dir(ROOT / package, quiet=2)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    if _guard is not None:
        _guard.active = False  # the tests are over: pytest's own clean-up and reports (e.g. --junitxml) may follow


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_inside_the_test_run(tmp_path_factory: pytest.TempPathFactory):
    assert _guard is not None, "the guard is installed in every process that runs tests"
    _guard.active = False  # pytest looks through {temp}/pytest-of-{user} for old runs to remove
    base = tmp_path_factory.getbasetemp()
    _guard.active = True
    scratch = base / "tempfile"
    scratch.mkdir(exist_ok=True)
    _guard.allow(str(base))
    _allow_in_subprocesses(str(base))
    saved = tempfile.tempdir, os.environ.get("TMPDIR")
    tempfile.tempdir = os.environ["TMPDIR"] = str(scratch)
    from tests import events

    events.TEMPLATES = base / "event-templates"  # each event built once in this run, then copied (tests/events.py)
    yield
    events.TEMPLATES = None
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


# --- the PDFs' fonts: a Chinese TrueType font embedded, or the PDF tests are skipped and say why ------------------


@pytest.fixture(scope="module")
def fonts():
    """The fonts the program would choose here (a test module may choose its own: its `fonts` wins)."""
    from shuangsheng.render.materials.fonts import choose_fonts

    chosen = choose_fonts()
    if not chosen.embedded:
        pytest.skip("no Chinese TrueType font installed (apt install fonts-wqy-microhei)")
    return chosen
