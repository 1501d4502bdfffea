"""The guard in conftest.py: reading outside the repository fails, in the test process and in subprocesses."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.repo_guard import ENV, OutsideRead

SHARED = ROOT.parent / "shared" / "vectors" / "rules.json"  # where the rule vectors used to be read from


def test_reading_shared_beside_the_checkout_is_refused(repo_guard):
    with pytest.raises(OutsideRead, match="read outside the repository"):
        SHARED.read_text(encoding="utf-8")
    with pytest.raises(OutsideRead):
        os.listdir(ROOT.parent)
    assert repo_guard.seen[-1].endswith("(os.listdir)")
    del repo_guard.seen[-2:]  # expected here; any other test doing this fails


def test_the_repository_temp_folders_and_python_are_readable(tmp_path):
    (tmp_path / "x.txt").write_text("ok", encoding="utf-8")
    assert (tmp_path / "x.txt").read_text(encoding="utf-8") == "ok"
    assert (ROOT / "tests" / "data" / "rule-vectors.json").stat().st_size > 0
    assert (ROOT / "README.md").read_text(encoding="utf-8").startswith("#")
    assert os.__file__ and Path(os.__file__).read_bytes()[:1]


def test_a_subprocess_reading_outside_fails():
    code = f"open({str(SHARED)!r})"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert "OutsideRead: read outside the repository" in result.stderr


@pytest.mark.skipif(not os.environ.get("SHUANGSHENG_GUARD_SELFTEST"), reason="run by the test below only")
def test_swallowed_outside_read():
    with contextlib.suppress(Exception):
        SHARED.read_bytes()  # the guard still fails this test


def test_a_test_that_swallows_an_outside_read_still_fails():
    test = f"{ROOT / 'tests' / 'test_repo_guard.py'}::test_swallowed_outside_read"
    # a fresh pytest run installs its own guard from conftest.py (not the subprocess one, which would also refuse
    # pytest's own capture files in the system temp folder)
    env = {k: v for k, v in os.environ.items() if k != ENV} | {"SHUANGSHENG_GUARD_SELFTEST": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", test],
        cwd=ROOT, capture_output=True, text=True, env=env,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    # reported by the guard's fixture at teardown: an error on that test, naming the path
    assert "ERROR tests/test_repo_guard.py::test_swallowed_outside_read" in result.stdout
    assert f"read outside the repository: {SHARED}" in result.stdout
