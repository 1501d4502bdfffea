"""Runs at the start of every Python subprocess the tests start (tests/conftest.py puts this folder first on
PYTHONPATH): the same outside-the-repository guard as in the test process, with the same allowed roots."""

import os
import sys

if os.environ.get("SHUANGSHENG_GUARD_ALLOW"):
    _allowed = os.environ["SHUANGSHENG_GUARD_ALLOW"].split(os.pathsep)
    sys.path.insert(0, _allowed[0])  # the repository, so `tests.repo_guard` imports
    from tests.repo_guard import install

    install(_allowed)
    del sys.path[0]
