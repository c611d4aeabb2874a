"""A missing compiled extension fails the run under ``PRESIDENT_REQUIRE_COMPILED=1`` (what
``make test`` and CI set) instead of skipping its tests; without the variable they skip.

Each case runs pytest in a child process on a small test file, with this directory's
conftest as a plugin, and a missing build is shown by refusing the import of the extensions
(the built files are left where they are)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import NOT_BUILT

ROOT = Path(__file__).resolve().parent.parent

#: Runs pytest with ``president._playout`` and ``president._vector`` unimportable, as in an
#: installation made without a C compiler.
WITHOUT_BUILD = """
import sys
class _NotBuilt:
    def find_spec(self, name, path=None, target=None):
        if name in ("president._playout", "president._vector"):
            raise ImportError(f"No module named {name!r}")
sys.meta_path.insert(0, _NotBuilt())
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""

NEEDS_C = """
from tests.helpers import import_compiled, needs_compiled

@needs_compiled({ok})
def test_needs_the_build():
    import_compiled("president._playout")

def test_plain():
    pass
"""


def _pytest(tmp_path: Path, test: str, require: str | None, *, hide: bool = False,
            pure: bool = False) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "test_needs_c.py"
    path.write_text(test)
    env = dict(os.environ)
    env.pop("PRESIDENT_REQUIRE_COMPILED", None)
    env.pop("PRESIDENT_PURE", None)
    if require is not None:
        env["PRESIDENT_REQUIRE_COMPILED"] = require
    if pure:
        env["PRESIDENT_PURE"] = "1"
    args = ["-q", "-p", "no:cacheprovider", "-p", "tests.conftest", str(path)]
    cmd = [sys.executable, "-c", WITHOUT_BUILD, *args] if hide else \
        [sys.executable, "-m", "pytest", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_a_missing_build_stops_the_run_with_what_to_install(tmp_path):
    run = _pytest(tmp_path, NEEDS_C.format(ok=True), "1", hide=True)
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "PRESIDENT_REQUIRE_COMPILED=1 but the compiled extensions cannot be used" in out
    assert "president._playout: No module named 'president._playout'" in out
    assert "president._vector: No module named 'president._vector'" in out
    assert "apt-get install gcc python3-dev" in out
    assert "passed" not in out                  # stopped before any test


def test_without_the_variable_a_missing_build_skips(tmp_path):
    for require in (None, "0"):
        run = _pytest(tmp_path, NEEDS_C.format(ok=False), require, hide=True)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "1 passed, 1 skipped" in run.stdout


def test_president_pure_contradicts_the_requirement(tmp_path):
    run = _pytest(tmp_path, NEEDS_C.format(ok=True), "1", pure=True)
    assert run.returncode != 0
    assert "PRESIDENT_PURE=1 is set, which turns the compiled code off" in run.stdout + run.stderr


def test_a_not_built_skip_is_a_failure_when_required(tmp_path):
    """A build that imports but lacks a part a test needs (the session check passes): the
    test's "not built" skip becomes a failure."""
    run = _pytest(tmp_path, NEEDS_C.format(ok=False), "1")
    assert run.returncode != 0, run.stdout
    assert "1 passed, 1 error" in run.stdout
    assert f"skipped as '{NOT_BUILT}'" in run.stdout
    run = _pytest(tmp_path, NEEDS_C.format(ok=True), "1")
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout


def test_make_test_and_ci_require_the_build():
    makefile = (ROOT / "Makefile").read_text()
    assert "PRESIDENT_REQUIRE_COMPILED ?= 1\nexport PRESIDENT_REQUIRE_COMPILED\n" in makefile
    assert "export PRESIDENT_REQUIRE_COMPILED=1" in (ROOT / ".ci" / "run").read_text()
